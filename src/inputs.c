/* inputs.c - every scenario input in one table: its key, kind, range, grammar, text and help. */
#include "inputs.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "dtype.h"
#include "model.h"
#include "spec.h"
#include "units.h"

/* 2^62: the largest count any input may hold, so products of two counts stay in int64. */
#define COUNT_MAX 4611686018427387904.0

/* ---- words --------------------------------------------------------------------------------- */

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *const ONOFF_WORDS[] = {"off", "on"};
/* The dtypes a run can train in (not fp64, not the int8 state format), in order of bytes. */
static const enum dtype TRAIN_DTYPES[] = {DTYPE_FP32, DTYPE_TF32, DTYPE_BF16, DTYPE_FP16,
                                          DTYPE_FP8_E4M3, DTYPE_FP8_E5M2, DTYPE_FP4};
static const char *const DTYPE_WORDS[] = {"fp32", "tf32", "bf16", "fp16", "fp8-e4m3", "fp8-e5m2",
                                          "fp4"};
static const char *const OPTIMIZER_WORDS[] = {"adamw", "sgd", "adagrad", "adam8bit"};
static const char *const RECOMPUTE_WORDS[] = {"none", "selective", "full", "sqrt"};
/* enum flops_mode order: FLOPS_DETAILED, FLOPS_6ND. */
static const char *const FLOPS_WORDS[] = {"detailed", "6nd"};
static const char *const ATTN_FLOPS_WORDS[] = {"full", "causal"}; /* enum attn_flops' order */
static const char *const FRAMEWORK_WORDS[] = {"megatron", "deepspeed", "fsdp"}; /* enum framework's */

/* Other spellings people use, and the word they mean. */
static const char *const ALIASES[][2] = {
    {"fp8", "fp8-e4m3"}, {"e4m3", "fp8-e4m3"}, {"e5m2", "fp8-e5m2"}, {"nvfp4", "fp4"},
    {"adam", "adamw"},
};

static int word_count(const struct input *in)
{
    return in->words != NULL ? in->n_words : 0;
}

/* ---- accessors of inputs that are not one plain field ---------------------------------- */

static double model_get(const struct scenario *s)
{
    (void)s;
    return NAN;
}

static double params_get(const struct scenario *s);
static void params_set(struct scenario *s, double v);

/* A preset or file, or a parameter count: the custom model of that size, as --params builds
 * it (so a custom model's text, its count, reads back). */
static bool model_parse(struct scenario *s, const char *text, char *err, size_t errlen)
{
    double v;
    if (units_parse(text, &v)) {
        if (!(v >= 1e6 && v <= 1e14)) {
            snprintf(err, errlen, "%s is out of range for a model size (1M to 100T parameters)",
                     text);
            return false;
        }
        params_set(s, v);
        return true;
    }
    char sub[SPEC_ERR_MAX];
    struct model_arch m;
    if (!spec_find_model(text, &m, sub, sizeof sub)) {
        snprintf(err, errlen, "%s", sub);
        return false;
    }
    s->model = m;
    return true;
}

/* The preset's id; a custom model (no preset, or "custom") as its size, which reads back. */
static void model_format(const struct scenario *s, char *buf, size_t n)
{
    if (s->model.id[0] && strcmp(s->model.id, "custom") != 0)
        snprintf(buf, n, "%s", s->model.id);
    else
        inputs_format_count(params_get(s), buf, n);
}

static const struct input_ops MODEL_OPS = {model_get, NULL, model_parse, model_format, NULL};

static bool gpu_parse(struct scenario *s, const char *text, char *err, size_t errlen)
{
    char sub[SPEC_ERR_MAX];
    struct gpu_spec g;
    if (!spec_find_gpu(text, &g, sub, sizeof sub)) {
        snprintf(err, errlen, "%s", sub);
        return false;
    }
    s->gpu = g;
    return true;
}

static void gpu_format(const struct scenario *s, char *buf, size_t n)
{
    snprintf(buf, n, "%s", s->gpu.id[0] ? s->gpu.id : s->gpu.name);
}

/* The figures of the shipped h100-sxm.json, for a tree or install without its specs. */
static void gpu_builtin(struct scenario *s)
{
    gpu_builtin_h100(&s->gpu);
}

static const struct input_ops GPU_OPS = {model_get, NULL, gpu_parse, gpu_format, gpu_builtin};

static bool name_parse(struct scenario *s, const char *text, char *err, size_t errlen)
{
    for (const char *c = text; *c != '\0'; c++) {
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            /* A name is printed on the dashboard and in reports: no escapes. */
            snprintf(err, errlen, "contains control characters");
            return false;
        }
    }
    if (strlen(text) >= sizeof s->name) {
        /* Bytes: in UTF-8 a character past ASCII takes two to four of them. */
        snprintf(err, errlen, "longer than %zu bytes (this one has %zu)", sizeof s->name - 1,
                 strlen(text));
        return false;
    }
    snprintf(s->name, sizeof s->name, "%s", text);
    return true;
}

static void name_format(const struct scenario *s, char *buf, size_t n)
{
    snprintf(buf, n, "%s", s->name);
}

static const struct input_ops NAME_OPS = {model_get, NULL, name_parse, name_format, NULL};

/* A pipeline layout: read here for its grammar (its counts against the model and the
 * pipeline are rules_check_stages'); "none" or "" clears it. */
static bool layout_parse(struct scenario *s, const char *text, char *err, size_t errlen)
{
    if (text[0] == '\0' || strcasecmp(text, "none") == 0) {
        s->pp_layout[0] = '\0';
        return true;
    }
    struct pp_layout l;
    char why[160];
    if (!pp_layout_parse(text, &l, why, sizeof why)) {
        snprintf(err, errlen, "\"%s\": %s", text, why);
        return false;
    }
    snprintf(s->pp_layout, sizeof s->pp_layout, "%s", text);
    return true;
}

static void layout_format(const struct scenario *s, char *buf, size_t n)
{
    snprintf(buf, n, "%s", s->pp_layout[0] != '\0' ? s->pp_layout : "none");
}

static const struct input_ops LAYOUT_OPS = {model_get, NULL, layout_parse, layout_format, NULL};

/* The size as the user gave it: a --params model keeps the N typed (what 6ND uses; its parts
 * sum to within 0.01% of it), a preset or shaped model its count. */
static double params_get(const struct scenario *s)
{
    if (s->model.exact_params > 0)
        return (double)s->model.exact_params;
    struct param_counts pc;
    model_params(&s->model, &pc);
    return (double)pc.total;
}

static void params_set(struct scenario *s, double v)
{
    struct model_arch m;
    /* Whole parameters: the range check has run, so the shape always exists. */
    if (model_from_params(round(v), &m))
        s->model = m;
}

static const struct input_ops PARAMS_OPS = {params_get, params_set, NULL, NULL, NULL};

static double dtype_get(const struct scenario *s)
{
    for (int i = 0; i < (int)(sizeof TRAIN_DTYPES / sizeof TRAIN_DTYPES[0]); i++)
        if (TRAIN_DTYPES[i] == s->dtype)
            return i;
    return NAN;
}

static void dtype_set(struct scenario *s, double v)
{
    s->dtype = TRAIN_DTYPES[(int)v];
}

static const struct input_ops DTYPE_OPS = {dtype_get, dtype_set, NULL, NULL, NULL};

/* Serving's weights and KV cache: "auto" (the dtype's) or a storage format. */
static const enum dtype SERVE_DTYPES[] = {SCENARIO_DTYPE_AUTO, DTYPE_FP32, DTYPE_BF16,
                                          DTYPE_FP16, DTYPE_FP8_E4M3, DTYPE_FP8_E5M2,
                                          DTYPE_INT8, DTYPE_INT4, DTYPE_FP4};
static const char *const SERVE_DTYPE_WORDS[] = {"auto", "fp32", "bf16", "fp16", "fp8-e4m3",
                                                "fp8-e5m2", "int8", "int4", "fp4"};

