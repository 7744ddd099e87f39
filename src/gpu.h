/* gpu.h - one accelerator's datasheet: memory, bandwidth, dense peak per format. */
#ifndef ROOFTOP_GPU_H
#define ROOFTOP_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"

#define GPU_NAME_MAX 64
#define GPU_SOURCE_MAX 256

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
