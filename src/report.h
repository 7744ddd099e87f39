/* report.h - one scenario's analysis as text, JSON, CSV or Markdown. */
#ifndef ROOFTOP_REPORT_H
#define ROOFTOP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "measured.h"
#include "scenario.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_MD };

/* "text", "json", "csv", "md" */
const char *report_format_name(enum report_format fmt);
bool report_format_parse(const char *s, enum report_format *out);

/*
 * Writes the report of s and a (a = analysis_run(s)). Text: the memory table, parameters,
 * FLOPs, time, the operations table and the roofline summary. JSON: the keys of issue 2
 * (params, memory, flops, time, roofline, ops[]) plus "scenario" (the inputs). CSV: one
 * "section,name,value,unit" row per figure plus the ops. Markdown: tables. Never prints NaN
 * or infinity. Returns false when writing fails.
 */
bool report_write(FILE *f, const struct scenario *s, const struct analysis *a,
                  enum report_format fmt);

/*
 * The same with measured points (m from measured_match, or NULL for none): a measured column
 * in the operations table (JSON ops[].measured_seconds, null when an op was not measured; CSV
 * "ops,NAME.measured_seconds" rows for those measured), the measured GEMM efficiency (JSON
 * "measured"), and, when mfu_measured, a note that the time estimate's MFU is that efficiency
 * (the caller has put it into s->mfu and a).
 */
bool report_write_measured(FILE *f, const struct scenario *s, const struct analysis *a,
                           const struct measured *m, bool mfu_measured, enum report_format fmt);

/* Where the time estimate's MFU comes from: the --mfu input, the measured GEMM efficiency,
 * or the step-time model (src/predict.h). */
enum report_mfu { REPORT_MFU_INPUT, REPORT_MFU_MEASURED, REPORT_MFU_PREDICTED };

/*
 * The general form: every format also carries the predicted step (JSON time.predicted with
 * step_seconds, mfu, hfu, tokens_per_s, days and breakdown{compute, recompute, tp_comm,
 * pp_bubble, pp_comm, dp_comm, optimizer}; text a "Predicted step" table with each part's
 * share). With REPORT_MFU_PREDICTED the caller has put the predicted HFU into s->mfu and rerun
 * a, so the top-level time is the predicted one; the report says so.
 */
bool report_write_mode(FILE *f, const struct scenario *s, const struct analysis *a,
                       const struct measured *m, enum report_mfu mode, enum report_format fmt);

struct cJSON;
/* Prints root (pretty, a newline after) and frees it; false when root is NULL or writing
 * fails. For every command's --format json. */
bool report_print_json(FILE *f, struct cJSON *root);


#endif
