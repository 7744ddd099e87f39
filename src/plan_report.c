/* plan_report.c - a plan search's layouts: one table (src/figure.h) that the four formats
 * walk, the plans a list of items whose columns are each layout's figures. */
#include "plan_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "figure_table.h"
#include "inputs.h"
#include "units.h"

#define CTX const struct plan_report *c = ctx

/* ---- the constraints -------------------------------------------------------------------- */

static bool any_fixed(const struct plan_fixed *fx)
{
    for (int a = 0; a < PLAN_AXES; a++)
        if (fx->set[a])
            return true;
    return false;
}

/* A fixed axis's flag ("micro-batch") and value as the registry writes it ("8", "on", "full",
 * "auto"). */
static void fixed_axis(const struct plan_fixed *fx, enum plan_axis a, const struct scenario *base,
                       char *flag, size_t flag_n, char *value, size_t value_n)
{
    const struct input *in = inputs_find(plan_axis_key(a));
    struct scenario t = *base;
    int64_t v = fx->value[a];
    switch (a) {
    case PLAN_TP: t.tp = v; break;
    case PLAN_PP: t.pp = v; break;
    case PLAN_VPP: t.vpp = v; break;
    case PLAN_CP: t.cp = v; break;
    case PLAN_EP: t.ep = v; break;
    case PLAN_ETP: t.etp = v; break;
    case PLAN_SP: t.sp = v != 0; break;
    case PLAN_ZERO: t.zero = (int)v; break;
    case PLAN_MICRO_BATCH: t.micro_batch = v; break;
    case PLAN_RECOMPUTE: t.recompute = (enum recompute)v; break;
    case PLAN_AXES: break;
    }
    snprintf(flag, flag_n, "%s", plan_axis_key(a));
    snprintf(value, value_n, "%lld", (long long)v);
    if (in != NULL) {
        inputs_flag(in, flag, flag_n);
        inputs_format(in, &t, value, value_n);
    }
}

static bool w_fixed(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    return any_fixed(&c->r->fixed);
}

/* "constrained": counts as numbers, words (sp, recompute, a micro-batch of auto) as strings. */
static bool o_constrained(const void *ctx, cJSON *parent, const char *name)
{
    CTX;
    const struct plan_fixed *fx = &c->r->fixed;
    cJSON *o = cJSON_AddObjectToObject(parent, name);
    bool ok = o != NULL;
    for (int a = 0; ok && a < PLAN_AXES; a++) {
        if (!fx->set[a])
            continue;
        char flag[48], value[48];
        fixed_axis(fx, (enum plan_axis)a, c->base, flag, sizeof flag, value, sizeof value);
        bool word = a == PLAN_SP || a == PLAN_RECOMPUTE ||
                    (a == PLAN_MICRO_BATCH && fx->value[a] == 0);
        ok = word ? cJSON_AddStringToObject(o, flag, value) != NULL
                  : cJSON_AddNumberToObject(o, flag, (double)fx->value[a]) != NULL;
    }
    return ok;
}

/* The heading: what was searched, "constrained: tp 8, zero 0 (...)" when axes were fixed, and
 * why nothing is listed when nothing is. */
static void t_title(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct scenario *b = c->base;
    const struct plan_result *r = c->r;
    int used = snprintf(buf, n, "Layouts of %s on %s%lld x %s, batch %lld x seq %lld, by %s: "
                                "%ld searched, %ld fit",
                        b->model.name, c->by == PLAN_BY_TIME ? "" : "up to ", (long long)b->gpus,
                        b->gpu.name, (long long)b->batch, (long long)b->seq,
                        plan_by_name(c->by), r->searched, r->fitting);
    for (int a = 0, k = 0; a < PLAN_AXES && used >= 0 && (size_t)used < n; a++) {
        if (!r->fixed.set[a])
            continue;
        char flag[48], value[48];
        fixed_axis(&r->fixed, (enum plan_axis)a, b, flag, sizeof flag, value, sizeof value);
        used += snprintf(buf + used, n - (size_t)used, "%s %s %s", k++ ? "," : "\nconstrained:",
                         flag, value);
    }
    if (any_fixed(&r->fixed) && used >= 0 && (size_t)used < n)
        used += snprintf(buf + used, n - (size_t)used,
                         " (the layout flags given; the rest searched)");
    if (r->n == 0 && used >= 0 && (size_t)used < n)
        snprintf(buf + used, n - (size_t)used,
                 "\nNo layout splits this batch over this GPU count (tp must divide the heads, "
                 "pp the layers, dp the batch)%s.",
                 any_fixed(&r->fixed) ? " under these constraints" : "");
}

