/* presets.h - the model ladder and the GPU list the sliders step through, loaded once. */
#ifndef ROOFTOP_UI_PRESETS_H
#define ROOFTOP_UI_PRESETS_H

#include <stdbool.h>

#include "gpu.h"
#include "model.h"

struct preset_model {
    struct model_arch arch;
    double params;               /* total parameters, the ladder's order */
};

struct presets {
    struct preset_model *models; /* ascending by parameters */
    int n_models;
    struct gpu_spec *gpus;       /* ascending by bf16 peak, then memory */
    int n_gpus;
};

/* Loads every model and GPU preset on the spec search path. Presets that fail to load are
 * skipped (their error goes to warn when non-NULL, one line each). Never fails: with no spec
 * directory the ladders are empty, and the built-in H100 stands in for the GPU list. */
void presets_load(struct presets *p, void (*warn)(const char *line, void *ctx), void *ctx);
void presets_free(struct presets *p);

/* The index of the preset with this id, or -1. */
int presets_model_index(const struct presets *p, const char *id);
int presets_gpu_index(const struct presets *p, const char *id);

/* Whether two model ids are of one family: the same id up to the first '-' ("llama3.1" for
 * llama3.1-8b, -70b and -405b; "qwen3" for qwen3-8b and qwen3-30b-a3b). */
bool presets_same_family(const char *a, const char *b);

#endif
