/* ops.h - the operations view: each operation of a step as the roofline places it and the
 * operations table lists it. */
#ifndef ROOFTOP_UI_OPS_H
#define ROOFTOP_UI_OPS_H

#include <stdbool.h>

#include "dash.h"
#include "screen.h"

/* An operation as the roofline panel and the operations table show it. */
struct view_op {
    char key;              /* its mark on the plot: 'a', 'b', ... */
    const char *name;
    double flops, bytes, intensity, attainable, seconds;
    bool compute_bound;
};

/* Room for prefill's and decode's operations in the inference view. */
#define OPS_MAX (2 * ANALYSIS_MAX_OPS)

/* The model's operations (from the analysis) or the lecture's five, per d->lecture_ops; in
 * the inference view, prefill's and one decode step's ("P qkv", "D qkv"). */
int ops_list(const struct dash *d, struct view_op *out, int max);

/* The roof the operations are placed under: the training scenario's GPU and dtype, or in the
 * inference view its GPU and activations' dtype. */
struct view_roof {
    const struct gpu_spec *gpu;
    enum dtype dtype;
    double peak, bandwidth, ridge;
};
void ops_roof(const struct dash *d, struct view_roof *out);

/* The view's ridge as its report writes it (roofline.ridge of the training report, or of the
 * serving one in the i view) into num, and the row's label; false without the row. */
bool ops_ridge(const struct dash *d, char *num, size_t n, const char **label);

/* Draws the operations table (header row included) into r. */
void ops_draw(const struct dash *d, struct screen *s, struct rect r, bool focused);

#endif