static bool w_plans(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    return c->r->n > 0;
}

/* "Best as flags: --gpus 8 --tp 1 ...": the first plan as command-line flags. */
static void t_best(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    char flags[256];
    plan_flags(&c->r->plans[0], flags, sizeof flags);
    snprintf(buf, n, "Best as flags: %s", flags);
}

/* ---- the plans -------------------------------------------------------------------------- */

static int n_plans(const void *ctx)
{
    CTX;
    return c->plans != NULL ? c->n : c->r->n;
}

/* Layout item of the list: those given (a view's list), else the search's; NULL past it. */
static const struct plan *plan_at(const struct plan_report *c, int item)
{
    if (item < 0 || item >= n_plans(c))
        return NULL;
    return c->plans != NULL ? &c->plans[item] : &c->r->plans[item];
}

enum plan_col {
    PC_RANK, PC_MODEL, PC_GPU, PC_GPUS, PC_BATCH, PC_SEQ, PC_DP, PC_TP, PC_PP, PC_VPP, PC_CP,
    PC_EP, PC_ETP, PC_SP, PC_ZERO, PC_MICRO_BATCH, PC_RECOMPUTE, PC_MFU_INPUT, PC_FIRST_LAYERS,
    PC_LAST_LAYERS, PC_STEP, PC_MFU, PC_HFU, PC_MEMORY, PC_TOKENS_S, PC_DAYS, PC_GPU_HOURS,
    PC_FITS, PC_COST_GPU_HOURS, PC_ENERGY, PC_USD, PC_LARGEST
};

/* The layout's inputs, as `rooftop report` takes them (options.*). */
static bool layout_get(const struct plan_report *c, const struct plan *p, int arg,
                       struct figure_value *v)
{
    const struct scenario *s = &p->s;
    switch ((enum plan_col)arg) {
    case PC_MODEL:
        figure_str(v, c->base->model.id[0] ? c->base->model.id : "custom");
        return true;
    case PC_GPU:
        figure_str(v, c->base->gpu.id[0] ? c->base->gpu.id : "custom");
        return true;
    case PC_GPUS: figure_num(v, (double)s->gpus); return true;
    case PC_BATCH: figure_num(v, (double)s->batch); return true;
    case PC_SEQ: figure_num(v, (double)s->seq); return true;
    case PC_DP: figure_num(v, (double)scenario_dp(s)); return true;
    case PC_TP: figure_num(v, (double)s->tp); return true;
    case PC_PP: figure_num(v, (double)s->pp); return true;
    case PC_VPP: figure_num(v, (double)s->vpp); return true;
    case PC_CP: figure_num(v, (double)s->cp); return true;
    case PC_EP: figure_num(v, (double)s->ep); return true;
    case PC_ETP: figure_num(v, (double)scenario_etp(s)); return true;
    case PC_SP: figure_str(v, s->sp ? "on" : "off"); return true;
    case PC_ZERO: figure_num(v, s->zero); return true;
    case PC_MICRO_BATCH: figure_num(v, (double)s->micro_batch); return true;
    case PC_RECOMPUTE: figure_str(v, recompute_name(s->recompute)); return true;
    case PC_MFU_INPUT: figure_str(v, "predicted"); return true;
    case PC_FIRST_LAYERS: figure_num(v, (double)s->first_stage_layers); return true;
    case PC_LAST_LAYERS: figure_num(v, (double)s->last_stage_layers); return true;
    default:
        return false;
    }
}

/* "compute 100%": the part of the step that takes longest, and whether the layout fits. */
static void largest_part(const struct plan *p, struct figure_value *v)
{
    int big = 0;
    for (int k = 1; k < PART_COUNT; k++)
        if (p->pred.part[k] > p->pred.part[big])
            big = k;
    snprintf(v->buf, sizeof v->buf, "%s %.0f%%%s", predict_part_label((enum predict_part)big),
             100.0 * p->pred.part[big] / p->pred.step_seconds, p->fits ? "" : "  DOES NOT FIT");
    figure_str(v, v->buf);
}

