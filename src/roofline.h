/* roofline.h - the roofline model and the lecture's five operations. */
#ifndef ROOFTOP_ROOFLINE_H
#define ROOFTOP_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "dtype.h"

/* min(peak, bandwidth * intensity) */
double roofline_attainable(double peak, double bandwidth, double intensity);
/* max(flops / peak, bytes / bandwidth) */
double roofline_seconds(double flops, double bytes, double peak, double bandwidth);

enum lecture_op { LOP_RELU, LOP_GELU, LOP_DOT, LOP_MATVEC, LOP_MATMUL, LOP_COUNT };

struct op_cost {
    double flops;
    double bytes;
    double intensity;
};

const char *lecture_op_name(enum lecture_op op);   /* "relu", "gelu", "dot", "matvec", "matmul" */
bool lecture_op_parse(const char *s, enum lecture_op *out);
/* Default size as in the lecture: n = 1024^2 elements for elementwise and dot, n = 1024 for
 * matrix-vector and matmul. */
double lecture_op_default_n(enum lecture_op op);
/* FLOPs and bytes of the lecture's operations at size n, elements of dtype d (lecture counts:
 * ReLU n FLOPs, GELU 20n, dot 2n-1, matvec n(2n-1), matmul n^2(2n-1)). */
void lecture_op_cost(enum lecture_op op, double n, enum dtype d, struct op_cost *out);
/* The same counts as exact decimal integers, from integer arithmetic (a double holds 53 bits:
 * matvec's 2e24 FLOPs at n = 1e12 came out as 1999999999999000044371968). A count that is
 * not a whole number (odd elements of fp4, half a byte each) or does not fit is left empty
 * (""): the caller then prints none. n from 1. */
void lecture_op_exact(enum lecture_op op, long long n, enum dtype d, char *flops,
                      size_t flops_len, char *bytes, size_t bytes_len);

/* The lecture's rectangular matmul, (B x D) . (D x K): 2 B D K FLOPs (a multiply and an add
 * per term, as the lecture counts it), reading both operands and writing the B x K result. */
void matmul_rect_cost(double B, double D, double K, enum dtype d, struct op_cost *out);

#endif
