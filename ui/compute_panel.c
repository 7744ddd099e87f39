/* compute_panel.c - the compute panel: the predicted step's bar and its parts, and the
 * run's figures (time, FLOPs, cost, MFU, ...), each a row of the report's table. */
#include "compute_panel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_view.h"
#include "cost.h"
#include "figure.h"
#include "layout.h"
#include "lecture_view.h"
#include "predict.h"
#include "report.h"
#include "units.h"
#include "widgets.h"

_Static_assert(PART_COUNT <= WIDGET_BAR_PARTS, "a step bar fits widget_bar_split");

struct item {
    const char *label;
    char value[32];
    int elem;
    const char *key;    /* its figure in report's JSON, for the change when pinned (or NULL) */
};

/* A duration in at most maxw cells: long spans of years (a slow measured MFU gives them)
 * lose their decimals, then go to k/M years. */
static void fit_duration(double seconds, char *buf, size_t n, int maxw)
{
    units_duration(seconds, buf, n);
    if (screen_width(buf) <= maxw)
        return;
    double years = seconds / (365.25 * 86400.0);
    if (years < 1e4) {
        snprintf(buf, n, "%.0f years", years);
        return;
    }
    char c[24];
    units_count(years, c, sizeof c);
    snprintf(buf, n, "%s years", c);
}

/* How each part of the predicted step is drawn: compute in the compute-bound colour,
 * communication in the memory-bound one, the bubble dim, the optimizer as its memory row. */
static const struct {
    enum elem elem;
    char ascii;
} step_look[PART_COUNT] = {
    [PART_COMPUTE] = {E_COMPBOUND, '#'}, [PART_RECOMPUTE] = {E_MASTER, '+'},
    [PART_TP_COMM] = {E_MEMBOUND, '='},  [PART_CP_COMM] = {E_MEMBOUND, ':'},
    [PART_EP_COMM] = {E_RIDGE, '*'},     [PART_PP_BUBBLE] = {E_DIM, '.'},
    [PART_PP_COMM] = {E_RIDGE, '~'},     [PART_DP_COMM] = {E_OVER, '%'},
    [PART_OPTIMIZER] = {E_OPTIMIZER, 'o'},
};

/*
 * The predicted step as a bar of w cells stacked by its parts (every non-zero part at least
 * one cell, largest remainders after), and under it each part's share with the predicted
 * MFU beside the assumed one. Two rows at y.
 */
static void draw_step_bar(const struct dash *d, struct screen *s, int x, int y, int w,
                          const struct prediction *p)
{
    int cells[PART_COUNT];
    widget_bar_split(p->part, PART_COUNT, p->step_seconds, p->step_seconds, w, cells);
    int cx = x;
    for (int k = 0; k < PART_COUNT; k++)
        for (int i = 0; i < cells[k]; i++)
            screen_put(s, cx++, y, d->theme.color ? d->cs.bar : (uint32_t)step_look[k].ascii,
                       step_look[k].elem);
    char parts[160] = "", t[32];
    units_duration(p->step_seconds, t, sizeof t);
    int n = 0;
    for (int k = 0; k < PART_COUNT && n >= 0 && (size_t)n < sizeof parts; k++)
        if (p->part[k] > 0 && p->part[k] >= 0.005 * p->step_seconds)
            n += snprintf(parts + n, sizeof parts - (size_t)n, " %s %.0f%%",
                          predict_part_brief((enum predict_part)k),
                          100.0 * p->part[k] / p->step_seconds);
    /* Pinned (x): the step's change after it, "vs pinned" where the whole line fits so. */
    char dl[48] = "", vs[3][64] = {"", "", ""}, line[3][320];
    int del = E_DIM;
    if (compare_view_delta(&d->cmp, "time.predicted.step_seconds", dl, sizeof dl, &del)) {
        snprintf(vs[0], sizeof vs[0], " (%s vs pinned)", dl);
        snprintf(vs[1], sizeof vs[1], " (%s)", dl);
    }
    int pick = 2;
    for (int k = 0; k < 3; k++) {
        snprintf(line[k], sizeof line[k], "step %s%s  MFU %.2g (assumed %.2g):%s", t, vs[k],
                 p->mfu, d->ev.an.time.mfu, parts);
        if (pick == 2 && k < 2 && vs[k][0] && screen_width(line[k]) <= w)
            pick = k;
    }
    screen_label(s, x, y + 1, w, line[pick], E_NORMAL);
    if (pick < 2) {
        /* The change in its colour: more time is worse. */
        int at = x + screen_width("step ") + screen_width(t) + 2;
        screen_text(s, at, y + 1, screen_width(dl), dl, del);
    }
}

