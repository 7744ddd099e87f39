/* probe.c - the backend registry, probe options and the timing helpers the backends share. */
#include "probe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measured.h"

const struct probe_backend *probe_backend_find(const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, probe_backend_cpu.name) == 0)
        return &probe_backend_cpu;
    if (strcmp(name, probe_backend_cuda.name) == 0)
        return &probe_backend_cuda;
    return NULL;
}

const struct probe_backend *probe_backend_auto(const struct probe_options *o, char *why,
                                               size_t n)
{
    char reason[256] = "";
    if (probe_backend_cuda.available(o, reason, sizeof reason)) {
        snprintf(why, n, "cuda: a CUDA device is available");
        return &probe_backend_cuda;
    }
    snprintf(why, n, "cpu: cuda unavailable: %s", reason[0] ? reason : "unknown reason");
    return &probe_backend_cpu;
}

void probe_options_default(struct probe_options *o)
{
    memset(o, 0, sizeof *o);
    o->device = 0;
    o->quick = false;
    /* Generous for the full CPU probe on two cores (~20 s), and for the CUDA probe (< 60 s);
     * a child past it is killed. */
    o->time_limit_s = 300;
}

/* Parses a positive long within [1, max]; false on junk. */
static bool parse_dim(const char *s, const char *end, long max, long *out)
{
    if (s == end)
        return false;
    long v = 0;
    for (const char *c = s; c < end; c++) {
        if (*c < '0' || *c > '9')
            return false;
        v = v * 10 + (*c - '0');
        if (v > max)
            return false;
    }
    if (v < 1)
        return false;
    *out = v;
    return true;
}

static bool parse_shapes(const char *s, struct probe_options *o, char *err, size_t n)
{
    /* Each dimension up to 2^20 and each GEMM up to 2^34 elements per operand keeps the
     * buffers allocatable on an 80 GB GPU (measured_shapes_arg keeps to the same limits). */
    const long dim_max = MEASURED_DIM_MAX;
    const double elems_max = MEASURED_ELEMS_MAX;
    o->n_shapes = 0;
    if (!s || !*s) {
        snprintf(err, n, "--shapes: empty; want M,N,K;M,N,K or LABEL=M,N,K");
        return false;
    }
    const char *p = s;
    while (*p) {
        const char *end = strchr(p, ';');
        if (!end)
            end = p + strlen(p);
        if (end == p) { /* tolerate "a;;b" and a trailing ';' */
            p = *end ? end + 1 : end;
            continue;
        }
        if (o->n_shapes == PROBE_SHAPES_MAX) {
            snprintf(err, n, "--shapes: more than %d shapes", PROBE_SHAPES_MAX);
            return false;
        }
        struct probe_shape *sh = &o->shapes[o->n_shapes];
        memset(sh, 0, sizeof *sh);
        const char *dims = p;
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (eq) {
            size_t ll = (size_t)(eq - p);
            if (ll == 0 || ll >= sizeof sh->label) {
                snprintf(err, n, "--shapes: label '%.*s' must be 1 to %zu characters",
                         (int)ll, p, sizeof sh->label - 1);
                return false;
            }
            for (size_t i = 0; i < ll; i++) {
                char c = p[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-')) {
                    snprintf(err, n, "--shapes: label '%.*s': letters, digits, '_' and '-' only",
                             (int)ll, p);
                    return false;
                }
            }
            memcpy(sh->label, p, ll);
            sh->label[ll] = '\0';
            dims = eq + 1;
        }
        long v[3];
        const char *q = dims;
        for (int i = 0; i < 3; i++) {
            const char *stop = i < 2 ? memchr(q, ',', (size_t)(end - q)) : end;
            if (!stop || !parse_dim(q, stop, dim_max, &v[i])) {
                snprintf(err, n, "--shapes: '%.*s' is not M,N,K with whole numbers 1..%ld",
                         (int)(end - p), p, dim_max);
                return false;
            }
            q = stop + 1;
        }
        if ((double)v[0] * v[2] > elems_max || (double)v[2] * v[1] > elems_max ||
            (double)v[0] * v[1] > elems_max) {
            snprintf(err, n, "--shapes: '%.*s' is too large", (int)(end - p), p);
            return false;
        }
        sh->m = v[0];
        sh->n = v[1];
        sh->k = v[2];
        o->n_shapes++;
        p = *end ? end + 1 : end;
    }
    if (o->n_shapes == 0) {
        snprintf(err, n, "--shapes: no shapes in '%s'", s);
        return false;
    }
    return true;
}

bool probe_parse_shapes(const char *s, struct probe_options *o, char *err, size_t n)
{
    if (parse_shapes(s, o, err, n))
        return true;
    /* The message quotes what was given: one line, nothing a terminal would act on. */
    for (char *c = err; n > 0 && *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return false;
}

double probe_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double probe_best(const double *v, size_t n)
{
    double best = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > 0 && isfinite(v[i]) && (best == 0 || v[i] < best))
            best = v[i];
    return best;
}
