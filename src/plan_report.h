/* plan_report.h - `rooftop plan`'s ranked layouts as a table of figures (src/figure.h), which
 * the four formats walk: JSON {"plans": [{options, breakdown, dp, step_seconds, mfu, hfu,
 * tokens_per_s, days, gpu_hours, memory_total, fits, cost{gpu_hours, energy_kwh, usd}}], "by",
 * "searched", "fitting"}, and "constrained": {"tp": 8, ...} when axes were fixed; text a table
 * under a "constrained: tp 8, zero 0" line. */
#ifndef ROOFTOP_PLAN_REPORT_H
#define ROOFTOP_PLAN_REPORT_H

#include "figure.h"
#include "plan.h"

/* A search's result and what it searched; or (plans set) a list of layouts alone, n of
 * them, whose "plans" columns are all that is read (r NULL). */
struct plan_report {
    const struct scenario *base;
    const struct plan_result *r;
    enum plan_by by;
    const struct plan *plans;
    int n;
};

/* The table, over a struct plan_report. */
extern const struct figure PLAN_REPORT[];

/* Pick i's value (a column of the table's "plans" list, "plans[].step_seconds", for layout
 * pick[i].item) over plans[0..n-1], layouts of base as a search keeps them, into v[i] as
 * figure_get_picks: for the views that list layouts (the dashboard's b), as `rooftop plan`
 * writes them. */
void plan_report_figures(const struct scenario *base, const struct plan *plans, int n,
                         const struct figure_pick *pick, int k, struct figure_value *v,
                         bool *shown);

#endif
