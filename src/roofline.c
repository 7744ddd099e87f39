/* roofline.c - attainable FLOP/s and the lecture's five operations. */
#include "roofline.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wide.h"

double roofline_attainable(double peak, double bandwidth, double intensity)
{
    double mem = bandwidth * intensity;
    return mem < peak ? mem : peak;
}

double roofline_seconds(double flops, double bytes, double peak, double bandwidth)
{
    double c = peak > 0 ? flops / peak : 0.0;
    double m = bandwidth > 0 ? bytes / bandwidth : 0.0;
    return c > m ? c : m;
}

static const char *const lop_names[LOP_COUNT] = {
    [LOP_RELU] = "relu", [LOP_GELU] = "gelu", [LOP_DOT] = "dot",
    [LOP_MATVEC] = "matvec", [LOP_MATMUL] = "matmul",
};

const char *lecture_op_name(enum lecture_op op)
{
    return (unsigned)op < LOP_COUNT ? lop_names[op] : "?";
}

bool lecture_op_parse(const char *s, enum lecture_op *out)
{
    for (int i = 0; s && i < LOP_COUNT; i++) {
        if (strcmp(s, lop_names[i]) == 0) {
            *out = (enum lecture_op)i;
            return true;
        }
    }
    return false;
}

double lecture_op_default_n(enum lecture_op op)
{
    return (op == LOP_MATVEC || op == LOP_MATMUL) ? 1024.0 : 1024.0 * 1024.0;
}

void lecture_op_cost(enum lecture_op op, double n, enum dtype d, struct op_cost *out)
{
    const double e = dtype_bytes(d);
    double flops = 0, bytes = 0;
    switch (op) {
    case LOP_RELU:            /* read x, write y; one max per element */
        flops = n;
        bytes = 2.0 * e * n;
        break;
    case LOP_GELU:            /* the lecture counts 20 FLOPs for the tanh approximation */
        flops = 20.0 * n;
        bytes = 2.0 * e * n;
        break;
    case LOP_DOT:             /* n multiplies and n - 1 adds; read x and y, write one scalar */
        flops = 2.0 * n - 1.0;
        bytes = 2.0 * e * n + e;
        break;
    case LOP_MATVEC:          /* n dot products of length n; read A and x, write y */
        flops = n * (2.0 * n - 1.0);
        bytes = e * (n * n + 2.0 * n);
        break;
    case LOP_MATMUL:          /* n^2 dot products of length n; read A and B, write C */
        flops = n * n * (2.0 * n - 1.0);
        bytes = 3.0 * e * n * n;
        break;
    case LOP_COUNT:
        break;
    }
    out->flops = flops;
    out->bytes = bytes;
    out->intensity = bytes > 0 ? flops / bytes : 0.0;
}

void lecture_op_exact(enum lecture_op op, long long n, enum dtype d, char *flops,
                      size_t flops_len, char *bytes, size_t bytes_len)
{
    if (flops_len > 0)
        flops[0] = '\0';
    if (bytes_len > 0)
        bytes[0] = '\0';
    if (n < 1)
        return;
    /* Bytes per element in sixteenths (fp4 is 9/16: half a byte and a scale byte per 16). */
    double e16 = 16.0 * dtype_bytes(d);
    bool bytes_exact = e16 >= 1 && e16 <= 1024 && e16 == (double)(uint32_t)e16;
    struct wide N = wide_from((uint64_t)n), one = wide_from(1), two = wide_from(2);
    struct wide N2 = wide_mul(N, N), twice_n_less_1 = wide_sub(wide_mul(two, N), one);
    struct wide f, b2; /* FLOPs, and the elements moved (bytes = elements x e16 / 16) */
    switch (op) {
    case LOP_RELU:
        f = N;
        b2 = wide_mul(two, N);
        break;
    case LOP_GELU:
        f = wide_mul(wide_from(20), N);
        b2 = wide_mul(two, N);
        break;
    case LOP_DOT:
        f = twice_n_less_1;
        b2 = wide_add(wide_mul(two, N), one);
        break;
    case LOP_MATVEC:
        f = wide_mul(N, twice_n_less_1);
        b2 = wide_add(N2, wide_mul(two, N));
        break;
    case LOP_MATMUL:
        f = wide_mul(N2, twice_n_less_1);
        b2 = wide_mul(wide_from(3), N2);
        break;
    default:
        return;
    }
    (void)wide_format(f, flops, flops_len);
    if (!bytes_exact)
        return;
    uint32_t part;
    struct wide b = wide_div_small(wide_mul(b2, wide_from((uint32_t)e16)), 16, &part);
    if (part == 0)
        (void)wide_format(b, bytes, bytes_len);
}

void matmul_rect_cost(double B, double D, double K, enum dtype d, struct op_cost *out)
{
    const double e = dtype_bytes(d);
    out->flops = 2.0 * B * D * K;
    out->bytes = e * (B * D + D * K + B * K);
    out->intensity = out->bytes > 0 ? out->flops / out->bytes : 0.0;
}
