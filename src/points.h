/* points.h - measured roofline points: the probe's document, its JSON lines, measured ceilings. */
#ifndef ROOFTOP_POINTS_H
#define ROOFTOP_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dtype.h"
#include "gpu.h"

#define POINTS_NAME_MAX 64
#define POINTS_TEXT_MAX 256
#define POINTS_ERR_MAX 512

/*
 * One measured point. Names are dotted and grouped by their first part, so a consumer can
 * pick the series it wants:
 *   "bw.copy", "bw.triad"            bandwidth ceiling (flops 0, intensity 0)
 *   "sweep.fp32.64"                  intensity sweep, dtype and dependent FMAs per element
 *   "op.relu", "op.gelu", "op.dot",  the lecture's operations at the lecture's sizes
 *   "op.matvec", "op.matmul.1024"
 *   "gemm.bf16.4096"                 tensor-core GEMMs (cuBLASLt), square size
 *   "shape.LABEL.MxNxK"              the scenario's own GEMM shapes (--shapes)
 * flops and bytes are counts per run; seconds is the median of the timed repeats;
 * intensity = flops / bytes, flops_per_s = flops / seconds, bytes_per_s = bytes / seconds.
 * valid is false when the result failed its check against the reference (the time is then
 * kept, but the point must not be trusted or used for ceilings).
 */
struct probe_point {
    char name[POINTS_NAME_MAX];
    enum dtype dtype;
    double flops;
    double bytes;
    double seconds;
    double intensity;
    double flops_per_s;
    double bytes_per_s;
    bool valid;
};

/*
 * The measured device. Numbers are 0 and strings "" when unknown (no known field is ever
 * legitimately 0); kind says which half applies: "cuda" uses the GPU fields, "cpu" the CPU
 * fields. JSON keys are the field names, with compute capability as "cc": "9.0".
 */
struct probe_device {
    char kind[8];                  /* "cuda" or "cpu" */
    char name[128];                /* "NVIDIA H200", "AMD EPYC 9454" */
    int index;                     /* --device N (CUDA); 0 for the CPU */
    double memory_bytes;           /* device memory, or the machine's RAM for the CPU */
    double clock_hz;               /* SM clock, or the CPU core clock used for the peak */
    double l2_bytes;               /* GPU L2; for the CPU its L2 per core */
    /* CUDA */
    int cc_major, cc_minor;        /* compute capability; 0.0 unknown */
    int sms;
    double memory_clock_hz;
    int memory_bus_bits;
    char driver_version[32];       /* "13.0" */
    char runtime_version[32];
    /* CPU */
    int cores;                     /* physical cores (the peak counts these) */
    int threads;                   /* threads the probe ran on (hardware threads) */
    double l1d_bytes;              /* per core */
    double l3_bytes;               /* last level, total */
    char isa[16];                  /* compiled vector ISA: "avx512", "avx2", "sse2", "neon", "scalar" */
    int vector_bits;               /* width of the compiled vectors */
    int fma_bits;                  /* width of the FMA datapath (Zen 4 runs 512-bit ops on 256) */
    int fma_units;                 /* FMA pipes per core */
    char clock_source[96];         /* how clock_hz was found ("measured: dependent adds", ...) */
    /* Peaks computed from cores x clock x lanes x FMA units x 2 (CPU); not measured. */
    double peak_flops[PEAK_COUNT];
    bool peak_valid[PEAK_COUNT];
};

/* The whole probe result: JSON top-level keys "device", "time", "points" and, for a run that
 * stopped early, "incomplete". */
struct points_doc {
    struct probe_device device;
    char time[32];                 /* ISO 8601 UTC, "2026-05-01T12:00:00Z"; "" unknown */
    /* Why the run stopped before its end ("time limit of 60 s reached after 20 of 40
     * points"): the points are what was measured until then. "" for a whole run. JSON key
     * "incomplete", absent for a whole run. */
    char incomplete[POINTS_TEXT_MAX];
    struct probe_point *points;
    size_t n, cap;
};

/* Ceilings derived from the valid points (see points_ceilings). */
struct points_ceilings {
    double bandwidth;              /* bytes/s: best "bw.*" point; 0 when none */
    char bandwidth_from[POINTS_NAME_MAX];
    double peak[PEAK_COUNT];       /* FLOP/s: best point whose dtype runs at that peak */
    bool peak_valid[PEAK_COUNT];
    char peak_from[PEAK_COUNT][POINTS_NAME_MAX];
};

