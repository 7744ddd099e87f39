/* cmd_plan.c - `rooftop plan`: the fastest layouts that fit (src/plan.h). */
#include "cmd_plan.h"

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
#include "plan_report.h"
#include "points.h"
#include "predict.h"
#include "report.h"
#include "roofline.h"
#include "scenario_file.h"
#include "solve.h"
#include "spec.h"
#include "units.h"

static void plan_help(FILE *f)
{
    fputs("usage: rooftop plan --model M --gpu G --gpus N --batch B --seq S [--top K]\n"
          "                    [--format text|json|csv|md] [scenario options]\n"
          "Searches tensor, pipeline (and interleaved), context, expert (MoE) and data\n"
          "parallelism, ZeRO stage, sequence parallelism, micro-batch and recomputation for the\n"
          "layouts that fit, ranked\n"
          "by predicted step time (see report's Predicted step). Each plan's options, given to\n"
          "rooftop report with the same scenario options, reproduce its step time.\n"
          "Layout flags given (--tp --pp --vpp --cp --ep --sp --zero --micro-batch --recompute)\n"
          "are constraints: only layouts with those values are searched, and the output says\n"
          "\"constrained: tp 8, ...\".\n"
          "  --top K           how many plans (1-100, default 5)\n"
          "  --by time|cost|energy  rank by the predicted step (default), or by the run's cost\n"
          "                    (needs --price) or energy; these two also try half, a quarter,\n"
          "                    ... of --gpus: fewer GPUs take longer but may waste less\n\n",
          f);
    cli_scenario_help(f);
}
/* The pipeline split is the search's to make (it tries uneven first and last stages where
 * the layers do not split): a split given on the command line is refused in one line rather
 * than dropped unseen; one a scenario file brought gives way to the search's own. */
static bool split_left_out(const struct cli_args *args, struct scenario *s)
{
    static const char *const splits[] = {
        "decoder_first_pipeline_num_layers", "decoder_last_pipeline_num_layers",
        "account_for_embedding_in_pipeline_split", "account_for_loss_in_pipeline_split",
        "pipeline_model_parallel_layout"};
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++) {
        const struct input *in = inputs_find(splits[i]);
        int k = inputs_index(in);
        if (k >= 0 && k < CLI_INPUTS_MAX && args->given[k]) {
            char flag[64], err[160];
            inputs_flag(in, flag, sizeof flag);
            snprintf(err, sizeof err, "--%s: plan makes the pipeline split itself; leave it out",
                     flag);
            cli_usage_error("plan", err);
            return false;
        }
    }
    s->first_stage_layers = s->last_stage_layers = 0;
    s->account_embedding = s->account_loss = false;
    s->pp_layout[0] = '\0';
    return true;
}

int cmd_plan(int argc, char **argv)
{
    struct scenario s;
    inputs_defaults(&s);
    enum report_format fmt = REPORT_TEXT;
    char err[CLI_ERR_MAX];
    long top = 5;
    enum plan_by by = PLAN_BY_TIME;
    static const struct cli_flag own[] = {{"format", true}, {"top", true}, {"by", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 1, &s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !cli_parse_format(v, &fmt, err, sizeof err))
            return cli_usage_error("plan", err);
        if (f == &own[1]) {
            char *end = NULL;
            errno = 0;
            top = strtol(v, &end, 10);
            if (errno != 0 || end == v || *end != '\0' || top < 1 || top > PLAN_TOP_MAX) {
                snprintf(err, sizeof err, "--top: must be a whole number from 1 to %d, got '%s'",
                         PLAN_TOP_MAX, v);
                return cli_usage_error("plan", err);
            }
        }
        if (f == &own[2] && !plan_by_parse(v, &by)) {
            snprintf(err, sizeof err, "--by: '%s' is not one of time, cost, energy", v);
            cli_one_line(err);
            return cli_usage_error("plan", err);
        }
    }
    int end = cli_args_end(r, &args, plan_help, "plan");
    if (end >= 0)
        return end;
    if (by == PLAN_BY_COST && !(s.price > 0))
        return cli_usage_error("plan", "--by cost: needs --price (USD per GPU-hour; presets carry "
                                   "none)");
    if (by == PLAN_BY_ENERGY && !(s.gpu.board_power > 0))
        return cli_usage_error("plan", "--by energy: the GPU spec has no board power (\"power\": "
                                   "{\"board\": W} in its file)");
    if (!split_left_out(&args, &s))
        return CLI_EXIT_USAGE;
    /* Layout flags given are the search's constraints (--tp 8: only layouts with tp 8). */
    struct plan_fixed fixed;
    memset(&fixed, 0, sizeof fixed);
    for (int ax = 0; ax < PLAN_AXES; ax++) {
        int k = inputs_index(inputs_find(plan_axis_key((enum plan_axis)ax)));
        if (k >= 0 && k < CLI_INPUTS_MAX && args.given[k]) {
            fixed.set[ax] = true;
            fixed.value[ax] = plan_axis_get(&s, (enum plan_axis)ax);
        }
    }
    /* The rest of the layout is the search's: every other input must hold on its own. One GPU
     * checks all but the GPU count; a batch of one sequence per GPU checks the GPU count (the
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
    if (!cli_validate("plan", &one) || !cli_validate("plan", &per_gpu))
        return CLI_EXIT_USAGE;
    struct plan_result *res = malloc(sizeof *res);
    if (res == NULL) {
        fprintf(stderr, "rooftop plan: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    plan_search_by(&s, &fixed, (int)top, by, res);
    struct plan_report rep = {.base = &s, .r = res, .by = by};
    int rc = cli_print_figures(PLAN_REPORT, &rep, fmt, "plan");
    free(res);
    return rc;
}
