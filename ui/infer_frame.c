/* infer_frame.c - the inference view's frame: its sliders, the memory bar of weights, KV
 * cache and activations, the latency and throughput panel, and the roofline and operations
 * table of prefill and decode (the same panels the training view draws them with). */
#include "infer_frame.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure.h"
#include "infer_report.h"
#include "keymap.h"
#include "ops.h"
#include "plot.h"
#include "units.h"
#include "widgets.h"

void infer_frame_layout(const struct dash *d, int cols, int rows, struct layout *L)
{
    struct view_op ops[OPS_MAX];
    struct layout_opts o = {dash_caption_rows(d, cols), d->show_ops, IS_COUNT,
                            ops_list(d, ops, OPS_MAX)};
    layout_compute(cols, rows, &o, L);
}

/* The serving view's figures: rows of the serving report's table (src/infer_report.c),
 * looked up once and taken at once for a frame. */
enum { IF_TTFT, IF_TPOT, IF_TOTAL, IF_FITS, IF_CAPACITY, IF_CAP_SHARE, IF_MAX_BATCH,
       IF_KV_TOKEN, IF_WEIGHTS, IF_KV, IF_ACT, IF_WEIGHTS_SHARE, IF_KV_SHARE, IF_ACT_SHARE,
       IF_EFF, IF_COMPUTE_EFF, IF_MEMORY_EFF, IF_COUNT };
static const char *const SERVING_KEYS[IF_COUNT] = {
    [IF_TTFT] = "latency.ttft",
    [IF_TPOT] = "latency.tpot",
    [IF_TOTAL] = "memory.total",
    [IF_FITS] = "memory.fits",
    [IF_CAPACITY] = "memory.capacity",
    [IF_CAP_SHARE] = "memory.capacity_share",
    [IF_MAX_BATCH] = "max_batch",
    [IF_KV_TOKEN] = "kv.bytes_per_token",
    [IF_WEIGHTS] = "memory.weights",
    [IF_KV] = "memory.kv_cache",
    [IF_ACT] = "memory.activations",
    [IF_WEIGHTS_SHARE] = "memory.weights_share",
    [IF_KV_SHARE] = "memory.kv_cache_share",
    [IF_ACT_SHARE] = "memory.activations_share",
    [IF_EFF] = "header.efficiency",
    [IF_COMPUTE_EFF] = "scenario.compute_eff",
    [IF_MEMORY_EFF] = "scenario.memory_eff",
};

/* Those figures: each row, its value and its text as a panel writes it (figure_format_brief). */
struct serving_figures {
    const struct figure *row[IF_COUNT];
    struct figure_value v[IF_COUNT];
    char f[IF_COUNT][32];
    bool fits;
};

static bool serving_figures(const struct dash *d, struct serving_figures *sf)
{
    static const struct figure *rows[IF_COUNT];
    if (!infer_report_figures_by_key(&d->inf.ev.sc, &d->inf.ev.serving, SERVING_KEYS, IF_COUNT,
                                     rows, sf->v))
        return false;
    for (int i = 0; i < IF_COUNT; i++) {
        sf->row[i] = rows[i];
        figure_format_brief(rows[i], &sf->v[i], sf->f[i], sizeof sf->f[i]);
    }
    sf->fits = sf->v[IF_FITS].kind == FK_BOOL && sf->v[IF_FITS].b;
    return true;
}

