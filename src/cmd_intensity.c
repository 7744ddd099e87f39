/* cmd_intensity.c - `rooftop intensity`: the lecture's operations on the roofline. */
#include "cmd_intensity.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "analysis.h"
#include "dtype.h"
#include "figure.h"
#include "figure_table.h"
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

static void intensity_help(FILE *f)
{
    fputs("usage: rooftop intensity relu|gelu|dot|matvec|matmul [--n N] [--dtype D] [--gpu G]\n"
          "                         [--format text|json|csv|md]\n"
          "FLOPs, bytes read and written, arithmetic intensity (FLOP/byte) of one of the\n"
          "lecture's operations, and whether it is memory- or compute-bound on the GPU (its\n"
          "ridge point = dense peak / bandwidth). n defaults to 1024^2 elements (relu, gelu,\n"
          "dot) or 1024 (matvec: n x n matrix; matmul: n x n by n x n); dtype to bf16; GPU to\n"
          "h100-sxm.\n"
          "  matmul --b B --d D --k K   the rectangular (B x D) . (D x K): 2 B D K FLOPs, bytes\n"
          "                             (B D + D K + B K) x the dtype's (any left out is --n)\n",
          f);
}
/* What the command was asked and what it found: the op at n (or B, D, K), in a dtype, on a
 * GPU's roofline. */
struct intensity {
    enum lecture_op op;
    double n;
    long long n_exact;           /* the n typed, when n_known */
    bool n_known;
    enum dtype dt;
    enum report_format fmt;
    struct gpu_spec gpu;
    double bdk[3];               /* --b --d --k: a rectangular matmul; 0 where not given */
    bool rect;
    struct op_cost c;
    double peak, ridge, attainable, seconds;
    const char *bound;
};

/* One flag of intensity's own onto it; the exit status of a refusal, or -1. */
static int intensity_flag(struct intensity *x, const struct cli_flag *own, const struct cli_flag *f,
                          const char *v)
{
    char err[CLI_ERR_MAX];
    if (f == &own[0] && !cli_parse_format(v, &x->fmt, err, sizeof err))
        return cli_usage_error("intensity", err);
    if (f == &own[1]) {
        long long nn;
        if (!units_parse_count(v, &nn)) {
            double d;
            snprintf(err, sizeof err,
                     units_parse(v, &d) ? "--n: %s is out of range (a whole number from 1)"
                                        : "--n: '%s' is not a number",
                     v);
            return cli_usage_error("intensity", err);
        }
        x->n = (double)nn;
        x->n_exact = nn;
        x->n_known = units_count_exact(v, nn);
    }
    if (f == &own[2] && !dtype_parse(v, &x->dt)) {
        snprintf(err, sizeof err,
                 "--dtype: '%s' is not one of fp64, fp32, tf32, bf16, fp16, fp8, fp8-e4m3, "
                 "fp8-e5m2, fp4",
                 v);
        return cli_usage_error("intensity", err);
    }
    if (f == &own[3]) {
        char sub[SPEC_ERR_MAX];
        if (!spec_find_gpu(v, &x->gpu, sub, sizeof sub)) {
            snprintf(err, sizeof err, "--gpu: %s", sub);
            return cli_usage_error("intensity", err);
        }
    }
    if (f >= &own[4]) {
        long long b;
        if (x->op != LOP_MATMUL) {
            snprintf(err, sizeof err, "--%s: only matmul has B, D and K", f->name);
            return cli_usage_error("intensity", err);
        }
        if (!units_parse_count(v, &b)) {
            snprintf(err, sizeof err, "--%s: '%s' is not a whole number of at least 1", f->name, v);
            return cli_usage_error("intensity", err);
        }
        x->bdk[f - &own[4]] = (double)b;
    }
    return -1;
}

/* The op's cost and its place on the GPU's roofline; the exit status of a refusal (a dtype
 * the GPU has no peak for), or -1. */
