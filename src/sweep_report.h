/* sweep_report.h - a sweep as a table: text (under the plot), JSON, CSV or Markdown.
 *
 * Every figure is read from report's JSON of the point's evaluation by its key
 * (report_json_of), so the sweep's columns are the figures `rooftop report` prints at that
 * value. JSON: {"knob", "crossing", "rows": [{"value", "text", "valid", "error", and report's
 * sections but "scenario" and "ops": memory, time, cost, flops, params, parallel, roofline,
 * warnings}]}; an invalid value's row has "valid": false and "error", no figures. A serving
 * sweep's rows hold rooftop infer's JSON but "scenario" and "ops" instead (memory, kv,
 * prefill, decode, decode_last, latency, throughput, roofline, max_batch).
 */
#ifndef ROOFTOP_SWEEP_REPORT_H
#define ROOFTOP_SWEEP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"
#include "sweep.h"

/* Writes sw: REPORT_TEXT the plot (w x h cells) and the table, the others as above. title
 * heads the text and Markdown. False when writing fails or out of memory. */
bool sweep_report_write(FILE *f, const struct sweep *sw, const char *title,
                        enum report_format fmt, int w, int h, bool utf8);

/* The figure of one point by its report JSON key ("memory.total"); false when the point is
 * invalid or the figure is null. *is_bool says a true/false figure (1/0 in *v). */
bool sweep_figure(const struct sweep *sw, const struct sweep_point *p, const char *key,
                  double *v, bool *is_bool);

#endif
