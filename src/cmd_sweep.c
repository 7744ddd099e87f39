/* cmd_sweep.c - `rooftop sweep`: one input swept over a range, each value evaluated whole. */
#include "cmd_sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"
#include "spec.h"
#include "sweep.h"
#include "sweep_plot.h"
#include "sweep_report.h"

static void sweep_help(FILE *f)
{
    fputs("usage: rooftop sweep --knob INPUT --from A --to B [--steps N] [scenario options]\n"
          "                     [--format text|json|csv|md|svg]\n"
          "The scenario evaluated whole at each value of one input (any scenario option's\n"
          "name: seq, micro-batch, tp, gpus, zero, recompute, gpu, model, ...): memory per GPU\n"
          "by its rows, whether it fits, the predicted step, MFU, training days, tokens/s and\n"
          "the cost. Text draws memory stacked against the usable capacity, the step time on\n"
          "its own axis, and names where the scenario stops fitting; svg writes that plot as\n"
          "an image. A value that makes the scenario invalid is listed with the reason.\n"
          "  --knob INPUT      the input swept\n"
          "  --from A --to B   its first and last value, in the input's own grammar (4Ki,\n"
          "                    full, h100-sxm); for gpu and model the presets between them\n"
          "  --steps N         N values from A to B (1-256; doubling inputs spaced\n"
          "                    geometrically); without it the input's own steps (seq and\n"
          "                    batch double, zero counts 0-3, words one by one)\n"
          "  The MFU is the predicted one unless --mfu is given.\n\n",
          f);
    cli_scenario_help(f);
}

/* A gpu or model knob steps over the preset list in `rooftop list` order: value = index. */
struct preset_knob {
    struct spec_list list;
    bool gpu;
};

static bool preset_set(void *ctx, const struct input *knob, struct scenario *s, double v,
                       char *why, size_t n)
{
    const struct preset_knob *pk = ctx;
    (void)knob;
    size_t i = (size_t)v;
    char err[SPEC_ERR_MAX];
    bool ok = v >= 0 && i < pk->list.count &&
              (pk->gpu ? spec_find_gpu(pk->list.ids[i], &s->gpu, err, sizeof err)
                       : spec_find_model(pk->list.ids[i], &s->model, err, sizeof err));
    if (!ok)
        snprintf(why, n, "%s", v >= 0 && i < pk->list.count ? err : "no such preset");
    return ok;
}

/* The index of name in the preset list, or -1. */
static int preset_index(const struct preset_knob *pk, const char *name)
{
    for (size_t i = 0; i < pk->list.count; i++)
        if (strcmp(pk->list.ids[i], name) == 0)
            return (int)i;
    return -1;
}

/* An end of the range as a number of the knob: parsed as the input parses it. */
static bool parse_end(const struct input *knob, const struct scenario *s, const char *flag,
                      const char *text, double *out, char *err, size_t n)
{
    struct scenario c = *s;
    char sub[256];
    if (!inputs_parse(knob, &c, text, sub, sizeof sub)) {
        snprintf(err, n, "--%s: %s: %s", flag, knob->key, sub);
        return false;
    }
    *out = inputs_get(knob, &c);
    return true;
}

struct sweep_args {
    const char *knob, *from, *to;
    long steps;
    const char *format;
};

/* The values to sweep into vals; 0 with err. */
static int knob_values(const struct sweep_args *a, const struct input *knob,
                       const struct scenario *s, struct preset_knob *pk, double *vals,
                       char *err, size_t n)
{
    double from, to;
    if (knob->kind == INPUT_NAME) {
        pk->gpu = strcmp(knob->key, "gpu") == 0;
        if (!pk->gpu && strcmp(knob->key, "model") != 0) {
            snprintf(err, n, "--knob: %s is text, not a range of values", knob->key);
            return 0;
        }
        if (!(pk->gpu ? spec_list_gpus(&pk->list) : spec_list_models(&pk->list))) {
            snprintf(err, n, "--knob: no %s presets found", knob->key);
            return 0;
        }
        int i = preset_index(pk, a->from), k = preset_index(pk, a->to);
        if (i < 0 || k < 0) {
            snprintf(err, n, "--%s: '%s' is not a %s preset (rooftop list %ss)",
                     i < 0 ? "from" : "to", i < 0 ? a->from : a->to, knob->key, knob->key);
            return 0;
        }
        from = i;
        to = k;
        int cnt = 0;
        for (int v = i; cnt < SWEEP_MAX; v += (k >= i ? 1 : -1)) {
            vals[cnt++] = v;
            if (v == k)
                break;
        }
        return cnt;
    }
    if (!parse_end(knob, s, "from", a->from, &from, err, n) ||
        !parse_end(knob, s, "to", a->to, &to, err, n))
        return 0;
    char sub[256];
    int cnt = sweep_values(knob, from, to, (int)a->steps, vals, SWEEP_MAX, sub, sizeof sub);
    if (cnt == 0)
        snprintf(err, n, "--knob: %s", sub);
    return cnt;
}