static double serve_dtype_index(enum dtype d)
{
    for (int i = 0; i < (int)(sizeof SERVE_DTYPES / sizeof SERVE_DTYPES[0]); i++)
        if (SERVE_DTYPES[i] == d)
            return i;
    return NAN;
}

static double weights_dtype_get(const struct scenario *s)
{
    return serve_dtype_index(s->weights_dtype);
}

static void weights_dtype_set(struct scenario *s, double v)
{
    s->weights_dtype = SERVE_DTYPES[(int)v];
}

static double kv_dtype_get(const struct scenario *s)
{
    return serve_dtype_index(s->kv_dtype);
}

static void kv_dtype_set(struct scenario *s, double v)
{
    s->kv_dtype = SERVE_DTYPES[(int)v];
}

static const struct input_ops WEIGHTS_DTYPE_OPS = {weights_dtype_get, weights_dtype_set, NULL,
                                                   NULL, NULL};

/* The gradients' dtype: "auto" (what the setup does: memory_grad_dtype) or a 16/32-bit one. */
static const enum dtype GRAD_DTYPES[] = {SCENARIO_DTYPE_AUTO, DTYPE_FP32, DTYPE_BF16, DTYPE_FP16};
static const char *const GRAD_DTYPE_WORDS[] = {"auto", "fp32", "bf16", "fp16"};

static double grad_dtype_get(const struct scenario *s)
{
    for (int i = 0; i < COUNT_OF(GRAD_DTYPES); i++)
        if (GRAD_DTYPES[i] == s->grad_dtype)
            return i;
    return NAN;
}

static void grad_dtype_set(struct scenario *s, double v)
{
    s->grad_dtype = GRAD_DTYPES[(int)v];
}

static const struct input_ops GRAD_DTYPE_OPS = {grad_dtype_get, grad_dtype_set, NULL, NULL, NULL};
static const struct input_ops KV_DTYPE_OPS = {kv_dtype_get, kv_dtype_set, NULL, NULL, NULL};

/* The MFU: a typed fraction, or one of the words naming where the evaluation takes it from
 * (src/evaluation.h): "predicted" (the step-time model's HFU) or "measured" (the GEMM
 * efficiency of the matched points). A number typed or stepped to makes it typed again. */
static const char *const MFU_WORDS[] = {"predicted", "measured"};
static const enum mfu_mode MFU_WORD_MODES[] = {MFU_PREDICTED, MFU_MEASURED};

static double mfu_get(const struct scenario *s)
{
    return s->mfu;
}

static void mfu_set(struct scenario *s, double v)
{
    s->mfu = v;
    s->mfu_mode = MFU_TYPED;
}

static bool mfu_parse_word(struct scenario *s, const char *text, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    for (size_t i = 0; i < sizeof MFU_WORDS / sizeof MFU_WORDS[0]; i++)
        if (strcasecmp(text, MFU_WORDS[i]) == 0) {
            s->mfu_mode = MFU_WORD_MODES[i];
            return true;
        }
    return false;
}

static void format_double(double v, char *buf, size_t n);

static void mfu_format(const struct scenario *s, char *buf, size_t n)
{
    if (s->mfu_mode == MFU_TYPED)
        format_double(s->mfu, buf, n);
    else
        snprintf(buf, n, "%s", mfu_mode_name(s->mfu_mode));
}

static const struct input_ops MFU_OPS = {mfu_get, mfu_set, mfu_parse_word, mfu_format, NULL};

#define F(member) offsetof(struct scenario, member)
#define MODEL_ROW (INPUT_MODEL_FIELD | INPUT_HIDDEN)
#define ENUMF(member) offsetof(struct scenario, member), FIELD_INT
/* A row without rules beyond its range (src/rules.h). */
#define NO_RULES NULL, NULL, SETTLE_NEVER, NULL

/* The rows, in the order a file's keys are applied. Ranges are the one place limits live: the
 * command line, files and sliders all check them here. */
