/* plot.c - the roofline: log-log attainable FLOP/s against arithmetic intensity, in braille
 * dots (2 x 4 per cell) or ASCII (1 x 2), with ceilings per dtype, the ridge, the model's
 * operations and measured points. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_axes.h"
#include "plot_labels.h"
#include "roofline.h"
#include "theme.h"
#include "units.h"
#include "widgets.h"

/* Dot buffer: bits per cell, and the element of the line that set them. */
struct canvas {
    const struct axes *ax;
    unsigned *bits;
    unsigned char *elem;
    unsigned char *prio;
};

static void set_dot(struct canvas *c, int x, int y, int elem, int prio)
{
    const struct axes *ax = c->ax;
    if (x < 0 || y < 0 || x >= ax->X || y >= ax->Y)
        return;
    int cx = x / ax->dx, cy = y / ax->dy;
    size_t i = (size_t)cy * (size_t)ax->area.w + (size_t)cx;
    c->bits[i] |= 1u << ((y % ax->dy) * ax->dx + (x % ax->dx));
    if (prio >= c->prio[i]) {
        c->prio[i] = (unsigned char)prio;
        c->elem[i] = (unsigned char)elem;
    }
}

/* Draws y = min(peak, bw * I) over [from_I, to_I] (flat part only when slope is false). */
static void draw_roof(struct canvas *c, double peak, double bw, bool slope, bool flat, int elem,
                      int prio, bool dotted)
{
    const struct axes *ax = c->ax;
    int prev = -1;
    for (int x = 0; x < ax->X; x++) {
        double I = axes_intensity(ax, x);
        bool on_slope = bw * I < peak;
        double f = on_slope ? bw * I : peak;
        if ((on_slope && !slope) || (!on_slope && !flat)) {
            prev = -1;
            continue;
        }
        if (dotted && (x & 1))
            continue;
        int y = (int)lround(dot_y(ax, f));
        if (y < 0 || y >= ax->Y) {
            prev = -1;
            continue;
        }
        /* Join steep steps so the slope reads as a line. */
        if (prev >= 0 && !dotted) {
            for (int yy = prev < y ? prev + 1 : y + 1; yy < (prev < y ? y : prev); yy++)
                set_dot(c, x, yy, elem, prio);
        }
        set_dot(c, x, y, elem, prio);
        prev = y;
    }
}

static void decade_label(double dec, const char *unit, char *buf, size_t n)
{
    /* 1e15 -> "1P", 1e-1 -> "0.1": SI prefixes for FLOP/s, plain for intensities. */
    double v = pow(10, dec);
    if (unit[0] == 'F') {
        static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E"};
        int e = (int)lround(dec);
        if (e < 0 || e > 20) {
            snprintf(buf, n, "1e%d", e);
            return;
        }
        snprintf(buf, n, "%d%s", e % 3 == 0 ? 1 : e % 3 == 1 ? 10 : 100, pre[e / 3]);
    } else {
        if (v >= 1000)
            snprintf(buf, n, "%gk", v / 1000);
        else
            snprintf(buf, n, "%g", v);
    }
}

/* The plotted ranges: every ceiling, the ridge, every operation and measured point inside,
 * in whole decades. */
