/* cmd_report.c - `rooftop report`: one scenario's evaluation as text, JSON, CSV or Markdown. */
#include "cmd_report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "analysis.h"
#include "dtype.h"
#include "files.h"
#include "gpu.h"
#include "hfconfig.h"
#include "inputs.h"
#include "measured.h"
#include "model.h"
#include "nearest.h"
#include "plan.h"
#include "points.h"
#include "predict.h"
#include "report.h"
#include "roofline.h"
#include "scenario_file.h"
#include "solve.h"
#include "spec.h"
#include "units.h"

static void report_help(FILE *f)
{
    fputs("usage: rooftop report [options] [--format text|json|csv|md]\n"
          "Prints the lecture's memory table per GPU, parameters by component, FLOPs (detailed\n"
          "and 6ND), training time, the operations with their arithmetic intensity, and the\n"
          "roofline summary. Without options: 70B parameters, 15T tokens, 1024 H100 SXM, bf16.\n"
          "  --points FILE     measured points (rooftop probe --out FILE): the GEMMs' measured\n"
          "                    time beside the roofline time, and their measured efficiency\n"
          "  --mfu predicted   the step-time model's prediction as the time estimate (its\n"
          "                    breakdown is in every report: tp/pp/dp communication, bubble)\n"
          "  --mfu measured    that efficiency as the MFU of the time estimate (needs --points\n"
          "                    with shape points: rooftop probe --shapes, or P in the dashboard)\n"
          "  --points-any-device  use points measured on another device than --gpu (refused\n"
          "                    otherwise: a CPU's rate over a GPU's peak is no MFU)\n\n",
          f);
    cli_scenario_help(f);
}
/* Loads the points of --points into d. False with one line in err. */
static bool report_points(const char *path, struct points_doc *d, char *err, size_t errlen)
{
    char why[256];
    if (!points_load_file(path, d, why, sizeof why)) {
        snprintf(err, errlen, "--points: %s", why);
        return false;
    }
    if (d->incomplete[0])
        fprintf(stderr, "rooftop report: note: --points %s holds what was measured before the "
                        "run stopped (%s)\n", path, d->incomplete);
    return true;
}
/* The refusals of an evaluation with points: points of another device (unless asked for),
 * and --mfu measured that has no measured figure. False with one line in err. */
static bool report_check_points(const struct evaluation *ev, const char *path, bool any_device,
                                char *err, size_t errlen)
{
    const struct measured *m = &ev->meas;
    if (m->other_device && !any_device) {
        snprintf(err, errlen, "--points: %s (--gpu to match them, or --points-any-device)",
                 m->device_why);
        return false;
    }
    if (ev->sc.mfu_mode != MFU_MEASURED || ev->mfu_from == MFU_MEASURED)
        return true;
    if (m->n_ops_measured == 0)
        snprintf(err, errlen, "--mfu: 'measured' needs --points FILE with shape points for "
                              "this scenario (%s has none; rooftop probe --shapes measures them)",
                 path);
    else
        snprintf(err, errlen, "--mfu: %s", ev->mfu_why);
    return false;
}
int cmd_report(int argc, char **argv)
{
    struct scenario s;
    inputs_defaults(&s);
    enum report_format fmt = REPORT_TEXT;
    char err[CLI_ERR_MAX];
    const char *points = NULL;
    bool any_device = false;
    static const struct cli_flag own[] = {
        {"format", true}, {"points", true}, {"points-any-device", false}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 1, &s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !cli_parse_format(v, &fmt, err, sizeof err))
            return cli_usage_error("report", err);
        if (f == &own[1])
            points = v;
        if (f == &own[2])
            any_device = true;
    }
    int end = cli_args_end(r, &args, report_help, "report");
    if (end >= 0)
        return end;
    if (s.mfu_mode == MFU_MEASURED && points == NULL)
        return cli_usage_error("report", "--mfu: 'measured' needs --points FILE with shape points "
                                     "for this scenario");
    if (!cli_validate("report", &s))
        return CLI_EXIT_USAGE;
    struct evaluation *ev = malloc(sizeof *ev);
    struct points_doc d;
    points_init(&d);
    if (ev == NULL) {
        fprintf(stderr, "rooftop report: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    if (points != NULL && !report_points(points, &d, err, sizeof err)) {
        points_free(&d);
        free(ev);
        return cli_usage_error("report", err);
    }
    struct eval_input in = {.points = points != NULL ? &d : NULL, .any_device = any_device};
    evaluation_run(&s, &in, ev);
    points_free(&d);
    if (points != NULL && !report_check_points(ev, points, any_device, err, sizeof err)) {
        free(ev);
        return cli_usage_error("report", err);
    }
    bool ok = report_write(stdout, ev, fmt);
    free(ev);
    int rc = cli_finish_output("report");
    if (!ok && rc == CLI_EXIT_OK) {
        fprintf(stderr, "rooftop report: writing output failed\n");
        rc = CLI_EXIT_FAIL;
    }
    return rc;
}
