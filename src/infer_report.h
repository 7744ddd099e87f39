/* infer_report.h - a serving scenario's figures as text, JSON, CSV or Markdown. */
#ifndef ROOFTOP_INFER_REPORT_H
#define ROOFTOP_INFER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "infer.h"
#include "report.h"

/*
 * Writes r (= infer_run(s)). JSON: memory.{weights, kv_cache, activations, total, capacity,
 * fits}, kv.bytes_per_token, prefill.{flops, bytes, intensity, seconds}, decode.{flops, bytes,
 * intensity, seconds} (one step of the batch, averaged over the generation), latency.{ttft,
 * tpot, end_to_end}, throughput.{tokens_per_s, tokens_per_s_per_gpu}, max_batch, ops[] (with
 * their phase), plus "scenario" (the inputs) and a few more figures in the same objects.
 * CSV: "section,name,value,unit" rows; Markdown: tables. Bytes, FLOPs, seconds. Never NaN.
 * Returns false when writing fails.
 */
bool infer_report_write(FILE *f, const struct scenario *s, const struct infer_result *r,
                        enum report_format fmt);

/* The serving report's table of figures (src/figure.h), for the views that show its
 * figures by key (the dashboard's serving view), and its rows' values over s and r as
 * report_figures gives the training report's. */
struct figure;
struct figure_pick;
struct figure_value;
const struct figure *infer_report_table(void);
void infer_report_figures(const struct scenario *s, const struct infer_result *r,
                          const struct figure_pick *pick, int n, struct figure_value *v,
                          bool *shown);
/* The same by key, as report_figures_by_key gives the training report's. */
bool infer_report_figures_by_key(const struct scenario *s, const struct infer_result *r,
                                 const char *const *keys, int n, const struct figure **rows,
                                 struct figure_value *v);

/* The JSON infer_report_write prints, as a tree (the caller frees it); NULL when out of
 * memory. A sweep of a serving input reads its figures from it by key ("latency.ttft"). */
struct cJSON;
struct cJSON *infer_report_json(const struct scenario *s, const struct infer_result *r);

#endif
