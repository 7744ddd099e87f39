/* cli.c - the scriptable command line: report, solve, intensity, list, and scenario options. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

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

#define ERR_MAX 1024

#ifndef ROOFTOP_VERSION
#define ROOFTOP_VERSION "unknown"
#endif

/* Exit statuses: 0 done, 1 the work failed (output, nothing found), 2 bad usage. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* ---- options ------------------------------------------------------------------------------ */

/* Arguments are quoted in errors; a newline or escape in one must not break the one line. */
static void one_line(char *s)
{
    for (; *s != '\0'; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}


static bool is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* True when argv holds --FLAG (either form): then --model must not replace its value. */
static bool argv_has(int argc, char **argv, const char *flag)
{
    size_t n = strlen(flag);
    for (int k = 0; k < argc; k++)
        if (argv[k] != NULL && strncmp(argv[k], flag, n) == 0 &&
            (argv[k][n] == '\0' || argv[k][n] == '='))
            return true;
    return false;
}

void cli_args_init(struct cli_args *a, int argc, char **argv, int first, struct scenario *s,
                   const struct cli_flag *own, size_t n_own)
{
    memset(a, 0, sizeof *a);
    a->argc = argc;
    a->argv = argv;
    a->i = first;
    a->s = s;
    a->own = own;
    a->n_own = n_own;
}

/* A scenario option's value: inline, else the next argument unless that is an option. An
 * on/off input's flag alone (last, or before another option) means on ("--sp --tp 8"). */
static bool take_value(struct cli_args *a, const char *flag, const char *inline_value,
                       bool onoff, const char **value)
{
    if (inline_value != NULL) {
        if (inline_value[0] == '\0') {
            snprintf(a->err, sizeof a->err, "--%s: needs a value", flag);
            return false;
        }
        *value = inline_value;
        return true;
    }
    const char *next = a->i < a->argc ? a->argv[a->i] : NULL;
    if (onoff) {
        if (next != NULL && strncmp(next, "--", 2) != 0) {
            a->i++;
            *value = next;
        } else {
            *value = "on";
        }
        return true;
    }
    if (next == NULL || strncmp(next, "--", 2) == 0) {
        snprintf(a->err, sizeof a->err, "--%s: needs a value", flag);
        return false;
    }
    a->i++;
    *value = next;
    return true;
}

/* "--seq 8k": a warning on stderr naming both readings (inputs_reading_note), as "rooftop
 * report: warning: ..." (argv[0] is the subcommand's name, or the program's for the
 * dashboard, where it is plain "rooftop: ..."). */
static void warn_reading(const struct cli_args *a, const struct input *in, const char *value)
{
    char note[256], flag[64];
    if (!inputs_reading_note(in, value, note, sizeof note))
        return;
    inputs_flag(in, flag, sizeof flag);
    const char *cmd = a->argc > 0 && a->argv[0] != NULL ? a->argv[0] : "";
    bool program = cmd[0] == '\0' || strchr(cmd, '/') != NULL || strcmp(cmd, "rooftop") == 0;
    fprintf(stderr, "rooftop%s%s: warning: --%s: %s\n", program ? "" : " ", program ? "" : cmd,
            flag, note);
}

/* Applies one scenario option (a registry input, or --scenario FILE). */
static bool scenario_arg(struct cli_args *a, const char *flag, const char *inline_value)
{
    const char *value = NULL;
    char sub[ERR_MAX - 128];
    if (strcmp(flag, "scenario") == 0) {
        if (!take_value(a, flag, inline_value, false, &value))
            return false;
        if (!scenario_load(value, a->s, sub, sizeof sub)) {
            snprintf(a->err, sizeof a->err, "--scenario: %s", sub);
            return false;
        }
        return true;
    }
    const struct input *in = inputs_find(flag);
    if (!take_value(a, flag, inline_value, in->kind == INPUT_ONOFF, &value))
        return false;
    if (!inputs_parse(in, a->s, value, sub, sizeof sub)) {
        char f[64];
        inputs_flag(in, f, sizeof f);
        snprintf(a->err, sizeof a->err, "--%s: %s", f, sub);
        return false;
    }
    warn_reading(a, in, value);
    if (strcmp(in->key, "model") == 0) {
        /* The model file's tokens came with the model: its file is not read a second time. */
        if (!argv_has(a->argc, a->argv, "--tokens") && a->s->model.trained_tokens >= 1)
            a->s->tokens = a->s->model.trained_tokens;
        /* A model the user brings is timed at the step-time model's prediction unless an MFU
         * is typed: an assumed 0.5 is the lecture's, not this model's on this layout. */
        if (!argv_has(a->argc, a->argv, "--mfu"))
            a->s->mfu_mode = MFU_PREDICTED;
    }
    return true;
}

/* "unknown option '--modle' (did you mean --model?)": the command's hint for that flag, or
 * the nearest of its flags (its own, the scenario options when it takes them, --help). */
static void unknown_option(struct cli_args *a, const char *arg, const char *name)
{
    for (size_t k = 0; k < a->n_hints; k++) {
        if (strcmp(a->hints[k][0], name) == 0) {
            snprintf(a->err, sizeof a->err, "unknown option '%.200s' (%s)", arg, a->hints[k][1]);
            one_line(a->err);
            return;
        }
    }
    enum { NAMES_MAX = 160 };
    char flags[NAMES_MAX][64];
    const char *names[NAMES_MAX];
    size_t n = 0;
    for (size_t k = 0; k < a->n_own && n < NAMES_MAX; k++)
        names[n++] = a->own[k].name;
    for (int k = 0; a->s != NULL && k < inputs_count() && n < NAMES_MAX; k++) {
        inputs_flag(inputs_at(k), flags[n], sizeof flags[n]);
        names[n] = flags[n];
        n++;
    }
    if (a->s != NULL && n < NAMES_MAX)
        names[n++] = "scenario";
    if (n < NAMES_MAX)
        names[n++] = "help";
    char near[256];
    if (name[0] != '\0' && nearest_suggest(name, names, n, "--", near, sizeof near))
        snprintf(a->err, sizeof a->err, "unknown option '%.200s' (did you mean %s?)", arg, near);
    else
        snprintf(a->err, sizeof a->err, "unknown option '%.200s'", arg);
    one_line(a->err);
}

int cli_next(struct cli_args *a, const struct cli_flag **flag, const char **value)
{
    *flag = NULL;
    *value = NULL;
    while (a->i < a->argc) {
        const char *arg = a->argv[a->i++];
        if (is_help(arg))
            return CLI_HELP;
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            /* "-model": the flag with one dash; "-" or "-x": nothing near. */
            if (arg[0] == '-' && arg[1] != '-' && strlen(arg) > 2 && strlen(arg) < 64 &&
                strchr(arg, '=') == NULL) {
                unknown_option(a, arg, arg + 1);
                return CLI_ERROR;
            }
            snprintf(a->err, sizeof a->err, "%s '%.200s'",
                     arg[0] == '-' ? "unknown option" : "unexpected argument", arg);
            one_line(a->err);
            return CLI_ERROR;
        }
        char name[64];
        const char *body = arg + 2, *eq = strchr(body, '=');
        size_t len = eq != NULL ? (size_t)(eq - body) : strlen(body);
        if (len >= sizeof name) {
            unknown_option(a, arg, "");
            return CLI_ERROR;
        }
        memcpy(name, body, len);
        name[len] = '\0';
        const char *inline_value = eq != NULL ? eq + 1 : NULL;
        for (size_t k = 0; k < a->n_own; k++) {
            if (strcmp(a->own[k].name, name) != 0)
                continue;
            *flag = &a->own[k];
            if (!a->own[k].value) {
                if (inline_value != NULL) {
                    snprintf(a->err, sizeof a->err, "--%s: takes no value", name);
                    return CLI_ERROR;
                }
                return CLI_OWN;
            }
            if (!take_value(a, name, inline_value, false, value)) {
                one_line(a->err);
                return CLI_ERROR;
            }
            return CLI_OWN;
        }
        if (a->s != NULL && (strcmp(name, "scenario") == 0 || inputs_find(name) != NULL)) {
            if (!scenario_arg(a, name, inline_value)) {
                one_line(a->err);
                return CLI_ERROR;
            }
            continue;
        }
        unknown_option(a, arg, name);
        return CLI_ERROR;
    }
    return CLI_END;
}

