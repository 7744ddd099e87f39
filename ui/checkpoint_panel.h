/* checkpoint_panel.h - the checkpointing curve of the scenario's model (src/checkpoint.c):
 * memory and recomputed forwards against the checkpoint interval, sqrt(L) marked, the
 * interval of least memory said, and the lecture's toy (a layer storing only its output)
 * beside it. */
#ifndef ROOFTOP_UI_CHECKPOINT_PANEL_H
#define ROOFTOP_UI_CHECKPOINT_PANEL_H

#include "dash.h"
#include "screen.h"

/* A layer's stored activations A and its input I, bytes per micro-batch on one GPU, for the
 * scenario shown (A as without recomputation, I as full recomputation keeps). */
void checkpoint_panel_sizes(const struct dash *d, double *A, double *I);
void checkpoint_panel_draw(const struct dash *d, struct screen *s, struct rect r);

#endif
