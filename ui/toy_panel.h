/* toy_panel.h - the lecture's toy network on screen: a deep linear network of L layers of
 * D x D on a batch of B (the lecture's gradient-accumulation and optimizer examples), from
 * src/memory.c's memory_toy_mlp. */
#ifndef ROOFTOP_UI_TOY_PANEL_H
#define ROOFTOP_UI_TOY_PANEL_H

#include "dash.h"
#include "screen.h"

/* Rows the toy of step st takes. */
int toy_panel_rows(const struct demo_step *st);
/* The step's toy in r. */
void toy_panel_draw(const struct dash *d, struct screen *s, struct rect r);

#endif
