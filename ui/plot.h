/* plot.h - the roofline plot and the operations it places. */
#ifndef ROOFTOP_UI_PLOT_H
#define ROOFTOP_UI_PLOT_H

#include <stdbool.h>

#include "dash.h"
#include "ops.h"
#include "plot_info.h"
#include "screen.h"

/* Draws the roofline panel (header row included) into r. */
void plot_roofline(const struct dash *d, struct screen *s, struct rect r, bool focused);

/* As plot_roofline, also saying what went where when info is not NULL. */
void plot_draw(const struct dash *d, struct screen *s, struct rect r, bool focused,
               struct plot_info *info);

#endif
