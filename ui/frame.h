/* frame.h - the frame as a pure function of the dashboard state and the grid's size. */
#ifndef ROOFTOP_UI_FRAME_H
#define ROOFTOP_UI_FRAME_H

#include "dash.h"
#include "layout.h"
#include "screen.h"

/* Slider rows: name, track, value. */
#define DRAW_NAME_W 10
#define DRAW_VALUE_W 13

/* Where the sliders are on screen (for mouse hits and for drawing alike). */
struct slider_geom {
    int first;      /* first slider shown (the list scrolls to keep the focus visible) */
    int count;      /* sliders shown */
    int y0;         /* row of the first one */
    int track_x;    /* track columns */
    int track_w;
};

void draw_slider_geom(struct rect sliders, int focus, struct slider_geom *g);
/* The layout of the dashboard's state at cols x rows. */
void draw_layout(const struct dash *d, int cols, int rows, struct layout *L);
/* A panel's title row: "─ Title ─── right ─", highlighted when the panel has the focus.
 * right may be NULL; it is dropped when it does not fit. */
void draw_header(struct screen *s, const struct charset *cs, struct rect r, const char *title,
                 const char *right, bool focused);

/* Draws the whole frame into s (s's size is the terminal's). */
void frame_draw(const struct dash *d, struct screen *s);

#endif
