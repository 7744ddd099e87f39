/* rules.h - what one input allows given the others: the cross-field rules a registry row
 * (src/inputs.c) names. Each row may name three functions:
 *   - its check: what its range alone cannot say ("tp divides the heads"), run by
 *     scenario_check after every row's range (src/scenario_check.h);
 *   - its give-way: how it moves toward what the user last asked of it when another input
 *     bounds it (scenario_settle), at its settle level;
 *   - its step bounds: where the scenario narrows its slider's steps (GPU counts in
 *     multiples of tp x pp x cp).
 * Nothing here walks the table: rows point here, and the walkers live in scenario_check.c. */
#ifndef ROOFTOP_RULES_H
#define ROOFTOP_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

/* A check: true when s is fine; otherwise the key of the input at fault in *key (set to the
 * row's own before the call; a rule may name another, as the layout names the GPU count)
 * and what is wrong, without the key, in msg. Ranges and words are checked before, so a
 * check may divide by any input the registry bounds above 0. */
typedef bool rules_check_fn(const struct scenario *s, const char **key, char *msg, size_t n);

/* The order in which inputs are checked and give way: each level's rules work on what the
 * levels before it settled (the rows without a level first). */
enum settle_level {
    SETTLE_NEVER,    /* does not give way; its check runs first */
    SETTLE_DEGREES,  /* tp, pp, cp: bounded by the model, the sequence and the GPUs */
    SETTLE_GPUS,     /* the GPU count: a multiple of the degrees */
    SETTLE_EXPERTS,  /* etp, ep: divide the experts and a stage's ranks */
    SETTLE_BATCH,    /* the micro-batch: splits the batch over the data-parallel ranks */
    SETTLE_STAGES,   /* uneven pipeline stages: fit the pipeline */
    SETTLE_SCHEDULE, /* the interleaved schedule: splits the stages and the micro-batches */
    SETTLE_LEVELS
};

/* What a give-way rule reads: the user's wishes, which input moved (the offset of its field
 * in struct scenario, RULES_NONE_MOVED for none or a whole new scenario) and where to say
 * what gave way (the last rule that writes it wins). */
#define RULES_NONE_MOVED ((size_t)-1)
struct give_way {
    const struct scenario *want;
    size_t moved;
    char *note;
    size_t n;
};
typedef void rules_give_way_fn(struct scenario *c, const struct give_way *g);

/* A slider's steps where the scenario narrows them: the range the value keeps to (lo, hi),
 * the first and last steps and the unit they are multiples of. Filled from the row first. */
struct step_bounds {
    double lo, hi;
    double step_lo, step_hi, unit;
};
typedef void rules_steps_fn(const struct scenario *s, struct step_bounds *b);

/* Checks (by the row they belong to). */
rules_check_fn rules_check_model, rules_check_micro_batch, rules_check_gpu,
    rules_check_tp, rules_check_pp, rules_check_cp, rules_check_ep, rules_check_etp, rules_check_vpp,
    rules_check_stages, rules_check_dtype, rules_check_memory_reserve;

/* Give-way rules. */
rules_give_way_fn rules_give_way_tp, rules_give_way_pp, rules_give_way_cp, rules_give_way_gpus,
    rules_give_way_ep, rules_give_way_etp, rules_give_way_micro_batch, rules_give_way_stages, rules_give_way_vpp;

/* Step bounds. */
rules_steps_fn rules_steps_micro_batch, rules_steps_gpus, rules_steps_cp, rules_steps_ep;

#endif
