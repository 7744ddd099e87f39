/* cmd_solve.c - `rooftop solve max-params|min-gpus|flops`: the lecture's questions turned around. */
#include "cmd_solve.h"
#include "cmd_solve_flops.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
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
#include "solve_report.h"
#include "spec.h"
#include "units.h"

static void solve_help(FILE *f)
{
    fputs("usage: rooftop solve max-params [options] [--activations on|off]\n"
          "                                [--format text|json|csv|md]\n"
          "       rooftop solve min-gpus [options] [--activations on|off] [--max-gpus N]\n"
          "                              [--format text|json|csv|md]\n"
          "max-params: the largest model whose memory fits the GPUs. --activations off (the\n"
          "  default) counts model state only (params, grads, optimizer, master weights): the\n"
          "  lecture's upper bound. on also counts activations at --batch/--micro-batch/--seq.\n"
          "min-gpus: the fewest GPUs (a multiple of --tp x --pp) on which the model fits;\n"
          "  --activations on by default; searches up to --max-gpus (default 1M).\n",
          f);
    fputs("       rooftop solve flops --days D [--peak F] [options] [--format text|json|csv|md]\n"
          "flops: GPUs x time -> FLOPs (--gpus x --days x the GPU's dense peak; --peak F\n"
          "  overrides it), what --mfu does of them and the tokens at 6ND.\n\n",
          f);
    cli_scenario_help(f);
}
/* What max-params or min-gpus finds on s, into a. */
static void solve_find(const struct scenario *s, bool max_params, bool activations,
                       long long max_gpus, struct solve_answer *a)
{
    memset(a, 0, sizeof *a);
    a->s = *s;
    a->activations = activations;
    a->max_gpus = max_gpus;
    if (max_params) {
        a->max_params = solve_max_params(&a->s, activations);
        return;
    }
    a->min_gpus = solve_min_gpus(&a->s, activations, (int64_t)max_gpus);
    /* Nothing fits: why (the batch caps data parallelism; the memory left per GPU) and what
     * would fit. */
    if (a->min_gpus <= 0)
        solve_min_gpus_miss(&a->s, activations, (int64_t)max_gpus, &a->miss);
    struct param_counts pc;
    struct model_arch trained;
    scenario_trained_model(&a->s, &trained);
    model_params(&trained, &pc);
    a->model_params = (double)pc.total;
}

int cmd_solve(int argc, char **argv)
{
    int head = cli_subcommand_head(argc, argv, solve_help, "solve");
    if (head >= 0)
        return head;
    if (strcmp(argv[1], "flops") == 0)
        return cmd_solve_flops(argc, argv);
    bool max_params;
    if (strcmp(argv[1], "max-params") == 0)
        max_params = true;
    else if (strcmp(argv[1], "min-gpus") == 0)
        max_params = false;
    else {
        char err[CLI_ERR_MAX];
        snprintf(err, sizeof err, "'%s' is not max-params, min-gpus or flops", argv[1]);
        return cli_usage_error("solve", err);
    }
    struct scenario s;
    inputs_defaults(&s);
    enum report_format fmt = REPORT_TEXT;
    bool activations = !max_params;
    long long max_gpus = 1LL << 20;
    char err[CLI_ERR_MAX];
    static const struct cli_flag own[] = {
        {"format", true}, {"activations", true}, {"max-gpus", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, &s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !cli_parse_format(v, &fmt, err, sizeof err))
            return cli_usage_error("solve", err);
        if (f == &own[1] && !inputs_parse_onoff(v, &activations)) {
            snprintf(err, sizeof err, "--activations: '%s' is not on or off", v);
            return cli_usage_error("solve", err);
        }
        if (f == &own[2] && !units_parse_count(v, &max_gpus)) {
            snprintf(err, sizeof err, "--max-gpus: '%s' is not a whole number of at least 1", v);
            return cli_usage_error("solve", err);
        }
    }
    int end = cli_args_end(r, &args, solve_help, "solve");
    if (end >= 0)
        return end;
    /* min-gpus finds the GPU count: one given is a mistake, not an input. */
    bool gpus_given = false;
    for (int k = 2; k < argc; k++)
        gpus_given = gpus_given || strcmp(argv[k], "--gpus") == 0 ||
                     strncmp(argv[k], "--gpus=", 7) == 0;
    if (!max_params) {
        if (gpus_given)
            return cli_usage_error("solve", "--gpus: min-gpus finds the GPU count; leave --gpus out");
        /* The count is what we solve for; validate with the smallest count the parallel
         * layout allows, so --tp 8 is not refused for not dividing the default 1024. */
        s.gpus = s.tp * s.pp * s.cp * s.ep; /* dp = ep: a count ep divides (dp x cp) */
        if (s.batch < 1)
            s.batch = 1;
    }
    if (!cli_validate("solve", &s))
        return CLI_EXIT_USAGE;

    struct solve_answer *a = malloc(sizeof *a);
    if (a == NULL) {
        fprintf(stderr, "rooftop solve: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    solve_find(&s, max_params, activations, max_gpus, a);
    bool found = max_params ? a->max_params > 0 && isfinite(a->max_params) : a->min_gpus > 0;
    int out = cli_print_figures(max_params ? SOLVE_MAX_PARAMS : SOLVE_MIN_GPUS, a, fmt, "solve");
    free(a);
    return out != CLI_EXIT_OK ? out : found ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}
