/* main.c - the rooftop command: dispatches to the dashboard or a subcommand. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_diff.h"
#include "cmd_dtypes.h"
#include "cmd_einsum.h"
#include "cmd_solve_flops.h"
#include "cmd_sweep.h"
#include "infer_cli.h"
#include "keymap.h"
#include "live.h"
#include "nearest.h"
#include "probe_cli.h"
#include "snapshot.h"

int main(int argc, char **argv)
{
    if (argc >= 2) {
        const char *cmd = argv[1];
        if (strcmp(cmd, "report") == 0)
            return cli_report(argc - 1, argv + 1);
        if (strcmp(cmd, "solve") == 0 && argc > 2 && strcmp(argv[2], "flops") == 0)
            return cmd_solve_flops(argc - 1, argv + 1);
        if (strcmp(cmd, "solve") == 0)
            return cli_solve(argc - 1, argv + 1);
        if (strcmp(cmd, "intensity") == 0)
            return cli_intensity(argc - 1, argv + 1);
        if (strcmp(cmd, "list") == 0)
            return cli_list(argc - 1, argv + 1);
        if (strcmp(cmd, "import") == 0)
            return cli_import(argc - 1, argv + 1);
        if (strcmp(cmd, "infer") == 0)
            return cli_infer(argc - 1, argv + 1);
        if (strcmp(cmd, "plan") == 0)
            return cli_plan(argc - 1, argv + 1);
        if (strcmp(cmd, "diff") == 0)
            return cmd_diff(argc - 1, argv + 1);
        if (strcmp(cmd, "sweep") == 0)
            return cmd_sweep(argc - 1, argv + 1);
        if (strcmp(cmd, "dtypes") == 0)
            return cmd_dtypes(argc - 1, argv + 1);
        if (strcmp(cmd, "einsum") == 0)
            return cmd_einsum(argc - 1, argv + 1);
        if (strcmp(cmd, "probe") == 0)
            return cmd_probe(argc - 1, argv + 1);
        if (strcmp(cmd, "snapshot") == 0)
            return cmd_snapshot(argc - 1, argv + 1);
        if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
            printf("rooftop %s\n", ROOFTOP_VERSION);
            return 0;
        }
        if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
            cli_usage(stdout, keymap_help);
            return 0;
        }
    }
    /* A word where a command goes is a misspelt one: the dashboard takes options only. */
    if (argc >= 2 && argv[1][0] != '-' && argv[1][0] != '\0') {
        static const char *const commands[] = {"report", "solve",  "intensity", "list",
                                               "import", "infer",  "plan",      "dtypes",
                                               "einsum", "probe",  "snapshot",  "help",
                                               "sweep",  "diff"};
        char near[160], word[101];
        snprintf(word, sizeof word, "%s", argv[1]);
        for (char *c = word; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        bool found = nearest_suggest(argv[1], commands, sizeof commands / sizeof commands[0], "",
                                     near, sizeof near);
        fprintf(stderr, "rooftop: '%s' is not a command (%s%s%s)\n", word,
                found ? "did you mean " : "", found ? near : "",
                found ? "? rooftop --help lists them" : "rooftop --help lists them");
        return 2;
    }
    /* No subcommand: the dashboard, with any scenario options given. */
    return live_main(argc, argv);
}
