/* theme.h - semantic colour elements, and the colour and monochrome schemes that style them. */
#ifndef ROOFTOP_UI_THEME_H
#define ROOFTOP_UI_THEME_H

#include <stdbool.h>
#include <stdint.h>

/* What a cell shows; the scheme decides how that looks. */
enum elem {
    E_NORMAL,
    E_DIM,          /* secondary text, empty track, free memory */
    E_TITLE,        /* the top bar */
    E_HEADER,       /* panel titles and rules */
    E_LABEL,        /* names in front of values */
    E_VALUE,        /* figures */
    E_FOCUS,        /* the focused slider's row */
    E_TRACK,        /* slider track, filled part */
    E_KNOB,
    E_PARAMS,       /* the memory parts, in the order of enum mem_kind */
    E_GRADS,
    E_OPTIMIZER,
    E_MASTER,
    E_BUFFERS,
    E_ACTIVATIONS,
    E_CAPACITY,     /* the capacity mark on the memory bar */
    E_OVER,         /* over capacity, errors */
    E_OK,           /* fits */
    E_MEMBOUND,     /* memory-bound operations */
    E_COMPBOUND,    /* compute-bound operations */
    E_ROOF,         /* the roofline of the scenario's dtype */
    E_CEILING,      /* other dtypes' ceilings */
    E_RIDGE,
    E_AXIS,
    E_POINT,        /* measured probe points */
    E_STATUS,       /* the status line */
    E_ERROR,        /* an error on the status line */
    E_CAPTION,      /* the lecture demo's caption */
    E_EXPLAIN,      /* the formula line */
    E_OVERLAY,      /* help, pickers, prompts */
    E_INPUT,        /* text being typed */
    E_COUNT
};

/* Attributes a style can carry. */
enum {
    TATTR_BOLD = 1,
    TATTR_REVERSE = 2,
    TATTR_UNDERLINE = 4,
    TATTR_DIM = 8,
};

/* Colours are the 16 ANSI ones (0-7 normal, 8-15 bright), -1 for the terminal's default. */
struct style {
    int fg, bg;
    unsigned attr;
};

struct theme {
    bool color;
    struct style style[E_COUNT];
};

/* The colour scheme, or the monochrome one (attributes only) when color is false. */
void theme_init(struct theme *t, bool color);
/* Whether to use colour: false when NO_COLOR is set (to anything non-empty) or no_color_flag. */
bool theme_want_color(bool no_color_flag);
/* The RGB value (0xRRGGBB) of ANSI colour c (xterm's palette); for the SVG screenshots.
 * c = -1 gives fallback. */
uint32_t theme_rgb(int c, uint32_t fallback);
/* Element name, for tests and debugging ("params", "over", ...). */
const char *theme_elem_name(enum elem e);

#endif