/* When a compute-panel figure is shown. */
enum panel_when {
    PW_ALWAYS,
    PW_SIX_ND,       /* the run counts 6ND: the detailed count beside it */
    PW_DETAILED,     /* the run counts per op: 6ND beside it */
    PW_ROOF,         /* the roofline or the operations are on screen (a lecture step) */
    PW_RECOMPUTE,    /* the run recomputes */
    PW_NO_RECOMPUTE, /* it does not: the accumulation steps in its place */
    PW_NO_STEP_BAR,  /* not in the list: in a panel too small for the predicted step's bar,
                        its figures take the list's second and third places */
};

/*
 * The compute panel's figures, the most needed first: each a row of the report's table
 * (src/report.c), shown by its brief label with its value as the report writes it, so that
 * the panel and `rooftop report` show one figure. Pinned (x), a figure with delta shows its
 * change from the pinned scenario (compare_view.c, by the same key).
 */
static const struct {
    const char *key;
    int elem;           /* its value's colour; a figure with no value (no price) is dim */
    bool delta;
    enum panel_when when;
} COMPUTE_FIGURES[] = {
    {"time.seconds", E_VALUE, true, PW_ALWAYS},
    {"flops.total", E_VALUE, true, PW_ALWAYS},
    {"cost.gpu_hours", E_NORMAL, true, PW_ALWAYS},
    /* What the run costs and draws (src/cost.h), early enough to show at 80x24. */
    {"cost.usd", E_NORMAL, true, PW_ALWAYS},
    {"cost.energy_kwh", E_NORMAL, true, PW_ALWAYS},
    /* Beside the count used, the other one and how far apart they are. */
    {"flops.detailed", E_NORMAL, false, PW_SIX_ND},
    {"flops.six_nd", E_NORMAL, false, PW_DETAILED},
    {"flops.detailed_vs_six_nd_percent", E_NORMAL, false, PW_ALWAYS},
    {"time.tokens_per_s", E_NORMAL, false, PW_ALWAYS},
    {"time.mfu", E_NORMAL, false, PW_ALWAYS},
    {"time.hfu", E_NORMAL, false, PW_ALWAYS},
    {"time.step_seconds", E_NORMAL, true, PW_ALWAYS},
    /* The roofline's step beside the step time where the roofline or the operations are on
     * screen: a lecture step before them shows one step time (issue 18). */
    {"roofline.step_seconds", E_NORMAL, true, PW_ROOF},
    {"roofline.mfu_bound", E_NORMAL, false, PW_ROOF},
    {"time.steps", E_NORMAL, false, PW_ALWAYS},
    {"flops.per_step", E_NORMAL, false, PW_ALWAYS},
    {"flops.recompute", E_NORMAL, false, PW_RECOMPUTE},
    {"parallel.accum_steps", E_NORMAL, false, PW_NO_RECOMPUTE},
    /* The lecture's split of the model FLOPs: forward 2ND, backward 4ND. */
    {"flops.forward", E_NORMAL, false, PW_ALWAYS},
    {"flops.backward", E_NORMAL, false, PW_ALWAYS},
    {"time.predicted.step_seconds", E_VALUE, true, PW_NO_STEP_BAR},
    {"time.predicted.mfu", E_VALUE, false, PW_NO_STEP_BAR},
};