static const struct input TABLE[] = {
    {"model", "model", INPUT_NAME, "", 0, 0, NULL, 0, "NAME|FILE|N",
     "model preset (rooftop list models), a model JSON file or Hugging Face config.json, or a size N (as --params)", "", 0, STEPS_MODELS, 0, 0, 0,
     0, FIELD_NONE, &MODEL_OPS,
     .check = rules_check_model,
     .def = "70B"}, /* the lecture's question: a 70B model on 15T tokens */
    {"params", "size", INPUT_SIZE, "parameters", 1e6, 1e14, NULL, 0, "N",
     "a custom model of exactly N parameters (its shape from N)", "", INPUT_OF_MODEL, STEPS_SIZES, 1e7, 1e13,
     0, 0, FIELD_NONE, &PARAMS_OPS, NO_RULES, .def = NULL},
    /* The model's fields override a preset's; they have no default of their own (.def NULL):
     * they come with the model. */
    {"layers", "layers", INPUT_COUNT, "", 1, (double)MODEL_MAX_LAYERS, NULL, 0, "N", "transformer layers", "",
     INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, F(model.layers), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"d_model", "d_model", INPUT_COUNT, "", 1, (double)MODEL_MAX_WIDTH, NULL, 0, "N", "hidden size", "",
     INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, F(model.d_model), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"heads", "heads", INPUT_COUNT, "", 1, (double)MODEL_MAX_WIDTH, NULL, 0, "N", "attention heads", "",
     INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, F(model.heads), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"kv_heads", "kv heads", INPUT_COUNT, "", 1, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "key/value heads (GQA; = heads for multi-head attention)", "heads",
     INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, F(model.kv_heads), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"ffn", "ffn", INPUT_COUNT, "", 1, (double)MODEL_MAX_WIDTH, NULL, 0, "N", "MLP hidden width", "",
     INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, F(model.ffn), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"vocab", "vocab", INPUT_COUNT, "tokens", 1, (double)MODEL_MAX_VOCAB, NULL, 0, "N", "vocabulary size", "",
     INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, F(model.vocab), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"context", "context", INPUT_COUNT, "tokens", 1, (double)MODEL_MAX_CONTEXT, NULL, 0, "N",
     "longest sequence the model was built for", "", INPUT_MODEL_FIELD | INPUT_HIDDEN,
     STEPS_NONE, 0, 0, 0, F(model.context), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"mlp", "mlp", INPUT_ENUM, "", 0, MODEL_MLP_KINDS - 1, model_mlp_names, MODEL_MLP_KINDS,
     "gelu|swiglu|relu|relu2|geglu",
     "MLP kind: two matrices (gelu, relu, relu2) or three, gated (swiglu, geglu)", "", INPUT_MODEL_FIELD | INPUT_HIDDEN,
     STEPS_NONE, 0, 0, 0, ENUMF(model.mlp), NULL, NO_RULES, .def = NULL},
    {"norm", "norm", INPUT_ENUM, "", 0, MODEL_NORM_KINDS - 1, model_norm_names, MODEL_NORM_KINDS,
     "layernorm|rmsnorm|layernorm-nobias|layernorm-nonparametric",
     "norm kind (LayerNorm with or without its bias, or without weights: OLMo 1)", "",
     INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, ENUMF(model.norm), NULL, NO_RULES, .def = NULL},
    {"tied_embeddings", "tied", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "LM head shares the embedding matrix", "", INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0,
     0, 0, F(model.tied_embeddings), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"bias", "bias", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "biases on every linear layer (GPT-2)", "", INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0,
     0, 0, F(model.bias), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"qkv_bias", "qkv bias", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "biases on Q, K and V only (Qwen2)", "", INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0, 0,
     0, F(model.qkv_bias), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"lm_head_bias", "head bias", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS),
     "on|off", "a bias per token on the LM head (Phi-2)", "", MODEL_ROW, STEPS_NONE, 0, 0, 0,
     F(model.lm_head_bias), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"mlp_bias", "mlp bias", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "biases on the MLP's matrices only, none on the attention (GPT-J)", "", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.mlp_bias), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"positional", "positions", INPUT_ENUM, "", 0, 1, model_pos_names, MODEL_POS_KINDS, "learned|rope",
     "learned position embeddings or rotary", "", INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE,
     0, 0, 0, ENUMF(model.positional), NULL, NO_RULES, .def = NULL},
    {"experts", "experts", INPUT_COUNT, "", 0, (double)MODEL_MAX_EXPERTS, NULL, 0, "N",
     "routed experts per MoE layer (0 or 1: dense)", "", INPUT_MODEL_FIELD | INPUT_HIDDEN,
     STEPS_NONE, 0, 0, 0, F(model.experts), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"experts_active", "top-k", INPUT_COUNT, "", 0, (double)MODEL_MAX_EXPERTS, NULL, 0, "N",
     "routed experts each token passes through", "experts", INPUT_MODEL_FIELD | INPUT_HIDDEN,
     STEPS_NONE, 0, 0, 0, F(model.experts_active), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"shared_experts", "shared", INPUT_COUNT, "", 0, (double)MODEL_MAX_EXPERTS, NULL, 0, "N",
     "experts every token passes through", "", INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE, 0,
     0, 0, F(model.shared_experts), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"moe_ffn", "expert ffn", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "expert hidden width (0: the ffn width)", "", INPUT_MODEL_FIELD | INPUT_HIDDEN, STEPS_NONE,
     0, 0, 0, F(model.moe_ffn), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"dense_layers", "dense layers", INPUT_COUNT, "", 0, (double)MODEL_MAX_LAYERS, NULL, 0, "N",
     "first layers that keep a dense MLP", "layers", INPUT_MODEL_FIELD | INPUT_HIDDEN,
     STEPS_NONE, 0, 0, 0, F(model.dense_layers), FIELD_I64, NULL, NO_RULES, .def = NULL},
    /* Attention beyond d_model / heads, named as in Hugging Face configs (0: not used). */
    {"head_dim", "head dim", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N|auto",
     "width of each attention head (auto: d_model / heads)", "", MODEL_ROW | INPUT_AUTO_ZERO, STEPS_NONE, 0, 0,
     0, F(model.head_dim), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"sliding_window", "window", INPUT_COUNT, "tokens", 0, (double)MODEL_MAX_CONTEXT, NULL, 0, "N",
     "tokens a local layer attends to (0: every layer global)", "", MODEL_ROW, STEPS_NONE, 0, 0,
     0, F(model.sliding_window), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"sliding_window_pattern", "window every", INPUT_COUNT, "", 0, 1e6, NULL, 0, "N",
     "every N-th layer global, the rest local (0: all local when a window is set)",
     "layers sliding_window", MODEL_ROW, STEPS_NONE, 0, 0, 0,
     F(model.sliding_window_pattern), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"attn_sinks", "sinks", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "a learned attention-sink logit per head (gpt-oss)", "", MODEL_ROW, STEPS_NONE, 0, 0, 0,
     F(model.attn_sinks), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"kv_lora_rank", "kv latent", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "multi-head latent attention's KV rank (DeepSeek-V2/V3; 0: no MLA)", "", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.kv_lora_rank), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"q_lora_rank", "q latent", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "MLA's query compression rank (0: a full query projection)", "kv_lora_rank", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.q_lora_rank), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"qk_nope_head_dim", "qk nope dim", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "MLA: per-head query/key width without rotary position", "kv_lora_rank", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.qk_nope_head_dim), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"qk_rope_head_dim", "qk rope dim", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "MLA: the decoupled rotary key's width, shared by the heads", "kv_lora_rank", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.qk_rope_head_dim), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"v_head_dim", "v head dim", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "MLA: per-head value width", "kv_lora_rank", MODEL_ROW, STEPS_NONE, 0, 0, 0,
     F(model.v_head_dim), FIELD_I64, NULL, NO_RULES, .def = NULL},
    /* Norms and blocks. */
    {"norm_place", "norm place", INPUT_ENUM, "", 0, MODEL_NORM_PLACES - 1,
     model_norm_place_names, MODEL_NORM_PLACES, "pre|post|sandwich",
     "norms before attention and MLP (pre), after them (post, OLMo 2) or both (sandwich, Gemma 2)",
     "block", MODEL_ROW, STEPS_NONE, 0, 0, 0, ENUMF(model.norm_place), NULL, NO_RULES, .def = NULL},
    {"qk_norm", "qk norm", INPUT_ENUM, "", 0, MODEL_QK_NORMS - 1, model_qk_norm_names,
     MODEL_QK_NORMS, "none|head|full",
     "norm of queries and keys: per head (Qwen3, Gemma 3) or over the projection (OLMo 2)", "",
     MODEL_ROW, STEPS_NONE, 0, 0, 0, ENUMF(model.qk_norm), NULL, NO_RULES, .def = NULL},
    {"block", "block", INPUT_ENUM, "", 0, MODEL_BLOCKS - 1, model_block_names, MODEL_BLOCKS,
     "sequential|parallel|parallel-one-norm",
     "attention then MLP, or both on the same input (GPT-NeoX; GPT-J and Phi-2 share one norm)",
     "", MODEL_ROW, STEPS_NONE, 0, 0, 0, ENUMF(model.block), NULL, NO_RULES, .def = NULL},
    /* Mixture of experts beyond the routed experts. */
    {"shared_ffn", "shared ffn", INPUT_COUNT, "", 0, (double)MODEL_MAX_WIDTH, NULL, 0, "N",
     "hidden width of each shared expert (0: the expert width)", "shared_experts", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.shared_ffn), FIELD_I64, NULL, NO_RULES, .def = NULL},
    {"shared_gate", "shared gate", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS),
     "on|off", "a sigmoid gate on the shared expert (Qwen2-MoE)", "shared_experts", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.shared_gate), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"router_bias", "router bias", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS),
     "on|off", "a bias per expert on the router (gpt-oss, DeepSeek-V3)", "experts", MODEL_ROW,
     STEPS_NONE, 0, 0, 0, F(model.router_bias), FIELD_BOOL, NULL, NO_RULES, .def = NULL},
    {"mtp_layers", "MTP", INPUT_COUNT, "", 0, (double)MODEL_MAX_LAYERS, NULL, 0, "N",
     "multi-token-prediction modules, counted apart from the model (DeepSeek-V3: 1)", "",
     MODEL_ROW, STEPS_NONE, 0, 0, 0, F(model.mtp_layers), FIELD_I64, NULL, NO_RULES, .def = NULL},
    /* The setup. */
    {"tokens", "tokens", INPUT_SIZE, "tokens", 1, 1e18, NULL, 0, "D", "training tokens D", "", 0,
     STEPS_NICE, 1e6, 1e16, 0, F(tokens), FIELD_DOUBLE, NULL, NO_RULES,
     .def = "15T"},
    {"batch", "batch", INPUT_COUNT, "sequences", 1, 1e9, NULL, 0, "B",
     "global batch, sequences per optimizer step", "gpus tp pp cp micro_batch", 0, STEPS_POW2, 1,
     16777216, 0, F(batch), FIELD_I64, NULL, NO_RULES,
     .def = "2048"}, /* 4M tokens a step: 2 micro-batches of one sequence a GPU */
    {"seq", "seq len", INPUT_COUNT, "tokens", 1, 1e8, NULL, 0, "S", "tokens per sequence", "", 0,
     STEPS_POW2, 16, 1048576, 0, F(seq), FIELD_I64, NULL, NO_RULES,
     .def = "2048"}, /* at 4096 a 70B model's activations outgrow 80 GB without TP */
    {"micro_batch", "microbatch", INPUT_COUNT, "sequences", 0, 1e9, NULL, 0, "b|auto",
     "sequences per forward/backward per data-parallel rank (auto: batch / ranks)", "batch",
     INPUT_AUTO_ZERO, STEPS_POW2, 1, 65536, 0, F(micro_batch), FIELD_I64, NULL,
     .check = rules_check_micro_batch, .give_way = rules_give_way_micro_batch,
     .level = SETTLE_BATCH, .step_bounds = rules_steps_micro_batch,
     .def = "1"},
    {"gpu", "GPU", INPUT_NAME, "", 0, 0, NULL, 0, "NAME|FILE",
     "GPU preset (rooftop list gpus) or a GPU JSON file", "", 0, STEPS_GPUS, 0, 0, 0, 0,
     FIELD_NONE, &GPU_OPS,
     .check = rules_check_gpu,
     /* The preset as found on the search path, so that a user's own h100-sxm.json (in
      * ~/.config/rooftop/gpus, say) is the default's GPU too; GPU_OPS.builtin otherwise. */
     .def = "h100-sxm"},
    {"gpus", "GPUs", INPUT_COUNT, "GPUs", 1, 1e8, NULL, 0, "N",
     "GPUs in all (= data x tensor x pipeline x context parallel)", "tp pp cp batch", 0, STEPS_POW2, 1,
     16777216, 0, F(gpus), FIELD_I64, NULL,
     .give_way = rules_give_way_gpus, .level = SETTLE_GPUS, .step_bounds = rules_steps_gpus,
     .def = "1024"},
    {"tp", "tensor", INPUT_COUNT, "", 1, 1e8, NULL, 0, "T", "tensor-parallel degree",
     "gpus model", 0, STEPS_POW2, 1, 256, 0, F(tp), FIELD_I64, NULL,
     .check = rules_check_tp, .give_way = rules_give_way_tp, .level = SETTLE_DEGREES,
     .def = "1"},
    {"sp", "seq par", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "sequence parallelism (with tensor parallelism)", "tp", 0, STEPS_WORDS, 0, 0,
     0, F(sp), FIELD_BOOL, NULL, NO_RULES,
     .def = "off"},
    {"pp", "pipeline", INPUT_COUNT, "", 1, 1e8, NULL, 0, "P", "pipeline-parallel degree",
     "gpus model", 0, STEPS_POW2, 1, 256, 0, F(pp), FIELD_I64, NULL,
     .check = rules_check_pp, .give_way = rules_give_way_pp, .level = SETTLE_DEGREES,
     .def = "1"},
    {"cp", "ctx par", INPUT_COUNT, "", 1, 1e8, NULL, 0, "C",
     "context-parallel degree: each sequence split over C GPUs (seq a multiple of 2 x C)",
     "gpus seq", 0, STEPS_POW2, 1, 256, 0, F(cp), FIELD_I64, NULL,
     .check = rules_check_cp, .give_way = rules_give_way_cp, .level = SETTLE_DEGREES,
     .step_bounds = rules_steps_cp,
     .def = "1"},
    /* Megatron-core's --expert-tensor-parallel-size (MoE parallel folding): the expert layers
     * regroup a stage's tp x cp x dp ranks as etp x ep x edp. */
    {"etp", "expert tp", INPUT_COUNT, "", 0, 1e8, NULL, 0, "T|auto",
     "expert tensor-parallel degree, as Megatron-LM's --expert-tensor-parallel-size (auto: tp)",
     "gpus model tp cp ep", INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_NONE, 0, 0, 0, F(etp), FIELD_I64,
     NULL, .check = rules_check_etp, .give_way = rules_give_way_etp, .level = SETTLE_EXPERTS,
     .def = "auto"},
    {"ep", "expert par", INPUT_COUNT, "", 1, 1e8, NULL, 0, "E",
     "expert-parallel degree: routed experts split over E ranks of a pipeline stage",
     "gpus model cp", 0, STEPS_POW2, 1, 256, 0, F(ep), FIELD_I64, NULL,
     .check = rules_check_ep, .give_way = rules_give_way_ep, .level = SETTLE_EXPERTS,
     .step_bounds = rules_steps_ep,
     .def = "1"},
    {"vpp", "virtual pp", INPUT_COUNT, "", 1, 1e6, NULL, 0, "V",
     "virtual pipeline stages per GPU (interleaved 1F1B; 1: plain)", "pp model micro_batch",
     INPUT_HIDDEN, STEPS_POW2, 1, 64, 0, F(vpp), FIELD_I64, NULL,
     .check = rules_check_vpp, .give_way = rules_give_way_vpp, .level = SETTLE_SCHEDULE,
     .def = "1"},
    {"decoder_first_pipeline_num_layers", "first stage", INPUT_COUNT, "", 1, 1e6, NULL, 0, "N|auto",
     "layers of the first pipeline stage, as Megatron-LM's flag (auto: the even split)",
     "pp model", INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_NONE, 0, 0, 0, F(first_stage_layers),
     FIELD_I64, NULL,
     .check = rules_check_stages, .give_way = rules_give_way_stages, .level = SETTLE_STAGES,
     .def = "auto"},
    {"decoder_last_pipeline_num_layers", "last stage", INPUT_COUNT, "", 1, 1e6, NULL, 0, "N|auto",
     "layers of the last pipeline stage (auto: the even split)", "pp model",
     INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_NONE, 0, 0, 0, F(last_stage_layers), FIELD_I64, NULL, NO_RULES,
     .def = "auto"},
    /* Megatron-LM's flags (Megatron-Bridge's Llama 3.1 405B and Qwen3 235B recipes set both):
     * rules_check_stages checks them with the stages. */
    /* Megatron-core's flag (NVIDIA's DeepSeek-V3 recipes: "Et|(tt|)*30mL"). */
    {"pipeline_model_parallel_layout", "pp layout", INPUT_NAME, "", 0, 0, NULL, 0, "TEXT|none",
     "each pipeline chunk's layers, as Megatron-LM's flag: E embedding, t layer, m MTP, L loss, "
     "| between chunks, (...)*N repeats",
     "pp vpp model", INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, 0, FIELD_NONE, &LAYOUT_OPS, NO_RULES,
     .def = "none"},
    {"account_for_embedding_in_pipeline_split", "count embedding", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS,
     COUNT_OF(ONOFF_WORDS), "on|off",
     "the embedding counts as a layer of the first stage in the even split, as Megatron-LM's flag",
     "pp model", INPUT_HIDDEN, STEPS_WORDS, 0, 0, 0, F(account_embedding), FIELD_BOOL, NULL, NO_RULES,
     .def = "off"},
    {"account_for_loss_in_pipeline_split", "count loss", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS,
     COUNT_OF(ONOFF_WORDS), "on|off", "the LM head and loss count as a layer of the last stage",
     "pp model", INPUT_HIDDEN, STEPS_WORDS, 0, 0, 0, F(account_loss), FIELD_BOOL, NULL, NO_RULES,
     .def = "off"},
    {"zero", "ZeRO", INPUT_COUNT, "", 0, 3, NULL, 0, "0..3",
     "ZeRO stage over the data-parallel ranks: 1 optimizer, 2 +grads, 3 +params (FSDP)", "", 0,
     STEPS_LINEAR, 0, 3, 1, F(zero), FIELD_INT, NULL, NO_RULES,
     .def = "3"}, /* the lecture's per-GPU arithmetic: state fully sharded (FSDP), no TP or PP */
    {"dtype", "dtype", INPUT_ENUM, "", 0, 6, DTYPE_WORDS, COUNT_OF(DTYPE_WORDS), "D",
     "params, grads and activations: fp32|tf32|bf16|fp16|fp8 (fp8-e4m3)|fp8-e5m2|fp4", "gpu", 0,
     STEPS_WORDS, 0, 0, 0, 0, FIELD_NONE, &DTYPE_OPS,
     .check = rules_check_dtype,
     .def = "bf16"},
    {"master_weights", "master", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "fp32 master copy of the weights", "dtype", 0, STEPS_WORDS, 0, 0, 0, F(master_weights),
     FIELD_BOOL, NULL, NO_RULES,
     .def = "off"}, /* the 2026 lecture's 12 bytes per parameter */
    {"grad_dtype", "grads", INPUT_ENUM, "", 0, 3, GRAD_DTYPE_WORDS, COUNT_OF(GRAD_DTYPE_WORDS),
     "auto|fp32|bf16|fp16",
     "gradients (auto: fp32 with master weights, as Megatron-LM and DeepSpeed; else the weights')",
     "dtype master_weights", 0, STEPS_WORDS, 0, 0, 0, 0, FIELD_NONE, &GRAD_DTYPE_OPS, NO_RULES,
     .def = "auto"},
    {"optimizer", "optimizer", INPUT_ENUM, "", 0, 3, OPTIMIZER_WORDS, COUNT_OF(OPTIMIZER_WORDS), "adamw|sgd|adagrad|adam8bit",
     "optimizer and its state", "", 0, STEPS_WORDS, 0, 0, 0, ENUMF(optimizer), NULL, NO_RULES,
     .def = "adamw"},
    {"recompute", "recompute", INPUT_ENUM, "", 0, 3, RECOMPUTE_WORDS, COUNT_OF(RECOMPUTE_WORDS), "none|selective|full|sqrt", "activation recomputation", "", 0, STEPS_WORDS, 0, 0, 0,
     ENUMF(recompute), NULL, NO_RULES,
     .def = "none"},
    {"flash", "flash", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off",
     "FlashAttention: no s x s scores stored", "", 0, STEPS_WORDS, 0, 0, 0, F(flash), FIELD_BOOL,
     NULL, NO_RULES,
     .def = "on"},
    {"dropout", "dropout", INPUT_ONOFF, "", 0, 1, ONOFF_WORDS, COUNT_OF(ONOFF_WORDS), "on|off", "dropout masks stored",
     "", INPUT_HIDDEN, STEPS_WORDS, 0, 0, 0, F(dropout), FIELD_BOOL, NULL, NO_RULES,
     .def = "off"},
    {"framework", "framework", INPUT_ENUM, "", 0, FRAMEWORK_COUNT - 1, FRAMEWORK_WORDS,
     COUNT_OF(FRAMEWORK_WORDS), "megatron|deepspeed|fsdp",
     "framework whose overlap, gathers and reduces the step time models (the report states its "
     "flags)", "", 0, STEPS_WORDS, 0, 0, 0, ENUMF(framework), NULL, NO_RULES,
     .def = "megatron"}, /* hiding what its default overlap flags hide (src/framework.h) */
    {"dp_overlap", "DP overlap", INPUT_FRACTION, "", 0, 1, NULL, 0, "F|auto",
     "fraction of data-parallel communication hidden under compute, 0 to 1 (auto: as the "
     "framework overlaps it)", "framework", INPUT_HIDDEN | INPUT_AUTO_NEG, STEPS_LINEAR, 0, 1,
     0.25, F(dp_overlap), FIELD_DOUBLE, NULL, NO_RULES,
     .def = "auto"},
    {"node_gpus", "node GPUs", INPUT_COUNT, "GPUs", 1, 1e8, NULL, 0, "N|auto",
     "GPUs per NVLink domain (auto: the GPU spec's node)", "gpu", INPUT_HIDDEN | INPUT_AUTO_ZERO,
     STEPS_POW2, 1, 1024, 0, F(node_gpus), FIELD_I64, NULL, NO_RULES,
     .def = "auto"},
    {"network_bw", "network", INPUT_SIZE, "bytes/s", 1e6, 1e16, NULL, 0, "BYTES/S|auto",
     "network bandwidth per GPU per direction, e.g. 50GB (auto: the GPU spec's)", "gpu",
     INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_NICE, 1e9, 1e12, 0, F(network_bw), FIELD_DOUBLE, NULL, NO_RULES,
     .def = "auto"},
    {"memory_reserve", "reserve", INPUT_SIZE, "bytes", 0, 1e13, NULL, 0, "BYTES",
     "memory per GPU kept by the CUDA context and allocator, not for tensors (an assumption)",
     "gpu", INPUT_HIDDEN, STEPS_NICE, 1e8, 1e11, 0, F(memory_reserve), FIELD_DOUBLE, NULL,
     .check = rules_check_memory_reserve,
     /* An assumption, stated in the report. The CUDA context alone takes about 400 MB with
      * lazy module loading (CUDA 11.7 and later; PyTorch's maintainers in pytorch/pytorch#109888
      * and #107667, over 1 GB before); NCCL's communicator buffers, cuBLAS workspaces and the
      * caching allocator's fragmentation take the rest of the 2 GB. */
     .def = "2GB"},
    {"mfu", "MFU", INPUT_FRACTION, "", 0.001, 1, MFU_WORDS, COUNT_OF(MFU_WORDS),
     "U|predicted|measured",
     "fraction of the dense peak achieved, 0.001 to 1 (or 50%); predicted: the step-time "
     "model's; measured: the --points GEMMs'", "", 0, STEPS_LINEAR, 0.05, 1, 0.05, F(mfu),
     FIELD_DOUBLE, &MFU_OPS, NO_RULES,
     .def = "0.5"},
    {"flops", "FLOPs", INPUT_ENUM, "", 0, 1, FLOPS_WORDS, COUNT_OF(FLOPS_WORDS), "detailed|6nd",
     "FLOP count used for time: every operation, or 6ND", "", 0, STEPS_WORDS, 0, 0, 0,
     ENUMF(flops_mode), NULL, NO_RULES,
     .def = "6nd"},
    {"attention_flops", "attn FLOPs", INPUT_ENUM, "", 0, 1, ATTN_FLOPS_WORDS,
     COUNT_OF(ATTN_FLOPS_WORDS), "causal|full",
     "attention's s x s work in the detailed count: full (PaLM, Narayanan) or causal (half)",
     "", 0, STEPS_WORDS, 0, 0, 0, ENUMF(attention_flops), NULL, NO_RULES,
     .def = "full"},
    {"moe_capacity", "capacity", INPUT_FRACTION, "", 0.1, 16, NULL, 0, "F|auto",
     "MoE expert capacity factor (Megatron-core's --moe-expert-capacity-factor with padding): "
     "each expert holds ceil(tokens x top-k x F / experts) tokens (auto: dropless)", "model",
     INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_LINEAR, 1, 2, 0.25, F(moe_capacity), FIELD_DOUBLE,
     NULL, NO_RULES,
     .def = "auto"},
    {"vocab_pad", "vocab pad", INPUT_COUNT, "", 0, 1e6, NULL, 0, "N",
     "pad the vocabulary to a multiple of N x tp as Megatron-LM does (its default N: 128; "
     "0: no padding)", "tp model", INPUT_HIDDEN, STEPS_POW2, 1, 1024, 0, F(vocab_pad),
     FIELD_I64, NULL, NO_RULES,
     .def = "0"}, /* released counts are of the unpadded vocabulary */
    /* What a run costs (src/cost.h): GPU-hours, energy and, with a price, money. */
    {"price", "price", INPUT_SIZE, "USD/GPU-hour", 0, 1e6, NULL, 0, "USD",
     "price of one GPU-hour, e.g. 2.49 (0: none, no cost is shown)", "", INPUT_HIDDEN,
     STEPS_NONE, 0, 0, 0, F(price), FIELD_DOUBLE, NULL, NO_RULES,
     .def = "0"}, /* no price is a fact: none unless given */
    {"pue", "PUE", INPUT_SIZE, "", 1, 5, NULL, 0, "P",
     "power usage effectiveness: the facility's power over the GPUs'", "",
     INPUT_HIDDEN, STEPS_LINEAR, 1, 2, 0.1, F(pue), FIELD_DOUBLE, NULL, NO_RULES,
     /* A modern large data centre (Uptime Institute's 2023 survey average is 1.58;
      * hyperscalers report 1.1 to 1.2). */
     .def = "1.2"},
    /* Serving's own (rooftop infer and the inference view, which has its own sliders). */
    {"prompt", "prompt", INPUT_COUNT, "tokens", 1, 1e9, NULL, 0, "P",
     "serving: prompt tokens per sequence", "model", INPUT_HIDDEN, STEPS_POW2, 128, 1048576, 0,
     F(prompt), FIELD_I64, NULL, NO_RULES,
     .def = "2048"}, /* serving: a 2Ki-token prompt, 256 generated */
    {"generate", "generate", INPUT_COUNT, "tokens", 1, 1e9, NULL, 0, "N",
     "serving: tokens generated per sequence", "model prompt", INPUT_HIDDEN, STEPS_POW2, 16,
     1048576, 0, F(generate), FIELD_I64, NULL, NO_RULES,
     .def = "256"},
    {"weights_dtype", "weights", INPUT_ENUM, "", 0, 8, SERVE_DTYPE_WORDS,
     COUNT_OF(SERVE_DTYPE_WORDS), "W|auto",
     "serving: linear-layer weights, fp32|bf16|fp16|fp8|int8|int4|fp4 (auto: the dtype)",
     "dtype", INPUT_HIDDEN, STEPS_WORDS, 0, 0, 0, 0, FIELD_NONE, &WEIGHTS_DTYPE_OPS, NO_RULES,
     .def = "auto"},
    {"kv_dtype", "KV cache", INPUT_ENUM, "", 0, 8, SERVE_DTYPE_WORDS,
     COUNT_OF(SERVE_DTYPE_WORDS), "K|auto",
     "serving: the KV cache, the same choices (auto: the dtype)", "dtype", INPUT_HIDDEN,
     STEPS_WORDS, 0, 0, 0, 0, FIELD_NONE, &KV_DTYPE_OPS, NO_RULES,
     .def = "auto"},
    {"compute_eff", "compute eff", INPUT_FRACTION, "", 0.001, 1, NULL, 0, "E|auto",
     "serving: fraction of the dense peak reached, 0.001 to 1 (auto: the GPU spec's measured "
     "figure)",
     "gpu", INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_LINEAR, 0.05, 1, 0.05, F(compute_eff),
     FIELD_DOUBLE, NULL, NO_RULES,
     .def = "auto"},
    {"memory_eff", "memory eff", INPUT_FRACTION, "", 0.001, 1, NULL, 0, "E|auto",
     "serving: fraction of the memory bandwidth reached, 0.001 to 1 (auto: the GPU spec's)",
     "gpu",
     INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_LINEAR, 0.05, 1, 0.05, F(memory_eff), FIELD_DOUBLE,
     NULL, NO_RULES,
     .def = "auto"},
    {"hbm_fraction", "HBM fraction", INPUT_FRACTION, "", 0.01, 1, NULL, 0, "F|auto",
     "serving: fraction of each GPU's memory the engine plans on, before the memory reserve "
     "(auto: 0.9, vLLM's gpu_memory_utilization default)", "gpu",
     INPUT_HIDDEN | INPUT_AUTO_ZERO, STEPS_LINEAR, 0.5, 1, 0.05, F(hbm_fraction), FIELD_DOUBLE,
     NULL, NO_RULES,
     .def = "auto"},
    {"name", "name", INPUT_NAME, "", 0, 0, NULL, 0, "TEXT", "the scenario's title", "",
     INPUT_HIDDEN, STEPS_NONE, 0, 0, 0, 0, FIELD_NONE, &NAME_OPS, NO_RULES,
     .def = NULL}, /* none: the title is derived (issue 8) */
};

