/* infer_frame.h - the inference view's frame (the dashboard after key i). */
#ifndef ROOFTOP_UI_INFER_FRAME_H
#define ROOFTOP_UI_INFER_FRAME_H

#include "dash.h"
#include "layout.h"
#include "screen.h"

/* Where the inference view's panels go at cols x rows. */
void infer_frame_layout(const struct dash *d, int cols, int rows, struct layout *L);
/* Draws every panel of the inference view (the grid is cleared and big enough). */
void infer_frame_draw(const struct dash *d, struct screen *s);

#endif