bool cli_parse_scenario(struct scenario *s, int argc, char **argv, int first, char *err,
                        size_t errlen)
{
    struct cli_args a;
    cli_args_init(&a, argc, argv, first, s, NULL, 0);
    const struct cli_flag *f;
    const char *v;
    int r = cli_next(&a, &f, &v);
    if (r == CLI_END)
        return true;
    snprintf(err, errlen, "%s", r == CLI_HELP ? "--help: not a scenario option" : a.err);
    return false;
}

/* Flushes stdout and turns a failed write (full disk, closed pipe) into exit status 1. */
static int finish_output(const char *cmd)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rooftop %s: writing output: %s\n", cmd, strerror(errno));
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

/* Prints o (built completely when built is true) as JSON on stdout and frees it; a document
 * that could not be built or printed is "out of memory" and exit status 1. */
static int print_json(cJSON *o, bool built, const char *cmd)
{
    char *text = built && o != NULL ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    if (text == NULL) {
        fprintf(stderr, "rooftop %s: out of memory\n", cmd);
        return EXIT_FAIL;
    }
    printf("%s\n", text);
    free(text);
    return finish_output(cmd);
}

/*
 * The start of a subcommand that needs a word after it (solve max-params, list gpus): without
 * one, the help on stderr and a usage error; with --help, the help on stdout. Returns the exit
 * status when the command ends here, -1 when it goes on.
 */
static int subcommand_head(int argc, char **argv, void (*help)(FILE *), const char *cmd)
{
    if (argc < 2) {
        help(stderr);
        return EXIT_USAGE;
    }
    if (is_help(argv[1])) {
        help(stdout);
        return finish_output(cmd);
    }
    return -1;
}

static int usage_error(const char *cmd, const char *msg)
{
    char line[ERR_MAX];
    snprintf(line, sizeof line, "%s", msg);
    one_line(line);
    fprintf(stderr, "rooftop %s: %s\n", cmd, line);
    return EXIT_USAGE;
}

/* Where a subcommand's argument loop stopped: --help prints its help (exit 0), an error its
 * one line (exit 2); the end of the arguments returns -1 and the command goes on. */
static int args_end(int r, const struct cli_args *a, void (*help)(FILE *), const char *cmd)
{
    if (r == CLI_HELP) {
        help(stdout);
        return finish_output(cmd);
    }
    if (r == CLI_ERROR)
        return usage_error(cmd, a->err);
    return -1;
}

/* ---- help ----------------------------------------------------------------------------------- */

void cli_scenario_help(FILE *f)
{
    fputs("Scenario options (--flag value or --flag=value; numbers take 70B, 15T, 4k = 4000,\n"
          "4Ki = 4096, 80GB, 1e12, and a token length with k or M is warned about; fractions 0.5\n"
          "or 50%; on/off also true/false, yes/no, 1/0):\n"
          "  --scenario NAME|FILE     a saved scenario (later options override it)\n",
          f);
    inputs_help(f);
}

void cli_usage(FILE *f, void (*keys)(FILE *f))
{
    fputs("usage: rooftop [scenario options]          the dashboard (a terminal is needed)\n"
          "       rooftop report [options]            one scenario's memory, FLOPs, time, roofline\n"
          "       rooftop solve max-params|min-gpus|flops [options]\n"
          "       rooftop intensity relu|gelu|dot|matvec|matmul [--n N] [--dtype D] [--gpu G]\n"
          "       rooftop infer [options]             serving: KV cache, prefill, decode, tokens/s\n"
          "       rooftop dtypes [--value X]          fp32 .. nvfp4: bits, range, epsilon, X stored\n"
          "       rooftop einsum [reduce|rearrange] \"b s h, h o -> b s o\" --dims b=2,s=8,h=4,o=16\n"
          "       rooftop list gpus|models\n"
          "       rooftop import FILE [--out FILE]     a Hugging Face config.json as a model file\n"
          "       rooftop plan [--top K] [options]     the fastest layouts that fit\n"
          "       rooftop sweep --knob IN --from A --to B  one input swept: memory, step, fit\n"
          "       rooftop diff A.json [B.json|options]  two scenarios side by side\n"
          "       rooftop snapshot --size COLSxROWS ...  the dashboard rendered to a file\n"
          "       rooftop probe ...                   measure this machine's roofline\n"
          "       rooftop --version\n"
          "\n"
          "Dashboard options, besides the scenario options of `rooftop report --help`:\n"
          "  --scenario NAME|FILE  a saved scenario, or a lecture demo (--scenario lecture)\n"
          "  --points FILE     measured points from `rooftop probe --out FILE` on the roofline\n"
          "                    (and shape points in the operations table's measured column)\n"
          "  --no-color        monochrome (also when NO_COLOR is set)\n"
          "  --ascii           ASCII drawing instead of UTF-8 and braille\n",
          f);
    if (keys != NULL)
        keys(f);
    fputs("\nrooftop COMMAND --help describes each command; man rooftop has it all.\n", f);
}

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

