/* cmd_list.c - `rooftop list gpus|models`: the presets on the search path. */
#include "cmd_list.h"

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

static void list_help(FILE *f)
{
    fputs("usage: rooftop list gpus|models [--format text|json]\n"
          "Lists the presets found on the spec search path: $XDG_CONFIG_HOME/rooftop,\n"
          "$ROOFTOP_SPECS, ./specs, specs beside the rooftop executable, then the installed\n"
          "specs.\n",
          f);
}
/* One GPU preset: a JSON object appended to arr, or a text row. False when it cannot be
 * read (said on stderr) or the JSON cannot be built. */
static bool list_gpu(const char *id, cJSON *arr)
{
    char sub[SPEC_ERR_MAX];
    struct gpu_spec g;
    if (!spec_find_gpu(id, &g, sub, sizeof sub)) {
        fprintf(stderr, "rooftop list: %s\n", sub);
        return false;
    }
    double peak = gpu_peak(&g, DTYPE_BF16);
    double ridge = gpu_ridge(&g, DTYPE_BF16);
    if (arr != NULL) {
        cJSON *o = cJSON_CreateObject();
        return o != NULL && cJSON_AddItemToArray(arr, o) &&
               cJSON_AddStringToObject(o, "id", g.id) && cJSON_AddStringToObject(o, "name", g.name) &&
               cJSON_AddNumberToObject(o, "memory_bytes", g.memory_bytes) &&
               cJSON_AddNumberToObject(o, "bandwidth", g.bandwidth) &&
               cJSON_AddItemToObject(o, "bf16_peak",
                                     peak > 0 ? cJSON_CreateNumber(peak) : cJSON_CreateNull()) &&
               cJSON_AddItemToObject(o, "bf16_ridge",
                                     peak > 0 ? cJSON_CreateNumber(ridge) : cJSON_CreateNull());
    }
    char mem[32], bw[32], pk[32];
    units_bytes(g.memory_bytes, mem, sizeof mem);
    units_bandwidth(g.bandwidth, bw, sizeof bw);
    /* A GPU without bf16 (V100) says so rather than print another format's rate. */
    if (peak > 0) {
        units_flops_rate(peak, pk, sizeof pk);
        printf("%-14s %-18s %9s %11s %15s %7.0f\n", g.id, g.name, mem, bw, pk, ridge);
    } else {
        printf("%-14s %-18s %9s %11s %15s %7s\n", g.id, g.name, mem, bw, "n/a", "n/a");
    }
    return true;
}

/* One model preset, as list_gpu does a GPU; idw is the id column's width. */
static bool list_model(const char *id, int idw, cJSON *arr)
{
    char sub[SPEC_ERR_MAX];
    struct model_arch m;
    if (!spec_find_model(id, &m, sub, sizeof sub)) {
        fprintf(stderr, "rooftop list: %s\n", sub);
        return false;
    }
    struct param_counts pc;
    model_params(&m, &pc);
    if (arr != NULL) {
        cJSON *o = cJSON_CreateObject();
        return o != NULL && cJSON_AddItemToArray(arr, o) &&
               cJSON_AddStringToObject(o, "id", m.id) && cJSON_AddStringToObject(o, "name", m.name) &&
               cJSON_AddNumberToObject(o, "layers", (double)m.layers) &&
               cJSON_AddNumberToObject(o, "d_model", (double)m.d_model) &&
               cJSON_AddNumberToObject(o, "heads", (double)m.heads) &&
               cJSON_AddNumberToObject(o, "params", (double)pc.total) &&
               cJSON_AddNumberToObject(o, "active_params", (double)pc.active);
    }
    /* A mixture of experts also shows what a token passes through (embedding and head
     * included); a dense model's active count is its total. */
    char c[32], act[32] = "-";
    units_count((double)pc.total, c, sizeof c);
    if (model_is_moe(&m))
        units_count((double)pc.active, act, sizeof act);
    printf("%-*s %-20s %6lld %8lld %6lld %10s %16lld %7s\n", idw, m.id, m.name,
           (long long)m.layers, (long long)m.d_model, (long long)m.heads, c, (long long)pc.total,
           act);
    return true;
}

