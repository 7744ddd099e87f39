/* solve_report.c - solve's answers: one table each (src/figure.h) that the four formats walk.
 * Text writes them before any section, as sentences ("max params: 6.83T (6.83e12) on ..."). */
#include "solve_report.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "figure_table.h"
#include "units.h"

#define A const struct solve_answer *a = ctx
#define NO_ITEM_ARG                                                                           \
    UNUSED_ITEM;                                                                              \
    UNUSED_ARG

/* A one-line summary of the setting an answer depends on. */
static void setting(const struct solve_answer *a, bool with_gpus, char *buf, size_t n)
{
    const struct scenario *s = &a->s;
    char mem[32];
    units_bytes(s->gpu.memory_bytes, mem, sizeof mem);
    char gpus[48] = "";
    if (with_gpus)
        snprintf(gpus, sizeof gpus, "%lld x ", (long long)s->gpus);
    /* cp and ep (issue 9) said where they split something, as tp and pp always are. */
    char more[64] = "";
    int used = 0;
    if (s->cp > 1)
        used = snprintf(more, sizeof more, ", cp %lld", (long long)s->cp);
    if (s->ep > 1 && used >= 0 && (size_t)used < sizeof more)
        snprintf(more + used, sizeof more - (size_t)used, ", ep %lld", (long long)s->ep);
    snprintf(buf, n, "%s%s (%s each), %s, %s, master weights %s, ZeRO %d, tp %lld, pp %lld%s",
             gpus, s->gpu.name, mem, dtype_name(s->dtype), optimizer_name(s->optimizer),
             s->master_weights ? "on" : "off", s->zero, (long long)s->tp, (long long)s->pp, more);
}

/* ---- the scenario's words and numbers ---------------------------------------------------- */

enum solve_field {
    SF_ACTIVATIONS, SF_GPUS, SF_GPU, SF_MEMORY, SF_DTYPE, SF_OPTIMIZER, SF_MASTER, SF_ZERO,
    SF_MODEL, SF_TP, SF_PP, SF_MAX_GPUS
};

static void g_field(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    NO_ITEM_ARG;
    const struct scenario *s = &a->s;
    switch ((enum solve_field)arg) {
    case SF_ACTIVATIONS:
        figure_bool(v, a->activations);
        return;
    case SF_GPUS:
        figure_num(v, (double)s->gpus);
        return;
    case SF_GPU:
        figure_str(v, s->gpu.id);
        return;
    case SF_MEMORY:
        figure_num(v, s->gpu.memory_bytes);
        return;
    case SF_DTYPE:
        figure_str(v, dtype_name(s->dtype));
        return;
    case SF_OPTIMIZER:
        figure_str(v, optimizer_name(s->optimizer));
        return;
    case SF_MASTER:
        figure_bool(v, s->master_weights);
        return;
    case SF_ZERO:
        figure_num(v, s->zero);
        return;
    case SF_MODEL:
        figure_str(v, s->model.id);
        return;
    case SF_TP:
        figure_num(v, (double)s->tp);
        return;
    case SF_PP:
        figure_num(v, (double)s->pp);
        return;
    case SF_MAX_GPUS:
        figure_num(v, (double)a->max_gpus);
        return;
    }
}

/* "note: ...": what was counted. */
static void g_note(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    NO_ITEM_ARG;
    const struct scenario *s = &a->s;
    bool max_params = arg != 0;
    if (a->activations)
        snprintf(v->buf, sizeof v->buf,
                 max_params ? "activations counted (batch %lld, micro-batch %lld, seq %lld) for "
                              "a custom model of each size"
                            : "activations counted (batch %lld, micro-batch %lld, seq %lld); "
                              "--activations off counts model state only",
                 (long long)s->batch, (long long)scenario_micro_batch(s), (long long)s->seq);
    else
        snprintf(v->buf, sizeof v->buf, "%s",
                 max_params ? "model state only (params, grads, optimizer state, master weights), "
                              "activations ignored: the lecture's upper bound (--activations on "
                              "counts them)"
                            : "model state only, activations ignored: a lower bound on the GPUs "
                              "needed");
    figure_str(v, v->buf);
}

/* ---- max-params ------------------------------------------------------------------------- */

