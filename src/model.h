/* model.h - transformer architecture and its exact parameter counts. */
#ifndef ROOFTOP_MODEL_H
#define ROOFTOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MODEL_NAME_MAX 64

enum mlp_kind { MLP_GELU, MLP_SWIGLU };
enum norm_kind { NORM_LAYERNORM, NORM_RMSNORM };
enum pos_kind { POS_LEARNED, POS_ROPE };

/*
 * The names the spec, scenario and command-line forms give these kinds, in enum order: the
 * one table of each that every reader and writer uses. _parse is exact (the files' spelling);
 * false when s is none of them.
 */
#define MODEL_MLP_KINDS 2
#define MODEL_NORM_KINDS 2
#define MODEL_POS_KINDS 2
extern const char *const model_mlp_names[MODEL_MLP_KINDS];   /* "gelu", "swiglu" */
extern const char *const model_norm_names[MODEL_NORM_KINDS]; /* "layernorm", "rmsnorm" */
extern const char *const model_pos_names[MODEL_POS_KINDS];   /* "learned", "rope" */
const char *model_mlp_name(enum mlp_kind k);
const char *model_norm_name(enum norm_kind k);
const char *model_pos_name(enum pos_kind k);
bool model_mlp_parse(const char *s, enum mlp_kind *out);
bool model_norm_parse(const char *s, enum norm_kind *out);
bool model_pos_parse(const char *s, enum pos_kind *out);
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
