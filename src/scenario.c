/* scenario.c - the inputs of a run: defaults, derived degrees and validation. */
#include "scenario.h"

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

const char *mfu_mode_name(enum mfu_mode m)
{
    static const char *const names[MFU_MODE_COUNT] = {"typed", "measured", "predicted"};
    return m >= 0 && m < MFU_MODE_COUNT ? names[m] : "?";
}

/* Megatron-core's get_num_layers_to_build: with the embedding or the loss accounted for,
 * the layers and those counted in split evenly over the pp stages (each stage's share over
 * its vpp chunks), and the first (last) stage builds one layer fewer. */
static int64_t accounted_share(const struct scenario *s)
{
    int64_t counted = s->model.layers + (s->account_embedding ? 1 : 0) + (s->account_loss ? 1 : 0);
    return s->pp > 1 ? counted / s->pp : 0;
}

int64_t scenario_first_stage_layers(const struct scenario *s)
{
    if (s->first_stage_layers > 0)
        return s->first_stage_layers;
    return s->account_embedding && s->pp > 1 ? accounted_share(s) - 1 : 0;
}

int64_t scenario_last_stage_layers(const struct scenario *s)
{
    if (s->last_stage_layers > 0)
        return s->last_stage_layers;
    return s->account_loss && s->pp > 1 ? accounted_share(s) - 1 : 0;
}

bool scenario_layout(const struct scenario *s, struct pp_layout *out)
{
    char err[160];
    return s->pp_layout[0] != '\0' && pp_layout_parse(s->pp_layout, out, err, sizeof err);
}

bool scenario_uneven_stages(const struct scenario *s)
{
    /* The raw inputs rather than the counts (a counted split's stages hold 1 or more, which
     * the rules require): this runs for every stage of every layout a plan tries. */
    return s->pp_layout[0] != '\0' || s->first_stage_layers > 0 || s->last_stage_layers > 0 ||
           ((s->account_embedding || s->account_loss) && s->pp > 1);
}

void scenario_middle_stages(const struct scenario *s, int64_t *stages, int64_t *layers)
{
    const int64_t first = scenario_first_stage_layers(s), last = scenario_last_stage_layers(s);
    *stages = s->pp - (first > 0 ? 1 : 0) - (last > 0 ? 1 : 0);
    *layers = s->model.layers - first - last;
}

int64_t scenario_stage_layers(const struct scenario *s, int64_t i)
{
    if (i < 0 || i >= s->pp)
        return 0;
    struct pp_layout lay;
    if (scenario_layout(s, &lay))
        return pp_layout_stage_layers(&lay, s->pp, i);
    if (i == 0 && scenario_first_stage_layers(s) > 0)
        return scenario_first_stage_layers(s);
    if (i == s->pp - 1 && scenario_last_stage_layers(s) > 0)
        return scenario_last_stage_layers(s);
    int64_t mid, rest;
    scenario_middle_stages(s, &mid, &rest);
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

int64_t scenario_etp(const struct scenario *s)
{
    return s->etp > 0 ? s->etp : s->tp;
}

int64_t scenario_expert_dp(const struct scenario *s)
{
    const int64_t ranks = s->tp * scenario_dp_cp(s), grid = scenario_etp(s) * (s->ep > 1 ? s->ep : 1);
    return ranks > 0 && grid > 0 && ranks % grid == 0 ? ranks / grid : 0;
}

double scenario_routed_apart(const struct scenario *s)
{
    return s->ep > 1 || scenario_etp(s) != s->tp ? scenario_expert_params(s) : 0.0;
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
