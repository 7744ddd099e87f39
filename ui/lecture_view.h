/* lecture_view.h - a lecture step's screen on the dashboard (ui/lecture_screen.h places it):
 * what it shows, for the frame and the tests, and the drawing of its caption box and of the
 * lecture's panels (number formats, checkpointing, the toy network). */
#ifndef ROOFTOP_UI_LECTURE_VIEW_H
#define ROOFTOP_UI_LECTURE_VIEW_H

#include <stdbool.h>

#include "dash.h"
#include "lecture_screen.h"
#include "screen.h"

/* lecture_screen.h's questions of the step d shows. */
const struct demo_step *lecture_view_step(const struct dash *d);
bool lecture_view_shows(const struct dash *d, const char *name);
int lecture_view_sliders(const struct dash *d, int ids[SLIDER_MAX]);
int lecture_view_slider_geom(const struct dash *d, struct rect r, struct slider_geom *g,
                             int ids[SLIDER_MAX], int *pos);
void lecture_view_layout(const struct dash *d, int cols, int rows, struct layout *L,
                         struct rect extra[LP_COUNT]);

/* The caption box (the caption, the answer or "a shows the answer") around text area r. */
void lecture_view_draw_caption(const struct dash *d, struct screen *s, struct rect r);
/* The lecture panels the step lists. */
void lecture_view_draw_extras(const struct dash *d, struct screen *s);

#endif