static void solve_help(FILE *f)
{
    fputs("usage: rooftop solve max-params [options] [--activations on|off] [--format text|json]\n"
          "       rooftop solve min-gpus [options] [--activations on|off] [--max-gpus N]\n"
          "                              [--format text|json]\n"
          "max-params: the largest model whose memory fits the GPUs. --activations off (the\n"
          "  default) counts model state only (params, grads, optimizer, master weights): the\n"
          "  lecture's upper bound. on also counts activations at --batch/--micro-batch/--seq.\n"
          "min-gpus: the fewest GPUs (a multiple of --tp x --pp) on which the model fits;\n"
          "  --activations on by default; searches up to --max-gpus (default 1M).\n",
          f);
    fputs("       rooftop solve flops --days D [--peak F] [options]\n"
          "flops: GPUs x time -> FLOPs (--gpus x --days x the GPU's dense peak; --peak F\n"
          "  overrides it), what --mfu does of them and the tokens at 6ND.\n\n",
          f);
    cli_scenario_help(f);
}

static void intensity_help(FILE *f)
{
    fputs("usage: rooftop intensity relu|gelu|dot|matvec|matmul [--n N] [--dtype D] [--gpu G]\n"
          "                         [--format text|json|csv|md]\n"
          "FLOPs, bytes read and written, arithmetic intensity (FLOP/byte) of one of the\n"
          "lecture's operations, and whether it is memory- or compute-bound on the GPU (its\n"
          "ridge point = dense peak / bandwidth). n defaults to 1024^2 elements (relu, gelu,\n"
          "dot) or 1024 (matvec: n x n matrix; matmul: n x n by n x n); dtype to bf16; GPU to\n"
          "h100-sxm.\n"
          "  matmul --b B --d D --k K   the rectangular (B x D) . (D x K): 2 B D K FLOPs, bytes\n"
          "                             (B D + D K + B K) x the dtype's (any left out is --n)\n",
          f);
}

static void list_help(FILE *f)
{
    fputs("usage: rooftop list gpus|models [--format text|json]\n"
          "Lists the presets found on the spec search path: $XDG_CONFIG_HOME/rooftop,\n"
          "$ROOFTOP_SPECS, ./specs, specs beside the rooftop executable, then the installed\n"
          "specs.\n",
          f);
}

static void import_help(FILE *f)
{
    char types[512];
    hfconfig_types(types, sizeof types);
    fputs("usage: rooftop import FILE [--out FILE [--force]]\n"
          "Reads a Hugging Face config.json (recognised by its model_type) and prints the model\n"
          "as rooftop's model JSON (the format of specs/models), to save or edit; --out writes it\n"
          "to FILE instead (--force: even over a file read-only to you or with other hard\n"
          "links). --model FILE, scenario files and the dashboard's o read a config.json\n"
          "directly; this shows what they make of it. A model file or preset name prints as is.\n"
          "The model_type values read:\n  ",
          f);
    fputs(types, f);
    fputs("\n", f);
}

/* ---- report ---------------------------------------------------------------------------------- */

/* Validates and reports; the prefix names the command in error lines. */
static bool validate(const char *cmd, const struct scenario *s)
{
    char err[ERR_MAX];
    if (!scenario_validate(s, err, (int)sizeof err)) {
        fprintf(stderr, "rooftop %s: %s\n", cmd, err);
        return false;
    }
    return true;
}

