/* cmd_sweep.c - `rooftop sweep`: one input swept over a range, each value evaluated whole. */
#include "cmd_sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "infer_cli.h"
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
          "  --serve           sweep serving instead (implied by a serving input: prompt,\n"
          "                    generate, weights-dtype, kv-dtype, compute-eff, memory-eff,\n"
          "                    hbm-fraction): each value as rooftop infer computes it, with\n"
          "                    its options (--model, --gpu, --tp, --batch, ...) and columns\n"
          "                    memory, TTFT, TPOT, end to end, max batch, tokens/s\n"
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

/* --steps N into a; false with the line on stderr. */
static bool parse_steps(const char *v, struct sweep_args *a)
{
    char *end = NULL;
    errno = 0;
    a->steps = strtol(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || a->steps < 1 || a->steps > SWEEP_MAX) {
        char err[128];
        snprintf(err, sizeof err, "--steps: must be a whole number from 1 to %d, got '%.40s'",
                 SWEEP_MAX, v);
        cli_usage_error("sweep", err);
        return false;
    }
    return true;
}

/* The sweep's own flags, and whether they take a value. */
static const struct cli_flag OWN[] = {{"knob", true}, {"from", true}, {"to", true},
                                      {"steps", true}, {"format", true}, {"serve", false}};
#define N_OWN (sizeof OWN / sizeof OWN[0])

/* The own flag argv[i] names (--knob or --knob=...), or -1; *eq the value after '='. */
static int own_flag(const char *arg, const char **eq)
{
    *eq = NULL;
    if (strncmp(arg, "--", 2) != 0)
        return -1;
    for (size_t f = 0; f < N_OWN; f++) {
        size_t len = strlen(OWN[f].name);
        if (strncmp(arg + 2, OWN[f].name, len) != 0)
            continue;
        if (arg[2 + len] == '\0')
            return (int)f;
        if (arg[2 + len] == '=' && OWN[f].value) {
            *eq = arg + 3 + len;
            return (int)f;
        }
    }
    return -1;
}

/* Whether the command line sweeps serving: --serve, or a --knob that only serving reads. */
static bool serving_asked(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *eq;
        int f = own_flag(argv[i], &eq);
        if (f == 5)
            return true;
        const char *k = f == 0 ? (eq != NULL ? eq : (i + 1 < argc ? argv[i + 1] : NULL)) : NULL;
        const struct input *in = k != NULL ? inputs_find(k) : NULL;
        if (in != NULL && strncmp(in->help, "serving:", 8) == 0)
            return true;
        if (f >= 0 && OWN[f].value && eq == NULL)
            i++;
    }
    return false;
}

/* A serving sweep's command line: the own flags into a, the rest read as rooftop infer reads
 * its options onto s. -1 to go on, else the exit status. */
static int serve_parse(int argc, char **argv, struct scenario *s, struct sweep_args *a)
{
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (rest == NULL)
        return cli_usage_error("sweep", "out of memory");
    int nrest = 0;
    rest[nrest++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *eq, *v;
        int f = own_flag(argv[i], &eq);
        if (f < 0) {
            rest[nrest++] = argv[i];
            continue;
        }
        if (!OWN[f].value)
            continue;
        v = eq != NULL ? eq : (i + 1 < argc ? argv[++i] : NULL);
        if (v == NULL) {
            free(rest);
            char err[64];
            snprintf(err, sizeof err, "--%s: needs a value", OWN[f].name);
            return cli_usage_error("sweep", err);
        }
        const char **dst[] = {&a->knob, &a->from, &a->to, NULL, &a->format};
        if (f == 3 && !parse_steps(v, a)) {
            free(rest);
            return CLI_EXIT_USAGE;
        }
        if (dst[f] != NULL)
            *dst[f] = v;
    }
    char err[CLI_ERR_MAX];
    bool ok = infer_cli_scenario(s, nrest, rest, 1, NULL, err, sizeof err);
    free(rest);
    if (!ok)
        return cli_usage_error("sweep", err);
    if (a->knob == NULL || a->from == NULL || a->to == NULL)
        return cli_usage_error("sweep", "needs --knob INPUT --from A --to B (rooftop sweep "
                                        "--help)");
    return -1;
}

