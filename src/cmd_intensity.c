/* cmd_intensity.c - `rooftop intensity`: the lecture's operations on the roofline. */
#include "cmd_intensity.h"

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

/* intensity's first lines: the op and n, FLOPs and bytes, with the exact counts in integers
 * beside them (a double would round them past 2^53), or none. n_exact is 0 when the n typed
 * is not known exactly (then n_text shows it). */
static void print_counts(enum lecture_op op, long long n_exact, const char *n_text,
                         enum dtype dt, const char *flops, const char *bytes)
{
    char fx[96] = "", bx[96] = "";
    if (n_exact > 0) {
        lecture_op_exact(op, n_exact, dt, fx, sizeof fx, bx, sizeof bx);
        printf("%s, n = %lld, %s\n", lecture_op_name(op), n_exact, dtype_name(dt));
    } else {
        printf("%s, n = %s, %s\n", lecture_op_name(op), n_text, dtype_name(dt));
    }
    if (fx[0])
        printf("  flops       %s (%s)\n", flops, fx);
    else
        printf("  flops       %s\n", flops);
    if (bx[0])
        printf("  bytes       %s (%s read + written)\n", bytes, bx);
    else
        printf("  bytes       %s read + written\n", bytes);
}

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

static int intensity_json(const struct intensity *x)
{
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && cJSON_AddStringToObject(o, "op", lecture_op_name(x->op)) &&
              cJSON_AddNumberToObject(o, "n", x->n) &&
              cJSON_AddStringToObject(o, "dtype", dtype_name(x->dt)) &&
              cJSON_AddNumberToObject(o, "flops", x->c.flops) &&
              cJSON_AddNumberToObject(o, "bytes", x->c.bytes) &&
              cJSON_AddNumberToObject(o, "intensity", x->c.intensity) &&
              cJSON_AddStringToObject(o, "bound", x->bound) &&
              cJSON_AddStringToObject(o, "gpu", x->gpu.id) &&
              cJSON_AddNumberToObject(o, "peak", x->peak) &&
              cJSON_AddNumberToObject(o, "bandwidth", x->gpu.bandwidth) &&
              cJSON_AddNumberToObject(o, "ridge", x->ridge) &&
              cJSON_AddNumberToObject(o, "attainable", x->attainable) &&
              cJSON_AddNumberToObject(o, "seconds", x->seconds);
    if (ok && x->rect)
        ok = cJSON_AddNumberToObject(o, "b", x->bdk[0]) && cJSON_AddNumberToObject(o, "d", x->bdk[1]) &&
             cJSON_AddNumberToObject(o, "k", x->bdk[2]);
    return cli_print_json(o, ok, "intensity");
}

/* Text, CSV or Markdown. */
static int intensity_text(const struct intensity *x)
{
    const struct op_cost *c = &x->c;
    const char *dn = dtype_name(x->dt), *on = lecture_op_name(x->op);
    if (x->fmt == REPORT_CSV) {
        printf("op,n,dtype,flops,bytes,intensity,bound,gpu,ridge,attainable,seconds\n");
        printf("%s,%.17g,%s,%.17g,%.17g,%.17g,%s,%s,%.17g,%.17g,%.17g\n", on, x->n, dn, c->flops,
               c->bytes, c->intensity, x->bound, x->gpu.id, x->ridge, x->attainable, x->seconds);
        return cli_finish_output("intensity");
    }
    char fl[32], by[32], pk[32], bw[32], at[32], tm[32], nn[32], in[32], rg[32], pc[32];
    units_sci(c->flops, fl, sizeof fl);
    units_bytes(c->bytes, by, sizeof by);
    units_flops_rate(x->peak, pk, sizeof pk);
    units_bandwidth(x->gpu.bandwidth, bw, sizeof bw);
    units_flops_rate(x->attainable, at, sizeof at);
    units_duration(x->seconds, tm, sizeof tm);
    units_count(x->n, nn, sizeof nn);
    units_plain(c->intensity, in, sizeof in);
    units_plain(x->ridge, rg, sizeof rg);
    units_plain(100.0 * x->attainable / x->peak, pc, sizeof pc);
    if (x->fmt == REPORT_MD) {
        printf("| op | n | dtype | FLOPs | bytes | intensity (FLOP/byte) | bound | ridge (%s) |\n"
               "|---|---:|---|---:|---:|---:|---|---:|\n"
               "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
               x->gpu.name, on, nn, dn, fl, by, in, x->bound, rg);
        return cli_finish_output("intensity");
    }
    if (x->rect) {
        printf("matmul, (B x D) . (D x K) = (%.0f x %.0f) . (%.0f x %.0f), %s: 2 B D K FLOPs\n",
               x->bdk[0], x->bdk[1], x->bdk[1], x->bdk[2], dn);
        /* Whole and below 2^53, the double is the exact count (its integer factors and
         * partial products are smaller still); otherwise no digits are claimed. */
        const double exact_max = 9007199254740992.0;
        if (c->flops < exact_max)
            printf("  flops       %s (%.0f)\n", fl, c->flops);
        else
            printf("  flops       %s\n", fl);
        if (c->bytes < exact_max && c->bytes == floor(c->bytes))
            printf("  bytes       %s (%.0f read + written)\n", by, c->bytes);
        else
            printf("  bytes       %s read + written\n", by);
    } else {
        print_counts(x->op, x->n_known ? x->n_exact : 0, nn, x->dt, fl, by);
    }
    printf("  intensity   %s FLOP/byte\n", in);
    printf("  ridge       %s FLOP/byte on %s (%s / %s)\n", rg, x->gpu.name, pk, bw);
    printf("  bound       %s (attainable %s, %s%% of peak)\n", x->bound, at, pc);
    printf("  time        %s\n", tm);
    return cli_finish_output("intensity");
}

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
    scenario_default(&def);
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
    return x.fmt == REPORT_JSON ? intensity_json(&x) : intensity_text(&x);
}
