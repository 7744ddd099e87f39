/* scenario_check.h - every input checked and settled together, by walking the registry
 * (src/inputs.h): each row's range and words, then each row's own rule (src/rules.h). */
#ifndef ROOFTOP_SCENARIO_CHECK_H
#define ROOFTOP_SCENARIO_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

/* Checks all inputs together (the model too). On error writes one line naming the option
 * ("--tp: 3 does not divide the 32 attention heads") to err and returns false. */
bool scenario_validate(const struct scenario *s, char *err, int errlen);
/* The same check, for any front end: the registry key of the input at fault ("tp") and what
 * is wrong without a flag's spelling. First every row's range and words (the registry's:
 * "7 is out of range (0 to 3)", as the parser says it), in table order; then every row's
 * rule, level by level (src/rules.h), in table order within a level. */
bool scenario_check(const struct scenario *s, const char **key, char *msg, size_t n);
/* scenario_validate and scenario_check for s made from base, which passed them, by
 * changing a few inputs (the plan's layouts, a dashboard key): the same result, but the
 * ranges are checked only of the rows whose value differs from base's (the rules, which tie
 * rows together, all run). */
bool scenario_validate_from(const struct scenario *s, const struct scenario *base, char *err,
                            int errlen);
bool scenario_check_from(const struct scenario *s, const struct scenario *base,
                         const char **key, char *msg, size_t n);

/*
 * Where one input bounds another, the other gives way toward what the user last asked of it
 * (want), never past it, so that moving back restores it; the input `moved` (a registry row,
 * NULL for none) keeps the value it has in c. Each row names its give-way rule and its level
 * (src/rules.h): tp becomes the largest divisor of the heads up to want->tp; pp at most the
 * layers; cp the largest up to want->cp with seq a multiple of 2 x cp; the GPU count the
 * multiple of tp x pp x cp at or above want->gpus; ep the largest up to want->ep that divides
 * the routed experts and dp x cp (1 for a dense model); the micro-batch the largest up to
 * want->micro_batch that splits the batch. The batch never moves: a batch that cannot split
 * is left for validation to name. note says what gave way (empty when nothing did).
 */
struct input;
void scenario_settle(struct scenario *c, const struct scenario *want, const struct input *moved,
                     char *note, size_t n);

#endif
