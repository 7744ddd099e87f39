/* dash_ops.c - the operations table's keys: t shows it, its arrows scroll it. */
#include "dash_ops.h"

#include "roofline.h"

/* The rows of the operations table that show operations (under its header and column heads),
 * and how many operations it may list; 0 rows when the table is not on screen. */
static int ops_rows(const struct dash *d, int *n_ops)
{
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    *n_ops = d->lecture_ops ? LOP_COUNT : d->ev.an.n_ops;
    int rows = L.too_small ? 0 : L.r[P_OPS].h - LAYOUT_OPS_HEAD_ROWS;
    /* Where not all fit, the last row says which are shown (ops_draw). */
    if (*n_ops > rows)
        rows--;
    return rows > 0 ? rows : 0;
}

/* Scrolls the operations table by delta rows (whole pages with page); false when the table
 * is not on screen. */
bool dash_ops_scroll(struct dash *d, int delta, bool page)
{
    int n, rows = ops_rows(d, &n);
    if (rows == 0)
        return false;
    int top = d->ops_top + (page ? delta * rows : delta);
    if (top > n - rows)
        top = n - rows;
    d->ops_top = top > 0 ? top : 0;
    return true;
}

void dash_ops_toggle(struct dash *d)
{
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    if (L.too_small || L.shared) {
        /* One slot: t shows the table with the focus on it (its arrows scroll it), and back. */
        if (d->show_ops && d->focus != FOCUS_OPS) {
            d->focus = FOCUS_OPS;
            return;
        }
        d->show_ops = !d->show_ops;
        if (d->show_ops)
            d->focus = FOCUS_OPS;
        else if (d->focus == FOCUS_OPS)
            d->focus = FOCUS_ROOFLINE;
        return;
    }
    /* Both fit at this size: t takes the focus to the table, where the arrows scroll it. */
    d->focus = FOCUS_OPS;
    dash_status(d, false, "t: roofline and operations are both on screen here; the table has "
                          "the focus (Left/Right, PgUp/PgDn scroll it)");
}

/* Keys of the operations table when it has the focus. */
bool dash_ops_key(struct dash *d, uint32_t k)
{
    switch (k) {
    case UK_LEFT:
    case 'h':
        return dash_ops_scroll(d, -1, false);
    case UK_RIGHT:
    case 'l':
        return dash_ops_scroll(d, 1, false);
    case UK_PGUP:
        return dash_ops_scroll(d, -1, true);
    case UK_PGDN:
        return dash_ops_scroll(d, 1, true);
    case UK_HOME:
        return dash_ops_scroll(d, -1000, false);
    case UK_END:
        return dash_ops_scroll(d, 1000, false);
    default:
        return false;
    }
}
