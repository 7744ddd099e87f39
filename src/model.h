/* model.h - transformer architecture and its exact parameter counts. */
#ifndef ROOFTOP_MODEL_H
#define ROOFTOP_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define MODEL_NAME_MAX 64

enum mlp_kind { MLP_GELU, MLP_SWIGLU };
enum norm_kind { NORM_LAYERNORM, NORM_RMSNORM };
enum pos_kind { POS_LEARNED, POS_ROPE };

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
    int64_t total;
    int64_t active;          /* parameters one token uses (MoE: top-k experts) */
};

/* Fills every count from the architecture. For a custom exact-N model, total and active
 * are exactly N; components come from the derived shape. */
void model_params(const struct model_arch *m, struct param_counts *out);

/* Checks the architecture is usable. On error writes one line (field and what is wrong,
 * without the file name) to err and returns false. */
bool model_validate(const struct model_arch *m, char *err, int errlen);

/*
 * A custom model of exactly n parameters. The shape follows GPT-3 and Llama: head size
 * 128, d_model = 128 x layers (heads rounded to a multiple of 8 from 16 layers on), SwiGLU with ffn = 8/3 d_model rounded up to a multiple of
 * 256, RMSNorm, RoPE, untied 128256-token vocabulary, 8 KV heads (GQA) once there are
 * more than 8 heads. layers is chosen so that the shape's own count is closest to n.
 * Returns false if n is not a positive count a model can have (below about 1e6).
 */
bool model_from_params(double n, struct model_arch *out);

/* The MLP hidden width of MoE layers (moe_ffn, or ffn when 0). */
int64_t model_expert_ffn(const struct model_arch *m);
/* Number of layers whose MLP is a mixture of experts. */
int64_t model_moe_layers(const struct model_arch *m);
/* True for a mixture-of-experts model. */
bool model_is_moe(const struct model_arch *m);

#endif
