/* infer_ui.c - the inference view's scenario and its sliders. */
#include "infer_ui.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inputs.h"

#define STEPS_MAX 64

static const char *const names[IS_COUNT] = {
    [IS_MODEL] = "model", [IS_GPU] = "GPU", [IS_TP] = "tensor", [IS_BATCH] = "batch",
    [IS_PROMPT] = "prompt", [IS_GENERATE] = "generate", [IS_DTYPE] = "dtype",
    [IS_WEIGHTS] = "weights", [IS_KV] = "KV cache",
};

/* The formats each dtype slider offers, widest first. */
static const enum dtype act_dtypes[] = {DTYPE_FP32, DTYPE_BF16, DTYPE_FP16, DTYPE_FP8_E4M3};
static const enum dtype weight_dtypes[] = {DTYPE_FP32, DTYPE_BF16, DTYPE_FP8_E4M3, DTYPE_INT8,
                                           DTYPE_INT4, DTYPE_FP4};
static const enum dtype kv_dtypes[] = {DTYPE_FP32, DTYPE_BF16, DTYPE_FP8_E4M3, DTYPE_INT8,
                                       DTYPE_INT4};
/* Each slider's row of the registry (src/inputs.c): the keys of `rooftop infer`'s flags and
 * of a demo's "_infer". */
static const char *const input_keys[IS_COUNT] = {
    [IS_MODEL] = "model", [IS_GPU] = "gpu", [IS_TP] = "tp", [IS_BATCH] = "batch",
    [IS_PROMPT] = "prompt", [IS_GENERATE] = "generate", [IS_DTYPE] = "dtype",
    [IS_WEIGHTS] = "weights_dtype", [IS_KV] = "kv_dtype",
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *infer_ui_name(int id)
{
    return id >= 0 && id < IS_COUNT ? names[id] : "?";
}

/* Powers of two from lo to at most hi (and hi itself when it is not one). */
static int powers(double lo, double hi, double *vals, int max)
{
    int n = 0;
    for (double v = lo; v <= hi && n < max; v *= 2)
        vals[n++] = v;
    if (n > 0 && vals[n - 1] < hi && n < max)
        vals[n++] = hi;
    return n;
}

/* The slider's steps, ascending. */
static int steps(const struct infer_ui *u, const struct presets *p, int id, double *vals)
{
    const struct scenario *s = &u->ev.sc;
    int n = 0;
    switch (id) {
    case IS_MODEL:
        for (int i = 0; i < p->n_models && n < STEPS_MAX; i++)
            vals[n++] = i;
        break;
    case IS_GPU:
        for (int i = 0; i < p->n_gpus && n < STEPS_MAX; i++)
            vals[n++] = i;
        break;
    case IS_TP:
        /* Tensor parallelism stays inside one node: up to 8 (or more where heads allow). */
        for (int64_t t = 1; t <= 64 && n < STEPS_MAX; t *= 2)
            if (s->model.heads % t == 0)
                vals[n++] = (double)t;
        break;
    case IS_BATCH:
        n = powers(1, 4096, vals, STEPS_MAX);
        break;
    case IS_PROMPT:
        n = powers(128, (double)(s->model.context - 1), vals, STEPS_MAX);
        break;
    case IS_GENERATE:
        vals[n++] = 1;
        n += powers(16, (double)(s->model.context - 128), vals + n, STEPS_MAX - n);
        break;
    case IS_DTYPE:
        for (int i = 0; i < COUNT(act_dtypes); i++)
            vals[n++] = act_dtypes[i];
        break;
    case IS_WEIGHTS:
        for (int i = 0; i < COUNT(weight_dtypes); i++)
            vals[n++] = weight_dtypes[i];
        break;
    case IS_KV:
        for (int i = 0; i < COUNT(kv_dtypes); i++)
            vals[n++] = kv_dtypes[i];
        break;
    default:
        break;
    }
    return n;
}

/* The current value in the steps' terms. */
static double value(const struct infer_ui *u, const struct presets *p, int id)
{
    const struct scenario *s = &u->ev.sc;
    switch (id) {
    case IS_MODEL:
        return presets_model_index(p, s->model.id);
    case IS_GPU:
        return presets_gpu_index(p, s->gpu.id);
    case IS_TP:
        return (double)s->tp;
    case IS_BATCH:
        return (double)s->batch;
    case IS_PROMPT:
        return (double)s->prompt;
    case IS_GENERATE:
        return (double)s->generate;
    case IS_DTYPE:
        return s->dtype;
    case IS_WEIGHTS:
        return infer_weights_dtype(s);
    case IS_KV:
        return infer_kv_dtype(s);
    default:
        return 0;
    }
}

/* Index of the step at the value (the last one not above it), for ordered sliders; the
 * equal one for enumerations. */
static int step_index(const struct infer_ui *u, const struct presets *p, int id,
                      const double *vals, int n)
{
    double v = value(u, p, id);
    bool ordered = id == IS_TP || id == IS_BATCH || id == IS_PROMPT || id == IS_GENERATE ||
                   id == IS_MODEL || id == IS_GPU;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (ordered ? vals[i] <= v : vals[i] == v)
            k = i;
    }
    return k;
}

