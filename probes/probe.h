/* probe.h - probe backends behind one interface (as nvtop does for GPU vendors). */
#ifndef ROOFTOP_PROBE_H
#define ROOFTOP_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "points.h"

#define PROBE_SHAPES_MAX 32
#define PROBE_LABEL_MAX 24

/* A GEMM shape to measure: C[M x N] = A[M x K] B[K x N]. */
struct probe_shape {
    char label[PROBE_LABEL_MAX];   /* "qkv"; "" when none was given */
    long m, n, k;
};

struct probe_options {
    int device;                    /* CUDA device index */
    int threads;                   /* CPU threads; 0 = every CPU this process may run on */
    bool quick;                    /* a few seconds: fewer points, smaller buffers */
    double time_limit_s;           /* the whole run; a child past it is killed */
    struct probe_shape shapes[PROBE_SHAPES_MAX];
    size_t n_shapes;
};

/* Where a backend sends what it measures; every callback may be NULL. */
struct probe_sink {
    void *ctx;
    void (*device)(void *ctx, const struct probe_device *dev);
    void (*point)(void *ctx, const struct probe_point *p);
    void (*progress)(void *ctx, int done, int total, const char *what);
    void (*status)(void *ctx, const char *text);
};

/*
 * A backend. Each function reports failure with false and one line in err (no prefix).
 * available: false with the reason when it cannot run here ("built without CUDA
 *   (rooftop-probe-cuda not found next to rooftop or on PATH)", "no CUDA driver",
 *   "no device"); a normal case, not an error.
 * describe: fills the device (without running any probe).
 * run: runs the probes, sends the device first, then every point as it is measured.
 *   Points that fail their check are sent with valid = false (and a status line saying so);
 *   false is returned only when the run itself failed (a CUDA error, a crash, the time limit).
 * cleanup: frees what the backend holds (a child process, threads); safe to call twice.
 */
struct probe_backend {
    const char *name;
    bool (*available)(const struct probe_options *o, char *why, size_t n);
    bool (*describe)(const struct probe_options *o, struct probe_device *dev, char *err,
                     size_t n);
    bool (*run)(const struct probe_options *o, const struct probe_sink *sink, char *err,
                size_t n);
    void (*cleanup)(void);
};

extern const struct probe_backend probe_backend_cpu;
extern const struct probe_backend probe_backend_cuda;

/* "cpu" / "cuda"; NULL when unknown. */
const struct probe_backend *probe_backend_find(const char *name);
/*
 * auto: cuda when available, else cpu. Writes which one and why into why
 * ("cuda: NVIDIA H200" or "cpu: cuda unavailable: no CUDA driver").
 */
const struct probe_backend *probe_backend_auto(const struct probe_options *o, char *why,
                                               size_t n);

void probe_options_default(struct probe_options *o);
/* Parses "M,N,K;qkv=M,N,K;..." into o->shapes. One line in err on error. */
bool probe_parse_shapes(const char *s, struct probe_options *o, char *err, size_t n);

/* Monotonic seconds (CLOCK_MONOTONIC). */
double probe_now(void);
/* The fastest of n timed passes: the smallest positive, finite v[i] (0 when none). Load on
 * the machine only slows a pass, so the best of several after warm-up is the hardware's rate
 * (as STREAM and mixbench report). */
double probe_best(const double *v, size_t n);

#endif
