/* scenario.c - the inputs of a run: defaults, derived degrees and validation. */
#include "scenario.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spec.h"
#include "units.h"

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

const char *mfu_mode_name(enum mfu_mode m)
{
    static const char *const names[MFU_MODE_COUNT] = {"typed", "measured", "predicted"};
    return m >= 0 && m < MFU_MODE_COUNT ? names[m] : "?";
}

bool scenario_uneven_stages(const struct scenario *s)
{
    return s->first_stage_layers > 0 || s->last_stage_layers > 0;
}

/* The stages between the given first and last, and the layers they share. */
static void middle_stages(const struct scenario *s, int64_t *stages, int64_t *layers)
{
    *stages = s->pp - (s->first_stage_layers > 0 ? 1 : 0) - (s->last_stage_layers > 0 ? 1 : 0);
    *layers = s->model.layers - s->first_stage_layers - s->last_stage_layers;
}

/* Whether given first and last stages leave the stages between an equal share of at least
 * one layer each (and there is a pipeline). */
static bool uneven_split_ok(const struct scenario *s)
{
    int64_t mid, rest;
    middle_stages(s, &mid, &rest);
    return s->pp >= 2 && rest >= 0 && (mid == 0 ? rest == 0 : rest >= mid && rest % mid == 0);
}

/* The fewest layers a stage holds (interleaving needs vpp of them). */
static int64_t fewest_stage_layers(const struct scenario *s)
{
    if (!scenario_uneven_stages(s))
        return s->pp > 0 ? s->model.layers / s->pp : 0;
    int64_t least = s->model.layers;
    for (int64_t i = 0; i < s->pp; i++)
        if (scenario_stage_layers(s, i) < least)
            least = scenario_stage_layers(s, i);
    return least;
}

int64_t scenario_stage_layers(const struct scenario *s, int64_t i)
{
    if (i < 0 || i >= s->pp)
        return 0;
    if (i == 0 && s->first_stage_layers > 0)
        return s->first_stage_layers;
    if (i == s->pp - 1 && s->last_stage_layers > 0)
        return s->last_stage_layers;
    int64_t mid, rest;
    middle_stages(s, &mid, &rest);
    return mid > 0 ? rest / mid : 0;
}

const char *framework_name(enum framework f)
{
    static const char *const names[FRAMEWORK_COUNT] = {"megatron", "deepspeed", "fsdp"};
    return (unsigned)f < FRAMEWORK_COUNT ? names[f] : "?";
}