/* A --format value; false with the error in err. */
static bool parse_format(const char *v, enum report_format *fmt, char *err, size_t errlen)
{
    if (report_format_parse(v, fmt))
        return true;
    snprintf(err, errlen, "--format: '%s' is not one of text, json, csv, md", v);
    one_line(err);
    return false;
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

static void plan_help(FILE *f)
{
    fputs("usage: rooftop plan --model M --gpu G --gpus N --batch B --seq S [--top K]\n"
          "                    [--format text|json] [scenario options]\n"
          "Searches tensor, pipeline (and interleaved), context, expert (MoE) and data\n"
          "parallelism, ZeRO stage, sequence parallelism, micro-batch and recomputation for the\n"
          "layouts that fit, ranked\n"
          "by predicted step time (see report's Predicted step). Each plan's options, given to\n"
          "rooftop report with the same scenario options, reproduce its step time.\n"
          "  --top K           how many plans (1-100, default 5)\n"
          "  --by time|cost|energy  rank by the predicted step (default), or by the run's cost\n"
          "                    (needs --price) or energy; these two also try half, a quarter,\n"
          "                    ... of --gpus: fewer GPUs take longer but may waste less\n\n",
          f);
    cli_scenario_help(f);
}

int cli_plan(int argc, char **argv)
{
    struct scenario s;
    scenario_default(&s);
    enum report_format fmt = REPORT_TEXT;
    char err[ERR_MAX];
    long top = 5;
    enum plan_by by = PLAN_BY_TIME;
    static const struct cli_flag own[] = {{"format", true}, {"top", true}, {"by", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 1, &s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !parse_format(v, &fmt, err, sizeof err))
            return usage_error("plan", err);
        if (f == &own[1]) {
            char *end = NULL;
            errno = 0;
            top = strtol(v, &end, 10);
            if (errno != 0 || end == v || *end != '\0' || top < 1 || top > PLAN_TOP_MAX) {
                snprintf(err, sizeof err, "--top: must be a whole number from 1 to %d, got '%s'",
                         PLAN_TOP_MAX, v);
                return usage_error("plan", err);
            }
        }
        if (f == &own[2] && !plan_by_parse(v, &by)) {
            snprintf(err, sizeof err, "--by: '%s' is not one of time, cost, energy", v);
            one_line(err);
            return usage_error("plan", err);
        }
    }
    int end = args_end(r, &args, plan_help, "plan");
    if (end >= 0)
        return end;
    if (fmt != REPORT_TEXT && fmt != REPORT_JSON)
        return usage_error("plan", "--format: plan writes text or json");
    if (by == PLAN_BY_COST && !(s.price > 0))
        return usage_error("plan", "--by cost: needs --price (USD per GPU-hour; presets carry "
                                   "none)");
    if (by == PLAN_BY_ENERGY && !(s.gpu.board_power > 0))
        return usage_error("plan", "--by energy: the GPU spec has no board power (\"power\": "
                                   "{\"board\": W} in its file)");
    /* The layout is the search's: every other input must hold on its own. One GPU checks
     * all but the GPU count; a batch of one sequence per GPU checks the GPU count (the
     * search looks for the layouts whose data-parallel degree splits the real batch). */
    s.tp = 1;
    s.pp = 1;
    s.vpp = 1;
    s.cp = 1;
    s.ep = 1;
    s.micro_batch = 1;
    struct scenario one = s, per_gpu = s;
    one.gpus = 1;
    per_gpu.batch = s.gpus >= 1 && s.gpus <= 1000000000LL ? s.gpus : s.batch;
    if (!validate("plan", &one) || !validate("plan", &per_gpu))
        return EXIT_USAGE;
    struct plan_result *res = malloc(sizeof *res);
    if (res == NULL) {
        fprintf(stderr, "rooftop plan: out of memory\n");
        return EXIT_FAIL;
    }
    plan_search_by(&s, (int)top, by, res);
    bool ok = fmt == REPORT_JSON ? plan_write_json(stdout, &s, res, by)
                                 : plan_write_text(stdout, &s, res, by);
    free(res);
    int rc = finish_output("plan");
    return ok ? rc : EXIT_FAIL;
}

int cli_report(int argc, char **argv)
{
    struct scenario s;
    scenario_default(&s);
    enum report_format fmt = REPORT_TEXT;
    char err[ERR_MAX];
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
        if (f == &own[0] && !parse_format(v, &fmt, err, sizeof err))
            return usage_error("report", err);
        if (f == &own[1])
            points = v;
        if (f == &own[2])
            any_device = true;
    }
    int end = args_end(r, &args, report_help, "report");
    if (end >= 0)
        return end;
    if (s.mfu_mode == MFU_MEASURED && points == NULL)
        return usage_error("report", "--mfu: 'measured' needs --points FILE with shape points "
                                     "for this scenario");
    if (!validate("report", &s))
        return EXIT_USAGE;
    struct evaluation *ev = malloc(sizeof *ev);
    struct points_doc d;
    points_init(&d);
    if (ev == NULL) {
        fprintf(stderr, "rooftop report: out of memory\n");
        return EXIT_FAIL;
    }
    if (points != NULL && !report_points(points, &d, err, sizeof err)) {
        points_free(&d);
        free(ev);
        return usage_error("report", err);
    }
    struct eval_input in = {points != NULL ? &d : NULL, any_device};
    evaluation_run(&s, &in, ev);
    points_free(&d);
    if (points != NULL && !report_check_points(ev, points, any_device, err, sizeof err)) {
        free(ev);
        return usage_error("report", err);
    }
    bool ok = report_write(stdout, ev, fmt);
    free(ev);
    int rc = finish_output("report");
    if (!ok && rc == EXIT_OK) {
        fprintf(stderr, "rooftop report: writing output failed\n");
        rc = EXIT_FAIL;
    }
    return rc;
}

/* ---- solve ----------------------------------------------------------------------------------- */

/* A one-line summary of the setting a solve answer depends on. */
static void solve_setting(const struct scenario *s, char *buf, size_t n, bool with_gpus)
{
    char mem[32];
    units_bytes(s->gpu.memory_bytes, mem, sizeof mem);
    char gpus[48] = "";
    if (with_gpus)
        snprintf(gpus, sizeof gpus, "%lld x ", (long long)s->gpus);
    /* cp and ep (issue 9) said where they split something, as tp and pp always are. */
    char more[64] = "";
    int used = 0;
    if (s->cp > 1)
        used = snprintf(more, sizeof more, ", cp %lld", (long long)s->cp);
    if (s->ep > 1 && used >= 0 && (size_t)used < sizeof more)
        snprintf(more + used, sizeof more - (size_t)used, ", ep %lld", (long long)s->ep);
    snprintf(buf, n, "%s%s (%s each), %s, %s, master weights %s, ZeRO %d, tp %lld, pp %lld%s",
             gpus, s->gpu.name, mem, dtype_name(s->dtype), optimizer_name(s->optimizer),
             s->master_weights ? "on" : "off", s->zero, (long long)s->tp, (long long)s->pp, more);
}

