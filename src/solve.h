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

#endif
