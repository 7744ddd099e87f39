/* scenario.c - the inputs of a run: defaults, derived degrees and validation. */
#include "scenario.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spec.h"

static const struct {
    const char *name;
    int states;          /* optimizer state values per parameter */
    enum dtype dtype;    /* what each is held in */
    double flops;        /* FLOPs of one update per parameter */
} opt_table[OPT_COUNT] = {
    /* AdamW: m and v in fp32; ~12 FLOPs (two EMAs, sqrt, divide, decay, step). */
    [OPT_ADAMW] = {"adamw", 2, DTYPE_FP32, 12.0},
    /* SGD with momentum: one fp32 buffer; 4 FLOPs (momentum, decay, step). */
    [OPT_SGD] = {"sgd", 1, DTYPE_FP32, 4.0},
    /* AdaGrad: one fp32 sum of squares; 5 FLOPs (square, add, sqrt, divide, step). */
    [OPT_ADAGRAD] = {"adagrad", 1, DTYPE_FP32, 5.0},
    /* 8-bit Adam: m and v quantised to one byte each (block-wise scales negligible);
     * AdamW's arithmetic plus dequantise and requantise. */
    [OPT_ADAM8BIT] = {"adam8bit", 2, DTYPE_INT8, 16.0},
};

static const char *const recompute_names[RECOMPUTE_COUNT] = {
    [RECOMPUTE_NONE] = "none",
    [RECOMPUTE_SELECTIVE] = "selective",
    [RECOMPUTE_FULL] = "full",
    [RECOMPUTE_SQRT] = "sqrt",
};

const char *optimizer_name(enum optimizer o)
{
    return (unsigned)o < OPT_COUNT ? opt_table[o].name : "?";
}

bool optimizer_parse(const char *s, enum optimizer *out)
{
    for (int i = 0; s && i < OPT_COUNT; i++) {
        if (strcmp(s, opt_table[i].name) == 0) {
            *out = (enum optimizer)i;
            return true;
        }
    }
    return false;
}

int optimizer_states(enum optimizer o)
{
    return (unsigned)o < OPT_COUNT ? opt_table[o].states : 0;
}

enum dtype optimizer_state_dtype(enum optimizer o)
{
    return (unsigned)o < OPT_COUNT ? opt_table[o].dtype : DTYPE_FP32;
}

double optimizer_flops_per_param(enum optimizer o)
{
    return (unsigned)o < OPT_COUNT ? opt_table[o].flops : 0.0;
}

const char *recompute_name(enum recompute r)
{
    return (unsigned)r < RECOMPUTE_COUNT ? recompute_names[r] : "?";
}

bool recompute_parse(const char *s, enum recompute *out)
{
    for (int i = 0; s && i < RECOMPUTE_COUNT; i++) {
        if (strcmp(s, recompute_names[i]) == 0) {
            *out = (enum recompute)i;
            return true;
        }
    }
    return false;
}

void scenario_default(struct scenario *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "lecture: 70B on 15T tokens, 1024 H100s");
    (void)model_from_params(70e9, &s->model);
    /* The H100 SXM preset as found on the search path, so that a user's own h100-sxm.json
     * (in ~/.config/rooftop/gpus, say) is the default's GPU too, as it is for --gpu
     * h100-sxm; the built-in figures (the shipped file's) when no preset is found. */
    char err[SPEC_ERR_MAX];
    if (!spec_find_gpu("h100-sxm", &s->gpu, err, sizeof err))
        gpu_builtin_h100(&s->gpu);
    s->gpus = 1024;
    /* The lecture's per-GPU arithmetic: model state fully sharded over the data-parallel
     * ranks (ZeRO-3 / FSDP), no tensor or pipeline parallelism, so any GPU count that
     * divides the batch is valid. */
    s->tp = 1;
    s->pp = 1;
    s->sp = false;
    s->zero = 3;
    s->dtype = DTYPE_BF16;
    s->master_weights = false; /* the 2026 lecture's 12 bytes per parameter */
    s->optimizer = OPT_ADAMW;
    s->batch = 2048; /* 4M tokens per step: 2 micro-batches of one sequence per GPU */
    s->micro_batch = 1;
    s->seq = 2048; /* at 4096 the activations of a 70B model outgrow 80 GB without TP */
    s->tokens = 15e12;
    s->mfu = 0.5;
    s->recompute = RECOMPUTE_NONE;
    s->flash = true;
    s->dropout = false;
    s->flops_mode = FLOPS_6ND;
    s->vpp = 1;
    /* Exposed unless said otherwise: Megatron-LM's own data-parallel wrapper ran the
     * gradient all-reduce after the backward pass (Narayanan et al. 2021). */
    s->dp_overlap = 0.0;
    s->node_gpus = 0;
    s->network_bw = 0.0;
}