static void draw_title(const struct dash *d, struct screen *s, struct rect r,
                       const struct serving_figures *sf)
{
    const struct scenario *sc = &d->inf.ev.sc;
    char model[96], hw[96], prec[64], mem[64];
    snprintf(model, sizeof model, "serving %s", sc->model.id[0] ? sc->model.id : sc->model.name);
    snprintf(hw, sizeof hw, "tp %lld %s %s", (long long)sc->tp, d->cs.times,
             sc->gpu.id[0] ? sc->gpu.id : sc->gpu.name);
    snprintf(prec, sizeof prec, "w %s kv %s", dtype_name(infer_weights_dtype(sc)),
             dtype_name(infer_kv_dtype(sc)));
    char lat[96];
    snprintf(lat, sizeof lat, "%s %s %s %s", figure_brief(sf->row[IF_TTFT]), sf->f[IF_TTFT],
             figure_brief(sf->row[IF_TPOT]), sf->f[IF_TPOT]);
    snprintf(mem, sizeof mem, "%s/GPU %s", sf->f[IF_TOTAL], sf->fits ? "fits" : "DOES NOT FIT");
    const char *const seg[] = {"rooftop", model, hw, prec, lat, mem};
    widget_title_bar(s, &d->cs, r, seg, sf->fits);
}

static void draw_sliders(const struct dash *d, struct screen *s, struct rect r)
{
    const struct infer_ui *u = &d->inf;
    char right[32];
    snprintf(right, sizeof right, "%d/%d", u->focus + 1, IS_COUNT);
    widget_header(s, &d->cs, r, "Serving", right, false);
    struct slider_geom g;
    layout_sliders(r, u->focus, IS_COUNT, &g);
    for (int i = 0; i < g.count; i++) {
        int id = g.first + i, y = g.y0 + i;
        char v[64];
        infer_ui_format(u, id, v, sizeof v);
        widget_slider_row(s, &d->cs, r, y, infer_ui_name(id), LAYOUT_NAME_W, g.track_x, g.track_w,
                          infer_ui_position(u, &d->presets, id), v, LAYOUT_VALUE_W,
                          id == u->focus);
    }
    if (g.first > 0)
        screen_put(s, r.x, g.y0, '^', E_DIM);
    if (g.first + g.count < IS_COUNT)
        screen_put(s, r.x, g.y0 + g.count - 1, 'v', E_DIM);
}

enum { PART_W, PART_KV, PART_ACT, PART_N };

/* The memory bar at y: the parts against the larger of capacity and need. */
static void draw_memory_bar(const struct dash *d, struct screen *s, struct rect r, int y,
                            const struct serving_figures *sf)
{
    /* The training view's colours: weights as parameters, the cache as gradients (the other
     * per-token state), activations as activations. */
    static const int elem[PART_N] = {E_PARAMS, E_GRADS, E_ACTIVATIONS};
    static const int glyph[PART_N] = {MEM_PARAMS, MEM_GRADS, MEM_ACTIVATIONS};
    const double total = sf->v[IF_TOTAL].num, capacity = sf->v[IF_CAPACITY].num;
    const double scale = total > capacity ? total : capacity;
    const int bw = r.w - 2;
    int x = r.x + 1;
    for (int i = 0; i < PART_N; i++) {
        double part = sf->v[IF_WEIGHTS + i].num;
        int cells = scale > 0 ? (int)lround(part / scale * bw) : 0;
        if (part > 0 && cells == 0)
            cells = 1;
        for (int k = 0; k < cells && x < r.x + 1 + bw; k++)
            screen_put(s, x++, y, d->theme.color ? d->cs.bar : d->cs.part[glyph[i]], elem[i]);
    }
    while (x < r.x + 1 + bw)
        screen_put(s, x++, y, d->cs.free_mem, E_DIM);
    int capx = r.x + 1 + (int)lround(scale > 0 ? capacity / scale * bw : 0);
    if (capx > r.x + bw)
        capx = r.x + bw;
    screen_put(s, capx, y, d->cs.cap_mark, sf->fits ? E_CAPACITY : E_OVER);
}

/* The parts from y, each by its row's label with its dtype, bytes and share; then the KV
 * cache per token and the tokens it holds. */
