/* ops.c - the operations view: the model's operations (or the lecture's five) as the
 * roofline places them and the operations table lists them. */
#include "ops.h"

#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "infer_report.h"
#include "report.h"
#include "roofline.h"
#include "theme.h"
#include "units.h"
#include "widgets.h"

void ops_roof(const struct dash *d, struct view_roof *out)
{
    if (d->inf.on) {
        out->gpu = &d->inf.ev.sc.gpu;
        out->dtype = d->inf.ev.sc.dtype;
        out->peak = d->inf.ev.serving.peak;
        out->bandwidth = d->inf.ev.serving.bandwidth;
        out->ridge = d->inf.ev.serving.ridge;
        return;
    }
    out->gpu = &d->sc.gpu;
    out->dtype = d->sc.dtype;
    out->peak = d->ev.an.roofline.peak;
    out->bandwidth = d->ev.an.roofline.bandwidth;
    out->ridge = d->ev.an.roofline.ridge;
}

/* An analysed operation as the views show it, marked key and called name. */
static void view_of(struct view_op *o, const struct op *op, char key, const char *name)
{
    o->key = key;
    o->name = name;
    o->flops = op->flops;
    o->bytes = op->bytes;
    o->intensity = op->intensity;
    o->attainable = op->attainable;
    o->seconds = op->seconds;
    o->compute_bound = op->compute_bound;
}

/* Names of the inference view's operations, by phase and kind; a letter each kind. */
_Static_assert(OP_KIND_COUNT <= 26, "one letter per operation kind");
static const char *const phase_names[2][OP_KIND_COUNT] = {
    {[OP_NORM] = "P norm", [OP_QKV] = "P qkv", [OP_ROPE] = "P rope", [OP_SCORES] = "P scores",
     [OP_SOFTMAX] = "P softmax", [OP_ATTN_V] = "P attn_v", [OP_FLASH_ATTN] = "P attention",
     [OP_OUT_PROJ] = "P out_proj", [OP_RESIDUAL] = "P residual", [OP_ROUTER] = "P router",
     [OP_MLP_UP] = "P mlp_up", [OP_MLP_GATE] = "P mlp_gate", [OP_ACT] = "P act",
     [OP_MLP_DOWN] = "P mlp_down", [OP_FINAL_NORM] = "P final_norm", [OP_LM_HEAD] = "P lm_head",
     [OP_LOSS] = "P loss", [OP_OPTIMIZER] = "P optimizer"},
    {[OP_NORM] = "D norm", [OP_QKV] = "D qkv", [OP_ROPE] = "D rope", [OP_SCORES] = "D scores",
     [OP_SOFTMAX] = "D softmax", [OP_ATTN_V] = "D attn_v", [OP_FLASH_ATTN] = "D attention",
     [OP_OUT_PROJ] = "D out_proj", [OP_RESIDUAL] = "D residual", [OP_ROUTER] = "D router",
     [OP_MLP_UP] = "D mlp_up", [OP_MLP_GATE] = "D mlp_gate", [OP_ACT] = "D act",
     [OP_MLP_DOWN] = "D mlp_down", [OP_FINAL_NORM] = "D final_norm", [OP_LM_HEAD] = "D lm_head",
     [OP_LOSS] = "D loss", [OP_OPTIMIZER] = "D optimizer"},
};

/* Prefill's and decode's operations that take at least 1% of their phase's time (the
 * norms, RoPE and residuals of a big model would only crowd the plot). An operation's
 * letter is its kind's, capital in prefill (B: P qkv, b: D qkv), so that it stays the same
 * whatever else the 1% leaves out at another batch size or prompt, and a point can be
 * followed up the roofline. */
static int infer_ops(const struct dash *d, struct view_op *out, int max)
{
    const struct infer_phase *ph[2] = {&d->inf.ev.serving.prefill, &d->inf.ev.serving.decode};
    int n = 0;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < ph[p]->n_ops && n < max; i++) {
            const struct op *op = &ph[p]->ops[i];
            if (!(op->flops > 0) || !(op->bytes > 0) || op->seconds < 0.01 * ph[p]->compute_seconds)
                continue;
            bool known = (unsigned)op->kind < OP_KIND_COUNT;
            view_of(&out[n], op, known ? (char)((p == 0 ? 'A' : 'a') + (int)op->kind) : '?',
                    known ? phase_names[p][op->kind] : op->name);
            n++;
        }
    return n;
}