#define N_INPUTS ((int)(sizeof TABLE / sizeof TABLE[0]))

/* The rows a test adds (inputs_test_insert), and the order of all rows once it has. */
#define EXTRA_MAX 4
static const struct input *order[N_INPUTS + EXTRA_MAX];
static int n_extra;

/* key and name equal, '-' and '_' alike. */
static bool key_equal(const char *key, const char *name)
{
    for (;; key++, name++) {
        char a = *key == '-' ? '_' : *key, b = *name == '-' ? '_' : *name;
        if (a != b)
            return false;
        if (a == '\0')
            return true;
    }
}

const struct input *inputs_find(const char *key)
{
    for (int i = 0; key != NULL && i < inputs_count(); i++)
        if (key_equal(inputs_at(i)->key, key))
            return inputs_at(i);
    return NULL;
}

int inputs_index(const struct input *in)
{
    if (n_extra == 0)
        return in >= TABLE && in < TABLE + N_INPUTS ? (int)(in - TABLE) : -1;
    for (int i = 0; i < inputs_count(); i++)
        if (order[i] == in)
            return i;
    return -1;
}

int inputs_count(void)
{
    return N_INPUTS + n_extra;
}

const struct input *inputs_at(int i)
{
    if (i < 0 || i >= N_INPUTS + n_extra)
        return NULL;
    return n_extra == 0 ? &TABLE[i] : order[i];
}

