/* dtype.h - number formats: bytes per element and which peak FLOP/s rate they run at. */
#ifndef ROOFTOP_DTYPE_H
#define ROOFTOP_DTYPE_H

#include <stdbool.h>

/* Storage formats a tensor can be held in. */
enum dtype {
    DTYPE_FP64,
    DTYPE_FP32,
    DTYPE_TF32,      /* stored as fp32, multiplied on tensor cores at tf32 rate */
    DTYPE_BF16,
    DTYPE_FP16,
    DTYPE_FP8_E4M3,
    DTYPE_FP8_E5M2,
    DTYPE_FP4,       /* nvfp4: 4-bit values plus one E4M3 scale per 16-value block */
    DTYPE_INT8,      /* 8-bit optimizer state (8-bit Adam); int8 serving weights */
    DTYPE_INT4,      /* serving weights: 4-bit integers plus one fp16 scale per 128-value group */
    DTYPE_COUNT
};

/* The peak-rate columns of a GPU spec (dense FLOP/s), one per arithmetic format. */
enum peak_kind {
    PEAK_FP64,
    PEAK_FP32,
    PEAK_TF32,
    PEAK_BF16,
    PEAK_FP16,
    PEAK_FP8,
    PEAK_FP4,
    PEAK_COUNT
};

/* nvfp4 block: 16 values share one 1-byte E4M3 scale. */
#define DTYPE_FP4_BLOCK 16
/* int4 weight group: 128 values share one fp16 scale (GPTQ's and AWQ's default group_size). */
#define DTYPE_INT4_GROUP 128

/* Bytes per element, including block-scale overhead (fp4: 0.5 + 1/16 = 0.5625). */
double dtype_bytes(enum dtype d);
/* Short name as used on the command line and in JSON: "fp32", "bf16", "fp8-e4m3", ... */
const char *dtype_name(enum dtype d);
/* Parses a dtype name; "fp8" means E4M3. Returns false on an unknown name. */
bool dtype_parse(const char *s, enum dtype *out);
/* True for the formats a training run can hold its tensors in (not fp64, not the integer
 * storage formats of optimizer state and quantised serving weights). */
bool dtype_trains(enum dtype d);
/* Which peak rate a matmul in this dtype runs at. */
enum peak_kind dtype_peak(enum dtype d);
/* "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "fp4": also the JSON keys of peak_flops. */
const char *peak_name(enum peak_kind p);
bool peak_parse(const char *s, enum peak_kind *out);

#endif