/* The layout's predicted figures; a non-finite number is 0, as before the table. */
static void outcome_get(const struct plan *p, int arg, struct figure_value *v)
{
    const struct prediction *pr = &p->pred;
    switch ((enum plan_col)arg) {
    case PC_STEP: figure_num(v, pr->step_seconds); break;
    case PC_MFU:
        figure_num(v, pr->mfu);
        snprintf(v->buf, sizeof v->buf, "%.3f", pr->mfu);
        v->text = v->buf;
        break;
    case PC_HFU: figure_num(v, pr->hfu); break;
    case PC_MEMORY: figure_num(v, p->memory_total); break;
    case PC_TOKENS_S: figure_num(v, pr->tokens_per_s); break;
    case PC_DAYS:
        /* The whole run of the scenario's tokens at this layout's predicted step. */
        figure_num(v, pr->days);
        units_duration(pr->days * 86400.0, v->buf, sizeof v->buf);
        v->text = v->buf;
        break;
    case PC_GPU_HOURS: figure_num(v, pr->days * 24.0 * (double)p->s.gpus); break;
    case PC_FITS: figure_bool(v, p->fits); return;
    case PC_COST_GPU_HOURS: figure_num(v, p->cost.gpu_hours); break;
    case PC_ENERGY:
        /* The run's cost as report's JSON has it: null where unknown or no price is given. */
        if (p->cost.has_energy)
            figure_num(v, p->cost.energy_kwh);
        return;
    case PC_USD:
        if (p->cost.has_price)
            figure_num(v, p->cost.usd);
        return;
    case PC_LARGEST: largest_part(p, v); return;
    default: return;
    }
    if (v->kind == FK_NUM && !isfinite(v->num))
        v->num = 0.0;
}

static void g_plan(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    const struct plan *p = plan_at(c, item);
    if (p == NULL)
        return;
    if (arg == PC_RANK)
        figure_num(v, item + 1);
    else if (!layout_get(c, p, arg, v))
        outcome_get(p, arg, v);
}

static void g_part(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    const struct plan *p = plan_at(c, item);
    if (p != NULL)
        figure_num(v, isfinite(p->pred.part[arg]) ? p->pred.part[arg] : 0.0);
}

static bool w_uneven(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ARG;
    const struct plan *p = plan_at(c, item);
    return p != NULL && scenario_uneven_stages(&p->s);
}

/* A MoE model's plans: their expert tp, folded or tp's, is a column. */
static bool w_moe(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    return model_is_moe(&c->base->model);
}

/* The money column: the run's cost when priced, else its energy (else none: GPU-hours has
 * it). */
static bool w_priced(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    return c->base->price > 0;
}

static bool w_energy_column(const void *ctx, int item, int arg)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    return !(c->base->price > 0) && c->base->gpu.board_power > 0;
}

#define COL(k, l, a, w) .key = k, .label = l, .get = g_plan, .arg = a, .width = w
#define OPT(k, a) .key = "options." k, .get = g_plan, .arg = a, DATA
#define PART(k, a) {VALUE, .key = "breakdown." k, .get = g_part, .arg = a, .unit = FU_SECONDS, DATA}