static void apply(struct scenario *s, const struct presets *p, int id, double v)
{
    switch (id) {
    case IS_MODEL:
        if (v >= 0 && v < p->n_models)
            s->model = p->models[(int)v].arch;
        break;
    case IS_GPU:
        if (v >= 0 && v < p->n_gpus)
            s->gpu = p->gpus[(int)v];
        break;
    case IS_TP:
        s->tp = (int64_t)v;
        break;
    case IS_BATCH:
        s->batch = (int64_t)v;
        break;
    case IS_PROMPT:
        s->prompt = (int64_t)v;
        break;
    case IS_GENERATE:
        s->generate = (int64_t)v;
        break;
    case IS_DTYPE:
        s->dtype = (enum dtype)(int)v;
        break;
    case IS_WEIGHTS:
        s->weights_dtype = (enum dtype)(int)v;
        break;
    case IS_KV:
        s->kv_dtype = (enum dtype)(int)v;
        break;
    default:
        break;
    }
}

/* What one change forces on the others: tp must divide the heads, prompt + generation must
 * fit the context. */
static void repair(struct scenario *s, int moved)
{
    while (s->tp > 1 && s->model.heads % s->tp != 0)
        s->tp /= 2;
    const int64_t ctx = s->model.context;
    if (s->prompt + s->generate > ctx) {
        if (moved == IS_GENERATE && ctx > 1)
            s->prompt = ctx - s->generate > 0 ? ctx - s->generate : 1;
        else
            s->generate = ctx - s->prompt > 0 ? ctx - s->prompt : 1;
        if (s->prompt + s->generate > ctx)
            s->prompt = ctx > 1 ? ctx - 1 : 1;
    }
}

static bool try_apply(struct infer_ui *u, const struct scenario *cand, char *err,
                      size_t errlen)
{
    if (!infer_validate(cand, err, (int)errlen))
        return false;
    evaluation_serve(cand, &u->ev);
    u->ready = true;
    return true;
}

bool infer_ui_show(struct infer_ui *u, const struct scenario *s, char *err, size_t errlen)
{
    return try_apply(u, s, err, errlen);
}

int infer_ui_find(const char *key)
{
    for (int i = 0; key && i < IS_COUNT; i++)
        if (strcmp(key, input_keys[i]) == 0)
            return i;
    return -1;
}

/* The preset the view serves: the training model when it is one; else Llama-2-7B, or, when
 * its context cannot hold the typed prompt + generate, the preset nearest it in parameters
 * whose context can (note says so); else the first preset. -1 when there are none. */
static int serve_model(const struct presets *p, const struct scenario *train, char *note,
                       size_t n)
{
    int m = presets_model_index(p, train->model.id);
    if (m >= 0)
        return m;
    m = presets_model_index(p, "llama2-7b");
    if (m < 0)
        return p->n_models > 0 ? 0 : -1;
    const int64_t tokens = train->prompt + train->generate;
    if (p->models[m].arch.context >= tokens)
        return m;
    int best = m;
    double best_gap = INFINITY;
    for (int i = 0; i < p->n_models; i++) {
        double gap = fabs(log(p->models[i].params / p->models[m].params));
        if (p->models[i].arch.context >= tokens && gap < best_gap) {
            best = i;
            best_gap = gap;
        }
    }
    if (best != m)
        snprintf(note, n, "serving %s, the preset nearest llama2-7b in size whose context "
                          "holds prompt %lld + generate %lld", p->models[best].arch.id,
                 (long long)train->prompt, (long long)train->generate);
    return best;
}

/* The typed prompt and generate on c's model: as typed when the context holds them, else
 * the generate kept (when the context leaves a prompt token) and the prompt shortened, with
 * one line in note saying so. */
