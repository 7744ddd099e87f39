/* plot_labels.h - where the roofline plot's texts go: a board of the plot's cells that
 * knows what each cell holds, and the placing of ceiling, bandwidth, ridge and operation
 * labels on it (never over a mark or another label, never nearer another line than its own). */
#ifndef ROOFTOP_UI_PLOT_LABELS_H
#define ROOFTOP_UI_PLOT_LABELS_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "gpu.h"
#include "ops.h"
#include "plot_axes.h"
#include "plot_info.h"
#include "screen.h"

/*
 * Labels go on a board of the plot's cells: a cell is free, crossed by a line (a label may
 * cover it, at a cost: more for the scenario's roof than for other lines and guides), or
 * taken by a mark or a label (never covered, never touched on either side of a label, so
 * two texts never run together).
 */
enum { OCC_FREE, OCC_LINE, OCC_ROOF, OCC_TAKEN };

struct board {
    struct screen *s;
    struct rect a;
    unsigned char *occ;
    struct plot_info *info;
    bool dry;                  /* trying: labels only take their cells, nothing is drawn */
    /* Just left of where each ceiling starts, on its row: a label ending there would read
     * as the ceiling's name, so other labels keep out. */
    int n_lead;
    struct lead_zone {
        int y, x0, x1;
    } lead[PLOT_MAX_CEILINGS];
    /* The operations' marks: a label keeps mark_gap cells off one on its row, and off the
     * cells next to one on the rows above and below, but for the mark it names (own). */
    int n_ops;
    struct {
        int x, y;
    } op[OPS_MAX];
    int own_x, own_y, mark_gap;
};

static inline bool board_inside(const struct board *b, int x, int y)
{
    return x >= b->a.x && x < b->a.x + b->a.w && y >= b->a.y && y < b->a.y + b->a.h;
}

static inline unsigned char *board_at(const struct board *b, int x, int y)
{
    return &b->occ[(size_t)(y - b->a.y) * (size_t)b->a.w + (size_t)(x - b->a.x)];
}

/* An operation's mark, or a group's: where, in what element, for how many, its letters. */
struct op_mark {
    int x, y, elem, n, first;
    char letters[2 * OPS_MAX];
};

/* Puts a mark (an operation's letter, a group's or a measured point's) that no label covers. */
void labels_mark(struct board *b, int x, int y, uint32_t ch, int elem);
/* Labels the GPU's ceilings (one per distinct peak; the scenario's roof is roof); false when
 * memory ran out. */
bool labels_ceilings(struct board *bd, const struct axes *ax, const struct gpu_spec *g,
                     double roof, enum dtype dt, double bw);
/* A group's letters beside its mark; false when nowhere fits. */
bool labels_group(struct board *bd, const struct op_mark *m);
/* The names of operations alone at their mark, and the bandwidth beside the memory slope
 * (which leaves the roof's row ry): the names first, unless they would leave the bandwidth
 * no room. */
void labels_names_bandwidth(struct board *bd, const struct axes *ax, const struct op_mark *gm,
                            int n, const struct view_op *ops, double bw, int ry);
/* The ridge's value (num FLOP/B) beside its vertical at column rx below row ry, low down
 * near the axis row bottom; false when nowhere fits. */
bool labels_ridge(struct board *bd, int rx, int ry, int bottom, const char *num);

#endif
