/* slider.c - every input as a slider: steps (log-spaced where values span orders of
 * magnitude, valid multiples only for GPU counts), clamping, typed values, human units. */
#include "slider.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "spec.h"
#include "units.h"

static const struct slider_info infos[SL_COUNT] = {
    [SL_MODEL] = {"model", "model", false, "preset models, smallest to largest"},
    [SL_PARAMS] = {"size", "params", true, "a custom model of exactly this many parameters"},
    [SL_TOKENS] = {"tokens", "tokens", true, "training tokens D"},
    [SL_BATCH] = {"batch", "batch", true, "global batch, sequences per optimizer step"},
    [SL_SEQ] = {"seq len", "seq", true, "tokens per sequence"},
    [SL_MICRO] = {"microbatch", "micro_batch", true, "sequences per forward/backward per rank"},
    [SL_GPU] = {"GPU", "gpu", false, "accelerator type"},
    [SL_GPUS] = {"GPUs", "gpus", true, "GPU count = data x tensor x pipeline"},
    [SL_TP] = {"tensor", "tp", true, "tensor-parallel degree"},
    [SL_SP] = {"seq par", "sp", false, "sequence parallelism with tensor parallelism"},
    [SL_PP] = {"pipeline", "pp", true, "pipeline-parallel degree"},
    [SL_ZERO] = {"ZeRO", "zero", false, "ZeRO stage: 1 optimizer, 2 +grads, 3 +params"},
    [SL_DTYPE] = {"dtype", "dtype", false, "params, grads and activations"},
    [SL_MASTER] = {"master", "master_weights", false, "fp32 master copy of the weights"},
    [SL_OPTIMIZER] = {"optimizer", "optimizer", false, "optimizer and its state"},
    [SL_RECOMPUTE] = {"recompute", "recompute", false, "activation recomputation"},
    [SL_FLASH] = {"flash", "flash", false, "FlashAttention: no s x s scores stored"},
    [SL_MFU] = {"MFU", "mfu", false, "fraction of peak achieved"},
    [SL_FLOPS] = {"FLOPs", "flops", false, "count: 6ND or every operation"},
};

/* The dtypes a run can train in, in order of bytes. */
static const enum dtype dtype_steps[] = {DTYPE_FP32, DTYPE_TF32, DTYPE_BF16,
                                         DTYPE_FP16, DTYPE_FP8_E4M3, DTYPE_FP4};
#define N_DTYPES ((int)(sizeof dtype_steps / sizeof dtype_steps[0]))

const struct slider_info *slider_info(enum slider_id id)
{
    return (unsigned)id < SL_COUNT ? &infos[id] : &infos[0];
}

int slider_find(const char *s)
{
    for (int i = 0; s && i < SL_COUNT; i++)
        if (strcasecmp(s, infos[i].key) == 0 || strcasecmp(s, infos[i].name) == 0)
            return i;
    return -1;
}

/* 1, 1.5, 2, 3, 5, 7 per decade: round figures that still land on the lecture's 15T, 70B. */
static int nice_steps(double lo, double hi, double *vals, int max)
{
    static const double m[] = {1, 1.5, 2, 3, 5, 7};
    int n = 0;
    for (double dec = lo; dec <= hi * 1.0001 && n < max; dec *= 10)
        for (int i = 0; i < 6 && n < max; i++) {
            double v = dec * m[i];
            if (v <= hi * 1.0001)
                vals[n++] = v;
        }
    return n;
}

static int pow2_steps(double lo, double hi, double unit, double *vals, int max)
{
    int n = 0;
    for (double v = unit; v <= hi && n < max; v *= 2)
        if (v >= lo)
            vals[n++] = v;
    return n;
}

static int linear_steps(double lo, double hi, double step, double *vals, int max)
{
    int n = 0;
    for (int i = 0; n < max; i++) {
        double v = lo + step * i;
        if (v > hi + step * 1e-6)
            break;
        vals[n++] = v;
    }
    return n;
}

static int dtype_index(enum dtype d)
{
    for (int i = 0; i < N_DTYPES; i++)
        if (dtype_steps[i] == d)
            return i;
    return d == DTYPE_FP8_E5M2 ? 4 : 2;
}