static void plot_ranges(const struct dash *d, const struct view_op *ops, int n_ops, double peak,
                        double bw, struct axes *ax)
{
    struct view_roof vr;
    ops_roof(d, &vr);
    const struct gpu_spec *g = vr.gpu;
    const int *kinds;
    int n_kinds = axes_peak_kinds(&kinds);
    double ridge = peak / bw;
    double peak_max = peak, ridge_max = ridge;
    double imin = ridge, imax = ridge, flo = peak;
    for (int k = 0; k < n_kinds; k++) {
        int pk = kinds[k];
        double p = g->peak_flops[pk];
        if (g->peak_valid[pk] && p > 0 && isfinite(p)) {
            if (p > peak_max)
                peak_max = p;
            if (p / bw > ridge_max)
                ridge_max = p / bw;
        }
    }
    for (int i = 0; i < n_ops; i++) {
        if (!isfinite(ops[i].intensity) || !isfinite(ops[i].attainable))
            continue;
        if (ops[i].intensity > 0 && ops[i].intensity < imin)
            imin = ops[i].intensity;
        if (ops[i].intensity > imax)
            imax = ops[i].intensity;
        if (ops[i].attainable > 0 && ops[i].attainable < flo)
            flo = ops[i].attainable;
    }
    if (d->have_points)
        for (size_t i = 0; i < d->points.n; i++) {
            const struct probe_point *p = &d->points.points[i];
            if (!p->valid || !(p->intensity > 0) || !(p->flops_per_s > 0) ||
                !isfinite(p->intensity) || !isfinite(p->flops_per_s))
                continue;
            if (p->intensity < imin)
                imin = p->intensity;
            if (p->intensity > imax)
                imax = p->intensity;
            if (p->flops_per_s < flo)
                flo = p->flops_per_s;
            if (p->flops_per_s > peak_max)
                peak_max = p->flops_per_s;
        }
    if (ridge_max > imax)
        imax = ridge_max;
    ax->xlo = floor(log10(imin));
    if (ax->xlo > -1)
        ax->xlo = -1;
    ax->xhi = ceil(log10(imax * 3));
    if (ax->xhi - ax->xlo < 4)
        ax->xhi = ax->xlo + 4;
    if (ax->xhi - ax->xlo > 8)
        ax->xlo = ax->xhi - 8;
    /* Every decade the same whole number of rows apart (k), so the rows of 1P, 100T, 10T...
     * are evenly spaced and each label sits on the row its value is plotted on. k is the
     * largest that holds every ceiling, operation and measured point (the lowest a fifth of
     * a decade above the bottom; three decades at least), with room above the top ceiling
     * for its label: 3 x, and at one or two rows a decade a whole row. The top need not be
     * a whole decade; the range reaches below the lowest point to fill the plot. Where one
     * row a decade cannot hold them (a plot of a few rows), two or three decades share a
     * row (the axis labels every second or third); past that the lowest drop off. */
    const double head3 = log10(3.0), top = log10(peak_max);
    double lowest = fmin(log10(flo) - 0.2, top + head3 - 3);
    double k = 0;
    for (int t = ax->area.h; t >= -3 && k == 0 && isfinite(lowest); t--) {
        if (t == 0 || t == -1)
            continue;
        double rows = t > 0 ? t : -1.0 / t; /* rows a decade: t, or 1/2, 1/3 */
        double head = fmax(head3, 1.0 / rows);
        if (t < 0)
            head = head3;
        if ((ax->Y - 1) / (rows * ax->dy) >= top + head - lowest || t == -3)
            k = rows;
    }
    if (!(k > 0))
        k = 1;
    double range = (ax->Y - 1) / (k * ax->dy);
    ax->yhi = top + (k >= 1 ? fmax(head3, 1.0 / k) : head3);
    /* Decades sharing rows: the room left over goes half above the top ceiling (its
     * labels), half below the lowest point. */
    if (k < 1 && range > ax->yhi - lowest)
        ax->yhi += (range - (ax->yhi - lowest)) / 2;
    ax->ylo = ax->yhi - range;
    axes_fill_intensity(ax);
}

/* The lines: other dtypes' flat ceilings first, then the scenario's roof over them, and the
 * measured roof dotted. */
