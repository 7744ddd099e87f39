/* presets.c - preset ladders for the model and GPU sliders. */
#include "presets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hfcache.h"
#include "spec.h"

static int cmp_model(const void *a, const void *b)
{
    const struct preset_model *x = a, *y = b;
    if (x->params != y->params)
        return x->params < y->params ? -1 : 1;
    return strcmp(x->arch.id, y->arch.id);
}

static int cmp_gpu(const void *a, const void *b)
{
    const struct gpu_spec *x = a, *y = b;
    /* By 16-bit rate: bf16, or fp16 on a GPU without bf16 (V100). */
    double px = fmax(gpu_peak(x, DTYPE_BF16), gpu_peak(x, DTYPE_FP16));
    double py = fmax(gpu_peak(y, DTYPE_BF16), gpu_peak(y, DTYPE_FP16));
    if (px != py)
        return px < py ? -1 : 1;
    if (x->memory_bytes != y->memory_bytes)
        return x->memory_bytes < y->memory_bytes ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* Loads the models named by ids (presets, or Hugging Face repo ids) onto the ladder. */
static void models_add(struct presets *p, char *const *ids, size_t n,
                       void (*warn)(const char *line, void *ctx), void *ctx)
{
    char err[SPEC_ERR_MAX];
    struct preset_model *grown = realloc(p->models, ((size_t)p->n_models + n + 1) * sizeof *grown);
    if (grown == NULL)
        return;
    p->models = grown;
    for (size_t i = 0; i < n; i++) {
        struct preset_model *m = &p->models[p->n_models];
        memset(m, 0, sizeof *m);
        if (!spec_find_model(ids[i], &m->arch, err, sizeof err)) {
            if (warn)
                warn(err, ctx);
            continue;
        }
        struct param_counts pc;
        model_params(&m->arch, &pc);
        m->params = (double)pc.total;
        p->n_models++;
    }
}

void presets_load(struct presets *p, void (*warn)(const char *line, void *ctx), void *ctx)
{
    memset(p, 0, sizeof *p);
    char err[SPEC_ERR_MAX];
    struct spec_list l;
    if (spec_list_models(&l)) {
        models_add(p, l.ids, l.count, warn, ctx);
        spec_list_free(&l);
    }
    /* The models downloaded into the local Hugging Face cache, by their repo ids. */
    char **cached = NULL;
    size_t n_cached = hfcache_list(&cached);
    models_add(p, cached, n_cached, warn, ctx);
    hfcache_list_free(cached, n_cached);
    if (p->models)
        qsort(p->models, (size_t)p->n_models, sizeof *p->models, cmp_model);
    if (spec_list_gpus(&l)) {
        p->gpus = calloc(l.count ? l.count : 1, sizeof *p->gpus);
        for (size_t i = 0; p->gpus && i < l.count; i++) {
            if (!spec_find_gpu(l.ids[i], &p->gpus[p->n_gpus], err, sizeof err)) {
                if (warn)
                    warn(err, ctx);
                continue;
            }
            p->n_gpus++;
        }
        spec_list_free(&l);
    }
    if (p->n_gpus == 0) {
        free(p->gpus);
        p->gpus = calloc(1, sizeof *p->gpus);
        if (p->gpus) {
            gpu_builtin_h100(&p->gpus[0]);
            p->n_gpus = 1;
        }
    }
    if (p->gpus)
        qsort(p->gpus, (size_t)p->n_gpus, sizeof *p->gpus, cmp_gpu);
}

void presets_free(struct presets *p)
{
    free(p->models);
    free(p->gpus);
    memset(p, 0, sizeof *p);
}

int presets_model_index(const struct presets *p, const char *id)
{
    for (int i = 0; id && *id && i < p->n_models; i++)
        if (strcmp(p->models[i].arch.id, id) == 0)
            return i;
    return -1;
}

bool presets_same_family(const char *a, const char *b)
{
    size_t la = strcspn(a, "-"), lb = strcspn(b, "-");
    return la > 0 && la == lb && strncmp(a, b, la) == 0;
}

int presets_gpu_index(const struct presets *p, const char *id)
{
    for (int i = 0; id && *id && i < p->n_gpus; i++)
        if (strcmp(p->gpus[i].id, id) == 0)
            return i;
    return -1;
}
