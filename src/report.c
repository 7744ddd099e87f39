/* report.c - one evaluation's report: the table of its figures (src/figure.h), which every
 * format walks. Each figure is one row below: its JSON key, label, unit, outputs and getter.
 * The JSON keys are the ones users' scripts read: a key keeps its name and meaning. */
#include "report.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "checkpoint.h"
#include "cost.h"
#include "dtype.h"
#include "figure.h"
#include "figure_table.h"
#include "framework.h"
#include "op_contract.h"
#include "op_figure.h"
#include "predict.h"
#include "scenario_file.h"
#include "units.h"
#include "warnings.h"

/* What the getters read: the evaluation, the scenario as shown (its mfu the MFU in use) and
 * the measured points (NULL without points). */
struct report_ctx {
    const struct evaluation *ev;
    struct scenario s;
    const struct measured *meas;
};

#define CTX const struct report_ctx *c = ctx

static const char *const MEM_KEYS[MEM_COUNT] = {"params", "grads", "optimizer", "master_weights",
                                                "buffers", "activations"};
static const char *const MEM_LABELS[MEM_COUNT] = {"parameters", "gradients", "optimizer state",
                                                  "master weights", "buffers", "activations"};
/* The rows' names in the dashboard's twelve cells. */
static const char *const MEM_BRIEFS[MEM_COUNT] = {"parameters", "gradients", "optimizer",
                                                  "master", "buffers", "activations"};

/* A figure that must never print as NaN or inf: such a value becomes 0. */
static double fin(double v)
{
    return isfinite(v) ? v : 0.0;
}

/* ---- getters of plain fields: arg is the field's offset in the evaluation ------------------ */

static void g_ev(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_num(v, figure_double_at(c->ev, arg));
}

static void g_ev_i64(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_num(v, (double)figure_i64_at(c->ev, arg));
}

/* The measured figures: of the points matched (NULL without points), so not by EV. */
static void g_measured(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_num(v, figure_double_at(c->meas, arg));
}

/* A field of the evaluation, by its path ("an.memory.total"), and the groups of them. */
#define EV(path) .arg = (int)offsetof(struct evaluation, path)
#define PARAM(k, f) .key = "params." k, .unit = FU_PARAMS, .get = g_ev_i64, EV(an.params.f)
#define MEMORY(k, f) .key = "memory." k, .unit = FU_BYTES, .get = g_ev, EV(an.memory.f)
#define FLOPS(k, f) .key = "flops." k, .unit = FU_FLOP, .get = g_ev, EV(an.flops.f)
#define TIME(k, f) .key = "time." k, .get = g_ev, EV(an.time.f)
#define PRED(k, f) .key = "time.predicted." k, .get = g_ev, EV(pred.f)
#define ROOF(k, f) .key = "roofline." k, .get = g_ev, EV(an.roofline.f)
#define COST(k, f) .key = "cost." k, .get = g_ev, EV(cost.f)
#define MEASURED(k, f) .key = "measured." k, .get = g_measured,                                   \
                       .arg = (int)offsetof(struct measured, f)

/* ---- the header: the scenario, the model, the GPUs, the warnings ------------------------ */

static void t_title(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    char title[SCENARIO_NAME_MAX + 160];
    scenario_title(&c->s, title, sizeof title);
    snprintf(buf, n, "%s", title);
}

/* The scenario block: the registry's own writer, named as the text report names it (issue 8:
 * JSON said "custom" where the text named the model). */
static bool o_scenario(const void *ctx, cJSON *parent, const char *name)
{
    CTX;
    cJSON *in = scenario_to_json(&c->s);
    if (in == NULL || !cJSON_AddItemToObject(parent, name, in)) {
        cJSON_Delete(in);
        return false;
    }
    char title[SCENARIO_NAME_MAX + 160];
    scenario_title(&c->s, title, sizeof title);
    cJSON_DeleteItemFromObjectCaseSensitive(in, "name");
    return cJSON_AddStringToObject(in, "name", title) != NULL;
}

static void g_model_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct scenario *s = &c->s;
    const struct param_counts *p = &c->ev->an.params;
    char pc[32], act[32];
    units_count((double)p->total, pc, sizeof pc);
    units_count((double)p->active, act, sizeof act);
    int len = p->active != p->total
                  ? snprintf(v->buf, sizeof v->buf, "%s (%s parameters, %s active)", s->model.name,
                             pc, act)
                  : snprintf(v->buf, sizeof v->buf, "%s (%s parameters)", s->model.name, pc);
    const int64_t vocab = scenario_vocab(s);
    if (vocab != s->model.vocab && len > 0 && (size_t)len < sizeof v->buf)
        snprintf(v->buf + len, sizeof v->buf - (size_t)len,
                 ", vocabulary padded %lld -> %lld (--vocab-pad %lld x tp %lld)",
                 (long long)s->model.vocab, (long long)vocab, (long long)s->vocab_pad,
                 (long long)s->tp);
    figure_str(v, v->buf);
}

static bool w_checkpoint(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    return c->s.model.checkpoint_bytes > 0;
}

static void g_checkpoint_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    double per = 0;
    char b[32];
    model_checkpoint_explained(&c->s.model, &per);
    units_bytes(c->s.model.checkpoint_bytes, b, sizeof b);
    snprintf(v->buf, sizeof v->buf,
             "%s in the checkpoint (model.safetensors.index.json): %.4g bytes a parameter counted",
             b, per);
    figure_str(v, v->buf);
}

/* The layout as Megatron-LM writes it: gpus = dp x tp x pp x cp; ep (and an expert tp of its
 * own) regroups a stage's ranks for the routed experts, so it is no factor of the count. */
static void g_gpus_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct scenario *s = &c->s;
    char mem[32], ep[64] = "";
    units_bytes(s->gpu.memory_bytes, mem, sizeof mem);
    if (model_moe_layers(&s->model) > 0 && scenario_etp(s) != s->tp)
        snprintf(ep, sizeof ep, ", experts over ep %lld x expert tp %lld", (long long)s->ep,
                 (long long)scenario_etp(s));
    else if (model_moe_layers(&s->model) > 0)
        snprintf(ep, sizeof ep, ", experts over ep %lld", (long long)s->ep);
    snprintf(v->buf, sizeof v->buf,
             "%lld x %s (%s each): dp %lld x tp %lld x pp %lld x cp %lld%s%s",
             (long long)s->gpus, s->gpu.name, mem, (long long)c->ev->an.dp, (long long)s->tp,
             (long long)s->pp, (long long)s->cp, ep, s->sp ? " with sequence parallelism" : "");
    figure_str(v, v->buf);
}

static void g_setup_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct scenario *s = &c->s;
    snprintf(v->buf, sizeof v->buf,
             "%s, %s optimizer, master weights %s, ZeRO %d, recompute %s, flash %s, dropout %s",
             dtype_name(s->dtype), optimizer_name(s->optimizer), s->master_weights ? "on" : "off",
             s->zero, recompute_name(s->recompute), s->flash ? "on" : "off",
             s->dropout ? "on" : "off");
    figure_str(v, v->buf);
}

static void g_train_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct scenario *s = &c->s;
    const struct analysis *a = &c->ev->an;
    char tok[32];
    units_count(s->tokens, tok, sizeof tok);
    enum mfu_mode from = c->ev->mfu_from;
    snprintf(v->buf, sizeof v->buf,
             "%s tokens, batch %lld x seq %lld (micro-batch %lld, %lld accumulation step%s), "
             "MFU %.3g%s, FLOPs %s",
             tok, (long long)s->batch, (long long)s->seq, (long long)a->micro_batch,
             (long long)a->accum_steps, a->accum_steps == 1 ? "" : "s", s->mfu,
             from == MFU_MEASURED ? " (measured GEMM efficiency)"
             : from == MFU_PREDICTED ? " (predicted)" : "",
             s->flops_mode == FLOPS_6ND ? "6ND" : "detailed");
    figure_str(v, v->buf);
}

static int n_warnings(const void *ctx)
{
    CTX;
    return c->ev->warn.n;
}

static void g_warning(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ARG;
    figure_str(v, c->ev->warn.line[item]);
}

