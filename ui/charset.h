/* charset.h - the characters the dashboard draws with: UTF-8, or plain ASCII. */
#ifndef ROOFTOP_UI_CHARSET_H
#define ROOFTOP_UI_CHARSET_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

struct charset {
    bool utf8;
    uint32_t hline, vline;                 /* rules between panels */
    uint32_t tl, tr, bl, br;               /* overlay box corners */
    uint32_t track, track_fill, knob;      /* sliders */
    uint32_t bar;                          /* a memory part, with colour */
    uint32_t part[MEM_COUNT];              /* each memory part, without colour */
    uint32_t free_mem;                     /* unused capacity on the bar */
    uint32_t cap_mark;                     /* where the capacity ends */
    uint32_t ridge;                        /* the ridge point's vertical mark */
    uint32_t point;                        /* a measured point */
    uint32_t group;                        /* several operations at one place on the roofline */
    uint32_t axis_h, axis_v, axis_origin, tick;
    uint32_t ellipsis;
    uint32_t progress, progress_empty;
    int plot_dx, plot_dy;                  /* plot dots per cell: 2x4 braille, 1x2 ASCII */
    const char *times;                     /* "×" or "x" */
    const char *le;                        /* "≤" or "<=" */
    const char *arrow;                     /* "→" or "->" */
    const char *dot;                       /* "·" or "." */
};

/* Whether the current locale (after setlocale(LC_ALL, "")) encodes UTF-8. */
bool charset_locale_utf8(void);
/* The UTF-8 set, or the ASCII one. */
void charset_init(struct charset *c, bool utf8);
/* The character of a plot cell whose dots are set in bits: bit (dy * 2 + dx) for braille
 * (dx 0..1, dy 0..3), bit dy for ASCII (dy 0..1). 0 bits: a blank. */
uint32_t charset_plot(const struct charset *c, unsigned bits);

#endif