int cli_solve(int argc, char **argv)
{
    int head = subcommand_head(argc, argv, solve_help, "solve");
    if (head >= 0)
        return head;
    bool max_params;
    if (strcmp(argv[1], "max-params") == 0)
        max_params = true;
    else if (strcmp(argv[1], "min-gpus") == 0)
        max_params = false;
    else {
        char err[ERR_MAX];
        snprintf(err, sizeof err, "'%s' is not max-params, min-gpus or flops", argv[1]);
        return usage_error("solve", err);
    }
    struct scenario s;
    scenario_default(&s);
    enum report_format fmt = REPORT_TEXT;
    bool activations = !max_params;
    long long max_gpus = 1LL << 20;
    char err[ERR_MAX];
    static const struct cli_flag own[] = {
        {"format", true}, {"activations", true}, {"max-gpus", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, &s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !parse_format(v, &fmt, err, sizeof err))
            return usage_error("solve", err);
        if (f == &own[1] && !inputs_parse_onoff(v, &activations)) {
            snprintf(err, sizeof err, "--activations: '%s' is not on or off", v);
            return usage_error("solve", err);
        }
        if (f == &own[2] && !units_parse_count(v, &max_gpus)) {
            snprintf(err, sizeof err, "--max-gpus: '%s' is not a whole number of at least 1", v);
            return usage_error("solve", err);
        }
    }
    int end = args_end(r, &args, solve_help, "solve");
    if (end >= 0)
        return end;
    /* min-gpus finds the GPU count: one given is a mistake, not an input. */
    bool gpus_given = false;
    for (int k = 2; k < argc; k++)
        gpus_given = gpus_given || strcmp(argv[k], "--gpus") == 0 ||
                     strncmp(argv[k], "--gpus=", 7) == 0;
    if (fmt == REPORT_CSV || fmt == REPORT_MD)
        return usage_error("solve", "--format: solve prints text or json");
    if (!max_params) {
        if (gpus_given)
            return usage_error("solve", "--gpus: min-gpus finds the GPU count; leave --gpus out");
        /* The count is what we solve for; validate with the smallest count the parallel
         * layout allows, so --tp 8 is not refused for not dividing the default 1024. */
        s.gpus = s.tp * s.pp * s.cp * s.ep; /* dp = ep: a count ep divides (dp x cp) */
        if (s.batch < 1)
            s.batch = 1;
    }
    if (!validate("solve", &s))
        return EXIT_USAGE;

    char setting[512];
    int rc = EXIT_OK;
    if (max_params) {
        double n = solve_max_params(&s, activations);
        solve_setting(&s, setting, sizeof setting, true);
        if (fmt == REPORT_JSON) {
            cJSON *o = cJSON_CreateObject();
            bool ok = o != NULL && cJSON_AddNumberToObject(o, "max_params", isfinite(n) ? n : 0) &&
                      cJSON_AddBoolToObject(o, "activations", activations) &&
                      cJSON_AddNumberToObject(o, "gpus", (double)s.gpus) &&
                      cJSON_AddStringToObject(o, "gpu", s.gpu.id) &&
                      cJSON_AddNumberToObject(o, "memory_bytes", s.gpu.memory_bytes) &&
                      cJSON_AddStringToObject(o, "dtype", dtype_name(s.dtype)) &&
                      cJSON_AddStringToObject(o, "optimizer", optimizer_name(s.optimizer)) &&
                      cJSON_AddBoolToObject(o, "master_weights", s.master_weights) &&
                      cJSON_AddNumberToObject(o, "zero", s.zero);
            if (print_json(o, ok, "solve") != EXIT_OK)
                return EXIT_FAIL;
        } else if (n <= 0 || !isfinite(n)) {
            printf("max params: nothing fits on %s\n", setting);
        } else {
            char c[32], sci[32];
            units_count(n, c, sizeof c);
            units_sci(n, sci, sizeof sci);
            printf("max params: %s (%s) on %s\n", c, sci, setting);
            if (activations)
                printf("note: activations counted (batch %lld, micro-batch %lld, seq %lld) for a "
                       "custom model of each size\n",
                       (long long)s.batch, (long long)scenario_micro_batch(&s), (long long)s.seq);
            else
                printf("note: model state only (params, grads, optimizer state, master weights), "
                       "activations ignored: the lecture's upper bound (--activations on counts "
                       "them)\n");
        }
        if (n <= 0 || !isfinite(n))
            rc = EXIT_FAIL;
    } else {
        int64_t g = solve_min_gpus(&s, activations, (int64_t)max_gpus);
        solve_setting(&s, setting, sizeof setting, false);
        /* Nothing fits: why (the batch caps data parallelism; the memory left per GPU) and
         * what would fit. */
        struct solve_miss miss;
        if (g <= 0)
            solve_min_gpus_miss(&s, activations, (int64_t)max_gpus, &miss);
        if (fmt == REPORT_JSON) {
            cJSON *o = cJSON_CreateObject();
            bool ok = o != NULL && cJSON_AddNumberToObject(o, "min_gpus", (double)g) &&
                      cJSON_AddBoolToObject(o, "activations", activations) &&
                      cJSON_AddStringToObject(o, "model", s.model.id) &&
                      cJSON_AddStringToObject(o, "gpu", s.gpu.id) &&
                      cJSON_AddNumberToObject(o, "tp", (double)s.tp) &&
                      cJSON_AddNumberToObject(o, "pp", (double)s.pp) &&
                      cJSON_AddNumberToObject(o, "max_gpus", (double)max_gpus);
            if (ok && g <= 0) {
                cJSON *w = cJSON_AddObjectToObject(o, "why");
                cJSON *tr = cJSON_AddArrayToObject(o, "try");
                ok = w != NULL && tr != NULL &&
                     cJSON_AddBoolToObject(w, "batch_limits_dp", miss.batch_limits) &&
                     cJSON_AddNumberToObject(w, "batch", (double)s.batch) &&
                     cJSON_AddNumberToObject(w, "largest_gpus", (double)miss.gpus) &&
                     cJSON_AddNumberToObject(w, "largest_dp", (double)miss.dp) &&
                     cJSON_AddNumberToObject(w, "memory_per_gpu", miss.needed) &&
                     cJSON_AddNumberToObject(w, "activations_per_gpu", miss.activations) &&
                     cJSON_AddNumberToObject(w, "capacity", miss.capacity);
                for (int k = 0; ok && k < miss.n_hints; k++) {
                    cJSON *h = cJSON_CreateObject();
                    ok = h != NULL && cJSON_AddItemToArray(tr, h) &&
                         cJSON_AddStringToObject(h, "option", miss.hint[k].option) &&
                         cJSON_AddNumberToObject(h, "min_gpus", (double)miss.hint[k].gpus);
                    if (h != NULL && !ok)
                        break;
                }
            }
            if (print_json(o, ok, "solve") != EXIT_OK)
                return EXIT_FAIL;
        } else {
            struct param_counts pc;
            struct model_arch trained;
            scenario_trained_model(&s, &trained);
            model_params(&trained, &pc);
            char c[32];
            units_count((double)pc.total, c, sizeof c);
            if (g > 0)
                printf("min gpus: %lld for %s (%s parameters) on %s\n", (long long)g,
                       s.model.name, c, setting);
            else {
                printf("min gpus: none up to %lld fits %s (%s parameters) on %s\n", max_gpus,
                       s.model.name, c, setting);
                char need[32], cap[32], act[32];
                units_bytes(miss.needed, need, sizeof need);
                units_bytes(miss.capacity, cap, sizeof cap);
                units_bytes(miss.activations, act, sizeof act);
                if (miss.batch_limits)
                    printf("why: data parallelism cannot exceed the batch of %lld sequences: at "
                           "%lld GPUs (dp %lld) each still needs %s of its %s",
                           (long long)s.batch, (long long)miss.gpus, (long long)miss.dp, need, cap);
                else
                    printf("why: at the largest count searched, %lld GPUs (dp %lld), each still "
                           "needs %s of its %s",
                           (long long)miss.gpus, (long long)miss.dp, need, cap);
                if (miss.activations > 0)
                    printf(", %s of it activations, which data parallelism does not shrink", act);
                printf("\n");
                if (miss.n_hints == 0) {
                    printf("try: %s, or a GPU with more memory (--gpu)\n",
                           miss.batch_limits ? "a larger --batch (more data parallelism)"
                                             : "a larger --max-gpus");
                } else {
                    printf("try:");
                    for (int k = 0; k < miss.n_hints; k++)
                        printf("%s %s (fits on %lld GPUs)", k > 0 ? "," : "",
                               miss.hint[k].option, (long long)miss.hint[k].gpus);
                    printf("\n");
                }
            }
            if (activations)
                printf("note: activations counted (batch %lld, micro-batch %lld, seq %lld); "
                       "--activations off counts model state only\n",
                       (long long)s.batch, (long long)scenario_micro_batch(&s), (long long)s.seq);
            else
                printf("note: model state only, activations ignored: a lower bound on the GPUs "
                       "needed\n");
        }
        if (g <= 0)
            rc = EXIT_FAIL;
    }
    int out = finish_output("solve");
    return out != EXIT_OK ? out : rc;
}

