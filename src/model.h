/* model.h - transformer architecture and its exact parameter counts. */
#ifndef ROOFTOP_MODEL_H
#define ROOFTOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MODEL_NAME_MAX 64
/* The limits of an architecture's fields: model_validate checks them, and the registry's rows
 * (src/inputs.c) take their ranges from them, so a flag that parses also validates. */
#define MODEL_MAX_LAYERS 100000
#define MODEL_MAX_WIDTH 10000000LL   /* d_model, heads, ffn, moe_ffn, head and latent dims */
#define MODEL_MAX_VOCAB 100000000LL
#define MODEL_MAX_CONTEXT 100000000LL
#define MODEL_MAX_EXPERTS 100000

/* MLP: two matrices with an activation between (gelu, relu, relu^2), or gated, three
 * matrices (swiglu: silu gate; geglu: gelu gate). New kinds go at the end: files name them. */
enum mlp_kind { MLP_GELU, MLP_SWIGLU, MLP_RELU, MLP_RELU2, MLP_GEGLU };
/* LayerNorm has a weight and a bias per channel (unless without bias), RMSNorm a weight; a
 * non-parametric LayerNorm (OLMo 1) has neither. */
enum norm_kind { NORM_LAYERNORM, NORM_RMSNORM, NORM_LAYERNORM_NOBIAS, NORM_NONPARAMETRIC };
enum pos_kind { POS_LEARNED, POS_ROPE };
/* Where a block's norms sit: before attention and MLP (pre, GPT-2/Llama), after them on the
 * residual branch (post, OLMo 2), or both (sandwich, Gemma 2/3): 2, 2 and 4 norms a layer. */
enum norm_place { NORM_PRE, NORM_POST, NORM_SANDWICH };
/* QK-norm: none; per head, one weight of head_dim shared by the heads (Qwen3, Gemma 3); or
 * over the whole projection, heads x head_dim for Q and kv_heads x head_dim for K (OLMo 2). */
enum qk_norm_kind { QK_NORM_NONE, QK_NORM_HEAD, QK_NORM_FULL };
/* Attention and MLP one after the other (sequential), or side by side on the same input and
 * summed: with a norm each (GPT-NeoX, 2 a layer) or sharing one (GPT-J, Phi-2, Falcon). */
enum block_kind { BLOCK_SEQUENTIAL, BLOCK_PARALLEL, BLOCK_PARALLEL_ONE_NORM };

/*
 * The names the spec, scenario and command-line forms give these kinds, in enum order: the
 * one table of each that every reader and writer uses. _parse is exact (the files' spelling);
 * false when s is none of them.
 */
#define MODEL_MLP_KINDS 5
#define MODEL_NORM_KINDS 4
#define MODEL_POS_KINDS 2
#define MODEL_NORM_PLACES 3
#define MODEL_QK_NORMS 3
#define MODEL_BLOCKS 3
extern const char *const model_mlp_names[MODEL_MLP_KINDS];   /* "gelu", "swiglu", "relu", "relu2", "geglu" */
extern const char *const model_norm_names[MODEL_NORM_KINDS]; /* "layernorm", "rmsnorm", "layernorm-nobias", "layernorm-nonparametric" */
extern const char *const model_pos_names[MODEL_POS_KINDS];   /* "learned", "rope" */
extern const char *const model_norm_place_names[MODEL_NORM_PLACES]; /* "pre", "post", "sandwich" */
extern const char *const model_qk_norm_names[MODEL_QK_NORMS]; /* "none", "head", "full" */
extern const char *const model_block_names[MODEL_BLOCKS];    /* "sequential", "parallel", "parallel-one-norm" */
const char *model_mlp_name(enum mlp_kind k);
const char *model_norm_name(enum norm_kind k);
const char *model_pos_name(enum pos_kind k);
const char *model_norm_place_name(enum norm_place k);
const char *model_qk_norm_name(enum qk_norm_kind k);
const char *model_block_name(enum block_kind k);
bool model_mlp_parse(const char *s, enum mlp_kind *out);
bool model_norm_parse(const char *s, enum norm_kind *out);
bool model_pos_parse(const char *s, enum pos_kind *out);
bool model_norm_place_parse(const char *s, enum norm_place *out);
bool model_qk_norm_parse(const char *s, enum qk_norm_kind *out);
bool model_block_parse(const char *s, enum block_kind *out);
/* "gelu, swiglu": a table's names joined for "is not one of ..." messages. */
void model_names_join(const char *const *names, size_t n, char *buf, size_t len);