static void g_model_id(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_str(v, arg == 0 ? c->s.model.id : arg == 1 ? c->s.model.name
                  : arg == 2 ? c->s.gpu.id : c->s.gpu.name);
}

/* The tokens of one optimizer step: the global batch's sequences times their length. */
static void g_tokens_per_step(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_num(v, (double)c->s.batch * (double)c->s.seq);
}

static void g_checkpoint_bytes(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_num(v, c->s.model.checkpoint_bytes);
}

enum layout_field { LF_GPUS, LF_DP, LF_TP, LF_PP, LF_CP, LF_EP, LF_ETP, LF_MICRO, LF_ACCUM };

static void g_layout(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct scenario *s = &c->s;
    const struct analysis *a = &c->ev->an;
    const int64_t f[] = {s->gpus, a->dp, s->tp, s->pp, s->cp, s->ep, scenario_etp(s),
                         a->micro_batch, a->accum_steps};
    figure_num(v, (double)f[arg]);
}

/* ---- memory ------------------------------------------------------------------------------ */

static int n_mem_rows(const void *ctx)
{
    (void)ctx;
    return MEM_COUNT;
}

static const char *mem_row_key(const void *ctx, int item)
{
    (void)ctx;
    return MEM_KEYS[item];
}

/* Master weights apply only below fp32 (a separate fp32 copy); "off" otherwise. */
static bool mem_row_present(const struct report_ctx *c, int k)
{
    return k != MEM_MASTER || c->ev->an.memory.row[MEM_MASTER].bytes > 0;
}

/* The text tables leave the buffers out when empty: they exist under ZeRO-2/3 only. */
static bool w_mem_row_shown(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ARG;
    return item != MEM_BUFFERS || c->ev->an.memory.row[MEM_BUFFERS].bytes > 0;
}

enum mem_col { MC_ROW, MC_DTYPE, MC_ELEMENTS, MC_BYTES, MC_SHARE };

static void g_mem_col(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    const struct mem_row *r = &c->ev->an.memory.row[item];
    bool off = !mem_row_present(c, item);
    switch ((enum mem_col)arg) {
    case MC_ROW:
        figure_str(v, MEM_KEYS[item]);
        v->text = MEM_LABELS[item];
        return;
    case MC_DTYPE:
        figure_str(v, dtype_name(r->dtype));
        break;
    case MC_ELEMENTS:
        figure_num(v, r->elements);
        break;
    case MC_BYTES:
        figure_num(v, r->bytes);
        if (off)
            v->text = "off";
        return;
    case MC_SHARE: {
        double total = c->ev->an.memory.total;
        figure_num(v, total > 0 ? 100 * r->bytes / total : 0.0);
        break;
    }
    }
    if (off)
        v->text = "-";
}

static void g_mem_bytes(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_num(v, c->ev->an.memory.row[arg].bytes);
}

/* "fits (62% of 78 GB usable: 80 GB less a 2 GB reserve)" or "does not fit: 1.02 TB over
 * 78 GB usable (13.6x; ...)" */
static void a_fit(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct memory *m = &c->ev->an.memory;
    char use[32], cap[32], res[32], over[32];
    units_bytes(m->usable, use, sizeof use);
    units_bytes(m->capacity, cap, sizeof cap);
    units_bytes(m->reserve, res, sizeof res);
    if (m->fits) {
        snprintf(buf, n, "fits (%.0f%% of %s usable: %s less a %s reserve)",
                 m->usable > 0 ? fin(100.0 * m->total / m->usable) : 0.0, use, cap, res);
    } else {
        units_bytes(m->total - m->usable, over, sizeof over);
        snprintf(buf, n, "does not fit: %s over %s usable (%.2gx; %s less a %s reserve)", over,
                 use, m->usable > 0 ? fin(m->total / m->usable) : 0.0, cap, res);
    }
}

/* The total against the usable memory, as the dashboard's verdict gives it: its share, how
 * far over, how many times. */
enum mem_usable { MU_SHARE, MU_OVER, MU_TIMES };

static void g_mem_usable(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct memory *m = &c->ev->an.memory;
    double x = arg == MU_OVER    ? m->total - m->usable
               : m->usable <= 0  ? 0.0
               : arg == MU_SHARE ? 100 * m->total / m->usable
                                 : m->total / m->usable;
    figure_num(v, x);
}

static void a_per_micro_batch(const void *ctx, int item, int arg, char *buf, size_t n)
{
    (void)ctx;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "per micro-batch");
}

/* ---- checkpointing: the checkpoint panel's figures (src/checkpoint.h) -------------------- */

enum ckpt_fig { CF_LAYERS, CF_STORED, CF_INPUT, CF_RATIO, CF_BEST_K, CF_SQRT_L };

static void g_ckpt(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct memory *m = &c->ev->an.memory;
    const double L = (double)c->s.model.layers, A = m->layer_stored, I = m->layer_input;
    const double x[] = {L, A, I, I > 0 ? A / I : 0, checkpoint_best_k(L, A, I), sqrt(L)};
    figure_num(v, x[arg]);
}

#define CKPT_ROWS 24

/* The curve of the scenario's layers (toy: the lecture's, a layer storing its output only). */
static int ckpt_curve_of(const struct report_ctx *c, bool toy, struct ckpt_row *rows)
{
    const struct memory *m = &c->ev->an.memory;
    return checkpoint_curve((double)c->s.model.layers, toy ? 1 : m->layer_stored,
                            toy ? 1 : m->layer_input, rows, CKPT_ROWS);
}

static int n_ckpt_rows(const void *ctx)
{
    CTX;
    struct ckpt_row rows[CKPT_ROWS];
    return ckpt_curve_of(c, false, rows);
}

/* The row the scenario's recompute setting is (none: store all; full: every layer). */
static bool ckpt_current(const struct scenario *s, const struct ckpt_row *row)
{
    if (s->recompute == RECOMPUTE_NONE || s->recompute == RECOMPUTE_SELECTIVE)
        return row->kind == CKPT_ALL;
    if (s->recompute == RECOMPUTE_FULL)
        return row->kind == CKPT_EVERY && row->k == 1;
    return row->kind == CKPT_EVERY && row->sqrt_l;
}

enum ckpt_col { CC_KIND, CC_K, CC_SQRT_L, CC_CHECKPOINTS, CC_MEMORY, CC_RECOMPUTE, CC_CURRENT,
                CC_TOY_MEMORY, CC_TOY_RECOMPUTE };

static void g_ckpt_col(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    struct ckpt_row rows[CKPT_ROWS];
    int n = ckpt_curve_of(c, arg == CC_TOY_MEMORY || arg == CC_TOY_RECOMPUTE, rows);
    if (item < 0 || item >= n) {
        figure_null(v);
        return;
    }
    const struct ckpt_row *w = &rows[item];
    static const char *const KINDS[] = {"all", "every", "none"};
    switch ((enum ckpt_col)arg) {
    case CC_KIND:
        figure_str(v, KINDS[w->kind]);
        break;
    case CC_SQRT_L:
        figure_bool(v, w->sqrt_l);
        break;
    case CC_CURRENT:
        figure_bool(v, ckpt_current(&c->s, w));
        break;
    case CC_K:
        figure_num(v, w->k);
        break;
    case CC_CHECKPOINTS:
        figure_num(v, w->kind == CKPT_EVERY ? ceil((double)c->s.model.layers / w->k) : 0);
        break;
    case CC_MEMORY:
    case CC_TOY_MEMORY:
        figure_num(v, w->memory);
        break;
    case CC_RECOMPUTE:
    case CC_TOY_RECOMPUTE:
        figure_num(v, w->recompute);
        break;
    }
}

static void g_fits(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_bool(v, c->ev->an.memory.fits);
}

enum mem_word { MW_WEIGHTS, MW_GRAD, MW_GRAD_WHY };

static void g_mem_word(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct memory *m = &c->ev->an.memory;
    figure_str(v, arg == MW_WEIGHTS ? dtype_name(m->weights_dtype)
                  : arg == MW_GRAD  ? dtype_name(m->grad_dtype)
                                    : memory_grad_why_text(m->grad_why));
}

