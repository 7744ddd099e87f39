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
#include "numfmt_table.h"

static void dtypes_help(FILE *f)
{
    fputs("usage: rooftop dtypes [--value X] [--block-max B] [--format text|json]\n"
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

static int dtypes_json(bool have_value, double x, double block_max)
{
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "formats");
    bool ok = root != NULL && arr != NULL;
    for (int i = 0; ok && i < NF_COUNT; i++) {
        struct numfmt f;
        numfmt_get((enum numfmt_id)i, &f);
        cJSON *o = cJSON_CreateObject();
        ok = o != NULL && cJSON_AddItemToArray(arr, o) &&
             cJSON_AddStringToObject(o, "name", f.name) &&
             cJSON_AddNumberToObject(o, "bits", numfmt_bits(&f)) &&
             cJSON_AddNumberToObject(o, "exponent_bits", f.exp_bits) &&
             cJSON_AddNumberToObject(o, "mantissa_bits", f.man_bits) &&
             cJSON_AddNumberToObject(o, "max", f.max) &&
             cJSON_AddNumberToObject(o, "min_normal", f.min_normal) &&
             cJSON_AddNumberToObject(o, "min_subnormal", f.min_subnormal) &&
             cJSON_AddNumberToObject(o, "epsilon", f.epsilon);
        if (ok && have_value) {
            char line[256];
            double got = numfmt_table_store((enum numfmt_id)i, x, block_max, line, sizeof line);
            /* JSON has no inf or nan: those are strings. */
            if (isfinite(got))
                ok = cJSON_AddNumberToObject(o, "stored", got) != NULL;
            else
                ok = cJSON_AddStringToObject(o, "stored", isnan(got) ? "nan"
                                                          : got > 0  ? "inf"
                                                                     : "-inf") != NULL;
        }
        if (o != NULL && !ok)
            break;
    }
    if (ok && have_value)
        ok = cJSON_AddNumberToObject(root, "value", x) != NULL &&
             cJSON_AddNumberToObject(root, "block_max", block_max) != NULL;
    return cli_print_json(root, ok, "dtypes");
}

int cmd_dtypes(int argc, char **argv)
{
    static const struct cli_flag own[] = {{"value", true}, {"block-max", true}, {"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 1, NULL, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v;
    int r;
    bool have_value = false, json = false;
    double x = 0, block_max = 6;
    char err[256];
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0] && !(have_value = parse_real(v, &x))) {
            snprintf(err, sizeof err, "--value: '%.100s' is not a finite number", v);
            return cli_usage_error("dtypes", err);
        }
        if (f == &own[1] && !(parse_real(v, &block_max) && block_max > 0)) {
            snprintf(err, sizeof err, "--block-max: '%.100s' is not a number above 0", v);
            return cli_usage_error("dtypes", err);
        }
        if (f == &own[2] && !cli_text_or_json(v, &json, err, sizeof err))
            return cli_usage_error("dtypes", err);
    }
    int end = cli_args_end(r, &args, dtypes_help, "dtypes");
    if (end >= 0)
        return end;
    if (json)
        return dtypes_json(have_value, x, block_max);
    char line[256];
    numfmt_table_head(line, sizeof line);
    printf("%s\n", line);
    for (int i = 0; i < NF_COUNT; i++) {
        numfmt_table_row((enum numfmt_id)i, line, sizeof line);
        printf("%s\n", line);
    }
    printf("nvfp4: E2M1 values +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}, one E4M3 scale per %d values "
           "(4.5 bits a value)\n",
           NUMFMT_NVFP4_BLOCK);
    if (have_value) {
        printf("\n%.9g stored as\n", x);
        for (int i = 0; i < NF_COUNT; i++) {
            numfmt_table_store((enum numfmt_id)i, x, block_max, line, sizeof line);
            printf("  %s\n", line);
        }
    }
    return cli_finish_output("dtypes");
}
