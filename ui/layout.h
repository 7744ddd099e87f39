/* layout.h - where each panel goes for a terminal size: a pure function, tested on its own. */
#ifndef ROOFTOP_UI_LAYOUT_H
#define ROOFTOP_UI_LAYOUT_H

#include <stdbool.h>

#include "screen.h"

/* The dashboard does not draw below this size; it says so instead. */
#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24

enum panel {
    P_TITLE,     /* top line */
    P_SLIDERS,
    P_MEMORY,
    P_COMPUTE,   /* FLOPs and time */
    P_ROOFLINE,
    P_OPS,       /* operations table */
    P_CAPTION,   /* lecture demo caption (when a demo runs) */
    P_EXPLAIN,   /* the formula line */
    P_STATUS,    /* bottom line */
    P_COUNT
};

/* Rows of the operations table above its operations: the panel's header and column heads. */
#define LAYOUT_OPS_HEAD_ROWS 2

struct layout_opts {
    int caption_rows;  /* lines the lecture demo's caption wants (0: no demo running) */
    bool show_ops;     /* where roofline and ops share a slot, show the ops table */
    int n_sliders;     /* slider rows wanted (they scroll when fewer fit) */
    int n_ops;         /* operations table rows wanted */
};

struct layout {
    bool too_small;          /* below LAYOUT_MIN_*: nothing but the message is drawn */
    bool shared;             /* roofline and ops take turns in one slot */
    struct rect r[P_COUNT];  /* empty (w = h = 0) when not shown */
    int vrule_x[4];          /* columns of vertical rules between side-by-side panels */
    struct rect vrule[4];    /* and their extent */
    int n_vrules;
};

/* Places every panel for a cols x rows terminal. */
void layout_compute(int cols, int rows, const struct layout_opts *o, struct layout *out);
const char *layout_panel_name(enum panel p);

/* Where the sliders are in their panel r (for mouse hits and for drawing alike): each row
 * is its name (LAYOUT_NAME_W cells), track and value (LAYOUT_VALUE_W); the list scrolls to
 * keep the focused one of the n sliders in view (focus >= n: a panel after them). */
#define LAYOUT_NAME_W 10
#define LAYOUT_VALUE_W 13

struct slider_geom {
    int first;      /* first slider shown */
    int count;      /* sliders shown */
    int y0;         /* row of the first one */
    int track_x;    /* track columns */
    int track_w;
};

void layout_sliders(struct rect r, int focus, int n, struct slider_geom *g);

/* Rows the memory panel needs in full, and at least. */
#define LAYOUT_MEMORY_ROWS 9
#define LAYOUT_MEMORY_MIN_ROWS 8
/* The compute panel's figures (label + value items; frame.c's draw_compute lists them). */
#define LAYOUT_COMPUTE_FIGURES 18
/* Width of one figure item (label + value) of the compute panel. */
#define LAYOUT_ITEM_WIDTH 22

#endif
