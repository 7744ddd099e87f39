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
    const struct figure *row;       /* its row of the report's table (NULL: a blank item) */
    const struct figure_value *v;   /* its value, formatted only where it is drawn */
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

/* The step bar's figures: rows of the report's table (src/report.c), looked up once; the
 * breakdown's three columns are taken for each part. */
enum { SH_STEP, SH_MFU, SH_ASSUMED, SH_BRIEF, SH_SECONDS, SH_SHARE, SH_KEYS };
enum { SH_PART_COLS = SH_KEYS - SH_BRIEF, SH_PICKS = SH_BRIEF + PART_COUNT * SH_PART_COLS };
static const char *const STEP_KEYS[SH_KEYS] = {
    [SH_STEP] = "time.predicted.step_seconds",
    [SH_MFU] = "time.predicted.mfu",
    [SH_ASSUMED] = "time.mfu",
    [SH_BRIEF] = "time.predicted.breakdown[].brief",
    [SH_SECONDS] = "time.predicted.breakdown[].seconds",
    [SH_SHARE] = "time.predicted.breakdown[].share",
};

/* The predicted step as the report gives it: its parts' seconds, and its headline's step,
 * MFU and assumed MFU (labels "step" and "MFU" the report's), then each part of at least
 * 0.5% by its brief name and share. */
struct step_head {
    double part[PART_COUNT], step;
    const char *step_label, *mfu_label;
    char t[32], mfu[32], assumed[32], parts[160];
};

static bool step_head_of(const struct dash *d, struct step_head *h)
{
    static const struct figure *rows[SH_KEYS];
    struct figure_pick pick[SH_PICKS];
    struct figure_value v[SH_PICKS];
    bool shown[SH_PICKS];
    if (!figure_picks_once(report_table(), STEP_KEYS, SH_KEYS, rows, pick))
        return false;
    for (int k = 0; k < PART_COUNT; k++)
        for (int c = 0; c < SH_PART_COLS; c++)
            pick[SH_BRIEF + k * SH_PART_COLS + c] = (struct figure_pick){rows[SH_BRIEF + c], k};
    report_figures(&d->ev, pick, SH_PICKS, v, shown);
    h->step = v[SH_STEP].num;
    h->step_label = rows[SH_STEP]->label;
    h->mfu_label = rows[SH_MFU]->label;
    figure_format(rows[SH_STEP], &v[SH_STEP], h->t, sizeof h->t);
    figure_format_brief(rows[SH_MFU], &v[SH_MFU], h->mfu, sizeof h->mfu);
    figure_format_brief(rows[SH_ASSUMED], &v[SH_ASSUMED], h->assumed, sizeof h->assumed);
    h->parts[0] = '\0';
    int n = 0;
    for (int k = 0; k < PART_COUNT; k++) {
        const struct figure_value *pv = &v[SH_BRIEF + k * SH_PART_COLS];
        h->part[k] = pv[SH_SECONDS - SH_BRIEF].num;
        if (!(h->part[k] > 0 && h->part[k] >= 0.005 * h->step) || n < 0 ||
            (size_t)n >= sizeof h->parts)
            continue;
        char share[16];
        figure_format_brief(rows[SH_SHARE], &pv[SH_SHARE - SH_BRIEF], share, sizeof share);
        n += snprintf(h->parts + n, sizeof h->parts - (size_t)n, " %s %s",
                      pv[0].kind == FK_STR ? pv[0].str : "?", share);
    }
    return true;
}

/*
 * The predicted step as a bar of w cells stacked by its parts (every non-zero part at least
 * one cell, largest remainders after), and under it each part's share with the predicted
 * MFU beside the assumed one. Two rows at y.
 */
