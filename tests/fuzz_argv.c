/* fuzz_argv.c - libFuzzer target for the command-line parser (cli_next over the input registry)
 * and for each input's parse and format: the bytes are split on NUL into an argument vector.
 * Every vector either parses or is refused with one line; a parsed scenario that validates
 * analyses to finite numbers; each input's text either parses, and then formats into text that
 * parses back to the same value, or is refused. Nothing may crash or leak. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli.h"
#include "inputs.h"
#include "scenario_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* No file names from the fuzzer: --scenario and preset paths would touch the disk. */
    static char buf[4096];
    if (size >= sizeof buf)
        size = sizeof buf - 1;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"report"};
    int argc = 1;
    for (size_t at = 0; at <= size && argc < MAX_ARGS + 1;) {
        argv[argc++] = buf + at;
        at += strlen(buf + at) + 1;
    }
    argv[argc] = NULL;
    for (int i = 1; i < argc; i++)
        if (strstr(argv[i], "scenario") != NULL || strchr(argv[i], '/') != NULL)
            return 0;

    /* The default scenario reads its GPU from the search path: once, not per run. */
    static struct scenario base;
    static bool have_base;
    if (!have_base) {
        inputs_defaults(&base);
        have_base = true;
    }
    struct scenario s = base;
    static const struct cli_flag own[] = {{"format", true}, {"quick", false}};
    struct cli_args a;
    cli_args_init(&a, argc, argv, 1, &s, own, 2);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&a, &f, &v)) == CLI_OWN || r == CLI_HELP)
        if (r == CLI_OWN && f->value && v == NULL)
            abort(); /* a flag that takes a value came back without one */
    if (r == CLI_ERROR && (a.err[0] == '\0' || strchr(a.err, '\n') != NULL))
        abort(); /* refused without one clear line */
    char err[512];
    if (r == CLI_END && scenario_validate(&s, err, (int)sizeof err)) {
        static struct analysis an;
        analysis_run(&s, &an);
        if (!isfinite(an.memory.total) || !isfinite(an.flops.total) || !isfinite(an.time.seconds))
            abort();
    }

    /* Each argument as every input's text: parse, format, parse back. */
    for (int i = 1; i < argc; i++) {
        for (int k = 0; k < inputs_count(); k++) {
            const struct input *in = inputs_at(k);
            if (in->kind == INPUT_NAME)
                continue; /* preset look-ups read files */
            struct scenario t = base;
            if (!inputs_parse(in, &t, argv[i], err, sizeof err)) {
                if (err[0] == '\0' || strchr(err, '\n') != NULL)
                    abort();
                continue;
            }
            char text[128];
            inputs_format(in, &t, text, sizeof text);
            struct scenario u = base;
            if (!inputs_parse(in, &u, text, err, sizeof err) ||
                inputs_get(in, &u) != inputs_get(in, &t))
                abort();
        }
    }
    return 0;
}