static void draw_lines(const struct dash *d, struct canvas *cv, double peak, double bw)
{
    struct view_roof vr;
    ops_roof(d, &vr);
    const struct gpu_spec *g = vr.gpu;
    const int *kinds;
    int n_kinds = axes_peak_kinds(&kinds);
    for (int k = 0; k < n_kinds; k++) {
        int pk = kinds[k];
        if (g->peak_valid[pk] && g->peak_flops[pk] > 0 && pk != (int)dtype_peak(vr.dtype) &&
            fabs(g->peak_flops[pk] - peak) > 1e-6 * peak)
            draw_roof(cv, g->peak_flops[pk], bw, g->peak_flops[pk] > peak, true, E_CEILING, 1,
                      false);
    }
    draw_roof(cv, peak, bw, true, true, E_ROOF, 3, false);
    /* Measured ceilings, dotted. */
    struct points_ceilings pc;
    memset(&pc, 0, sizeof pc);
    if (d->have_points) {
        points_ceilings(&d->points, &pc);
        /* The measured roof: bandwidth, capped by the measured peak of the scenario's dtype,
         * or the best measured peak when that dtype was not measured. */
        int pk = dtype_peak(vr.dtype);
        double mp = pc.peak_valid[pk] ? pc.peak[pk] : 0;
        for (int k = 0; k < PEAK_COUNT && mp <= 0; k++)
            if (pc.peak_valid[k] && pc.peak[k] > mp)
                mp = pc.peak[k];
        if (pc.bandwidth > 0 && isfinite(pc.bandwidth) && mp > 0 && isfinite(mp))
            draw_roof(cv, mp, pc.bandwidth, true, true, E_POINT, 2, true);
    }
}

/* The axes, with a tick and a label at every decade. */
static void draw_axes(struct screen *s, const struct charset *cs, const struct axes *ax,
                      struct rect r, int ylab)
{
    int axis_y = ax->area.y + ax->area.h;
    int axis_x = ax->area.x - 1;
    for (int y = ax->area.y; y < axis_y; y++)
        screen_put(s, axis_x, y, cs->axis_v, E_AXIS);
    screen_put(s, axis_x, axis_y, cs->axis_origin, E_AXIS);
    for (int x = ax->area.x; x < ax->area.x + ax->area.w; x++)
        screen_put(s, x, axis_y, cs->axis_h, E_AXIS);
    int last_end = axis_x;
    for (double dec = ax->xlo; dec <= ax->xhi + 1e-9; dec += 1) {
        int x = ax->area.x + (int)lround((dec - ax->xlo) / (ax->xhi - ax->xlo) * (ax->X - 1)) / ax->dx;
        screen_put(s, x, axis_y, cs->tick, E_AXIS);
        char lab[16];
        decade_label(dec, "I", lab, sizeof lab);
        int w = screen_width(lab), lx = x - w / 2;
        if (lx + w > r.x + r.w)
            lx = r.x + r.w - w;
        if (lx < axis_x)
            lx = axis_x;
        if (lx > last_end || (lx == axis_x && last_end == axis_x))
            last_end = lx + screen_text(s, lx, axis_y + 1, w, lab, E_AXIS);
    }
    const char *xunit = "FLOP/B";
    int uw = screen_width(xunit);
    if (r.x + r.w - uw > last_end + 1)
        screen_text(s, r.x + r.w - uw, axis_y + 1, uw, xunit, E_DIM);
    int last_y = -2;
    for (double dec = floor(ax->yhi + 1e-9); dec >= ax->ylo - 1e-9; dec -= 1) {
        int y = ax->area.y + (int)lround((ax->yhi - dec) / (ax->yhi - ax->ylo) * (ax->Y - 1)) / ax->dy;
        if (y <= last_y)
            continue;
        char lab[16];
        decade_label(dec, "F", lab, sizeof lab);
        screen_text_right(s, axis_x, y, ylab, lab, E_AXIS);
        screen_put(s, axis_x, y, cs->tick, E_AXIS);
        last_y = y;
    }

}

/* Measured points: their own mark, never covered by a label. */
static void place_points(const struct dash *d, struct board *bd, const struct axes *ax,
                         struct plot_info *info)
{
    if (!d->have_points)
        return;
    for (size_t i = 0; i < d->points.n; i++) {
        const struct probe_point *p = &d->points.points[i];
        int x, y;
        bool plotted = p->valid && p->intensity > 0 && p->flops_per_s > 0;
        if (info && plotted)
            info->points++;
        if (plotted && to_cell(ax, p->intensity, p->flops_per_s, false, &x, &y)) {
            labels_mark(bd, x, y, d->cs.point, E_POINT);
            if (info)
                info->points_inside++;
        }
    }
}

/* Where each operation falls (placed: on the plot, at cx, cy) and its group (grp: the first
 * operation of the group): operations that fall on the same or nearly the same cells (chains
 * of marks less than three columns or two rows apart) form one. */
