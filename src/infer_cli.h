/* infer_cli.h - the `rooftop infer` command: a serving scenario from the command line. */
#ifndef ROOFTOP_INFER_CLI_H
#define ROOFTOP_INFER_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "infer.h"
#include "report.h"

/* Default model of `rooftop infer` (the worked example: 13.5 GB of bf16 weights). */
#define INFER_DEFAULT_MODEL "llama2-7b"

/*
 * Parses argv[first..argc-1] onto s (start it with infer_default and a model): --model,
 * --gpu, --tp, --batch, --prompt, --generate, --dtype, --weights-dtype, --kv-dtype,
 * --compute-eff, --memory-eff, as "--flag value" or "--flag=value". --weights-dtype and
 * --kv-dtype follow --dtype unless given; --format and --probe-shapes too when out is not
 * NULL. Returns false with one line in err naming the flag ("--batch: 'x' is not a number").
 * Does not validate: call infer_validate.
 */
#define INFER_PROBE_BATCHES 8
struct infer_cli_out {
    enum report_format fmt;
    int n_batches;                            /* --probe-shapes B,B,...: 0 when not given */
    int64_t batches[INFER_PROBE_BATCHES];
};
bool infer_cli_parse(struct scenario *s, int argc, char **argv, int first,
                     struct infer_cli_out *out, char *err, size_t errlen);

/* `rooftop infer`'s scenario from argv[first..argc-1]: infer_default, the H100 preset, the
 * default model unless --model is given, then the flags as infer_cli_parse reads them (out
 * likewise). False with one line in err. Does not validate: call infer_validate. */
bool infer_cli_scenario(struct scenario *s, int argc, char **argv, int first,
                        struct infer_cli_out *out, char *err, size_t errlen);

/* Sets one input by its file key: a flag's name above with '_' for '-' ("kv_dtype"), the
 * value in the flags' grammar (the registry row's: a weights or KV dtype on auto follows the
 * dtype). False with one line in err naming the flag or the unknown key. Does not validate. */
bool infer_cli_set(struct scenario *s, const char *key, const char *value,
                   char *err, size_t errlen);

/* Whether `rooftop infer` reads the input named key ("kv_dtype", "tp"; not "zero"). */
bool infer_cli_reads(const char *key);

/* The help text of `rooftop infer`. */
void infer_cli_help(FILE *f);

/* `rooftop infer [options] [--format text|json|csv|md]`: argv[0] is "infer". Exit status 0,
 * 1 (writing failed) or 2 (bad usage, one line on stderr). */
int cli_infer(int argc, char **argv);

#endif
