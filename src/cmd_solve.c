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
#include "spec.h"
#include "units.h"

static void solve_help(FILE *f)
{
    fputs("usage: rooftop solve max-params [options] [--activations on|off] [--format text|json]\n"
          "       rooftop solve min-gpus [options] [--activations on|off] [--max-gpus N]\n"
          "                              [--format text|json]\n"
          "max-params: the largest model whose memory fits the GPUs. --activations off (the\n"
          "  default) counts model state only (params, grads, optimizer, master weights): the\n"
          "  lecture's upper bound. on also counts activations at --batch/--micro-batch/--seq.\n"
          "min-gpus: the fewest GPUs (a multiple of --tp x --pp) on which the model fits;\n"
          "  --activations on by default; searches up to --max-gpus (default 1M).\n",
          f);
    fputs("       rooftop solve flops --days D [--peak F] [options]\n"
          "flops: GPUs x time -> FLOPs (--gpus x --days x the GPU's dense peak; --peak F\n"
          "  overrides it), what --mfu does of them and the tokens at 6ND.\n\n",
          f);
    cli_scenario_help(f);
}
/* A one-line summary of the setting a solve answer depends on. */
static void solve_setting(const struct scenario *s, char *buf, size_t n, bool with_gpus)
{
    char mem[32];
    units_bytes(s->gpu.memory_bytes, mem, sizeof mem);
    char gpus[48] = "";
    if (with_gpus)
        snprintf(gpus, sizeof gpus, "%lld x ", (long long)s->gpus);
    /* cp and ep (issue 9) said where they split something, as tp and pp always are. */
    char more[64] = "";
    int used = 0;
    if (s->cp > 1)
        used = snprintf(more, sizeof more, ", cp %lld", (long long)s->cp);
    if (s->ep > 1 && used >= 0 && (size_t)used < sizeof more)
        snprintf(more + used, sizeof more - (size_t)used, ", ep %lld", (long long)s->ep);
    snprintf(buf, n, "%s%s (%s each), %s, %s, master weights %s, ZeRO %d, tp %lld, pp %lld%s",
             gpus, s->gpu.name, mem, dtype_name(s->dtype), optimizer_name(s->optimizer),
             s->master_weights ? "on" : "off", s->zero, (long long)s->tp, (long long)s->pp, more);
}

/* max-params: the largest model that fits, as text or JSON; its exit status. */
static int solve_write_max_params(const struct scenario *sc, bool activations, bool json)
{
    struct scenario s = *sc;
    char setting[512];
    int rc = CLI_EXIT_OK;
    double n = solve_max_params(&s, activations);
    solve_setting(&s, setting, sizeof setting, true);
    if (json) {
        cJSON *o = cJSON_CreateObject();
        bool ok = o != NULL && cJSON_AddNumberToObject(o, "max_params", isfinite(n) ? n : 0) &&
                  cJSON_AddBoolToObject(o, "activations", activations) &&
                  cJSON_AddNumberToObject(o, "gpus", (double)s.gpus) &&
                  cJSON_AddStringToObject(o, "gpu", s.gpu.id) &&
                  cJSON_AddNumberToObject(o, "memory_bytes", s.gpu.memory_bytes) &&
                  cJSON_AddStringToObject(o, "dtype", dtype_name(s.dtype)) &&
                  cJSON_AddStringToObject(o, "optimizer", optimizer_name(s.optimizer)) &&
                  cJSON_AddBoolToObject(o, "master_weights", s.master_weights) &&
                  cJSON_AddNumberToObject(o, "zero", s.zero);
        if (cli_print_json(o, ok, "solve") != CLI_EXIT_OK)
            return CLI_EXIT_FAIL;
    } else if (n <= 0 || !isfinite(n)) {
        printf("max params: nothing fits on %s\n", setting);
    } else {
        char c[32], sci[32];
        units_count(n, c, sizeof c);
        units_sci(n, sci, sizeof sci);
        printf("max params: %s (%s) on %s\n", c, sci, setting);
        if (activations)
            printf("note: activations counted (batch %lld, micro-batch %lld, seq %lld) for a "
                   "custom model of each size\n",
                   (long long)s.batch, (long long)scenario_micro_batch(&s), (long long)s.seq);
        else
            printf("note: model state only (params, grads, optimizer state, master weights), "
                   "activations ignored: the lecture's upper bound (--activations on counts "
                   "them)\n");
    }
    if (n <= 0 || !isfinite(n))
        rc = CLI_EXIT_FAIL;
    return rc;
}

