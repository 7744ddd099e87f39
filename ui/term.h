/* term.h - the ncurses front end: the cell grid onto a real terminal, and its input as
 * events. Everything else (state, drawing) knows nothing of curses. */
#ifndef ROOFTOP_UI_TERM_H
#define ROOFTOP_UI_TERM_H

#include <stdbool.h>
#include <stdio.h>

#include "keys.h"
#include "screen.h"
#include "theme.h"

struct term;

/*
 * Opens a curses screen on out/in (newterm: termname NULL means $TERM). With want_color
 * and a terminal that has colours, styles get colour pairs; otherwise attributes only
 * (*color_out says which). Mouse reporting (press, release, drag, wheel) is switched on.
 * Returns NULL with one line in err when the terminal cannot be used.
 */
struct term *term_open(const char *termname, FILE *out, FILE *in, bool want_color,
                       bool *color_out, char *err, size_t errlen);
/* Restores the terminal and frees everything. */
void term_close(struct term *t);

/* Copies the grid onto the screen (only the cells that changed since the last frame) and
 * updates the terminal once. */
void term_draw(struct term *t, const struct screen *s, const struct theme *th);
/* Forgets what is on the screen, so the next term_draw repaints everything. */
void term_invalidate(struct term *t);

/* Waits up to timeout_ms for input (-1: forever). Returns true with an event. */
bool term_read(struct term *t, struct event *ev, int timeout_ms);
/* Whether the input terminal has gone away (hung up, an error, or the end of input): asked
 * after term_read returned no event, since curses reports all of these as a timeout. */
bool term_gone(const struct term *t);
/* The terminal's size. */
void term_size(struct term *t, int *cols, int *rows);

/* Leaves curses mode for a suspend (SIGTSTP) and comes back. */
void term_suspend(struct term *t);
void term_resume(struct term *t);

#endif