int ops_list(const struct dash *d, struct view_op *out, int max)
{
    const struct analysis *a = &d->ev.an;
    int n = 0;
    if (d->inf.on)
        return infer_ops(d, out, max);
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
    /* The letter of the operation's kind, as in the serving view (qkv is b in both): it
     * stays whichever others are listed (FlashAttention in place of scores, softmax and
     * attn_v, a MoE's router). */
    for (int i = 0; i < a->n_ops && n < max; i++) {
        const struct op *op = &a->ops[i];
        if (!(op->flops > 0) || !(op->bytes > 0))
            continue;
        bool known = (unsigned)op->kind < OP_KIND_COUNT;
        view_of(&out[n], op, known ? (char)('a' + (int)op->kind) : '?', op->name);
        n++;
    }
    return n;
}

static int cmp_seconds(const void *x, const void *y)
{
    const struct view_op *a = x, *b = y;
    return a->seconds < b->seconds ? 1 : a->seconds > b->seconds ? -1 : a->key - b->key;
}

/* The measured seconds per step of the analysis op named name, or -1. */
static double op_measured(const struct dash *d, const char *name)
{
    for (int k = 0; k < d->ev.an.n_ops && k < d->ev.meas.n_ops; k++)
        if (d->ev.an.ops[k].name && name && strcmp(d->ev.an.ops[k].name, name) == 0)
            return d->ev.meas.op_seconds[k];
    return -1;
}

bool ops_ridge(const struct dash *d, char *num, size_t n, const char **label)
{
    static const char *const key[] = {"roofline.ridge"};
    static const struct figure *train[1], *serve[1];
    struct figure_value v;
    bool ok = d->inf.on ? infer_report_figures_by_key(&d->inf.ev.sc, &d->inf.ev.serving, key, 1,
                                                      serve, &v)
                        : report_figures_by_key(&d->ev, key, 1, train, &v);
    if (!ok)
        return false;
    const struct figure *row = d->inf.on ? serve[0] : train[0];
    figure_format(row, &v, num, n);
    *label = figure_brief(row);
    return true;
}

/* The table's figures at its header's right: the training step's sum and, with pipeline
 * stages, the busiest stage's layers and whether it holds the LM head; serving: the
 * operations' sums of prefill and of a decode step. */
enum { OH_SUM, OH_LAYERS, OH_HEAD, OH_COUNT };
static const char *const OPS_HEAD_KEYS[OH_COUNT] = {
    [OH_SUM] = "roofline.step_seconds", [OH_LAYERS] = "roofline.stage_layers",
    [OH_HEAD] = "roofline.stage_lm_head"};
static const char *const SERVING_HEAD_KEYS[2] = {"prefill.compute_seconds",
                                                 "decode.compute_seconds"};

/* The header's right ("sum 1.89 s", "P 44.4 ms, D 4.78 ms") and title, of the report's rows. */
static bool ops_header_text(const struct dash *d, char *rt, size_t rn, char *title, size_t tn)
{
    static const struct figure *rows[OH_COUNT], *serve[2];
    struct figure_value v[OH_COUNT];
    char a[32], b[32];
    if (d->inf.on) {
        if (!infer_report_figures_by_key(&d->inf.ev.sc, &d->inf.ev.serving, SERVING_HEAD_KEYS, 2,
                                         serve, v))
            return false;
        figure_format(serve[0], &v[0], a, sizeof a);
        figure_format(serve[1], &v[1], b, sizeof b);
        snprintf(rt, rn, "P %s, D %s", a, b);
        snprintf(title, tn, "Prefill (P) and a decode step (D), one GPU");
        return true;
    }
    if (!report_figures_by_key(&d->ev, OPS_HEAD_KEYS, OH_COUNT, rows, v))
        return false;
    figure_format(rows[OH_SUM], &v[OH_SUM], a, sizeof a);
    snprintf(rt, rn, "sum %s", a);
    /* With pipeline stages the table is one GPU of the busiest one (flops_ops). */
    if (d->sc.pp > 1)
        snprintf(title, tn, "Ops per step, one GPU: %.0f layers%s", v[OH_LAYERS].num,
                 v[OH_HEAD].kind == FK_BOOL && v[OH_HEAD].b ? " + head" : "");
    else
        snprintf(title, tn, "Operations per step, one GPU");
    return true;
}