/* min-gpus as JSON: the count, and when none fits why and what would. */
static int solve_json_min_gpus(const struct scenario *sc, bool activations, int64_t g,
                               long long max_gpus, const struct solve_miss *m)
{
    const struct scenario s = *sc;
    const struct solve_miss miss = *m;
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && cJSON_AddNumberToObject(o, "min_gpus", (double)g) &&
              cJSON_AddBoolToObject(o, "activations", activations) &&
              cJSON_AddStringToObject(o, "model", s.model.id) &&
              cJSON_AddStringToObject(o, "gpu", s.gpu.id) &&
              cJSON_AddNumberToObject(o, "tp", (double)s.tp) &&
              cJSON_AddNumberToObject(o, "pp", (double)s.pp) &&
              cJSON_AddNumberToObject(o, "max_gpus", (double)max_gpus);
    if (ok && g <= 0) {
        cJSON *w = cJSON_AddObjectToObject(o, "why");
        cJSON *tr = cJSON_AddArrayToObject(o, "try");
        ok = w != NULL && tr != NULL &&
             cJSON_AddBoolToObject(w, "batch_limits_dp", miss.batch_limits) &&
             cJSON_AddNumberToObject(w, "batch", (double)s.batch) &&
             cJSON_AddNumberToObject(w, "largest_gpus", (double)miss.gpus) &&
             cJSON_AddNumberToObject(w, "largest_dp", (double)miss.dp) &&
             cJSON_AddNumberToObject(w, "memory_per_gpu", miss.needed) &&
             cJSON_AddNumberToObject(w, "activations_per_gpu", miss.activations) &&
             cJSON_AddNumberToObject(w, "capacity", miss.capacity);
        for (int k = 0; ok && k < miss.n_hints; k++) {
            cJSON *h = cJSON_CreateObject();
            ok = h != NULL && cJSON_AddItemToArray(tr, h) &&
                 cJSON_AddStringToObject(h, "option", miss.hint[k].option) &&
                 cJSON_AddNumberToObject(h, "min_gpus", (double)miss.hint[k].gpus);
            if (h != NULL && !ok)
                break;
        }
    }
    if (cli_print_json(o, ok, "solve") != CLI_EXIT_OK)
        return CLI_EXIT_FAIL;
    return CLI_EXIT_OK;
}

/* min-gpus as text: the count, or why none fits and what would, and what was counted. */
static void solve_text_min_gpus(const struct scenario *sc, bool activations, int64_t g,
                                long long max_gpus, const struct solve_miss *m,
                                const char *setting)
{
    const struct scenario s = *sc;
    const struct solve_miss miss = *m;
    struct param_counts pc;
    struct model_arch trained;
    scenario_trained_model(&s, &trained);
    model_params(&trained, &pc);
    char c[32];
    units_count((double)pc.total, c, sizeof c);
    if (g > 0)
        printf("min gpus: %lld for %s (%s parameters) on %s\n", (long long)g,
               s.model.name, c, setting);
    else {
        printf("min gpus: none up to %lld fits %s (%s parameters) on %s\n", max_gpus,
               s.model.name, c, setting);
        char need[32], cap[32], act[32];
        units_bytes(miss.needed, need, sizeof need);
        units_bytes(miss.capacity, cap, sizeof cap);
        units_bytes(miss.activations, act, sizeof act);
        if (miss.batch_limits)
            printf("why: data parallelism cannot exceed the batch of %lld sequences: at "
                   "%lld GPUs (dp %lld) each still needs %s of its %s",
                   (long long)s.batch, (long long)miss.gpus, (long long)miss.dp, need, cap);
        else
            printf("why: at the largest count searched, %lld GPUs (dp %lld), each still "
                   "needs %s of its %s",
                   (long long)miss.gpus, (long long)miss.dp, need, cap);
        if (miss.activations > 0)
            printf(", %s of it activations, which data parallelism does not shrink", act);
        printf("\n");
        if (miss.n_hints == 0) {
            printf("try: %s, or a GPU with more memory (--gpu)\n",
                   miss.batch_limits ? "a larger --batch (more data parallelism)"
                                     : "a larger --max-gpus");
        } else {
            printf("try:");
            for (int k = 0; k < miss.n_hints; k++)
                printf("%s %s (fits on %lld GPUs)", k > 0 ? "," : "",
                       miss.hint[k].option, (long long)miss.hint[k].gpus);
            printf("\n");
        }
    }
    if (activations)
        printf("note: activations counted (batch %lld, micro-batch %lld, seq %lld); "
               "--activations off counts model state only\n",
               (long long)s.batch, (long long)scenario_micro_batch(&s), (long long)s.seq);
    else
        printf("note: model state only, activations ignored: a lower bound on the GPUs "
               "needed\n");
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
    scenario_default(&s);
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
    if (fmt == REPORT_CSV || fmt == REPORT_MD)
        return cli_usage_error("solve", "--format: solve prints text or json");
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

    int rc;
    if (max_params) {
        rc = solve_write_max_params(&s, activations, fmt == REPORT_JSON);
    } else {
        char setting[512];
        int64_t g = solve_min_gpus(&s, activations, (int64_t)max_gpus);
        solve_setting(&s, setting, sizeof setting, false);
        /* Nothing fits: why (the batch caps data parallelism; the memory left per GPU) and
         * what would fit. */
        struct solve_miss miss;
        memset(&miss, 0, sizeof miss);
        if (g <= 0)
            solve_min_gpus_miss(&s, activations, (int64_t)max_gpus, &miss);
        if (fmt == REPORT_JSON) {
            if (solve_json_min_gpus(&s, activations, g, max_gpus, &miss) != CLI_EXIT_OK)
                return CLI_EXIT_FAIL;
        } else {
            solve_text_min_gpus(&s, activations, g, max_gpus, &miss, setting);
        }
        rc = g <= 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    }
    int out = cli_finish_output("solve");
    return out != CLI_EXIT_OK ? out : rc;
}