void slider_range(const struct presets *p, const struct scenario *s, enum slider_id id,
                  double *lo, double *hi)
{
    *lo = 0;
    switch (id) {
    case SL_MODEL:
        *hi = p->n_models > 0 ? p->n_models - 1 : 0;
        break;
    case SL_PARAMS:
        *lo = 1e7;
        *hi = 1e14;
        break;
    case SL_TOKENS:
        *lo = 1;
        *hi = 1e18;
        break;
    case SL_BATCH:
        *lo = 1;
        *hi = 1e9;
        break;
    case SL_SEQ:
        *lo = 1;
        *hi = 1e8;
        break;
    case SL_MICRO:
        *hi = (double)(s->batch > 0 ? s->batch : 1);
        break;
    case SL_GPU:
        *hi = p->n_gpus > 0 ? p->n_gpus - 1 : 0;
        break;
    case SL_GPUS:
    case SL_TP:
    case SL_PP:
        *lo = 1;
        *hi = 1e8;
        break;
    case SL_ZERO:
    case SL_OPTIMIZER:
    case SL_RECOMPUTE:
        *hi = 3;
        break;
    case SL_DTYPE:
        *hi = N_DTYPES - 1;
        break;
    case SL_MASTER:
    case SL_FLASH:
    case SL_SP:
    case SL_FLOPS:
        *hi = 1;
        break;
    case SL_MFU:
        *lo = 0.001;
        *hi = 1;
        break;
    case SL_COUNT:
        *hi = 0;
        break;
    }
}

int slider_steps(const struct presets *p, const struct scenario *s, enum slider_id id,
                 double *vals, int max)
{
    int n = 0;
    switch (id) {
    case SL_MODEL:
        n = linear_steps(0, p->n_models > 0 ? p->n_models - 1 : 0, 1, vals, max);
        break;
    case SL_GPU:
        n = linear_steps(0, p->n_gpus > 0 ? p->n_gpus - 1 : 0, 1, vals, max);
        break;
    case SL_PARAMS:
        n = nice_steps(1e7, 1e13, vals, max);
        break;
    case SL_TOKENS:
        n = nice_steps(1e6, 1e16, vals, max);
        break;
    case SL_BATCH:
        n = pow2_steps(1, 16777216, 1, vals, max);
        break;
    case SL_SEQ:
        n = pow2_steps(16, 1048576, 1, vals, max);
        break;
    case SL_MICRO:
        vals[n++] = 0; /* auto: batch / data-parallel ranks */
        n += pow2_steps(1, s->batch < 65536 ? (double)s->batch : 65536, 1, vals + 1, max - 1);
        break;
    case SL_GPUS: {
        /* Valid counts only: multiples of tp x pp, doubling. */
        double unit = (double)(s->tp > 0 ? s->tp : 1) * (double)(s->pp > 0 ? s->pp : 1);
        n = pow2_steps(unit, 16777216.0 > unit ? 16777216.0 : unit, unit, vals, max);
        break;
    }
    case SL_TP:
    case SL_PP:
        n = pow2_steps(1, 256, 1, vals, max);
        break;
    case SL_MFU:
        n = linear_steps(0.05, 1.0, 0.05, vals, max);
        break;
    default: {
        double lo = 0, hi = 0;
        slider_range(p, s, id, &lo, &hi);
        n = linear_steps(lo, hi, 1, vals, max);
        break;
    }
    }
    if (n == 0)
        vals[n++] = 0;
    return n;
}

