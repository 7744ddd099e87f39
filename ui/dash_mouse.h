/* dash_mouse.h - what the mouse does on the dashboard: a click focuses or sets a slider, a drag
 * moves it, the wheel steps sliders and scrolls the ops table, caption and lists. */
#ifndef ROOFTOP_UI_DASH_MOUSE_H
#define ROOFTOP_UI_DASH_MOUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* One mouse event (ev->type EV_MOUSE). */
void dash_mouse_event(struct dash *d, const struct event *ev);

#endif
