/* layout.c - panel rectangles from the terminal size. No drawing here: the same rectangles
 * serve the live terminal, the snapshots and the layout tests. */
#include "layout.h"

#include <string.h>

static const char *const panel_names[P_COUNT] = {
    [P_TITLE] = "title", [P_SLIDERS] = "sliders", [P_MEMORY] = "memory",
    [P_COMPUTE] = "compute", [P_ROOFLINE] = "roofline", [P_OPS] = "ops",
    [P_CAPTION] = "caption", [P_EXPLAIN] = "explain", [P_STATUS] = "status",
};

const char *layout_panel_name(enum panel p)
{
    return (unsigned)p < P_COUNT ? panel_names[p] : "?";
}

static struct rect rect_make(int x, int y, int w, int h)
{
    struct rect r = {x, y, w, h};
    if (w <= 0 || h <= 0)
        r = (struct rect){0, 0, 0, 0};
    return r;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void add_vrule(struct layout *L, int x, int y, int h)
{
    if (L->n_vrules < 4 && h > 0) {
        L->vrule_x[L->n_vrules] = x;
        L->vrule[L->n_vrules] = rect_make(x, y, 1, h);
        L->n_vrules++;
    }
}

/* The compute panel: a header and enough rows for its figures in as many columns as fit. */
static int compute_rows(int w, int min_items)
{
    int per_row = w / LAYOUT_ITEM_WIDTH;
    if (per_row < 1)
        per_row = 1;
    int want = LAYOUT_COMPUTE_FIGURES;
    if (min_items > want)
        want = min_items;
    return 1 + (want + per_row - 1) / per_row;
}

/* Roofline and operations table in the area below memory and compute. */
static void place_bottom(struct layout *L, const struct layout_opts *o, int x, int y, int w, int h)
{
    int ops_h = LAYOUT_OPS_HEAD_ROWS + (o->n_ops > 0 ? o->n_ops : 1);
    const int ops_w = 62, roof_min_w = 40, roof_min_h = 10, ops_min_h = 6;
    if (w >= roof_min_w + 1 + ops_w) {
        int ow = clampi(w / 2, ops_w, 70);
        L->r[P_ROOFLINE] = rect_make(x, y, w - ow - 1, h);
        L->r[P_OPS] = rect_make(x + w - ow, y, ow, h);
        add_vrule(L, x + w - ow - 1, y, h);
    } else if (h >= roof_min_h + ops_min_h) {
        int oh = clampi(h - roof_min_h - 4, ops_min_h, ops_h);
        if (h - oh < roof_min_h)
            oh = h - roof_min_h;
        L->r[P_ROOFLINE] = rect_make(x, y, w, h - oh);
        L->r[P_OPS] = rect_make(x, y + h - oh, w, oh);
    } else {
        L->shared = true;
        if (o->show_ops)
            L->r[P_OPS] = rect_make(x, y, w, h);
        else
            L->r[P_ROOFLINE] = rect_make(x, y, w, h);
    }
}

void layout_compute(int cols, int rows, const struct layout_opts *o, struct layout *L)
{
    memset(L, 0, sizeof *L);
    if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
        L->too_small = true;
        return;
    }
    int bottom = rows;
    L->r[P_TITLE] = rect_make(0, 0, cols, 1);
    L->r[P_STATUS] = rect_make(0, --bottom, cols, 1);
    L->r[P_EXPLAIN] = rect_make(0, --bottom, cols, 1);
    if (o->caption_rows > 0) {
        /* Long captions wrap onto more lines where there is room for them. */
        int ch = clampi(o->caption_rows, 1, rows >= 40 ? 3 : rows >= 30 ? 2 : 1);
        bottom -= ch;
        L->r[P_CAPTION] = rect_make(0, bottom, cols, ch);
    }
    int body_y = 1, body_h = bottom - body_y;

    /* Sliders on the left: name, track and value; wider terminals get a longer track. */
    int sw = clampi(cols / 4, 34, 46);
    L->r[P_SLIDERS] = rect_make(0, body_y, sw, body_h);
    add_vrule(L, sw, body_y, body_h);

    int rx = sw + 1, rw = cols - rx, ry = body_y, rh = body_h;
    const int mem_min_w = 46;
    if (rw >= mem_min_w + 1 + 2 * LAYOUT_ITEM_WIDTH && rh >= 30) {
        /* Memory and compute side by side on top. */
        int cw = clampi(rw - mem_min_w - 1, 2 * LAYOUT_ITEM_WIDTH, 3 * LAYOUT_ITEM_WIDTH);
        int mw = rw - cw - 1;
        int top = compute_rows(cw, 0);
        if (top < LAYOUT_MEMORY_ROWS)
            top = LAYOUT_MEMORY_ROWS;
        L->r[P_MEMORY] = rect_make(rx, ry, mw, top);
        L->r[P_COMPUTE] = rect_make(rx + mw + 1, ry, cw, top);
        add_vrule(L, rx + mw, ry, top);
        place_bottom(L, o, rx, ry + top, rw, rh - top);
    } else {
        /* Stacked: memory, then the figures, then the roofline and the operations. */
        int mh = rh >= 28 ? LAYOUT_MEMORY_ROWS : LAYOUT_MEMORY_MIN_ROWS;
        int ch = compute_rows(rw, 0);
        if (rh - mh - ch < 9)
            ch = clampi(rh - mh - 9, 3, ch);
        L->r[P_MEMORY] = rect_make(rx, ry, rw, mh);
        L->r[P_COMPUTE] = rect_make(rx, ry + mh, rw, ch);
        place_bottom(L, o, rx, ry + mh + ch, rw, rh - mh - ch);
    }
}

void layout_sliders(struct rect r, int focus, int n, struct slider_geom *g)
{
    int visible = clampi(r.h - 1, 0, n);
    int first = 0;
    if (focus < n && focus >= visible)
        first = focus - visible + 1;
    else if (focus >= n)
        first = n - visible;
    g->first = first;
    g->count = visible;
    g->y0 = r.y + 1;
    g->track_x = r.x + 1 + LAYOUT_NAME_W + 1;
    g->track_w = r.w - 1 - LAYOUT_NAME_W - 1 - 1 - LAYOUT_VALUE_W - 1;
    if (g->track_w < 0)
        g->track_w = 0;
}
