/* gpu.h - one accelerator's datasheet: memory, bandwidth, dense peak per format. */
#ifndef ROOFTOP_GPU_H
#define ROOFTOP_GPU_H

#include <stdbool.h>
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
};

/*
 * The dense peak a matmul in dtype d runs at. Falls back along the chain a framework would
 * take when the GPU lacks the format: fp4 -> fp8 -> bf16/fp16 -> fp32, tf32 -> fp32,
 * bf16 <-> fp16. Returns 0 when nothing is known.
 */
double gpu_peak(const struct gpu_spec *g, enum dtype d);
/* Ridge point (FLOP/byte) of dtype d: peak / bandwidth; 0 when unknown. */
double gpu_ridge(const struct gpu_spec *g, enum dtype d);
/* The built-in H100 SXM5 datasheet (reference.md section 3), used when no spec dir is found. */
void gpu_builtin_h100(struct gpu_spec *g);

#endif
