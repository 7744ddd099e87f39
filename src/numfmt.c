/* numfmt.c - floating-point formats: figures from their bits, rounding as a cast does. */
#include "numfmt.h"

#include <math.h>

/* name, exponent bits, mantissa bits, overflow. The top exponent code holds inf/NaN in the
 * IEEE formats; E4M3 keeps it for numbers but its all-ones mantissa is NaN; E2M1 has neither. */
static const struct {
    const char *name;
    int e, m;
    enum numfmt_overflow over;
} layouts[NF_COUNT] = {
    [NF_FP32] = {"fp32", 8, 23, NF_OVER_INF},
    [NF_FP16] = {"fp16", 5, 10, NF_OVER_INF},
    [NF_BF16] = {"bf16", 8, 7, NF_OVER_INF},
    [NF_FP8_E4M3] = {"fp8-e4m3", 4, 3, NF_OVER_NAN},
    [NF_FP8_E5M2] = {"fp8-e5m2", 5, 2, NF_OVER_INF},
    [NF_NVFP4] = {"nvfp4", 2, 1, NF_OVER_SATURATE},
};

/* The largest finite value: the top exponent with every mantissa bit set (IEEE: the exponent
 * below the inf/NaN code; E4M3: the top code, its all-ones mantissa being NaN). */
static double largest(int e, int m, int bias, enum numfmt_overflow over)
{
    int top = (1 << e) - 1; /* the all-ones exponent code */
    double mant = 2.0 - ldexp(1.0, -m);
    if (over == NF_OVER_INF)
        return ldexp(mant, top - 1 - bias);
    if (over == NF_OVER_NAN)
        return ldexp(mant - ldexp(1.0, -m), top - bias);
    return ldexp(mant, top - bias);
}

bool numfmt_get(enum numfmt_id id, struct numfmt *f)
{
    if ((unsigned)id >= NF_COUNT)
        return false;
    {
        int i = (int)id;
        f->name = layouts[i].name;
        f->exp_bits = layouts[i].e;
        f->man_bits = layouts[i].m;
        f->bias = (1 << (layouts[i].e - 1)) - 1;
        f->overflow = layouts[i].over;
        f->max = largest(f->exp_bits, f->man_bits, f->bias, f->overflow);
        f->min_normal = ldexp(1.0, 1 - f->bias);
        f->min_subnormal = ldexp(1.0, 1 - f->bias - f->man_bits);
        f->epsilon = ldexp(1.0, -f->man_bits);
    }
    return true;
}

int numfmt_bits(const struct numfmt *f)
{
    return 1 + f->exp_bits + f->man_bits;
}

double numfmt_round(const struct numfmt *f, double x)
{
    if (isnan(x))
        return x;
    double a = fabs(x);
    if (isinf(a))
        return f->overflow == NF_OVER_INF ? x : f->overflow == NF_OVER_NAN ? NAN : copysign(f->max, x);
    if (a == 0)
        return x;
    int e;
    frexp(a, &e); /* a = frac * 2^e, frac in [0.5, 1): the leading bit is 2^(e-1) */
    int lead = e - 1;
    if (lead < 1 - f->bias)
        lead = 1 - f->bias; /* subnormal: the quantum of the smallest normal binade */
    double q = ldexp(1.0, lead - f->man_bits);
    double r = nearbyint(a / q) * q; /* a / q is exact (a power of two); ties go to even */
    if (r > f->max) {
        if (f->overflow == NF_OVER_INF)
            r = INFINITY;
        else if (f->overflow == NF_OVER_NAN)
            return NAN;
        else
            r = f->max;
    }
    return copysign(r, x);
}

double numfmt_nvfp4(double x, double block_max, double tensor_max, double *scale)
{
    struct numfmt e2m1, e4m3;
    numfmt_get(NF_NVFP4, &e2m1);
    numfmt_get(NF_FP8_E4M3, &e4m3);
    double bm = fmax(fabs(block_max), fabs(x)), tm = fmax(fabs(tensor_max), bm);
    if (!(bm > 0)) {
        *scale = 0;
        return copysign(0.0, x);
    }
    /* The tensor's scale maps its largest magnitude onto E4M3's largest times E2M1's. */
    double global = e4m3.max * e2m1.max / tm;
    double bs = numfmt_round(&e4m3, bm / e2m1.max * global);
    if (isnan(bs))
        bs = e4m3.max;
    *scale = bs / global;
    if (!(*scale > 0))
        return copysign(0.0, x);
    return numfmt_round(&e2m1, x / *scale) * *scale;
}

int numfmt_e2m1_values(double *out, int n)
{
    struct numfmt f;
    numfmt_get(NF_NVFP4, &f);
    int k = 0;
    /* Every code with the sign bit clear, in order: subnormal 0 and 0.5, then the normals. */
    for (int code = 0; code < 1 << (f.exp_bits + f.man_bits) && k < n; code++) {
        int ex = code >> f.man_bits, man = code & ((1 << f.man_bits) - 1);
        double frac = (double)man / (1 << f.man_bits);
        out[k++] = ex == 0 ? ldexp(frac, 1 - f.bias) : ldexp(1.0 + frac, ex - f.bias);
    }
    return k;
}
