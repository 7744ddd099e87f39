/* points.c - the probe's points document: parsing, checking, writing, measured ceilings. */
#include "points.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "files.h"
#include "json_dup.h"
#include "json_read.h"
#include "spec.h"

/* A points file is written by us; a million points is far beyond any probe and keeps a
 * hostile file from making us allocate without bound. */
#define POINTS_MAX_COUNT 1000000
/* Derived fields must agree with flops, bytes and seconds to this relative tolerance: files
 * are written with 9 significant digits, so 1e-3 leaves ample room for rounding while still
 * catching a hand-edited number. */
#define POINTS_DERIVED_TOL 1e-3

static void set_err(char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || n == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

void points_init(struct points_doc *d)
{
    memset(d, 0, sizeof *d);
}

void points_free(struct points_doc *d)
{
    free(d->points);
    points_init(d);
}

bool points_add(struct points_doc *d, const struct probe_point *p)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        if (cap > POINTS_MAX_COUNT)
            cap = POINTS_MAX_COUNT;
        if (cap <= d->n)
            return false;
        struct probe_point *np = realloc(d->points, cap * sizeof *np);
        if (!np)
            return false;
        d->points = np;
        d->cap = cap;
    }
    d->points[d->n++] = *p;
    return true;
}

void points_derive(struct probe_point *p)
{
    p->intensity = p->bytes > 0 ? p->flops / p->bytes : 0;
    p->flops_per_s = p->seconds > 0 ? p->flops / p->seconds : 0;
    p->bytes_per_s = p->seconds > 0 ? p->bytes / p->seconds : 0;
}

struct probe_point points_make(const char *name, enum dtype dt, double flops, double bytes,
                               double seconds, bool valid)
{
    struct probe_point p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "%s", name);
    p.dtype = dt;
    p.flops = flops;
    p.bytes = bytes;
    p.seconds = seconds;
    p.valid = valid;
    points_derive(&p);
    return p;
}

void points_set_time_now(struct points_doc *d)
{
    time_t t = time(NULL);
    struct tm tm;
    if (t == (time_t)-1 || !gmtime_r(&t, &tm) ||
        strftime(d->time, sizeof d->time, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        d->time[0] = '\0';
}

/* ---- parsing ------------------------------------------------------------------------------ */

/* Copies a JSON string into a fixed buffer; false when it does not fit or holds a control
 * character (names end up on a terminal). */
static bool copy_text(const char *s, char *dst, size_t n)
{
    size_t len = strlen(s);
    if (len >= n)
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false;
    memcpy(dst, s, len + 1);
    return true;
}

/* Reads an optional non-negative finite number. Returns 0 absent/null, 1 read, -1 bad. */
static int get_number(const cJSON *obj, const char *key, double *out, const char *where,
                      const char *origin, char *err, size_t n)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsNumber(it)) {
        set_err(err, n, "%s: %s.%s: must be a number", origin, where, key);
        return -1;
    }
    double v = it->valuedouble;
    if (!isfinite(v)) {
        set_err(err, n, "%s: %s.%s: must be finite", origin, where, key);
        return -1;
    }
    if (v < 0) {
        set_err(err, n, "%s: %s.%s: must not be negative", origin, where, key);
        return -1;
    }
    *out = v;
    return 1;
}

static int get_int(const cJSON *obj, const char *key, int *out, const char *where,
                   const char *origin, char *err, size_t n)
{
    double v = 0;
    int r = get_number(obj, key, &v, where, origin, err, n);
    if (r <= 0)
        return r;
    if (v > INT_MAX || v != floor(v)) {
        set_err(err, n, "%s: %s.%s: must be a whole number up to %d", origin, where, key,
                INT_MAX);
        return -1;
    }
    *out = (int)v;
    return 1;
}

static int get_string(const cJSON *obj, const char *key, char *dst, size_t dstn,
                      const char *where, const char *origin, char *err, size_t n)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!it || cJSON_IsNull(it))
        return 0;
    if (!cJSON_IsString(it) || !it->valuestring) {
        set_err(err, n, "%s: %s.%s: must be a string", origin, where, key);
        return -1;
    }
    if (!copy_text(it->valuestring, dst, dstn)) {
        set_err(err, n, "%s: %s.%s: longer than %zu characters or has control characters",
                origin, where, key, dstn - 1);
        return -1;
    }
    return 1;
}

