/* cli.c - what every command of the command line shares: the scenario options (one registry,
 * src/inputs.h), the argument loop, help, one-line usage errors, output and exit statuses.
 * Each command is a file of its own (cmd_*.c), listed in the command table (ui/commands.c). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "dtype.h"
#include "figure.h"
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
#include "scenario_check.h"
#include "scenario_file.h"
#include "solve.h"
#include "spec.h"
#include "units.h"


#ifndef ROOFTOP_VERSION
#define ROOFTOP_VERSION "unknown"
#endif


/* ---- options ------------------------------------------------------------------------------ */

/* Arguments are quoted in errors; a newline or escape in one must not break the one line. */
void cli_one_line(char *s)
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
    char sub[CLI_ERR_MAX - 128];
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
    int k = inputs_index(in);
    if (k >= 0 && k < CLI_INPUTS_MAX)
        a->given[k] = true;
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
            cli_one_line(a->err);
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
    cli_one_line(a->err);
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
            cli_one_line(a->err);
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
                cli_one_line(a->err);
                return CLI_ERROR;
            }
            return CLI_OWN;
        }
        if (a->s != NULL && (strcmp(name, "scenario") == 0 || inputs_find(name) != NULL)) {
            if (!scenario_arg(a, name, inline_value)) {
                cli_one_line(a->err);
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
int cli_finish_output(const char *cmd)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rooftop %s: writing output: %s\n", cmd, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* Prints o (built completely when built is true) as JSON on stdout and frees it; a document
 * that could not be built or printed is "out of memory" and exit status 1. */
int cli_print_json(cJSON *o, bool built, const char *cmd)
{
    char *text = built && o != NULL ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    if (text == NULL) {
        fprintf(stderr, "rooftop %s: out of memory\n", cmd);
        return CLI_EXIT_FAIL;
    }
    printf("%s\n", text);
    free(text);
    return cli_finish_output(cmd);
}

int cli_print_figures(const struct figure *table, const void *ctx, enum report_format fmt,
                      const char *cmd)
{
    bool ok = figure_write(stdout, table, ctx, fmt);
    int rc = cli_finish_output(cmd);
    if (!ok && rc == CLI_EXIT_OK) {
        fprintf(stderr, "rooftop %s: writing output failed\n", cmd);
        rc = CLI_EXIT_FAIL;
    }
    return rc;
}

/*
 * The start of a subcommand that needs a word after it (solve max-params, list gpus): without
 * one, the help on stderr and a usage error; with --help, the help on stdout. Returns the exit
 * status when the command ends here, -1 when it goes on.
 */
int cli_subcommand_head(int argc, char **argv, void (*help)(FILE *), const char *cmd)
{
    if (argc < 2) {
        help(stderr);
        return CLI_EXIT_USAGE;
    }
    if (is_help(argv[1])) {
        help(stdout);
        return cli_finish_output(cmd);
    }
    return -1;
}

int cli_usage_error(const char *cmd, const char *msg)
{
    char line[CLI_ERR_MAX];
    snprintf(line, sizeof line, "%s", msg);
    cli_one_line(line);
    fprintf(stderr, "rooftop %s: %s\n", cmd, line);
    return CLI_EXIT_USAGE;
}

/* Where a subcommand's argument loop stopped: --help prints its help (exit 0), an error its
 * one line (exit 2); the end of the arguments returns -1 and the command goes on. */
int cli_args_end(int r, const struct cli_args *a, void (*help)(FILE *), const char *cmd)
{
    if (r == CLI_HELP) {
        help(stdout);
        return cli_finish_output(cmd);
    }
    if (r == CLI_ERROR)
        return cli_usage_error(cmd, a->err);
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







/* ---- shared by the commands ------------------------------------------------------------- */

/* Validates and reports; the prefix names the command in error lines. */
bool cli_validate(const char *cmd, const struct scenario *s)
{
    char err[CLI_ERR_MAX];
    if (!scenario_validate(s, err, (int)sizeof err)) {
        fprintf(stderr, "rooftop %s: %s\n", cmd, err);
        return false;
    }
    return true;
}

/* A --format value; false with the error in err. */
bool cli_parse_format(const char *v, enum report_format *fmt, char *err, size_t errlen)
{
    if (report_format_parse(v, fmt))
        return true;
    snprintf(err, errlen, "--format: '%s' is not one of text, json, csv, md", v);
    cli_one_line(err);
    return false;
}