static void draw_memory_parts(const struct dash *d, struct screen *s, struct rect r, int y,
                              const struct serving_figures *sf)
{
    static const int elem[PART_N] = {E_PARAMS, E_GRADS, E_ACTIVATIONS};
    static const int glyph[PART_N] = {MEM_PARAMS, MEM_GRADS, MEM_ACTIVATIONS};
    const struct scenario *sc = &d->inf.ev.sc;
    const enum dtype dt[PART_N] = {infer_weights_dtype(sc), infer_kv_dtype(sc), sc->dtype};
    for (int i = 0; i < PART_N && y < r.y + r.h; i++, y++) {
        screen_put(s, r.x + 1, y, d->theme.color ? d->cs.bar : d->cs.part[glyph[i]], elem[i]);
        screen_label(s, r.x + 3, y, 12, figure_brief(sf->row[IF_WEIGHTS + i]), E_NORMAL);
        screen_text_right(s, r.x + 3 + 12 + 8, y, 8, dtype_name(dt[i]), E_NORMAL);
        screen_text_right(s, r.x + 3 + 12 + 8 + 10, y, 9, sf->f[IF_WEIGHTS + i], E_VALUE);
        if (r.w >= 44)
            screen_text_right(s, r.x + 3 + 12 + 8 + 10 + 6, y, 5, sf->f[IF_WEIGHTS_SHARE + i],
                              E_NORMAL);
    }
    if (y < r.y + r.h) {
        char line[160];
        snprintf(line, sizeof line, "KV %s per token; %lld x %lld tokens", sf->f[IF_KV_TOKEN],
                 (long long)sc->batch, (long long)(sc->prompt + sc->generate));
        screen_text(s, r.x + 3, y, r.w - 4, line, E_DIM);
    }
}

static void draw_memory(const struct dash *d, struct screen *s, struct rect r,
                        const struct serving_figures *sf)
{
    const struct scenario *sc = &d->inf.ev.sc;
    char right[96];
    snprintf(right, sizeof right, "%s %s", sc->gpu.id[0] ? sc->gpu.id : sc->gpu.name,
             sf->f[IF_CAPACITY]);
    widget_header(s, &d->cs, r, "Memory per GPU", right, false);
    if (r.h < 2)
        return;
    draw_memory_bar(d, s, r, r.y + 1, sf);
    if (r.h < 3)
        return;
    char line[160];
    const char *tot = sf->f[IF_TOTAL], *cap = sf->f[IF_CAPACITY];
    const char *maxb = figure_brief(sf->row[IF_MAX_BATCH]);
    if (sf->fits)
        snprintf(line, sizeof line, "%s of %s (%s): fits; %s %s", tot, cap, sf->f[IF_CAP_SHARE],
                 maxb, sf->f[IF_MAX_BATCH]);
    else
        snprintf(line, sizeof line, "%s of %s: DOES NOT FIT; %s %s", tot, cap, maxb,
                 sf->f[IF_MAX_BATCH]);
    screen_text(s, r.x + 1, r.y + 2, r.w - 2, line, sf->fits ? E_OK : E_OVER);
    draw_memory_parts(d, s, r, r.y + 3, sf);
}

struct item {
    const char *label;
    char value[32];
    int elem;
};

/* The serving view's figures, each a row of the serving report's table (src/infer_report.c)
 * shown by its brief label with its value as `rooftop infer` writes it: the whole step's
 * intensities beside decode's QKV GEMM's (the one that grows with the batch; an operations
 * column, so its label is the panel's), and each phase's all-reduces, prefill's a part of
 * TTFT. */
