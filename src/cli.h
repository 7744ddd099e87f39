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
/* rooftop plan: the fastest layouts that fit (src/plan.h). */
int cli_plan(int argc, char **argv);

/* The top-level usage text (commands and where to find more). */
void cli_usage(FILE *f);
/* The scenario options, one per line with their values, for other commands' --help. */
void cli_scenario_help(FILE *f);

/*
 * Applies the scenario option at argv[*i] onto s. Accepts "--flag value" and "--flag=value";
 * on success *i is advanced past the option's value (so it points at the last argument
 * consumed; the caller's loop then does ++*i). Returns 1 when consumed, 0 when argv[*i] is
 * not a scenario option (nothing changed, *i unchanged), -1 on error with one line in err
 * naming the flag and what is wrong ("--gpus: '12x' is not a number"), without a prefix.
 *
 * Scenario options: --model NAME|FILE, --params N, --gpu NAME|FILE, --gpus N, --tp T, --pp P,
 * --sp [on|off], --zero 0..3, --dtype D, --master-weights on|off, --optimizer O, --batch B,
 * --micro-batch b, --seq S, --tokens D, --mfu U, --recompute R, --flash on|off,
 * --dropout on|off, --flops detailed|6nd, --scenario FILE, and the model fields --layers,
 * --d-model, --heads, --kv-heads, --ffn, --vocab, --context, --mlp gelu|swiglu,
 * --norm layernorm|rmsnorm, --tied-embeddings on|off, --bias on|off, --qkv-bias on|off,
 * --positional learned|rope, --experts, --experts-active, --shared-experts, --moe-ffn,
 * --dense-layers.
 *
 * Options apply in order. --model takes the model file's "tokens" (if any) unless --tokens
 * appears anywhere in argv. A model field (--layers, ...) after --params turns the exact-N
 * custom model into a shaped one (its counts then follow the shape).
 */
int cli_scenario_option(struct scenario *s, int argc, char **argv, int *i, char *err,
                        size_t errlen);

/*
 * Parses argv[first..argc-1], which must all be scenario options, onto s (start it with
 * scenario_default). On error writes one line to err ("--gpus: ..." or "unknown option
 * '--foo'") and returns false. Does not validate: call scenario_validate afterwards.
 */
bool cli_parse_scenario(struct scenario *s, int argc, char **argv, int first, char *err,
                        size_t errlen);

#endif