struct model_arch {
    char id[MODEL_NAME_MAX];     /* preset id, e.g. "llama2-7b" (file stem), or "custom" */
    char name[MODEL_NAME_MAX];   /* display name */
    int64_t layers;
    int64_t d_model;
    int64_t heads;
    int64_t kv_heads;            /* == heads for plain multi-head attention */
    int64_t ffn;                 /* MLP hidden width (dense layers) */
    int64_t vocab;
    int64_t context;             /* maximum context the model was built for */
    enum mlp_kind mlp;
    enum norm_kind norm;
    bool tied_embeddings;
    bool bias;                   /* GPT-2 style: every linear layer and norm has a bias */
    bool qkv_bias;               /* Qwen2 style: biases on Q, K, V only */
    enum pos_kind positional;
    int64_t experts;             /* 0 or 1: dense; >1: routed experts per MoE layer */
    int64_t experts_active;      /* top-k routed experts per token */
    int64_t shared_experts;      /* experts every token passes through */
    int64_t moe_ffn;             /* expert hidden width; 0 = ffn */
    int64_t dense_layers;        /* the first dense_layers layers keep a dense MLP */
    int64_t exact_params;        /* > 0: a custom model of exactly this many parameters */
    double trained_tokens;       /* the model file's "tokens" (what it was trained on), kept
                                    with the model so that --model reads its file once;
                                    0 when the file does not say */
    double checkpoint_bytes;     /* a Hugging Face checkpoint's bytes (the metadata.total_size of
                                    the model.safetensors.index.json beside its config.json);
                                    0 when there is none */
    int checkpoint_dtype_bytes;  /* bytes per element of the config's torch_dtype (4, 2, 1);
                                    0 when it does not say */
    /* Named as in Hugging Face configs. 0 means "not used" / the default. */
    int64_t head_dim;            /* per attention head; 0 = d_model / heads */
    int64_t sliding_window;      /* tokens a local layer attends to; 0 = every layer global */
    int64_t sliding_window_pattern; /* Gemma 3 style: every N-th layer global, the rest local;
                                       0 = all layers local (Mistral) when a window is set */
    int64_t kv_lora_rank;        /* > 0: multi-head latent attention (DeepSeek-V2 MLA) */
    int64_t q_lora_rank;         /* MLA: rank of the query compression; 0 = full q_proj */
    int64_t qk_nope_head_dim;    /* MLA: per-head query/key width without rotary position */
    int64_t qk_rope_head_dim;    /* MLA: the decoupled rotary key, shared by the heads */
    int64_t v_head_dim;          /* MLA: per-head value width */
    /* Norms and blocks (defaults: pre-norm, no QK-norm, sequential). */
    enum norm_place norm_place;
    enum qk_norm_kind qk_norm;
    enum block_kind block;
    bool attn_sinks;             /* a learned sink logit per head and layer (gpt-oss) */
    bool lm_head_bias;           /* the LM head has a bias per token (Phi-2) */
    bool mlp_bias;               /* biases on the MLP's matrices only, none on the attention
                                    (GPT-J's fc_in/fc_out); bias gives both */
    /* Mixture of experts, beyond the routed experts above. */
    int64_t shared_ffn;          /* hidden width of each shared expert; 0 = the expert width */
    bool shared_gate;            /* a sigmoid gate h -> 1 on the shared expert (Qwen2-MoE) */
    bool router_bias;            /* the router has a bias per expert (gpt-oss; DeepSeek-V3's
                                    e_score_correction_bias) */
    int64_t mtp_layers;          /* multi-token-prediction modules (DeepSeek-V3: 1), counted
                                    apart from the main model */
};

/* The attention's widths, from the architecture (MLA or GQA/MHA/MQA). */
struct attn_dims {
    int64_t head_qk;             /* per-head query/key width the scores use */
    int64_t head_v;              /* per-head value width */
    int64_t q_width;             /* heads x head_qk */
    int64_t o_width;             /* heads x head_v: the output projection's input */
    int64_t w_in;                /* attention weights before the scores (Q, K, V or MLA's
                                    down/up projections), one layer */
    int64_t w_out;               /* output projection weights, one layer */
    int64_t norm;                /* MLA's latent norms (kv_a, q_a), one layer */
    int64_t cache_per_token;     /* elements cached per token per layer: 2 x kv_heads x
                                    head_dim, or MLA's latent + rope key */
    int64_t cache_heads;         /* heads the cache is split into (kv_heads; 1 for MLA's
                                    shared latent, which tensor parallelism replicates) */
};