static void draw_step_bar(const struct dash *d, struct screen *s, int x, int y, int w)
{
    struct step_head h;
    if (!step_head_of(d, &h))
        return;
    int cells[PART_COUNT];
    widget_bar_split(h.part, PART_COUNT, h.step, h.step, w, cells);
    int cx = x;
    for (int k = 0; k < PART_COUNT; k++)
        for (int i = 0; i < cells[k]; i++)
            screen_put(s, cx++, y, d->theme.color ? d->cs.bar : (uint32_t)step_look[k].ascii,
                       step_look[k].elem);
    /* Pinned (x): the step's change after it, "vs pinned" where the whole line fits so. */
    char dl[48] = "", vs[3][64] = {"", "", ""}, line[3][400];
    int del = E_DIM;
    if (compare_view_delta(&d->cmp, "time.predicted.step_seconds", dl, sizeof dl, &del)) {
        snprintf(vs[0], sizeof vs[0], " (%s vs pinned)", dl);
        snprintf(vs[1], sizeof vs[1], " (%s)", dl);
    }
    int pick = 2;
    for (int k = 0; k < 3; k++) {
        snprintf(line[k], sizeof line[k], "%s %s%s  %s %s (assumed %s):%s", h.step_label, h.t,
                 vs[k], h.mfu_label, h.mfu, h.assumed, h.parts);
        if (pick == 2 && k < 2 && vs[k][0] && screen_width(line[k]) <= w)
            pick = k;
    }
    screen_label(s, x, y + 1, w, line[pick], E_NORMAL);
    if (pick < 2) {
        /* The change in its colour: more time is worse. */
        int at = x + screen_width(h.step_label) + 1 + screen_width(h.t) + 2;
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

/* The value cells of an item (see draw_items). */
#define ITEM_VALUE_W (LAYOUT_ITEM_WIDTH - 9 - 2)

/* Figure i of COMPUTE_FIGURES with its value v (kept, not copied: it is formatted where the
 * item is drawn) as an item. */
static void compute_item(int i, const struct figure_value *v, struct item *it)
{
    const struct figure *row = compute_row(i);
    it->label = figure_brief(row);
    it->row = row;
    it->v = v;
    it->key = COMPUTE_FIGURES[i].delta ? COMPUTE_FIGURES[i].key : NULL;
    it->elem = v->kind == FK_NULL ? E_DIM : COMPUTE_FIGURES[i].elem;
}

/* An item's value as the report writes it in at most ITEM_VALUE_W cells: a duration too long
 * for them (a slow measured MFU gives years) is shortened; "" for a blank item. */
static void item_value(const struct item *it, char *buf, size_t n)
{
    if (it->row == NULL)
        buf[0] = '\0';
    else if (it->row->unit == FU_SECONDS && it->v->kind == FK_NUM && it->v->text == NULL)
        fit_duration(it->v->num, buf, n, ITEM_VALUE_W);
    else
        figure_format(it->row, it->v, buf, n);
}

/* The items of COMPUTE_FIGURES the panel shows (step_bar_gone: the predicted step's own,
 * else those the list's when shows), at most max, their values all taken from the report at
 * once into v[0..max-1]; returns how many. */
static int compute_take(const struct dash *d, bool step_bar_gone, int max,
                        struct figure_value *v, struct item *it)
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
    bool shown[N_COMPUTE_FIGURES];
    report_figures(&d->ev, pick, k, v, shown);
    int n = 0;
    for (int j = 0; j < k; j++)
        if (shown[j])
            compute_item(idx[j], &v[j], &it[n++]);
    return n;
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
        char value[32];
        item_value(&it[i], value, sizeof value);
        screen_text_right(s, x + vend, y, LAYOUT_ITEM_WIDTH - lw - 2, value, it[i].elem);
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
    /* The figures, the most needed first; LAYOUT_COMPUTE_FIGURES at most (layout.c sizes
     * the panel for that many), of which those that fit are formatted and drawn. */
    struct item it[LAYOUT_COMPUTE_FIGURES];
    struct figure_value v[LAYOUT_COMPUTE_FIGURES], pv[2];
    int n = compute_take(d, false, LAYOUT_COMPUTE_FIGURES, v, it);
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
        draw_step_bar(d, s, r.x + 1, top, r.w - 2);
        top += 2;
        rows -= 2;
    } else if (n >= 3) {
        /* Right after the time: the last two figures give way. */
        memmove(&it[3], &it[1], (size_t)(n - 3) * sizeof it[0]);
        struct item p[2] = {{.label = "", .elem = E_DIM}, {.label = "", .elem = E_DIM}};
        (void)compute_take(d, true, 2, pv, p);
        memcpy(&it[1], p, sizeof p);
    }
    draw_items(d, s, r, it, n, top, rows, per_row, iw, deltas);
}
