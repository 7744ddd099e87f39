/* dash_views.h - the views that follow the scenario shown: the sweep panel (w) and the pinned
 * comparison (x). dash_try updates them after each change. */
#ifndef ROOFTOP_UI_DASH_VIEWS_H
#define ROOFTOP_UI_DASH_VIEWS_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* w: the focused slider's range in place of the roofline, or back. */
void dash_views_sweep(struct dash *d);
/* x: pins the scenario shown, or unpins. */
void dash_views_pin(struct dash *d);

#endif
