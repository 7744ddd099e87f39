/* json_read.c - reading a JSON file's fields with a clear error: the text parsed into an
 * object (size, NUL bytes, trailing text, the line of a syntax error), unknown and repeated
 * keys refused, and typed fields (number, whole number, range, bool, text, one of a list)
 * read with their bounds, each error one line naming the file and the key. The spec files'
 * reader (spec.c) and the config.json reader (hfconfig.c) both read through it. */
#include "json_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_kind.h"
#include "nearest.h"

/*
 * Length of the valid UTF-8 sequence at s (at most n bytes), 0 when invalid or when it is a
 * control character (C0, DEL or C1): those would garble a terminal.
 */
static size_t utf8_char(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x20 || c == 0x7f)
        return 0;
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        if (c == 0xc2)
            lo = 0xa0; /* U+0080..U+009F are C1 controls */
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f; /* no surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return len;
}

/* True when s is printable UTF-8 without control characters. */
bool json_read_printable(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    while (n > 0) {
        size_t k = utf8_char(p, n);
        if (k == 0)
            return false;
        p += k;
        n -= k;
    }
    return true;
}

/*
 * Copies src into dst (cap bytes) so that it prints safely on one line: invalid or control
 * bytes become '?'. When src is longer than max bytes (or than dst holds), it is cut to end
 * in "...". Never splits a character.
 */
void json_read_safe(char *dst, size_t cap, const char *src, size_t max)
{
    if (cap == 0)
        return;
    dst[0] = '\0';
    if (src == NULL)
        return;
    const unsigned char *p = (const unsigned char *)src;
    size_t n = strlen(src), o = 0;
    if (max > cap - 1)
        max = cap - 1;
    /* Each byte becomes at most one byte, so a source within max fits whole. */
    bool cut = n > max;
    size_t limit = cut ? (max >= 3 ? max - 3 : 0) : max;
    while (n > 0) {
        size_t k = utf8_char(p, n);
        size_t w = k ? k : 1;
        if (o + w > limit)
            break;
        if (k)
            memcpy(dst + o, p, k);
        else
            dst[o] = '?';
        o += w;
        p += w;
        n -= w;
    }
    if (cut && max >= 3) {
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o] = '\0';
}

/* ---- errors --------------------------------------------------------------------------- */

void json_read_init(struct json_read *r, const char *origin, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    json_read_safe(r->origin, sizeof r->origin, origin ? origin : "<input>", 256);
    r->err = err;
    r->errlen = err ? errlen : 0;
    if (r->errlen > 0)
        r->err[0] = '\0';
}

bool json_read_vfail(const struct json_read *r, const char *field, const char *fmt, va_list ap)
{
    char msg[JSON_READ_ERR_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (r->errlen == 0)
        return false;
    if (field)
        snprintf(r->err, r->errlen, "%s: %s%s: %s", r->origin, r->prefix ? r->prefix : "", field,
                 msg);
    else
        snprintf(r->err, r->errlen, "%s: %s", r->origin, msg);
    return false;
}

bool json_read_fail(const struct json_read *r, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool ok = json_read_vfail(r, field, fmt, ap);
    va_end(ap);
    return ok;
}

/* ---- JSON text ------------------------------------------------------------------------ */

static bool json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static size_t line_of(const char *s, size_t pos)
{
    size_t line = 1;
    for (size_t i = 0; i < pos; i++)
        line += s[i] == '\n';
    return line;
}

/* Parses text into a JSON object; on success the caller deletes *root. */
bool json_read_object(const struct json_read *r, const char *json, size_t len, cJSON **root)
{
    *root = NULL;
    if (json == NULL)
        len = 0;
    if (len > JSON_READ_FILE_MAX)
        return json_read_fail(r, NULL, "too large (%zu bytes; a spec file is at most 1 MiB)", len);
    /* Editors on some systems write a byte-order mark; cJSON does not expect one. */
    if (len >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) {
        json += 3;
        len -= 3;
    }
    size_t i = 0;
    while (i < len && json_space(json[i]))
        i++;
    if (i == len)
        return json_read_fail(r, NULL, "empty file");
    const char *nul = memchr(json, '\0', len);
    if (nul)
        return json_read_fail(r, NULL, "not JSON (a NUL byte on line %zu)", line_of(json, (size_t)(nul - json)));
    size_t esc = json_read_nul_at(json, len);
    if (esc < len)
        return json_read_fail(r, NULL, "a string holds \\u0000 (a NUL character, line %zu), which would cut "
                             "it short", line_of(json, esc));

    /* A terminated copy: cJSON then cannot read past the text whatever its length handling. */
    char *buf = malloc(len + 1);
    if (!buf)
        return json_read_fail(r, NULL, "out of memory");
    memcpy(buf, json, len);
    buf[len] = '\0';

    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    size_t pos = (end && end >= buf && end <= buf + len) ? (size_t)(end - buf) : len;
    if (!doc) {
        size_t line = line_of(buf, pos);
        free(buf);
        return json_read_fail(r, NULL, "not JSON (error near line %zu)", line);
    }
    while (pos < len && json_space(buf[pos]))
        pos++;
    if (pos < len) {
        size_t line = line_of(buf, pos);
        free(buf);
        cJSON_Delete(doc);
        return json_read_fail(r, NULL, "not JSON (unexpected text after the end, line %zu)", line);
    }
    free(buf);
    if (!cJSON_IsObject(doc)) {
        bool ok = json_read_fail(r, NULL, "must be a JSON object {...}, got %s", json_kind(doc));
        cJSON_Delete(doc);
        return ok;
    }
    *root = doc;
    return true;
}

size_t json_read_nul_at(const char *json, size_t len)
{
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        if (!in_string) {
            in_string = c == '"';
        } else if (c == '"') {
            in_string = false;
        } else if (c == '\\') {
            if (i + 5 < len && json[i + 1] == 'u' && memcmp(json + i + 2, "0000", 4) == 0)
                return i;
            i++; /* the escaped character: \" does not end the string */
        }
    }
    return len;
}