#define N_COMPUTE_FIGURES ((int)(sizeof COMPUTE_FIGURES / sizeof COMPUTE_FIGURES[0]))

static bool panel_shows(const struct dash *d, enum panel_when w)
{
    const struct demo_step *st = lecture_view_step(d);
    switch (w) {
    case PW_ALWAYS:
        return true;
    case PW_SIX_ND:
        return d->sc.flops_mode == FLOPS_6ND;
    case PW_DETAILED:
        return d->sc.flops_mode != FLOPS_6ND;
    case PW_ROOF:
        return lecture_shows(st, "roofline") || lecture_shows(st, "ops");
    case PW_RECOMPUTE:
        return d->ev.an.flops.recompute > 0;
    case PW_NO_RECOMPUTE:
        return !(d->ev.an.flops.recompute > 0);
    case PW_NO_STEP_BAR:
        return false;
    }
    return false;
}

/* Figure i of COMPUTE_FIGURES, its row looked up once (the table is constant); NULL when
 * the report has no such row. */
static const struct figure *compute_row(int i)
{
    static const struct figure *row[N_COMPUTE_FIGURES];
    return figure_find_once(report_table(), COMPUTE_FIGURES[i].key, &row[i]);
}

/* Figure i of COMPUTE_FIGURES with its value v as an item of at most vw value cells. */
static void compute_item(int i, const struct figure_value *v, int vw, struct item *it)
{
    const struct figure *row = compute_row(i);
    it->label = figure_brief(row);
    it->key = COMPUTE_FIGURES[i].delta ? COMPUTE_FIGURES[i].key : NULL;
    it->elem = v->kind == FK_NULL ? E_DIM : COMPUTE_FIGURES[i].elem;
    /* A duration too long for the cells (a slow measured MFU gives years) is shortened. */
    if (row->unit == FU_SECONDS && v->kind == FK_NUM && v->text == NULL)
        fit_duration(v->num, it->value, sizeof it->value, vw);
    else
        figure_format(row, v, it->value, sizeof it->value);
}

/* The items of COMPUTE_FIGURES the panel shows (step_bar_gone: the predicted step's own,
 * else those the list's when shows), at most max, in vw value cells each, all taken from the
 * report at once; returns how many. */
static int compute_take(const struct dash *d, bool step_bar_gone, int max, int vw,
                        struct item *it)
{
    struct figure_pick pick[N_COMPUTE_FIGURES] = {{NULL, 0}};
    int idx[N_COMPUTE_FIGURES], k = 0;
    for (int i = 0; i < N_COMPUTE_FIGURES && k < max; i++) {
        enum panel_when w = COMPUTE_FIGURES[i].when;
        bool wanted = step_bar_gone ? w == PW_NO_STEP_BAR : panel_shows(d, w);
        if (wanted && compute_row(i) != NULL) {
            pick[k] = (struct figure_pick){compute_row(i), 0};
            idx[k++] = i;
        }
    }
    struct figure_value v[N_COMPUTE_FIGURES];
    bool shown[N_COMPUTE_FIGURES];
    report_figures(&d->ev, pick, k, v, shown);
    int n = 0;
    for (int j = 0; j < k; j++)
        if (shown[j])
            compute_item(idx[j], &v[j], vw, &it[n++]);
    return n;
}

/* The compute panel's figures, LAYOUT_COMPUTE_FIGURES at most (layout.c sizes the panel for
 * that many), the most needed first; returns how many. */
static int compute_items(const struct dash *d, struct item *it)
{
    const int vw = LAYOUT_ITEM_WIDTH - 9 - 2; /* value cells of an item (see draw_items) */
    return compute_take(d, false, LAYOUT_COMPUTE_FIGURES, vw, it);
}