/* The model state's bytes per parameter, row by row, as the dtypes store them (not per GPU):
 * storage, not compute (fp8 training keeps bf16 weights; gradients as the setup keeps them),
 * the optimizer's states times their dtype, 4 for an fp32 master copy; their sum; and the
 * optimizer's number of states. The explain line's sum. */
enum state_bytes { SB_PARAMS, SB_GRADS, SB_OPTIMIZER, SB_MASTER, SB_TOTAL, SB_STATES };

static void g_state_bytes(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct memory *m = &c->ev->an.memory;
    enum optimizer o = c->s.optimizer;
    double b[SB_STATES + 1] = {dtype_bytes(m->weights_dtype), dtype_bytes(m->grad_dtype),
                               optimizer_states(o) * dtype_bytes(optimizer_state_dtype(o)),
                               scenario_master_copy(&c->s) ? 4 : 0, 0, optimizer_states(o)};
    b[SB_TOTAL] = b[SB_PARAMS] + b[SB_GRADS] + b[SB_OPTIMIZER] + b[SB_MASTER];
    figure_num(v, b[arg]);
}

/* The dtype the optimizer keeps its states in. */
static void g_state_dtype(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_str(v, dtype_name(optimizer_state_dtype(c->s.optimizer)));
}

enum stage_field { SF_INDEX, SF_STAGES, SF_LAYERS, SF_FIRST, SF_LAST };

static void g_stage_field(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct memory *m = &c->ev->an.memory;
    const double f[] = {(double)m->busiest.index, (double)m->stages, (double)m->busiest.layers,
                        m->first.total, m->last.total};
    figure_num(v, f[arg]);
}

/* ---- memory notes ------------------------------------------------------------------------ */

/* The stage's name: "stage 1 of 4 (first)". */
static void stage_name(const struct memory *m, const struct mem_stage *st, char *buf, size_t n)
{
    const char *end = st->index == 0 ? " (first)" : st->index == m->stages - 1 ? " (last)" : "";
    snprintf(buf, n, "stage %lld of %lld%s", (long long)st->index + 1, (long long)m->stages, end);
}

/* The sentences under the memory table: which gradient dtype and why, what fp8 stores, what
 * the buffers are, which pipeline stage the rows are. Returns how many (at most 5). */
#define MEM_NOTES 5
#define MEM_NOTE_LEN 384
static int memory_notes(const struct scenario *s, const struct analysis *a,
                        char lines[][MEM_NOTE_LEN])
{
    const struct memory *m = &a->memory;
    int n = 0;
    snprintf(lines[n++], MEM_NOTE_LEN, "gradients in %s (%s)", dtype_name(m->grad_dtype),
             memory_grad_why_text(m->grad_why));
    if (m->weights_dtype != s->dtype && s->dtype != DTYPE_TF32) {
        char low[32];
        units_bytes(m->activations_low, low, sizeof low);
        snprintf(lines[n++], MEM_NOTE_LEN,
                 "%s is the GEMMs' dtype: weights and activations are stored in %s, and each "
                 "layer keeps %s of %s copies of GEMM inputs for backward (Transformer Engine)",
                 dtype_name(s->dtype), dtype_name(m->weights_dtype), low, dtype_name(s->dtype));
    }
    if (m->row[MEM_BUFFERS].bytes > 0) {
        if (s->zero >= 3) {
            char big[32];
            units_count(m->gathered_params, big, sizeof big);
            snprintf(lines[n++], MEM_NOTE_LEN,
                     "buffers: ZeRO-3 gathers one module at a time, its weights and gradients "
                     "(the largest, %s parameters; DeepSpeed adds 4 bytes x its parameters)",
                     big);
        } else {
            snprintf(lines[n++], MEM_NOTE_LEN,
                     "buffers: under ZeRO-2 the backward's %s gradients, partitioned as the %s "
                     "shards they are reduced into (DeepSpeed's 2N + 18N/dp)",
                     dtype_name(m->weights_dtype), dtype_name(m->grad_dtype));
        }
    }
    if (m->stages > 1) {
        char name[64], other[64], ob[32];
        stage_name(m, &m->busiest, name, sizeof name);
        const struct mem_stage *o = m->busiest.index == 0 ? &m->last : &m->first;
        stage_name(m, o, other, sizeof other);
        units_bytes(o->total, ob, sizeof ob);
        snprintf(lines[n++], MEM_NOTE_LEN,
                 "pipeline: the rows are the busiest, %s: %lld layers%s, %.3g micro-batches in "
                 "flight; %s needs %s",
                 name, (long long)m->busiest.layers,
                 m->busiest.index == 0 ? " + embedding"
                 : m->busiest.index == m->stages - 1 ? " + LM head" : "",
                 m->busiest.in_flight, other, ob);
    }
    return n;
}

static int n_mem_notes(const void *ctx)
{
    CTX;
    char lines[MEM_NOTES][MEM_NOTE_LEN];
    return memory_notes(&c->s, &c->ev->an, lines);
}

static void g_mem_note(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ARG;
    char lines[MEM_NOTES][MEM_NOTE_LEN];
    int n = memory_notes(&c->s, &c->ev->an, lines);
    snprintf(v->buf, sizeof v->buf, "%s", item < n ? lines[item] : "");
    figure_str(v, v->buf);
}

/* ---- parameters, FLOPs, time, cost -------------------------------------------------------- */

static bool w_positive(const struct report_ctx *c, int arg)
{
    return figure_i64_at(c->ev, arg) > 0;
}

static bool w_param_positive(const void *ctx, int item, int arg)
{
    UNUSED_ITEM;
    return w_positive(ctx, arg);
}

static bool w_moe(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct param_counts *p = &c->ev->an.params;
    return p->mlp_active != p->mlp || p->active != p->total;
}

static bool w_typed_differs(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct param_counts *p = &c->ev->an.params;
    return p->typed > 0 && p->typed != p->total;
}

/* A custom size: the count typed, which 6ND uses; null for an architecture. */
static void g_typed(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct param_counts *p = &c->ev->an.params;
    figure_num(v, p->typed > 0 ? (double)p->typed : NAN);
}

enum count_field { CF_VOCAB, CF_MODEL_VOCAB, CF_SIX_ND_N, CF_EMBEDDINGS };

static void g_count(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct param_counts *p = &c->ev->an.params;
    figure_num(v, arg == CF_VOCAB ? (double)scenario_vocab(&c->s)
                  : arg == CF_MODEL_VOCAB ? (double)c->s.model.vocab
                  : arg == CF_EMBEDDINGS  ? (double)(p->embedding + p->position)
                  : (double)(p->typed > 0 ? p->typed : p->active));
}

/* A custom size whose fitted shape differs from the count typed: which figure uses which. */
static int n_typed_note(const void *ctx)
{
    return w_typed_differs(ctx, 0, 0) ? 1 : 0;
}

static void g_typed_note(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct param_counts *p = &c->ev->an.params;
    snprintf(v->buf, sizeof v->buf,
             "6ND uses the %lld typed; memory and the detailed count use the fitted shape's %lld "
             "(%+.4f%%)",
             (long long)p->typed, (long long)p->total,
             fin(100.0 * ((double)p->total - (double)p->typed) / (double)p->typed));
    figure_str(v, v->buf);
}

/* (detailed - 6ND) / 6ND in percent; 0 when 6ND is 0. */
static void g_detailed_vs(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct flops *f = &c->ev->an.flops;
    figure_num(v, f->six_nd > 0 ? fin(100.0 * (f->detailed - f->six_nd) / f->six_nd) : 0.0);
}

/* The lecture's split of 6ND: forward 2ND, backward (input and weight gradients) 4ND; arg 1
 * the forward's share, 2 the backward's. */
static void g_pass(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_num(v, c->ev->an.flops.model_total * arg / 3.0);
}

static void a_pass(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    bool six = c->s.flops_mode == FLOPS_6ND;
    if (arg == 1)
        snprintf(buf, n, "(%s)", six ? "2ND" : "1/3 of the model FLOPs");
    else
        snprintf(buf, n, "(%s: backward = 2 x forward)", six ? "4ND" : "2/3");
}