static int intensity_compute(struct intensity *x)
{
    x->rect = x->bdk[0] > 0 || x->bdk[1] > 0 || x->bdk[2] > 0;
    for (int k = 0; k < 3; k++)
        x->bdk[k] = x->bdk[k] > 0 ? x->bdk[k] : x->n;
    if (x->rect)
        matmul_rect_cost(x->bdk[0], x->bdk[1], x->bdk[2], x->dt, &x->c);
    else
        lecture_op_cost(x->op, x->n, x->dt, &x->c);
    const struct gpu_spec *g = &x->gpu;
    x->peak = gpu_peak(g, x->dt);
    x->ridge = gpu_ridge(g, x->dt);
    if (!(x->peak > 0) || !(g->bandwidth > 0) || !isfinite(x->c.intensity)) {
        char err[CLI_ERR_MAX], has[128];
        gpu_dtypes(g, has, sizeof has);
        if (g->bandwidth > 0)
            snprintf(err, sizeof err, "--dtype: the %s has no %s peak; it has %s", g->name,
                     dtype_name(x->dt), has);
        else
            snprintf(err, sizeof err, "--gpu: %s has no known bandwidth", g->id);
        return cli_usage_error("intensity", err);
    }
    x->attainable = roofline_attainable(x->peak, g->bandwidth, x->c.intensity);
    x->seconds = roofline_seconds(x->c.flops, x->c.bytes, x->peak, g->bandwidth);
    x->bound = x->c.intensity >= x->ridge ? "compute" : "memory";
    return -1;
}

/* ---- the figures: one table (src/figure.h) that the four formats walk ------------------ */

#define X const struct intensity *x = ctx
#define NUM(k, f) .key = k, .get = figure_get_double, .arg = (int)offsetof(struct intensity, f)

enum intensity_word { IW_OP, IW_DTYPE, IW_BOUND, IW_GPU };

static void g_word(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ITEM;
    switch ((enum intensity_word)arg) {
    case IW_OP:
        figure_str(v, lecture_op_name(x->op));
        return;
    case IW_DTYPE:
        figure_str(v, dtype_name(x->dt));
        return;
    case IW_BOUND:
        figure_str(v, x->bound);
        return;
    case IW_GPU:
        figure_str(v, x->gpu.id);
        return;
    }
}

static bool w_rect(const void *ctx, int item, int arg)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    return x->rect;
}

/* "matmul, n = 1024, bf16", or the rectangular matmul's shapes. */
static void t_title(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    const char *dn = dtype_name(x->dt);
    if (x->rect) {
        snprintf(buf, n, "matmul, (B x D) . (D x K) = (%.0f x %.0f) . (%.0f x %.0f), %s: 2 B D K FLOPs",
                 x->bdk[0], x->bdk[1], x->bdk[1], x->bdk[2], dn);
    } else if (x->n_known) {
        snprintf(buf, n, "%s, n = %lld, %s", lecture_op_name(x->op), x->n_exact, dn);
    } else {
        char nn[32];
        units_count(x->n, nn, sizeof nn);
        snprintf(buf, n, "%s, n = %s, %s", lecture_op_name(x->op), nn, dn);
    }
}

/* The exact FLOPs and bytes in integers (a double would round them past 2^53), or "" each. */
static void exact_counts(const struct intensity *x, char *fx, char *bx, size_t n)
{
    fx[0] = bx[0] = '\0';
    if (!x->rect) {
        if (x->n_known)
            lecture_op_exact(x->op, x->n_exact, x->dt, fx, n, bx, n);
        return;
    }
    /* Whole and below 2^53, the double is the exact count (its integer factors and partial
     * products are smaller still); otherwise no digits are claimed. */
    const double exact_max = 9007199254740992.0;
    if (x->c.flops < exact_max)
        snprintf(fx, n, "%.0f", x->c.flops);
    if (x->c.bytes < exact_max && x->c.bytes == floor(x->c.bytes))
        snprintf(bx, n, "%.0f", x->c.bytes);
}

static void a_flops(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    char fx[96], bx[96];
    exact_counts(x, fx, bx, sizeof fx);
    snprintf(buf, n, fx[0] ? "(%s)" : "%s", fx);
}

