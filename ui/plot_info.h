/* plot_info.h - what the roofline plot placed where: every text label inside the plot and the
 * operations' marks, for the tests (and for the labels' placing, which records into it). */
#ifndef ROOFTOP_UI_PLOT_INFO_H
#define ROOFTOP_UI_PLOT_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "ops.h"
#include "screen.h"

enum plot_label_kind {
    PL_CEILING,    /* "bf16/fp16 989 TFLOP/s" above a ceiling */
    PL_BANDWIDTH,  /* "3.35 TB/s" beside the memory slope */
    PL_RIDGE,      /* "ridge 295 FLOP/B" beside the ridge's vertical */
    PL_OP_NAME,    /* one operation's name beside its letter */
    PL_OP_GROUP,   /* "b,d,e" beside the one mark of operations that fall together */
};

#define PLOT_LABEL_TEXT 48
#define PLOT_MAX_LABELS (OPS_MAX + 16)
#define PLOT_MAX_CEILINGS 8

struct plot_label {
    enum plot_label_kind kind;
    int x, y, w;                 /* one row of cells */
    char text[PLOT_LABEL_TEXT];
};

struct plot_mark {
    int x, y;
    uint32_t ch;
    int n_ops;                   /* operations it stands for (more than one: a group) */
};

struct plot_info {
    bool drawn;                  /* false: the panel was too small for a plot */
    struct rect area;            /* the plot's cells, inside the axes */
    int n_labels;
    struct plot_label labels[PLOT_MAX_LABELS];
    int n_marks;
    struct plot_mark marks[OPS_MAX];
    int ceilings;                /* distinct ceilings of the GPU inside the plotted range */
    int ceilings_labelled;
    struct plot_ceiling {
        double peak;             /* FLOP/s */
        int row;                 /* its flat part's row */
        int label;               /* index into labels, -1 when it has none */
        bool roof;               /* the scenario's */
    } ceiling[PLOT_MAX_CEILINGS];
    bool ridge_shown;            /* the ridge's vertical is inside the plot */
    bool ridge_labelled;
    int ops;                     /* operations with a place on the plot */
    int ops_marked;              /* of those, with a mark (alone, or in a group) */
    int groups, groups_labelled; /* marks of several operations, and those with their letters */
    int points, points_inside;   /* measured points with a place on the plane, and of those
                                    inside the axes */
};

#endif
