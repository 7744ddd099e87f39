/* gpu.h - one accelerator's datasheet: memory, bandwidth, dense peak per format. */
#ifndef ROOFTOP_GPU_H
#define ROOFTOP_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"

#define GPU_NAME_MAX 64
#define GPU_SOURCE_MAX 256

/* The node a GPU sits in (reference.md section 7): its NVLink (or other scale-up) domain and
 * the network beyond it. Figures per GPU, per direction; 0 = unknown. */
struct gpu_node {
    int64_t domain;                   /* GPUs in one NVLink domain */
    double nvlink_bandwidth;          /* bytes/s per GPU per direction inside the domain */
    double network_bandwidth;         /* bytes/s per GPU per direction to other domains */
    double nvlink_latency;            /* seconds per ring step inside the domain */
    double network_latency;           /* seconds per ring step across domains */
};

struct gpu_spec {
    char id[GPU_NAME_MAX];            /* preset id, e.g. "h100-sxm" (file stem) */
    char name[GPU_NAME_MAX];          /* display name, e.g. "H100 SXM5" */
    char source[GPU_SOURCE_MAX];      /* where the figures come from */
    double memory_bytes;              /* usable device memory, bytes */
    double bandwidth;                 /* memory bandwidth, bytes/s */
    double peak_flops[PEAK_COUNT];    /* dense FLOP/s per format */
    bool peak_valid[PEAK_COUNT];      /* false: the GPU has no such rate ("N/A") */
    int64_t sms;                      /* SMs (or CUs); 0 = unknown */
    double l2_bytes;                  /* 0 = unknown */
    double interconnect_bandwidth;    /* bytes/s per GPU; 0 = unknown */
    struct gpu_node node;             /* the system around it (step-time model) */
    /* Achievable fractions, from published measurements (the spec file's "efficiency"
     * names its source); 0 = unknown, the step-time model then uses its defaults. */
    double gemm_efficiency;           /* a large dense GEMM's rate / the dense peak */
    double memory_efficiency;         /* a streaming copy's bytes/s / the bandwidth */
    /* The datasheet's maximum board power (TDP, TBP) in watts, what the energy of a run is
     * counted at (src/cost.h); the spec file's "power" names its source. 0 = unknown. */
    double board_power;
};

/*
 * The dense peak a matmul in dtype d runs at: the GPU's own rate for that format, or 0 when
 * it has none. There is no fallback to another format's rate: fp4 on an H100 has no peak,
 * and the scenario is refused rather than timed at the fp8 rate (issue 8).
 */
double gpu_peak(const struct gpu_spec *g, enum dtype d);
/* True when the GPU has a peak for dtype d. */
bool gpu_has_dtype(const struct gpu_spec *g, enum dtype d);
/* The formats the GPU has a peak for, "fp64, fp32, tf32, bf16, fp16, fp8" ("none" when it has
 * none), into buf of n bytes. */
void gpu_dtypes(const struct gpu_spec *g, char *buf, size_t n);
/* Ridge point (FLOP/byte) of dtype d: peak / bandwidth; 0 when unknown. */
double gpu_ridge(const struct gpu_spec *g, enum dtype d);
/* The built-in H100 SXM5 datasheet (reference.md section 3), used when no spec dir is found. */
void gpu_builtin_h100(struct gpu_spec *g);

#endif