static void g_attention(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    bool causal = c->s.attention_flops == ATTN_FLOPS_CAUSAL;
    figure_str(v, attn_flops_name(c->s.attention_flops));
    v->text = causal ? "causal: half the s x s score and A.V work, what causal kernels execute "
                       "(--attention-flops)"
                     : "full: all of the s x s score and A.V work, PaLM's and Narayanan et al.'s "
                       "MFU convention (--attention-flops)";
}

static void g_flops_mode(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    bool six = c->s.flops_mode == FLOPS_6ND;
    figure_str(v, six ? "6nd" : "detailed");
    v->text = six ? "6ND" : "detailed";
}

/* 6ND is the lecture's formula and has no optimizer term: say so rather than print 0. */
static void g_optimizer_flops(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    g_ev(ctx, item, arg, v);
    if (c->s.flops_mode == FLOPS_6ND)
        v->text = "not in 6ND";
}

static void a_sci_seconds(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    char b[32];
    units_sci(c->ev->an.time.seconds, b, sizeof b);
    snprintf(buf, n, "(%s s)", b);
}

static void a_steps(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct analysis *a = &c->ev->an;
    char st[32], rl[32];
    units_count(a->time.steps, st, sizeof st);
    if (a->time.step_seconds < a->roofline.step_seconds * (1.0 - 1e-9)) {
        units_duration(a->roofline.step_seconds, rl, sizeof rl);
        snprintf(buf, n, "(%s steps; under the roofline's %s: see warning)", st, rl);
    } else {
        snprintf(buf, n, "(%s steps)", st);
    }
}

static void g_mfu_source(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    enum mfu_mode from = c->ev->mfu_from;
    figure_str(v, from == MFU_PREDICTED  ? "predicted"
                  : from == MFU_MEASURED ? "measured"
                                         : "input");
}

/* Energy needs the GPU's board power, money a price: null (and a word why) without them. */
static void g_energy(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    const struct cost *k = &c->ev->cost;
    g_ev(ctx, item, arg, v);
    if (!k->has_energy) {
        figure_null(v);
        v->text = "unknown"; /* a_energy says why */
    }
}

static void a_energy(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct cost *k = &c->ev->cost;
    buf[0] = '\0';
    if (k->has_energy)
        snprintf(buf, n, "(%lld GPUs x %.0f W x PUE %.3g)", (long long)c->s.gpus, k->board_power,
                 k->pue);
    else
        snprintf(buf, n, "(the GPU spec has no \"power\")");
}

static void g_usd(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    g_ev(ctx, item, arg, v);
    if (!c->ev->cost.has_price) {
        figure_null(v);
        v->text = "no price"; /* a_usd says how to give one */
    }
}

static void a_usd(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    if (c->ev->cost.has_price)
        snprintf(buf, n, "at $%.4g per GPU-hour", c->ev->cost.price);
    else
        snprintf(buf, n, "given (--price USD per GPU-hour)");
}

static void g_price(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    g_ev(ctx, item, arg, v);
    if (!c->ev->cost.has_price)
        figure_null(v);
}

static void g_board_power(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    g_ev(ctx, item, arg, v);
    if (!(c->ev->cost.board_power > 0))
        figure_null(v);
}

/* ---- the predicted step -------------------------------------------------------------------- */

static void t_predicted(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "Predicted step%s",
             c->ev->mfu_from == MFU_PREDICTED ? " (the time above)" : "");
}

/* The whole run in the unit the time section gives it, not in days alone. */
static void g_pred_days(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    g_ev(ctx, item, arg, v);
    char run[48];
    units_duration(fin(c->ev->pred.days) * 86400.0, run, sizeof run);
    snprintf(v->buf, sizeof v->buf, "%s", run);
    v->text = v->buf;
}

static void g_gemm_eff(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    g_ev(ctx, item, arg, v);
    if (c->ev->pred.gemm_measured)
        v->text = "their measured rates";
}

static void a_of_peak(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "%s", c->ev->pred.gemm_measured ? "" : "of peak");
}

enum pred_word { PW_FRAMEWORK, PW_ASSUMES, PW_MEASURED, PW_OVERRIDE, PW_DERATE };

static void g_pred_word(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct prediction *p = &c->ev->pred;
    const struct framework_profile *f = framework_profile(p->framework);
    switch ((enum pred_word)arg) {
    case PW_FRAMEWORK:
        figure_str(v, framework_name(p->framework));
        v->text = f->label;
        return;
    case PW_ASSUMES:
        figure_str(v, f->assumed);
        return;
    case PW_MEASURED:
        figure_bool(v, p->gemm_measured);
        return;
    case PW_OVERRIDE:
        figure_bool(v, p->overlap_override);
        return;
    case PW_DERATE:
        figure_num(v, f->derate);
        return;
    }
}

static void a_override(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "%s",
             c->ev->pred.overlap_override ? "(data-parallel overlap as --dp-overlap gives it)"
                                          : "");
}

static int n_parts(const void *ctx)
{
    (void)ctx;
    return PART_COUNT;
}

static const char *part_key(const void *ctx, int item)
{
    (void)ctx;
    return predict_part_name((enum predict_part)item);
}

static bool w_part_used(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ARG;
    return item < 0 || c->ev->pred.part[item] > 0;
}

enum part_col { PC_LABEL, PC_BRIEF, PC_SECONDS, PC_SHARE };

static void g_part(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    const struct prediction *p = &c->ev->pred;
    if (arg == PC_LABEL)
        figure_str(v, predict_part_label((enum predict_part)item));
    else if (arg == PC_BRIEF)
        figure_str(v, predict_part_brief((enum predict_part)item));
    else if (arg == PC_SECONDS)
        figure_num(v, p->part[item]);
    else
        figure_num(v, p->step_seconds > 0 ? 100.0 * p->part[item] / p->step_seconds : 0.0);
}

/* ---- operations ------------------------------------------------------------------------------ */

static void t_ops(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct scenario *s = &c->s;
    const struct roofline *r = &c->ev->an.roofline;
    char stage[96] = "";
    if (s->pp > 1)
        /* "slowest": the memory table's busiest stage is often another (the first). */
        snprintf(stage, sizeof stage, " of the slowest pipeline stage (%.0f of %lld layers%s)",
                 r->stage_layers, (long long)s->model.layers, r->stage_head ? " + LM head" : "");
    snprintf(buf, n, "Operations (one GPU%s, one step: forward + backward%s)", stage,
             s->recompute != RECOMPUTE_NONE ? " + recompute" : "");
}

static int n_ops(const void *ctx)
{
    CTX;
    return c->ev->an.n_ops;
}

static const char *op_name(const void *ctx, int item)
{
    CTX;
    const char *name = c->ev->an.ops[item].name;
    return name != NULL ? name : "?";
}

/* Measured seconds of op k, or -1. */
static double op_measured(const struct measured *m, int k)
{
    return m != NULL && k < m->n_ops && k < ANALYSIS_MAX_OPS ? m->op_seconds[k] : -1.0;
}

/* The operation's own figures (src/op_figure.h), then the report's. */
enum op_col { OC_FLOPS = OPF_FLOPS, OC_BYTES = OPF_BYTES, OC_INTENSITY = OPF_INTENSITY,
              OC_BOUND = OPF_BOUND, OC_ATTAINABLE = OPF_ATTAINABLE, OC_SECONDS = OPF_SECONDS,
              OC_NAME = OPF_COUNT, OC_MEASURED, OC_CONTRACT, OC_COUNTED };

static void g_op_word(const struct report_ctx *c, int item, int arg, struct figure_value *v)
{
    const struct op *o = &c->ev->an.ops[item];
    bool mm = false;
    const char *contract = op_contract(o->kind, model_mlp_gated(c->s.model.mlp), &mm);
    if (arg == OC_NAME)
        figure_str(v, op_name(c, item));
    else if (arg == OC_CONTRACT)
        figure_str(v, contract);
    else
        figure_str(v, mm ? "2 x product of its dims"
                      : o->kind == OP_FLASH_ATTN ? "fused: two contractions and a softmax"
                                                 : "per element");
}

static void g_op(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    const struct op *o = &c->ev->an.ops[item];
    if (op_figure_get(o, arg, v))
        return;
    if (arg == OC_MEASURED) {
        double ms = op_measured(c->meas, item);
        figure_num(v, ms >= 0 ? ms : NAN);
        if (ms < 0)
            v->text = "-";
        return;
    }
    g_op_word(c, item, arg, v);
}