struct op_cells {
    int cx[OPS_MAX], cy[OPS_MAX], grp[OPS_MAX];
    bool placed[OPS_MAX];
};

static void group_ops(const struct axes *ax, const struct view_op *ops, int n_ops,
                      struct op_cells *c, struct plot_info *info)
{
    for (int i = 0; i < n_ops; i++) {
        c->placed[i] = to_cell(ax, ops[i].intensity, ops[i].attainable, true, &c->cx[i],
                               &c->cy[i]);
        c->grp[i] = i;
        if (c->placed[i] && info)
            info->ops++;
    }
    for (int i = 0; i < n_ops; i++)
        for (int j = i + 1; j < n_ops; j++)
            if (c->placed[i] && c->placed[j] && abs(c->cx[i] - c->cx[j]) <= 2 &&
                abs(c->cy[i] - c->cy[j]) <= 1) {
                int gi = c->grp[i], gj = c->grp[j];
                for (int k = 0; k < n_ops; k++)
                    if (c->grp[k] == gj)
                        c->grp[k] = gi;
            }
}

/* Group g's letters into m (as "a,b,c"), its count and element (E_VALUE when it mixes
 * bounds); returns the sum of its operations' log10 intensities. */
static double group_letters(const struct view_op *ops, int n_ops, const struct op_cells *c,
                            int g, struct op_mark *m)
{
    double sum = 0;
    size_t len = 0;
    m->n = 0;
    m->elem = -1;
    m->letters[0] = '\0';
    for (int j = 0; j < n_ops; j++) {
        if (!c->placed[j] || c->grp[j] != g)
            continue;
        sum += log10(ops[j].intensity);
        m->n++;
        int e = ops[j].compute_bound ? E_COMPBOUND : E_MEMBOUND;
        m->elem = m->elem < 0 || m->elem == e ? e : E_VALUE;
        if (len + 3 < sizeof m->letters) {
            if (len)
                m->letters[len++] = ',';
            m->letters[len++] = ops[j].key;
            m->letters[len] = '\0';
        }
    }
    return sum;
}

/* Marks are apart from each other; should the cell (*x, *y) still be taken, the next free
 * one. False when none near is. */
static bool free_cell(struct screen *s, const struct charset *cs, const struct board *bd, int *x,
                      int *y)
{
    static const int off[][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, 1}};
    for (size_t k = 0; k < sizeof off / sizeof off[0]; k++)
        if (board_inside(bd, *x + off[k][0], *y + off[k][1]) &&
            (*board_at(bd, *x + off[k][0], *y + off[k][1]) != OCC_TAKEN ||
             screen_cell(s, *x + off[k][0], *y + off[k][1])->ch == cs->point)) {
            *x += off[k][0];
            *y += off[k][1];
            return true;
        }
    return false;
}

/* Measured points and the operations' marks on the board; returns the marks in gm. */
static int place_marks(const struct dash *d, struct screen *s, struct board *bd,
                       const struct axes *ax, const struct view_op *ops, int n_ops, double peak,
                       double bw, struct op_mark *gm, struct plot_info *info)
{
    const struct charset *cs = &d->cs;
    place_points(d, bd, ax, info);

    /* The operations: a letter each at its place on the roof; a group is shown by one mark,
     * its letters listed beside it. */
    struct op_cells c;
    group_ops(ax, ops, n_ops, &c, info);
    int n_gm = 0;
    for (int i = 0; i < n_ops; i++) {
        if (!c.placed[i] || c.grp[i] != i)
            continue;
        struct op_mark *m = &gm[n_gm];
        double sum = group_letters(ops, n_ops, &c, i, m);
        int n = m->n;
        int x = c.cx[i], y = c.cy[i];
        if (n > 1) {
            /* On the roof at the group's mean intensity. */
            double I = pow(10, sum / n);
            if (!to_cell(ax, I, roofline_attainable(peak, bw, I), true, &x, &y)) {
                x = c.cx[i];
                y = c.cy[i];
            }
        }
        if (!free_cell(s, cs, bd, &x, &y))
            continue;
        uint32_t ch = n > 1 ? cs->group : (uint32_t)ops[i].key;
        labels_mark(bd, x, y, ch, m->elem);
        bd->op[bd->n_ops].x = x;
        bd->op[bd->n_ops++].y = y;
        m->x = x;
        m->y = y;
        m->first = i;
        n_gm++;
        if (info) {
            info->ops_marked += n;
            if (n > 1)
                info->groups++;
            if (info->n_marks < OPS_MAX)
                info->marks[info->n_marks++] = (struct plot_mark){x, y, ch, n};
        }
    }

    return n_gm;
}

