/* compute_panel.h - the compute panel (the predicted step and the run's figures). */
#ifndef ROOFTOP_UI_COMPUTE_PANEL_H
#define ROOFTOP_UI_COMPUTE_PANEL_H

#include <stdbool.h>

#include "dash.h"
#include "screen.h"

/* Draws the panel into r; focused draws its header as the focus. */
void compute_panel_draw(const struct dash *d, struct screen *s, struct rect r, bool focused);

#endif
