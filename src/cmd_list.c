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

static void list_help(FILE *f)
{
    fputs("usage: rooftop list gpus|models [--format text|json|csv|md]\n"
          "Lists the presets found on the spec search path: $XDG_CONFIG_HOME/rooftop,\n"
          "$ROOFTOP_SPECS, ./specs, specs beside the rooftop executable, then the installed\n"
          "specs.\n",
          f);
}
/* ---- the presets read, and their tables (src/figure.h) that the four formats walk ------- */

/* The presets of one kind that could be read: GPUs, or models with their counts. */
struct presets {
    size_t count;
    struct gpu_spec *gpus;
    struct model_arch *models;
    struct param_counts *params;
};

#define P const struct presets *p = ctx

static int n_presets(const void *ctx)
{
    P;
    return (int)p->count;
}

static const char *gpu_id(const void *ctx, int item)
{
    P;
    return p->gpus[item].id;
}

static const char *model_id(const void *ctx, int item)
{
    P;
    return p->models[item].id;
}

enum gpu_col { GC_ID, GC_NAME, GC_MEMORY, GC_BANDWIDTH, GC_PEAK, GC_RIDGE };

static void g_gpu(const void *ctx, int item, int arg, struct figure_value *v)
{
    P;
    if (item < 0 || (size_t)item >= p->count)
        return;
    const struct gpu_spec *g = &p->gpus[item];
    double peak = gpu_peak(g, DTYPE_BF16);
    switch ((enum gpu_col)arg) {
    case GC_ID:
        figure_str(v, g->id);
        return;
    case GC_NAME:
        figure_str(v, g->name);
        return;
    case GC_MEMORY:
        figure_num(v, g->memory_bytes);
        return;
    case GC_BANDWIDTH:
        figure_num(v, g->bandwidth);
        return;
    case GC_PEAK:
    case GC_RIDGE:
        /* A GPU without bf16 (V100) says so rather than show another format's rate. */
        if (!(peak > 0)) {
            figure_null(v);
            v->text = "n/a";
            return;
        }
        figure_num(v, arg == GC_PEAK ? peak : gpu_ridge(g, DTYPE_BF16));
        return;
    }
}

enum model_col { MC_ID, MC_NAME, MC_LAYERS, MC_D_MODEL, MC_HEADS, MC_PARAMS, MC_ACTIVE };

static void g_model(const void *ctx, int item, int arg, struct figure_value *v)
{
    P;
    if (item < 0 || (size_t)item >= p->count)
        return;
    const struct model_arch *m = &p->models[item];
    switch ((enum model_col)arg) {
    case MC_ID:
        figure_str(v, m->id);
        return;
    case MC_NAME:
        figure_str(v, m->name);
        return;
    case MC_LAYERS:
        figure_num(v, (double)m->layers);
        return;
    case MC_D_MODEL:
        figure_num(v, (double)m->d_model);
        return;
    case MC_HEADS:
        figure_num(v, (double)m->heads);
        return;
    case MC_PARAMS:
        figure_num(v, (double)p->params[item].total);
        return;
    case MC_ACTIVE:
        /* A mixture of experts also shows what a token passes through (embedding and head
         * included); a dense model's active count is its total, and text shows "-". */
        figure_num(v, (double)p->params[item].active);
        if (!model_is_moe(m))
            v->text = "-";
        return;
    }
}

#define AUTO .width = FIGURE_WIDTH_AUTO

static const struct figure GPU_COLS[] = {
    {VALUE, .key = "id", .label = "id", .get = g_gpu, .arg = GC_ID, .width = 14},
    {VALUE, .key = "name", .label = "name", .get = g_gpu, .arg = GC_NAME, AUTO},
    {VALUE, .key = "memory_bytes", .label = "memory", .unit = FU_BYTES, .get = g_gpu,
     .arg = GC_MEMORY, .width = 9},
    {VALUE, .key = "bandwidth", .label = "bandwidth", .unit = FU_BANDWIDTH, .get = g_gpu,
     .arg = GC_BANDWIDTH, .width = 11},
    {VALUE, .key = "bf16_peak", .label = "bf16 peak", .unit = FU_FLOP_RATE, .get = g_gpu,
     .arg = GC_PEAK, .width = 15},
    {VALUE, .key = "bf16_ridge", .label = "ridge", .unit = FU_INTENSITY, .get = g_gpu,
     .arg = GC_RIDGE, .width = 7},
    END};

