/* op_figure.h - an operation's own figures (FLOPs, bytes, intensity, bound, attainable rate,
 * time) as figure values: the columns the training and serving reports' operation tables
 * share. */
#ifndef ROOFTOP_OP_FIGURE_H
#define ROOFTOP_OP_FIGURE_H

#include <stdbool.h>

#include "analysis.h"
#include "figure.h"

enum op_figure { OPF_FLOPS, OPF_BYTES, OPF_INTENSITY, OPF_BOUND, OPF_ATTAINABLE, OPF_SECONDS,
                 OPF_COUNT };

/* Sets v to figure f of o and returns true; false (v untouched) when f is not one of them. */
bool op_figure_get(const struct op *o, int f, struct figure_value *v);

#endif
