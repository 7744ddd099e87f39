/* solve.c - the largest model that fits, the fewest GPUs that hold one. */
#include "solve.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "memory.h"
#include "scenario_check.h"

/* Bytes per GPU that must fit: everything, or model state only (the lecture's upper bound:
 * parameters, gradients, optimizer state and master weights, without activations or the
 * working buffers of ZeRO). */
static double memory_needed(const struct memory *m, bool activations)
{
    if (activations)
        return m->total;
    return m->row[MEM_PARAMS].bytes + m->row[MEM_GRADS].bytes + m->row[MEM_OPTIMIZER].bytes +
           m->row[MEM_MASTER].bytes;
}

/* What that must fit in: the usable memory (capacity less the CUDA context and allocator
 * reserve) for a real run; the datasheet's capacity for the lecture's upper bound, which
 * leaves everything but model state out. */
static double memory_room(const struct memory *m, bool activations)
{
    return activations ? m->usable : m->capacity;
}

/* Memory per GPU of scenario s with its model replaced by a custom model of n parameters. */
static bool fits_with(const struct scenario *base, double n, bool activations)
{
    struct scenario s = *base;
    if (!model_from_params(n, &s.model))
        return false;
    scenario_trained_model(&s, &s.model);
    struct param_counts pc;
    model_params(&s.model, &pc);
    struct memory m;
    memory_compute(&s, &pc, &m);
    double used = memory_needed(&m, activations);
    return used <= memory_room(&m, activations);
}

double solve_max_params(const struct scenario *s, bool activations)
{
    if (!activations) {
        /* Model state is linear in N: bytes per parameter per GPU, then divide. Computed from
         * a large probe model so ceil() rounding of shards is negligible. */
        struct scenario t = *s;
        double n = 1e12;
        if (!model_from_params(n, &t.model))
            return 0;
        scenario_trained_model(&t, &t.model);
        struct param_counts pc;
        model_params(&t.model, &pc);
        struct memory m;
        memory_compute(&t, &pc, &m);
        double state = memory_needed(&m, false);
        if (state <= 0 || pc.total <= 0)
            return 0;
        /* Per parameter of the shape's own count (within 0.01% of n, not n itself). */
        return floor(memory_room(&m, false) / (state / (double)pc.total));
    }
    /* With activations the shape matters: bisect on N (memory grows with N). */
    double lo = 1e6, hi = 1e17;
    if (!fits_with(s, lo, true))
        return 0;
    for (int i = 0; i < 200 && hi - lo > 1e-4 * lo; i++) {
        double mid = sqrt(lo * hi);
        if (fits_with(s, mid, true))
            lo = mid;
        else
            hi = mid;
    }
    return floor(lo);
}

int64_t solve_min_gpus(const struct scenario *s, bool activations, int64_t max_gpus)
{
    struct scenario t = *s;
    scenario_trained_model(s, &t.model);
    int64_t mp = s->tp * s->pp * s->cp;
    if (mp < 1)
        return 0;
    struct param_counts pc; /* the model does not change with the GPU count */
    model_params(&t.model, &pc);
    for (int64_t dp = 1; dp * mp <= max_gpus; dp++) {
        if (s->batch % dp != 0)
            continue; /* the global batch must split over the data-parallel ranks */
        if ((s->tp * dp * s->cp) % (s->ep * scenario_etp(s)) != 0)
            continue; /* ep x etp divides a stage's ranks (Megatron-core) */
        t.gpus = dp * mp;
        if (t.micro_batch > 0 && s->batch % (t.micro_batch * dp) != 0)
            continue;
        struct memory m;
        memory_compute(&t, &pc, &m);
        double used = memory_needed(&m, activations);
        if (used <= memory_room(&m, activations))
            return t.gpus;
    }
    return 0;
}

static void add_hint(struct solve_miss *out, const struct scenario *t, bool activations,
                     int64_t max_gpus, const char *option)
{
    if (out->n_hints >= SOLVE_HINTS_MAX)
        return;
    struct scenario c = *t;
    c.gpus = c.tp * c.pp * c.cp * c.ep; /* validated at a small count, as the CLI does */
    char err[256];
    if (!scenario_validate(&c, err, (int)sizeof err))
        return;
    int64_t g = solve_min_gpus(&c, activations, max_gpus);
    if (g <= 0)
        return;
    snprintf(out->hint[out->n_hints].option, sizeof out->hint[0].option, "%s", option);
    out->hint[out->n_hints].gpus = g;
    out->n_hints++;
}

/* The smallest tensor (tp) or pipeline degree, doubling up to limit, that min-gpus fits. */
static void hint_degree(struct solve_miss *out, const struct scenario *s, bool activations,
                        int64_t max_gpus, bool tp, int64_t limit)
{
    const int64_t now = tp ? s->tp : s->pp;
    for (int64_t f = 2; f <= 64 && now * f <= limit; f *= 2) {
        struct scenario t = *s;
        if (tp)
            t.tp = now * f;
        else
            t.pp = now * f;
        char opt[48];
        snprintf(opt, sizeof opt, "--%s %lld", tp ? "tp" : "pp", (long long)(now * f));
        int before = out->n_hints;
        add_hint(out, &t, activations, max_gpus, opt);
        if (out->n_hints > before)
            return;
    }
}

void solve_min_gpus_miss(const struct scenario *s, bool activations, int64_t max_gpus,
                         struct solve_miss *out)
{
    memset(out, 0, sizeof *out);
    out->capacity = activations ? s->gpu.memory_bytes - s->memory_reserve : s->gpu.memory_bytes;
    const int64_t mp = s->tp * s->pp * s->cp;
    if (mp < 1)
        return;
    /* The largest data-parallel degree the search could use: it divides the batch (and the
     * batch splits into micro-batches over it), at most max_gpus / (tp x pp). */
    int64_t top = max_gpus / mp < s->batch ? max_gpus / mp : s->batch;
    out->batch_limits = s->batch <= max_gpus / mp;
    for (int64_t dp = top; dp >= 1; dp--) {
        if (s->batch % dp != 0 || (s->micro_batch > 0 && s->batch % (s->micro_batch * dp) != 0) ||
            (s->tp * dp * s->cp) % (s->ep * scenario_etp(s)) != 0)
            continue;
        struct scenario t = *s;
        scenario_trained_model(s, &t.model);
        t.gpus = dp * mp;
        struct param_counts pc;
        model_params(&t.model, &pc);
        struct memory m;
        memory_compute(&t, &pc, &m);
        out->gpus = t.gpus;
        out->dp = dp;
        out->needed = memory_needed(&m, activations);
        out->capacity = memory_room(&m, activations);
        out->activations = activations ? m.row[MEM_ACTIVATIONS].bytes : 0.0;
        break;
    }
    /* One change at a time, each tried as min-gpus would: more tensor parallelism (within
     * a node of 8), pipeline stages, full recomputation, one sequence per micro-batch, ZeRO-3. */
    struct scenario t;
    hint_degree(out, s, activations, max_gpus, true, 8);
    hint_degree(out, s, activations, max_gpus, false, s->model.layers);
    if (activations && s->recompute != RECOMPUTE_FULL) {
        t = *s;
        t.recompute = RECOMPUTE_FULL;
        add_hint(out, &t, activations, max_gpus, "--recompute full");
    }
    if (activations && s->micro_batch != 1) {
        t = *s;
        t.micro_batch = 1;
        add_hint(out, &t, activations, max_gpus, "--micro-batch 1");
    }
    if (s->zero < 3) {
        t = *s;
        t.zero = 3;
        add_hint(out, &t, activations, max_gpus, "--zero 3");
    }
}