/* Reads the command line into s and a; -1 to go on, else the exit status. */
static int sweep_parse(int argc, char **argv, struct scenario *s, struct sweep_args *a)
{
    const struct cli_flag *own = OWN;
    struct cli_args args;
    cli_args_init(&args, argc, argv, 1, s, own, N_OWN - 1);
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
        else if (f == &own[3] && !parse_steps(v, a))
            return CLI_EXIT_USAGE;
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

/* Whether argv asks for help (a serving sweep's options are otherwise read as infer's). */
static bool help_asked(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

/* The knob named on the command line, checked against what the sweep evaluates; NULL with
 * the line on stderr. */
static const struct input *knob_of(const struct sweep_args *a, bool serving)
{
    const struct input *knob = inputs_find(a->knob);
    char err[512];
    if (knob == NULL) {
        snprintf(err, sizeof err, "--knob: '%.60s' is not an input (rooftop sweep --help "
                                  "lists them)", a->knob);
        cli_usage_error("sweep", err);
        return NULL;
    }
    if (serving && !infer_cli_reads(knob->key)) {
        snprintf(err, sizeof err, "--knob: %s is not a serving input (--serve sweeps what "
                                  "rooftop infer reads: model, gpu, tp, batch, prompt, generate, "
                                  "dtype, ...)", knob->key);
        cli_usage_error("sweep", err);
        return NULL;
    }
    return knob;
}

/* The heading: the scenario and the range. */
static void sweep_head(const struct scenario *s, const struct sweep *sw, char *buf, size_t n)
{
    char title[SCENARIO_NAME_MAX + 256];
    if (sw->serving)
        snprintf(title, sizeof title, "Serving %s on %lld x %s (batch %lld, prompt %lld + "
                 "generate %lld)", s->model.name, (long long)s->tp, s->gpu.name,
                 (long long)s->batch, (long long)s->prompt, (long long)s->generate);
    else
        scenario_title(s, title, sizeof title);
    snprintf(buf, n, "%s: %s from %s to %s", title, sw->knob->key,
             sw->n > 0 ? sw->pts[0].text : "", sw->n > 0 ? sw->pts[sw->n - 1].text : "");
}

int cmd_sweep(int argc, char **argv)
{
    struct scenario s;
    inputs_defaults(&s);
    struct sweep_args a = {NULL, NULL, NULL, 0, "text"};
    bool serving = !help_asked(argc, argv) && serving_asked(argc, argv);
    int rc = serving ? serve_parse(argc, argv, &s, &a) : sweep_parse(argc, argv, &s, &a);
    if (rc >= 0)
        return rc;
    if (!serving && !mfu_given(argc, argv))
        s.mfu_mode = MFU_PREDICTED;
    enum report_format fmt = REPORT_TEXT;
    bool svg = strcmp(a.format, "svg") == 0;
    if (!svg && !report_format_parse(a.format, &fmt))
        return cli_usage_error("sweep", "--format: must be one of text, json, csv, md, svg");
    const struct input *knob = knob_of(&a, serving);
    if (knob == NULL)
        return CLI_EXIT_USAGE;
    struct preset_knob pk = {{NULL, 0}, false};
    double vals[SWEEP_MAX];
    char err[512];
    int n = knob_values(&a, knob, &s, &pk, vals, err, sizeof err);
    if (n == 0) {
        spec_list_free(&pk.list);
        return cli_usage_error("sweep", err);
    }
    struct sweep sw;
    sweep_set_fn set = knob->kind == INPUT_NAME ? preset_set : NULL;
    bool ok = serving ? sweep_serve(&sw, &s, knob, vals, n, set, &pk)
                      : sweep_run(&sw, &s, knob, vals, n, NULL, set, &pk);
    char head[SCENARIO_NAME_MAX + 512];
    sweep_head(&s, &sw, head, sizeof head);
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
