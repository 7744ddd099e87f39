/* cmd_solve_flops.c - the FLOPs that GPUs promise over a span of time, and what an MFU and a
 * model of N parameters make of them (6ND). */
#include "cmd_solve_flops.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "gpu.h"
#include "model.h"
#include "scenario.h"
#include "units.h"

void cmd_solve_flops_help(FILE *f)
{
    fputs("flops: GPUs x time -> FLOPs: --gpus x --days x 86400 s x the GPU's dense peak in\n"
          "  --dtype (the lecture: 8 H100s for 2 weeks, 9.575e21 at its 989.5e12 FLOP/s);\n"
          "  --peak F overrides the peak; at --mfu the FLOPs done, and the tokens they train\n"
          "  the model on at 6ND.\n",
          f);
}

static bool parse_positive(const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(d) || !(d > 0))
        return false;
    *out = d;
    return true;
}

int cmd_solve_flops(int argc, char **argv)
{
    struct scenario s;
    scenario_default(&s);
    static const struct cli_flag own[] = {{"days", true}, {"peak", true}, {"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, &s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    double days = 0, peak = 0;
    bool json = false;
    char err[512];
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        double *dst = f == &own[0] ? &days : f == &own[1] ? &peak : NULL;
        if (dst != NULL && !parse_positive(v, dst)) {
            snprintf(err, sizeof err, "--%s: '%.100s' is not a number above 0", f->name, v);
            return cli_usage_error("solve", err);
        }
        if (f == &own[2] && !cli_text_or_json(v, &json, err, sizeof err))
            return cli_usage_error("solve", err);
    }
    int end = cli_args_end(r, &args, cmd_solve_flops_help, "solve");
    if (end >= 0)
        return end;
    if (!(days > 0))
        return cli_usage_error("solve", "--days: flops needs the time (--days 14 for 2 weeks)");
    if (!(peak > 0))
        peak = gpu_peak(&s.gpu, s.dtype);
    if (!(peak > 0)) {
        snprintf(err, sizeof err, "--dtype: the %s has no %s peak (--peak F gives one)",
                 s.gpu.name, dtype_name(s.dtype));
        return cli_usage_error("solve", err);
    }
    const double seconds = days * 86400.0, g = (double)s.gpus;
    const double promised = g * seconds * peak, done = promised * s.mfu;
    struct param_counts pc;
    struct model_arch m;
    scenario_trained_model(&s, &m);
    model_params(&m, &pc);
    const double n = (double)pc.active > 0 ? (double)pc.active : (double)pc.total;
    const double tokens = n > 0 ? done / (6.0 * n) : 0;
    if (json) {
        cJSON *o = cJSON_CreateObject();
        bool ok = o != NULL && cJSON_AddNumberToObject(o, "gpus", g) &&
                  cJSON_AddStringToObject(o, "gpu", s.gpu.id) &&
                  cJSON_AddNumberToObject(o, "seconds", seconds) &&
                  cJSON_AddNumberToObject(o, "peak", peak) &&
                  cJSON_AddNumberToObject(o, "flops", promised) &&
                  cJSON_AddNumberToObject(o, "mfu", s.mfu) &&
                  cJSON_AddNumberToObject(o, "flops_done", done) &&
                  cJSON_AddNumberToObject(o, "params", n) &&
                  cJSON_AddNumberToObject(o, "tokens_6nd", tokens);
        return cli_print_json(o, ok, "solve");
    }
    char c[32], t[32];
    /* The peak to the digit that tells 989.4e12 (the whitepaper) from 989.5e12 (the lecture). */
    printf("flops: %.4g FLOPs from %lld x %s for %g days (%lld x %.0f s x %.5g FLOP/s %s)\n",
           promised, (long long)s.gpus, s.gpu.name, days, (long long)s.gpus, seconds, peak,
           dtype_name(s.dtype));
    units_count(n, c, sizeof c);
    units_count(tokens, t, sizeof t);
    printf("at MFU %g: %.4g FLOPs done, %s tokens for %s parameters at 6ND\n", s.mfu, done, t, c);
    return cli_finish_output("solve");
}
