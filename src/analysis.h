/* analysis.h - everything rooftop computes from a scenario, in one struct, in the order the
 * types show: parameter counts (model.h), then memory (memory.h) and FLOPs (flops.h) from
 * them, then the time from the FLOPs. */
#ifndef ROOFTOP_ANALYSIS_H
#define ROOFTOP_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "flops.h"
#include "memory.h"
#include "model.h"
#include "scenario.h"

struct timing {
    double seconds;
    double days;
    double gpu_hours;
    double mfu;               /* model FLOPs / (time * gpus * peak) */
    double hfu;               /* executed FLOPs / (time * gpus * peak) = the --mfu input */
    double tokens_per_s;
    double step_seconds;
    double steps;
};

struct analysis {
    struct param_counts params;
    struct memory memory;
    struct flops flops;
    struct timing time;
    struct roofline roofline;
    struct op ops[ANALYSIS_MAX_OPS];
    int n_ops;
    int64_t dp;
    int64_t micro_batch;
    int64_t accum_steps;
};

/* Computes everything. The scenario must have passed scenario_validate; the result never
 * holds NaN or infinity for a valid scenario. */
void analysis_run(const struct scenario *s, struct analysis *out);
/* The time alone again at another utilisation (the MFU in use: typed, measured or predicted);
 * nothing else of a depends on it. a must hold analysis_run(s). */
void analysis_retime(const struct scenario *s, double mfu, struct analysis *a);

/* analysis_run in two halves, for a search that wants only what fits: analysis_memory fills
 * the parameter counts, the memory and the data-parallel split (dp, micro_batch,
 * accum_steps), the rest zero; analysis_finish, on what analysis_memory filled for the same
 * scenario, adds the FLOPs, the time and the ops. The two give what analysis_run gives. */
void analysis_memory(const struct scenario *s, struct analysis *out);
void analysis_finish(const struct scenario *s, struct analysis *out);

#endif