/* Parameter counts by component, whole model. All exact integers. */
struct param_counts {
    int64_t embedding;       /* token embedding V*h */
    int64_t position;        /* learned positions context*h (0 for RoPE) */
    int64_t attention;       /* Q, K, V, O weights, all layers */
    int64_t mlp;             /* MLP weights, all layers, all experts */
    int64_t mlp_active;      /* MLP weights a token passes through, all layers */
    int64_t router;          /* MoE routers, all layers */
    int64_t norms;           /* norm weights (and LayerNorm biases), all layers + final */
    int64_t biases;          /* linear-layer biases */
    int64_t lm_head;         /* 0 when tied */
    int64_t mtp;             /* multi-token-prediction modules: not in total or active (as
                                DeepSeek-V3's "671B" excludes its 14B MTP module) */
    int64_t per_layer;       /* one layer, all experts (largest kind of layer) */
    int64_t total;           /* the sum of the parts above (for a custom size: its shape's) */
    int64_t active;          /* parameters one token uses (MoE: top-k experts) */
    int64_t typed;           /* a custom size: the count asked for, which 6ND uses as N (the
                                fitted shape's total differs from it by under 0.01%); else 0 */
};

/* Fills every count from the architecture. total is always the sum of the parts; for a
 * custom size typed holds the count asked for. */
void model_params(const struct model_arch *m, struct param_counts *out);

/* Checks the architecture is usable. On error writes one line (field and what is wrong,
 * without the file name) to err and returns false. */
bool model_validate(const struct model_arch *m, char *err, int errlen);

/*
 * A custom model of n parameters. The shape follows GPT-3 and Llama: head size 128,
 * d_model = 128 x layers (heads rounded to a multiple of 8 from 16 layers on), SwiGLU,
 * RMSNorm, RoPE, untied 128256-token vocabulary, 8 KV heads (GQA) once there are more than 8
 * heads. The MLP width is fitted so that the shape's own count is within 0.01% of n, and the
 * layer count is the one whose fitted width is closest to Llama's 8/3 d_model. Models too
 * small for a 128256-token vocabulary keep ffn = 8/3 d_model and fit the vocabulary instead.
 * exact_params records n (what 6ND uses). Returns false if n is not a count a model can have
 * (below 1e6 or above 1e17).
 */
bool model_from_params(double n, struct model_arch *out);

/*
 * A Hugging Face checkpoint's bytes against the count (checkpoint_bytes > 0): *per_param gets
 * its bytes per parameter counted (the MTP module included, as checkpoints hold it). True
 * when the dtype explains them, within 1% (tensors the count leaves out, such as rotary
 * tables, are that small): torch_dtype's bytes when the config names one, else 1, 2 or 4.
 * False is a checkpoint this config does not describe, or a quantized one.
 */
bool model_checkpoint_explained(const struct model_arch *m, double *per_param);

/* True for a gated MLP (swiglu, geglu): three matrices. */
bool model_mlp_gated(enum mlp_kind k);
/* Norms in one layer (pre/post 2, sandwich 4, a parallel block with one norm 1), not
 * counting QK-norm or MLA's latent norms. */
int64_t model_layer_norms(const struct model_arch *m);
/* The width of each shared expert (shared_ffn, or the expert width when 0). */
int64_t model_shared_ffn(const struct model_arch *m);
/* Expert MLPs a token passes through in a MoE layer, and expert MLPs the layer holds, in
 * units of the routed expert's width: top-k + shared x shared_ffn / expert width, and
 * experts + the same. 1 for a dense model. */
double model_experts_visited(const struct model_arch *m);
double model_experts_held(const struct model_arch *m);
/* The MLP hidden width of MoE layers (moe_ffn, or ffn when 0). */
int64_t model_expert_ffn(const struct model_arch *m);
/* Number of layers whose MLP is a mixture of experts. */
int64_t model_moe_layers(const struct model_arch *m);
/* True for a mixture-of-experts model. */
bool model_is_moe(const struct model_arch *m);
/* True for multi-head latent attention (kv_lora_rank > 0). */
bool model_is_mla(const struct model_arch *m);
/* head_dim, or d_model / heads when it is not given. */
int64_t model_head_dim(const struct model_arch *m);
void model_attn_dims(const struct model_arch *m, struct attn_dims *out);
/* Layers that attend within the sliding window (0 without one). */
int64_t model_local_layers(const struct model_arch *m);
/* Keys one query at position ctx attends to, averaged over the layers (local layers see at
 * most the window). */
double model_attn_span(const struct model_arch *m, double ctx);

#endif