static bool max_found(const struct solve_answer *a)
{
    return a->max_params > 0 && isfinite(a->max_params);
}

static bool w_max_found(const void *ctx, int item, int arg)
{
    A;
    NO_ITEM_ARG;
    return max_found(a);
}

static void g_max_params(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    NO_ITEM_ARG;
    figure_num(v, isfinite(a->max_params) ? a->max_params : 0);
    if (!max_found(a))
        v->text = "nothing fits";
}

static void a_max_params(const void *ctx, int item, int arg, char *buf, size_t n)
{
    A;
    NO_ITEM_ARG;
    char set[512], sci[32] = "";
    setting(a, true, set, sizeof set);
    if (max_found(a))
        units_sci(a->max_params, sci, sizeof sci);
    snprintf(buf, n, "%s%s%son %s", sci[0] ? "(" : "", sci, sci[0] ? ") " : "", set);
}

#define FIELD(k, f) .key = k, .get = g_field, .arg = f

const struct figure SOLVE_MAX_PARAMS[] = {
    {VALUE, .key = "max_params", .label = "max params", .unit = FU_COUNT, .get = g_max_params,
     .aside = a_max_params},
    {VALUE, FIELD("activations", SF_ACTIVATIONS), DATA},
    {VALUE, FIELD("gpus", SF_GPUS), DATA},
    {VALUE, FIELD("gpu", SF_GPU), DATA},
    {VALUE, FIELD("memory_bytes", SF_MEMORY), .unit = FU_BYTES, DATA},
    {VALUE, FIELD("dtype", SF_DTYPE), DATA},
    {VALUE, FIELD("optimizer", SF_OPTIMIZER), DATA},
    {VALUE, FIELD("master_weights", SF_MASTER), DATA},
    {VALUE, FIELD("zero", SF_ZERO), DATA},
    {VALUE, .key = "note", .label = "note", .get = g_note, .arg = 1, .when = w_max_found,
     PROSE},
    END};

/* ---- min-gpus --------------------------------------------------------------------------- */

static bool w_missed(const void *ctx, int item, int arg)
{
    A;
    NO_ITEM_ARG;
    return a->min_gpus <= 0;
}

static void g_min_gpus(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    NO_ITEM_ARG;
    figure_num(v, (double)a->min_gpus);
    if (a->min_gpus <= 0)
        v->text = "none";
}

static void a_min_gpus(const void *ctx, int item, int arg, char *buf, size_t n)
{
    A;
    NO_ITEM_ARG;
    char set[512], c[32], upto[48] = "";
    setting(a, false, set, sizeof set);
    units_count(a->model_params, c, sizeof c);
    if (a->min_gpus <= 0)
        snprintf(upto, sizeof upto, "up to %lld fits", a->max_gpus);
    snprintf(buf, n, "%s%s %s (%s parameters) on %s", upto, upto[0] ? "" : "for",
             a->s.model.name, c, set);
}

/* The largest count searched, what each GPU still needs there and what it has. */
enum miss_field { MF_BATCH_LIMITS, MF_BATCH, MF_GPUS, MF_DP, MF_NEEDED, MF_ACTIVATIONS,
                  MF_CAPACITY };

static void g_miss(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    NO_ITEM_ARG;
    const struct solve_miss *m = &a->miss;
    switch ((enum miss_field)arg) {
    case MF_BATCH_LIMITS:
        figure_bool(v, m->batch_limits);
        return;
    case MF_BATCH:
        figure_num(v, (double)a->s.batch);
        return;
    case MF_GPUS:
        figure_num(v, (double)m->gpus);
        return;
    case MF_DP:
        figure_num(v, (double)m->dp);
        return;
    case MF_NEEDED:
        figure_num(v, m->needed);
        return;
    case MF_ACTIVATIONS:
        figure_num(v, m->activations);
        return;
    case MF_CAPACITY:
        figure_num(v, m->capacity);
        return;
    }
}

