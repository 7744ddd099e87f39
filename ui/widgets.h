/* widgets.h - the pieces panels are drawn with: a panel's title row, word-wrapped text, a
 * framed box, a row of segments. They know the grid and the characters, not the dashboard. */
#ifndef ROOFTOP_UI_WIDGETS_H
#define ROOFTOP_UI_WIDGETS_H

#include <stdbool.h>

#include "charset.h"
#include "layout.h"
#include "screen.h"

/* A panel's title row: "─ Title ─── right ─", highlighted when the panel has the focus.
 * right may be NULL; it is dropped when it does not fit. */
void widget_header(struct screen *s, const struct charset *cs, struct rect r, const char *title,
                   const char *right, bool focused);

/*
 * Word-wraps the n texts, one after the other, into lines of r.w - 2 cells starting at
 * column r.x + 1. The first `skip` lines are left out (scrolling); the next r.h are drawn
 * from row r.y when s is not NULL. Returns the lines the whole text takes.
 */
int widget_wrap(struct screen *s, struct rect r, const char *const *texts, int n, int skip,
                int elem);

/* A framed box of w x h cells (shrunk to the grid) with its title in the top rule, its
 * top-left corner at (x, y) moved as little as needed to stay on the grid; returns the
 * inside (the rule and a margin cell off each side), empty when the grid has no room. */
struct rect widget_box(struct screen *s, const struct charset *cs, int x, int y, int w, int h,
                       const char *title);

/* Writes the n segments left to right with sep between them; when they do not all fit in
 * end - x cells, those of lowest priority (highest prio) are left out whole, never cut. */
void widget_segments(struct screen *s, int x, int y, int end, const char *const *seg,
                     const int *elems, const int *prio, int n, const char *sep, int sep_elem);

/* The dashboard's top line in row r: the six segments (rooftop, model, hardware, precision,
 * the headline figure, memory) with rules between them, dropped by prio where they do not
 * fit, and "? help" at the right end; the memory segment red when it does not fit. */
void widget_title_bar(struct screen *s, const struct charset *cs, struct rect r,
                      const char *const seg[6], bool fits);

/* One slider row at row y of r: the name in name_w cells, a track of track_w cells from
 * track_x with the knob at pos (0..1; no track below 3 cells), the value right-aligned in
 * value_w cells; the whole row highlighted when focused. */
void widget_slider_row(struct screen *s, const struct charset *cs, struct rect r, int y,
                       const char *name, int name_w, int track_x, int track_w, double pos,
                       const char *value, int value_w, bool focused);

/* The vertical rules between a layout's panels. */
void widget_vrules(struct screen *s, const struct charset *cs, const struct layout *L);

/* The most parts a stacked bar has (the predicted step's, the memory rows). */
#define WIDGET_BAR_PARTS 16
/* Cells per part of a stacked bar of w cells: part i gets value[i] / scale of the width;
 * every non-zero part at least one cell when there is room; the cells of total (capped at
 * w) filled by largest remainder. n at most WIDGET_BAR_PARTS. */
void widget_bar_split(const double *value, int n, double total, double scale, int w, int *cells);

#endif
