/* checkpoint_panel.h - the checkpointing curve of the scenario's model (src/checkpoint.c):
 * memory and recomputed forwards against the checkpoint interval, sqrt(L) marked, the
 * interval of least memory said, and the lecture's toy (a layer storing only its output)
 * beside it. Its figures are the report's rows memory.checkpoint.* (src/report.c). */
#ifndef ROOFTOP_UI_CHECKPOINT_PANEL_H
#define ROOFTOP_UI_CHECKPOINT_PANEL_H

#include <stdbool.h>

#include "dash.h"
#include "screen.h"

/* The panel's sizes: the layers L, a layer's stored activations A and its input I (bytes per
 * micro-batch on one GPU: A as without recomputation, I as full recomputation keeps), A / I,
 * the interval of least memory sqrt(L I / A), sqrt(L), and the activations outside the
 * layers. */
enum { CS_LAYERS, CS_STORED, CS_INPUT, CS_RATIO, CS_BEST_K, CS_SQRT_L, CS_OUTSIDE, CS_COUNT };
struct checkpoint_sizes {
    double x[CS_COUNT];
};
/* The report's values of those for the scenario shown (0 where it has none); false when the
 * report's table lacks one. */
bool checkpoint_panel_sizes(const struct dash *d, struct checkpoint_sizes *o);

/* One row of the curve (the report's memory.checkpoint.curve[]): its kind ("all", "every",
 * "none"), whether it is the sqrt(L) interval and the scenario's own setting, and the
 * numbers x[CC_K ..] (interval, checkpoints kept, memory in bytes, layer forwards re-run,
 * the toy's memory in inputs and its re-runs). */
enum { CC_KIND, CC_K, CC_SQRT_L, CC_CHECKPOINTS, CC_MEMORY, CC_RECOMPUTE, CC_CURRENT,
       CC_TOY_MEMORY, CC_TOY_RECOMPUTE, CC_COLS };
struct checkpoint_line {
    char kind[8];
    bool sqrt_l, current;
    double x[CC_COLS];
};
/* The curve's rows into out (at most max, 24 at most); returns how many. */
int checkpoint_panel_curve(const struct dash *d, struct checkpoint_line *out, int max);

void checkpoint_panel_draw(const struct dash *d, struct screen *s, struct rect r);

#endif