static const struct {
    const char *key;
    int elem;
    const char *qkv_label; /* set: decode's QKV operation's value of this column */
} TIME_FIGURES[] = {
    {"latency.ttft", E_VALUE, NULL},
    {"latency.tpot", E_VALUE, NULL},
    {"throughput.tokens_per_s", E_VALUE, NULL},
    {"latency.tpot_last", E_NORMAL, NULL},
    {"latency.end_to_end", E_NORMAL, NULL},
    {"throughput.tokens_per_s_per_gpu", E_NORMAL, NULL},
    {"throughput.decode_tokens_per_s", E_NORMAL, NULL},
    {"prefill.intensity", E_NORMAL, NULL},
    {"decode.intensity", E_NORMAL, NULL},
    {"ops[].intensity", E_NORMAL, "D qkv I"},
    {"prefill.comm_seconds", E_NORMAL, NULL},
    {"decode.comm_seconds", E_NORMAL, NULL},
};
#define N_TIME_FIGURES ((int)(sizeof TIME_FIGURES / sizeof TIME_FIGURES[0]))

/* Decode's QKV operation's intensity (0 without one). */
static void decode_qkv(const struct infer_result *res, struct figure_value *v)
{
    *v = (struct figure_value){.kind = FK_NUM};
    for (int i = 0; i < res->decode.n_ops; i++)
        if (res->decode.ops[i].kind == OP_QKV)
            v->num = res->decode.ops[i].intensity;
}

/* The items of TIME_FIGURES, their rows looked up once and their values taken at once;
 * returns how many. */
static int time_items(const struct dash *d, struct item *it)
{
    static const struct figure *row[N_TIME_FIGURES];
    struct figure_pick pick[N_TIME_FIGURES] = {{NULL, 0}};
    int k = 0, idx[N_TIME_FIGURES];
    for (int i = 0; i < N_TIME_FIGURES; i++) {
        if (figure_find_once(infer_report_table(), TIME_FIGURES[i].key, &row[i]) != NULL) {
            pick[k] = (struct figure_pick){row[i], 0};
            idx[k++] = i;
        }
    }
    const struct infer_result *res = &d->inf.ev.serving;
    struct figure_value v[N_TIME_FIGURES];
    bool shown[N_TIME_FIGURES];
    infer_report_figures(&d->inf.ev.sc, res, pick, k, v, shown);
    int n = 0;
    for (int j = 0; j < k; j++) {
        const int i = idx[j];
        if (TIME_FIGURES[i].qkv_label != NULL)
            decode_qkv(res, &v[j]);
        else if (!shown[j])
            continue;
        it[n] = (struct item){.elem = TIME_FIGURES[i].elem};
        it[n].label = TIME_FIGURES[i].qkv_label != NULL ? TIME_FIGURES[i].qkv_label
                                                        : figure_brief(row[i]);
        figure_format(row[i], &v[j], it[n].value, sizeof it[n].value);
        n++;
    }
    return n;
}

static void draw_time(const struct dash *d, struct screen *s, struct rect r,
                      const struct serving_figures *sf)
{
    struct item it[N_TIME_FIGURES];
    int n = time_items(d, it);
    char right[128];
    snprintf(right, sizeof right, "%s %s / %s", figure_brief(sf->row[IF_EFF]),
             sf->f[IF_COMPUTE_EFF], sf->f[IF_MEMORY_EFF]);
    widget_header(s, &d->cs, r, "Latency and throughput", right, false);
    const int iw = LAYOUT_ITEM_WIDTH, lw = 12;
    int per_row = (r.w - 1) / iw;
    if (per_row < 1)
        per_row = 1;
    for (int i = 0; i < n && i / per_row < r.h - 1; i++) {
        int x = r.x + 1 + (i % per_row) * iw, y = r.y + 1 + i / per_row;
        screen_label(s, x, y, lw, it[i].label, E_LABEL);
        screen_text_right(s, x + iw - 1, y, iw - lw - 2, it[i].value, it[i].elem);
    }
}

