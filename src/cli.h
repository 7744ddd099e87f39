/* cli.h - the scriptable command line: report, solve, intensity, list, and scenario options. */
#ifndef ROOFTOP_CLI_H
#define ROOFTOP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scenario.h"

/*
 * Subcommands. argv[0] is the subcommand's name ("report", ...); the return value is the
 * process exit status: 0 success, 1 the work itself failed (e.g. writing output),
 * 2 bad usage (one line on stderr "rooftop report: --tp: ...").
 */
int cli_report(int argc, char **argv);
int cli_solve(int argc, char **argv);
int cli_intensity(int argc, char **argv);
int cli_list(int argc, char **argv);
/* rooftop import FILE [--out FILE]: a Hugging Face config.json (or any model file) printed or
 * saved as rooftop's model JSON. */
int cli_import(int argc, char **argv);
/* rooftop plan: the fastest layouts that fit (src/plan.h). */
int cli_plan(int argc, char **argv);

/* The top-level usage text (commands and where to find more), the dashboard's key list from
 * keys between (NULL: none; the key table is the dashboard's, ui/keymap.c). */
void cli_usage(FILE *f, void (*keys)(FILE *f));
/* The scenario options, one per line with their values, for other commands' --help. */
void cli_scenario_help(FILE *f);

/*
 * The one argument parser of every subcommand. Scenario options are the registry's inputs
 * (src/inputs.h: --micro-batch for micro_batch), plus --scenario FILE; each subcommand adds
 * its own flags as a table. "--flag value" and "--flag=value" both read; an on/off input's
 * flag alone means on. --model takes the model file's "tokens" (if any) unless --tokens
 * appears anywhere in argv. Options apply in order.
 */
struct cli_flag {
    const char *name; /* without "--" */
    bool value;       /* takes a value */
};

struct cli_args {
    int argc;
    char **argv;
    int i;                       /* the next argument */
    struct scenario *s;          /* scenario options go here; NULL: the command takes none */
    const struct cli_flag *own;  /* the subcommand's own flags */
    size_t n_own;
    /* Flags a user may reach for that the command has not, and what to say instead: {"gpus",
     * "did you mean --tp? ..."}. An unknown flag without one gets the nearest names. */
    const char *const (*hints)[2];
    size_t n_hints;
    char err[1024];              /* CLI_ERROR: one line, "--gpus: '12x' is not a number" */
};

enum { CLI_END, CLI_HELP, CLI_OWN, CLI_ERROR };

void cli_args_init(struct cli_args *a, int argc, char **argv, int first, struct scenario *s,
                   const struct cli_flag *own, size_t n_own);
/* Applies scenario options until the end (CLI_END), --help/-h (CLI_HELP), one of the own flags
 * (CLI_OWN: *flag points into own, *value its value or NULL) or an error (CLI_ERROR, a.err). */
int cli_next(struct cli_args *a, const struct cli_flag **flag, const char **value);

/*
 * Parses argv[first..argc-1], which must all be scenario options, onto s (start it with
 * scenario_default). On error writes one line to err ("--gpus: ..." or "unknown option
 * '--foo'") and returns false. Does not validate: call scenario_validate afterwards.
 */
bool cli_parse_scenario(struct scenario *s, int argc, char **argv, int first, char *err,
                        size_t errlen);

/* For subcommands in their own files: the one-line usage error ("rooftop CMD: MSG" on
 * stderr, returns 2), the flush of stdout (0, or 1 with a message when writing failed), and
 * a JSON document printed and freed (as cli_finish_output; 1 when it could not be built). */
struct cJSON;
int cli_usage_error(const char *cmd, const char *msg);
int cli_finish_output(const char *cmd);
int cli_print_json(struct cJSON *o, bool built, const char *cmd);
/* Where a subcommand's cli_next loop stopped: CLI_HELP prints help (exit 0), CLI_ERROR the
 * one line (exit 2); -1 at the end of the arguments, and the command goes on. */
int cli_args_end(int r, const struct cli_args *a, void (*help)(FILE *), const char *cmd);
/* --format for commands that write text or json: *json, or false with err. */
bool cli_text_or_json(const char *v, bool *json, char *err, size_t errlen);

#endif
