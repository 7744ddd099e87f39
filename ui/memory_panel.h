/* memory_panel.h - the memory panel (memory per GPU: bar, verdict, the lecture's table). */
#ifndef ROOFTOP_UI_MEMORY_PANEL_H
#define ROOFTOP_UI_MEMORY_PANEL_H

#include <stdbool.h>

#include "dash.h"
#include "screen.h"

/* Draws the panel into r; focused draws its header as the focus. */
void memory_panel_draw(const struct dash *d, struct screen *s, struct rect r, bool focused);

#endif