static bool w_points(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    return c->meas != NULL;
}

/* What the points say about the scenario's GEMMs: one line, and their sum when they match. */
static int n_measured_lines(const void *ctx)
{
    CTX;
    return c->meas == NULL ? 0 : c->meas->n_ops_measured > 0 ? 2 : 1;
}

static void g_measured_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ARG;
    const struct measured *m = c->meas;
    if (item == 0 && m->n_ops_measured > 0) {
        measured_describe(m, &c->s, v->buf, sizeof v->buf);
    } else if (item == 0) {
        char arg_s[384]; /* room for the sentence around it in v->buf (512) */
        if (!measured_shapes_arg(&c->s, arg_s, sizeof arg_s))
            arg_s[0] = '\0';
        snprintf(v->buf, sizeof v->buf, "measured: the points hold no shape points for this "
                 "scenario's GEMMs (measure them with rooftop probe --shapes '%s')", arg_s);
    } else {
        char b1[48], b2[48], b3[48];
        units_duration(m->seconds, b1, sizeof b1);
        units_sci(m->flops, b2, sizeof b2);
        units_flops_rate(m->peak, b3, sizeof b3);
        snprintf(v->buf, sizeof v->buf, "= %s FLOP / %s measured / %s peak%s", b2, b1, b3,
                 c->ev->mfu_from == MFU_MEASURED ? "; the training time uses it as the MFU" : "");
    }
    figure_str(v, v->buf);
}

/* The measured figures beside the ops: efficiency (null when no op matched), what matched,
 * each shape and its point. */
static void g_measured_eff(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    g_measured(ctx, item, arg, v);
    if (c->meas->n_ops_measured <= 0)
        figure_null(v);
}

enum meas_word { MW2_USED, MW2_OPS, MW2_GEMMS, MW2_DEVICE, MW2_OTHER_DTYPE, MW2_SHAPE_DIFFERS,
                 MW2_DTYPE_DIFFERS, MW2_OTHER_DEVICE };

static void g_measured_word(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct measured *m = c->meas;
    switch ((enum meas_word)arg) {
    case MW2_USED:
        figure_bool(v, c->ev->mfu_from == MFU_MEASURED);
        return;
    case MW2_OPS:
        figure_num(v, (double)m->n_ops_measured);
        return;
    case MW2_GEMMS:
        figure_num(v, (double)m->n_gemm_ops);
        return;
    case MW2_DEVICE:
        figure_str(v, m->device);
        return;
    case MW2_OTHER_DTYPE:
        figure_str(v, m->dtype_differs ? dtype_name(m->point_dtype) : "");
        return;
    case MW2_SHAPE_DIFFERS:
        figure_bool(v, m->shape_differs);
        return;
    case MW2_DTYPE_DIFFERS:
        figure_bool(v, m->dtype_differs);
        return;
    case MW2_OTHER_DEVICE:
        figure_bool(v, m->other_device);
        return;
    }
}

