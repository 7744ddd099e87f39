/* dtype.c - number formats. */
#include "dtype.h"

#include <string.h>

static const struct {
    const char *name;
    double bytes;
    enum peak_kind peak;
} dtype_table[DTYPE_COUNT] = {
    [DTYPE_FP64] = {"fp64", 8.0, PEAK_FP64},
    [DTYPE_FP32] = {"fp32", 4.0, PEAK_FP32},
    [DTYPE_TF32] = {"tf32", 4.0, PEAK_TF32},
    [DTYPE_BF16] = {"bf16", 2.0, PEAK_BF16},
    [DTYPE_FP16] = {"fp16", 2.0, PEAK_FP16},
    [DTYPE_FP8_E4M3] = {"fp8-e4m3", 1.0, PEAK_FP8},
    [DTYPE_FP8_E5M2] = {"fp8-e5m2", 1.0, PEAK_FP8},
    /* nvfp4: half a byte per value plus a one-byte E4M3 scale shared by 16 values. */
    [DTYPE_FP4] = {"fp4", 0.5 + 1.0 / DTYPE_FP4_BLOCK, PEAK_FP4},
    /* 8-bit optimizer state; int8 tensor-core rate equals fp8's on the GPUs we list. */
    [DTYPE_INT8] = {"int8", 1.0, PEAK_FP8},
    /* Weight-only quantisation: the matmul dequantises to the activations' format, so the
     * rate is the activations'; bf16 stands for it here. */
    [DTYPE_INT4] = {"int4", 0.5 + 2.0 / DTYPE_INT4_GROUP, PEAK_BF16},
};

static const char *const peak_names[PEAK_COUNT] = {
    [PEAK_FP64] = "fp64", [PEAK_FP32] = "fp32", [PEAK_TF32] = "tf32", [PEAK_BF16] = "bf16",
    [PEAK_FP16] = "fp16", [PEAK_FP8] = "fp8",   [PEAK_FP4] = "fp4",
};

double dtype_bytes(enum dtype d)
{
    return (unsigned)d < DTYPE_COUNT ? dtype_table[d].bytes : 0.0;
}

const char *dtype_name(enum dtype d)
{
    return (unsigned)d < DTYPE_COUNT ? dtype_table[d].name : "?";
}

bool dtype_parse(const char *s, enum dtype *out)
{
    if (!s)
        return false;
    if (strcmp(s, "fp8") == 0 || strcmp(s, "e4m3") == 0) {
        *out = DTYPE_FP8_E4M3;
        return true;
    }
    if (strcmp(s, "e5m2") == 0) {
        *out = DTYPE_FP8_E5M2;
        return true;
    }
    if (strcmp(s, "nvfp4") == 0) {
        *out = DTYPE_FP4;
        return true;
    }
    for (int i = 0; i < DTYPE_COUNT; i++) {
        if (strcmp(s, dtype_table[i].name) == 0) {
            *out = (enum dtype)i;
            return true;
        }
    }
    return false;
}

bool dtype_trains(enum dtype d)
{
    return (unsigned)d < DTYPE_COUNT && d != DTYPE_FP64 && d != DTYPE_INT8 && d != DTYPE_INT4;
}

enum peak_kind dtype_peak(enum dtype d)
{
    return (unsigned)d < DTYPE_COUNT ? dtype_table[d].peak : PEAK_FP32;
}

const char *peak_name(enum peak_kind p)
{
    return (unsigned)p < PEAK_COUNT ? peak_names[p] : "?";
}

bool peak_parse(const char *s, enum peak_kind *out)
{
    if (!s)
        return false;
    for (int i = 0; i < PEAK_COUNT; i++) {
        if (strcmp(s, peak_names[i]) == 0) {
            *out = (enum peak_kind)i;
            return true;
        }
    }
    return false;
}
