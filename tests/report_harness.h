/* report_harness.h - a scenario from a line of report options, and its report as a string,
 * for the Check suites that test figures through the report. */
#ifndef ROOFTOP_REPORT_HARNESS_H
#define ROOFTOP_REPORT_HARNESS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "evaluation.h"
#include "cli.h"
#include "inputs.h"
#include "report.h"
#include "scenario.h"
#include "scenario_check.h"

/* Builds a scenario from a line of options (as `rooftop report` takes them, split at
 * spaces), validates it and analyses it. */
static inline void check_scenario(struct scenario *s, struct analysis *a, const char *line)
{
    char buf[1024], err[1024];
    char *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "report %s", line);
    for (char *t = strtok(buf, " "); t != NULL && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    inputs_defaults(s);
    ck_assert_msg(cli_parse_scenario(s, argc, argv, 1, err, sizeof err), "%s: %s", line, err);
    ck_assert_msg(scenario_validate(s, err, (int)sizeof err), "%s: %s", line, err);
    /* The analysis at the MFU in use (a --model line times at the predicted MFU). */
    static struct evaluation ev;
    evaluation_run(s, NULL, &ev);
    *a = ev.an;
}

/* The report of s (its one evaluation) in format f, as a malloc'd string; a is what the test
 * holds of analysis_run(s), which must be the evaluation's own. */
static inline char *check_render(const struct scenario *s, const struct analysis *a,
                                 enum report_format f)
{
    struct evaluation *ev = malloc(sizeof *ev);
    ck_assert(ev != NULL);
    evaluation_run(s, NULL, ev);
    /* Field by field: struct copies inside the analysis leave padding undefined. */
    ck_assert(ev->an.params.total == a->params.total && ev->an.memory.total == a->memory.total &&
              ev->an.flops.total == a->flops.total && ev->an.n_ops == a->n_ops &&
              ev->an.time.seconds == a->time.seconds &&
              ev->an.roofline.step_seconds == a->roofline.step_seconds);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ck_assert(m != NULL);
    ck_assert(report_write(m, ev, f));
    ck_assert(fclose(m) == 0);
    free(ev);
    return buf;
}

#endif