bool inputs_test_insert(const struct input *row, const char *before)
{
    if (n_extra == EXTRA_MAX || row == NULL || inputs_find(row->key) != NULL)
        return false;
    int count = inputs_count(), at = count;
    for (int i = 0; i < count; i++) {
        order[i] = inputs_at(i);
        if (before != NULL && at == count && key_equal(order[i]->key, before))
            at = i;
    }
    for (int i = count; i > at; i--)
        order[i] = order[i - 1];
    order[at] = row;
    n_extra++;
    return true;
}

void inputs_defaults(struct scenario *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        if (in->def == NULL)
            continue;
        char err[SPEC_ERR_MAX];
        /* A default is in range by construction (test_defaults_read_back); only a name looked
         * up on the search path can be missing, and then its built-in value stands in. */
        if (!inputs_parse(in, s, in->def, err, sizeof err) && in->ops != NULL &&
            in->ops->builtin != NULL)
            in->ops->builtin(s);
    }
}

void inputs_flag(const struct input *in, char *buf, size_t n)
{
    snprintf(buf, n, "%s", in->key);
    for (char *c = buf; *c; c++)
        if (*c == '_')
            *c = '-';
}

/* ---- values ------------------------------------------------------------------------------ */

double inputs_get(const struct input *in, const struct scenario *s)
{
    if (in->ops != NULL)
        return in->ops->get(s);
    const char *base = (const char *)s + in->offset;
    switch (in->field) {
    case FIELD_I64: {
        int64_t v;
        memcpy(&v, base, sizeof v);
        return (double)v;
    }
    case FIELD_INT: {
        int v;
        memcpy(&v, base, sizeof v);
        return v;
    }
    case FIELD_BOOL: {
        bool v;
        memcpy(&v, base, sizeof v);
        return v ? 1 : 0;
    }
    case FIELD_DOUBLE: {
        double v;
        memcpy(&v, base, sizeof v);
        return v;
    }
    case FIELD_NONE:
        break;
    }
    return NAN;
}

