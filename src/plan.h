/* plan.h - the fastest layouts that fit: a search over tensor, pipeline (and interleaved),
 * context, expert and data parallelism, ZeRO stage, sequence parallelism, micro-batch and
 * recomputation, ranked
 * by the predicted step time (src/predict.h). */
#ifndef ROOFTOP_PLAN_H
#define ROOFTOP_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cost.h"
#include "predict.h"
#include "scenario.h"

#define PLAN_TOP_MAX 100

struct plan {
    struct scenario s;        /* the base scenario with this layout */
    struct prediction pred;
    double memory_total;      /* bytes per GPU */
    bool fits;
    struct cost cost;         /* GPU-hours, energy, money of the training at the predicted step */
};

/* What plans are ranked by: the predicted step time, or the run's cost or energy. Both of the
 * latter are GPUs x step time for a given GPU (the price and the board power are per GPU), so
 * they rank alike; they differ from the step time once the GPU count may change: ranked by
 * cost or energy the search also tries half, a quarter, ... of --gpus, where fewer GPUs
 * waste less on communication and the bubble and take longer. */
enum plan_by { PLAN_BY_TIME, PLAN_BY_COST, PLAN_BY_ENERGY, PLAN_BY_COUNT };

/* "time", "cost", "energy"; parse: false for another word. */
const char *plan_by_name(enum plan_by by);
bool plan_by_parse(const char *s, enum plan_by *out);

/* The layout options a search may be held to: those typed on `rooftop plan` (--tp 8 --zero 0
 * ...) are constraints, not starting points. */
enum plan_axis {
    PLAN_TP,
    PLAN_PP,
    PLAN_VPP,
    PLAN_CP,
    PLAN_EP,
    PLAN_ETP,
    PLAN_SP,
    PLAN_ZERO,
    PLAN_MICRO_BATCH,
    PLAN_RECOMPUTE,
    PLAN_AXES
};

struct plan_fixed {
    bool set[PLAN_AXES];      /* held to value[] */
    int64_t value[PLAN_AXES]; /* as plan_axis_get reads it (sp 0/1, recompute's enum, a
                                 micro-batch of 0: auto, the whole batch per rank) */
};

/* The registry key of an axis ("tp", "micro_batch"). */
const char *plan_axis_key(enum plan_axis a);
/* The axis's value in s. */
int64_t plan_axis_get(const struct scenario *s, enum plan_axis a);

struct plan_result {
    struct plan_fixed fixed;          /* the constraints searched under (none: all unset) */
    struct plan plans[PLAN_TOP_MAX];  /* best first: fitting layouts by step time, then (when
                                         fewer fit than asked) the smallest that do not fit */
    int n;
    long searched;                    /* valid layouts predicted */
    long fitting;                     /* of them, those that fit */
};

/*
 * Searches the layouts of base (its model, GPU, GPU count, batch, sequence, dtype, optimizer,
 * flash and the rest stay as they are) and keeps the top `top` (1..PLAN_TOP_MAX). base must
 * be valid. Searched: tp dividing the heads and the GPUs (up to two NVLink domains), pp
 * dividing the layers, vpp 1, 2, 4 where the interleaved schedule allows it, cp 1, 2, 4 ... 16
 * where the sequence splits into 2 x cp chunks of which a rank keeps 4096 tokens or more, ep 1, 2, 4 ... 64 dividing the routed experts
 * and dp x cp (MoE models only), ZeRO 0-3 (0 only without data or context parallelism), sp with tp, micro-batches 1, 2, 4, ... 16 dividing the batch per
 * rank, recomputation none, selective, full.
 */
void plan_search(const struct scenario *base, int top, struct plan_result *out);
/* The same search ranked by `by`; by cost or energy over base's GPU count and its halvings
 * down to one GPU (each as plan_search_fixed does it, under fixed), the fitting layouts by
 * GPU-seconds. */
void plan_search_by(const struct scenario *base, const struct plan_fixed *fixed, int top,
                    enum plan_by by, struct plan_result *out);
/* The same search with the axes fixed sets held to their values (fixed NULL: none), outside
 * the search's own bounds too (a typed --micro-batch 32, --cp 2 at a short sequence, --tp
 * beyond two NVLink domains); each layout must still divide and validate. */
void plan_search_fixed(const struct scenario *base, const struct plan_fixed *fixed, int top,
                       struct plan_result *out);

/* Writes one plan's options as command-line flags ("--tp 8 --pp 4 ... --mfu predicted"). */
void plan_flags(const struct plan *p, char *buf, size_t n);

#endif