static const struct figure PLAN_COLS[] = {
    {VALUE, COL("rank", "#", PC_RANK, 2), .unit = FU_INT, PROSE},
    {VALUE, OPT("model", PC_MODEL)},
    {VALUE, OPT("gpu", PC_GPU)},
    {VALUE, COL("options.gpus", "GPUs", PC_GPUS, 5), .unit = FU_INT},
    {VALUE, OPT("batch", PC_BATCH), .unit = FU_SEQUENCES},
    {VALUE, OPT("seq", PC_SEQ), .unit = FU_TOKENS},
    PART("compute", PART_COMPUTE),
    PART("recompute", PART_RECOMPUTE),
    PART("tp_comm", PART_TP_COMM),
    PART("cp_comm", PART_CP_COMM),
    PART("ep_comm", PART_EP_COMM),
    PART("pp_bubble", PART_PP_BUBBLE),
    PART("pp_comm", PART_PP_COMM),
    PART("dp_comm", PART_DP_COMM),
    PART("optimizer", PART_OPTIMIZER),
    {VALUE, COL("dp", "dp", PC_DP, 4), .unit = FU_INT},
    {VALUE, COL("options.tp", "tp", PC_TP, 4), .unit = FU_INT},
    {VALUE, COL("options.pp", "pp", PC_PP, 4), .unit = FU_INT},
    {VALUE, COL("options.vpp", "vpp", PC_VPP, 5), .unit = FU_INT},
    {VALUE, COL("options.cp", "cp", PC_CP, 3), .unit = FU_INT},
    {VALUE, COL("options.ep", "ep", PC_EP, 3), .unit = FU_INT},
    {VALUE, COL("options.etp", "etp", PC_ETP, 4), .unit = FU_INT, .when = w_moe},
    {VALUE, COL("options.sp", "sp", PC_SP, 3), .right = true},
    {VALUE, COL("options.zero", "zero", PC_ZERO, 4), .unit = FU_INT},
    {VALUE, COL("options.micro-batch", "mb", PC_MICRO_BATCH, 4), .unit = FU_INT},
    {VALUE, COL("options.recompute", "recompute", PC_RECOMPUTE, 9)},
    {VALUE, OPT("mfu", PC_MFU_INPUT)},
    {VALUE, OPT("decoder-first-pipeline-num-layers", PC_FIRST_LAYERS), .unit = FU_LAYERS,
     .when = w_uneven},
    {VALUE, OPT("decoder-last-pipeline-num-layers", PC_LAST_LAYERS), .unit = FU_LAYERS,
     .when = w_uneven},
    {VALUE, COL("step_seconds", "step", PC_STEP, 9), .unit = FU_SECONDS},
    {VALUE, COL("mfu", "MFU", PC_MFU, 6), .unit = FU_FRACTION},
    {VALUE, .key = "hfu", .get = g_plan, .arg = PC_HFU, .unit = FU_FRACTION, DATA},
    {VALUE, COL("memory_total", "memory", PC_MEMORY, 10), .unit = FU_BYTES},
    {VALUE, COL("tokens_per_s", "tokens/s", PC_TOKENS_S, 10), .unit = FU_TOKENS_S},
    {VALUE, COL("days", "training", PC_DAYS, 11), .unit = FU_DAYS},
    {VALUE, COL("gpu_hours", "GPU-hours", PC_GPU_HOURS, 9), .unit = FU_GPU_HOURS},
    {VALUE, .key = "fits", .get = g_plan, .arg = PC_FITS, DATA},
    {VALUE, .key = "cost.gpu_hours", .get = g_plan, .arg = PC_COST_GPU_HOURS,
     .unit = FU_GPU_HOURS, DATA},
    /* One of these two in text. */
    {VALUE, COL("cost.energy_kwh", "energy", PC_ENERGY, 9), .unit = FU_KWH,
     .prose_when = w_energy_column},
    {VALUE, COL("cost.usd", "cost", PC_USD, 9), .unit = FU_USD, .prose_when = w_priced},
    {VALUE, COL("largest", "largest part", PC_LARGEST, 1), PROSE},
    END};

static void g_result(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    if (arg == 0)
        figure_str(v, plan_by_name(c->by));
    else
        figure_num(v, (double)(arg == 1 ? c->r->searched : c->r->fitting));
}

const struct figure PLAN_REPORT[] = {
    {.entry = FE_SECTION, .title = t_title},
    {.entry = FE_LIST, .key = "plans", .count = n_plans, .cols = PLAN_COLS,
     .prose_when = w_plans},
    {VALUE, .key = "by", .get = g_result, .arg = 0, DATA},
    {VALUE, .key = "searched", .get = g_result, .arg = 1, .unit = FU_INT, DATA},
    {VALUE, .key = "fitting", .get = g_result, .arg = 2, .unit = FU_INT, DATA},
    {.entry = FE_OBJECT, .key = "constrained", .object = o_constrained, .when = w_fixed, DATA},
    {.entry = FE_SECTION, .title = t_best, .when = w_plans},
    END};

void plan_report_figures(const struct scenario *base, const struct plan *plans, int n,
                         const struct figure_pick *pick, int k, struct figure_value *v,
                         bool *shown)
{
    struct plan_report c = {.base = base, .plans = plans, .n = n, .by = PLAN_BY_TIME};
    figure_get_picks(&c, pick, k, v, shown);
}