bool inputs_is_auto(const struct input *in, double v)
{
    return ((in->flags & INPUT_AUTO_ZERO) && v == 0) || ((in->flags & INPUT_AUTO_NEG) && v == -1);
}

static bool in_range(const struct input *in, double v)
{
    if (!isfinite(v))
        return false;
    if (inputs_is_auto(in, v))
        return true;
    return v >= in->lo && v <= in->hi;
}

static void words_list(const struct input *in, const struct scenario *s, char *buf, size_t n);
static void range_text(const struct input *in, char *buf, size_t n);

bool inputs_check_range(const struct input *in, const struct scenario *s, char *msg, size_t n)
{
    double v = inputs_get(in, s);
    bool whole = in->kind == INPUT_FRACTION || in->kind == INPUT_SIZE || floor(v) == v;
    if (in_range(in, v) && whole)
        return true;
    if (in->kind == INPUT_ENUM || in->kind == INPUT_ONOFF) {
        char list[256];
        words_list(in, s, list, sizeof list);
        snprintf(msg, n, "must be %s", list);
        return false;
    }
    char text[48], r[96];
    if (in->kind == INPUT_COUNT || (isfinite(v) && floor(v) == v))
        inputs_format_count(v, text, sizeof text);
    else
        format_double(v, text, sizeof text);
    range_text(in, r, sizeof r);
    snprintf(msg, n, "%s is out of range (%s)", text, r);
    return false;
}

