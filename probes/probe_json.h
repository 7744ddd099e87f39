/* probe_json.h - the probe's JSON lines, written by rooftop-probe-cuda (C++) and testable from C.
 *
 * The line format is defined by src/points.h (points_parse_line reads it):
 *   {"name": "sweep.fp32.64", "dtype": "fp32", "flops": ..., "bytes": ..., "seconds": ...,
 *    "intensity": ..., "flops_per_s": ..., "bytes_per_s": ..., "valid": true}
 *   {"device": {"kind": "cuda", "name": ..., ...}}
 *   {"progress": {"done": 3, "total": 40, "what": "sweep.fp32"}}
 *   {"status": "text"}   {"error": "text"}   {"done": {"points": 40, "seconds": 12.5}}
 * Header-only and free of the core so the nvcc-built executable needs nothing else; every
 * line is flushed at once so a reader sees points as they come and a crash loses none. */
#ifndef ROOFTOP_PROBE_JSON_H
#define ROOFTOP_PROBE_JSON_H

#include <math.h>
#include <stdio.h>

/* A JSON object on one line, built key by key. */
struct pj_line {
    FILE *f;
    int first;
};

static inline void pj_string_raw(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static inline struct pj_line pj_begin(FILE *f)
{
    struct pj_line l;
    l.f = f;
    l.first = 1;
    fputc('{', f);
    return l;
}

static inline void pj_key(struct pj_line *l, const char *key)
{
    if (!l->first)
        fputs(", ", l->f);
    l->first = 0;
    pj_string_raw(l->f, key);
    fputs(": ", l->f);
}

static inline void pj_str(struct pj_line *l, const char *key, const char *v)
{
    pj_key(l, key);
    pj_string_raw(l->f, v);
}

/* Non-finite numbers have no JSON form: null (the reader then rejects the point). */
static inline void pj_num(struct pj_line *l, const char *key, double v)
{
    pj_key(l, key);
    if (isfinite(v))
        fprintf(l->f, "%.9g", v);
    else
        fputs("null", l->f);
}

static inline void pj_int(struct pj_line *l, const char *key, long long v)
{
    pj_key(l, key);
    fprintf(l->f, "%lld", v);
}

static inline void pj_bool(struct pj_line *l, const char *key, int v)
{
    pj_key(l, key);
    fputs(v ? "true" : "false", l->f);
}

/* Opens a nested object under key; close it with pj_close. */
static inline struct pj_line pj_object(struct pj_line *l, const char *key)
{
    pj_key(l, key);
    return pj_begin(l->f);
}

static inline void pj_close(struct pj_line *l)
{
    fputc('}', l->f);
}

static inline void pj_end(struct pj_line *l)
{
    fputs("}\n", l->f);
    fflush(l->f);
}

/* One point: the derived fields are computed here so every writer agrees with the reader. */
static inline void pj_point(FILE *f, const char *name, const char *dtype, double flops,
                            double bytes, double seconds, int valid)
{
    struct pj_line l = pj_begin(f);
    pj_str(&l, "name", name);
    pj_str(&l, "dtype", dtype);
    pj_num(&l, "flops", flops);
    pj_num(&l, "bytes", bytes);
    pj_num(&l, "seconds", seconds);
    pj_num(&l, "intensity", bytes > 0 ? flops / bytes : 0);
    pj_num(&l, "flops_per_s", seconds > 0 ? flops / seconds : 0);
    pj_num(&l, "bytes_per_s", seconds > 0 ? bytes / seconds : 0);
    pj_bool(&l, "valid", valid);
    pj_end(&l);
}

static inline void pj_message(FILE *f, const char *key, const char *text)
{
    struct pj_line l = pj_begin(f);
    pj_str(&l, key, text);
    pj_end(&l);
}

static inline void pj_progress(FILE *f, int done, int total, const char *what)
{
    struct pj_line l = pj_begin(f);
    struct pj_line p = pj_object(&l, "progress");
    pj_int(&p, "done", done);
    pj_int(&p, "total", total);
    pj_str(&p, "what", what);
    pj_close(&p);
    pj_end(&l);
}

static inline void pj_done(FILE *f, int points, double seconds)
{
    struct pj_line l = pj_begin(f);
    struct pj_line p = pj_object(&l, "done");
    pj_int(&p, "points", points);
    pj_num(&p, "seconds", seconds);
    pj_close(&p);
    pj_end(&l);
}

#endif
