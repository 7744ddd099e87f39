/* analysis.c - runs every part of the accounting for one scenario. */
#include "analysis.h"

#include <string.h>

#include "flops.h"
#include "gpu.h"
#include "memory.h"

/* Training time: executed FLOPs over what the GPUs deliver at the given utilisation. */
static void timing_compute(const struct scenario *s, double mfu, const struct flops *f,
                           struct timing *t)
{
    memset(t, 0, sizeof *t);
    double peak = gpu_peak(&s->gpu, s->dtype);
    double rate = (double)s->gpus * peak; /* promised FLOP/s of the whole cluster */
    if (rate <= 0 || mfu <= 0)
        return;
    t->seconds = f->total / (rate * mfu);
    t->days = t->seconds / 86400.0;
    t->gpu_hours = t->seconds * (double)s->gpus / 3600.0;
    t->hfu = t->seconds > 0 ? f->total / (t->seconds * rate) : 0.0;
    t->mfu = t->seconds > 0 ? f->model_total / (t->seconds * rate) : 0.0;
    t->tokens_per_s = t->seconds > 0 ? s->tokens / t->seconds : 0.0;
    t->steps = s->tokens / ((double)s->batch * (double)s->seq);
    t->step_seconds = t->steps > 0 ? t->seconds / t->steps : 0.0;
}

/* The model as trained (a padded vocabulary: its embedding, LM head, FLOPs, logits). */
static void trained(const struct scenario *s, struct scenario *t)
{
    *t = *s;
    scenario_trained_model(s, &t->model);
}

/* The two halves on t, the scenario as trained (trained()). */
static void memory_of(const struct scenario *t, struct analysis *out)
{
    memset(out, 0, sizeof *out);
    out->dp = scenario_dp(t);
    out->micro_batch = scenario_micro_batch(t);
    out->accum_steps = scenario_accum_steps(t);
    model_params(&t->model, &out->params);
    memory_compute(t, &out->params, &out->memory);
}

static void finish_of(const struct scenario *t, struct analysis *out)
{
    flops_totals(t, &out->params, &out->flops);
    timing_compute(t, t->mfu, &out->flops, &out->time);
    flops_ops(t, &out->params, out->ops, &out->n_ops, &out->roofline);
}

void analysis_memory(const struct scenario *s, struct analysis *out)
{
    struct scenario t;
    trained(s, &t);
    memory_of(&t, out);
}

void analysis_finish(const struct scenario *s, struct analysis *out)
{
    struct scenario t;
    trained(s, &t);
    finish_of(&t, out);
}

/* The trained scenario made once for both halves: a copy of the scenario (1.3 KB) and its
 * model's vocabulary fewer on every evaluation, every key of the dashboard. */
void analysis_run(const struct scenario *s, struct analysis *out)
{
    struct scenario t;
    trained(s, &t);
    memory_of(&t, out);
    finish_of(&t, out);
}

void analysis_retime(const struct scenario *s, double mfu, struct analysis *a)
{
    timing_compute(s, mfu, &a->flops, &a->time);
}
