/* solve.c - the largest model that fits, the fewest GPUs that hold one. */
#include "solve.h"

#include <math.h>

#include "analysis.h"
#include "memory.h"

/* Bytes per GPU that must fit: everything, or model state only (the lecture's upper bound). */
static double memory_needed(const struct memory *m, bool activations)
{
    return activations ? m->total : m->total - m->row[MEM_ACTIVATIONS].bytes;
}

/* Memory per GPU of scenario s with its model replaced by a custom model of n parameters. */
static bool fits_with(const struct scenario *base, double n, bool activations)
{
    struct scenario s = *base;
    if (!model_from_params(n, &s.model))
        return false;
    struct param_counts pc;
    model_params(&s.model, &pc);
    struct memory m;
    memory_compute(&s, &pc, &m);
    double used = memory_needed(&m, activations);
    return used <= m.capacity;
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
        struct param_counts pc;
        model_params(&t.model, &pc);
        struct memory m;
        memory_compute(&t, &pc, &m);
        double state = memory_needed(&m, false);
        if (state <= 0 || pc.total <= 0)
            return 0;
        /* Per parameter of the shape's own count (within 0.01% of n, not n itself). */
        return floor(m.capacity / (state / (double)pc.total));
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
    int64_t mp = s->tp * s->pp;
    if (mp < 1)
        return 0;
    struct param_counts pc; /* the model does not change with the GPU count */
    model_params(&t.model, &pc);
    for (int64_t dp = 1; dp * mp <= max_gpus; dp++) {
        if (s->batch % dp != 0)
            continue; /* the global batch must split over the data-parallel ranks */
        t.gpus = dp * mp;
        if (t.micro_batch > 0 && s->batch % (t.micro_batch * dp) != 0)
            continue;
        struct memory m;
        memory_compute(&t, &pc, &m);
        double used = memory_needed(&m, activations);
        if (used <= m.capacity)
            return t.gpus;
    }
    return 0;
}
