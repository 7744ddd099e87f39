/* plan_report.h - `rooftop plan`'s ranked layouts as a table of figures (src/figure.h), which
 * the four formats walk: JSON {"plans": [{options, breakdown, dp, step_seconds, mfu, hfu,
 * tokens_per_s, days, gpu_hours, memory_total, fits, cost{gpu_hours, energy_kwh, usd}}], "by",
 * "searched", "fitting"}, and "constrained": {"tp": 8, ...} when axes were fixed; text a table
 * under a "constrained: tp 8, zero 0" line. */
#ifndef ROOFTOP_PLAN_REPORT_H
#define ROOFTOP_PLAN_REPORT_H

#include "figure.h"
#include "plan.h"

/* A search's result and what it searched. */
struct plan_report {
    const struct scenario *base;
    const struct plan_result *r;
    enum plan_by by;
};

/* The table, over a struct plan_report. */
extern const struct figure PLAN_REPORT[];

#endif