/* "why: ...": the miss's figures as a sentence. */
static void g_why(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    NO_ITEM_ARG;
    const struct solve_miss *m = &a->miss;
    char need[32], cap[32], act[32], of_it[160] = "";
    units_bytes(m->needed, need, sizeof need);
    units_bytes(m->capacity, cap, sizeof cap);
    units_bytes(m->activations, act, sizeof act);
    if (m->activations > 0)
        snprintf(of_it, sizeof of_it,
                 ", %s of it activations, which data parallelism does not shrink", act);
    if (m->batch_limits)
        snprintf(v->buf, sizeof v->buf,
                 "data parallelism cannot exceed the batch of %lld sequences: at %lld GPUs "
                 "(dp %lld) each still needs %s of its %s%s",
                 (long long)a->s.batch, (long long)m->gpus, (long long)m->dp, need, cap, of_it);
    else
        snprintf(v->buf, sizeof v->buf,
                 "at the largest count searched, %lld GPUs (dp %lld), each still needs %s of "
                 "its %s%s",
                 (long long)m->gpus, (long long)m->dp, need, cap, of_it);
    figure_str(v, v->buf);
}

static int n_hints(const void *ctx)
{
    A;
    return a->miss.n_hints;
}

static void g_hint(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    if (item < 0 || item >= a->miss.n_hints)
        return;
    if (arg == 0)
        figure_str(v, a->miss.hint[item].option);
    else
        figure_num(v, (double)a->miss.hint[item].gpus);
}

/* "try: ...": the hints as a sentence, or what is left to try. */
static void g_try(const void *ctx, int item, int arg, struct figure_value *v)
{
    A;
    NO_ITEM_ARG;
    const struct solve_miss *m = &a->miss;
    if (m->n_hints == 0) {
        snprintf(v->buf, sizeof v->buf, "%s, or a GPU with more memory (--gpu)",
                 m->batch_limits ? "a larger --batch (more data parallelism)"
                                 : "a larger --max-gpus");
        figure_str(v, v->buf);
        return;
    }
    size_t used = 0;
    v->buf[0] = '\0';
    for (int k = 0; k < m->n_hints && used < sizeof v->buf; k++) {
        int w = snprintf(v->buf + used, sizeof v->buf - used, "%s%s (fits on %lld GPUs)",
                         k > 0 ? ", " : "", m->hint[k].option, (long long)m->hint[k].gpus);
        used += w > 0 ? (size_t)w : 0;
    }
    figure_str(v, v->buf);
}

static const struct figure HINT_COLS[] = {
    {VALUE, .key = "option", .label = "option", .get = g_hint, .arg = 0},
    {VALUE, .key = "min_gpus", .label = "min gpus", .unit = FU_INT, .get = g_hint, .arg = 1},
    END};

#define MISS(k, f) .key = "why." k, .get = g_miss, .arg = f, .when = w_missed, DATA

const struct figure SOLVE_MIN_GPUS[] = {
    {VALUE, .key = "min_gpus", .label = "min gpus", .unit = FU_INT, .get = g_min_gpus,
     .aside = a_min_gpus},
    {VALUE, FIELD("activations", SF_ACTIVATIONS), DATA},
    {VALUE, FIELD("model", SF_MODEL), DATA},
    {VALUE, FIELD("gpu", SF_GPU), DATA},
    {VALUE, FIELD("tp", SF_TP), DATA},
    {VALUE, FIELD("pp", SF_PP), DATA},
    {VALUE, FIELD("max_gpus", SF_MAX_GPUS), DATA},
    {VALUE, MISS("batch_limits_dp", MF_BATCH_LIMITS)},
    {VALUE, MISS("batch", MF_BATCH), .unit = FU_SEQUENCES},
    {VALUE, MISS("largest_gpus", MF_GPUS)},
    {VALUE, MISS("largest_dp", MF_DP)},
    {VALUE, MISS("memory_per_gpu", MF_NEEDED), .unit = FU_BYTES},
    {VALUE, MISS("activations_per_gpu", MF_ACTIVATIONS), .unit = FU_BYTES},
    {VALUE, MISS("capacity", MF_CAPACITY), .unit = FU_BYTES},
    {VALUE, .key = "why", .label = "why", .get = g_why, .when = w_missed, PROSE},
    {.entry = FE_LIST, .key = "try", .count = n_hints, .cols = HINT_COLS, .when = w_missed,
     DATA},
    {VALUE, .key = "try", .label = "try", .get = g_try, .when = w_missed, PROSE},
    {VALUE, .key = "note", .label = "note", .get = g_note, .arg = 0, PROSE},
    END};