/* The cells of an item's change from the pinned scenario ("+143.9 days" at the most). */
#define ITEM_DELTA_W 11

/* Pinned (x): the figures with a change to show first, in their order (those without give
 * way at the end). */
static void items_keyed_first(struct item *it, int n)
{
    struct item t[LAYOUT_COMPUTE_FIGURES];
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n && k < LAYOUT_COMPUTE_FIGURES; i++)
            if ((it[i].key != NULL) == (pass == 0))
                t[k++] = it[i];
    memcpy(it, t, (size_t)k * sizeof it[0]);
}

/* The items in rows from top, per_row to a row of iw cells; with deltas, each figure's
 * change from the pinned scenario after its value (none where it would not fit whole). */
static void draw_items(const struct dash *d, struct screen *s, struct rect r, const struct item *it,
                       int n, int top, int rows, int per_row, int iw, bool deltas)
{
    const int lw = 9, vend = LAYOUT_ITEM_WIDTH - 1;
    for (int i = 0; i < n && i / per_row < rows; i++) {
        int x = r.x + 1 + (i % per_row) * iw, y = top + i / per_row;
        screen_label(s, x, y, lw, it[i].label, E_LABEL);
        screen_text_right(s, x + vend, y, LAYOUT_ITEM_WIDTH - lw - 2, it[i].value, it[i].elem);
        char dl[48];
        int del;
        if (deltas && it[i].key != NULL &&
            compare_view_delta(&d->cmp, it[i].key, dl, sizeof dl, &del) &&
            screen_width(dl) <= ITEM_DELTA_W)
            screen_text_right(s, x + vend + 1 + ITEM_DELTA_W, y, ITEM_DELTA_W, dl, del);
    }
}

void compute_panel_draw(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    const struct prediction *pred = &d->ev.pred;
    struct item it[LAYOUT_COMPUTE_FIGURES];
    int n = compute_items(d, it);
    char right[64];
    snprintf(right, sizeof right, "%s", d->sc.flops_mode == FLOPS_6ND ? "6ND" : "per op");
    widget_header(s, &d->cs, r, "Compute and time", right, focused);
    /* Pinned (x), where two figures with their changes fit in a row: each figure's change
     * after it, those that have one first; else the figures alone. */
    int iw = LAYOUT_ITEM_WIDTH;
    bool deltas = d->cmp.on && (r.w - 1) / (iw + ITEM_DELTA_W + 1) >= 2;
    if (deltas) {
        iw = (r.w - 1) / ((r.w - 1) / (iw + ITEM_DELTA_W + 1));
        items_keyed_first(it, n);
    }
    int per_row = (r.w - 1) / iw;
    if (per_row < 1)
        per_row = 1;
    int rows = r.h - 1, top = r.y + 1;
    /* The predicted step's bar first, with at least the first two rows of figures under
     * it (the last figures, the least needed, give way); in a smaller panel its two figures
     * take the places of the last two. */
    /* A lecture step shows the lecture's accounting alone: no predicted step. */
    if (lecture_view_step(d) != NULL) {
    } else if (rows - 2 >= 2 || rows - 2 >= (n + per_row - 1) / per_row) {
        draw_step_bar(d, s, r.x + 1, top, r.w - 2, pred);
        top += 2;
        rows -= 2;
    } else if (n >= 3) {
        /* Right after the time: the last two figures give way. */
        memmove(&it[3], &it[1], (size_t)(n - 3) * sizeof it[0]);
        struct item p[2] = {{.label = "", .elem = E_DIM}, {.label = "", .elem = E_DIM}};
        (void)compute_take(d, true, 2, LAYOUT_ITEM_WIDTH - 11, p);
        memcpy(&it[1], p, sizeof p);
    }
    draw_items(d, s, r, it, n, top, rows, per_row, iw, deltas);
}
