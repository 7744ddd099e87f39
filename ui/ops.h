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

#define OPS_MAX (ANALYSIS_MAX_OPS > 8 ? ANALYSIS_MAX_OPS : 8)

/* The model's operations (from the analysis) or the lecture's five, per d->lecture_ops. */
int ops_list(const struct dash *d, struct view_op *out, int max);

/* Draws the operations table (header row included) into r. */
void ops_draw(const struct dash *d, struct screen *s, struct rect r, bool focused);

#endif