/* ---- intensity ------------------------------------------------------------------------------ */

/* intensity's first lines: the op and n, FLOPs and bytes, with the exact counts in integers
 * beside them (a double would round them past 2^53), or none. n_exact is 0 when the n typed
 * is not known exactly (then n_text shows it). */
static void print_counts(enum lecture_op op, long long n_exact, const char *n_text,
                         enum dtype dt, const char *flops, const char *bytes)
{
    char fx[96] = "", bx[96] = "";
    if (n_exact > 0) {
        lecture_op_exact(op, n_exact, dt, fx, sizeof fx, bx, sizeof bx);
        printf("%s, n = %lld, %s\n", lecture_op_name(op), n_exact, dtype_name(dt));
    } else {
        printf("%s, n = %s, %s\n", lecture_op_name(op), n_text, dtype_name(dt));
    }
    if (fx[0])
        printf("  flops       %s (%s)\n", flops, fx);
    else
        printf("  flops       %s\n", flops);
    if (bx[0])
        printf("  bytes       %s (%s read + written)\n", bytes, bx);
    else
        printf("  bytes       %s read + written\n", bytes);
}

int cli_intensity(int argc, char **argv)
{
    int head = subcommand_head(argc, argv, intensity_help, "intensity");
    if (head >= 0)
        return head;
    char err[ERR_MAX];
    enum lecture_op op;
    if (!lecture_op_parse(argv[1], &op)) {
        snprintf(err, sizeof err, "'%s' is not one of relu, gelu, dot, matvec, matmul", argv[1]);
        return usage_error("intensity", err);
    }
    double n = lecture_op_default_n(op);
    long long n_exact = (long long)n; /* the defaults are whole numbers */
    bool n_known = true;               /* n_exact is the n typed, not a rounding of it */
    enum dtype dt = DTYPE_BF16;
    enum report_format fmt = REPORT_TEXT;
    struct scenario def;
    scenario_default(&def);
    struct gpu_spec gpu = def.gpu;
    static const struct cli_flag own[] = {{"format", true}, {"n", true}, {"dtype", true},
                                          {"gpu", true},    {"b", true}, {"d", true},
                                          {"k", true}};
    double bdk[3] = {0, 0, 0}; /* --b --d --k: a rectangular matmul; 0 where not given */
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, NULL, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !parse_format(v, &fmt, err, sizeof err))
            return usage_error("intensity", err);
        if (f == &own[1]) {
            long long nn;
            if (!units_parse_count(v, &nn)) {
                double d;
                snprintf(err, sizeof err,
                         units_parse(v, &d) ? "--n: %s is out of range (a whole number from 1)"
                                            : "--n: '%s' is not a number",
                         v);
                return usage_error("intensity", err);
            }
            n = (double)nn;
            n_exact = nn;
            n_known = units_count_exact(v, nn);
        }
        if (f == &own[2] && !dtype_parse(v, &dt)) {
            snprintf(err, sizeof err,
                     "--dtype: '%s' is not one of fp64, fp32, tf32, bf16, fp16, fp8, "
                     "fp8-e4m3, fp8-e5m2, fp4",
                     v);
            return usage_error("intensity", err);
        }
        if (f == &own[3]) {
            char sub[SPEC_ERR_MAX];
            if (!spec_find_gpu(v, &gpu, sub, sizeof sub)) {
                snprintf(err, sizeof err, "--gpu: %s", sub);
                return usage_error("intensity", err);
            }
        }
        if (f >= &own[4]) {
            long long x;
            if (op != LOP_MATMUL) {
                snprintf(err, sizeof err, "--%s: only matmul has B, D and K", f->name);
                return usage_error("intensity", err);
            }
            if (!units_parse_count(v, &x)) {
                snprintf(err, sizeof err, "--%s: '%s' is not a whole number of at least 1",
                         f->name, v);
                return usage_error("intensity", err);
            }
            bdk[f - &own[4]] = (double)x;
        }
    }
    int end = args_end(r, &args, intensity_help, "intensity");
    if (end >= 0)
        return end;
    struct op_cost c;
    bool rect = bdk[0] > 0 || bdk[1] > 0 || bdk[2] > 0;
    for (int k = 0; k < 3; k++)
        bdk[k] = bdk[k] > 0 ? bdk[k] : n;
    if (rect)
        matmul_rect_cost(bdk[0], bdk[1], bdk[2], dt, &c);
    else
        lecture_op_cost(op, n, dt, &c);
    double peak = gpu_peak(&gpu, dt);
    double ridge = gpu_ridge(&gpu, dt);
    if (!(peak > 0) || !(gpu.bandwidth > 0) || !isfinite(c.intensity)) {
        char has[128];
        gpu_dtypes(&gpu, has, sizeof has);
        if (gpu.bandwidth > 0)
            snprintf(err, sizeof err, "--dtype: the %s has no %s peak; it has %s", gpu.name,
                     dtype_name(dt), has);
        else
            snprintf(err, sizeof err, "--gpu: %s has no known bandwidth", gpu.id);
        return usage_error("intensity", err);
    }
    bool compute = c.intensity >= ridge;
    double attainable = roofline_attainable(peak, gpu.bandwidth, c.intensity);
    double seconds = roofline_seconds(c.flops, c.bytes, peak, gpu.bandwidth);
    const char *bound = compute ? "compute" : "memory";

    if (fmt == REPORT_JSON) {
        cJSON *o = cJSON_CreateObject();
        bool ok = o != NULL && cJSON_AddStringToObject(o, "op", lecture_op_name(op)) &&
                  cJSON_AddNumberToObject(o, "n", n) &&
                  cJSON_AddStringToObject(o, "dtype", dtype_name(dt)) &&
                  cJSON_AddNumberToObject(o, "flops", c.flops) &&
                  cJSON_AddNumberToObject(o, "bytes", c.bytes) &&
                  cJSON_AddNumberToObject(o, "intensity", c.intensity) &&
                  cJSON_AddStringToObject(o, "bound", bound) &&
                  cJSON_AddStringToObject(o, "gpu", gpu.id) &&
                  cJSON_AddNumberToObject(o, "peak", peak) &&
                  cJSON_AddNumberToObject(o, "bandwidth", gpu.bandwidth) &&
                  cJSON_AddNumberToObject(o, "ridge", ridge) &&
                  cJSON_AddNumberToObject(o, "attainable", attainable) &&
                  cJSON_AddNumberToObject(o, "seconds", seconds);
        if (ok && rect)
            ok = cJSON_AddNumberToObject(o, "b", bdk[0]) && cJSON_AddNumberToObject(o, "d", bdk[1]) &&
                 cJSON_AddNumberToObject(o, "k", bdk[2]);
        return print_json(o, ok, "intensity");
    }
    if (fmt == REPORT_CSV) {
        printf("op,n,dtype,flops,bytes,intensity,bound,gpu,ridge,attainable,seconds\n");
        printf("%s,%.17g,%s,%.17g,%.17g,%.17g,%s,%s,%.17g,%.17g,%.17g\n", lecture_op_name(op), n,
               dtype_name(dt), c.flops, c.bytes, c.intensity, bound, gpu.id, ridge, attainable,
               seconds);
        return finish_output("intensity");
    }
    char fl[32], by[32], pk[32], bw[32], at[32], tm[32], nn[32], in[32], rg[32], pc[32];
    units_sci(c.flops, fl, sizeof fl);
    units_bytes(c.bytes, by, sizeof by);
    units_flops_rate(peak, pk, sizeof pk);
    units_bandwidth(gpu.bandwidth, bw, sizeof bw);
    units_flops_rate(attainable, at, sizeof at);
    units_duration(seconds, tm, sizeof tm);
    units_count(n, nn, sizeof nn);
    units_plain(c.intensity, in, sizeof in);
    units_plain(ridge, rg, sizeof rg);
    units_plain(100.0 * attainable / peak, pc, sizeof pc);
    if (fmt == REPORT_MD) {
        printf("| op | n | dtype | FLOPs | bytes | intensity (FLOP/byte) | bound | ridge (%s) |\n"
               "|---|---:|---|---:|---:|---:|---|---:|\n"
               "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
               gpu.name, lecture_op_name(op), nn, dtype_name(dt), fl, by, in, bound, rg);
        return finish_output("intensity");
    }
    if (rect) {
        printf("matmul, (B x D) . (D x K) = (%.0f x %.0f) . (%.0f x %.0f), %s: 2 B D K FLOPs\n",
               bdk[0], bdk[1], bdk[1], bdk[2], dtype_name(dt));
        /* Whole and below 2^53, the double is the exact count (its integer factors and
         * partial products are smaller still); otherwise no digits are claimed. */
        const double exact_max = 9007199254740992.0;
        if (c.flops < exact_max)
            printf("  flops       %s (%.0f)\n", fl, c.flops);
        else
            printf("  flops       %s\n", fl);
        if (c.bytes < exact_max && c.bytes == floor(c.bytes))
            printf("  bytes       %s (%.0f read + written)\n", by, c.bytes);
        else
            printf("  bytes       %s read + written\n", by);
    } else {
        print_counts(op, n_known ? n_exact : 0, nn, dt, fl, by);
    }
    printf("  intensity   %s FLOP/byte\n", in);
    printf("  ridge       %s FLOP/byte on %s (%s / %s)\n", rg, gpu.name, pk, bw);
    printf("  bound       %s (attainable %s, %s%% of peak)\n", bound, at, pc);
    printf("  time        %s\n", tm);
    return finish_output("intensity");
}

