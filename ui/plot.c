/* plot.c - the roofline: log-log attainable FLOP/s against arithmetic intensity, in braille
 * dots (2 x 4 per cell) or ASCII (1 x 2), with ceilings per dtype, the ridge, the model's
 * operations and measured points. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
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
    } op[PLOT_MAX_OPS];
    int own_x, own_y, mark_gap;
};

static bool board_inside(const struct board *b, int x, int y)
{
    return x >= b->a.x && x < b->a.x + b->a.w && y >= b->a.y && y < b->a.y + b->a.h;
}

static unsigned char *board_at(const struct board *b, int x, int y)
{
    return &b->occ[(size_t)(y - b->a.y) * (size_t)b->a.w + (size_t)(x - b->a.x)];
}

/* What a label of w cells at (x, y) costs: -1 where it cannot go, else the line it covers. */
static int span_cost(const struct board *b, int x, int y, int w)
{
    if (w <= 0 || y < b->a.y || y >= b->a.y + b->a.h || x < b->a.x || x + w > b->a.x + b->a.w)
        return -1;
    for (int i = 0; i < b->n_lead; i++)
        if (b->lead[i].y == y && x + w - 1 >= b->lead[i].x0 && x + w - 1 <= b->lead[i].x1)
            return -1;
    for (int k = 0; k < b->n_ops; k++) {
        int mx = b->op[k].x, my = b->op[k].y;
        int gap = mx < x ? x - mx : mx >= x + w ? mx - (x + w - 1) : 0;
        if ((mx != b->own_x || my != b->own_y) &&
            ((my == y && gap <= b->mark_gap) || (abs(my - y) == 1 && gap <= 1)))
            return -1;
    }
    int cost = 0;
    for (int i = -1; i <= w; i++) {
        if (!board_inside(b, x + i, y))
            continue;
        unsigned char o = *board_at(b, x + i, y);
        if (o == OCC_TAKEN)
            return -1;
        if (i >= 0 && i < w)
            cost += o == OCC_ROOF ? 24 : o == OCC_LINE ? 6 : 0;
    }
    return cost;
}

/* The cheapest place found so far for a label (cost -1: none yet). */
struct spot {
    int x, y, form, cost;
};

static void spot_try(const struct board *b, struct spot *best, int x, int y, int w, int form,
                     int penalty)
{
    if (best->cost >= 0 && penalty >= best->cost)
        return;
    int c = span_cost(b, x, y, w);
    if (c < 0)
        return;
    c += penalty;
    if (best->cost < 0 || c < best->cost)
        *best = (struct spot){x, y, form, c};
}

static void board_label(struct board *b, int x, int y, const char *text, int elem,
                        enum plot_label_kind kind)
{
    int w = screen_width(text);
    for (int i = 0; i < w; i++)
        *board_at(b, x + i, y) = OCC_TAKEN;
    if (b->dry)
        return;
    screen_text(b->s, x, y, w, text, elem);
    struct plot_info *in = b->info;
    if (in && in->n_labels < PLOT_MAX_LABELS) {
        struct plot_label *l = &in->labels[in->n_labels++];
        l->kind = kind;
        l->x = x;
        l->y = y;
        l->w = w;
        snprintf(l->text, sizeof l->text, "%s", text);
    }
}

static void board_mark(struct board *b, int x, int y, uint32_t ch, int elem)
{
    screen_put(b->s, x, y, ch, elem);
    *board_at(b, x, y) = OCC_TAKEN;
}