/* Refuses keys that are not in names (typos would otherwise be ignored) and repeated keys. */
bool json_read_keys(const struct json_read *r, const cJSON *obj, const char *field_prefix,
                            const char *const *names, size_t n)
{
    bool seen[32] = {false};
    for (const cJSON *c = obj->child; c; c = c->next) {
        const char *key = c->string ? c->string : "";
        size_t k = 0;
        while (k < n && strcmp(key, names[k]) != 0)
            k++;
        char shown[JSON_READ_SHOW_MAX * 2 + 64];
        char safe[JSON_READ_SHOW_MAX * 2];
        json_read_safe(safe, sizeof safe, key, JSON_READ_SHOW_MAX);
        snprintf(shown, sizeof shown, "%s%s", field_prefix, safe);
        if (k == n) {
            const char *near = nearest_closest(key, names, n);
            if (near)
                return json_read_fail(r, shown, "unknown field (did you mean \"%s\"?)", near);
            return json_read_fail(r, shown, "unknown field");
        }
        if (k < sizeof seen / sizeof seen[0]) {
            if (seen[k])
                return json_read_fail(r, shown, "appears twice");
            seen[k] = true;
        }
    }
    return true;
}

/* ---- typed fields --------------------------------------------------------------------- */

bool json_read_number(const struct json_read *r, const char *field, const cJSON *v, double *out)
{
    if (!cJSON_IsNumber(v))
        return json_read_fail(r, field, "must be a number, got %s", json_kind(v));
    if (!isfinite(v->valuedouble))
        return json_read_fail(r, field, "must be a finite number");
    *out = v->valuedouble;
    return true;
}

/* A whole number in [lo, hi]. */
bool json_read_int(const struct json_read *r, const char *field, const cJSON *v, int64_t lo,
                     int64_t hi, int64_t *out)
{
    double d = 0;
    if (!cJSON_IsNumber(v))
        return json_read_fail(r, field, "must be a whole number, got %s", json_kind(v));
    if (!json_read_number(r, field, v, &d))
        return false;
    if (d < (double)lo) {
        if (lo == 1)
            return json_read_fail(r, field, "must be positive, got %.15g", d);
        if (lo == 0)
            return json_read_fail(r, field, "must not be negative, got %.15g", d);
        return json_read_fail(r, field, "must be at least %lld, got %.15g", (long long)lo, d);
    }
    if (d > (double)hi)
        return json_read_fail(r, field, "%.15g is too large (at most %lld)", d, (long long)hi);
    if (d != floor(d))
        return json_read_fail(r, field, "must be a whole number, got %.15g", d);
    *out = (int64_t)d;
    return true;
}

/* A number in [lo, hi]; 0 is also accepted when zero_ok (meaning "unknown"). */
bool json_read_range(const struct json_read *r, const char *field, const cJSON *v, double lo,
                       double hi, bool zero_ok, double *out)
{
    double d = 0;
    if (!json_read_number(r, field, v, &d))
        return false;
    if (d < 0 || (d == 0 && !zero_ok))
        return json_read_fail(r, field, zero_ok ? "must not be negative, got %.15g" : "must be positive, got %.15g",
                    d);
    if (d != 0 && d < lo)
        return json_read_fail(r, field, "%.15g is too small (at least %g)", d, lo);
    if (d > hi)
        return json_read_fail(r, field, "%.15g is too large (at most %g)", d, hi);
    *out = d;
    return true;
}

