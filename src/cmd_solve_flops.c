/* cmd_solve_flops.c - the FLOPs that GPUs promise over a span of time, and what an MFU and a
 * model of N parameters make of them (6ND). */
#include "cmd_solve_flops.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "dtype.h"
#include "figure.h"
#include "figure_table.h"
#include "gpu.h"
#include "inputs.h"
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

/* What GPUs promise over a span of time, and what an MFU and the model make of it. */
struct flops_answer {
    struct scenario s;
    double days, seconds, gpus, peak, promised, done, params, tokens;
};

/* ---- the figures: one table (src/figure.h) that the four formats walk ------------------ */

#define F const struct flops_answer *x = ctx
#define NUM(k, f) .key = k, .get = figure_get_double, .arg = (int)offsetof(struct flops_answer, f)

static void g_word(const void *ctx, int item, int arg, struct figure_value *v)
{
    F;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_str(v, x->s.gpu.id);
}

static void g_mfu(const void *ctx, int item, int arg, struct figure_value *v)
{
    F;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_num(v, x->s.mfu);
}

/* FLOPs to the digit that tells 989.4e12 (the whitepaper) from 989.5e12 (the lecture). */
static void g_flops4(const void *ctx, int item, int arg, struct figure_value *v)
{
    UNUSED_ITEM;
    double f = figure_double_at(ctx, arg);
    figure_num(v, f);
    snprintf(v->buf, sizeof v->buf, "%.4g FLOPs", f);
    v->text = v->buf;
}

static void a_promised(const void *ctx, int item, int arg, char *buf, size_t n)
{
    F;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "from %lld x %s for %g days (%lld x %.0f s x %.5g FLOP/s %s)",
             (long long)x->s.gpus, x->s.gpu.name, x->days, (long long)x->s.gpus, x->seconds,
             x->peak, dtype_name(x->s.dtype));
}

static void t_done(const void *ctx, int item, int arg, char *buf, size_t n)
{
    F;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "at MFU %g", x->s.mfu);
}

static void a_done(const void *ctx, int item, int arg, char *buf, size_t n)
{
    F;
    UNUSED_ITEM;
    UNUSED_ARG;
    char c[32], t[32];
    units_count(x->params, c, sizeof c);
    units_count(x->tokens, t, sizeof t);
    snprintf(buf, n, "done, %s tokens for %s parameters at 6ND", t, c);
}

static const struct figure SOLVE_FLOPS[] = {
    {VALUE, NUM("gpus", gpus), DATA},
    {VALUE, .key = "gpu", .get = g_word, DATA},
    {VALUE, NUM("seconds", seconds), .unit = FU_SECONDS, DATA},
    {VALUE, NUM("peak", peak), .unit = FU_FLOP_RATE, DATA},
    {VALUE, .key = "flops", .label = "flops", .unit = FU_FLOP, .get = g_flops4,
     .arg = (int)offsetof(struct flops_answer, promised), .aside = a_promised},
    {VALUE, .key = "mfu", .get = g_mfu, .unit = FU_FRACTION, DATA},
    {VALUE, .key = "flops_done", .title = t_done, .unit = FU_FLOP, .get = g_flops4,
     .arg = (int)offsetof(struct flops_answer, done), .aside = a_done},
    {VALUE, NUM("params", params), .unit = FU_PARAMS, DATA},
    {VALUE, NUM("tokens_6nd", tokens), .unit = FU_TOKENS, DATA},
    END};

int cmd_solve_flops(int argc, char **argv)
{
    struct scenario s;
    inputs_defaults(&s);
    static const struct cli_flag own[] = {{"days", true}, {"peak", true}, {"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, &s, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    double days = 0, peak = 0;
    enum report_format fmt = REPORT_TEXT;
    char err[512];
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        double *dst = f == &own[0] ? &days : f == &own[1] ? &peak : NULL;
        if (dst != NULL && !parse_positive(v, dst)) {
            snprintf(err, sizeof err, "--%s: '%.100s' is not a number above 0", f->name, v);
            return cli_usage_error("solve", err);
        }
        if (f == &own[2] && !cli_parse_format(v, &fmt, err, sizeof err))
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
    struct flops_answer x = {.s = s, .days = days, .seconds = days * 86400.0,
                             .gpus = (double)s.gpus, .peak = peak};
    x.promised = x.gpus * x.seconds * peak;
    x.done = x.promised * s.mfu;
    struct param_counts pc;
    struct model_arch m;
    scenario_trained_model(&s, &m);
    model_params(&m, &pc);
    x.params = (double)pc.active > 0 ? (double)pc.active : (double)pc.total;
    x.tokens = x.params > 0 ? x.done / (6.0 * x.params) : 0;
    return cli_print_figures(SOLVE_FLOPS, &x, fmt, "solve");
}