static bool jnum(cJSON *o, const char *k, double v)
{
    cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
    if (item == NULL || !cJSON_AddItemToObject(o, k, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool json_gemm(cJSON *go, const struct measured_gemm *g)
{
    bool ok = jnum(go, "m", (double)g->m) && jnum(go, "n", (double)g->n) &&
              jnum(go, "k", (double)g->k) && cJSON_AddBoolToObject(go, "found", g->found);
    if (!ok || !g->found)
        return ok;
    return jnum(go, "measured_m", (double)g->pm) && jnum(go, "measured_n", (double)g->pn) &&
           jnum(go, "measured_k", (double)g->pk) &&
           cJSON_AddStringToObject(go, "dtype", dtype_name(g->dtype)) &&
           jnum(go, "flops_per_s", g->flops_per_s);
}

/* Each GEMM shape and the point it matched, keyed by its label. */
static bool o_shapes(const void *ctx, cJSON *parent, const char *name)
{
    CTX;
    cJSON *sh = cJSON_AddObjectToObject(parent, name);
    for (int i = 0; sh != NULL && i < c->meas->n_gemms; i++) {
        cJSON *go = cJSON_AddObjectToObject(sh, c->meas->gemm[i].label);
        if (go == NULL || !json_gemm(go, &c->meas->gemm[i]))
            return false;
    }
    return sh != NULL;
}

/* ---- the roofline -------------------------------------------------------------------------- */

static void t_roofline(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "Roofline (%s on %s)", dtype_name(c->s.dtype), c->s.gpu.name);
}

static void g_roof_word(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    if (arg == 0)
        figure_str(v, dtype_name(c->s.dtype));
    else
        figure_bool(v, c->ev->an.roofline.stage_head);
}

/* ---- the table ---------------------------------------------------------------------------- */

static const struct figure MEM_COLS[] = {
    {VALUE, .key = "row", .label = "row", .get = g_mem_col, .arg = MC_ROW, .width = 16},
    {VALUE, .key = "dtype", .label = "dtype", .get = g_mem_col, .arg = MC_DTYPE, .width = 9},
    {VALUE, .key = "elements", .label = "elements", .unit = FU_COUNT, .get = g_mem_col,
     .arg = MC_ELEMENTS, .width = 12},
    {VALUE, .key = "bytes", .label = "bytes", .unit = FU_BYTES, .get = g_mem_col, .arg = MC_BYTES,
     .width = 12},
    /* The row's share of the total, in the dashboard's memory table. */
    {VALUE, .key = "share", .unit = FU_SHARE, .get = g_mem_col, .arg = MC_SHARE, PANEL},
    END};

/* The checkpoint curve's rows (src/checkpoint.h's struct ckpt_row), in the dashboard's panel. */
static const struct figure CKPT_COLS[] = {
    {VALUE, .key = "kind", .get = g_ckpt_col, .arg = CC_KIND, PANEL},
    {VALUE, .key = "k", .get = g_ckpt_col, .arg = CC_K, PANEL},
    {VALUE, .key = "sqrt_l", .get = g_ckpt_col, .arg = CC_SQRT_L, PANEL},
    {VALUE, .key = "checkpoints", .get = g_ckpt_col, .arg = CC_CHECKPOINTS, PANEL},
    {VALUE, .key = "memory", .unit = FU_BYTES, .get = g_ckpt_col, .arg = CC_MEMORY, PANEL},
    {VALUE, .key = "recompute", .get = g_ckpt_col, .arg = CC_RECOMPUTE, PANEL},
    {VALUE, .key = "current", .get = g_ckpt_col, .arg = CC_CURRENT, PANEL},
    {VALUE, .key = "toy_memory", .get = g_ckpt_col, .arg = CC_TOY_MEMORY, PANEL},
    {VALUE, .key = "toy_recompute", .get = g_ckpt_col, .arg = CC_TOY_RECOMPUTE, PANEL},
    END};

static const struct figure PART_COLS[] = {
    {VALUE, .key = "seconds", .unit = FU_SECONDS, .get = g_part, .arg = PC_SECONDS, DATA},
    {VALUE, .key = "part", .label = "part", .get = g_part, .arg = PC_LABEL, PROSE, .width = 22},
    {VALUE, .key = "time", .label = "time", .unit = FU_SECONDS, .get = g_part, .arg = PC_SECONDS,
     PROSE, .width = 10},
    {VALUE, .key = "share", .label = "share", .unit = FU_SHARE, .get = g_part, .arg = PC_SHARE,
     PROSE, .width = 7},
    /* The part's name in the dashboard's step bar ("dp"). */
    {VALUE, .key = "brief", .get = g_part, .arg = PC_BRIEF, PANEL},
    END};

static const struct figure OP_COLS[] = {
    {VALUE, .key = "name", .label = "op", .get = g_op, .arg = OC_NAME, .width = 14},
    {VALUE, .key = "flops", .label = "FLOPs", .unit = FU_FLOP, .get = g_op, .arg = OC_FLOPS,
     .width = 10},
    {VALUE, .key = "bytes", .label = "bytes", .unit = FU_BYTES, .get = g_op, .arg = OC_BYTES,
     .width = 10},
    {VALUE, .key = "intensity", .label = "FLOP/B", .unit = FU_INTENSITY, .get = g_op,
     .arg = OC_INTENSITY, .width = 10},
    {VALUE, .key = "bound", .label = "bound", .get = g_op, .arg = OC_BOUND, .width = 8},
    {VALUE, .key = "attainable", .unit = FU_FLOP_RATE, .get = g_op, .arg = OC_ATTAINABLE, DATA},
    {VALUE, .key = "seconds", .label = "time", .unit = FU_SECONDS, .get = g_op, .arg = OC_SECONDS,
     .width = 10},
    {VALUE, .key = "measured_seconds", .label = "measured", .unit = FU_SECONDS, .get = g_op,
     .arg = OC_MEASURED, .when = w_points, .width = 10},
    {VALUE, .key = "contract", .get = g_op, .arg = OC_CONTRACT, DATA},
    END};

static const struct figure CONTRACT_COLS[] = {
    {VALUE, .key = "name", .label = "op", .get = g_op, .arg = OC_NAME, .width = 14},
    {VALUE, .key = "contract", .label = "contract", .get = g_op, .arg = OC_CONTRACT, .width = 38},
    {VALUE, .key = "counted", .label = "FLOPs counted", .get = g_op, .arg = OC_COUNTED, .width = 1},
    END};

static const struct figure REPORT[] = {
    {.entry = FE_SECTION, .label = "Scenario: ", .title = t_title, .width = 7},
    {.entry = FE_OBJECT, .key = "scenario", .object = o_scenario, DATA},
    {VALUE, .key = "model.id", .get = g_model_id, .arg = 0, DATA},
    {VALUE, .key = "model.name", .get = g_model_id, .arg = 1, DATA},
    {VALUE, .key = "model.checkpoint_bytes", .unit = FU_BYTES, .get = g_checkpoint_bytes,
     .when = w_checkpoint, DATA},
    {VALUE, .key = "gpu.id", .get = g_model_id, .arg = 2, DATA},
    {VALUE, .key = "gpu.name", .get = g_model_id, .arg = 3, DATA},
    {VALUE, .key = "parallel.gpus", .get = g_layout, .arg = LF_GPUS, DATA},
    {VALUE, .key = "parallel.dp", .get = g_layout, .arg = LF_DP, DATA},
    {VALUE, .key = "parallel.tp", .get = g_layout, .arg = LF_TP, DATA},
    {VALUE, .key = "parallel.pp", .get = g_layout, .arg = LF_PP, DATA},
    {VALUE, .key = "parallel.cp", .get = g_layout, .arg = LF_CP, DATA},
    {VALUE, .key = "parallel.ep", .get = g_layout, .arg = LF_EP, DATA},
    {VALUE, .key = "parallel.etp", .get = g_layout, .arg = LF_ETP, .when = w_moe, DATA},
    {VALUE, .key = "parallel.micro_batch", .get = g_layout, .arg = LF_MICRO, DATA},
    {VALUE, .key = "parallel.accum_steps", .brief = "accum", .unit = FU_INT, .get = g_layout,
     .arg = LF_ACCUM, DATA},
    {VALUE, .key = "parallel.tokens_per_step", .unit = FU_TOKENS, .get = g_tokens_per_step,
     PANEL},
    {VALUE, .key = "header.model", .label = "model", .get = g_model_line, PROSE},
    {VALUE, .key = "header.weights", .label = "weights", .get = g_checkpoint_line,
     .when = w_checkpoint, PROSE},
    {VALUE, .key = "header.gpus", .label = "gpus", .get = g_gpus_line, PROSE},
    {VALUE, .key = "header.setup", .label = "setup", .get = g_setup_line, PROSE},
    {VALUE, .key = "header.train", .label = "train", .get = g_train_line, PROSE},
    {.entry = FE_LINES, .key = "warnings", .label = "warning:", .count = n_warnings,
     .get = g_warning},

    SECTION("Memory per GPU", 20),
    {.entry = FE_LIST, .key = "memory.rows", .count = n_mem_rows, .item_name = mem_row_key,
     .briefs = MEM_BRIEFS,
     .cols = MEM_COLS, .prose_when = w_mem_row_shown},
    {VALUE, .key = "memory.params", .unit = FU_BYTES, .get = g_mem_bytes, .arg = MEM_PARAMS, DATA},
    {VALUE, .key = "memory.grads", .unit = FU_BYTES, .get = g_mem_bytes, .arg = MEM_GRADS, DATA},
    {VALUE, .key = "memory.optimizer", .unit = FU_BYTES, .get = g_mem_bytes, .arg = MEM_OPTIMIZER,
     DATA},
    {VALUE, .key = "memory.master_weights", .unit = FU_BYTES, .get = g_mem_bytes,
     .arg = MEM_MASTER, DATA},
    {VALUE, .key = "memory.buffers", .unit = FU_BYTES, .get = g_mem_bytes, .arg = MEM_BUFFERS,
     DATA},
    {VALUE, .key = "memory.activations", .unit = FU_BYTES, .get = g_mem_bytes,
     .arg = MEM_ACTIVATIONS, DATA},
    /* Its value under the rows' bytes column (2 + 16 + 9 + 12 + 12 + 3 spaces). */
    {VALUE, MEMORY("total", total), .label = "total", .aside = a_fit, .width = 31},
    {VALUE, MEMORY("activations_per_layer", activations_per_layer),
     .label = "activations/layer", .aside = a_per_micro_batch},
    {VALUE, MEMORY("activations_outside", activations_outside), .label = "outside the layers"},
    {VALUE, MEMORY("activations_embedding", activations_embedding), DATA},
    {VALUE, MEMORY("activations_low_copies", activations_low), DATA},
    {VALUE, MEMORY("capacity", capacity), DATA},
    {VALUE, MEMORY("reserve", reserve), DATA},
    {VALUE, MEMORY("usable", usable), DATA},
    {VALUE, .key = "memory.fits", .get = g_fits, DATA},
    /* The dashboard's verdict: the total against the usable memory (text: the total's aside). */
    {VALUE, .key = "memory.usable_share", .unit = FU_SHARE, .get = g_mem_usable,
     .arg = MU_SHARE, PANEL},
    {VALUE, .key = "memory.over_usable", .unit = FU_BYTES, .get = g_mem_usable, .arg = MU_OVER,
     PANEL},
    {VALUE, .key = "memory.usable_times", .unit = FU_TIMES, .get = g_mem_usable,
     .arg = MU_TIMES, PANEL},
    /* The checkpoint panel's: A and I of src/checkpoint.h, and the curve against the interval. */
    {VALUE, .key = "memory.checkpoint.layers", .unit = FU_LAYERS, .get = g_ckpt,
     .arg = CF_LAYERS, PANEL},
    {VALUE, .key = "memory.checkpoint.layer_stored", .unit = FU_BYTES, .get = g_ckpt,
     .arg = CF_STORED, PANEL},
    {VALUE, .key = "memory.checkpoint.layer_input", .unit = FU_BYTES, .get = g_ckpt,
     .arg = CF_INPUT, PANEL},
    {VALUE, .key = "memory.checkpoint.stored_times_input", .unit = FU_TIMES, .get = g_ckpt,
     .arg = CF_RATIO, PANEL},
    {VALUE, .key = "memory.checkpoint.best_k", .get = g_ckpt, .arg = CF_BEST_K, PANEL},
    {VALUE, .key = "memory.checkpoint.sqrt_layers", .get = g_ckpt, .arg = CF_SQRT_L, PANEL},
    {.entry = FE_LIST, .key = "memory.checkpoint.curve", .count = n_ckpt_rows,
     .cols = CKPT_COLS, PANEL},
    {VALUE, .key = "memory.weights_dtype", .get = g_mem_word, .arg = MW_WEIGHTS, DATA},
    {VALUE, .key = "memory.grad_dtype", .get = g_mem_word, .arg = MW_GRAD, DATA},
    {VALUE, .key = "memory.grad_dtype_why", .get = g_mem_word, .arg = MW_GRAD_WHY, DATA},
    {VALUE, .key = "memory.bytes_per_param.params", .get = g_state_bytes, .arg = SB_PARAMS,
     PANEL},
    {VALUE, .key = "memory.bytes_per_param.grads", .get = g_state_bytes, .arg = SB_GRADS, PANEL},
    {VALUE, .key = "memory.bytes_per_param.optimizer", .get = g_state_bytes,
     .arg = SB_OPTIMIZER, PANEL},
    {VALUE, .key = "memory.bytes_per_param.master", .get = g_state_bytes, .arg = SB_MASTER,
     PANEL},
    {VALUE, .key = "memory.bytes_per_param.total", .get = g_state_bytes, .arg = SB_TOTAL, PANEL},
    {VALUE, .key = "memory.optimizer_states", .get = g_state_bytes, .arg = SB_STATES, PANEL},
    {VALUE, .key = "memory.optimizer_state_dtype", .get = g_state_dtype, PANEL},
    /* The pipeline stage the rows are (the busiest), as Megatron-LM lays it out. */
    {VALUE, .key = "memory.stage.index", .get = g_stage_field, .arg = SF_INDEX, DATA},
    {VALUE, .key = "memory.stage.stages", .get = g_stage_field, .arg = SF_STAGES, DATA},
    {VALUE, .key = "memory.stage.layers", .unit = FU_LAYERS, .get = g_stage_field,
     .arg = SF_LAYERS, DATA},
    {VALUE, .key = "memory.stage.in_flight", .get = g_ev, EV(an.memory.busiest.in_flight), DATA},
    {VALUE, .key = "memory.stage.first_total_bytes", .unit = FU_BYTES, .get = g_stage_field,
     .arg = SF_FIRST, DATA},
    {VALUE, .key = "memory.stage.last_total_bytes", .unit = FU_BYTES, .get = g_stage_field,
     .arg = SF_LAST, DATA},
    {.entry = FE_LINES, .count = n_mem_notes, .get = g_mem_note, PROSE},

    SECTION("Parameters", 14),
    {VALUE, PARAM("embedding", embedding), .label = "embedding"},
    {VALUE, PARAM("position", position), .label = "positions", .prose_when = w_param_positive},
    {VALUE, PARAM("attention", attention), .label = "attention"},
    {VALUE, PARAM("mlp", mlp), .label = "mlp"},
    {VALUE, PARAM("mlp_active", mlp_active), .label = "mlp (active)", .prose_when = w_moe},
    {VALUE, PARAM("router", router), .label = "router", .prose_when = w_param_positive},
    {VALUE, PARAM("norms", norms), .label = "norms"},
    {VALUE, PARAM("biases", biases), .label = "biases", .prose_when = w_param_positive},
    {VALUE, PARAM("lm_head", lm_head), .label = "lm head"},
    {VALUE, PARAM("per_layer", per_layer), .label = "per layer"},
    {VALUE, PARAM("total", total), .label = "total"},
    {VALUE, PARAM("active", active), .label = "active", .prose_when = w_moe},
    {VALUE, .key = "params.typed", .label = "typed (6ND)", .unit = FU_PARAMS, .get = g_typed,
     .prose_when = w_typed_differs},
    /* Multi-token prediction (DeepSeek-V3): apart from total, as its release counts it. */
    {VALUE, PARAM("mtp", mtp), .label = "MTP (apart)", .prose_when = w_param_positive},
    /* The vocabulary the counts are of (padded with --vocab-pad) and the model's own. */
    {VALUE, .key = "params.vocab", .unit = FU_COUNT, .get = g_count, .arg = CF_VOCAB, DATA},
    {VALUE, .key = "params.model_vocab", .unit = FU_COUNT, .get = g_count, .arg = CF_MODEL_VOCAB,
     DATA},
    {VALUE, .key = "params.six_nd_n", .unit = FU_PARAMS, .get = g_count, .arg = CF_SIX_ND_N, DATA},
    /* The token embeddings and the learned positions together (the explain line's sum). */
    {VALUE, .key = "params.embeddings", .unit = FU_PARAMS, .get = g_count, .arg = CF_EMBEDDINGS,
     PANEL},
    {.entry = FE_LINES, .count = n_typed_note, .get = g_typed_note, PROSE},

    SECTION("FLOPs", 22),
    {VALUE, FLOPS("detailed", detailed), .label = "detailed, whole run", .brief = "detailed"},
    {VALUE, FLOPS("six_nd", six_nd), .label = "6ND, whole run", .brief = "6ND"},
    {VALUE, .key = "flops.detailed_vs_six_nd_percent", .label = "detailed vs 6ND",
     .brief = "vs 6ND", .unit = FU_PERCENT, .get = g_detailed_vs},
    {VALUE, .key = "flops.forward", .label = "forward", .unit = FU_FLOP, .get = g_pass, .arg = 1,
     .aside = a_pass},
    {VALUE, .key = "flops.backward", .label = "backward", .unit = FU_FLOP, .get = g_pass,
     .arg = 2, .aside = a_pass, .joined = true},
    {VALUE, .key = "flops.mode", .get = g_flops_mode, DATA}, /* text: the setup line's */
    /* The detailed count's attention convention (6ND has no attention term). */
    {VALUE, .key = "flops.attention", .label = "attention", .get = g_attention},
    {VALUE, FLOPS("per_step", per_step), .label = "executed per step", .brief = "FLOP/step"},
    {VALUE, FLOPS("model_per_step", model_per_step), .label = "model", .joined = true},
    {VALUE, FLOPS("recompute_per_step", recompute_per_step), DATA},
    {VALUE, .key = "flops.optimizer_per_step", EV(an.flops.optimizer_per_step), .unit = FU_FLOP,
     .label = "optimizer per step",
     .get = g_optimizer_flops},
    {VALUE, FLOPS("recompute", recompute), .label = "recompute, run", .brief = "recompute"},
    {VALUE, FLOPS("total", total), .label = "executed, run", .brief = "FLOPs"},
    {VALUE, FLOPS("model_total", model_total), DATA},

    SECTION("Time", 18),
    {VALUE, TIME("seconds", seconds), .label = "training", .brief = "time", .unit = FU_SECONDS,
     .aside = a_sci_seconds},
    {VALUE, TIME("days", days), .unit = FU_DAYS, DATA},
    {VALUE, TIME("gpu_hours", gpu_hours), .label = "GPU-hours", .unit = FU_GPU_HOURS},
    {VALUE, TIME("tokens_per_s", tokens_per_s), .label = "tokens/s", .unit = FU_TOKENS_S},
    {VALUE, TIME("step_seconds", step_seconds), .label = "step time", .unit = FU_SECONDS,
     .aside = a_steps},
    {VALUE, TIME("steps", steps), .brief = "steps", .unit = FU_STEPS, DATA},
    {VALUE, TIME("mfu", mfu), .label = "MFU", .unit = FU_FRACTION},
    {VALUE, TIME("hfu", hfu), .label = "HFU", .unit = FU_FRACTION, .joined = true},
    {VALUE, .key = "time.mfu_source", .get = g_mfu_source, DATA}, /* text: the setup line's */
    /* The MFU the time is at (scenario.mfu in JSON, the setup line's in text): the title's. */
    {VALUE, .key = "time.mfu_in_use", EV(mfu), .label = "MFU", .unit = FU_FRACTION, .get = g_ev,
     PANEL},

    SECTION("Cost", 18),
    {VALUE, COST("gpu_hours", gpu_hours), .label = "GPU-hours", .unit = FU_GPU_HOURS},
    {VALUE, .key = "cost.energy_kwh", EV(cost.energy_kwh), .label = "energy", .unit = FU_KWH,
     .get = g_energy,
     .aside = a_energy},
    {VALUE, .key = "cost.usd", EV(cost.usd), .label = "cost", .unit = FU_USD, .get = g_usd,
     .aside = a_usd},
    {VALUE, .key = "cost.price_per_gpu_hour", EV(cost.price), .unit = FU_USD_PER_GPU_HOUR,
     .get = g_price, DATA},
    {VALUE, .key = "cost.board_power_w", EV(cost.board_power), .unit = FU_WATTS,
     .get = g_board_power, DATA},
    {VALUE, COST("pue", pue), .unit = FU_FRACTION, DATA}, /* text says it with the energy */
    {VALUE, COST("seconds", seconds), .unit = FU_SECONDS, DATA},

    {.entry = FE_SECTION, .title = t_predicted, .width = 18},
    /* Its headline on one line, the parts under it, then what it assumed. */
    {VALUE, PRED("step_seconds", step_seconds), .label = "step", .brief = "pred step",
     .unit = FU_SECONDS},
    {VALUE, PRED("mfu", mfu), .label = "MFU", .brief = "pred MFU", .unit = FU_FRACTION,
     .joined = true},
    {VALUE, PRED("hfu", hfu), .label = "HFU", .unit = FU_FRACTION, .joined = true},
    {VALUE, PRED("tokens_per_s", tokens_per_s), .label = "tokens/s", .unit = FU_TOKENS_S,
     .joined = true},
    {VALUE, .key = "time.predicted.days", EV(pred.days), .label = "training",
     .unit = FU_DAYS, .get = g_pred_days, .joined = true},
    {.entry = FE_LIST, .key = "time.predicted.breakdown", .keyed = true, .count = n_parts,
     .item_name = part_key, .cols = PART_COLS, .prose_when = w_part_used},
    {VALUE, .key = "time.predicted.gemm_efficiency", EV(pred.gemm_efficiency),
     .label = "large GEMMs at", .unit = FU_FRACTION, .get = g_gemm_eff, .aside = a_of_peak},
    {VALUE, .key = "time.predicted.gemm_measured", .get = g_pred_word, .arg = PW_MEASURED, DATA},
    /* roofline.step_seconds again, beside the prediction it bounds (text and Markdown). */
    {VALUE, PRED("roofline_step_seconds", roofline_step), .label = "roofline step",
     .unit = FU_SECONDS, .joined = true, PROSE},
    {VALUE, .key = "time.predicted.framework", .label = "framework", .get = g_pred_word,
     .arg = PW_FRAMEWORK},
    {VALUE, .key = "time.predicted.framework_assumes", .label = "its schedule",
     .get = g_pred_word, .arg = PW_ASSUMES, .aside = a_override},
    {VALUE, .key = "time.predicted.dp_overlap_override", .get = g_pred_word, .arg = PW_OVERRIDE,
     DATA},
    /* What the framework's kernel time is divided by (src/framework.h). */
    {VALUE, .key = "time.predicted.framework_derate", .get = g_pred_word, .arg = PW_DERATE,
     PANEL},

    {.entry = FE_SECTION, .title = t_ops},
    {.entry = FE_LIST, .key = "ops", .count = n_ops, .item_name = op_name, .cols = OP_COLS},
    {.entry = FE_LINES, .count = n_measured_lines, .get = g_measured_line, PROSE},
    {VALUE, .key = "measured.efficiency", .arg = (int)offsetof(struct measured, efficiency), .unit = FU_FRACTION,
     .get = g_measured_eff,
     .when = w_points, DATA},
    {VALUE, .key = "measured.used_as_mfu", .get = g_measured_word, .arg = MW2_USED,
     .when = w_points, DATA},
    {VALUE, MEASURED("flops_per_step", flops), .unit = FU_FLOP, .when = w_points, DATA},
    {VALUE, MEASURED("seconds_per_step", seconds), .unit = FU_SECONDS, .when = w_points, DATA},
    {VALUE, MEASURED("peak", peak), .unit = FU_FLOP_RATE, .when = w_points, DATA},
    {VALUE, .key = "measured.ops_measured", .get = g_measured_word, .arg = MW2_OPS,
     .when = w_points, DATA},
    {VALUE, .key = "measured.gemm_ops", .get = g_measured_word, .arg = MW2_GEMMS,
     .when = w_points, DATA},
    {VALUE, .key = "measured.device", .get = g_measured_word, .arg = MW2_DEVICE,
     .when = w_points, DATA},
    {VALUE, .key = "measured.other_dtype", .get = g_measured_word, .arg = MW2_OTHER_DTYPE,
     .when = w_points, DATA},
    {VALUE, .key = "measured.shape_differs", .get = g_measured_word, .arg = MW2_SHAPE_DIFFERS,
     .when = w_points, DATA},
    {VALUE, .key = "measured.dtype_differs", .get = g_measured_word, .arg = MW2_DTYPE_DIFFERS,
     .when = w_points, DATA},
    {VALUE, .key = "measured.other_device", .get = g_measured_word, .arg = MW2_OTHER_DEVICE,
     .when = w_points, DATA},
    {.entry = FE_OBJECT, .key = "measured.shapes", .object = o_shapes, .when = w_points, DATA},

    SECTION("Contracts (einops, forward; b sequences, s tokens, t keys, h d_model, a heads,\n"
            "d head size, e Q/K/V width, c a x d, f MLP width, x experts, v vocab, p params)", 0),
    {.entry = FE_LIST, .count = n_ops, .item_name = op_name, .cols = CONTRACT_COLS, PROSE},

    {.entry = FE_SECTION, .title = t_roofline, .width = 18},
    {VALUE, ROOF("peak", peak), .label = "peak", .unit = FU_FLOP_RATE},
    {VALUE, ROOF("bandwidth", bandwidth), .label = "bandwidth", .unit = FU_BANDWIDTH,
     .joined = true},
    {VALUE, ROOF("ridge", ridge), .label = "ridge", .unit = FU_INTENSITY, .joined = true},
    {VALUE, ROOF("step_seconds", step_seconds), .label = "roofline step", .brief = "roof step", .unit = FU_SECONDS},
    {VALUE, ROOF("mfu_bound", mfu_bound), .label = "MFU bound", .brief = "roof MFU", .unit = FU_FRACTION,
     .joined = true},
    {VALUE, .key = "roofline.dtype", .get = g_roof_word, .arg = 0, DATA},
    /* The stage the ops are one GPU of: the busiest (all layers with one stage). */
    {VALUE, ROOF("stage_layers", stage_layers), .unit = FU_LAYERS, DATA},
    {VALUE, .key = "roofline.stage_lm_head", .get = g_roof_word, .arg = 1, DATA},
    END};

/* ---- entry points ------------------------------------------------------------------------- */

const struct figure *report_table(void)
{
    return REPORT;
}

/* The scenario block echoes the MFU in use as a number (its JSON meaning before the MFU
 * modes); time.mfu_source says where it comes from. */
static void report_ctx_of(const struct evaluation *ev, struct report_ctx *c)
{
    c->ev = ev;
    c->s = ev->sc;
    c->s.mfu = ev->mfu;
    c->s.mfu_mode = MFU_TYPED;
    c->meas = evaluation_measured(ev);
}

void report_figures(const struct evaluation *ev, const struct figure_pick *pick, int n,
                    struct figure_value *v, bool *shown)
{
    struct report_ctx c;
    report_ctx_of(ev, &c);
    figure_get_picks(&c, pick, n, v, shown);
}

bool report_figures_by_key(const struct evaluation *ev, const char *const *keys, int n,
                           const struct figure **rows, struct figure_value *v)
{
    struct report_ctx c;
    report_ctx_of(ev, &c);
    return figure_get_keys(REPORT, &c, keys, n, rows, v);
}

cJSON *report_json_of(const struct evaluation *ev)
{
    struct report_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    report_ctx_of(ev, c);
    cJSON *root = figure_json(REPORT, c);
    free(c);
    return root;
}

bool report_write(FILE *f, const struct evaluation *ev, enum report_format fmt)
{
    struct report_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return false;
    report_ctx_of(ev, c);
    bool ok = figure_write(f, REPORT, c, fmt);
    free(c);
    return ok && !ferror(f);
}

const cJSON *report_json_at(const cJSON *root, const char *key)
{
    const cJSON *o = root;
    const char *p = key;
    while (o != NULL && *p != '\0') {
        const char *dot = strchr(p, '.');
        size_t len = dot != NULL ? (size_t)(dot - p) : strlen(p);
        char part[64];
        if (len >= sizeof part)
            return NULL;
        memcpy(part, p, len);
        part[len] = '\0';
        o = cJSON_GetObjectItemCaseSensitive(o, part);
        p += len + (dot != NULL);
    }
    return o;
}

bool report_print_json(FILE *f, cJSON *root)
{
    char *text = root != NULL ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (text == NULL)
        return false;
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    free(text);
    return ok && !ferror(f);
}
