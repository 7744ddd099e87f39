/* plot_labels.c - placing the roofline plot's labels on the board of its cells. */
#include "plot_labels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"
#include "units.h"

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

void labels_mark(struct board *b, int x, int y, uint32_t ch, int elem)
{
    screen_put(b->s, x, y, ch, elem);
    *board_at(b, x, y) = OCC_TAKEN;
}

/* After a search around a mark: the search's own mark and gap undone, the label at the best
 * spot found; false when there was none. */
static bool spot_place(struct board *b, const struct spot *best, const char *text, int elem,
                       enum plot_label_kind kind)
{
    b->own_x = b->own_y = -1;
    b->mark_gap = 2;
    if (best->cost < 0)
        return false;
    board_label(b, best->x, best->y, text, elem, kind);
    return true;
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
    return spot_place(b, &best, text, elem, kind);
}

/* Places a label on its mark's own row, to the right or the left of it, nearest first:
 * a name on another row reads as another point's (issue 18: "gelu" on the 100T row, "a,c,d"
 * on the 10T row). False when the row has no room (the callers then try the rows beside it,
 * and the legend names the letters where the operations table is not on screen). */
static bool label_on_row(struct board *b, int x, int y, const char *text, int elem,
                         enum plot_label_kind kind)
{
    int w = screen_width(text);
    struct spot best = {0, 0, 0, -1};
    b->own_x = x;
    b->own_y = y;
    b->mark_gap = 4;
    for (int dx = 2; dx <= 48; dx++) {
        spot_try(b, &best, x + dx, y, w, 0, 2 * dx);
        spot_try(b, &best, x - dx - w + 1, y, w, 0, 2 * dx + 1);
    }
    return spot_place(b, &best, text, elem, kind);
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
    const int *kinds;
    int n_kinds = axes_peak_kinds(&kinds);
    for (int k = 0; k < n_kinds; k++) {
        int pk = kinds[k];
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
            double I = axes_intensity(ax, x);
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

/* Where a ceiling's label may go relative to its flat part's row, and what each row costs. */
static const int drow[] = {-1, 0, -2, 1, 2}, rpen[] = {0, 50, 25, 35, 60};
#define N_DROW ((int)(sizeof drow / sizeof drow[0]))
#define CEIL_MAX (PEAK_COUNT + 1)
#define CEIL_TEXT (sizeof(((struct ceiling *)0)->names) + 32 + 1)

/* The ceilings' places on the plot, for placing their labels: all that does not depend on
 * the labels placed so far, computed once per frame for every trial placement. */
struct ceil_layout {
    const struct ceiling *ce;
    int n;
    int ly[CEIL_MAX];            /* the flat part's row */
    int xs[CEIL_MAX];            /* the column the flat part starts in */
    int start[CEIL_MAX];         /* the first column the line takes on that row */
    bool in[CEIL_MAX];           /* inside the plotted range */
    char text[CEIL_MAX][2][CEIL_TEXT]; /* "bf16/fp16 989 TFLOP/s", "bf16/fp16 989T" */
    int text_w[CEIL_MAX][2];
    short *rows;                 /* per ceiling: lo[W], hi[W] (ceiling_rows) */
    /* Per ceiling and row offset k (drow[k]): bad[col + 1] - bad[c0] counts the columns
     * c0..col where another line is nearer that row than the label's own; (W + 1) each,
     * filled on first use (bad_done). */
    int *bad;
    bool bad_done[CEIL_MAX][N_DROW];
};

/* The columns to avoid for ceiling c's label on the row ly[c] + drow[k] (inside the plot). */
static const int *layout_bad(struct ceil_layout *L, const struct axes *ax, int c, int k)
{
    const int W = ax->area.w, ly = L->ly[c], y = ly + drow[k], dc = abs(drow[k]);
    int *bad = L->bad + ((size_t)c * N_DROW + (size_t)k) * (size_t)(W + 1);
    if (L->bad_done[c][k])
        return bad;
    L->bad_done[c][k] = true;
    /* Another line is near where its distance d_o to the row is under dc, or equal to it on
     * and below the label's own row: d_o < thr. */
    const int thr = dc + (drow[k] >= 0 ? 1 : 0);
    for (int col = 0; col <= W; col++)
        bad[col] = 0;
    for (int o = 0; o < L->n; o++) {
        if (o == c || !L->in[o])
            continue;
        /* A flat line's row counts left of where it starts too (columns to flat_end): a
         * label there would read as its name. Flat lines on one row share it. Elsewhere the
         * distance starts as the plot's height (under thr only on a plot a few rows high). */
        const bool flat = L->ly[o] != ly, flat_close = abs(L->ly[o] - y) < thr;
        const bool tiny = ax->area.h < thr;
        const int flat_end = L->start[o] - ax->area.x;
        const short *lo = L->rows + (size_t)(2 * o) * W, *hi = lo + W;
        for (int col = 0; col < W; col++) {
            if (bad[col + 1])
                continue;
            bool near = flat && col <= flat_end ? flat_close : tiny;
            if (!near && lo[col] >= 0) {
                int l = lo[col] + ax->area.y, h = hi[col] + ax->area.y;
                int d = y < l ? l - y : y > h ? y - h : 0;
                near = !(l == ly && h == ly) && d < thr;
            }
            bad[col + 1] = near;
        }
    }
    for (int col = 0; col < W; col++)
        bad[col + 1] += bad[col];
    return bad;
}

/* One ceiling's label as placed: the ceiling, where, and which of its two texts. */
struct ceil_spot {
    int c, x, y, form;
};

/* Places the ceilings' labels in this order on the board (taking their cells) and lists
 * where in out; returns how many got one. With shared_rows, a label that finds no row of its
 * own in the lines' order may share one with a neighbour's label. */
static int place_ceilings(struct board *bd, const struct axes *ax, struct ceil_layout *L,
                          const int *order, bool shared_rows, struct ceil_spot *out)
{
    const int W = ax->area.w, right_end = ax->area.x + W;
    int placed = 0;
    /* Rows of the labels placed so far: labels stack in their lines' order, so a higher
     * ceiling's label is never below a lower one's (in ASCII two lines can share a row). */
    int py[CEIL_MAX];
    for (int i = 0; i < L->n; i++)
        py[i] = -1;
    for (int i = 0; i < L->n; i++) {
        int c = order[i], ly = L->ly[c], xs = L->xs[c];
        if (!L->in[c])
            continue;
        struct spot best = {0, 0, 0, -1};
        /* First with each label on a row of its own order, then sharing a row if need be. */
        for (int strict = 1; strict >= !shared_rows && best.cost < 0; strict--)
        for (int k = 0; k < N_DROW; k++) {
            int y = ly + drow[k];
            if (y < ax->area.y || y >= ax->area.y + ax->area.h)
                continue;
            bool in_order = true;
            for (int o = 0; o < L->n && in_order; o++)
                if (py[o] >= 0 && o != c)
                    in_order = L->ce[o].peak > L->ce[c].peak ? py[o] < y + !strict
                             : L->ce[o].peak < L->ce[c].peak ? py[o] > y - !strict : true;
            if (!in_order)
                continue;
            const int *bad = layout_bad(L, ax, c, k);
            for (int form = 0; form < 2; form++) {
                int w = L->text_w[c][form];
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
            int w = L->text_w[c][best.form];
            for (int k = 0; k < w; k++)
                *board_at(bd, best.x + k, best.y) = OCC_TAKEN;
            out[placed++] = (struct ceil_spot){c, best.x, best.y, best.form};
        }
    }
    return placed;
}

/* Draws the labels place_ceilings listed (on the board it started from). */
static void draw_ceilings(struct board *bd, const struct ceil_layout *L,
                          const struct ceil_spot *sp, int n)
{
    for (int i = 0; i < n; i++) {
        const struct ceiling *ce = &L->ce[sp[i].c];
        board_label(bd, sp[i].x, sp[i].y, L->text[sp[i].c][sp[i].form],
                    ce->mine ? E_ROOF : E_CEILING, PL_CEILING);
        struct plot_info *in = bd->info;
        for (int k = 0; in && !bd->dry && k < in->ceilings; k++)
            if (in->ceiling[k].peak == ce->peak && in->n_labels > 0)
                in->ceiling[k].label = in->n_labels - 1;
    }
}

/*
 * Every ceiling: its formats and rate at the right end, just above its line; else further
 * up, below it, or on its own row just left of where it starts; a short form ("bf16 989T")
 * where the long one does not fit. A label is never nearer another line than its own
 * (above its own line it may be as near: a label reads as naming the line under it; flat
 * lines on one row share). False when memory ran out.
 */
/* Fills L's places, texts and rows-to-avoid for the n ceilings ce (L->rows and L->bad
 * allocated), and names the ceilings in the plot info; returns how many are in range. */
static int layout_ceilings(struct board *bd, const struct axes *ax, struct ceil_layout *L,
                           double bw)
{
    const int W = ax->area.w, n = L->n;
    const struct ceiling *ce = L->ce;
    double roof = 0;
    int in_range = 0;
    for (int c = 0; c < n; c++)
        if (ce[c].mine)
            roof = ce[c].peak;
    for (int c = 0; c < n; c++) {
        int unused;
        L->in[c] = to_cell(ax, pow(10, ax->xhi), ce[c].peak, false, &unused, &L->ly[c]);
        in_range += L->in[c];
        L->xs[c] = col_of(ax, ce[c].peak / bw);
        if (L->xs[c] < ax->area.x)
            L->xs[c] = ax->area.x;
        /* The scenario's roof, and ceilings above it, rise along the memory slope. */
        const short *lo = L->rows + (size_t)(2 * c) * W, *hi = lo + W;
        ceiling_rows(ax, ce[c].peak, bw, ce[c].mine || ce[c].peak > roof,
                     L->rows + (size_t)(2 * c) * W, L->rows + (size_t)(2 * c + 1) * W);
        L->start[c] = L->xs[c];
        for (int col = 0; col < W; col++)
            if (lo[col] >= 0 && lo[col] + ax->area.y <= L->ly[c] && L->ly[c] <= hi[col] + ax->area.y) {
                L->start[c] = ax->area.x + col;
                break;
            }
        if (bd->info && L->in[c] && bd->info->ceilings < PLOT_MAX_CEILINGS)
            bd->info->ceiling[bd->info->ceilings++] =
                (struct plot_ceiling){ce[c].peak, L->ly[c], -1, ce[c].mine};
        char rate[32], rs[16];
        units_flops_rate(ce[c].peak, rate, sizeof rate);
        rate_short(rate, rs, sizeof rs);
        snprintf(L->text[c][0], sizeof L->text[c][0], "%s %s", ce[c].names, rate);
        snprintf(L->text[c][1], sizeof L->text[c][1], "%s %s", ce[c].names, rs);
        L->text_w[c][0] = screen_width(L->text[c][0]);
        L->text_w[c][1] = screen_width(L->text[c][1]);
    }
    return in_range;
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
    size_t nc = (size_t)(n > 0 ? n : 1);
    L.rows = malloc(sizeof(short) * 2 * nc * (size_t)W);
    L.bad = malloc(sizeof(int) * nc * N_DROW * (size_t)(W + 1));
    unsigned char *saved = malloc(cells);
    if (!L.rows || !L.bad || !saved) {
        free(L.rows);
        free(L.bad);
        free(saved);
        return false;
    }
    int in_range = layout_ceilings(bd, ax, &L, bw);
    /* Two orders, the better kept: the scenario's roof first, then the others from the
     * lowest up (labels stack in the lines' order); or from the top down, where the top
     * lines, with no room above them, would otherwise go without. */
    int orders[2][CEIL_MAX], k0 = 0;
    for (int c = 0; c < n; c++)
        if (ce[c].mine)
            orders[0][k0++] = c;
    for (int c = 0; c < n; c++)
        if (!ce[c].mine)
            orders[0][k0++] = c;
    for (int c = 0; c < n; c++)
        orders[1][c] = n - 1 - c;
    /* Tried in both orders, with labels in rows of their own and then sharing rows: the
     * most labels wins, rows of their own before shared ones, the first order before the
     * second (so a trial that labels every ceiling in range ends the search). The winner's
     * places are then drawn as they were found. */
    memcpy(saved, bd->occ, cells);
    struct ceil_spot spots[CEIL_MAX], best[CEIL_MAX];
    int best_got = -1;
    for (int shared = 0; shared < 2 && best_got < in_range; shared++)
        for (int o = 0; o < 2 && best_got < in_range; o++) {
            int got = place_ceilings(bd, ax, &L, orders[o], shared, spots);
            memcpy(bd->occ, saved, cells);
            if (got > best_got) {
                best_got = got;
                memcpy(best, spots, sizeof spots[0] * (size_t)got);
            }
        }
    draw_ceilings(bd, &L, best, best_got);
    if (bd->info)
        bd->info->ceilings_labelled = best_got;
    for (int c = 0; c < n && bd->n_lead < PLOT_MAX_CEILINGS; c++)
        if (L.in[c])
            bd->lead[bd->n_lead++] = (struct lead_zone){L.ly[c], L.start[c] - 4, L.start[c] - 1};
    free(L.rows);
    free(L.bad);
    free(saved);
    return true;
}

/* The names of operations that have a mark of their own, beside it where they fit. */
static void label_names(struct board *bd, const struct op_mark *gm, int n,
                        const struct view_op *ops)
{
    for (int k = 0; k < n; k++)
        if (gm[k].n == 1)
            (void)(label_on_row(bd, gm[k].x, gm[k].y, ops[gm[k].first].name, gm[k].elem,
                                PL_OP_NAME) ||
                   label_beside(bd, gm[k].x, gm[k].y, ops[gm[k].first].name, gm[k].elem,
                                PL_OP_NAME, false));
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


bool labels_group(struct board *bd, const struct op_mark *m)
{
    return label_on_row(bd, m->x, m->y, m->letters, m->elem, PL_OP_GROUP) ||
           label_beside(bd, m->x, m->y, m->letters, m->elem, PL_OP_GROUP, true);
}

void labels_names_bandwidth(struct board *bd, const struct axes *ax, const struct op_mark *gm,
                            int n, const struct view_op *ops, double bw, int ry)
{
    size_t cells = (size_t)ax->area.w * (size_t)ax->area.h;
    bool names_first = true;
    unsigned char *saved = malloc(cells);
    if (saved) {
        memcpy(saved, bd->occ, cells);
        bd->dry = true;
        label_names(bd, gm, n, ops);
        names_first = label_bandwidth(bd, ax, bw, ry);
        memcpy(bd->occ, saved, cells);
        bd->dry = false;
        free(saved);
    }
    if (names_first)
        label_names(bd, gm, n, ops);
    (void)label_bandwidth(bd, ax, bw, ry);
    if (!names_first)
        label_names(bd, gm, n, ops);
}

bool labels_ridge(struct board *bd, int rx, int ry, int bottom, const char *num)
{
    char text[2][48];
    snprintf(text[0], sizeof text[0], "ridge %s FLOP/B", num);
    snprintf(text[1], sizeof text[1], "ridge %s", num);
    struct spot best = {0, 0, 0, -1};
    for (int form = 0; form < 2; form++) {
        int w = screen_width(text[form]);
        for (int y = bottom; y > ry; y--) {
            int pen = (bottom - y) * 2 + form * 30;
            spot_try(bd, &best, rx + 1, y, w, form, pen);
            spot_try(bd, &best, rx - w, y, w, form, pen + 4);
        }
    }
    if (best.cost < 0)
        return false;
    board_label(bd, best.x, best.y, text[best.form], E_RIDGE, PL_RIDGE);
    return true;
}

bool labels_ceilings(struct board *bd, const struct axes *ax, const struct gpu_spec *g,
                     double roof, enum dtype dt, double bw)
{
    struct ceiling ce[PEAK_COUNT + 1];
    int n = ceilings_of(g, roof, dt, ce, PEAK_COUNT + 1);
    return label_ceilings(bd, ax, ce, n, bw);
}