/* The table's title and the sum (or prefill's and decode's times) at its right. */
static void ops_header(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    char rt[80], title[96];
    if (!ops_header_text(d, rt, sizeof rt, title, sizeof title))
        return;
    bool lecture = d->lecture_ops && !d->inf.on;
    widget_header(s, &d->cs, r, lecture ? "The lecture's operations" : title,
                  lecture ? NULL : rt, focused);
}

/* The columns shown and where each starts. */
struct ops_cols {
    bool meas, bytes, flops, intensity;
    int x0, xn, xf, xb, xi, xbd, xt, xm; /* key, name, FLOPs, bytes, FLOP/B, bound, time,
                                            measured */
};

/* Columns, dropped right to left when narrow: key+name, time, bound, measured time (when
 * points match the scenario's GEMMs), FLOP/B, FLOPs, bytes. */
static void ops_columns(const struct dash *d, struct rect r, struct ops_cols *c)
{
    bool has_meas = !d->lecture_ops && !d->inf.on && d->ev.meas.n_ops_measured > 0;
    c->meas = has_meas && r.w >= 42;
    int mw = c->meas ? 9 : 0;
    c->bytes = r.w >= 62 + mw;
    c->flops = r.w >= 52 + mw;
    c->intensity = r.w >= 38 + mw;
    c->x0 = r.x + 1;
    c->xn = c->x0 + 2;
    c->xf = c->xn + 12;
    c->xb = c->xf + (c->flops ? 9 : 0);
    c->xi = c->xb + (c->bytes ? 9 : 0);
    c->xbd = c->xi + (c->intensity ? 8 : 0);
    c->xt = c->xbd + 8;
    c->xm = c->xt + 9;
}

/* The table's columns are the report's operations columns (src/report.c): their labels head
 * the table and their units write its cells, so the panel and `rooftop report` show an
 * operation alike. */
enum ops_col { OC_NAME, OC_FLOPS, OC_BYTES, OC_INTENSITY, OC_BOUND, OC_TIME, OC_MEASURED, OC_N };

static const struct figure *ops_col(enum ops_col k)
{
    static const char *const keys[OC_N] = {
        "ops[].name",  "ops[].flops",   "ops[].bytes",           "ops[].intensity",
        "ops[].bound", "ops[].seconds", "ops[].measured_seconds"};
    static const struct figure *row[OC_N];
    return figure_find_once(report_table(), keys[k], &row[k]);
}

static const char *ops_head(enum ops_col k)
{
    const struct figure *f = ops_col(k);
    return f != NULL ? figure_brief(f) : "?";
}

/* A number of column k as the report writes it. */
static void ops_cell(enum ops_col k, double x, char *buf, size_t n)
{
    const struct figure *f = ops_col(k);
    struct figure_value v = {.kind = FK_NUM, .num = x};
    if (f != NULL)
        figure_format(f, &v, buf, n);
    else
        snprintf(buf, n, "?");
}

static void ops_column_heads(struct screen *s, const struct ops_cols *c, int y)
{
    screen_text(s, c->xn, y, 11, ops_head(OC_NAME), E_DIM);
    if (c->flops)
        screen_text_right(s, c->xf + 8, y, 8, ops_head(OC_FLOPS), E_DIM);
    if (c->bytes)
        screen_text_right(s, c->xb + 8, y, 8, ops_head(OC_BYTES), E_DIM);
    if (c->intensity)
        screen_text_right(s, c->xi + 7, y, 7, ops_head(OC_INTENSITY), E_DIM);
    screen_text(s, c->xbd + 1, y, 7, ops_head(OC_BOUND), E_DIM);
    screen_text_right(s, c->xt + 8, y, 8, ops_head(OC_TIME), E_DIM);
    if (c->meas)
        screen_text_right(s, c->xm + 8, y, 8, ops_head(OC_MEASURED), E_DIM);
}

