/* cmd_diff.c - `rooftop diff A.json B.json` or `rooftop diff A.json [options for B]`. */
#include "cmd_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"
#include "inputs.h"
#include "scenario_check.h"
#include "scenario_file.h"

static void diff_help(FILE *f)
{
    fputs("usage: rooftop diff A.json B.json [--format text|json|csv|md]\n"
          "       rooftop diff A.json [scenario options for B] [--format ...]\n"
          "Two scenarios side by side: the inputs that differ, and every figure of `rooftop\n"
          "report`'s JSON (memory, time, cost, ...) for A and for B with B - A. A and B are\n"
          "scenario files (as the dashboard's s saves them) or names on the search path;\n"
          "options after A make B: A with them applied. JSON: inputs[] {key, a, b} and\n"
          "figures[] {key (as in report's JSON), a, b, delta}.\n\n",
          f);
    cli_scenario_help(f);
}

/* Loads a scenario file onto the default scenario; false with the message printed. */
static bool load(const char *path, struct scenario *s)
{
    inputs_defaults(s);
    char err[512];
    if (!scenario_load(path, s, err, sizeof err)) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s", err);
        cli_usage_error("diff", msg);
        return false;
    }
    return true;
}

static bool valid(const char *which, const struct scenario *s)
{
    char err[512], msg[600];
    if (scenario_validate(s, err, (int)sizeof err))
        return true;
    snprintf(msg, sizeof msg, "%s: %s", which, err);
    cli_usage_error("diff", msg);
    return false;
}

int cmd_diff(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            diff_help(stdout);
            return cli_finish_output("diff");
        }
    if (argc < 2 || argv[1][0] == '-')
        return cli_usage_error("diff", "needs A.json, then B.json or options for B (rooftop "
                                       "diff --help)");
    struct scenario *ab = malloc(2 * sizeof *ab);
    struct evaluation *ev = malloc(2 * sizeof *ev);
    if (ab == NULL || ev == NULL) {
        free(ab);
        free(ev);
        return cli_usage_error("diff", "out of memory");
    }
    int first = 2, rc = 2;
    const char *name_b = argv[1];
    bool ok = load(argv[1], &ab[0]);
    if (ok && argc > 2 && argv[2][0] != '-') {
        ok = load(argv[2], &ab[1]);
        name_b = argv[2];
        first = 3;
    } else {
        ab[1] = ab[0];
    }
    enum report_format fmt = REPORT_TEXT;
    static const struct cli_flag own[] = {{"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, first, &ab[1], own, 1);
    const struct cli_flag *f;
    const char *v;
    int r = CLI_END;
    while (ok && (r = cli_next(&args, &f, &v)) == CLI_OWN)
        if (!report_format_parse(v, &fmt)) {
            cli_usage_error("diff", "--format: must be one of text, json, csv, md");
            ok = false;
        }
    if (ok && r == CLI_ERROR) {
        cli_usage_error("diff", args.err);
        ok = false;
    }
    /* Options make B another scenario than the file's: its title is derived, as the command
     * line drops the name of a scenario file its options edit. */
    if (ok && first == 2 && argc > 2)
        ab[1].name[0] = '\0';
    ok = ok && valid("A", &ab[0]) && valid("B", &ab[1]);
    struct diff d = {0};
    if (ok) {
        evaluation_run(&ab[0], NULL, &ev[0]);
        evaluation_run(&ab[1], NULL, &ev[1]);
        char ta[SCENARIO_NAME_MAX + 512], tb[SCENARIO_NAME_MAX + 512], t[SCENARIO_NAME_MAX + 160];
        scenario_title(&ab[0], t, sizeof t);
        snprintf(ta, sizeof ta, "%s (%s)", t, argv[1]);
        scenario_title(&ab[1], t, sizeof t);
        snprintf(tb, sizeof tb, "%s (%s%s)", t, name_b, first == 2 && argc > 2 ? " + options" : "");
        bool written = diff_run(&ev[0], &ev[1], &d) && diff_write(stdout, &d, ta, tb, fmt);
        rc = cli_finish_output("diff");
        if (!written && rc == 0) {
            fprintf(stderr, "rooftop diff: writing output failed\n");
            rc = 1;
        }
    }
    diff_free(&d);
    free(ab);
    free(ev);
    return rc;
}
