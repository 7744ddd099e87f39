/* roofline.c - attainable FLOP/s and the lecture's five operations. */
#include "roofline.h"

#include <math.h>
#include <string.h>

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