int64_t scenario_dp(const struct scenario *s)
{
    if (s->tp < 1 || s->pp < 1 || s->gpus < 1)
        return 0;
    int64_t mp = s->tp * s->pp;
    return s->gpus % mp == 0 ? s->gpus / mp : 0;
}

int64_t scenario_micro_batch(const struct scenario *s)
{
    if (s->micro_batch > 0)
        return s->micro_batch;
    int64_t dp = scenario_dp(s);
    return dp > 0 && s->batch % dp == 0 ? s->batch / dp : 0;
}

int64_t scenario_accum_steps(const struct scenario *s)
{
    int64_t dp = scenario_dp(s), b = scenario_micro_batch(s);
    if (dp <= 0 || b <= 0 || s->batch % (b * dp) != 0)
        return 0;
    return s->batch / (b * dp);
}

#define MAX_GPUS 100000000LL /* a hundred million: far past any cluster, far from overflow */

bool scenario_validate(const struct scenario *s, char *err, int errlen)
{
    size_t n = (size_t)errlen;
    char merr[256];
    if (!model_validate(&s->model, merr, (int)sizeof merr)) {
        snprintf(err, n, "model %s: %s", s->model.id[0] ? s->model.id : "(custom)", merr);
        return false;
    }
    if (s->gpus < 1 || s->gpus > MAX_GPUS) {
        snprintf(err, n, "--gpus: must be between 1 and %lld, got %lld", MAX_GPUS, (long long)s->gpus);
        return false;
    }
    if (s->tp < 1 || s->tp > s->gpus) {
        snprintf(err, n, "--tp: must be between 1 and --gpus (%lld), got %lld", (long long)s->gpus,
                 (long long)s->tp);
        return false;
    }
    if (s->pp < 1 || s->pp > s->gpus) {
        snprintf(err, n, "--pp: must be between 1 and --gpus (%lld), got %lld", (long long)s->gpus,
                 (long long)s->pp);
        return false;
    }
    if (scenario_dp(s) == 0) {
        snprintf(err, n, "--gpus: %lld is not a multiple of --tp x --pp = %lld", (long long)s->gpus,
                 (long long)(s->tp * s->pp));
        return false;
    }
    if (s->pp > s->model.layers) {
        snprintf(err, n, "--pp: %lld pipeline stages for %lld layers", (long long)s->pp,
                 (long long)s->model.layers);
        return false;
    }
    if (s->model.heads % s->tp != 0) {
        snprintf(err, n, "--tp: %lld does not divide the %lld attention heads", (long long)s->tp,
                 (long long)s->model.heads);
        return false;
    }
    if (s->sp && s->tp == 1) {
        /* Allowed: sequence parallelism over one rank is a no-op, not an error. */
    }
    if (s->zero < 0 || s->zero > 3) {
        snprintf(err, n, "--zero: must be 0, 1, 2 or 3, got %d", s->zero);
        return false;
    }
    if (!dtype_trains(s->dtype)) {
        snprintf(err, n, "--dtype: must be fp32, tf32, bf16, fp16, fp8 or fp4");
        return false;
    }
    if ((unsigned)s->optimizer >= OPT_COUNT) {
        snprintf(err, n, "--optimizer: must be adamw, sgd, adagrad or adam8bit");
        return false;
    }
    if ((unsigned)s->recompute >= RECOMPUTE_COUNT) {
        snprintf(err, n, "--recompute: must be none, selective, full or sqrt");
        return false;
    }
    if (s->seq < 1 || s->seq > 100000000LL) {
        snprintf(err, n, "--seq: must be between 1 and 1e8, got %lld", (long long)s->seq);
        return false;
    }
    if (s->batch < 1 || s->batch > 1000000000LL) {
        snprintf(err, n, "--batch: must be between 1 and 1e9 sequences, got %lld", (long long)s->batch);
        return false;
    }
    int64_t dp = scenario_dp(s);
    if (s->micro_batch < 0 || s->micro_batch > s->batch) {
        snprintf(err, n, "--micro-batch: must be between 1 and --batch (%lld), got %lld",
                 (long long)s->batch, (long long)s->micro_batch);
        return false;
    }
    if (s->micro_batch == 0 && s->batch % dp != 0) {
        snprintf(err, n, "--batch: %lld sequences do not split over %lld data-parallel ranks",
                 (long long)s->batch, (long long)dp);
        return false;
    }
    if (scenario_accum_steps(s) == 0) {
        snprintf(err, n,
                 "--batch: %lld is not a multiple of --micro-batch %lld x data-parallel ranks %lld",
                 (long long)s->batch, (long long)scenario_micro_batch(s), (long long)dp);
        return false;
    }
    if (!(s->tokens >= 1) || !(s->tokens <= 1e18)) {
        snprintf(err, n, "--tokens: must be between 1 and 1e18, got %g", s->tokens);
        return false;
    }
    if (!(s->mfu > 0) || !(s->mfu <= 1)) {
        snprintf(err, n, "--mfu: must be in (0, 1], got %g", s->mfu);
        return false;
    }
    if (s->vpp < 1 || s->vpp > s->model.layers) {
        snprintf(err, n, "--vpp: must be between 1 and the %lld layers, got %lld",
                 (long long)s->model.layers, (long long)s->vpp);
        return false;
    }
    if (s->vpp > 1 && s->pp == 1) {
        snprintf(err, n, "--vpp: %lld virtual stages need pipeline parallelism (--pp above 1)",
                 (long long)s->vpp);
        return false;
    }
    if (s->vpp > 1 && s->model.layers % (s->pp * s->vpp) != 0) {
        snprintf(err, n, "--vpp: %lld layers do not split into --pp %lld x --vpp %lld chunks",
                 (long long)s->model.layers, (long long)s->pp, (long long)s->vpp);
        return false;
    }
    if (s->vpp > 1 && scenario_accum_steps(s) % s->pp != 0) {
        /* Megatron-LM's interleaved schedule runs micro-batches in groups of pp. */
        snprintf(err, n, "--vpp: the interleaved schedule needs micro-batches per step (%lld) "
                 "to be a multiple of --pp %lld", (long long)scenario_accum_steps(s), (long long)s->pp);
        return false;
    }
    if (!(s->dp_overlap >= 0) || !(s->dp_overlap <= 1)) {
        snprintf(err, n, "--dp-overlap: must be in [0, 1], got %g", s->dp_overlap);
        return false;
    }
    if (s->node_gpus < 0 || s->node_gpus > MAX_GPUS) {
        snprintf(err, n, "--node-gpus: must be between 1 and %lld, got %lld", MAX_GPUS,
                 (long long)s->node_gpus);
        return false;
    }
    if (!(s->network_bw >= 0) || !(s->network_bw <= 1e16)) {
        snprintf(err, n, "--network-bw: must be between 0 and 1e16 bytes/s, got %g", s->network_bw);
        return false;
    }
    if (!(s->gpu.memory_bytes > 0) || !(s->gpu.bandwidth > 0)) {
        snprintf(err, n, "--gpu: %s has no memory or bandwidth", s->gpu.id[0] ? s->gpu.id : "(gpu)");
        return false;
    }
    if (!gpu_has_dtype(&s->gpu, s->dtype)) {
        /* Timing it at another format's rate would print a number nobody can reach. */
        char has[128];
        gpu_dtypes(&s->gpu, has, sizeof has);
        snprintf(err, n, "--dtype: the %s has no %s peak; it has %s",
                 s->gpu.name[0] ? s->gpu.name : s->gpu.id[0] ? s->gpu.id : "GPU",
                 peak_name(dtype_peak(s->dtype)), has);
        return false;
    }
    return true;
}