double slider_value(const struct presets *p, const struct scenario *s, enum slider_id id)
{
    switch (id) {
    case SL_MODEL: {
        int i = presets_model_index(p, s->model.id);
        if (i >= 0 || p->n_models == 0)
            return i < 0 ? 0 : i;
        /* A custom size sits between the presets around it, on a log scale. */
        struct param_counts pc;
        model_params(&s->model, &pc);
        double n = (double)pc.total;
        if (n <= p->models[0].params)
            return 0;
        for (int k = 1; k < p->n_models; k++) {
            double a = p->models[k - 1].params, b = p->models[k].params;
            if (n <= b) {
                double f = b > a ? log(n / a) / log(b / a) : 0;
                return (k - 1) + (f < 0 ? 0 : f > 1 ? 1 : f);
            }
        }
        return p->n_models - 1;
    }
    case SL_PARAMS: {
        struct param_counts pc;
        model_params(&s->model, &pc);
        return (double)pc.total;
    }
    case SL_TOKENS:
        return s->tokens;
    case SL_BATCH:
        return (double)s->batch;
    case SL_SEQ:
        return (double)s->seq;
    case SL_MICRO:
        return (double)s->micro_batch;
    case SL_GPU: {
        int i = presets_gpu_index(p, s->gpu.id);
        return i < 0 ? 0 : i;
    }
    case SL_GPUS:
        return (double)s->gpus;
    case SL_TP:
        return (double)s->tp;
    case SL_PP:
        return (double)s->pp;
    case SL_ZERO:
        return s->zero;
    case SL_DTYPE:
        return dtype_index(s->dtype);
    case SL_MASTER:
        return s->master_weights;
    case SL_OPTIMIZER:
        return s->optimizer;
    case SL_RECOMPUTE:
        return s->recompute;
    case SL_FLASH:
        return s->flash;
    case SL_SP:
        return s->sp;
    case SL_MFU:
        return s->mfu;
    case SL_FLOPS:
        return s->flops_mode == FLOPS_DETAILED;
    case SL_COUNT:
        break;
    }
    return 0;
}

double slider_position(const struct presets *p, const struct scenario *s, enum slider_id id)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(p, s, id, vals, SLIDER_MAX_STEPS);
    double v = slider_value(p, s, id);
    if (n < 2 || v <= vals[0])
        return 0;
    if (v >= vals[n - 1])
        return 1;
    int k = 1;
    while (k < n - 1 && vals[k] < v)
        k++;
    double a = vals[k - 1], b = vals[k], f;
    if (slider_info(id)->log && a > 0)
        f = log(v / a) / log(b / a);
    else
        f = (v - a) / (b - a);
    return ((k - 1) + f) / (n - 1);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int64_t to_count(double v)
{
    return (int64_t)llround(v);
}

bool slider_apply(const struct presets *p, struct scenario *s, enum slider_id id, double v)
{
    double lo = 0, hi = 0;
    slider_range(p, s, id, &lo, &hi);
    if (!(v == v))
        return false;
    v = clampd(v, lo, hi);
    int i = (int)llround(v);
    switch (id) {
    case SL_MODEL:
        if (p->n_models == 0)
            return false;
        s->model = p->models[i].arch;
        break;
    case SL_PARAMS: {
        struct model_arch m;
        /* Whole parameters: steps are round numbers already, typed ones stay exact. */
        if (!model_from_params(round(v), &m))
            return false;
        s->model = m;
        break;
    }
    case SL_TOKENS:
        s->tokens = v;
        break;
    case SL_BATCH:
        s->batch = to_count(v);
        break;
    case SL_SEQ:
        s->seq = to_count(v);
        break;
    case SL_MICRO:
        s->micro_batch = to_count(v);
        break;
    case SL_GPU:
        if (p->n_gpus == 0)
            return false;
        s->gpu = p->gpus[i];
        break;
    case SL_GPUS:
        s->gpus = to_count(v);
        break;
    case SL_TP:
        s->tp = to_count(v);
        break;
    case SL_PP:
        s->pp = to_count(v);
        break;
    case SL_ZERO:
        s->zero = i;
        break;
    case SL_DTYPE:
        s->dtype = dtype_steps[i];
        break;
    case SL_MASTER:
        s->master_weights = i != 0;
        break;
    case SL_OPTIMIZER:
        s->optimizer = (enum optimizer)i;
        break;
    case SL_RECOMPUTE:
        s->recompute = (enum recompute)i;
        break;
    case SL_FLASH:
        s->flash = i != 0;
        break;
    case SL_SP:
        s->sp = i != 0;
        break;
    case SL_MFU:
        s->mfu = v;
        break;
    case SL_FLOPS:
        s->flops_mode = i ? FLOPS_DETAILED : FLOPS_6ND;
        break;
    case SL_COUNT:
        return false;
    }
    return true;
}

