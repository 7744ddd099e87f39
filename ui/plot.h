/* plot.h - the roofline plot and the operations it places. */
#ifndef ROOFTOP_UI_PLOT_H
#define ROOFTOP_UI_PLOT_H

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

#define PLOT_MAX_OPS (ANALYSIS_MAX_OPS > 8 ? ANALYSIS_MAX_OPS : 8)

/* The model's operations (from the analysis) or the lecture's five, per d->lecture_ops. */
int plot_ops(const struct dash *d, struct view_op *out, int max);

/* Draws the roofline panel (header row included) into r. */
void plot_roofline(const struct dash *d, struct screen *s, struct rect r, bool focused);

#endif