bool inputs_set(const struct input *in, struct scenario *s, double v)
{
    if (in->kind == INPUT_NAME || !in_range(in, v))
        return false;
    if (in->kind == INPUT_COUNT || in->kind == INPUT_ENUM || in->kind == INPUT_ONOFF) {
        if (floor(v) != v)
            return false;
    }
    if (in->ops != NULL) {
        in->ops->set(s, v);
        return true;
    }
    /* Enumerations are stored in int-sized enums; the static assertion in the table's users
     * (scenario.h types) keeps that true. */
    char *base = (char *)s + in->offset;
    switch (in->field) {
    case FIELD_I64: {
        int64_t x = (int64_t)v;
        memcpy(base, &x, sizeof x);
        break;
    }
    case FIELD_INT: {
        int x = (int)v;
        memcpy(base, &x, sizeof x);
        break;
    }
    case FIELD_BOOL: {
        bool x = v != 0;
        memcpy(base, &x, sizeof x);
        break;
    }
    case FIELD_DOUBLE:
        memcpy(base, &v, sizeof v);
        break;
    case FIELD_NONE:
        return false;
    }
    if (in->flags & INPUT_MODEL_FIELD)
        s->model.exact_params = 0; /* an edited shape no longer has the exact count */
    return true;
}

void inputs_copy(const struct input *in, struct scenario *dst, const struct scenario *src)
{
    if (in->ops == &MODEL_OPS || in->ops == &PARAMS_OPS)
        dst->model = src->model;
    else if (in->ops == &GPU_OPS)
        dst->gpu = src->gpu;
    else if (in->ops == &NAME_OPS)
        snprintf(dst->name, sizeof dst->name, "%s", src->name);
    else
        (void)inputs_set(in, dst, inputs_get(in, src));
}

bool inputs_same(const struct input *in, const struct scenario *a, const struct scenario *b)
{
    if (in->ops == &MODEL_OPS || in->ops == &PARAMS_OPS)
        return memcmp(&a->model, &b->model, sizeof a->model) == 0;
    if (in->ops == &GPU_OPS)
        return memcmp(&a->gpu, &b->gpu, sizeof a->gpu) == 0;
    if (in->ops == &NAME_OPS)
        return strcmp(a->name, b->name) == 0;
    return inputs_get(in, a) == inputs_get(in, b);
}

/* Enumerations must fit the int the table writes. */
_Static_assert(sizeof(enum optimizer) == sizeof(int), "enum optimizer is int-sized");
_Static_assert(sizeof(enum recompute) == sizeof(int), "enum recompute is int-sized");
_Static_assert(sizeof(enum flops_mode) == sizeof(int), "enum flops_mode is int-sized");
_Static_assert(sizeof(enum mlp_kind) == sizeof(int), "enum mlp_kind is int-sized");
_Static_assert(sizeof(enum norm_kind) == sizeof(int), "enum norm_kind is int-sized");
_Static_assert(sizeof(enum pos_kind) == sizeof(int), "enum pos_kind is int-sized");

/* ---- parsing ------------------------------------------------------------------------------- */