/* Places a label beside a mark at (x, y), nearest first; false when nowhere fits. */
static bool label_beside(struct board *b, int x, int y, const char *text, int elem,
                         enum plot_label_kind kind, bool far)
{
    /* align 0: the label starts at x + dx; 1: it ends there; 2: it is centred on x. */
    static const struct {
        signed char dx, dy, align;
    } near[] = {{2, 0, 0},  {-2, 0, 1}, {1, -1, 0}, {-1, -1, 1}, {1, 1, 0},  {-1, 1, 1},
                {0, -1, 2}, {0, 1, 2},  {2, -1, 0}, {-2, -1, 1}, {2, 1, 0},  {-2, 1, 1},
                {1, -2, 0}, {-1, -2, 1}, {1, 2, 0}, {-1, 2, 1},  {0, -2, 2}, {0, 2, 2},
                {3, 0, 0},  {-3, 0, 1}, {1, -3, 0}, {-1, -3, 1}, {1, 3, 0},  {-1, 3, 1}};
    int w = screen_width(text);
    int n = far ? (int)(sizeof near / sizeof near[0]) : 12;
    struct spot best = {0, 0, 0, -1};
    /* A name keeps well off the other marks' rows: beside one it would read as its name. */
    b->own_x = x;
    b->own_y = y;
    b->mark_gap = 6;
    for (int i = 0; i < n; i++) {
        int lx = near[i].align == 0 ? x + near[i].dx
                 : near[i].align == 1 ? x + near[i].dx - w + 1
                                      : x - (w - 1) / 2;
        int ly = y + near[i].dy;
        int dy = abs(near[i].dy);
        spot_try(b, &best, lx, ly, w, 0, i + (dy < 2 ? 0 : dy == 2 ? 40 : 90));
    }
    b->own_x = b->own_y = -1;
    b->mark_gap = 2;
    if (best.cost < 0)
        return false;
    board_label(b, best.x, best.y, text, elem, kind);
    return true;
}

/* A plot cell's column and row for a point of the plane; false when it is not a number. */
static bool to_cell(const struct axes *ax, double intensity, double flops, bool clamp, int *cx,
                    int *cy)
{
    if (!(intensity > 0) || !(flops > 0) || !isfinite(intensity) || !isfinite(flops))
        return false;
    double fx = round(dot_x(ax, intensity)), fy = round(dot_y(ax, flops));
    if (!isfinite(fx) || !isfinite(fy))
        return false;
    if (!clamp && (fx < 0 || fy < 0 || fx > ax->X - 1 || fy > ax->Y - 1))
        return false;
    fx = fx < 0 ? 0 : fx > ax->X - 1 ? ax->X - 1 : fx;
    fy = fy < 0 ? 0 : fy > ax->Y - 1 ? ax->Y - 1 : fy;
    *cx = ax->area.x + (int)fx / ax->dx;
    *cy = ax->area.y + (int)fy / ax->dy;
    return true;
}

/* The column of intensity I, held to one cell either side of the plot (where it may fall). */
static int col_of(const struct axes *ax, double intensity)
{
    double fx = intensity > 0 ? dot_x(ax, intensity) : -1e9;
    if (!(fx == fx) || fx < -ax->dx)
        fx = -ax->dx;
    if (fx > ax->X + ax->dx)
        fx = ax->X + ax->dx;
    return ax->area.x + (int)floor(fx / ax->dx);
}

/* "989 TFLOP/s" -> "989T": the rate without its unit, for tight spots. */
static void rate_short(const char *rate, char *out, size_t n)
{
    const char *u = strstr(rate, "FLOP/s");
    size_t len = u ? (size_t)(u - rate) : strlen(rate);
    size_t j = 0;
    for (size_t i = 0; i < len && j + 1 < n; i++)
        if (rate[i] != ' ')
            out[j++] = rate[i];
    out[j] = '\0';
}

static int peak_elem_dtypes[] = {PEAK_FP32, PEAK_TF32, PEAK_BF16, PEAK_FP16, PEAK_FP8, PEAK_FP4};

/* The GPU's ceilings, one per distinct rate: formats of equal peak share one ("bf16/fp16"). */
struct ceiling {
    double peak;
    char names[40];
    bool mine;             /* the scenario's roof */
};