/* |got - want| within the tolerance, relative to want (absolute near zero). */
static bool agrees(double got, double want)
{
    double scale = fabs(want);
    if (scale < 1e-300)
        return fabs(got) < 1e-300;
    return fabs(got - want) <= POINTS_DERIVED_TOL * scale;
}

static bool parse_point(const cJSON *obj, const char *where, const char *origin,
                        struct probe_point *p, char *err, size_t n)
{
    memset(p, 0, sizeof *p);
    if (!cJSON_IsObject(obj)) {
        set_err(err, n, "%s: %s: must be an object", origin, where);
        return false;
    }
    int r = get_string(obj, "name", p->name, sizeof p->name, where, origin, err, n);
    if (r < 0)
        return false;
    if (r == 0 || p->name[0] == '\0') {
        set_err(err, n, "%s: %s.name: missing", origin, where);
        return false;
    }
    char dt[32];
    r = get_string(obj, "dtype", dt, sizeof dt, where, origin, err, n);
    if (r < 0)
        return false;
    if (r == 0) {
        set_err(err, n, "%s: %s.dtype: missing", origin, where);
        return false;
    }
    if (!dtype_parse(dt, &p->dtype)) {
        set_err(err, n, "%s: %s.dtype: unknown dtype '%s'", origin, where, dt);
        return false;
    }
    static const char *const required[] = {"flops", "bytes", "seconds"};
    double *dst[] = {&p->flops, &p->bytes, &p->seconds};
    for (size_t i = 0; i < 3; i++) {
        r = get_number(obj, required[i], dst[i], where, origin, err, n);
        if (r < 0)
            return false;
        if (r == 0) {
            set_err(err, n, "%s: %s.%s: missing", origin, where, required[i]);
            return false;
        }
    }
    if (p->bytes <= 0) {
        set_err(err, n, "%s: %s.bytes: must be positive", origin, where);
        return false;
    }
    if (p->seconds <= 0) {
        set_err(err, n, "%s: %s.seconds: must be positive", origin, where);
        return false;
    }
    const cJSON *valid = cJSON_GetObjectItemCaseSensitive(obj, "valid");
    if (!valid) {
        set_err(err, n, "%s: %s.valid: missing", origin, where);
        return false;
    }
    if (!cJSON_IsBool(valid)) {
        set_err(err, n, "%s: %s.valid: must be true or false", origin, where);
        return false;
    }
    p->valid = cJSON_IsTrue(valid);

    struct probe_point want = *p;
    points_derive(&want);
    static const char *const derived[] = {"intensity", "flops_per_s", "bytes_per_s"};
    double *have[] = {&p->intensity, &p->flops_per_s, &p->bytes_per_s};
    const double wants[] = {want.intensity, want.flops_per_s, want.bytes_per_s};
    static const char *const how[] = {"flops / bytes", "flops / seconds", "bytes / seconds"};
    for (size_t i = 0; i < 3; i++) {
        double v = 0;
        r = get_number(obj, derived[i], &v, where, origin, err, n);
        if (r < 0)
            return false;
        if (r == 1 && !agrees(v, wants[i])) {
            set_err(err, n, "%s: %s.%s: %.6g is not %s (%.6g)", origin, where, derived[i], v,
                    how[i], wants[i]);
            return false;
        }
        *have[i] = wants[i];
    }
    return true;
}