static const struct figure GPUS[] = {
    {.entry = FE_LIST, .key = "", .count = n_presets, .item_name = gpu_id, .cols = GPU_COLS},
    END};

static const struct figure MODEL_COLS[] = {
    {VALUE, .key = "id", .label = "id", .get = g_model, .arg = MC_ID, AUTO},
    {VALUE, .key = "name", .label = "name", .get = g_model, .arg = MC_NAME, .width = 20},
    {VALUE, .key = "layers", .label = "layers", .unit = FU_LAYERS, .get = g_model,
     .arg = MC_LAYERS, .width = 6},
    {VALUE, .key = "d_model", .label = "d_model", .unit = FU_INT, .get = g_model,
     .arg = MC_D_MODEL, .width = 8},
    {VALUE, .key = "heads", .label = "heads", .unit = FU_INT, .get = g_model, .arg = MC_HEADS,
     .width = 6},
    {VALUE, .key = "params", .label = "params", .unit = FU_PARAMS, .get = g_model,
     .arg = MC_PARAMS, AUTO},
    {VALUE, .key = "active_params", .label = "active", .unit = FU_COUNT, .get = g_model,
     .arg = MC_ACTIVE, .width = 7},
    END};

static const struct figure MODELS[] = {
    {.entry = FE_LIST, .key = "", .count = n_presets, .item_name = model_id,
     .cols = MODEL_COLS},
    END};

/* Reads every preset of l into p, one that cannot be read said on stderr and left out;
 * false when any was left out or memory ran short. */
static bool presets_read(bool gpus, const struct spec_list *l, struct presets *p)
{
    memset(p, 0, sizeof *p);
    size_t n = l->count > 0 ? l->count : 1;
    if (gpus)
        p->gpus = calloc(n, sizeof *p->gpus);
    else {
        p->models = calloc(n, sizeof *p->models);
        p->params = calloc(n, sizeof *p->params);
    }
    if (gpus ? p->gpus == NULL : p->models == NULL || p->params == NULL) {
        fprintf(stderr, "rooftop list: out of memory\n");
        return false;
    }
    bool all = true;
    for (size_t k = 0; k < l->count; k++) {
        char sub[SPEC_ERR_MAX];
        bool ok = gpus ? spec_find_gpu(l->ids[k], &p->gpus[p->count], sub, sizeof sub)
                       : spec_find_model(l->ids[k], &p->models[p->count], sub, sizeof sub);
        if (!ok) {
            fprintf(stderr, "rooftop list: %s\n", sub);
            all = false;
            continue;
        }
        if (!gpus)
            model_params(&p->models[p->count], &p->params[p->count]);
        p->count++;
    }
    return all;
}

static void presets_free(struct presets *p)
{
    free(p->gpus);
    free(p->models);
    free(p->params);
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

/* Every preset of l in fmt: the ones read, and status 1 when any could not be. */
static int list_write(bool gpus, const struct spec_list *l, enum report_format fmt)
{
    struct presets p;
    bool all = presets_read(gpus, l, &p);
    if (gpus ? p.gpus == NULL : p.models == NULL || p.params == NULL) {
        presets_free(&p);
        return CLI_EXIT_FAIL;
    }
    int rc = cli_print_figures(gpus ? GPUS : MODELS, &p, fmt, "list");
    presets_free(&p);
    return rc != CLI_EXIT_OK ? rc : all ? CLI_EXIT_OK : CLI_EXIT_FAIL;
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
    struct spec_list l;
    if (!list_load(gpus, &l))
        return CLI_EXIT_FAIL;
    int rc = list_write(gpus, &l, fmt);
    spec_list_free(&l);
    return rc;
}
