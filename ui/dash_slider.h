/* dash_slider.h - moving the focused input's slider (keys and the mouse both do). */
#ifndef ROOFTOP_UI_DASH_SLIDER_H
#define ROOFTOP_UI_DASH_SLIDER_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* The steps slider id has for the scenario shown. */
int dash_slider_steps(const struct dash *d, int id);

/* Moves a slider: by delta steps (how 0), to its valid Home/End (how 1), or to the valid step
 * nearest a position along the track (how 2, the mouse). Returns true when applied. */
bool dash_slider_move(struct dash *d, int id, int delta, int how, double frac);

#endif
