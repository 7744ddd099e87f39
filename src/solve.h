/* solve.h - the lecture's inverse questions: the largest model, the fewest GPUs. */
#ifndef ROOFTOP_SOLVE_H
#define ROOFTOP_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"

/*
 * Largest parameter count whose memory per GPU fits the scenario's GPUs, with the
 * scenario's dtype, optimizer, master weights, ZeRO stage and parallel degrees. With
 * activations false, only model state counts (the lecture's upper bound); with true, a
 * custom model of each size (model_from_params) is tried with the scenario's batch and
 * sequence. Returns 0 when nothing fits.
 */
double solve_max_params(const struct scenario *s, bool activations);

/*
 * Fewest GPUs (a multiple of tp * pp) on which the scenario's model fits, trying data-parallel
 * degrees that divide the global batch, up to max_gpus. Returns 0 when none fits.
 */
int64_t solve_min_gpus(const struct scenario *s, bool activations, int64_t max_gpus);

#define SOLVE_HINTS_MAX 6

/* Why solve_min_gpus found nothing, and what would find something. */
struct solve_miss {
    bool batch_limits;       /* data parallelism stopped at the batch (dp cannot exceed it),
                                not at max_gpus */
    int64_t gpus, dp;        /* the largest count tried (its data-parallel degree) */
    double needed;           /* bytes per GPU that must fit there */
    double activations;      /* of which activations (0 when they do not count) */
    double capacity;         /* what needed must fit in: the GPU's memory, less the reserve
                                when activations count */
    int n_hints;
    struct {
        char option[48];     /* "--tp 8", "--pp 4", "--recompute full" */
        int64_t gpus;        /* what min-gpus finds with it */
    } hint[SOLVE_HINTS_MAX];
};

/*
 * For a scenario on which solve_min_gpus finds nothing up to max_gpus: the largest count it
 * could try and the memory per GPU there, and which single change (more tensor or pipeline
 * parallelism, full recomputation, a micro-batch of one) makes it find a count, with that
 * count. Fills out.
 */
void solve_min_gpus_miss(const struct scenario *s, bool activations, int64_t max_gpus,
                         struct solve_miss *out);

#endif
