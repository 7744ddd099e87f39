/* plot.c - the roofline: log-log attainable FLOP/s against arithmetic intensity, in braille
 * dots (2 x 4 per cell) or ASCII (1 x 2), with ceilings per dtype, the ridge, the model's
 * operations and measured points. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "roofline.h"
#include "units.h"

int plot_ops(const struct dash *d, struct view_op *out, int max)
{
    const struct analysis *a = &d->an;
    int n = 0;
    if (d->lecture_ops) {
        for (int i = 0; i < LOP_COUNT && n < max; i++) {
            struct op_cost c;
            lecture_op_cost((enum lecture_op)i, lecture_op_default_n((enum lecture_op)i),
                            d->sc.dtype, &c);
            struct view_op *o = &out[n];
            o->key = (char)('a' + n);
            o->name = lecture_op_name((enum lecture_op)i);
            o->flops = c.flops;
            o->bytes = c.bytes;
            o->intensity = c.intensity;
            o->attainable = roofline_attainable(a->roofline.peak, a->roofline.bandwidth, c.intensity);
            o->seconds = roofline_seconds(c.flops, c.bytes, a->roofline.peak, a->roofline.bandwidth);
            o->compute_bound = c.intensity >= a->roofline.ridge;
            n++;
        }
        return n;
    }
    for (int i = 0; i < a->n_ops && n < max; i++) {
        const struct op *op = &a->ops[i];
        if (!(op->flops > 0) || !(op->bytes > 0))
            continue;
        struct view_op *o = &out[n];
        o->key = (char)('a' + n);
        o->name = op->name;
        o->flops = op->flops;
        o->bytes = op->bytes;
        o->intensity = op->intensity;
        o->attainable = op->attainable;
        o->seconds = op->seconds;
        o->compute_bound = op->compute_bound;
        n++;
    }
    return n;
}

/* The plot's coordinate system: decades on both axes, dots inside the plot area. */
struct axes {
    double xlo, xhi, ylo, yhi;   /* log10 bounds */
    int X, Y;                    /* dots */
    int dx, dy;                  /* dots per cell */
    struct rect area;            /* cells */
};

static double dot_x(const struct axes *ax, double intensity)
{
    return (log10(intensity) - ax->xlo) / (ax->xhi - ax->xlo) * (ax->X - 1);
}

static double dot_y(const struct axes *ax, double flops)
{
    return (ax->Y - 1) - (log10(flops) - ax->ylo) / (ax->yhi - ax->ylo) * (ax->Y - 1);
}

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
        double I = pow(10, ax->xlo + (ax->xhi - ax->xlo) * x / (ax->X - 1));
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

static bool cell_free(const struct screen *s, int x, int y)
{
    const struct cell *c = screen_cell(s, x, y);
    return c && c->ch == ' ';
}

static bool run_free(const struct screen *s, struct rect area, int x, int y, int w)
{
    if (x < area.x || x + w > area.x + area.w || y < area.y || y >= area.y + area.h)
        return false;
    for (int i = 0; i < w; i++)
        if (!cell_free(s, x + i, y))
            return false;
    return true;
}

/* Finds a free cell for a mark near (x, y): the spot itself, then its neighbours. */
static bool place_mark(const struct screen *s, struct rect area, int *x, int *y)
{
    static const int off[][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {2, 0}, {-2, 0},
                                 {1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {3, 0}, {-3, 0}};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        int cx = *x + off[i][0], cy = *y + off[i][1];
        if (cx >= area.x && cx < area.x + area.w && cy >= area.y && cy < area.y + area.h) {
            const struct cell *c = screen_cell(s, cx, cy);
            /* Plot lines may be covered; other marks and labels may not. */
            if (c && (c->ch == ' ' || (c->ch >= 0x2800 && c->ch <= 0x28FF) || c->ch == '.' ||
                      c->ch == ':' || c->ch == '\'' || c->elem == E_RIDGE)) {
                *x = cx;
                *y = cy;
                return true;
            }
        }
    }
    return false;
}

static int peak_elem_dtypes[] = {PEAK_FP32, PEAK_TF32, PEAK_BF16, PEAK_FP16, PEAK_FP8, PEAK_FP4};

