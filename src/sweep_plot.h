/* sweep_plot.h - a sweep drawn: memory per GPU stacked by its rows against the knob, the
 * usable capacity as a line, the predicted step time on its own axis, and the point where
 * the scenario stops fitting named. The same cell grid is printed by `rooftop sweep` and
 * drawn by the dashboard's sweep panel; the SVG draws the same figure as an image. */
#ifndef ROOFTOP_SWEEP_PLOT_H
#define ROOFTOP_SWEEP_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "memory.h"
#include "sweep.h"

/* What a cell shows: the memory rows in enum mem_kind's order, then the rest. */
enum sweep_elem {
    SP_EMPTY = 0,
    SP_MEM_FIRST,                          /* + mem_kind: a memory row's part of a bar */
    SP_CAPACITY = SP_MEM_FIRST + MEM_COUNT, /* the usable-capacity line and its label */
    SP_STEP,                                /* a step-time point and its axis labels */
    SP_CROSS,                               /* where it stops fitting */
    SP_INVALID,                             /* a value the scenario refuses */
    SP_MARK,                                /* the current value (the dashboard's) */
    SP_AXIS,
    SP_LABEL,
    SP_OVER,                                /* a bar's cells above the usable line */
};

struct sweep_cell {
    uint32_t ch;                 /* a Unicode code point (ASCII without utf8) */
    unsigned char elem;          /* enum sweep_elem */
};

/* Smallest grid the plot draws in. */
#define SWEEP_PLOT_MIN_W 30
#define SWEEP_PLOT_MIN_H 6

/*
 * Draws sw into cells (w x h, row-major), with the point `mark` marked under the axis (-1:
 * none). Row 0 is the legend (at 10 rows and more), the last two the knob's axis and its
 * values; the memory axis is on the left, the step time's on the right. False (cells blank)
 * when w x h is under the minimum.
 */
bool sweep_plot_draw(const struct sweep *sw, int mark, bool utf8, int w, int h,
                     struct sweep_cell *cells);

/* One line naming where it stops fitting ("stops fitting at seq = 16Ki: 82.4 GB > 78 GB
 * usable"), or that it fits at every value, at none, or fits again. */
void sweep_plot_crossing(const struct sweep *sw, char *buf, size_t n);

/* The grid as text lines (UTF-8 or ASCII). False when writing fails. */
bool sweep_plot_write_text(FILE *f, const struct sweep *sw, int w, int h, bool utf8);
/* The figure as an SVG image. False when writing fails. */
bool sweep_plot_write_svg(FILE *f, const struct sweep *sw, const char *title);

#endif