/* The legend, in the panel's last `legend` rows. */
static void draw_legend(const struct dash *d, struct screen *s, struct rect r, int legend,
                        const struct op_mark *gm, int n_gm)
{
    const struct charset *cs = &d->cs;
    struct view_roof vr;
    ops_roof(d, &vr);
    if (legend > 0) {
        int y = r.y + r.h - legend, x = r.x + 1, end = r.x + r.w;
        char measured[160];
        if (d->have_points)
            snprintf(measured, sizeof measured, "measured: %s (%zu)", d->points_from, d->points.n);
        bool any_group = false;
        for (int k = 0; k < n_gm; k++)
            any_group = any_group || gm[k].n > 1;
        struct {
            uint32_t mark;
            int elem;
            const char *text;
        } items[] = {
            {cs->point, E_POINT, d->have_points ? measured : NULL},
            {charset_plot(cs, 0x0F), E_ROOF, dtype_name(vr.dtype)},
            {charset_plot(cs, 0x0F), E_CEILING, "other dtypes"},
            {cs->ridge, E_RIDGE, "ridge"},
            {'a', E_MEMBOUND, "memory-bound"},
            {'a', E_COMPBOUND, "compute-bound"},
            {cs->group, E_VALUE, any_group ? "ops together" : NULL},
        };
        for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
            if (!items[i].text)
                continue;
            int w = 2 + screen_width(items[i].text);
            if (x + w > end) {
                if (y + 1 >= r.y + r.h)
                    break;
                y++;
                x = r.x + 1;
            }
            screen_put(s, x, y, items[i].mark, items[i].elem);
            screen_label(s, x + 2, y, w - 2, items[i].text, E_DIM);
            x += w + 2;
        }
    }
}

/* The letters' legend ("a relu  b gelu ..."), each letter in its bound's colour, in `rows`
 * rows of w cells from (x, y); s NULL only counts. Returns the rows it takes (more than rows
 * when it does not fit). */
static int letter_legend(struct screen *s, const struct view_op *ops, int n, int x, int y,
                         int w, int rows)
{
    int row = 0, cx = 0;
    for (int k = 0; k < n; k++) {
        char item[64];
        snprintf(item, sizeof item, "%c %s", ops[k].key, ops[k].name ? ops[k].name : "?");
        int iw = screen_width(item);
        if (cx > 0 && cx + iw > w) {
            row++;
            cx = 0;
        }
        if (s != NULL && row < rows) {
            screen_put(s, x + cx, y + row, (uint32_t)ops[k].key,
                       ops[k].compute_bound ? E_COMPBOUND : E_MEMBOUND);
            screen_label(s, x + cx + 2, y + row, w - cx - 2, item + 2, E_DIM);
        }
        cx += iw + 2;
    }
    return n > 0 ? row + 1 : 0;
}

/* Whether the operations table is on screen beside the plot (its letters' key). */
static bool ops_table_shown(const struct dash *d, const struct screen *s)
{
    if (d->inf.on)
        return true;
    struct layout L;
    dash_layout(d, s->cols, s->rows, &L);
    return !rect_empty(L.r[P_OPS]);
}

/* The ridge: a dotted vertical from under the roof's corner to the axis. Sets the roof's row
 * *ry and the ridge's column *rx (-1 when the ridge is outside the plot). */