void plot_roofline(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    const struct analysis *a = &d->an;
    const struct gpu_spec *g = &d->sc.gpu;
    const struct charset *cs = &d->cs;
    char title[160], right[96];
    if (!d->lecture_ops)
        snprintf(title, sizeof title, "Roofline: %s on %s, FLOP/s", dtype_name(d->sc.dtype),
                 g->name[0] ? g->name : g->id);
    else
        snprintf(title, sizeof title, "Roofline: lecture ops, %s on %s, FLOP/s", dtype_name(d->sc.dtype),
                 g->name[0] ? g->name : g->id);
    snprintf(right, sizeof right, "ridge %.0f FLOP/B", a->roofline.ridge);
    draw_header(s, cs, r, title, right, focused);

    struct view_op ops[PLOT_MAX_OPS];
    int n_ops = plot_ops(d, ops, PLOT_MAX_OPS);

    /* Legend rows at the bottom when there is room for them. */
    int legend = r.h >= 16 ? 2 : r.h >= 13 ? 1 : 0;
    const int ylab = 5;
    struct axes ax;
    ax.area = (struct rect){r.x + ylab + 1, r.y + 1, r.w - ylab - 2, r.h - 1 - 2 - legend};
    if (ax.area.w < 8 || ax.area.h < 3) {
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(too small for the plot)", E_DIM);
        return;
    }
    ax.dx = cs->plot_dx;
    ax.dy = cs->plot_dy;
    ax.X = ax.area.w * ax.dx;
    ax.Y = ax.area.h * ax.dy;

    /* Ranges: every ceiling, the ridge and every operation inside, whole decades. */
    double peak_max = a->roofline.peak, ridge_max = a->roofline.ridge;
    double imin = a->roofline.ridge, imax = a->roofline.ridge, flo = a->roofline.peak;
    for (size_t k = 0; k < sizeof peak_elem_dtypes / sizeof peak_elem_dtypes[0]; k++) {
        int pk = peak_elem_dtypes[k];
        if (g->peak_valid[pk] && g->peak_flops[pk] > 0) {
            if (g->peak_flops[pk] > peak_max)
                peak_max = g->peak_flops[pk];
            double rdg = g->peak_flops[pk] / a->roofline.bandwidth;
            if (rdg > ridge_max)
                ridge_max = rdg;
        }
    }
    for (int i = 0; i < n_ops; i++) {
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
            if (!p->valid || !(p->intensity > 0) || !(p->flops_per_s > 0))
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
    ax.xlo = floor(log10(imin));
    if (ax.xlo > -1)
        ax.xlo = -1;
    ax.xhi = ceil(log10(imax * 3));
    if (ax.xhi - ax.xlo < 4)
        ax.xhi = ax.xlo + 4;
    if (ax.xhi - ax.xlo > 8)
        ax.xlo = ax.xhi - 8;
    ax.yhi = ceil(log10(peak_max * 1.5));
    ax.ylo = floor(log10(flo));
    if (ax.yhi - ax.ylo < 3)
        ax.ylo = ax.yhi - 3;
    if (ax.yhi - ax.ylo > 7)
        ax.ylo = ax.yhi - 7;

    size_t cells = (size_t)ax.area.w * (size_t)ax.area.h;
    struct canvas cv = {&ax, calloc(cells, sizeof(unsigned)), calloc(cells, 1), calloc(cells, 1)};
    if (!cv.bits || !cv.elem || !cv.prio) {
        free(cv.bits);
        free(cv.elem);
        free(cv.prio);
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(out of memory)", E_ERROR);
        return;
    }
    double bw = a->roofline.bandwidth;
    /* Other dtypes' flat ceilings first, then the scenario's roof over them. */
    for (size_t k = 0; k < sizeof peak_elem_dtypes / sizeof peak_elem_dtypes[0]; k++) {
        int pk = peak_elem_dtypes[k];
        if (g->peak_valid[pk] && g->peak_flops[pk] > 0 && pk != (int)dtype_peak(d->sc.dtype) &&
            fabs(g->peak_flops[pk] - a->roofline.peak) > 1e-6 * a->roofline.peak)
            draw_roof(&cv, g->peak_flops[pk], bw, g->peak_flops[pk] > a->roofline.peak, true,
                      E_CEILING, 1, false);
    }
    draw_roof(&cv, a->roofline.peak, bw, true, true, E_ROOF, 3, false);
    /* Measured ceilings, dotted. */
    struct points_ceilings pc;
    memset(&pc, 0, sizeof pc);
    if (d->have_points) {
        points_ceilings(&d->points, &pc);
        /* The measured roof: bandwidth, capped by the measured peak of the scenario's dtype,
         * or the best measured peak when that dtype was not measured. */
        int pk = dtype_peak(d->sc.dtype);
        double mp = pc.peak_valid[pk] ? pc.peak[pk] : 0;
        for (int k = 0; k < PEAK_COUNT && mp <= 0; k++)
            if (pc.peak_valid[k] && pc.peak[k] > mp)
                mp = pc.peak[k];
        if (pc.bandwidth > 0 && mp > 0)
            draw_roof(&cv, mp, pc.bandwidth, true, true, E_POINT, 2, true);
    }
    for (int cy = 0; cy < ax.area.h; cy++)
        for (int cx = 0; cx < ax.area.w; cx++) {
            size_t i = (size_t)cy * (size_t)ax.area.w + (size_t)cx;
            if (cv.bits[i])
                screen_put(s, ax.area.x + cx, ax.area.y + cy, charset_plot(cs, cv.bits[i]), cv.elem[i]);
        }
    free(cv.bits);
    free(cv.elem);
    free(cv.prio);

    /* The ridge: a dotted vertical from the roof's corner down to the axis. */
    int rx = ax.area.x + (int)(dot_x(&ax, a->roofline.ridge) / ax.dx);
    int ry = ax.area.y + (int)lround(dot_y(&ax, a->roofline.peak)) / ax.dy + 1;
    for (int y = ry; y < ax.area.y + ax.area.h; y++)
        if (cell_free(s, rx, y))
            screen_put(s, rx, y, cs->ridge, E_RIDGE);

    /* Axes: ticks at every decade. */
    int axis_y = ax.area.y + ax.area.h;
    int axis_x = ax.area.x - 1;
    for (int y = ax.area.y; y < axis_y; y++)
        screen_put(s, axis_x, y, cs->axis_v, E_AXIS);
    screen_put(s, axis_x, axis_y, cs->axis_origin, E_AXIS);
    for (int x = ax.area.x; x < ax.area.x + ax.area.w; x++)
        screen_put(s, x, axis_y, cs->axis_h, E_AXIS);
    int last_end = axis_x;
    for (double dec = ax.xlo; dec <= ax.xhi + 1e-9; dec += 1) {
        int x = ax.area.x + (int)lround((dec - ax.xlo) / (ax.xhi - ax.xlo) * (ax.X - 1)) / ax.dx;
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
    for (double dec = ax.yhi; dec >= ax.ylo - 1e-9; dec -= 1) {
        int y = ax.area.y + (int)lround((ax.yhi - dec) / (ax.yhi - ax.ylo) * (ax.Y - 1)) / ax.dy;
        if (y <= last_y)
            continue;
        char lab[16];
        decade_label(dec, "F", lab, sizeof lab);
        screen_text_right(s, axis_x, y, ylab, lab, E_AXIS);
        screen_put(s, axis_x, y, cs->tick, E_AXIS);
        last_y = y;
    }

    /* The operations: a letter each, placed on the roof, named where there is room. */
    for (int i = 0; i < n_ops; i++) {
        const struct view_op *o = &ops[i];
        double fx = dot_x(&ax, o->intensity), fy = dot_y(&ax, o->attainable);
        if (!(fx == fx) || !(fy == fy))
            continue;
        if (fx < 0)
            fx = 0;
        if (fx > ax.X - 1)
            fx = ax.X - 1;
        if (fy < 0)
            fy = 0;
        if (fy > ax.Y - 1)
            fy = ax.Y - 1;
        int x = ax.area.x + (int)fx / ax.dx, y = ax.area.y + (int)fy / ax.dy;
        if (y >= ax.area.y + ax.area.h)
            y = ax.area.y + ax.area.h - 1;
        if (!place_mark(s, ax.area, &x, &y))
            continue;
        int el = o->compute_bound ? E_COMPBOUND : E_MEMBOUND;
        screen_put(s, x, y, (uint32_t)o->key, el);
        int w = screen_width(o->name);
        if (run_free(s, ax.area, x + 1, y, w + 1))
            screen_label(s, x + 2, y, w, o->name, el);
        else if (run_free(s, ax.area, x - w - 1, y, w + 1))
            screen_label(s, x - w - 1, y, w, o->name, el);
    }

    /* Labels of the ceilings at their right ends, where free. */
    for (size_t k = 0; k < sizeof peak_elem_dtypes / sizeof peak_elem_dtypes[0]; k++) {
        int pk = peak_elem_dtypes[k];
        if (!g->peak_valid[pk] || !(g->peak_flops[pk] > 0))
            continue;
        if (pk == PEAK_FP16 && g->peak_valid[PEAK_BF16] && g->peak_flops[PEAK_BF16] == g->peak_flops[pk])
            continue;
        char lab[48], rate[32];
        units_flops_rate(g->peak_flops[pk], rate, sizeof rate);
        snprintf(lab, sizeof lab, "%s %s", peak_name((enum peak_kind)pk), rate);
        int w = screen_width(lab);
        int y = ax.area.y + (int)lround(dot_y(&ax, g->peak_flops[pk])) / ax.dy - 1;
        int x = ax.area.x + ax.area.w - w;
        bool mine = pk == (int)dtype_peak(d->sc.dtype);
        for (int dy = 0; dy <= 2; dy += 2)
            if (run_free(s, ax.area, x, y + dy, w)) {
                screen_text(s, x, y + dy, w, lab, mine ? E_ROOF : E_CEILING);
                break;
            }
    }
    {
        /* The bandwidth on the slope, low on the left. */
        char lab[48];
        units_bandwidth(bw, lab, sizeof lab);
        int w = screen_width(lab);
        double I = pow(10, ax.xlo + 0.6);
        int x = ax.area.x + (int)(dot_x(&ax, I) / ax.dx) + 2;
        int y = ax.area.y + (int)lround(dot_y(&ax, bw * I)) / ax.dy;
        for (int t = 0; t < 3; t++, y++)
            if (run_free(s, ax.area, x, y, w)) {
                screen_text(s, x, y, w, lab, E_ROOF);
                break;
            }
    }

    /* Measured points. */
    if (d->have_points)
        for (size_t i = 0; i < d->points.n; i++) {
            const struct probe_point *p = &d->points.points[i];
            if (!p->valid || !(p->intensity > 0) || !(p->flops_per_s > 0))
                continue;
            double fx = dot_x(&ax, p->intensity), fy = dot_y(&ax, p->flops_per_s);
            if (fx < 0 || fy < 0 || fx > ax.X - 1 || fy > ax.Y - 1)
                continue;
            int x = ax.area.x + (int)fx / ax.dx, y = ax.area.y + (int)fy / ax.dy;
            screen_put(s, x, y, cs->point, E_POINT);
        }

    /* Legend. */
    if (legend > 0) {
        int y = r.y + r.h - legend, x = r.x + 1, end = r.x + r.w;
        char measured[160];
        if (d->have_points)
            snprintf(measured, sizeof measured, "measured: %s (%zu)", d->points_from, d->points.n);
        struct {
            uint32_t mark;
            int elem;
            const char *text;
        } items[] = {
            {cs->point, E_POINT, d->have_points ? measured : NULL},
            {charset_plot(cs, 0x0F), E_ROOF, dtype_name(d->sc.dtype)},
            {charset_plot(cs, 0x0F), E_CEILING, "other dtypes"},
            {cs->ridge, E_RIDGE, "ridge"},
            {'a', E_MEMBOUND, "memory-bound"},
            {'a', E_COMPBOUND, "compute-bound"},
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
