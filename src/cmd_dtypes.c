/* cmd_dtypes.c - `rooftop dtypes`: bits, range and precision of fp32 .. nvfp4, and a value
 * as each stores it. */
#include "cmd_dtypes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "figure.h"
#include "figure_table.h"
#include "numfmt_table.h"

static void dtypes_help(FILE *f)
{
    fputs("usage: rooftop dtypes [--value X] [--block-max B] [--format text|json|csv|md]\n"
          "The floating-point formats of the lecture, one row each: bits (sign/exponent/\n"
          "mantissa), the largest value, the smallest normal and subnormal, and epsilon (the\n"
          "gap above 1). Figures follow from the bits (bias 2^(e-1) - 1).\n"
          "  --value X      X as each format stores it (round to nearest even): fp16 turns\n"
          "                 1e-8 into 0, bf16 keeps 1.0012e-08\n"
          "  --block-max B  nvfp4: X sits in a block of 16 values whose largest magnitude\n"
          "                 is B (default 6: scale 1, the bare E2M1 values\n"
          "                 +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}); the block's scale is B / 6,\n"
          "                 stored in E4M3\n",
          f);
}

/* A finite real number, signs and exponents allowed (1e-8, -3.5). */
static bool parse_real(const char *v, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE || !isfinite(d))
        return false;
    *out = d;
    return true;
}

/* What the command was asked: the formats' table, and with --value a value as each stores it
 * in an nvfp4 block of largest magnitude block_max. */
struct dtypes_run {
    bool have_value;
    double x, block_max;
    enum report_format fmt;
};

/* ---- the figures: one table (src/figure.h) that the four formats walk ------------------ */

#define X const struct dtypes_run *x = ctx

static int n_formats(const void *ctx)
{
    (void)ctx;
    return NF_COUNT;
}

/* Format item's figures into *f; false (and a null value) when there is no such format. */
static bool format_of(int item, struct numfmt *f, struct figure_value *v)
{
    if (item >= 0 && numfmt_get((enum numfmt_id)item, f))
        return true;
    figure_null(v);
    return false;
}

static const char *format_name(const void *ctx, int item)
{
    (void)ctx;
    struct numfmt f;
    return item >= 0 && numfmt_get((enum numfmt_id)item, &f) ? f.name : "?";
}

static void g_name(const void *ctx, int item, int arg, struct figure_value *v)
{
    UNUSED_ARG;
    figure_str(v, format_name(ctx, item));
}

enum dtypes_bits { DB_ALL, DB_EXPONENT, DB_MANTISSA };

static void g_bits(const void *ctx, int item, int arg, struct figure_value *v)
{
    (void)ctx;
    struct numfmt f;
    if (!format_of(item, &f, v))
        return;
    figure_num(v, arg == DB_ALL ? numfmt_bits(&f) : arg == DB_EXPONENT ? f.exp_bits : f.man_bits);
}

/* "1/8/23": sign, exponent and mantissa bits. */
static void g_sem(const void *ctx, int item, int arg, struct figure_value *v)
{
    (void)ctx;
    UNUSED_ARG;
    struct numfmt f;
    if (!format_of(item, &f, v))
        return;
    snprintf(v->buf, sizeof v->buf, "1/%d/%d", f.exp_bits, f.man_bits);
    figure_str(v, v->buf);
}

enum dtypes_range { DR_MAX, DR_MIN_NORMAL, DR_MIN_SUBNORMAL, DR_EPSILON };

/* A figure of the format's range or precision; text writes it as the table always has
 * (65504, 3.403e+38). */
static void g_range(const void *ctx, int item, int arg, struct figure_value *v)
{
    (void)ctx;
    struct numfmt f;
    if (!format_of(item, &f, v))
        return;
    double r = arg == DR_MAX           ? f.max
               : arg == DR_MIN_NORMAL  ? f.min_normal
               : arg == DR_MIN_SUBNORMAL ? f.min_subnormal
                                         : f.epsilon;
    figure_num(v, r);
    numfmt_table_figure(r, v->buf, sizeof v->buf);
    v->text = v->buf;
}

static bool w_value(const void *ctx, int item, int arg)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    return x->have_value;
}