static void draw_ridge(struct screen *s, const struct charset *cs, struct board *bd,
                       const struct axes *ax, double peak, double ridge, int *rx, int *ry,
                       struct plot_info *info)
{
    const int bottom = ax->area.y + ax->area.h - 1;
    int x = -1, y0 = ax->area.y;
    if (to_cell(ax, ridge, peak, false, &x, &y0)) {
        for (int y = y0 + 1; y <= bottom; y++)
            if (*board_at(bd, x, y) == OCC_FREE) {
                screen_put(s, x, y, cs->ridge, E_RIDGE);
                *board_at(bd, x, y) = OCC_LINE;
            }
        if (info)
            info->ridge_shown = y0 < bottom;
    } else {
        int unused;
        x = -1;
        if (!to_cell(ax, ridge, peak, true, &unused, &y0))
            y0 = ax->area.y;
    }
    *rx = x;
    *ry = y0;
}

void plot_roofline(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    plot_draw(d, s, r, focused, NULL);
}

/* The panel's title (the dtype and the GPU, shorter when narrow) and the ridge at its right,
 * whose number is left in num. */
static void plot_header(const struct dash *d, struct screen *s, struct rect r, bool focused,
                        const struct view_roof *vr, char *num, size_t num_n)
{
    const struct gpu_spec *g = vr->gpu;
    char title[160], right[96];
    const char *what = !d->lecture_ops || d->inf.on ? "" : "lecture ops, ";
    snprintf(title, sizeof title, "Roofline: %s%s on %s, FLOP/s", what, dtype_name(vr->dtype),
             g->name[0] ? g->name : g->id);
    /* Narrow: the GPU by its id, then without the unit, rather than cut. */
    if (screen_width(title) + 4 > r.w)
        snprintf(title, sizeof title, "Roofline: %s%s on %s, FLOP/s", what, dtype_name(vr->dtype),
                 g->id[0] ? g->id : g->name);
    if (screen_width(title) + 4 > r.w)
        snprintf(title, sizeof title, "Roofline: %s%s on %s", what, dtype_name(vr->dtype),
                 g->id[0] ? g->id : g->name);
    const char *label = "ridge";
    if (!ops_ridge(d, num, num_n, &label))
        units_plain(vr->ridge, num, num_n);
    snprintf(right, sizeof right, "%s %s FLOP/B", label, num);
    widget_header(s, &d->cs, r, title, right, focused);
}

/* The rows under the plot (the letters' names: *lrows; the legend: *legend) and the plot's
 * area in ax; false, saying so, when the panel is too small for a plot. */
static bool plot_area(const struct dash *d, struct screen *s, struct rect r,
                      const struct view_op *ops, int n_ops, int ylab, struct axes *ax,
                      int *lrows, int *legend)
{
    const struct charset *cs = &d->cs;
    /* Legend rows at the bottom when there is room for them; without the operations table
     * on screen, the letters' names first (issue 18: no key to them at 80x24). */
    *lrows = ops_table_shown(d, s) ? 0 : letter_legend(NULL, ops, n_ops, 0, 0, r.w - 2, 0);
    if (r.h - *lrows < 9)
        *lrows = 0;
    *legend = r.h - *lrows >= 16 ? 2 : r.h - *lrows >= 13 ? 1 : 0;
    ax->area = (struct rect){r.x + ylab + 1, r.y + 1, r.w - ylab - 2,
                             r.h - 1 - 2 - *legend - *lrows};
    if (ax->area.w < 8 || ax->area.h < 3) {
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(too small for the plot)", E_DIM);
        return false;
    }
    ax->dx = cs->plot_dx;
    ax->dy = cs->plot_dy;
    ax->X = ax->area.w * ax->dx;
    ax->Y = ax->area.h * ax->dy;
    return true;
}

/* The canvas's dots onto the screen, their cells taken on the board (the roof's as roof). */
static void draw_canvas(struct screen *s, const struct charset *cs, const struct canvas *cv,
                        struct board *bd)
{
    const struct axes *ax = cv->ax;
    for (int cy = 0; cy < ax->area.h; cy++)
        for (int cx = 0; cx < ax->area.w; cx++) {
            size_t i = (size_t)cy * (size_t)ax->area.w + (size_t)cx;
            if (cv->bits[i]) {
                screen_put(s, ax->area.x + cx, ax->area.y + cy, charset_plot(cs, cv->bits[i]),
                           cv->elem[i]);
                bd->occ[i] = cv->elem[i] == E_ROOF ? OCC_ROOF : OCC_LINE;
            }
        }
}