/* The preset ids of the kind asked for; false (said on stderr) when none can be listed: an
 * empty list would read as "there are none", and means no data directory was found. */
static bool list_load(bool gpus, struct spec_list *l)
{
    if (!(gpus ? spec_list_gpus(l) : spec_list_models(l))) {
        fprintf(stderr, "rooftop list: cannot read the spec directories\n");
        return false;
    }
    if (l->count > 0)
        return true;
    char where[1024];
    files_dirs_describe(gpus ? "gpus" : "models", where, sizeof where);
    fprintf(stderr, "rooftop list: no %s presets found; looked in %s (set ROOFTOP_SPECS to a "
                    "specs directory, or run `make install`)\n", gpus ? "GPU" : "model", where);
    spec_list_free(l);
    return false;
}

/* Every preset of l, as text rows under their header or as one JSON array. */
static int list_write(bool gpus, const struct spec_list *l, bool json)
{
    cJSON *arr = json ? cJSON_CreateArray() : NULL;
    if (json && arr == NULL) {
        fprintf(stderr, "rooftop list: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    /* The id column as wide as the longest id (qwen1.5-moe-a2.7b), so the columns align. */
    int idw = 16;
    for (size_t k = 0; k < l->count; k++)
        if ((int)strlen(l->ids[k]) > idw)
            idw = (int)strlen(l->ids[k]);
    if (!json && gpus)
        printf("%-14s %-18s %9s %11s %15s %7s\n", "id", "name", "memory", "bandwidth",
               "bf16 peak", "ridge");
    else if (!json)
        printf("%-*s %-20s %6s %8s %6s %10s %16s %7s\n", idw, "id", "name", "layers", "d_model",
               "heads", "params", "exact", "active");
    int rc = CLI_EXIT_OK;
    for (size_t k = 0; k < l->count; k++)
        if (!(gpus ? list_gpu(l->ids[k], arr) : list_model(l->ids[k], idw, arr)))
            rc = CLI_EXIT_FAIL;
    if (arr != NULL) {
        char *text = cJSON_Print(arr);
        cJSON_Delete(arr);
        if (text == NULL) {
            fprintf(stderr, "rooftop list: out of memory\n");
            return CLI_EXIT_FAIL;
        }
        printf("%s\n", text);
        free(text);
    }
    return rc;
}

int cmd_list(int argc, char **argv)
{
    int head = cli_subcommand_head(argc, argv, list_help, "list");
    if (head >= 0)
        return head;
    bool gpus;
    char err[CLI_ERR_MAX];
    if (strcmp(argv[1], "gpus") == 0)
        gpus = true;
    else if (strcmp(argv[1], "models") == 0)
        gpus = false;
    else {
        snprintf(err, sizeof err, "'%s' is not gpus or models", argv[1]);
        return cli_usage_error("list", err);
    }
    enum report_format fmt = REPORT_TEXT;
    static const struct cli_flag own[] = {{"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, 2, NULL, own, 1);
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN)
        if (!cli_parse_format(v, &fmt, err, sizeof err))
            return cli_usage_error("list", err);
    int end = cli_args_end(r, &args, list_help, "list");
    if (end >= 0)
        return end;
    if (fmt == REPORT_CSV || fmt == REPORT_MD)
        return cli_usage_error("list", "--format: list prints text or json");
    struct spec_list l;
    if (!list_load(gpus, &l))
        return CLI_EXIT_FAIL;
    int rc = list_write(gpus, &l, fmt == REPORT_JSON);
    spec_list_free(&l);
    int out = cli_finish_output("list");
    return out != CLI_EXIT_OK ? out : rc;
}