/* The value format item stores: a number, or (JSON has no inf or nan) "inf", "-inf", "nan". */
static void g_stored(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ARG;
    double got = numfmt_table_store((enum numfmt_id)item, x->x, x->block_max, v->buf,
                                    sizeof v->buf);
    if (isfinite(got))
        figure_num(v, got);
    else
        figure_str(v, isnan(got) ? "nan" : got > 0 ? "inf" : "-inf");
}

/* Line item of "X stored as": the format, the value read back and what happened to it. */
static void g_store_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ARG;
    numfmt_table_store((enum numfmt_id)item, x->x, x->block_max, v->buf, sizeof v->buf);
    figure_str(v, v->buf);
}

static int one(const void *ctx)
{
    (void)ctx;
    return 1;
}

static void g_nvfp4_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    (void)ctx;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(v->buf, sizeof v->buf,
             "nvfp4: E2M1 values +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}, one E4M3 scale per %d values "
             "(4.5 bits a value)",
             NUMFMT_NVFP4_BLOCK);
    figure_str(v, v->buf);
}

/* "1e-08 stored as" */
static void t_stored(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "%.9g stored as", x->x);
}

enum dtypes_num { DN_VALUE, DN_BLOCK_MAX };

static void g_num(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ITEM;
    figure_num(v, arg == DN_VALUE ? x->x : x->block_max);
}

/* The columns are numfmt_table_head's: format %-9s, bits %4s, s/e/m %-7s, the figures %10s. */
#define RANGE(k, l, a) \
    {VALUE, .key = k, .label = l, .get = g_range, .arg = a, .width = 10, .right = true}

static const struct figure FORMAT_COLS[] = {
    {VALUE, .key = "name", .label = "format", .get = g_name, .width = 9},
    {VALUE, .key = "bits", .label = "bits", .unit = FU_INT, .get = g_bits, .arg = DB_ALL,
     .width = 4},
    {VALUE, .key = "exponent_bits", .unit = FU_INT, .get = g_bits, .arg = DB_EXPONENT, DATA},
    {VALUE, .key = "mantissa_bits", .unit = FU_INT, .get = g_bits, .arg = DB_MANTISSA, DATA},
    {VALUE, .key = "sem", .label = "s/e/m", .get = g_sem, .width = 7, PROSE},
    RANGE("max", "max", DR_MAX),
    RANGE("min_normal", "min normal", DR_MIN_NORMAL),
    RANGE("min_subnormal", "subnormal", DR_MIN_SUBNORMAL),
    RANGE("epsilon", "epsilon", DR_EPSILON),
    {VALUE, .key = "stored", .get = g_stored, .when = w_value, DATA},
    END};

static const struct figure DTYPES[] = {
    {.entry = FE_LIST, .key = "formats", .count = n_formats, .item_name = format_name,
     .cols = FORMAT_COLS},
    {.entry = FE_LINES, .get = g_nvfp4_line, .count = one, PROSE},
    {.entry = FE_SECTION, .title = t_stored, .when = w_value},
    {.entry = FE_LINES, .get = g_store_line, .count = n_formats, .when = w_value, PROSE},
    {VALUE, .key = "value", .get = g_num, .arg = DN_VALUE, .when = w_value, DATA},
    {VALUE, .key = "block_max", .get = g_num, .arg = DN_BLOCK_MAX, .when = w_value, DATA},
    END};

int cmd_dtypes(int argc, char **argv)
{
    static const struct cli_flag own[] = {{"value", true}, {"block-max", true}, {"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 1, NULL, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    struct dtypes_run x = {.have_value = false, .x = 0, .block_max = 6, .fmt = REPORT_TEXT};
    char err[CLI_ERR_MAX];
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !(x.have_value = parse_real(v, &x.x))) {
            snprintf(err, sizeof err, "--value: '%.100s' is not a finite number", v);
            return cli_usage_error("dtypes", err);
        }
        if (f == &own[1] && !(parse_real(v, &x.block_max) && x.block_max > 0)) {
            snprintf(err, sizeof err, "--block-max: '%.100s' is not a number above 0", v);
            return cli_usage_error("dtypes", err);
        }
        if (f == &own[2] && !cli_parse_format(v, &x.fmt, err, sizeof err))
            return cli_usage_error("dtypes", err);
    }
    int end = cli_args_end(r, &args, dtypes_help, "dtypes");
    if (end >= 0)
        return end;
    return cli_print_figures(DTYPES, &x, x.fmt, "dtypes");
}