/* The labels, after the marks: the ceilings, each group's letters beside its mark, the
 * operations' names and the bandwidth, the ridge (num: its intensity; rx, ry: its column and
 * the roof's row). */
static void plot_labels(struct screen *s, struct rect r, struct board *bd, const struct axes *ax,
                        const struct view_roof *vr, const struct view_op *ops,
                        const struct op_mark *gm, int n_gm, int rx, int ry, const char *num,
                        struct plot_info *info)
{
    const int bottom = ax->area.y + ax->area.h - 1;
    if (!labels_ceilings(bd, ax, vr->gpu, vr->peak, vr->dtype, vr->bandwidth))
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(out of memory)", E_ERROR);
    for (int k = 0; k < n_gm; k++)
        if (gm[k].n > 1 && labels_group(bd, &gm[k]) && info)
            info->groups_labelled++;
    labels_names_bandwidth(bd, ax, gm, n_gm, ops, vr->bandwidth, ry);
    if (rx >= 0 && ry < bottom && labels_ridge(bd, rx, ry, bottom, num) && info)
        info->ridge_labelled = true;
}

void plot_draw(const struct dash *d, struct screen *s, struct rect r, bool focused,
               struct plot_info *info)
{
    struct view_roof vr;
    ops_roof(d, &vr);
    const struct charset *cs = &d->cs;
    char num[32];
    if (info)
        memset(info, 0, sizeof *info);
    plot_header(d, s, r, focused, &vr, num, sizeof num);

    double peak = vr.peak, bw = vr.bandwidth;
    if (!(peak > 0) || !(bw > 0) || !isfinite(peak) || !isfinite(bw)) {
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(no peak or bandwidth for this GPU)", E_DIM);
        return;
    }
    double ridge = peak / bw;

    struct view_op ops[OPS_MAX];
    int n_ops = ops_list(d, ops, OPS_MAX);
    const int ylab = 5;
    struct axes ax;
    int lrows, legend;
    if (!plot_area(d, s, r, ops, n_ops, ylab, &ax, &lrows, &legend))
        return;
    plot_ranges(d, ops, n_ops, peak, bw, &ax);

    size_t cells = (size_t)ax.area.w * (size_t)ax.area.h;
    struct canvas cv = {&ax, calloc(cells, sizeof(unsigned)), calloc(cells, 1), calloc(cells, 1)};
    struct board bd = {s, ax.area, calloc(cells, 1), info, false, 0, {{0, 0, 0}}, 0, {{0, 0}}, -1, -1, 2};
    if (!cv.bits || !cv.elem || !cv.prio || !bd.occ) {
        free(cv.bits);
        free(cv.elem);
        free(cv.prio);
        free(bd.occ);
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(out of memory)", E_ERROR);
        return;
    }
    if (info) {
        info->drawn = true;
        info->area = ax.area;
    }
    draw_lines(d, &cv, peak, bw);
    draw_canvas(s, cs, &cv, &bd);
    free(cv.bits);
    free(cv.elem);
    free(cv.prio);

    int rx, ry;
    draw_ridge(s, cs, &bd, &ax, peak, ridge, &rx, &ry, info);
    draw_axes(s, cs, &ax, r, ylab);
    struct op_mark gm[OPS_MAX];
    int n_gm = place_marks(d, s, &bd, &ax, ops, n_ops, peak, bw, gm, info);
    plot_labels(s, r, &bd, &ax, &vr, ops, gm, n_gm, rx, ry, num, info);
    free(bd.occ);

    if (lrows > 0)
        letter_legend(s, ops, n_ops, r.x + 1, r.y + r.h - legend - lrows, r.w - 2, lrows);
    if (legend > 0)
        draw_legend(d, s, r, legend, gm, n_gm);
}
