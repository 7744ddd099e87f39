/* capture.h - the cell grid written out as plain text, as ANSI escapes, or as SVG. */
#ifndef ROOFTOP_UI_CAPTURE_H
#define ROOFTOP_UI_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>

#include "screen.h"
#include "theme.h"

enum capture_format { CAPTURE_TXT, CAPTURE_ANSI, CAPTURE_SVG };

bool capture_format_parse(const char *s, enum capture_format *out);
/* Writes the grid; returns false when writing fails. */
bool capture_write(FILE *f, const struct screen *s, const struct theme *t, enum capture_format fmt);

#endif
