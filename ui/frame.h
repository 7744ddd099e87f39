/* frame.h - the frame as a pure function of the dashboard state and the grid's size. */
#ifndef ROOFTOP_UI_FRAME_H
#define ROOFTOP_UI_FRAME_H

#include "dash.h"
#include "screen.h"

/* Draws the whole frame into s (s's size is the terminal's). */
void frame_draw(const struct dash *d, struct screen *s);

#endif