bool json_read_bool(const struct json_read *r, const char *field, const cJSON *v, bool *out)
{
    if (!cJSON_IsBool(v))
        return json_read_fail(r, field, "must be true or false, got %s", json_kind(v));
    *out = cJSON_IsTrue(v);
    return true;
}

/* A printable string shorter than cap; empty only when empty_ok. */
bool json_read_text(const struct json_read *r, const char *field, const cJSON *v, char *buf,
                      size_t cap, bool empty_ok)
{
    if (!cJSON_IsString(v) || v->valuestring == NULL)
        return json_read_fail(r, field, "must be a string, got %s", json_kind(v));
    const char *s = v->valuestring;
    size_t n = strlen(s);
    if (n == 0 && !empty_ok)
        return json_read_fail(r, field, "must not be empty");
    if (n >= cap)
        return json_read_fail(r, field, "too long (%zu bytes, at most %zu)", n, cap - 1);
    if (!json_read_printable(s))
        return json_read_fail(r, field, "contains control characters or invalid UTF-8");
    memcpy(buf, s, n + 1);
    return true;
}

/* One of names[0..n-1]; *out is its index. */
bool json_read_enum(const struct json_read *r, const char *field, const cJSON *v,
                      const char *const *names, size_t n, int *out)
{
    char allowed[128] = "";
    size_t o = 0;
    for (size_t i = 0; i < n && o < sizeof allowed; i++) {
        int w = snprintf(allowed + o, sizeof allowed - o, "%s\"%s\"",
                         i == 0 ? "" : (i + 1 == n ? " or " : ", "), names[i]);
        if (w < 0)
            break;
        o += (size_t)w;
    }
    if (!cJSON_IsString(v) || v->valuestring == NULL)
        return json_read_fail(r, field, "must be %s, got %s", allowed, json_kind(v));
    for (size_t i = 0; i < n; i++) {
        if (strcmp(v->valuestring, names[i]) == 0) {
            *out = (int)i;
            return true;
        }
    }
    char safe[JSON_READ_SHOW_MAX + 4];
    json_read_safe(safe, sizeof safe, v->valuestring, JSON_READ_SHOW_MAX);
    return json_read_fail(r, field, "must be %s, got \"%s\"", allowed, safe);
}

const cJSON *json_read_get(const struct json_read *r, const cJSON *obj, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (v == NULL && r->defaults != NULL)
        v = cJSON_GetObjectItemCaseSensitive(r->defaults, name);
    return v != NULL && r->null_absent && cJSON_IsNull(v) ? NULL : v;
}

bool json_read_req_int(const struct json_read *r, const cJSON *obj, const char *name, int64_t lo,
                    int64_t hi, int64_t *out)
{
    const cJSON *v = json_read_get(r, obj, name);
    if (!v)
        return json_read_fail(r, name, "missing");
    return json_read_int(r, name, v, lo, hi, out);
}

bool json_read_opt_int(const struct json_read *r, const cJSON *obj, const char *name, int64_t lo,
                    int64_t hi, int64_t def, int64_t *out)
{
    const cJSON *v = json_read_get(r, obj, name);
    if (!v) {
        *out = def;
        return true;
    }
    return json_read_int(r, name, v, lo, hi, out);
}

/* An optional count where null means "not used", as Hugging Face configs write it
 * (q_lora_rank: null, sliding_window: null): 0. */
bool json_read_opt_count(const struct json_read *r, const cJSON *obj, const char *name, int64_t hi,
                      int64_t *out)
{
    const cJSON *v = json_read_get(r, obj, name);
    if (v && cJSON_IsNull(v)) {
        *out = 0;
        return true;
    }
    return json_read_opt_int(r, obj, name, 0, hi, 0, out);
}

bool json_read_opt_bool(const struct json_read *r, const cJSON *obj, const char *name, bool def,
                        bool *out)
{
    const cJSON *v = json_read_get(r, obj, name);
    if (!v) {
        *out = def;
        return true;
    }
    return json_read_bool(r, name, v, out);
}

bool json_read_req_enum(const struct json_read *r, const cJSON *obj, const char *name,
                     const char *const *names, size_t n, int *out)
{
    const cJSON *v = json_read_get(r, obj, name);
    if (!v)
        return json_read_fail(r, name, "missing");
    return json_read_enum(r, name, v, names, n, out);
}

bool json_read_opt_str(const struct json_read *r, const cJSON *obj, const char *name,
                       const char **out)
{
    const cJSON *v = json_read_get(r, obj, name);
    *out = NULL;
    if (v == NULL)
        return true;
    if (!cJSON_IsString(v) || v->valuestring == NULL)
        return json_read_fail(r, name, "must be a string, got %s", json_kind(v));
    *out = v->valuestring;
    return true;
}
