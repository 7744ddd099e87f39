/* numfmt.h - floating-point formats bit by bit: their layout, range and precision, and how
 * each stores a given value (round to nearest even, as a cast does). The lecture's table of
 * fp32, fp16, bf16, fp8 (E4M3, E5M2) and nvfp4. */
#ifndef ROOFTOP_NUMFMT_H
#define ROOFTOP_NUMFMT_H

#include <stdbool.h>

enum numfmt_id {
    NF_FP32,
    NF_FP16,
    NF_BF16,
    NF_FP8_E4M3,
    NF_FP8_E5M2,
    NF_NVFP4,   /* E2M1 values; one E4M3 scale per NUMFMT_NVFP4_BLOCK values */
    NF_COUNT
};

/* nvfp4: 16 values share one E4M3 scale. */
#define NUMFMT_NVFP4_BLOCK 16

/* What happens to a value past the largest finite one. */
enum numfmt_overflow {
    NF_OVER_INF,       /* IEEE: infinity (fp32, fp16, bf16, E5M2) */
    NF_OVER_NAN,       /* no infinity, the one NaN code (E4M3, the "fn" variant) */
    NF_OVER_SATURATE,  /* neither: the largest value (E2M1) */
};

struct numfmt {
    const char *name;     /* "fp32", "fp8-e4m3", ... */
    int exp_bits, man_bits;
    int bias;
    double max;           /* largest finite value */
    double min_normal;    /* 2^(1 - bias) */
    double min_subnormal; /* 2^(1 - bias - man_bits) */
    double epsilon;       /* 2^-man_bits: the gap above 1 */
    enum numfmt_overflow overflow;
};

/* The format's layout and figures into *f (derived from its bits, not tabled); false for an
 * id out of range. */
bool numfmt_get(enum numfmt_id id, struct numfmt *f);
/* Total bits: 1 + exponent + mantissa. */
int numfmt_bits(const struct numfmt *f);

/* x as format f stores it: rounded to the nearest representable value, ties to even;
 * subnormals kept, past the range inf / NaN / the largest value as f's overflow says. */
double numfmt_round(const struct numfmt *f, double x);

/* nvfp4 storing x in a block of 16 whose largest magnitude is block_max, in a tensor whose
 * largest is tensor_max (both raised to |x| at least): the tensor's fp32 scale maps
 * tensor_max to 448 x 6, the block's scale is block_max / 6 under it, stored as E4M3, and x
 * over the two scales is stored as E2M1. Returns the value read back; *scale gets the
 * effective scale (the E4M3 block scale over the tensor's). */
double numfmt_nvfp4(double x, double block_max, double tensor_max, double *scale);

/* The E2M1 values of nvfp4 that are >= 0, ascending: 0, 0.5, 1, 1.5, 2, 3, 4, 6 (out holds
 * at least 8); returns how many. */
int numfmt_e2m1_values(double *out, int n);

#endif