bool inputs_parse_onoff(const char *v, bool *out)
{
    static const char *const on[] = {"on", "true", "yes", "1"};
    static const char *const off[] = {"off", "false", "no", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(v, on[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcasecmp(v, off[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

static int word_index(const struct input *in, const char *v)
{
    for (int i = 0; i < word_count(in); i++)
        if (strcasecmp(in->words[i], v) == 0)
            return i;
    for (size_t a = 0; a < sizeof ALIASES / sizeof ALIASES[0]; a++)
        if (strcasecmp(ALIASES[a][0], v) == 0)
            return word_index(in, ALIASES[a][1]);
    return -1;
}

/* Whether word k of in can be chosen with s's GPU: the training dtypes it has a peak for
 * (a GPU without peaks, as a blank scenario's, takes them all). */
static bool word_usable(const struct input *in, const struct scenario *s, int k)
{
    if (in->ops != &DTYPE_OPS)
        return true;
    bool any = false;
    for (int i = 0; i < COUNT_OF(TRAIN_DTYPES); i++)
        any = any || gpu_peak(&s->gpu, TRAIN_DTYPES[i]) > 0;
    return !any || gpu_peak(&s->gpu, TRAIN_DTYPES[k]) > 0;
}

/* "a, b or c" into buf: the words s's GPU can use (the help's ranges are the real ones). */
static void words_list(const struct input *in, const struct scenario *s, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    int count = word_count(in), usable = 0, shown = 0;
    for (int i = 0; i < count; i++)
        usable += word_usable(in, s, i);
    for (int i = 0; i < count; i++) {
        if (!word_usable(in, s, i))
            continue;
        int w = snprintf(buf + at, n - at, "%s%s", shown == 0 ? "" : shown == usable - 1 ? " or " : ", ",
                         in->words[i]);
        if (w < 0 || (size_t)w >= n - at)
            return;
        at += (size_t)w;
        shown++;
    }
}

/* A number in the grammar: units with decimal and binary suffixes; "50%" for fractions. */
static bool parse_number(const struct input *in, const char *v, double *out)
{
    size_t len = strlen(v);
    if (in->kind == INPUT_FRACTION && len > 1 && len < 64 && v[len - 1] == '%') {
        char buf[64];
        memcpy(buf, v, len - 1);
        buf[len - 1] = '\0';
        double d;
        if (!units_parse(buf, &d))
            return false;
        *out = d / 100.0;
        return true;
    }
    return units_parse(v, out);
}

/* The range as people read it: "1 to 1e+08" -> "1 to 100M". */
static void range_text(const struct input *in, char *buf, size_t n)
{
    char a[32], b[32];
    if (in->kind == INPUT_FRACTION) {
        snprintf(a, sizeof a, "%g", in->lo);
        snprintf(b, sizeof b, "%g", in->hi);
    } else {
        inputs_format_count(in->lo, a, sizeof a);
        inputs_format_count(in->hi, b, sizeof b);
    }
    snprintf(buf, n, "%s to %s%s", a, b,
             (in->flags & (INPUT_AUTO_ZERO | INPUT_AUTO_NEG)) ? ", or auto" : "");
}

static bool parse_input(const struct input *in, struct scenario *s, const char *text, char *err,
                        size_t errlen);

bool inputs_parse(const struct input *in, struct scenario *s, const char *text, char *err,
                  size_t errlen)
{
    bool ok = parse_input(in, s, text, err, errlen);
    /* Messages quote what was typed: a control character in it must not reach a terminal
     * or break the one-line rule. */
    for (char *c = err; !ok && errlen > 0 && *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return ok;
}

static bool parse_input(const struct input *in, struct scenario *s, const char *text, char *err,
                        size_t errlen)
{
    if (text == NULL || text[0] == '\0') {
        snprintf(err, errlen, "needs a value");
        return false;
    }
    struct scenario c = *s;
    switch (in->kind) {
    case INPUT_NAME:
        if (!in->ops->parse_name(&c, text, err, errlen))
            return false;
        *s = c;
        return true;
    case INPUT_ONOFF: {
        bool b;
        if (!inputs_parse_onoff(text, &b)) {
            snprintf(err, errlen, "'%s' is not on or off", text);
            return false;
        }
        if (!inputs_set(in, &c, b ? 1 : 0))
            return false;
        *s = c;
        return true;
    }
    case INPUT_ENUM: {
        int k = word_index(in, text);
        if (k < 0) {
            char list[256];
            words_list(in, s, list, sizeof list);
            char whose[96] = "";
            for (int i = 0; i < word_count(in) && !whose[0]; i++)
                if (!word_usable(in, s, i))
                    snprintf(whose, sizeof whose, " (those the %s has)", s->gpu.name);
            snprintf(err, errlen, "'%s' is not one of %s%s", text, list, whose);
            return false;
        }
        if (!inputs_set(in, &c, k)) {
            snprintf(err, errlen, "'%s' cannot be used", text);
            return false;
        }
        *s = c;
        return true;
    }
    case INPUT_COUNT:
    case INPUT_SIZE:
    case INPUT_FRACTION:
        break;
    }
    /* A number input with words of its own besides numbers (the MFU's "predicted"). */
    if (in->ops != NULL && in->ops->parse_name != NULL && in->ops->parse_name(&c, text, err, errlen)) {
        *s = c;
        return true;
    }
    double v;
    if ((in->flags & (INPUT_AUTO_ZERO | INPUT_AUTO_NEG)) && strcasecmp(text, "auto") == 0) {
        v = (in->flags & INPUT_AUTO_NEG) ? -1 : 0;
    } else if (!parse_number(in, text, &v)) {
        double d;
        if (text[0] == '-' && parse_number(in, text + 1, &d)) {
            snprintf(err, errlen, "%s is out of range (negative)", text);
        } else if (in->n_words > 0) {
            char list[128];
            words_list(in, s, list, sizeof list);
            snprintf(err, errlen, "'%s' is not a number, %s", text, list);
        } else {
            snprintf(err, errlen, "'%s' is not a number", text);
        }
        return false;
    }
    if (in->kind == INPUT_COUNT && floor(v) != v) {
        snprintf(err, errlen, "'%s' is not a whole number", text);
        return false;
    }
    if (in->kind == INPUT_SIZE && in->ops == &PARAMS_OPS)
        v = round(v); /* whole parameters */
    /* 0 stands for auto inside the table; typed, it is the number, and where the range starts
     * above it ("0.001 to 1, or auto") it is out of range, not a silent auto. */
    bool zero_typed = v == 0 && strcasecmp(text, "auto") != 0 && in->lo > 0;
    if (!in_range(in, v) || v > COUNT_MAX || zero_typed) {
        char r[96];
        range_text(in, r, sizeof r);
        snprintf(err, errlen, "%s is out of range (%s)", text, r);
        return false;
    }
    if (!inputs_set(in, &c, v)) {
        snprintf(err, errlen, "'%s' cannot be used", text);
        return false;
    }
    *s = c;
    return true;
}

bool inputs_reading_note(const struct input *in, const char *text, char *buf, size_t n)
{
    if (n == 0)
        return false;
    buf[0] = '\0';
    if (in->kind != INPUT_COUNT || strcmp(in->unit, "tokens") != 0)
        return false;
    size_t len = strlen(text);
    if (len < 2 || len > 32)
        return false;
    static const struct {
        char dec;
        const char *bin;
        double scale, bscale;
    } sfx[] = {{'k', "Ki", 1e3, 1024.0}, {'K', "Ki", 1e3, 1024.0}, {'M', "Mi", 1e6, 1048576.0}};
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        if (text[len - 1] != sfx[i].dec)
            continue;
        char m[40];
        memcpy(m, text, len - 1);
        m[len - 1] = '\0';
        double v;
        /* Both readings whole numbers: "1.5k" is 1500 or 1536; "1.3k" has no binary one. */
        if (!units_parse(m, &v) || floor(v * sfx[i].bscale) != v * sfx[i].bscale)
            return false;
        snprintf(buf, n, "%s = %.0f tokens (%c = %.0f); %s%s = %.0f (%s = %.0f)", text,
                 v * sfx[i].scale, sfx[i].dec, sfx[i].scale, m, sfx[i].bin, v * sfx[i].bscale,
                 sfx[i].bin, sfx[i].bscale);
        return true;
    }
    return false;
}

/* ---- formatting ------------------------------------------------------------------------------- */

/* v / scale written with at most 3 decimals when that is exact and the mantissa reads as one
 * (1 to under 1000 for a decimal suffix, 1024 for a binary one); false otherwise. */
static bool exact_mantissa(double v, double scale, const char *suffix, char *buf, size_t n)
{
    double m = v / scale;
    if (m < 1 || m >= (suffix[1] == 'i' ? 1024 : 1000))
        return false;
    static const double ten[] = {1, 10, 100, 1000};
    for (int d = 0; d <= 3; d++) {
        /* A mantissa that is not a whole number of 10^-d to well within a double's error
         * cannot read back as v: skip formatting and parsing it (a slider's value is written
         * every frame). The parse below still decides. */
        double q = m * ten[d];
        if (fabs(q - round(q)) > 1e-9 * q)
            continue;
        char t[48];
        snprintf(t, sizeof t, "%.*f%s", d, m, suffix);
        double back;
        if (units_parse(t, &back) && back == v) {
            snprintf(buf, n, "%s", t);
            return true;
        }
    }
    return false;
}

void inputs_format_count(double v, char *buf, size_t n)
{
    char best[48];
    snprintf(best, sizeof best, "%.0f", v);
    if (!isfinite(v) || v < 0 || floor(v) != v) {
        snprintf(buf, n, "%.17g", v);
        return;
    }
    if (v >= 100000) {
        static const struct {
            const char *s;
            double scale;
        } sfx[] = {{"k", 1e3},         {"M", 1e6},          {"B", 1e9},
                   {"T", 1e12},        {"P", 1e15},         {"Ki", 1024.0},
                   {"Mi", 1048576.0},  {"Gi", 1073741824.0}, {"Ti", 1099511627776.0}};
        for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
            char t[48];
            if (exact_mantissa(v, sfx[i].scale, sfx[i].s, t, sizeof t) && strlen(t) < strlen(best))
                snprintf(best, sizeof best, "%s", t);
        }
    }
    snprintf(buf, n, "%s", best);
}

/* The shortest text of a double that reads back exactly. */
static void format_double(double v, char *buf, size_t n)
{
    for (int p = 1; p <= 17; p++) {
        char t[48];
        snprintf(t, sizeof t, "%.*g", p, v);
        double back;
        if (units_parse(t, &back) && back == v) {
            snprintf(buf, n, "%s", t);
            return;
        }
    }
    snprintf(buf, n, "%.17g", v);
}

void inputs_format(const struct input *in, const struct scenario *s, char *buf, size_t n)
{
    if (n == 0)
        return;
    double v = inputs_get(in, s);
    if (inputs_is_auto(in, v)) {
        snprintf(buf, n, "auto");
        return;
    }
    switch (in->kind) {
    case INPUT_NAME:
        in->ops->format_name(s, buf, n);
        return;
    case INPUT_ONOFF:
    case INPUT_ENUM: {
        int k = (int)v;
        int count = word_count(in);
        snprintf(buf, n, "%s", isfinite(v) && k >= 0 && k < count ? in->words[k] : "?");
        return;
    }
    case INPUT_FRACTION:
        if (in->ops != NULL && in->ops->format_name != NULL)
            in->ops->format_name(s, buf, n);
        else
            format_double(v, buf, n);
        return;
    case INPUT_COUNT:
        inputs_format_count(v, buf, n);
        return;
    case INPUT_SIZE:
        if (floor(v) == v && v < COUNT_MAX) {
            char c[48];
            inputs_format_count(v, c, sizeof c);
            /* A size that is no round count ("15T") reads better as a float than as 17
             * digits, if the float is exact. */
            char d[48];
            format_double(v, d, sizeof d);
            snprintf(buf, n, "%s", strlen(d) < strlen(c) ? d : c);
        } else {
            format_double(v, buf, n);
        }
        return;
    }
}

void inputs_display(const struct input *in, const struct scenario *s, char *buf, size_t n,
                    size_t width)
{
    inputs_format(in, s, buf, n);
    if (strlen(buf) <= width || (in->kind != INPUT_COUNT && in->kind != INPUT_SIZE))
        return;
    char c[32];
    units_count(inputs_get(in, s), c, sizeof c);
    snprintf(buf, n, "~%s", c);
}

/* ---- help ------------------------------------------------------------------------------------ */

void inputs_default_text(const struct input *in, char *buf, size_t n)
{
    if (in->def != NULL)
        snprintf(buf, n, " (default: %s)", in->def);
    else if (n > 0)
        buf[0] = '\0';
}

void inputs_help(FILE *f)
{
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        char flag[64], left[96];
        inputs_flag(in, flag, sizeof flag);
        snprintf(left, sizeof left, "--%s %s", flag, in->metavar);
        char def[96];
        inputs_default_text(in, def, sizeof def);
        fprintf(f, "  %-24s %s%s\n", left, in->help, def);
    }
}