/* ---- list ------------------------------------------------------------------------------------ */

int cli_list(int argc, char **argv)
{
    int head = subcommand_head(argc, argv, list_help, "list");
    if (head >= 0)
        return head;
    bool gpus;
    char err[ERR_MAX];
    if (strcmp(argv[1], "gpus") == 0)
        gpus = true;
    else if (strcmp(argv[1], "models") == 0)
        gpus = false;
    else {
        snprintf(err, sizeof err, "'%s' is not gpus or models", argv[1]);
        return usage_error("list", err);
    }
    enum report_format fmt = REPORT_TEXT;
    static const struct cli_flag own[] = {{"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, NULL, own, 1);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN)
        if (!parse_format(v, &fmt, err, sizeof err))
            return usage_error("list", err);
    int end = args_end(r, &args, list_help, "list");
    if (end >= 0)
        return end;
    if (fmt == REPORT_CSV || fmt == REPORT_MD)
        return usage_error("list", "--format: list prints text or json");
    struct spec_list l;
    if (!(gpus ? spec_list_gpus(&l) : spec_list_models(&l))) {
        fprintf(stderr, "rooftop list: cannot read the spec directories\n");
        return EXIT_FAIL;
    }
    if (l.count == 0) {
        /* An empty list would read as "there are none"; it means no data directory was found. */
        char where[1024];
        files_dirs_describe(gpus ? "gpus" : "models", where, sizeof where);
        fprintf(stderr, "rooftop list: no %s presets found; looked in %s (set ROOFTOP_SPECS to a "
                        "specs directory, or run `make install`)\n", gpus ? "GPU" : "model", where);
        spec_list_free(&l);
        return EXIT_FAIL;
    }
    int rc = EXIT_OK;
    cJSON *arr = fmt == REPORT_JSON ? cJSON_CreateArray() : NULL;
    if (fmt == REPORT_JSON && arr == NULL) {
        spec_list_free(&l);
        fprintf(stderr, "rooftop list: out of memory\n");
        return EXIT_FAIL;
    }
    /* The id column as wide as the longest id (qwen1.5-moe-a2.7b), so the columns align. */
    int idw = 16;
    for (size_t k = 0; k < l.count; k++)
        if ((int)strlen(l.ids[k]) > idw)
            idw = (int)strlen(l.ids[k]);
    if (fmt == REPORT_TEXT) {
        if (gpus)
            printf("%-14s %-18s %9s %11s %15s %7s\n", "id", "name", "memory", "bandwidth",
                   "bf16 peak", "ridge");
        else
            printf("%-*s %-20s %6s %8s %6s %10s %16s %7s\n", idw, "id", "name", "layers",
                   "d_model", "heads", "params", "exact", "active");
    }
    for (size_t k = 0; k < l.count; k++) {
        char sub[SPEC_ERR_MAX];
        if (gpus) {
            struct gpu_spec g;
            if (!spec_find_gpu(l.ids[k], &g, sub, sizeof sub)) {
                fprintf(stderr, "rooftop list: %s\n", sub);
                rc = EXIT_FAIL;
                continue;
            }
            double peak = gpu_peak(&g, DTYPE_BF16);
            double ridge = gpu_ridge(&g, DTYPE_BF16);
            if (arr != NULL) {
                cJSON *o = cJSON_CreateObject();
                if (o == NULL || !cJSON_AddItemToArray(arr, o) ||
                    !cJSON_AddStringToObject(o, "id", g.id) ||
                    !cJSON_AddStringToObject(o, "name", g.name) ||
                    !cJSON_AddNumberToObject(o, "memory_bytes", g.memory_bytes) ||
                    !cJSON_AddNumberToObject(o, "bandwidth", g.bandwidth) ||
                    !cJSON_AddItemToObject(o, "bf16_peak", peak > 0 ? cJSON_CreateNumber(peak)
                                                                  : cJSON_CreateNull()) ||
                    !cJSON_AddItemToObject(o, "bf16_ridge", peak > 0 ? cJSON_CreateNumber(ridge)
                                                                    : cJSON_CreateNull()))
                    rc = EXIT_FAIL;
                continue;
            }
            char mem[32], bw[32], pk[32];
            units_bytes(g.memory_bytes, mem, sizeof mem);
            units_bandwidth(g.bandwidth, bw, sizeof bw);
            /* A GPU without bf16 (V100) says so rather than print another format's rate. */
            if (peak > 0) {
                units_flops_rate(peak, pk, sizeof pk);
                printf("%-14s %-18s %9s %11s %15s %7.0f\n", g.id, g.name, mem, bw, pk, ridge);
            } else {
                printf("%-14s %-18s %9s %11s %15s %7s\n", g.id, g.name, mem, bw, "n/a", "n/a");
            }
        } else {
            struct model_arch m;
            if (!spec_find_model(l.ids[k], &m, sub, sizeof sub)) {
                fprintf(stderr, "rooftop list: %s\n", sub);
                rc = EXIT_FAIL;
                continue;
            }
            struct param_counts pc;
            model_params(&m, &pc);
            if (arr != NULL) {
                cJSON *o = cJSON_CreateObject();
                if (o == NULL || !cJSON_AddItemToArray(arr, o) ||
                    !cJSON_AddStringToObject(o, "id", m.id) ||
                    !cJSON_AddStringToObject(o, "name", m.name) ||
                    !cJSON_AddNumberToObject(o, "layers", (double)m.layers) ||
                    !cJSON_AddNumberToObject(o, "d_model", (double)m.d_model) ||
                    !cJSON_AddNumberToObject(o, "heads", (double)m.heads) ||
                    !cJSON_AddNumberToObject(o, "params", (double)pc.total) ||
                    !cJSON_AddNumberToObject(o, "active_params", (double)pc.active))
                    rc = EXIT_FAIL;
                continue;
            }
            /* A mixture of experts also shows what a token passes through (embedding and
             * head included); a dense model's active count is its total. */
            char c[32], act[32] = "-";
            units_count((double)pc.total, c, sizeof c);
            if (model_is_moe(&m))
                units_count((double)pc.active, act, sizeof act);
            printf("%-*s %-20s %6lld %8lld %6lld %10s %16lld %7s\n", idw, m.id, m.name,
                   (long long)m.layers, (long long)m.d_model, (long long)m.heads, c,
                   (long long)pc.total, act);
        }
    }
    spec_list_free(&l);
    if (arr != NULL) {
        char *text = cJSON_Print(arr);
        cJSON_Delete(arr);
        if (text == NULL) {
            fprintf(stderr, "rooftop list: out of memory\n");
            return EXIT_FAIL;
        }
        printf("%s\n", text);
        free(text);
    }
    int out = finish_output("list");
    return out != EXIT_OK ? out : rc;
}

/* ---- import ---------------------------------------------------------------------------------- */

int cli_import(int argc, char **argv)
{
    int head = subcommand_head(argc, argv, import_help, "import");
    if (head >= 0)
        return head;
    const char *path = argv[1];
    if (strncmp(path, "--", 2) == 0)
        return usage_error("import", "the file comes first: rooftop import FILE [--out FILE]");
    const char *out = NULL;
    static const struct cli_flag own[] = {{"out", true}, {"force", false}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, NULL, own, 2);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0])
            out = v;
        else
            files_set_force(true);
    }
    int end = args_end(r, &args, import_help, "import");
    if (end >= 0)
        return end;
    struct model_arch m;
    struct spec_model_meta meta;
    char err[SPEC_ERR_MAX];
    if (!spec_find_model_meta(path, &m, &meta, err, sizeof err))
        return usage_error("import", err);
    cJSON *o = spec_model_to_json(&m, &meta);
    if (out != NULL) {
        char werr[ERR_MAX];
        bool ok = spec_save_json(out, o, werr, sizeof werr);
        cJSON_Delete(o);
        if (!ok) {
            fprintf(stderr, "rooftop import: %s\n", werr);
            return EXIT_FAIL;
        }
        return EXIT_OK;
    }
    return print_json(o, true, "import");
}

/* ---- for the subcommands in their own files (cmd_*.c) ----------------------------------- */

int cli_usage_error(const char *cmd, const char *msg)
{
    return usage_error(cmd, msg);
}

int cli_finish_output(const char *cmd)
{
    return finish_output(cmd);
}

int cli_print_json(struct cJSON *o, bool built, const char *cmd)
{
    return print_json(o, built, cmd);
}

int cli_args_end(int r, const struct cli_args *a, void (*help)(FILE *), const char *cmd)
{
    return args_end(r, a, help, cmd);
}

bool cli_text_or_json(const char *v, bool *json, char *err, size_t errlen)
{
    *json = strcmp(v, "json") == 0;
    if (*json || strcmp(v, "text") == 0)
        return true;
    snprintf(err, errlen, "--format: '%.100s' is not text or json", v);
    return false;
}
