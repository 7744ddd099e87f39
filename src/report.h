/* report.h - one scenario's analysis as text, JSON, CSV or Markdown. */
#ifndef ROOFTOP_REPORT_H
#define ROOFTOP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "evaluation.h"

#include "report_format.h"

/*
 * Writes the report of one evaluation (evaluation_run). Text: the memory table, parameters,
 * FLOPs, time, the predicted step, the operations table and the roofline summary. JSON: the
 * keys of issue 2 (params, memory, flops, time, roofline, ops[]) plus "scenario" (the inputs,
 * with the MFU in use as its mfu), "warnings" and time.predicted (step_seconds, mfu, hfu,
 * tokens_per_s, days and breakdown{compute, recompute, tp_comm, pp_bubble, pp_comm, dp_comm,
 * optimizer}), cost (gpu_hours, energy_kwh, usd: src/cost.h; null where unknown or no price
 * is given); time.mfu_source says where the MFU in use comes from (input, measured,
 * predicted). CSV: one "section,name,value,unit" row per figure plus the ops. Markdown:
 * tables. With measured points: a measured column in the operations table (JSON
 * ops[].measured_seconds, null when an op was not measured) and the measured GEMM
 * efficiency (JSON "measured"). Never prints NaN or infinity. Returns false when writing
 * fails.
 */
bool report_write(FILE *f, const struct evaluation *ev, enum report_format fmt);

struct cJSON;
struct figure;
struct figure_value;
/* The report's table of figures (src/figure.h): every figure report_write prints, in every
 * format, with its JSON key, label and unit; for the views that show a figure by its key. */
const struct figure *report_table(void);

/* Rows of that table (figure_find of report_table()) over ev, as report_write takes them, on
 * one report context: pick i's value into v[i], shown[i] false where the report leaves it out
 * for ev. For the dashboard's panels, which show the report's figures by their rows. */
struct figure_pick;
void report_figures(const struct evaluation *ev, const struct figure_pick *pick, int n,
                    struct figure_value *v, bool *shown);
/* The same by key (figure_get_keys): rows keys[0..n-1] of the report's table, each looked up
 * once into rows[], their values over ev into v; false where a key is not in the table. For
 * a panel's line of a few figures. */
bool report_figures_by_key(const struct evaluation *ev, const char *const *keys, int n,
                           const struct figure **rows, struct figure_value *v);

/* The report's JSON object of one evaluation, as report_write's JSON prints it (NULL when
 * it could not be built); the caller frees it. For the views that take figures from it by
 * their keys ("memory.total", "cost.usd"): sweep and diff. */
struct cJSON *report_json_of(const struct evaluation *ev);

/* The item at a dotted key of such a JSON object ("time.predicted.step_seconds"), or NULL. */
const struct cJSON *report_json_at(const struct cJSON *root, const char *key);

/* Prints root (pretty, a newline after) and frees it; false when root is NULL or writing
 * fails. For every command's --format json. */
bool report_print_json(FILE *f, struct cJSON *root);


#endif