static void serve_tokens(struct scenario *c, const struct scenario *train, char *note,
                         size_t n)
{
    c->prompt = train->prompt;
    c->generate = train->generate;
    const int64_t ctx = c->model.context;
    if (c->prompt + c->generate <= ctx)
        return;
    if (c->generate >= ctx)
        c->generate = ctx / 4 > 0 ? ctx / 4 : 1;
    c->prompt = ctx - c->generate > 0 ? ctx - c->generate : 1;
    snprintf(note, n, "prompt %lld + generate %lld exceed %s's context of %lld: prompt %lld, "
                      "generate %lld", (long long)train->prompt, (long long)train->generate,
             c->model.id[0] ? c->model.id : c->model.name, (long long)ctx,
             (long long)c->prompt, (long long)c->generate);
}

bool infer_ui_open(struct infer_ui *u, const struct presets *p, const struct scenario *train,
                   char *err, size_t errlen)
{
    err[0] = '\0';
    struct scenario c;
    infer_default(&c);
    c.gpu = train->gpu;
    char note[256] = "";
    int m = serve_model(p, train, note, sizeof note);
    if (m < 0) {
        snprintf(err, errlen, "no model presets found (set ROOFTOP_SPECS to the specs directory)");
        return false;
    }
    c.model = p->models[m].arch;
    /* The GPU's dtype when it trains in one serving can use, else bf16. */
    if (train->dtype == DTYPE_FP16 || train->dtype == DTYPE_FP8_E4M3)
        c.dtype = train->dtype;
    /* The serving inputs typed with the training ones (--prompt, --generate, the storage
     * dtypes, the efficiencies) are the view's start: the scenario holds them. */
    if (train->weights_dtype != SCENARIO_DTYPE_AUTO)
        c.weights_dtype = train->weights_dtype;
    if (train->kv_dtype != SCENARIO_DTYPE_AUTO)
        c.kv_dtype = train->kv_dtype;
    c.compute_eff = train->compute_eff;
    c.memory_eff = train->memory_eff;
    serve_tokens(&c, train, note, sizeof note);
    repair(&c, -1);
    if (!try_apply(u, &c, err, errlen))
        return false;
    snprintf(err, errlen, "%s", note);
    return true;
}

bool infer_ui_move(struct infer_ui *u, const struct presets *p, int id, int delta, bool to_end,
                   char *err, size_t errlen)
{
    err[0] = '\0';
    double vals[STEPS_MAX];
    int n = steps(u, p, id, vals);
    if (n <= 0)
        return false;
    int k = step_index(u, p, id, vals, n);
    int to = to_end ? (delta < 0 ? 0 : n - 1) : k + delta;
    if (to < 0)
        to = 0;
    if (to > n - 1)
        to = n - 1;
    /* A value between two steps moves onto the step above when going up. */
    if (to == k && delta > 0 && vals[k] < value(u, p, id) && k + 1 < n)
        to = k + 1;
    if (vals[to] == value(u, p, id))
        return false;
    struct scenario c = u->ev.sc;
    apply(&c, p, id, vals[to]);
    repair(&c, id);
    return try_apply(u, &c, err, errlen);
}

double infer_ui_position(const struct infer_ui *u, const struct presets *p, int id)
{
    double vals[STEPS_MAX];
    int n = steps(u, p, id, vals);
    if (n <= 1)
        return 0.0;
    return (double)step_index(u, p, id, vals, n) / (double)(n - 1);
}

void infer_ui_format(const struct infer_ui *u, int id, char *buf, size_t n)
{
    /* Each value as the registry writes it (src/inputs.h), so what is shown reads back
     * through `rooftop infer`'s flags and a demo's "_infer" as the same value. Only the row's
     * own field is read: the rest of the scratch scenario may stay blank. */
    const struct scenario *s = &u->ev.sc;
    const struct input *in = id >= 0 && id < IS_COUNT ? inputs_find(input_keys[id]) : NULL;
    if (in == NULL) {
        snprintf(buf, n, "?");
        return;
    }
    if (id == IS_MODEL || id == IS_GPU) {
        /* The preset's id (the registry writes a custom model as its size instead). */
        snprintf(buf, n, "%s", id == IS_MODEL ? (s->model.id[0] ? s->model.id : s->model.name)
                                              : (s->gpu.id[0] ? s->gpu.id : s->gpu.name));
        return;
    }
    struct scenario t;
    memset(&t, 0, sizeof t);
    t.tp = s->tp;
    t.batch = s->batch;
    t.prompt = s->prompt;
    t.generate = s->generate;
    t.dtype = s->dtype;
    t.weights_dtype = infer_weights_dtype(s);
    t.kv_dtype = infer_kv_dtype(s);
    inputs_format(in, &t, buf, n);
}