/* The formula behind the focused slider's effect, with this scenario's numbers. */
static void draw_explain(const struct dash *d, struct screen *s, struct rect r)
{
    if (rect_empty(r))
        return;
    const struct infer_result *res = &d->inf.ev.serving;
    const struct scenario *sc = &d->inf.ev.sc;
    char line[320], by[32], bw[32], t[32];
    switch (d->inf.focus) {
    case IS_BATCH:
    case IS_WEIGHTS: {
        /* The bytes over the bandwidth is the floor; the step's operations take longer where
         * a GEMM is short or its math shows (src/infer.c prices each op). */
        double bwe = sc->gpu.bandwidth * res->memory_eff;
        char floor_t[32];
        units_bytes(res->decode.bytes, by, sizeof by);
        units_bandwidth(bwe, bw, sizeof bw);
        units_duration(bwe > 0 ? res->decode.bytes / bwe : 0, floor_t, sizeof floor_t);
        units_duration(res->decode.compute_seconds, t, sizeof t);
        snprintf(line, sizeof line, "decode step: weights once + %lld caches = %s / %s = %s; "
                 "its ops take %s (GEMM intensity ~ batch %lld)", (long long)sc->batch, by, bw,
                 floor_t, t, (long long)sc->batch);
        if (screen_width(line) > r.w - 2)
            snprintf(line, sizeof line, "decode step: weights once + %lld caches = %s / %s = "
                     "%s; its ops take %s", (long long)sc->batch, by, bw, floor_t, t);
        if (screen_width(line) > r.w - 2)
            snprintf(line, sizeof line, "decode: weights + %lld caches = %s / %s = %s; ops %s",
                     (long long)sc->batch, by, bw, floor_t, t);
        break;
    }
    case IS_KV:
    case IS_PROMPT:
    case IS_GENERATE:
        units_bytes(res->kv_bytes_per_token, by, sizeof by);
        snprintf(line, sizeof line, "KV per token = 2 x layers x kv_heads x head_dim x bytes = %s "
                 "(MLA: latent + rope key; windows cap local layers)", by);
        break;
    default:
        units_sci(res->prefill.flops, by, sizeof by);
        units_duration(res->ttft, t, sizeof t);
        snprintf(line, sizeof line, "prefill %s FLOPs at intensity %.0f: TTFT %s; i returns to "
                 "training", by, res->prefill.intensity, t);
        break;
    }
    screen_text(s, r.x + 1, r.y, r.w - 2, line, E_EXPLAIN);
}

static void draw_status(const struct dash *d, struct screen *s, struct rect r)
{
    screen_fill(s, r, ' ', E_STATUS);
    int x = r.x + 1, end = r.x + r.w - 1;
    if (d->status[0]) {
        int w = screen_label(s, x, r.y, end - x, d->status, d->status_error ? E_ERROR : E_STATUS);
        x += w + 2;
    }
    char keys[512];
    keymap_bar(KM_SERVING, d->cs.utf8, end - x, keys, sizeof keys);
    if (x < end)
        screen_text(s, x, r.y, end - x, keys, E_STATUS);
}

void infer_frame_draw(const struct dash *d, struct screen *s)
{
    struct layout L;
    infer_frame_layout(d, s->cols, s->rows, &L);
    if (L.too_small)
        return;
    struct serving_figures sf;
    if (!serving_figures(d, &sf))
        return;
    draw_title(d, s, L.r[P_TITLE], &sf);
    draw_sliders(d, s, L.r[P_SLIDERS]);
    widget_vrules(s, &d->cs, &L);
    if (!rect_empty(L.r[P_MEMORY]))
        draw_memory(d, s, L.r[P_MEMORY], &sf);
    if (!rect_empty(L.r[P_COMPUTE]))
        draw_time(d, s, L.r[P_COMPUTE], &sf);
    if (!rect_empty(L.r[P_ROOFLINE]))
        plot_roofline(d, s, L.r[P_ROOFLINE], false);
    if (!rect_empty(L.r[P_OPS]))
        ops_draw(d, s, L.r[P_OPS], false);
    draw_explain(d, s, L.r[P_EXPLAIN]);
    draw_status(d, s, L.r[P_STATUS]);
}