/* One streamed line of `rooftop probe` (and of rooftop-probe-cuda). */
enum points_line_kind {
    PLINE_POINT,     /* {"name": ..., "dtype": ..., ...}: a point object, as in the document */
    PLINE_DEVICE,    /* {"device": {...}} */
    PLINE_PROGRESS,  /* {"progress": {"done": 3, "total": 40, "what": "sweep.fp32"}} */
    PLINE_STATUS,    /* {"status": "text"} */
    PLINE_ERROR,     /* {"error": "text"}: the probe failed; it exits non-zero after it */
    PLINE_DONE       /* {"done": {"points": 40, "seconds": 12.5}}: the last line of a run */
};

struct points_line {
    enum points_line_kind kind;
    struct probe_point point;      /* PLINE_POINT */
    struct probe_device device;    /* PLINE_DEVICE */
    int done, total;               /* PLINE_PROGRESS; PLINE_DONE: done = points */
    double seconds;                /* PLINE_DONE */
    char text[POINTS_TEXT_MAX];    /* PLINE_PROGRESS "what", PLINE_STATUS, PLINE_ERROR */
};

void points_init(struct points_doc *d);
void points_free(struct points_doc *d);
/* Appends a copy of p. Returns false on allocation failure (d unchanged). */
bool points_add(struct points_doc *d, const struct probe_point *p);
/* Fills the derived fields (intensity, flops_per_s, bytes_per_s) from flops, bytes, seconds. */
void points_derive(struct probe_point *p);
/* A point from what was measured, derived fields filled (the name is cut to fit). */
struct probe_point points_make(const char *name, enum dtype dt, double flops, double bytes,
                               double seconds, bool valid);
/* Sets time to now, UTC. */
void points_set_time_now(struct points_doc *d);

/*
 * Parses a whole document. intensity, flops_per_s and bytes_per_s may be omitted (derived);
 * when present they must agree with flops, bytes and seconds to 0.1%. Unknown keys are
 * ignored. On error writes one line "ORIGIN: points[3].seconds: must be positive" and
 * returns false with d empty. Never crashes on any input. d must be points_init'ed.
 */
bool points_parse(const char *json, size_t len, const char *origin, struct points_doc *d,
                  char *err, size_t errlen);
/* Reads and parses a file (or NAME: specs/points/NAME.json on the search path, files.h);
 * errors name the file ("FILE: cannot read: No such file..."). */
bool points_load_file(const char *path, struct points_doc *d, char *err, size_t errlen);

/*
 * Parses one streamed line (no newline needed; surrounding whitespace allowed). On error
 * writes one line "line: points.bytes: ..." style text to err and returns false.
 */
bool points_parse_line(const char *line, size_t len, struct points_line *out, char *err,
                       size_t errlen);

/* Writes the document as pretty JSON. Returns false on a write error (errno set). */
bool points_write(FILE *f, const struct points_doc *d);
/* Writes to a file (replaced atomically via PATH.tmp); one-line error naming the file. */
bool points_save_file(const char *path, const struct points_doc *d, char *err, size_t errlen);
/* One point / one device as a single JSON line (newline included) into buf; false if it does
 * not fit. The same text rooftop-probe-cuda streams. */
bool points_format_point(const struct probe_point *p, char *buf, size_t n);
bool points_format_device(const struct probe_device *dev, char *buf, size_t n);

/*
 * Measured ceilings: bandwidth = the best bytes_per_s of the valid "bw.*" points; peak[k] =
 * the best flops_per_s of the valid points whose dtype_peak(dtype) is k (a CUDA-core fp32
 * sweep counts for fp32, a tf32 GEMM for tf32, a bf16 GEMM for bf16).
 */
void points_ceilings(const struct points_doc *d, struct points_ceilings *c);

/*
 * A GPU spec from the document, for --save-spec: bandwidth measured; peaks are the device's
 * computed peaks where it has them (the CPU: cores x clock x vector width x FMA units), else
 * the measured ceilings; formats never measured are left invalid (N/A). id is "probe", name
 * from the device, source says what was measured where and when. Returns false when there is
 * no valid bandwidth point (a spec without bandwidth is useless), with one line in err.
 */
bool points_to_gpu_spec(const struct points_doc *d, struct gpu_spec *g, char *err,
                        size_t errlen);
/* The spec is written with spec_save_gpu (spec.h), the one writer of GPU spec files. */

#endif