const char *attn_flops_name(enum attn_flops a)
{
    return a == ATTN_FLOPS_CAUSAL ? "causal" : a == ATTN_FLOPS_FULL ? "full" : "?";
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

void scenario_title(const struct scenario *s, char *buf, size_t n)
{
    if (n == 0)
        return;
    if (s->name[0] != '\0' && strcmp(s->name, "custom") != 0)
        snprintf(buf, n, "%s", s->name);
    else
        snprintf(buf, n, "%s on %lld x %s", s->model.name[0] ? s->model.name : s->model.id,
                 (long long)s->gpus, s->gpu.name[0] ? s->gpu.name : s->gpu.id);
}

void scenario_default(struct scenario *s)
{
    memset(s, 0, sizeof *s);
    /* No name: a scenario file without "name" must not take a title describing the
     * lecture's question over another model (issue 8); the title is derived. */
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
    s->cp = 1;
    s->ep = 1;
    s->sp = false;
    s->zero = 3;
    s->dtype = DTYPE_BF16;
    s->master_weights = false; /* the 2026 lecture's 12 bytes per parameter */
    s->grad_dtype = SCENARIO_DTYPE_AUTO;
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
    s->attention_flops = ATTN_FLOPS_FULL;
    /* Released parameter counts are of the unpadded vocabulary: no padding unless asked. */
    s->vocab_pad = 0;
    s->vpp = 1;
    /* Megatron-LM, hiding what its default overlap flags hide (src/framework.h). */
    s->framework = FRAMEWORK_MEGATRON;
    s->dp_overlap = SCENARIO_OVERLAP_AUTO;
    s->node_gpus = 0;
    s->network_bw = 0.0;
    s->memory_reserve = SCENARIO_MEMORY_RESERVE_DEFAULT;
    /* No price is a fact: none unless given (--price). */
    s->price = 0.0;
    s->pue = SCENARIO_PUE_DEFAULT;
    /* Serving: infer_default's. */
    s->prompt = SCENARIO_PROMPT_DEFAULT;
    s->generate = SCENARIO_GENERATE_DEFAULT;
    s->weights_dtype = SCENARIO_DTYPE_AUTO;
    s->kv_dtype = SCENARIO_DTYPE_AUTO;
    s->compute_eff = 0.0;
    s->memory_eff = 0.0;
}

bool scenario_master_copy(const struct scenario *s)
{
    return s->master_weights && dtype_bytes(s->dtype) < 4.0;
}

/* The GPUs one model replica spans: tp x pp x cp; 0 when a degree is below 1 or the product
 * passes the GPU count (so that no product of absurd degrees overflows). */
static int64_t replica_gpus(const struct scenario *s)
{
    if (s->tp < 1 || s->pp < 1 || s->cp < 1 || s->gpus < 1)
        return 0;
    if (s->tp > s->gpus || s->pp > s->gpus || s->cp > s->gpus)
        return 0;
    int64_t mp = s->tp * s->pp;
    if (mp > s->gpus || s->cp > s->gpus / mp)
        return 0;
    return mp * s->cp;
}

int64_t scenario_dp(const struct scenario *s)
{
    /* Megatron-LM (parallel_state.initialize_model_parallel): data_parallel_size =
     * world_size / (tensor x pipeline x context). */
    int64_t mp = replica_gpus(s);
    return mp > 0 && s->gpus % mp == 0 ? s->gpus / mp : 0;
}

int64_t scenario_dp_cp(const struct scenario *s)
{
    return scenario_dp(s) * (s->cp < 1 ? 0 : s->cp);
}

int64_t scenario_vocab(const struct scenario *s)
{
    const int64_t v = s->model.vocab;
    if (s->vocab_pad <= 0 || v < 1 || s->tp < 1)
        return v;
    /* Megatron-LM (megatron/training/tokenizer, _vocab_size_with_padding): multiple =
     * make_vocab_size_divisible_by x tensor_model_parallel_size, and the vocabulary grows to
     * the next multiple of it, so that each tensor-parallel rank holds an equal, aligned slice
     * of the embedding and the LM head. */
    const int64_t unit = s->vocab_pad * s->tp;
    return (v + unit - 1) / unit * unit;
}

void scenario_trained_model(const struct scenario *s, struct model_arch *out)
{
    *out = s->model;
    out->vocab = scenario_vocab(s);
}

double scenario_expert_params(const struct scenario *s)
{
    const struct model_arch *m = &s->model;
    if (!model_is_moe(m))
        return 0.0;
    double mats = model_mlp_gated(m->mlp) ? 3.0 : 2.0;
    return (double)model_moe_layers(m) * (double)m->experts * mats * (double)m->d_model *
           (double)model_expert_ffn(m);
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

/* One problem: the input at fault and what is wrong, without a flag's spelling (the dashboard
 * names inputs by their labels, the command line by their flags). */
#define FAIL(k, ...)                                                                             \
    do {                                                                                         \
        *key = (k);                                                                              \
        snprintf(msg, n, __VA_ARGS__);                                                           \
        return false;                                                                            \
    } while (0)

/* The uneven pipeline stages: in range, on a pipeline, the stages between them an equal
 * share, each stage at least vpp layers when interleaved. */
static bool check_stages(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (s->first_stage_layers < 0 || s->first_stage_layers > s->model.layers)
        FAIL("decoder_first_pipeline_num_layers", "must be between 1 and the %lld layers, got %lld",
             (long long)s->model.layers, (long long)s->first_stage_layers);
    if (s->last_stage_layers < 0 || s->last_stage_layers > s->model.layers)
        FAIL("decoder_last_pipeline_num_layers", "must be between 1 and the %lld layers, got %lld",
             (long long)s->model.layers, (long long)s->last_stage_layers);
    if (scenario_uneven_stages(s)) {
        const char *which = s->first_stage_layers > 0 ? "decoder_first_pipeline_num_layers"
                                                      : "decoder_last_pipeline_num_layers";
        int64_t mid, rest;
        middle_stages(s, &mid, &rest);
        if (s->pp < 2)
            FAIL(which, "uneven stages need pipeline parallelism (pp above 1)");
        if (!uneven_split_ok(s))
            FAIL(which, "the %lld layers left for the %lld stages between do not split evenly",
                 (long long)rest, (long long)mid);
        for (int64_t i = 0; s->vpp > 1 && i < s->pp; i++)
            if (scenario_stage_layers(s, i) < s->vpp)
                FAIL("vpp", "stage %lld holds %lld layers, fewer than vpp %lld chunks", (long long)i,
                     (long long)scenario_stage_layers(s, i), (long long)s->vpp);
    }
    return true;
}

bool scenario_check(const struct scenario *s, const char **key, char *msg, size_t n)
{
    char merr[256];
    if (!model_validate(&s->model, merr, (int)sizeof merr))
        FAIL("model", "%s: %s", s->model.id[0] ? s->model.id : "(custom)", merr);
    if (s->gpus < 1 || s->gpus > MAX_GPUS)
        FAIL("gpus", "must be between 1 and %lld, got %lld", MAX_GPUS, (long long)s->gpus);
    if (s->tp < 1 || s->tp > s->gpus)
        FAIL("tp", "must be between 1 and the GPU count (%lld), got %lld", (long long)s->gpus,
             (long long)s->tp);
    if (s->pp < 1 || s->pp > s->gpus)
        FAIL("pp", "must be between 1 and the GPU count (%lld), got %lld", (long long)s->gpus,
             (long long)s->pp);
    if (s->cp < 1 || s->cp > s->gpus)
        FAIL("cp", "must be between 1 and the GPU count (%lld), got %lld", (long long)s->gpus,
             (long long)s->cp);
    /* The degree at fault is named, as rooftop infer names --tp: the model's own bound
     * first, then a degree that alone does not divide the GPUs; the GPU count only when
     * each does and their product does not (1000 GPUs at tp 8, pp 4, cp 2). */
    if (s->model.heads % s->tp != 0)
        FAIL("tp", "%lld does not divide the %lld attention heads", (long long)s->tp,
             (long long)s->model.heads);
    if (s->pp > s->model.layers)
        FAIL("pp", "%lld pipeline stages for %lld layers", (long long)s->pp,
             (long long)s->model.layers);
    if (scenario_dp(s) == 0) {
        static const char *const deg_key[] = {"tp", "pp", "cp"};
        const int64_t deg[] = {s->tp, s->pp, s->cp};
        for (int k = 0; k < 3; k++)
            if (s->gpus % deg[k] != 0)
                FAIL(deg_key[k], "%lld does not divide the %lld GPUs", (long long)deg[k],
                     (long long)s->gpus);
        if (s->cp > 1)
            FAIL("gpus", "%lld is not a multiple of tp x pp x cp = %lld x %lld x %lld",
                 (long long)s->gpus, (long long)s->tp, (long long)s->pp, (long long)s->cp);
        FAIL("gpus", "%lld is not a multiple of tp x pp = %lld", (long long)s->gpus,
             (long long)(s->tp * s->pp));
    }
    if (s->zero < 0 || s->zero > 3)
        FAIL("zero", "must be 0, 1, 2 or 3, got %d", s->zero);
    if (!dtype_trains(s->dtype))
        FAIL("dtype", "must be fp32, tf32, bf16, fp16, fp8 or fp4");
    if (s->grad_dtype != SCENARIO_DTYPE_AUTO && s->grad_dtype != DTYPE_FP32 &&
        s->grad_dtype != DTYPE_BF16 && s->grad_dtype != DTYPE_FP16)
        FAIL("grad_dtype", "must be auto, fp32, bf16 or fp16");
    if ((unsigned)s->optimizer >= OPT_COUNT)
        FAIL("optimizer", "must be adamw, sgd, adagrad or adam8bit");
    if ((unsigned)s->recompute >= RECOMPUTE_COUNT)
        FAIL("recompute", "must be none, selective, full or sqrt");
    if (s->seq < 1 || s->seq > 100000000LL)
        FAIL("seq", "must be between 1 and 100M, got %lld", (long long)s->seq);
    /* Megatron-LM's context parallelism splits each sequence into 2 x cp chunks and gives rank
     * r chunks r and 2cp-1-r, so that every rank has an equal share of causal attention's work
     * (get_batch_on_this_cp_rank views the sequence as 2 x cp equal chunks). */
    if (s->cp > 1 && s->seq % (2 * s->cp) != 0)
        FAIL("cp", "the %lld-token sequence does not split into 2 x cp = %lld equal chunks "
                   "(Megatron-LM's load-balanced causal split)",
             (long long)s->seq, (long long)(2 * s->cp));
    if (s->ep < 1 || s->ep > s->gpus)
        FAIL("ep", "must be between 1 and the GPU count (%lld), got %lld", (long long)s->gpus,
             (long long)s->ep);
    /* No MoE layer: experts <= 1, or every layer kept dense (dense_layers = layers). */
    if (s->ep > 1 && model_moe_layers(&s->model) == 0)
        FAIL("ep", "%lld expert-parallel ranks for a dense model (no routed experts%s)",
             (long long)s->ep, s->model.experts > 1 ? ": all its layers are dense" : "");
    if (s->ep > 1 && s->model.experts % s->ep != 0)
        FAIL("ep", "%lld does not divide the %lld routed experts", (long long)s->ep,
             (long long)s->model.experts);
    /* Megatron-LM (parallel_state.initialize_model_parallel) raises unless
     * data_parallel_size x context_parallel_size is divisible by expert_model_parallel_size:
     * the expert-parallel ranks are carved out of the ranks that hold the same dense layers. */
    if (s->ep > 1 && scenario_dp_cp(s) % s->ep != 0)
        FAIL("ep", "%lld does not divide data x context parallel = %lld x %lld",
             (long long)s->ep, (long long)scenario_dp(s), (long long)s->cp);
    /* Megatron-LM (TransformerConfig): "When using expert parallelism and tensor parallelism,
     * sequence parallelism must be used" (the dispatcher routes each rank's own tokens). */
    if (s->ep > 1 && s->tp > 1 && !s->sp)
        FAIL("ep", "%lld with tensor parallelism needs sequence parallelism on (Megatron-LM)",
             (long long)s->ep);
    if (s->batch < 1 || s->batch > 1000000000LL)
        FAIL("batch", "must be between 1 and 1B sequences, got %lld", (long long)s->batch);
    int64_t dp = scenario_dp(s);
    if (s->micro_batch < 0 || s->micro_batch > s->batch)
        FAIL("micro_batch", "must be between 1 and the batch (%lld), got %lld",
             (long long)s->batch, (long long)s->micro_batch);
    if (s->micro_batch == 0 && s->batch % dp != 0)
        FAIL("batch", "%lld sequences do not split over %lld data-parallel ranks",
             (long long)s->batch, (long long)dp);
    if (scenario_accum_steps(s) == 0)
        FAIL("batch", "%lld is not a multiple of micro-batch %lld x data-parallel ranks %lld",
             (long long)s->batch, (long long)scenario_micro_batch(s), (long long)dp);
    if (s->vocab_pad < 0 || s->vocab_pad > 1000000)
        FAIL("vocab_pad", "must be between 0 (no padding) and 1M, got %lld",
             (long long)s->vocab_pad);
    if (s->moe_capacity != 0 && !(s->moe_capacity >= 0.1 && s->moe_capacity <= 16))
        FAIL("moe_capacity", "must be 0 (dropless) or between 0.1 and 16, got %g",
             s->moe_capacity);
    if ((unsigned)s->attention_flops >= ATTN_FLOPS_COUNT)
        FAIL("attention_flops", "must be causal or full");
    if (!(s->tokens >= 1) || !(s->tokens <= 1e18))
        FAIL("tokens", "must be between 1 and 1e18, got %g", s->tokens);
    if (!(s->mfu >= 0.001) || !(s->mfu <= 1))
        FAIL("mfu", "must be between 0.001 and 1, got %g", s->mfu);
    if (s->vpp < 1 || s->vpp > s->model.layers)
        FAIL("vpp", "must be between 1 and the %lld layers, got %lld", (long long)s->model.layers,
             (long long)s->vpp);
    if (s->vpp > 1 && s->pp == 1)
        FAIL("vpp", "%lld virtual stages need pipeline parallelism (pp above 1)",
             (long long)s->vpp);
    if (!check_stages(s, key, msg, n))
        return false;
    if (s->vpp > 1 && !scenario_uneven_stages(s) && s->model.layers % (s->pp * s->vpp) != 0)
        FAIL("vpp", "%lld layers do not split into pp %lld x vpp %lld chunks",
             (long long)s->model.layers, (long long)s->pp, (long long)s->vpp);
    /* Megatron-LM's interleaved schedule runs micro-batches in groups of pp. */
    if (s->vpp > 1 && scenario_accum_steps(s) % s->pp != 0)
        FAIL("vpp", "the interleaved schedule needs micro-batches per step (%lld) to be a "
                    "multiple of pp %lld",
             (long long)scenario_accum_steps(s), (long long)s->pp);
    if (s->dp_overlap != SCENARIO_OVERLAP_AUTO && (!(s->dp_overlap >= 0) || !(s->dp_overlap <= 1)))
        FAIL("dp_overlap", "must be in [0, 1] or auto, got %g", s->dp_overlap);
    if ((unsigned)s->framework >= FRAMEWORK_COUNT)
        FAIL("framework", "must be megatron, deepspeed or fsdp");
    if (s->node_gpus < 0 || s->node_gpus > MAX_GPUS)
        FAIL("node_gpus", "must be between 1 and %lld, got %lld", MAX_GPUS,
             (long long)s->node_gpus);
    if (!(s->network_bw >= 0) || !(s->network_bw <= 1e16))
        FAIL("network_bw", "must be between 0 and 1e16 bytes/s, got %g", s->network_bw);
    if (!(s->gpu.memory_bytes > 0) || !(s->gpu.bandwidth > 0))
        FAIL("gpu", "%s has no memory or bandwidth", s->gpu.id[0] ? s->gpu.id : "(gpu)");
    if (!(s->memory_reserve >= 0) || !(s->memory_reserve < s->gpu.memory_bytes)) {
        /* In the units the option is typed in (80GB, not 8e+10), bytes exact beside them. */
        char cap[32], got[32];
        units_bytes(s->gpu.memory_bytes, cap, sizeof cap);
        units_bytes(s->memory_reserve, got, sizeof got);
        FAIL("memory_reserve", "must be at least 0 and below the GPU's %s (%.0f bytes), got %s "
             "(%.0f bytes)", cap, s->gpu.memory_bytes, got, s->memory_reserve);
    }
    if (!gpu_has_dtype(&s->gpu, s->dtype)) {
        /* Timing it at another format's rate would print a number nobody can reach. */
        char has[128];
        gpu_dtypes(&s->gpu, has, sizeof has);
        FAIL("dtype", "the %s has no %s peak; it has %s",
             s->gpu.name[0] ? s->gpu.name : s->gpu.id[0] ? s->gpu.id : "GPU",
             peak_name(dtype_peak(s->dtype)), has);
    }
    return true;
}
#undef FAIL

bool scenario_validate(const struct scenario *s, char *err, int errlen)
{
    const char *key = "";
    char msg[512];
    if (scenario_check(s, &key, msg, sizeof msg))
        return true;
    /* The command line's form: the flag, then what is wrong. */
    char flag[64];
    snprintf(flag, sizeof flag, "%s", key);
    for (char *c = flag; *c; c++)
        if (*c == '_')
            *c = '-';
    snprintf(err, (size_t)errlen, "--%s: %s", flag, msg);
    return false;
}

static int64_t round_up(int64_t v, int64_t unit)
{
    return unit > 0 ? (v + unit - 1) / unit * unit : v;
}

static bool is(const char *moved, const char *key)
{
    return moved != NULL && strcmp(moved, key) == 0;
}

void scenario_settle(struct scenario *c, const struct scenario *want, const char *moved,
                     char *note, size_t n)
{
    if (n > 0)
        note[0] = '\0';
    bool gpus_fixed = is(moved, "gpus");
    if (!is(moved, "tp")) {
        int64_t t = want->tp < 1 ? 1 : want->tp;
        if (t > c->gpus && gpus_fixed)
            t = c->gpus;
        if (c->model.heads > 0) {
            /* The largest degree that divides the heads and leaves the GPU count as it is
             * (1 always does). */
            int64_t g = gpus_fixed ? c->gpus : want->gpus;
            int64_t p = want->pp < 1 ? 1 : want->pp;
            int64_t x = want->cp < 1 ? 1 : want->cp;
            int64_t keep = t;
            while (keep > 1 && (c->model.heads % keep != 0 || g % (keep * p * x) != 0))
                keep--;
            t = keep;
        }
        if (t != want->tp)
            snprintf(note, n, "tensor degree %lld (not %lld): it must divide the %lld heads%s",
                     (long long)t, (long long)want->tp, (long long)c->model.heads,
                     gpus_fixed ? " and the GPU count" : "");
        c->tp = t;
    }
    if (!is(moved, "pp")) {
        int64_t p = want->pp < 1 ? 1 : want->pp;
        if (c->model.layers > 0 && p > c->model.layers)
            p = c->model.layers;
        while (gpus_fixed && p > 1 && c->gpus % (c->tp * p) != 0)
            p--;
        if (p != want->pp)
            snprintf(note, n, "pipeline degree %lld (not %lld): %lld layers%s", (long long)p,
                     (long long)want->pp, (long long)c->model.layers,
                     gpus_fixed ? " and the GPU count" : "");
        c->pp = p;
    }
    if (!is(moved, "cp")) {
        /* The largest degree up to the one asked for that splits the sequence into 2 x cp
         * equal chunks (Megatron-LM's causal load balance) and, with the GPU count fixed,
         * leaves it a multiple of tp x pp x cp. */
        int64_t x = want->cp < 1 ? 1 : want->cp;
        if (gpus_fixed && x > c->gpus)
            x = c->gpus;
        if (x > c->seq / 2)
            x = c->seq / 2 < 1 ? 1 : c->seq / 2; /* 2 x cp chunks of at least a token */
        while (x > 1 && (c->seq % (2 * x) != 0 ||
                         (gpus_fixed && c->gpus % (c->tp * c->pp * x) != 0)))
            x--;
        if (x != want->cp)
            snprintf(note, n, "context degree %lld (not %lld): the %lld-token sequence must "
                              "split into 2 x cp chunks%s",
                     (long long)x, (long long)want->cp, (long long)c->seq,
                     gpus_fixed ? " and the GPU count into tp x pp x cp" : "");
        c->cp = x;
    }
    if (!gpus_fixed) {
        int64_t unit = c->tp * c->pp * c->cp;
        int64_t g = round_up(want->gpus < 1 ? 1 : want->gpus, unit);
        if (g != want->gpus)
            snprintf(note, n, "GPUs %lld (not %lld): a multiple of tensor x pipeline%s = %lld",
                     (long long)g, (long long)want->gpus, c->cp > 1 ? " x context" : "",
                     (long long)unit);
        c->gpus = g;
    }
    if (!is(moved, "ep")) {
        /* The largest degree up to the one asked for that divides the routed experts and the
         * data x context ranks (Megatron-LM); 1 for a dense model. */
        int64_t e = want->ep < 1 ? 1 : want->ep;
        int64_t ranks = scenario_dp_cp(c);
        const bool no_sp = c->tp > 1 && !c->sp; /* Megatron needs sp with tp and ep */
        const bool dense = model_moe_layers(&c->model) == 0;
        if (dense || no_sp)
            e = 1;
        if (e > 1 && e > c->model.experts)
            e = c->model.experts;
        while (e > 1 && (c->model.experts % e != 0 || ranks <= 0 || ranks % e != 0))
            e--;
        if (e != want->ep)
            snprintf(note, n, "expert degree %lld (not %lld): %s", (long long)e,
                     (long long)want->ep,
                     dense ? "the model has no routed experts"
                     : no_sp ? "with tensor parallelism it needs sequence parallelism on"
                             : "it must divide the routed experts and data x context parallel");
        c->ep = e;
    }
    if (!is(moved, "micro_batch")) {
        int64_t dp = scenario_dp(c);
        int64_t m = want->micro_batch;
        if (dp > 0 && m > 0 && m * dp > c->batch)
            m = c->batch / dp;
        while (dp > 0 && m > 1 && c->batch % (m * dp) != 0)
            m--;
        if (m < 1 && want->micro_batch > 0)
            m = want->micro_batch; /* nothing splits: validation names the batch */
        if (m != want->micro_batch)
            snprintf(note, n, "micro-batch %lld (not %lld): it must split the batch over %lld "
                              "data-parallel ranks",
                     (long long)m, (long long)want->micro_batch, (long long)dp);
        c->micro_batch = m;
    }
    if (scenario_uneven_stages(c) && !uneven_split_ok(c)) {
        /* Given first and last stages that this pipeline cannot hold: the even split. */
        c->first_stage_layers = 0;
        c->last_stage_layers = 0;
        snprintf(note, n, "uneven stages off: the first and last stages do not fit pp %lld",
                 (long long)c->pp);
    }
    if (!is(moved, "vpp") && want->vpp > 1) {
        /* Interleaving needs the layers to split into pp x vpp chunks (with uneven stages:
         * vpp layers on every stage) and the micro-batches to come in groups of pp
         * (Megatron-LM); where they do not, the plain schedule. */
        int64_t v = want->vpp;
        int64_t m = scenario_accum_steps(c);
        bool splits = scenario_uneven_stages(c) ? fewest_stage_layers(c) >= v
                                                : c->model.layers % (c->pp * v) == 0;
        if (c->pp == 1 || !splits || m <= 0 || m % c->pp != 0)
            v = 1;
        if (v != want->vpp)
            snprintf(note, n, "interleaved stages off (not %lld): vpp does not split this layout",
                     (long long)want->vpp);
        c->vpp = v;
    }
}