static void a_bytes(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    char fx[96], bx[96];
    exact_counts(x, fx, bx, sizeof fx);
    if (bx[0])
        snprintf(buf, n, "(%s read + written)", bx);
    else
        snprintf(buf, n, "read + written");
}

static void a_ridge(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    char pk[32], bw[32];
    units_flops_rate(x->peak, pk, sizeof pk);
    units_bandwidth(x->gpu.bandwidth, bw, sizeof bw);
    snprintf(buf, n, "on %s (%s / %s)", x->gpu.name, pk, bw);
}

static void a_bound(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    char at[32], pc[32];
    units_flops_rate(x->attainable, at, sizeof at);
    units_plain(100.0 * x->attainable / x->peak, pc, sizeof pc);
    snprintf(buf, n, "(attainable %s, %s%% of peak)", at, pc);
}

static const struct figure INTENSITY[] = {
    {.entry = FE_SECTION, .title = t_title, .width = 11},
    {VALUE, .key = "op", .get = g_word, .arg = IW_OP, DATA},
    {VALUE, NUM("n", n), .unit = FU_COUNT, DATA},
    {VALUE, .key = "dtype", .get = g_word, .arg = IW_DTYPE, DATA},
    {VALUE, NUM("flops", c.flops), .label = "flops", .unit = FU_FLOP, .aside = a_flops},
    {VALUE, NUM("bytes", c.bytes), .label = "bytes", .unit = FU_BYTES, .aside = a_bytes},
    {VALUE, NUM("intensity", c.intensity), .label = "intensity", .unit = FU_INTENSITY},
    {VALUE, NUM("ridge", ridge), .label = "ridge", .unit = FU_INTENSITY, .aside = a_ridge},
    {VALUE, .key = "bound", .label = "bound", .get = g_word, .arg = IW_BOUND, .aside = a_bound},
    {VALUE, .key = "gpu", .get = g_word, .arg = IW_GPU, DATA},
    {VALUE, NUM("peak", peak), .unit = FU_FLOP_RATE, DATA},
    {VALUE, NUM("bandwidth", gpu.bandwidth), .unit = FU_BANDWIDTH, DATA},
    {VALUE, NUM("attainable", attainable), .unit = FU_FLOP_RATE, DATA},
    {VALUE, NUM("seconds", seconds), .label = "time", .unit = FU_SECONDS},
    {VALUE, NUM("b", bdk[0]), .unit = FU_COUNT, .when = w_rect, DATA},
    {VALUE, NUM("d", bdk[1]), .unit = FU_COUNT, .when = w_rect, DATA},
    {VALUE, NUM("k", bdk[2]), .unit = FU_COUNT, .when = w_rect, DATA},
    END};

int cmd_intensity(int argc, char **argv)
{
    int head = cli_subcommand_head(argc, argv, intensity_help, "intensity");
    if (head >= 0)
        return head;
    struct intensity x;
    memset(&x, 0, sizeof x);
    if (!lecture_op_parse(argv[1], &x.op)) {
        char err[CLI_ERR_MAX];
        snprintf(err, sizeof err, "'%s' is not one of relu, gelu, dot, matvec, matmul", argv[1]);
        return cli_usage_error("intensity", err);
    }
    x.n = lecture_op_default_n(x.op);
    x.n_exact = (long long)x.n; /* the defaults are whole numbers */
    x.n_known = true;            /* n_exact is the n typed, not a rounding of it */
    x.dt = DTYPE_BF16;
    x.fmt = REPORT_TEXT;
    struct scenario def;
    inputs_defaults(&def);
    x.gpu = def.gpu;
    static const struct cli_flag own[] = {{"format", true}, {"n", true}, {"dtype", true},
                                          {"gpu", true},    {"b", true}, {"d", true},
                                          {"k", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, NULL, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        int rc = intensity_flag(&x, own, f, v);
        if (rc >= 0)
            return rc;
    }
    int end = cli_args_end(r, &args, intensity_help, "intensity");
    if (end >= 0)
        return end;
    int rc = intensity_compute(&x);
    if (rc >= 0)
        return rc;
    return cli_print_figures(INTENSITY, &x, x.fmt, "intensity");
}