bool slider_step(const struct presets *p, struct scenario *s, enum slider_id id, int delta)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(p, s, id, vals, SLIDER_MAX_STEPS);
    double v = slider_value(p, s, id);
    /* Off-grid values (typed, or a custom model size) move to the next step past them. */
    double eps = fabs(v) * 1e-9 + 1e-12;
    int k;
    if (delta > 0) {
        int i = 0;
        while (i < n && vals[i] <= v + eps)
            i++;
        if (i == n)
            return false;
        k = i + delta - 1 < n - 1 ? i + delta - 1 : n - 1;
    } else if (delta < 0) {
        int i = n - 1;
        while (i >= 0 && vals[i] >= v - eps)
            i--;
        if (i < 0)
            return false;
        k = i + delta + 1 > 0 ? i + delta + 1 : 0;
    } else {
        return false;
    }
    return slider_apply(p, s, id, vals[k]);
}

bool slider_set_position(const struct presets *p, struct scenario *s, enum slider_id id,
                         double frac)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(p, s, id, vals, SLIDER_MAX_STEPS);
    if (!(frac == frac))
        return false;
    frac = clampd(frac, 0, 1);
    int k = (int)lround(frac * (n - 1));
    return slider_apply(p, s, id, vals[k]);
}

bool slider_set_end(const struct presets *p, struct scenario *s, enum slider_id id, bool top)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(p, s, id, vals, SLIDER_MAX_STEPS);
    return slider_apply(p, s, id, top ? vals[n - 1] : vals[0]);
}

static bool parse_onoff(const char *t, bool *out)
{
    if (!strcasecmp(t, "on") || !strcasecmp(t, "1") || !strcasecmp(t, "true") || !strcasecmp(t, "yes")) {
        *out = true;
        return true;
    }
    if (!strcasecmp(t, "off") || !strcasecmp(t, "0") || !strcasecmp(t, "false") || !strcasecmp(t, "no")) {
        *out = false;
        return true;
    }
    return false;
}

bool slider_parse(const struct presets *p, struct scenario *s, enum slider_id id,
                  const char *text, char *err, size_t errlen)
{
    const struct slider_info *in = slider_info(id);
    char t[128];
    /* Trim blanks around the text. */
    while (isspace((unsigned char)*text))
        text++;
    snprintf(t, sizeof t, "%s", text);
    for (size_t l = strlen(t); l > 0 && isspace((unsigned char)t[l - 1]); l--)
        t[l - 1] = '\0';
    err[0] = '\0';
    if (!t[0]) {
        snprintf(err, errlen, "%s: no value typed", in->name);
        return false;
    }
    double v;
    bool b;
    switch (id) {
    case SL_MODEL: {
        /* A preset or file, or a parameter count for a custom model. */
        if (units_parse(t, &v))
            return slider_parse(p, s, SL_PARAMS, t, err, errlen);
        struct model_arch m;
        char e[SPEC_ERR_MAX];
        if (!spec_find_model(t, &m, e, sizeof e)) {
            snprintf(err, errlen, "model: %s", e);
            return false;
        }
        s->model = m;
        return true;
    }
    case SL_GPU: {
        struct gpu_spec g;
        char e[SPEC_ERR_MAX];
        if (!spec_find_gpu(t, &g, e, sizeof e)) {
            snprintf(err, errlen, "GPU: %s", e);
            return false;
        }
        s->gpu = g;
        return true;
    }
    case SL_DTYPE: {
        enum dtype d;
        if (!dtype_parse(t, &d) || !dtype_trains(d)) {
            snprintf(err, errlen, "dtype: '%s' is not fp32, tf32, bf16, fp16, fp8 or fp4", t);
            return false;
        }
        s->dtype = d;
        return true;
    }
    case SL_OPTIMIZER: {
        enum optimizer o;
        if (!optimizer_parse(t, &o)) {
            snprintf(err, errlen, "optimizer: '%s' is not adamw, sgd, adagrad or adam8bit", t);
            return false;
        }
        s->optimizer = o;
        return true;
    }
    case SL_RECOMPUTE: {
        enum recompute r;
        if (!recompute_parse(t, &r)) {
            snprintf(err, errlen, "recompute: '%s' is not none, selective, full or sqrt", t);
            return false;
        }
        s->recompute = r;
        return true;
    }
    case SL_MASTER:
    case SL_FLASH:
    case SL_SP:
        if (!parse_onoff(t, &b)) {
            snprintf(err, errlen, "%s: '%s' is not on or off", in->name, t);
            return false;
        }
        return slider_apply(p, s, id, b);
    case SL_FLOPS:
        if (!strcasecmp(t, "6nd"))
            return slider_apply(p, s, id, 0);
        if (!strcasecmp(t, "detailed"))
            return slider_apply(p, s, id, 1);
        snprintf(err, errlen, "FLOPs: '%s' is not 6nd or detailed", t);
        return false;
    case SL_MICRO:
        if (!strcasecmp(t, "auto"))
            return slider_apply(p, s, id, 0);
        break;
    default:
        break;
    }
    if (!units_parse(t, &v)) {
        snprintf(err, errlen, "%s: '%s' is not a number", in->name, t);
        return false;
    }
    double lo = 0, hi = 0;
    slider_range(p, s, id, &lo, &hi);
    if (v < lo || v > hi) {
        char a[32], c[32];
        snprintf(a, sizeof a, "%g", lo);
        snprintf(c, sizeof c, "%g", hi);
        snprintf(err, errlen, "%s: %s is outside %s..%s, clamped", in->name, t, a, c);
    }
    if (!slider_apply(p, s, id, v)) {
        snprintf(err, errlen, "%s: '%s' cannot be used", in->name, t);
        return false;
    }
    return true;
}

