/* solve_report.h - `rooftop solve max-params|min-gpus`'s answers as tables of figures
 * (src/figure.h), which the four formats walk. */
#ifndef ROOFTOP_SOLVE_REPORT_H
#define ROOFTOP_SOLVE_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "figure.h"
#include "scenario.h"
#include "solve.h"

/* What a solve found, and on what. */
struct solve_answer {
    struct scenario s;           /* the scenario it holds for */
    bool activations;            /* activations counted */
    double max_params;           /* max-params: the answer, 0 when nothing fits */
    int64_t min_gpus;            /* min-gpus: the answer, 0 when none fits up to max_gpus */
    long long max_gpus;
    struct solve_miss miss;      /* min-gpus, none found: why, and what would fit */
    double model_params;         /* min-gpus: the trained model's parameters */
};

/* The table of max-params's answer and of min-gpus's, over a struct solve_answer. */
extern const struct figure SOLVE_MAX_PARAMS[];
extern const struct figure SOLVE_MIN_GPUS[];

#endif
