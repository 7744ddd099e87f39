/* explain.h - the formula behind the focused number, with this scenario's values filled in. */
#ifndef ROOFTOP_UI_EXPLAIN_H
#define ROOFTOP_UI_EXPLAIN_H

#include <stddef.h>

#include "dash.h"

/* Writes the explanation of d's focus that fits in width cells (a shorter form when the
 * full one does not fit). */
void explain_line(const struct dash *d, int width, char *buf, size_t n);

/* A number as the panels write theirs: 7e10, 1.5e13, 9.894e14, 6.3e24; 1024 and 0.5 plain. */
void explain_number(double v, char *buf, size_t n);

#endif