static int ceilings_of(const struct gpu_spec *g, double roof, enum dtype dt, struct ceiling *out,
                       int max)
{
    int n = 0;
    for (size_t k = 0; k < sizeof peak_elem_dtypes / sizeof peak_elem_dtypes[0]; k++) {
        int pk = peak_elem_dtypes[k];
        double p = g->peak_flops[pk];
        if (!g->peak_valid[pk] || !(p > 0) || !isfinite(p))
            continue;
        int j = 0;
        while (j < n && fabs(out[j].peak - p) > 1e-6 * p)
            j++;
        if (j < n) {
            size_t len = strlen(out[j].names);
            snprintf(out[j].names + len, sizeof out[j].names - len, "/%s",
                     peak_name((enum peak_kind)pk));
            continue;
        }
        if (n == max)
            break;
        out[n].peak = p;
        snprintf(out[n].names, sizeof out[n].names, "%s", peak_name((enum peak_kind)pk));
        out[n].mine = false;
        n++;
    }
    int mine = -1;
    for (int j = 0; j < n; j++)
        if (fabs(out[j].peak - roof) <= 1e-6 * roof)
            mine = j;
    /* A roof none of the datasheet's columns gives (a GPU file without that column). */
    if (mine < 0 && n < max) {
        out[n].peak = roof;
        snprintf(out[n].names, sizeof out[n].names, "%s", dtype_name(dt));
        mine = n++;
    }
    if (mine >= 0)
        out[mine].mine = true;
    /* Lowest first. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j].peak < out[j - 1].peak; j--) {
            struct ceiling t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The rows a ceiling's line takes in each column of the plot: lo..hi, or lo = -1 where it is
 * not drawn (as draw_roof draws it: along the slope when slope, flat from its own ridge on). */
static void ceiling_rows(const struct axes *ax, double peak, double bw, bool slope, short *lo,
                         short *hi)
{
    int prev = -1;
    for (int c = 0; c < ax->area.w; c++) {
        lo[c] = hi[c] = -1;
        for (int x = c * ax->dx; x < (c + 1) * ax->dx; x++) {
            double I = pow(10, ax->xlo + (ax->xhi - ax->xlo) * x / (ax->X - 1));
            bool on_slope = bw * I < peak;
            double fy = dot_y(ax, on_slope ? bw * I : peak);
            if ((on_slope && !slope) || !(fy >= -0.5 && fy < ax->Y - 0.5)) {
                prev = -1;
                continue;
            }
            int y = (int)lround(fy) / ax->dy;
            /* The slope's joins fill the rows between one dot and the next. */
            int a = prev >= 0 && prev < y ? prev : y, b = prev > y ? prev : y;
            if (lo[c] < 0 || a < lo[c])
                lo[c] = (short)a;
            if (b > hi[c])
                hi[c] = (short)b;
            prev = y;
        }
    }
}

/* The ceilings' places on the plot, for placing their labels. */
struct ceil_layout {
    const struct ceiling *ce;
    int n;
    int ly[PEAK_COUNT + 1];      /* the flat part's row */
    int xs[PEAK_COUNT + 1];      /* the column the flat part starts in */
    int start[PEAK_COUNT + 1];   /* the first column the line takes on that row */
    bool in[PEAK_COUNT + 1];     /* inside the plotted range */
    short *rows;                 /* per ceiling: lo[W], hi[W] (ceiling_rows) */
    int *bad;                    /* W + 1 */
};

/* Labels the ceilings in this order; returns how many got one. With shared_rows, a label that
 * finds no row of its own in the lines' order may share one with a neighbour's label. */
static int place_ceilings(struct board *bd, const struct axes *ax, const struct ceil_layout *L,
                          const int *order, bool shared_rows)
{
    const int W = ax->area.w, right_end = ax->area.x + W;
    int placed = 0;
    /* Rows of the labels placed so far: labels stack in their lines' order, so a higher
     * ceiling's label is never below a lower one's (in ASCII two lines can share a row). */
    int py[PEAK_COUNT + 1];
    for (int i = 0; i < L->n; i++)
        py[i] = -1;
    for (int i = 0; i < L->n; i++) {
        int c = order[i], ly = L->ly[c], xs = L->xs[c];
        if (!L->in[c])
            continue;
        char rate[32], rs[16], text[2][sizeof L->ce[0].names + sizeof rate + 1];
        units_flops_rate(L->ce[c].peak, rate, sizeof rate);
        rate_short(rate, rs, sizeof rs);
        snprintf(text[0], sizeof text[0], "%s %s", L->ce[c].names, rate);
        snprintf(text[1], sizeof text[1], "%s %s", L->ce[c].names, rs);
        static const int drow[] = {-1, 0, -2, 1, 2}, rpen[] = {0, 50, 25, 35, 60};
        struct spot best = {0, 0, 0, -1};
        /* First with each label on a row of its own order, then sharing a row if need be. */
        for (int strict = 1; strict >= !shared_rows && best.cost < 0; strict--)
        for (size_t k = 0; k < sizeof drow / sizeof drow[0]; k++) {
            int y = ly + drow[k], dc = abs(drow[k]);
            if (y < ax->area.y || y >= ax->area.y + ax->area.h)
                continue;
            bool in_order = true;
            for (int o = 0; o < L->n && in_order; o++)
                if (py[o] >= 0 && o != c)
                    in_order = L->ce[o].peak > L->ce[c].peak ? py[o] < y + !strict
                             : L->ce[o].peak < L->ce[c].peak ? py[o] > y - !strict : true;
            if (!in_order)
                continue;
            /* Columns where another line is nearer this row than the label's own. */
            int *bad = L->bad;
            bad[0] = 0;
            for (int col = 0; col < W; col++) {
                bool near_other = false;
                for (int o = 0; o < L->n && !near_other; o++) {
                    const short *lo = L->rows + (size_t)(2 * o) * W, *hi = lo + W;
                    if (o == c || !L->in[o])
                        continue;
                    /* A flat line's row counts left of where it starts too: a label there
                     * would read as its name. Flat lines on one row share it. */
                    int d_o = ax->area.h;
                    if (L->ly[o] != ly && col + ax->area.x <= L->start[o])
                        d_o = abs(L->ly[o] - y);
                    if (lo[col] >= 0) {
                        int l = lo[col] + ax->area.y, h = hi[col] + ax->area.y;
                        int d = y < l ? l - y : y > h ? y - h : 0;
                        if (!(l == ly && h == ly) && d < d_o)
                            d_o = d;
                    }
                    near_other = d_o < dc || (d_o == dc && drow[k] >= 0);
                }
                bad[col + 1] = bad[col] + near_other;
            }
            for (int form = 0; form < 2; form++) {
                int w = screen_width(text[form]);
                /* On its own row only before the line reaches it, ending a cell short. */
                int x0 = drow[k] == 0 ? L->start[c] - 1 - w : right_end - w;
                for (int x = x0; x >= ax->area.x; x--) {
                    int pen = rpen[k] + form * 40 + (x0 - x) + (x < xs && drow[k] ? (xs - x) * 3 : 0);
                    if (best.cost >= 0 && pen >= best.cost)
                        break;
                    int c0 = x - 1 - ax->area.x, c1 = x + w + 1 - ax->area.x;
                    c0 = c0 < 0 ? 0 : c0;
                    c1 = c1 > W ? W : c1;
                    if (bad[c1] - bad[c0] == 0)
                        spot_try(bd, &best, x, y, w, form, pen);
                }
            }
        }
        if (best.cost >= 0) {
            py[c] = best.y;
            board_label(bd, best.x, best.y, text[best.form], L->ce[c].mine ? E_ROOF : E_CEILING,
                        PL_CEILING);
            struct plot_info *in = bd->info;
            for (int k = 0; in && !bd->dry && k < in->ceilings; k++)
                if (in->ceiling[k].peak == L->ce[c].peak && in->n_labels > 0)
                    in->ceiling[k].label = in->n_labels - 1;
            placed++;
        }
    }
    return placed;
}

/*
 * Every ceiling: its formats and rate at the right end, just above its line; else further
 * up, below it, or on its own row just left of where it starts; a short form ("bf16 989T")
 * where the long one does not fit. A label is never nearer another line than its own
 * (above its own line it may be as near: a label reads as naming the line under it; flat
 * lines on one row share). False when memory ran out.
 */
static bool label_ceilings(struct board *bd, const struct axes *ax, const struct ceiling *ce,
                           int n, double bw)
{
    const int W = ax->area.w;
    size_t cells = (size_t)ax->area.w * (size_t)ax->area.h;
    struct ceil_layout L = {.ce = ce, .n = n};
    L.rows = malloc(sizeof(short) * 2 * (size_t)(n > 0 ? n : 1) * (size_t)W);
    L.bad = malloc(sizeof(int) * (size_t)(W + 1));
    unsigned char *saved = malloc(cells);
    if (!L.rows || !L.bad || !saved) {
        free(L.rows);
        free(L.bad);
        free(saved);
        return false;
    }
    double roof = 0;
    for (int c = 0; c < n; c++)
        if (ce[c].mine)
            roof = ce[c].peak;
    for (int c = 0; c < n; c++) {
        int unused;
        L.in[c] = to_cell(ax, pow(10, ax->xhi), ce[c].peak, false, &unused, &L.ly[c]);
        L.xs[c] = col_of(ax, ce[c].peak / bw);
        if (L.xs[c] < ax->area.x)
            L.xs[c] = ax->area.x;
        /* The scenario's roof, and ceilings above it, rise along the memory slope. */
        const short *lo = L.rows + (size_t)(2 * c) * W, *hi = lo + W;
        ceiling_rows(ax, ce[c].peak, bw, ce[c].mine || ce[c].peak > roof,
                     L.rows + (size_t)(2 * c) * W, L.rows + (size_t)(2 * c + 1) * W);
        L.start[c] = L.xs[c];
        for (int col = 0; col < W; col++)
            if (lo[col] >= 0 && lo[col] + ax->area.y <= L.ly[c] && L.ly[c] <= hi[col] + ax->area.y) {
                L.start[c] = ax->area.x + col;
                break;
            }
        if (bd->info && L.in[c] && bd->info->ceilings < PLOT_MAX_CEILINGS)
            bd->info->ceiling[bd->info->ceilings++] =
                (struct plot_ceiling){ce[c].peak, L.ly[c], -1, ce[c].mine};
    }
    /* Two orders, the better kept: the scenario's roof first, then the others from the
     * lowest up (labels stack in the lines' order); or from the top down, where the top
     * lines, with no room above them, would otherwise go without. */
    int orders[2][PEAK_COUNT + 1], k0 = 0;
    for (int c = 0; c < n; c++)
        if (ce[c].mine)
            orders[0][k0++] = c;
    for (int c = 0; c < n; c++)
        if (!ce[c].mine)
            orders[0][k0++] = c;
    for (int c = 0; c < n; c++)
        orders[1][c] = n - 1 - c;
    /* Tried dry in both orders, with labels in rows of their own and then sharing rows: the
     * most labels wins, rows of their own before shared ones, the first order before the
     * second. */
    memcpy(saved, bd->occ, cells);
    bd->dry = true;
    int best_o = 0, best_shared = 0, best_got = -1;
    for (int shared = 0; shared < 2; shared++)
        for (int o = 0; o < 2; o++) {
            int got = place_ceilings(bd, ax, &L, orders[o], shared);
            memcpy(bd->occ, saved, cells);
            if (got > best_got) {
                best_got = got;
                best_o = o;
                best_shared = shared;
            }
        }
    bd->dry = false;
    int placed = place_ceilings(bd, ax, &L, orders[best_o], best_shared);
    if (bd->info)
        bd->info->ceilings_labelled = placed;
    for (int c = 0; c < n && bd->n_lead < PLOT_MAX_CEILINGS; c++)
        if (L.in[c])
            bd->lead[bd->n_lead++] = (struct lead_zone){L.ly[c], L.start[c] - 4, L.start[c] - 1};
    free(L.rows);
    free(L.bad);
    free(saved);
    return true;
}


/* An operation's mark, or a group's: where, in what element, for how many, its letters. */
struct op_mark {
    int x, y, elem, n, first;
    char letters[2 * PLOT_MAX_OPS];
};

/* The names of operations that have a mark of their own, beside it where they fit. */
static void label_names(struct board *bd, const struct op_mark *gm, int n,
                        const struct view_op *ops)
{
    for (int k = 0; k < n; k++)
        if (gm[k].n == 1)
            (void)label_beside(bd, gm[k].x, gm[k].y, ops[gm[k].first].name, gm[k].elem,
                               PL_OP_NAME, false);
}

/* The bandwidth beside the memory slope, about a third of the way up its visible part
 * (the slope leaves the roof's row ry); false when it found no place. */
static bool label_bandwidth(struct board *bd, const struct axes *ax, double bw, int ry)
{
    char lab[48];
    units_bandwidth(bw, lab, sizeof lab);
    int w = screen_width(lab);
    int bottom = ax->area.y + ax->area.h - 1, right_end = ax->area.x + ax->area.w;
    int target = bottom - (bottom - ry) * 3 / 10;
    struct spot best = {0, 0, 0, -1};
    for (int y = ry + 1; y <= bottom; y++) {
        /* The slope's columns in this row: from its lowest dot's intensity to its top's. */
        int d0 = (y - ax->area.y) * ax->dy, d1 = d0 + ax->dy - 1;
        double f_top = pow(10, ax->yhi - (double)d0 / (ax->Y - 1) * (ax->yhi - ax->ylo));
        double f_bot = pow(10, ax->yhi - (double)d1 / (ax->Y - 1) * (ax->yhi - ax->ylo));
        int xl = col_of(ax, f_bot / bw), xr = col_of(ax, f_top / bw);
        if (xr < ax->area.x || xl >= right_end)
            continue;
        /* Against the line, or a few cells off where marks crowd it. */
        for (int gap = 0; gap < 4; gap++) {
            int pen = abs(y - target) * 2 + gap * 6;
            spot_try(bd, &best, xr + 1 + gap, y, w, 0, pen);
            spot_try(bd, &best, xl - w - gap, y, w, 0, pen + 3);
        }
    }
    if (best.cost < 0)
        return false;
    board_label(bd, best.x, best.y, lab, E_ROOF, PL_BANDWIDTH);
    return true;
}

void plot_roofline(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    plot_draw(d, s, r, focused, NULL);
}

void plot_draw(const struct dash *d, struct screen *s, struct rect r, bool focused,
               struct plot_info *info)
{
    const struct analysis *a = &d->an;
    const struct gpu_spec *g = &d->sc.gpu;
    const struct charset *cs = &d->cs;
    char title[160], right[96], num[32];
    if (info)
        memset(info, 0, sizeof *info);
    if (!d->lecture_ops)
        snprintf(title, sizeof title, "Roofline: %s on %s, FLOP/s", dtype_name(d->sc.dtype),
                 g->name[0] ? g->name : g->id);
    else
        snprintf(title, sizeof title, "Roofline: lecture ops, %s on %s, FLOP/s", dtype_name(d->sc.dtype),
                 g->name[0] ? g->name : g->id);
    units_plain(a->roofline.ridge, num, sizeof num);
    snprintf(right, sizeof right, "ridge %s FLOP/B", num);
    draw_header(s, cs, r, title, right, focused);

    double peak = a->roofline.peak, bw = a->roofline.bandwidth;
    if (!(peak > 0) || !(bw > 0) || !isfinite(peak) || !isfinite(bw)) {
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(no peak or bandwidth for this GPU)", E_DIM);
        return;
    }
    double ridge = peak / bw;

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
    double peak_max = peak, ridge_max = ridge;
    double imin = ridge, imax = ridge, flo = peak;
    for (size_t k = 0; k < sizeof peak_elem_dtypes / sizeof peak_elem_dtypes[0]; k++) {
        int pk = peak_elem_dtypes[k];
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
    /* Other dtypes' flat ceilings first, then the scenario's roof over them. */
    for (size_t k = 0; k < sizeof peak_elem_dtypes / sizeof peak_elem_dtypes[0]; k++) {
        int pk = peak_elem_dtypes[k];
        if (g->peak_valid[pk] && g->peak_flops[pk] > 0 && pk != (int)dtype_peak(d->sc.dtype) &&
            fabs(g->peak_flops[pk] - peak) > 1e-6 * peak)
            draw_roof(&cv, g->peak_flops[pk], bw, g->peak_flops[pk] > peak, true, E_CEILING, 1,
                      false);
    }
    draw_roof(&cv, peak, bw, true, true, E_ROOF, 3, false);
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
        if (pc.bandwidth > 0 && isfinite(pc.bandwidth) && mp > 0 && isfinite(mp))
            draw_roof(&cv, mp, pc.bandwidth, true, true, E_POINT, 2, true);
    }
    for (int cy = 0; cy < ax.area.h; cy++)
        for (int cx = 0; cx < ax.area.w; cx++) {
            size_t i = (size_t)cy * (size_t)ax.area.w + (size_t)cx;
            if (cv.bits[i]) {
                screen_put(s, ax.area.x + cx, ax.area.y + cy, charset_plot(cs, cv.bits[i]), cv.elem[i]);
                bd.occ[i] = cv.elem[i] == E_ROOF ? OCC_ROOF : OCC_LINE;
            }
        }
    free(cv.bits);
    free(cv.elem);
    free(cv.prio);

    const int bottom = ax.area.y + ax.area.h - 1;
    /* The roof's row; the ridge: a dotted vertical from under the roof's corner to the axis. */
    int rx = -1, ry = ax.area.y;
    if (to_cell(&ax, ridge, peak, false, &rx, &ry)) {
        for (int y = ry + 1; y <= bottom; y++)
            if (*board_at(&bd, rx, y) == OCC_FREE) {
                screen_put(s, rx, y, cs->ridge, E_RIDGE);
                *board_at(&bd, rx, y) = OCC_LINE;
            }
        if (info)
            info->ridge_shown = ry < bottom;
    } else {
        int unused;
        rx = -1;
        if (!to_cell(&ax, ridge, peak, true, &unused, &ry))
            ry = ax.area.y;
    }

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

    /* Measured points: their own mark, never covered by a label. */
    if (d->have_points)
        for (size_t i = 0; i < d->points.n; i++) {
            const struct probe_point *p = &d->points.points[i];
            int x, y;
            if (p->valid && to_cell(&ax, p->intensity, p->flops_per_s, false, &x, &y))
                board_mark(&bd, x, y, cs->point, E_POINT);
        }

    /* The operations: a letter each at its place on the roof; operations that fall on the
     * same or nearly the same cells (chains of marks less than three columns or two rows
     * apart) form a group shown by one mark, their letters listed beside it. */
    int cx[PLOT_MAX_OPS], cy[PLOT_MAX_OPS], grp[PLOT_MAX_OPS];
    bool placed[PLOT_MAX_OPS];
    for (int i = 0; i < n_ops; i++) {
        placed[i] = to_cell(&ax, ops[i].intensity, ops[i].attainable, true, &cx[i], &cy[i]);
        grp[i] = i;
        if (placed[i] && info)
            info->ops++;
    }
    for (int i = 0; i < n_ops; i++)
        for (int j = i + 1; j < n_ops; j++)
            if (placed[i] && placed[j] && abs(cx[i] - cx[j]) <= 2 && abs(cy[i] - cy[j]) <= 1) {
                int gi = grp[i], gj = grp[j];
                for (int k = 0; k < n_ops; k++)
                    if (grp[k] == gj)
                        grp[k] = gi;
            }
    struct op_mark gm[PLOT_MAX_OPS];
    int n_gm = 0;
    for (int i = 0; i < n_ops; i++) {
        if (!placed[i] || grp[i] != i)
            continue;
        double sum = 0;
        int n = 0, elem = -1;
        size_t len = 0;
        gm[n_gm].letters[0] = '\0';
        for (int j = 0; j < n_ops; j++) {
            if (!placed[j] || grp[j] != i)
                continue;
            sum += log10(ops[j].intensity);
            n++;
            int e = ops[j].compute_bound ? E_COMPBOUND : E_MEMBOUND;
            elem = elem < 0 || elem == e ? e : E_VALUE;
            if (len + 3 < sizeof gm[n_gm].letters) {
                if (len)
                    gm[n_gm].letters[len++] = ',';
                gm[n_gm].letters[len++] = ops[j].key;
                gm[n_gm].letters[len] = '\0';
            }
        }
        int x = cx[i], y = cy[i];
        if (n > 1) {
            /* On the roof at the group's mean intensity. */
            double I = pow(10, sum / n);
            if (!to_cell(&ax, I, roofline_attainable(peak, bw, I), true, &x, &y)) {
                x = cx[i];
                y = cy[i];
            }
        }
        /* Marks are apart from each other; should the cell still be taken, the next free one. */
        static const int off[][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, 1}};
        bool ok = false;
        for (size_t k = 0; k < sizeof off / sizeof off[0] && !ok; k++)
            if (board_inside(&bd, x + off[k][0], y + off[k][1]) &&
                (*board_at(&bd, x + off[k][0], y + off[k][1]) != OCC_TAKEN ||
                 screen_cell(s, x + off[k][0], y + off[k][1])->ch == cs->point)) {
                x += off[k][0];
                y += off[k][1];
                ok = true;
            }
        if (!ok)
            continue;
        uint32_t ch = n > 1 ? cs->group : (uint32_t)ops[i].key;
        board_mark(&bd, x, y, ch, elem);
        bd.op[bd.n_ops].x = x;
        bd.op[bd.n_ops++].y = y;
        gm[n_gm].x = x;
        gm[n_gm].y = y;
        gm[n_gm].elem = elem;
        gm[n_gm].n = n;
        gm[n_gm].first = i;
        n_gm++;
        if (info) {
            info->ops_marked += n;
            if (n > 1)
                info->groups++;
            if (info->n_marks < PLOT_MAX_OPS)
                info->marks[info->n_marks++] = (struct plot_mark){x, y, ch, n};
        }
    }

    struct ceiling ceil_[PEAK_COUNT + 1];
    int n_ceil = ceilings_of(g, peak, d->sc.dtype, ceil_, PEAK_COUNT + 1);
    if (!label_ceilings(&bd, &ax, ceil_, n_ceil, bw))
        screen_label(s, r.x + 1, r.y + 1, r.w - 1, "(out of memory)", E_ERROR);

    /* The letters of each group beside its mark. */
    for (int k = 0; k < n_gm; k++)
        if (gm[k].n > 1 && label_beside(&bd, gm[k].x, gm[k].y, gm[k].letters, gm[k].elem,
                                        PL_OP_GROUP, true) && info)
            info->groups_labelled++;

    /* Names of operations alone at their place, where they fit, and the bandwidth beside
     * the slope: the names first, unless they would leave the bandwidth no room. */
    bool names_first = true;
    unsigned char *saved = malloc(cells);
    if (saved) {
        memcpy(saved, bd.occ, cells);
        bd.dry = true;
        label_names(&bd, gm, n_gm, ops);
        names_first = label_bandwidth(&bd, &ax, bw, ry);
        memcpy(bd.occ, saved, cells);
        bd.dry = false;
        free(saved);
    }
    if (names_first)
        label_names(&bd, gm, n_gm, ops);
    (void)label_bandwidth(&bd, &ax, bw, ry);
    if (!names_first)
        label_names(&bd, gm, n_gm, ops);

    /* The ridge's value beside its vertical, low down near the axis. */
    if (rx >= 0 && ry < bottom) {
        char text[2][48];
        snprintf(text[0], sizeof text[0], "ridge %s FLOP/B", num);
        snprintf(text[1], sizeof text[1], "ridge %s", num);
        struct spot best = {0, 0, 0, -1};
        for (int form = 0; form < 2; form++) {
            int w = screen_width(text[form]);
            for (int y = bottom; y > ry; y--) {
                int pen = (bottom - y) * 2 + form * 30;
                spot_try(&bd, &best, rx + 1, y, w, form, pen);
                spot_try(&bd, &best, rx - w, y, w, form, pen + 4);
            }
        }
        if (best.cost >= 0) {
            board_label(&bd, best.x, best.y, text[best.form], E_RIDGE, PL_RIDGE);
            if (info)
                info->ridge_labelled = true;
        }
    }

    free(bd.occ);

    /* Legend. */
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
            {charset_plot(cs, 0x0F), E_ROOF, dtype_name(d->sc.dtype)},
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
