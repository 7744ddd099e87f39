/* diff.h - two scenarios side by side: the inputs that differ and every figure of report's
 * JSON with its difference.
 *
 * The figures are report's JSON (report_json_of) of each evaluation, walked: every number
 * and true/false under parallel, params, memory, flops, time, cost and roofline, keyed as
 * the JSON nests them ("memory.total", "time.predicted.step_seconds"). JSON: {"a", "b" (the
 * titles), "inputs": [{"key", "a", "b"}] (the registry inputs whose values differ),
 * "figures": [{"key", "a", "b", "delta"}] (delta = b - a; null for true/false and where
 * either is null)}. Text and Markdown list the figures that differ (with the relative
 * change), CSV all of them.
 */
#ifndef ROOFTOP_DIFF_H
#define ROOFTOP_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "evaluation.h"
#include "report.h"

#define DIFF_KEY_MAX 96
#define DIFF_TEXT_MAX 128

struct diff_input {
    const struct input *in;
    char a[DIFF_TEXT_MAX], b[DIFF_TEXT_MAX];
};

struct diff_figure {
    char key[DIFF_KEY_MAX];
    bool is_bool;
    bool have_a, have_b;     /* false where the figure is null */
    double a, b;
};

struct diff {
    struct diff_input *inputs;
    int n_inputs;
    struct diff_figure *figures;
    int n_figures;
};

/* Compares a and b; false when out of memory. Free with diff_free. */
bool diff_run(const struct evaluation *a, const struct evaluation *b, struct diff *out);
void diff_free(struct diff *d);

/* Whether the registry input named key differs between the two (for marking them). */
bool diff_input_differs(const struct diff *d, const char *key);
/* The figure named key, or NULL. */
const struct diff_figure *diff_find(const struct diff *d, const char *key);

/* A figure in the units its key names ("48.1 GB", "6.07 s", "yes"; "-" for null). */
void diff_figure_text(const char *key, bool is_bool, bool have, double v, char *buf, size_t n);
/* Its difference b - a ("+2.1 GB") and relative change ("+4.6%"); empty where none. */
void diff_delta_text(const struct diff_figure *g, char *delta, size_t n, char *pct, size_t pn);

/* Writes the comparison; name_a and name_b say where each came from (file names). */
bool diff_write(FILE *f, const struct diff *d, const char *title_a, const char *title_b,
                enum report_format fmt);

#endif