/* Powers of two from 1024 up read as binary k: 4096 -> "4k", 131072 -> "128k". */
static void format_pow2(int64_t v, char *buf, size_t n)
{
    if (v >= 1024 && v % 1024 == 0 && (v & (v - 1)) == 0) {
        if (v >= 1048576)
            snprintf(buf, n, "%lldM", (long long)(v / 1048576));
        else
            snprintf(buf, n, "%lldk", (long long)(v / 1024));
    } else {
        snprintf(buf, n, "%lld", (long long)v);
    }
}

void slider_format(const struct presets *p, const struct scenario *s, enum slider_id id,
                   char *buf, size_t n)
{
    (void)p;
    switch (id) {
    case SL_MODEL:
        snprintf(buf, n, "%s", s->model.id[0] ? s->model.id : "custom");
        break;
    case SL_PARAMS:
        units_count(slider_value(p, s, id), buf, n);
        break;
    case SL_TOKENS:
        units_count(s->tokens, buf, n);
        break;
    case SL_BATCH:
        format_pow2(s->batch, buf, n);
        break;
    case SL_SEQ:
        format_pow2(s->seq, buf, n);
        break;
    case SL_MICRO:
        if (s->micro_batch == 0)
            snprintf(buf, n, "auto %lld", (long long)scenario_micro_batch(s));
        else
            snprintf(buf, n, "%lld", (long long)s->micro_batch);
        break;
    case SL_GPU:
        snprintf(buf, n, "%s", s->gpu.id[0] ? s->gpu.id : s->gpu.name);
        break;
    case SL_GPUS:
    case SL_TP:
    case SL_PP:
        snprintf(buf, n, "%lld", (long long)slider_value(p, s, id));
        break;
    case SL_ZERO:
        snprintf(buf, n, s->zero == 3 ? "3 FSDP" : "%d", s->zero);
        break;
    case SL_DTYPE:
        snprintf(buf, n, "%s", dtype_name(s->dtype));
        break;
    case SL_MASTER:
        snprintf(buf, n, "%s", s->master_weights ? "fp32 on" : "off");
        break;
    case SL_OPTIMIZER:
        snprintf(buf, n, "%s", optimizer_name(s->optimizer));
        break;
    case SL_RECOMPUTE:
        snprintf(buf, n, "%s", recompute_name(s->recompute));
        break;
    case SL_FLASH:
        snprintf(buf, n, "%s", s->flash ? "on" : "off");
        break;
    case SL_SP:
        snprintf(buf, n, "%s", s->sp ? "on" : "off");
        break;
    case SL_MFU:
        snprintf(buf, n, "%.2f", s->mfu);
        break;
    case SL_FLOPS:
        snprintf(buf, n, "%s", s->flops_mode == FLOPS_6ND ? "6ND" : "detailed");
        break;
    case SL_COUNT:
        snprintf(buf, n, "?");
        break;
    }
}

bool slider_in_range(const struct presets *p, const struct scenario *s, enum slider_id id)
{
    double lo = 0, hi = 0;
    slider_range(p, s, id, &lo, &hi);
    double v = slider_value(p, s, id);
    return v == v && v >= lo - 1e-9 && v <= hi + 1e-9;
}