/* Reads the command line into s and a; -1 to go on, else the exit status. */
static int sweep_parse(int argc, char **argv, struct scenario *s, struct sweep_args *a)
{
    static const struct cli_flag own[] = {{"knob", true}, {"from", true}, {"to", true},
                                          {"steps", true}, {"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 1, s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0])
            a->knob = v;
        else if (f == &own[1])
            a->from = v;
        else if (f == &own[2])
            a->to = v;
        else if (f == &own[4])
            a->format = v;
        else {
            char *end = NULL;
            errno = 0;
            a->steps = strtol(v, &end, 10);
            if (errno != 0 || end == v || *end != '\0' || a->steps < 1 || a->steps > SWEEP_MAX) {
                char err[128];
                snprintf(err, sizeof err, "--steps: must be a whole number from 1 to %d, got "
                                          "'%.40s'", SWEEP_MAX, v);
                return cli_usage_error("sweep", err);
            }
        }
    }
    if (r == CLI_HELP) {
        sweep_help(stdout);
        return cli_finish_output("sweep");
    }
    if (r == CLI_ERROR)
        return cli_usage_error("sweep", args.err);
    if (a->knob == NULL || a->from == NULL || a->to == NULL)
        return cli_usage_error("sweep", "needs --knob INPUT --from A --to B (rooftop sweep "
                                        "--help)");
    return -1;
}

/* Whether argv gives --mfu (the sweep's MFU is otherwise the predicted one). */
static bool mfu_given(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--mfu") == 0 || strncmp(argv[i], "--mfu=", 6) == 0)
            return true;
    return false;
}

int cmd_sweep(int argc, char **argv)
{
    struct scenario s;
    scenario_default(&s);
    struct sweep_args a = {NULL, NULL, NULL, 0, "text"};
    int rc = sweep_parse(argc, argv, &s, &a);
    if (rc >= 0)
        return rc;
    if (!mfu_given(argc, argv))
        s.mfu_mode = MFU_PREDICTED;
    enum report_format fmt = REPORT_TEXT;
    bool svg = strcmp(a.format, "svg") == 0;
    if (!svg && !report_format_parse(a.format, &fmt))
        return cli_usage_error("sweep", "--format: must be one of text, json, csv, md, svg");
    const struct input *knob = inputs_find(a.knob);
    char err[512];
    if (knob == NULL) {
        snprintf(err, sizeof err, "--knob: '%.60s' is not an input (rooftop sweep --help "
                                  "lists them)", a.knob);
        return cli_usage_error("sweep", err);
    }
    /* The serving inputs move only rooftop infer's figures, which a sweep does not evaluate
     * yet: a flat training sweep would say nothing. */
    if (strncmp(knob->help, "serving:", 8) == 0) {
        snprintf(err, sizeof err, "--knob: %s is a serving input (rooftop infer); sweeping the "
                                  "serving figures is not done yet", knob->key);
        return cli_usage_error("sweep", err);
    }
    struct preset_knob pk = {{NULL, 0}, false};
    double vals[SWEEP_MAX];
    int n = knob_values(&a, knob, &s, &pk, vals, err, sizeof err);
    if (n == 0) {
        spec_list_free(&pk.list);
        return cli_usage_error("sweep", err);
    }
    struct sweep sw;
    bool ok = sweep_run(&sw, &s, knob, vals, n, NULL, knob->kind == INPUT_NAME ? preset_set : NULL,
                        &pk);
    char title[SCENARIO_NAME_MAX + 256];
    scenario_title(&s, title, sizeof title);
    char head[sizeof title + 256];
    snprintf(head, sizeof head, "%s: %s from %s to %s", title, knob->key,
             sw.n > 0 ? sw.pts[0].text : "", sw.n > 0 ? sw.pts[sw.n - 1].text : "");
    if (ok)
        ok = svg ? sweep_plot_write_svg(stdout, &sw, head)
                 : sweep_report_write(stdout, &sw, head, fmt, 80, 20, true);
    sweep_free(&sw);
    spec_list_free(&pk.list);
    rc = cli_finish_output("sweep");
    if (!ok && rc == 0) {
        fprintf(stderr, "rooftop sweep: writing output failed\n");
        rc = 1;
    }
    return rc;
}