static void ops_row(const struct dash *d, struct screen *s, const struct ops_cols *c,
                    const struct view_op *o, int y)
{
    int el = o->compute_bound ? E_COMPBOUND : E_MEMBOUND;
    char b[32];
    screen_put(s, c->x0, y, (uint32_t)o->key, el);
    screen_label(s, c->xn, y, 11, o->name, E_NORMAL);
    if (c->flops) {
        ops_cell(OC_FLOPS, o->flops, b, sizeof b);
        screen_text_right(s, c->xf + 8, y, 8, b, E_NORMAL);
    }
    if (c->bytes) {
        ops_cell(OC_BYTES, o->bytes, b, sizeof b);
        screen_text_right(s, c->xb + 8, y, 8, b, E_NORMAL);
    }
    if (c->intensity) {
        ops_cell(OC_INTENSITY, o->intensity, b, sizeof b);
        screen_text_right(s, c->xi + 7, y, 7, b, E_VALUE);
    }
    screen_text(s, c->xbd + 1, y, 7, o->compute_bound ? "compute" : "memory", el);
    ops_cell(OC_TIME, o->seconds, b, sizeof b);
    screen_text_right(s, c->xt + 8, y, 8, b, E_NORMAL);
    if (c->meas) {
        double ms = op_measured(d, o->name);
        if (ms >= 0)
            ops_cell(OC_MEASURED, ms, b, sizeof b);
        screen_text_right(s, c->xm + 8, y, 8, ms >= 0 ? b : "-", ms >= 0 ? E_VALUE : E_DIM);
    }
}

/* Below a table that does not fit: which rows these are, the time of the others and how to
 * scroll, and the arrows at the right edge. */
static void ops_more_line(const struct dash *d, struct screen *s, struct rect r,
                          const struct ops_cols *c, const struct view_op *ops, int n, int top,
                          int rows, int y, bool focused)
{
    char more[192], rest[32];
    int last = top + rows < n ? top + rows : n;
    /* The rows not shown take the rest of the header's sum: with it the times on
     * screen add up to the sum (issue 18), where the line has room for it. */
    double hidden = 0;
    for (int i = 0; i < n; i++)
        if (i < top || i >= last)
            hidden += ops[i].seconds;
    units_duration(hidden, rest, sizeof rest);
    const char *arrows = d->cs.utf8 ? "\xE2\x86\x90\xE2\x86\x92" : "<>";
    snprintf(more, sizeof more, "%d-%d of %d by time (the other %d: %s), %s%s scroll", top + 1,
             last, n, n - (last - top), rest, focused ? "" : "t then ", arrows);
    if (screen_width(more) > r.w - 3)
        snprintf(more, sizeof more, "%d-%d of %d by time, %s%s scroll", top + 1, last, n,
                 focused ? "" : "t then ", arrows);
    screen_label(s, c->xn, y, r.w - 3, more, E_DIM);
    if (top > 0)
        screen_put(s, r.x + r.w - 1, r.y + 2, '^', E_DIM);
    if (last < n)
        screen_put(s, r.x + r.w - 1, y - 1, 'v', E_DIM);
}

void ops_draw(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    struct view_op ops[OPS_MAX];
    int n = ops_list(d, ops, OPS_MAX);
    ops_header(d, s, r, focused);
    struct ops_cols c;
    ops_columns(d, r, &c);
    int y = r.y + 1;
    if (y >= r.y + r.h)
        return;
    int rows = r.y + r.h - y - 1;
    bool truncated = n > rows;
    int top = 0;
    if (truncated) {
        /* Not all fit: costliest first, from the row scrolled to, and a line saying which
         * rows these are and how to see the others. */
        qsort(ops, (size_t)n, sizeof ops[0], cmp_seconds);
        rows--;
        top = d->ops_top < n - rows ? d->ops_top : n - rows;
        if (top < 0)
            top = 0;
    }
    ops_column_heads(s, &c, y);
    y++;
    for (int i = 0; top + i < n && i < rows; i++, y++)
        ops_row(d, s, &c, &ops[top + i], y);
    if (truncated && y < r.y + r.h)
        ops_more_line(d, s, r, &c, ops, n, top, rows, y, focused);
}