static bool parse_device(const cJSON *obj, const char *origin, struct probe_device *dev,
                         char *err, size_t n)
{
    const char *where = "device";
    memset(dev, 0, sizeof *dev);
    if (!cJSON_IsObject(obj)) {
        set_err(err, n, "%s: device: must be an object", origin);
        return false;
    }
    int r = get_string(obj, "kind", dev->kind, sizeof dev->kind, where, origin, err, n);
    if (r < 0)
        return false;
    if (r == 0) {
        set_err(err, n, "%s: device.kind: missing (\"cuda\" or \"cpu\")", origin);
        return false;
    }
    if (strcmp(dev->kind, "cuda") != 0 && strcmp(dev->kind, "cpu") != 0) {
        set_err(err, n, "%s: device.kind: '%s' is not \"cuda\" or \"cpu\"", origin, dev->kind);
        return false;
    }
    struct {
        const char *key;
        char *dst;
        size_t size;
    } strs[] = {
        {"name", dev->name, sizeof dev->name},
        {"driver_version", dev->driver_version, sizeof dev->driver_version},
        {"runtime_version", dev->runtime_version, sizeof dev->runtime_version},
        {"isa", dev->isa, sizeof dev->isa},
        {"clock_source", dev->clock_source, sizeof dev->clock_source},
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (get_string(obj, strs[i].key, strs[i].dst, strs[i].size, where, origin, err, n) < 0)
            return false;
    struct {
        const char *key;
        double *dst;
    } nums[] = {
        {"memory_bytes", &dev->memory_bytes}, {"clock_hz", &dev->clock_hz},
        {"l2_bytes", &dev->l2_bytes},         {"memory_clock_hz", &dev->memory_clock_hz},
        {"l1d_bytes", &dev->l1d_bytes},       {"l3_bytes", &dev->l3_bytes},
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (get_number(obj, nums[i].key, nums[i].dst, where, origin, err, n) < 0)
            return false;
    struct {
        const char *key;
        int *dst;
    } ints[] = {
        {"index", &dev->index},           {"sms", &dev->sms},
        {"memory_bus_bits", &dev->memory_bus_bits}, {"cores", &dev->cores},
        {"threads", &dev->threads},
        {"vector_bits", &dev->vector_bits}, {"fma_bits", &dev->fma_bits},
        {"fma_units", &dev->fma_units},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (get_int(obj, ints[i].key, ints[i].dst, where, origin, err, n) < 0)
            return false;
    char cc[16] = "";
    if (get_string(obj, "cc", cc, sizeof cc, where, origin, err, n) < 0)
        return false;
    if (cc[0]) {
        int ma = 0, mi = 0, used = 0;
        if (sscanf(cc, "%3d.%3d%n", &ma, &mi, &used) != 2 || cc[used] != '\0' || ma < 0 ||
            mi < 0) {
            set_err(err, n, "%s: device.cc: '%s' is not a compute capability like \"9.0\"",
                    origin, cc);
            return false;
        }
        dev->cc_major = ma;
        dev->cc_minor = mi;
    }
    const cJSON *pk = cJSON_GetObjectItemCaseSensitive(obj, "peak_flops");
    if (pk && !cJSON_IsNull(pk)) {
        if (!cJSON_IsObject(pk)) {
            set_err(err, n, "%s: device.peak_flops: must be an object", origin);
            return false;
        }
        for (int k = 0; k < PEAK_COUNT; k++) {
            double v = 0;
            r = get_number(pk, peak_name((enum peak_kind)k), &v, "device.peak_flops", origin,
                           err, n);
            if (r < 0)
                return false;
            if (r == 1 && v > 0) {
                dev->peak_flops[k] = v;
                dev->peak_valid[k] = true;
            }
        }
    }
    return true;
}

bool points_parse(const char *json, size_t len, const char *origin, struct points_doc *d,
                  char *err, size_t errlen)
{
    if (!origin)
        origin = "points";
    points_free(d);
    if (!json) {
        set_err(err, errlen, "%s: empty", origin);
        return false;
    }
    size_t nul = json_read_nul_at(json, len);
    if (nul < len) {
        set_err(err, errlen, "%s: a string holds \\u0000 (a NUL character, at byte %zu), which "
                             "would cut it short", origin, nul);
        return false;
    }
    cJSON *root = cJSON_ParseWithLength(json, len);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long off = at && at >= json && at <= json + len ? (long)(at - json) : -1;
        if (off >= 0)
            set_err(err, errlen, "%s: not valid JSON (near byte %ld)", origin, off);
        else
            set_err(err, errlen, "%s: not valid JSON", origin);
        return false;
    }
    bool ok = false;
    if (!cJSON_IsObject(root)) {
        set_err(err, errlen, "%s: must be a JSON object with device, time and points", origin);
        goto out;
    }
    /* As spec files do: a key given twice is refused, not resolved by whichever comes first. */
    const cJSON *dup;
    if (!json_dup_find(root, &dup, NULL)) {
        set_err(err, errlen, "%s: out of memory", origin);
        goto out;
    }
    if (dup != NULL) {
        char key[POINTS_NAME_MAX];
        if (!copy_text(dup->string, key, sizeof key))
            snprintf(key, sizeof key, "a key");
        set_err(err, errlen, "%s: \"%s\": given twice in one object", origin, key);
        goto out;
    }
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    if (!dev) {
        set_err(err, errlen, "%s: device: missing", origin);
        goto out;
    }
    if (!parse_device(dev, origin, &d->device, err, errlen))
        goto out;
    if (get_string(root, "time", d->time, sizeof d->time, "document", origin, err, errlen) < 0) {
        /* get_string names the field "document.time"; say just "time". */
        set_err(err, errlen, "%s: time: must be a short string (ISO 8601)", origin);
        goto out;
    }
    if (get_string(root, "incomplete", d->incomplete, sizeof d->incomplete, "document", origin,
                   err, errlen) < 0) {
        set_err(err, errlen, "%s: incomplete: must be a short string (why the run stopped)", origin);
        goto out;
    }
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points");
    if (!pts) {
        set_err(err, errlen, "%s: points: missing", origin);
        goto out;
    }
    if (!cJSON_IsArray(pts)) {
        set_err(err, errlen, "%s: points: must be an array", origin);
        goto out;
    }
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, pts)
    {
        char where[48];
        snprintf(where, sizeof where, "points[%zu]", i);
        struct probe_point p;
        if (!parse_point(it, where, origin, &p, err, errlen))
            goto out;
        if (!points_add(d, &p)) {
            set_err(err, errlen, "%s: %s: too many points (at most %d) or out of memory",
                    origin, where, POINTS_MAX_COUNT);
            goto out;
        }
        i++;
    }
    ok = true;
out:
    cJSON_Delete(root);
    if (!ok)
        points_free(d);
    return ok;
}

bool points_load_file(const char *path, struct points_doc *d, char *err, size_t errlen)
{
    points_free(d);
    /* A NAME is specs/points/NAME.json on the search path, as for the other data kinds. */
    char *found = files_resolve("points", path);
    if (found == NULL) {
        set_err(err, errlen, "%s: out of memory", path);
        return false;
    }
    /* Points files are small; 64 MiB bounds a wrong path pointing at something huge. */
    char *buf;
    size_t len;
    bool ok = files_read(found, (size_t)64 << 20, &buf, &len, err, errlen);
    if (ok) {
        ok = points_parse(buf, len, files_name_shown(found), d, err, errlen);
        free(buf);
    }
    free(found);
    return ok;
}

bool points_parse_line(const char *line, size_t len, struct points_line *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!line) {
        set_err(err, errlen, "line: empty");
        return false;
    }
    cJSON *root = cJSON_ParseWithLength(line, len);
    if (!root) {
        set_err(err, errlen, "line: not valid JSON");
        return false;
    }
    bool ok = false;
    const cJSON *it;
    if (!cJSON_IsObject(root)) {
        set_err(err, errlen, "line: must be a JSON object");
    } else if (cJSON_GetObjectItemCaseSensitive(root, "name")) {
        out->kind = PLINE_POINT;
        ok = parse_point(root, "point", "line", &out->point, err, errlen);
    } else if ((it = cJSON_GetObjectItemCaseSensitive(root, "device")) != NULL) {
        out->kind = PLINE_DEVICE;
        ok = parse_device(it, "line", &out->device, err, errlen);
    } else if ((it = cJSON_GetObjectItemCaseSensitive(root, "progress")) != NULL) {
        out->kind = PLINE_PROGRESS;
        if (!cJSON_IsObject(it)) {
            set_err(err, errlen, "line: progress: must be an object");
        } else {
            int a = get_int(it, "done", &out->done, "progress", "line", err, errlen);
            int b = a < 0 ? -1 : get_int(it, "total", &out->total, "progress", "line", err, errlen);
            int c = b < 0 ? -1
                          : get_string(it, "what", out->text, sizeof out->text, "progress",
                                       "line", err, errlen);
            if (a == 0 || b == 0)
                set_err(err, errlen, "line: progress: needs done and total");
            ok = a == 1 && b == 1 && c >= 0;
        }
    } else if ((it = cJSON_GetObjectItemCaseSensitive(root, "done")) != NULL) {
        out->kind = PLINE_DONE;
        if (!cJSON_IsObject(it))
            set_err(err, errlen, "line: done: must be an object");
        else
            ok = get_int(it, "points", &out->done, "done", "line", err, errlen) >= 0 &&
                 get_number(it, "seconds", &out->seconds, "done", "line", err, errlen) >= 0;
    } else {
        static const char *const keys[] = {"status", "error"};
        static const enum points_line_kind kinds[] = {PLINE_STATUS, PLINE_ERROR};
        size_t k;
        for (k = 0; k < 2; k++) {
            it = cJSON_GetObjectItemCaseSensitive(root, keys[k]);
            if (!it)
                continue;
            out->kind = kinds[k];
            if (!cJSON_IsString(it) || !it->valuestring) {
                set_err(err, errlen, "line: %s: must be a string", keys[k]);
                break;
            }
            /* Free text from a child: keep what fits, replace control characters. */
            snprintf(out->text, sizeof out->text, "%s", it->valuestring);
            for (char *c = out->text; *c; c++)
                if ((unsigned char)*c < 0x20 || *c == 0x7f)
                    *c = ' ';
            ok = true;
            break;
        }
        if (k == 2)
            set_err(err, errlen,
                    "line: not a point, device, progress, status, error or done line");
    }
    cJSON_Delete(root);
    if (!ok)
        memset(out, 0, sizeof *out);
    return ok;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* Appends printf output to a bounded buffer; tracks overflow in *ok. */
struct sbuf {
    char *p;
    size_t n, len;
    bool ok;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    if (!b->ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= b->n - b->len) {
        b->ok = false;
        return;
    }
    b->len += (size_t)w;
}

static void sb_string(struct sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(b, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            sb_printf(b, "\\u%04x", c);
        else
            sb_printf(b, "%c", c);
    }
    sb_printf(b, "\"");
}

/* A number as JSON: non-finite values (never written by us) become null. */
static void sb_number(struct sbuf *b, double v)
{
    if (isfinite(v))
        sb_printf(b, "%.9g", v);
    else
        sb_printf(b, "null");
}

static void format_point(struct sbuf *b, const struct probe_point *p)
{
    sb_printf(b, "{\"name\": ");
    sb_string(b, p->name);
    sb_printf(b, ", \"dtype\": ");
    sb_string(b, dtype_name(p->dtype));
    const char *keys[] = {"flops", "bytes", "seconds", "intensity", "flops_per_s",
                          "bytes_per_s"};
    const double vals[] = {p->flops,     p->bytes,       p->seconds,
                           p->intensity, p->flops_per_s, p->bytes_per_s};
    for (size_t i = 0; i < 6; i++) {
        sb_printf(b, ", \"%s\": ", keys[i]);
        sb_number(b, vals[i]);
    }
    sb_printf(b, ", \"valid\": %s}", p->valid ? "true" : "false");
}

static void format_device(struct sbuf *b, const struct probe_device *d, const char *ind)
{
    const char *sep = ind[0] ? ",\n" : ", ";
    const char *in2 = ind[0] ? "    " : "";
    sb_printf(b, "{%s%s\"kind\": ", ind[0] ? "\n" : "", in2);
    sb_string(b, d->kind);
    sb_printf(b, "%s%s\"name\": ", sep, in2);
    sb_string(b, d->name);
    sb_printf(b, "%s%s\"index\": %d", sep, in2, d->index);
    struct {
        const char *key;
        const char *val;
    } strs[] = {{"driver_version", d->driver_version}, {"runtime_version", d->runtime_version},
                {"isa", d->isa},                       {"clock_source", d->clock_source}};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (strs[i].val[0]) {
            sb_printf(b, "%s%s\"%s\": ", sep, in2, strs[i].key);
            sb_string(b, strs[i].val);
        }
    if (d->cc_major > 0)
        sb_printf(b, "%s%s\"cc\": \"%d.%d\"", sep, in2, d->cc_major, d->cc_minor);
    struct {
        const char *key;
        double val;
    } nums[] = {{"memory_bytes", d->memory_bytes}, {"clock_hz", d->clock_hz},
                {"l2_bytes", d->l2_bytes},         {"memory_clock_hz", d->memory_clock_hz},
                {"l1d_bytes", d->l1d_bytes},       {"l3_bytes", d->l3_bytes}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (nums[i].val > 0 && isfinite(nums[i].val)) {
            sb_printf(b, "%s%s\"%s\": ", sep, in2, nums[i].key);
            sb_number(b, nums[i].val);
        }
    struct {
        const char *key;
        int val;
    } ints[] = {{"sms", d->sms},           {"memory_bus_bits", d->memory_bus_bits},
                {"cores", d->cores},       {"threads", d->threads},
                {"vector_bits", d->vector_bits},
                {"fma_bits", d->fma_bits}, {"fma_units", d->fma_units}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (ints[i].val > 0)
            sb_printf(b, "%s%s\"%s\": %d", sep, in2, ints[i].key, ints[i].val);
    bool any = false;
    for (int k = 0; k < PEAK_COUNT; k++)
        any = any || (d->peak_valid[k] && isfinite(d->peak_flops[k]) && d->peak_flops[k] > 0);
    if (any) {
        sb_printf(b, "%s%s\"peak_flops\": {", sep, in2);
        bool first = true;
        for (int k = 0; k < PEAK_COUNT; k++) {
            if (!d->peak_valid[k] || !isfinite(d->peak_flops[k]) || d->peak_flops[k] <= 0)
                continue;
            sb_printf(b, "%s\"%s\": ", first ? "" : ", ", peak_name((enum peak_kind)k));
            sb_number(b, d->peak_flops[k]);
            first = false;
        }
        sb_printf(b, "}");
    }
    sb_printf(b, "%s}", ind[0] ? "\n  " : "");
}

bool points_format_point(const struct probe_point *p, char *buf, size_t n)
{
    struct sbuf b = {buf, n, 0, n > 0};
    format_point(&b, p);
    sb_printf(&b, "\n");
    if (!b.ok && n > 0)
        buf[0] = '\0';
    return b.ok;
}

bool points_format_device(const struct probe_device *dev, char *buf, size_t n)
{
    struct sbuf b = {buf, n, 0, n > 0};
    sb_printf(&b, "{\"device\": ");
    format_device(&b, dev, "");
    sb_printf(&b, "}\n");
    if (!b.ok && n > 0)
        buf[0] = '\0';
    return b.ok;
}

bool points_write(FILE *f, const struct points_doc *d)
{
    char buf[4096];
    struct sbuf b = {buf, sizeof buf, 0, true};
    sb_printf(&b, "{\n  \"device\": ");
    format_device(&b, &d->device, "  ");
    sb_printf(&b, ",\n  \"time\": ");
    sb_string(&b, d->time);
    if (d->incomplete[0]) {
        sb_printf(&b, ",\n  \"incomplete\": ");
        sb_string(&b, d->incomplete);
    }
    sb_printf(&b, ",\n  \"points\": [");
    if (!b.ok || fputs(buf, f) == EOF)
        return false;
    for (size_t i = 0; i < d->n; i++) {
        struct sbuf pb = {buf, sizeof buf, 0, true};
        sb_printf(&pb, "%s\n    ", i ? "," : "");
        format_point(&pb, &d->points[i]);
        if (!pb.ok || fputs(buf, f) == EOF)
            return false;
    }
    if (fputs(d->n ? "\n  ]\n}\n" : "]\n}\n", f) == EOF)
        return false;
    return fflush(f) == 0 && !ferror(f);
}

/* Written by the atomic writer, so a reader never sees half a file. */
static bool save_atomic(const char *path, bool (*writer)(FILE *, const void *), const void *arg,
                        char *err, size_t errlen)
{
    struct files_out o;
    if (!files_out_open(&o, path, err, errlen))
        return false;
    if (!writer(o.f, arg)) {
        int e = errno ? errno : EIO;
        files_out_abort(&o);
        set_err(err, errlen, "%s: cannot write: %s", path, strerror(e));
        return false;
    }
    return files_out_commit(&o, err, errlen);
}

static bool write_doc_cb(FILE *f, const void *arg)
{
    return points_write(f, arg);
}

bool points_save_file(const char *path, const struct points_doc *d, char *err, size_t errlen)
{
    return save_atomic(path, write_doc_cb, d, err, errlen);
}

/* ---- ceilings and the spec ---------------------------------------------------------------- */

void points_ceilings(const struct points_doc *d, struct points_ceilings *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < d->n; i++) {
        const struct probe_point *p = &d->points[i];
        if (!p->valid || !isfinite(p->flops_per_s) || !isfinite(p->bytes_per_s))
            continue;
        if (strncmp(p->name, "bw.", 3) == 0 && p->bytes_per_s > c->bandwidth) {
            c->bandwidth = p->bytes_per_s;
            snprintf(c->bandwidth_from, sizeof c->bandwidth_from, "%s", p->name);
        }
        if ((unsigned)p->dtype >= DTYPE_COUNT || p->flops_per_s <= 0)
            continue;
        enum peak_kind k = dtype_peak(p->dtype);
        if ((unsigned)k >= PEAK_COUNT)
            continue;
        if (p->flops_per_s > c->peak[k]) {
            c->peak[k] = p->flops_per_s;
            c->peak_valid[k] = true;
            snprintf(c->peak_from[k], sizeof c->peak_from[k], "%s", p->name);
        }
    }
}

bool points_to_gpu_spec(const struct points_doc *d, struct gpu_spec *g, char *err,
                        size_t errlen)
{
    memset(g, 0, sizeof *g);
    struct points_ceilings c;
    points_ceilings(d, &c);
    if (c.bandwidth <= 0) {
        set_err(err, errlen, "no valid bandwidth point (bw.copy or bw.triad) to build a spec from");
        return false;
    }
    const struct probe_device *dev = &d->device;
    snprintf(g->id, sizeof g->id, "probe");
    snprintf(g->name, sizeof g->name, "%.52s (measured)", dev->name[0] ? dev->name : "probe");
    g->memory_bytes = dev->memory_bytes;
    g->bandwidth = c.bandwidth;
    bool computed = false;
    for (int k = 0; k < PEAK_COUNT; k++) {
        if (dev->peak_valid[k] && dev->peak_flops[k] > 0 && isfinite(dev->peak_flops[k])) {
            g->peak_flops[k] = dev->peak_flops[k];
            g->peak_valid[k] = true;
            computed = true;
        } else if (c.peak_valid[k]) {
            g->peak_flops[k] = c.peak[k];
            g->peak_valid[k] = true;
        }
    }
    g->sms = strcmp(dev->kind, "cpu") == 0 ? dev->cores : dev->sms;
    g->l2_bytes = strcmp(dev->kind, "cpu") == 0 && dev->l3_bytes > 0 ? dev->l3_bytes
                                                                      : dev->l2_bytes;
    g->interconnect_bandwidth = 0;
    snprintf(g->source, sizeof g->source,
             "rooftop probe on %.60s (%.4s) at %.31s: bandwidth measured (%.20s); peaks %s",
             dev->name[0] ? dev->name : "?", dev->kind[0] ? dev->kind : "?",
             d->time[0] ? d->time : "unknown time", c.bandwidth_from,
             computed ? "computed from cores x clock x vector width x FMA units"
                      : "measured (best valid point per format)");
    return true;
}
