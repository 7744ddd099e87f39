/* cli.h - what the commands share: scenario options, the argument loop, help, errors, output. */
#ifndef ROOFTOP_CLI_H
#define ROOFTOP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scenario.h"
#include "report.h"

/* Exit statuses: 0 done, 1 the work failed (output, nothing found), 2 bad usage. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };
/* A one-line message's buffer. */
#define CLI_ERR_MAX 1024

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

/* Inputs a command line can name, for cli_args.given (the registry holds fewer; test_cli
 * checks). */
#define CLI_INPUTS_MAX 160

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
    bool given[CLI_INPUTS_MAX];  /* by inputs_index: the input was set by a flag (not by a
                                    --scenario file) */
};

enum { CLI_END, CLI_HELP, CLI_OWN, CLI_ERROR };

void cli_args_init(struct cli_args *a, int argc, char **argv, int first, struct scenario *s,
                   const struct cli_flag *own, size_t n_own);
/* Applies scenario options until the end (CLI_END), --help/-h (CLI_HELP), one of the own flags
 * (CLI_OWN: *flag points into own, *value its value or NULL) or an error (CLI_ERROR, a.err). */
int cli_next(struct cli_args *a, const struct cli_flag **flag, const char **value);

/*
 * Parses argv[first..argc-1], which must all be scenario options, onto s (start it with
 * inputs_defaults). On error writes one line to err ("--gpus: ..." or "unknown option
 * '--foo'") and returns false. Does not validate: call scenario_validate afterwards.
 */
bool cli_parse_scenario(struct scenario *s, int argc, char **argv, int first, char *err,
                        size_t errlen);

/* The commands' shared ends (each command is a cmd_*.c of its own):
 * - cli_usage_error: "rooftop CMD: MSG" on stderr (MSG made one line), exit status 2;
 * - cli_finish_output: flushes stdout; a failed write (full disk, closed pipe) is status 1;
 * - cli_print_json: prints o (built completely when built) on stdout and frees it;
 * - cli_subcommand_head: a command that needs a word after it (solve max-params, list gpus):
 *   without one its help on stderr and status 2, with --help on stdout; -1 when it goes on;
 * - cli_args_end: where an argument loop stopped: --help prints the help (0), an error its
 *   line (2); -1 at the end of the arguments;
 * - cli_validate: scenario_validate with "rooftop CMD: " before the one line;
 * - cli_parse_format: a --format value, or false with the line in err;
 * - cli_one_line: control characters and newlines in s made spaces. */
struct cJSON;
int cli_usage_error(const char *cmd, const char *msg);
int cli_finish_output(const char *cmd);
int cli_print_json(struct cJSON *o, bool built, const char *cmd);
/* Writes a table of figures over ctx (src/figure.h) on stdout in fmt and flushes it: the exit
 * status, 1 with "rooftop CMD: writing output ..." when writing fails. */
struct figure;
int cli_print_figures(const struct figure *table, const void *ctx, enum report_format fmt,
                      const char *cmd);
/* Where a subcommand's cli_next loop stopped: CLI_HELP prints help (exit 0), CLI_ERROR the
 * one line (exit 2); -1 at the end of the arguments, and the command goes on. */
int cli_args_end(int r, const struct cli_args *a, void (*help)(FILE *), const char *cmd);
int cli_subcommand_head(int argc, char **argv, void (*help)(FILE *), const char *cmd);
bool cli_validate(const char *cmd, const struct scenario *s);
bool cli_parse_format(const char *v, enum report_format *fmt, char *err, size_t errlen);
void cli_one_line(char *s);

#endif
