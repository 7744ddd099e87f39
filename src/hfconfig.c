/* hfconfig.c - a Hugging Face config.json read into rooftop's model architecture.
 *
 * A config.json gives a model's widths and counts, but much of the architecture only through
 * its model_type: which norms a layer has and where, whether the MLP is gated, whether the
 * attention and MLP run in parallel, which linear layers carry biases, whether the embeddings
 * are tied when the file does not say. Those conventions are in ONE table below (TYPES), each
 * row read from the type's modeling and configuration code in Hugging Face transformers. The
 * keys are read as transformers reads them; a key a type does not use is ignored as
 * transformers ignores it; a value the model fields cannot express is refused, never
 * approximated. */
#include "hfconfig.h"

#include "json_kind.h"
#include "json_read.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on what is read: those of model_validate (which checks the whole model after). */
#define HF_LAYERS_MAX 100000
#define HF_WIDTH_MAX 10000000
#define HF_VOCAB_MAX 100000000
#define HF_CONTEXT_MAX 100000000
#define HF_EXPERTS_MAX 100000
#define HF_SHOW_MAX 40 /* longest piece of the file's text quoted in a message */

/* ---- the conventions of each model_type ------------------------------------------------ */

/* Which linear layers have biases. */
enum hf_bias {
    /* attention_bias (default false) puts biases on q, k, v and o, mlp_bias (default false)
     * on the MLP's matrices (LlamaAttention, LlamaMLP): both or neither can be expressed. */
    BIAS_KEYS,
    BIAS_QKV, /* q, k and v always, o none (Qwen2Attention) */
    BIAS_QKV_KEY, /* q, k and v when attention_bias (default false), o none (Glm4MoeAttention) */
    BIAS_QKV_MOE, /* q, k and v when qkv_bias (default true), o none (Qwen2MoeAttention) */
    /* every linear layer (GPT-2, GPT-NeoX, Phi-2, OPT, gpt-oss's attention and experts);
     * attention_bias false (NeoX, gpt-oss) would leave the MLP's alone and is refused, OPT's
     * enable_bias false removes them all */
    BIAS_ALL,
    BIAS_ALWAYS,  /* every linear layer, no key (GPT2Config, GPTBigCode, Phi's first format) */
    BIAS_USE,     /* use_bias (default true): every linear layer or none (Starcoder2) */
    BIAS_MLP,     /* the MLP's fc_in/fc_out only, no key (GPT-J's attention has none) */
    BIAS_QKV_USE, /* q, k and v when use_qkv_bias (default false) (StableLM) */
    BIAS_NONE,    /* no linear layer has one, no key (Baichuan, EXAONE) */
    /* bias (default true) puts biases on wqkv and wo but none on the MLP, which the fields
     * cannot express: only false is read (InternLM2; its released configs say false) */
    BIAS_INTERNLM,
    /* add_qkv_bias (default false) on the fused qkv; add_bias_linear (default false) on every
     * other linear layer, refused (ChatGLM2/3) */
    BIAS_GLM,
    /* c_attn's bias always (q, k, v); no_bias (default true) false would add them to c_proj
     * and the MLP, refused (Qwen 1) */
    BIAS_QWEN,
};

/* How the type gives its sliding-window layers (a "layer_types" list, when the config has
 * one, overrides every rule: transformers builds it from these rules when the file lacks it). */
enum hf_window {
    WIN_NONE,      /* no sliding window (a sliding_window key is unused, as transformers does) */
    WIN_ALL,       /* sliding_window (null: none) on every layer: Mistral, Mixtral, Phi-3 */
    WIN_QWEN,      /* use_sliding_window; then layers from max_window_layers on are local */
    /* use_sliding_window; then every other layer (the first local) below max_window_layers
     * (Qwen2MoeConfig's layer_types) */
    WIN_QWEN2_MOE,
    WIN_ALTERNATE, /* sliding_window on every other layer, the first local (Gemma 2, gpt-oss) */
    WIN_PATTERN,   /* every sliding_window_pattern-th layer global, the rest local (Gemma 3) */
};

/* Where the experts come from. */
enum hf_moe {
    MOE_NONE,
    /* num_local_experts of intermediate_size, num_experts_per_tok (Mixtral; gpt-oss with
     * biased experts and a biased router) */
    MOE_MIXTRAL,
    MOE_GPT_OSS,
    MOE_OLMOE, /* num_experts of intermediate_size, num_experts_per_tok, every layer (OLMoE) */
    /* num_experts of moe_intermediate_size, num_experts_per_tok, decoder_sparse_step and
     * mlp_only_layers (dense layers of intermediate_size); Qwen2-MoE adds one shared expert
     * of shared_expert_intermediate_size behind a sigmoid gate h -> 1 */
    MOE_QWEN2,
    MOE_QWEN3,
    /* n_routed_experts and n_shared_experts of moe_intermediate_size, num_experts_per_tok,
     * the first first_k_dense_replace layers dense (intermediate_size), moe_layer_freq 1;
     * topk_method "noaux_tc" has a per-expert e_score_correction_bias (DeepSeek-V3) */
    MOE_DEEPSEEK,
    /* as MOE_DEEPSEEK, but n_routed_experts absent or null is a dense model (DeepseekConfig of
     * DeepSeek-MoE / V1: its DeepseekDecoderLayer builds a DeepseekMoE only when it is set) */
    MOE_DEEPSEEK_V1,
};

/* Where the K/V head count comes from. */
enum hf_kv {
    KV_KEY,         /* num_key_value_heads (absent or null: every head its own, LlamaConfig) */
    KV_NONE,        /* multi-head attention always; the key is not read (GPT-2, OPT, NeoX) */
    KV_MULTI_QUERY, /* multi_query (default true): one K/V head, else one per head (GPTBigCode) */
    /* multi_query_attention (default false) with multi_query_group_num (default 1) groups
     * (ChatGLM2/3) */
    KV_GLM,
    KV_MSFT,        /* n_head_kv (null: one per head) (Phi's first format) */
};

/* The names of the shape keys. */
enum hf_names {
    NAMES_HF,   /* hidden_size, num_hidden_layers, num_attention_heads, intermediate_size,
                   max_position_embeddings */
    NAMES_GPT2, /* n_embd, n_layer, n_head, n_inner (null: 4 x n_embd), n_positions */
    NAMES_OPT,  /* as NAMES_HF with ffn_dim for the MLP width */
    NAMES_EXAONE, /* as NAMES_HF with num_layers; intermediate_size null: 4 x hidden_size */
    NAMES_GLM,  /* num_layers, ffn_hidden_size, seq_length, padded_vocab_size (ChatGLM2/3) */
    NAMES_COUNT
};

/* Keys a config class maps onto its own names (attribute_map: GPT2Config's hidden_size is
 * n_embd, OPTConfig's hidden_size is d_model): a file may write either. */
static const struct hf_alias {
    enum hf_names names;
    const char *key, *alias;
} ALIASES[] = {
    {NAMES_GPT2, "n_embd", "hidden_size"},
    {NAMES_GPT2, "n_layer", "num_hidden_layers"},
    {NAMES_GPT2, "n_head", "num_attention_heads"},
    {NAMES_GPT2, "n_positions", "max_position_embeddings"},
    {NAMES_OPT, "hidden_size", "d_model"},
};

/* The shape keys of each naming. */
static const struct hf_keys {
    const char *hidden, *layers, *heads, *ffn, *context, *vocab;
    bool ffn_4h; /* the MLP width absent or null: 4 x hidden (GPT2MLP, ExaoneConfig) */
} KEYS[NAMES_COUNT] = {
    [NAMES_HF] = {"hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                  "max_position_embeddings", "vocab_size", false},
    [NAMES_GPT2] = {"n_embd", "n_layer", "n_head", "n_inner", "n_positions", "vocab_size", true},
    [NAMES_OPT] = {"hidden_size", "num_hidden_layers", "num_attention_heads", "ffn_dim",
                   "max_position_embeddings", "vocab_size", false},
    [NAMES_EXAONE] = {"hidden_size", "num_layers", "num_attention_heads", "intermediate_size",
                      "max_position_embeddings", "vocab_size", true},
    [NAMES_GLM] = {"hidden_size", "num_layers", "num_attention_heads", "ffn_hidden_size",
                   "seq_length", "padded_vocab_size", false},
};

/* Checks and keys a type reads beyond the common ones. */
enum hf_extras {
    EXTRAS_NONE,
    EXTRAS_OPT,      /* do_layer_norm_before, word_embed_proj_dim, ... (read_opt_extras) */
    EXTRAS_GLM,      /* rmsnorm, post_layer_norm; ChatGLM-6B's first version refused */
    EXTRAS_STABLELM, /* qk_layernorm (per-head LayerNorms with biases) refused */
    EXTRAS_MSFT,     /* vocab_size padded to pad_vocab_size_multiple (default 64) */
};

struct hf_type {
    const char *type;         /* model_type */
    bool gated;               /* three MLP matrices (swiglu with silu, geglu with gelu) */
    const char *act;          /* the activation when the file names none (class default) */
    enum norm_kind norm;
    enum norm_place place;
    enum qk_norm_kind qk;     /* the QK-norm's shape */
    const char *qk_key;       /* a boolean key (default false) that turns qk on; NULL: always */
    enum block_kind block;
    const char *block_key;    /* a boolean key (default true) choosing block over sequential */
    bool tied;                /* tie_word_embeddings when the file does not say */
    enum hf_bias bias;
    enum pos_kind pos;
    int64_t pos_rows_extra;   /* rows of the learned position table beyond the context */
    enum hf_window window;
    enum hf_moe moe;
    bool mla;                 /* DeepSeek's multi-head latent attention (kv_lora_rank, ...) */
    bool mtp;                 /* num_nextn_predict_layers MTP modules (counted apart) */
    bool router_bias;         /* the router's bias when the file does not say (topk_method) */
    bool lm_head_bias;
    bool attn_sinks;
    enum hf_names names;
    enum hf_kv kv;
    bool no_head_dim;         /* head_dim is d_model / heads; a head_dim key is not read */
    bool head_dim_kv_channels; /* the head width is kv_channels (Qwen 1, ChatGLM) */
    /* no head_dim and heads not dividing the width: hidden_size // num_attention_heads, as
     * the attention's getattr(config, "head_dim", ...) floors it (Glm4MoeAttention) */
    bool head_dim_floor;
    bool ffn_half;            /* the MLP's width is intermediate_size / 2 (QWenMLP) */
    bool block_key_off;       /* block_key defaults to false (StableLM's use_parallel_residual) */
    enum hf_extras extras;
    /* The config class's defaults for keys the file lacks, as JSON (NULL: the keys are
     * required). A key written null keeps its null meaning (sliding_window null: no window). */
    const char *defaults;
};

/*
 * THE TABLE: each type's conventions, from transformers' modeling_<type>.py and
 * configuration_<type>.py (v4.5x). Columns: gated MLP and default activation; norm kind;
 * where the block's norms sit (pre 2, post 2, sandwich 4); QK-norm (head: one weight of
 * head_dim shared by the heads; full: heads x head_dim, as OLMo 2's q_norm/k_norm and Cohere's
 * CohereLayerNorm((heads, head_dim)) hold); block (parallel: attention and MLP on the same
 * input with a norm each; parallel-one-norm: sharing one); tied default; biases; positions;
 * sliding windows; experts; MLA; the router's bias; the LM head's bias; attention sinks;
 * key names.
 *
 *   llama        SwiGLU, RMSNorm, pre, untied; attention_bias/mlp_bias keys
 *   mistral      as llama; sliding_window on every layer (v0.1: 4096)
 *   mixtral      as mistral; num_local_experts of intermediate_size, router without bias
 *   qwen2        as llama, biases on q, k, v (hard-coded); use_sliding_window/max_window_layers
 *   qwen2_moe    as qwen2, with qkv_bias (default true) for the q, k, v biases; experts of
 *                moe_intermediate_size, a gated shared expert; use_sliding_window: every
 *                other layer local below max_window_layers
 *   qwen3        as llama; QK-norm per head (q_norm, k_norm of head_dim)
 *   qwen3_moe    as qwen3; experts of moe_intermediate_size, no shared expert
 *   gemma        GeGLU (gelu_pytorch_tanh), RMSNorm, pre, tied
 *   gemma2       as gemma; sandwich (pre/post attention and pre/post feed-forward), every
 *                other layer local
 *   gemma3_text  as gemma2; QK-norm per head, every sliding_window_pattern-th layer global
 *                (gemma3: the same, read from its text_config)
 *   phi3         SwiGLU (fused qkv_proj, gate_up_proj: the same counts), RMSNorm, pre, untied,
 *                no biases; sliding_window on every layer
 *   olmo2        SwiGLU, RMSNorm after attention and after the MLP only (post), QK-norm over
 *                the whole projections, untied
 *   olmo         SwiGLU, non-parametric LayerNorm (OlmoLayerNorm: no weight, no bias), pre,
 *                untied (OLMo 1)
 *   olmoe        SwiGLU, RMSNorm, pre (OlmoeDecoderLayer), QK-norm over the whole
 *                projections, untied; num_experts of intermediate_size, a router without bias
 *   deepseek_v2  SwiGLU, RMSNorm, pre, untied; MLA; shared and routed experts, dense first
 *                layers; greedy routing without a bias
 *   deepseek_v3  as deepseek_v2; noaux_tc routing with e_score_correction_bias;
 *                num_nextn_predict_layers MTP modules (counted apart)
 *   glm4_moe     SwiGLU, RMSNorm, pre, untied; attention_bias on q, k, v only; use_qk_norm:
 *                QK-norm per head; experts as deepseek_v3 (the router always has
 *                e_score_correction_bias); num_nextn_predict_layers MTP modules; without
 *                head_dim, heads of hidden_size // num_attention_heads (floored)
 *   gpt_oss      SwiGLU, RMSNorm, pre, untied; biases on q, k, v, o and on the experts, a
 *                router with a bias, a sink logit per head; alternate sliding layers
 *   cohere       SwiGLU, LayerNorm without bias, attention and MLP in parallel after one
 *                norm, tied; use_qk_norm: QK-norm over (heads, head_dim)
 *   gpt2         GELU (gelu_new), LayerNorm, pre, tied, biases everywhere, learned positions
 *   gpt_neox     GELU, LayerNorm, parallel with two norms (use_parallel_residual, default
 *                true), untied, biases everywhere
 *   phi          GELU (gelu_new), LayerNorm, parallel after one norm, untied, biases
 *                everywhere and on the LM head (Phi-2); qk_layernorm: per-head LayerNorm
 *   opt          ReLU, LayerNorm, pre, tied, biases everywhere, learned positions with
 *                fairseq's offset of 2 rows (OPTLearnedPositionalEmbedding)
 *   gptj         GELU (gelu_new), LayerNorm, parallel after one norm (ln_1), biases on the
 *                MLP only (q, k, v, out_proj have none) and on the LM head, untied; GPT-2's
 *                key names
 *   gpt_bigcode  as gpt2 with multi_query (default true): one K/V head (StarCoder)
 *   starcoder2   GELU (gelu_pytorch_tanh) c_fc/c_proj, LayerNorm, pre, tied; use_bias
 *                (default true) on every linear layer; sliding_window on every layer
 *   stablelm     SwiGLU, LayerNorm, pre (use_parallel_residual, default false: one norm),
 *                use_qkv_bias, untied
 *   internlm2    SwiGLU (w1, w3, w2), RMSNorm, pre, untied; fused wqkv without bias
 *   baichuan     SwiGLU, RMSNorm, pre, untied; W_pack without bias, multi-head attention
 *   chatglm      SwiGLU (dense_h_to_4h of 2 x ffn_hidden_size), RMSNorm (rmsnorm), pre,
 *                untied; add_qkv_bias; multi_query_group_num K/V heads of kv_channels
 *   qwen         SwiGLU of intermediate_size / 2 (w1, w2, c_proj), RMSNorm, pre, untied;
 *                c_attn with its bias, heads of kv_channels (Qwen 1)
 *   deepseek     SwiGLU, RMSNorm, pre, untied; DeepSeekMoE's routed and shared experts when
 *                n_routed_experts is set, the first first_k_dense_replace layers dense
 *   minicpm      SwiGLU, RMSNorm, pre, tied (MiniCPM 1/2; its scale_emb and scale_depth
 *                scale activations, not weights)
 *   phi-msft     Phi-1.5/2 in their first format: as phi (GPT-2's key names, n_head_kv),
 *                vocab_size padded to pad_vocab_size_multiple (64)
 *   cohere2      as cohere without QK-norm; every sliding_window_pattern-th (4) layer global
 *   granite      as llama (its multipliers scale activations, not weights)
 *   exaone       SwiGLU (c_fc_0, c_fc_1, c_proj), RMSNorm, pre, tied by default, no biases;
 *                num_layers, intermediate_size null: 4 x hidden_size
 * Each row's defaults (the last column) are its config class's for the keys a file may
 * leave out, read from transformers' src/transformers/models/<type>/configuration_<type>.py
 * (main at commit 008e5743: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe,
 * gemma, gemma2, phi3, olmo, olmo2, olmoe, deepseek_v2, deepseek_v3, glm4_moe, cohere,
 * gpt_neox, phi; GptOssConfig at 02b8f42b; GPT2Config, OPTConfig and GPTJConfig's __init__
 * arguments; Gemma3TextConfig below), and for the types whose class lives beside their
 * checkpoint (trust_remote_code) from that configuration_*.py. deepseek_v3's and glm4_moe's
 * num_mtp_layers (1) is the file's num_nextn_predict_layers (their attribute_map). A key the
 * class defaults to None (LlamaConfig's num_key_value_heads, head_dim) is left out: the
 * reader applies the class's rule (one K/V head per head, d_model / heads). GPTBigCode does
 * not set tie_word_embeddings, so PretrainedConfig's true holds; GPTJConfig (main 008e5743)
 * and Phi's first format (its remote PhiConfig) default it to false; the K/V heads
 * and head_dim are read only where the class reads them (GPT-2, OPT, GPT-NeoX and the GPT-J
 * family build every head from d_model / heads).
 */
static const struct hf_type TYPES[] = {
    {.type = "llama", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_KEYS,
     .pos = POS_ROPE,
     .defaults = "{\"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "mistral", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_KEYS,
     .pos = POS_ROPE, .window = WIN_ALL,
     .defaults = "{\"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 14336,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"num_key_value_heads\": 8, \"max_position_embeddings\": 131072,"
                 " \"sliding_window\": 4096}"},
    {.type = "mixtral", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_KEYS,
     .pos = POS_ROPE, .window = WIN_ALL, .moe = MOE_MIXTRAL,
     .defaults = "{\"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 14336,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"num_key_value_heads\": 8, \"max_position_embeddings\": 131072,"
                 " \"num_local_experts\": 8, \"num_experts_per_tok\": 2}"},
    {.type = "qwen2", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_QKV,
     .pos = POS_ROPE, .window = WIN_QWEN,
     .defaults = "{\"vocab_size\": 151936, \"hidden_size\": 4096, \"intermediate_size\": 22016,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"num_key_value_heads\": 32, \"max_position_embeddings\": 32768,"
                 " \"sliding_window\": 4096, \"max_window_layers\": 28}"},
    {.type = "qwen2_moe", .gated = true, .act = "silu", .norm = NORM_RMSNORM,
     .bias = BIAS_QKV_MOE, .pos = POS_ROPE, .window = WIN_QWEN2_MOE, .moe = MOE_QWEN2,
     .defaults = "{\"vocab_size\": 151936, \"hidden_size\": 2048, \"intermediate_size\": 5632,"
                 " \"num_hidden_layers\": 24, \"num_attention_heads\": 16,"
                 " \"num_key_value_heads\": 16, \"max_position_embeddings\": 32768,"
                 " \"sliding_window\": 4096, \"max_window_layers\": 28,"
                 " \"moe_intermediate_size\": 1408, \"shared_expert_intermediate_size\": 5632,"
                 " \"num_experts_per_tok\": 4, \"num_experts\": 60}"},
    {.type = "qwen3", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .qk = QK_NORM_HEAD,
     .bias = BIAS_KEYS, .pos = POS_ROPE, .window = WIN_QWEN,
     .defaults = "{\"vocab_size\": 151936, \"hidden_size\": 4096, \"intermediate_size\": 22016,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"num_key_value_heads\": 32, \"head_dim\": 128,"
                 " \"max_position_embeddings\": 32768, \"sliding_window\": 4096,"
                 " \"max_window_layers\": 28}"},
    {.type = "qwen3_moe", .gated = true, .act = "silu", .norm = NORM_RMSNORM,
     .qk = QK_NORM_HEAD, .bias = BIAS_KEYS, .pos = POS_ROPE, .window = WIN_QWEN,
     .moe = MOE_QWEN3,
     .defaults = "{\"vocab_size\": 151936, \"hidden_size\": 2048, \"intermediate_size\": 6144,"
                 " \"num_hidden_layers\": 24, \"num_attention_heads\": 32,"
                 " \"num_key_value_heads\": 4, \"max_position_embeddings\": 32768,"
                 " \"sliding_window\": 4096, \"moe_intermediate_size\": 768,"
                 " \"num_experts_per_tok\": 8, \"num_experts\": 128}"},
    {.type = "gemma", .gated = true, .act = "gelu_pytorch_tanh", .norm = NORM_RMSNORM,
     .tied = true, .bias = BIAS_KEYS, .pos = POS_ROPE,
     .defaults = "{\"vocab_size\": 256000, \"hidden_size\": 3072, \"intermediate_size\": 24576,"
                 " \"num_hidden_layers\": 28, \"num_attention_heads\": 16,"
                 " \"num_key_value_heads\": 16, \"head_dim\": 256,"
                 " \"max_position_embeddings\": 8192}"},
    {.type = "gemma2", .gated = true, .act = "gelu_pytorch_tanh", .norm = NORM_RMSNORM,
     .place = NORM_SANDWICH, .tied = true, .bias = BIAS_KEYS, .pos = POS_ROPE,
     .window = WIN_ALTERNATE,
     .defaults = "{\"vocab_size\": 256000, \"hidden_size\": 2304, \"intermediate_size\": 9216,"
                 " \"num_hidden_layers\": 26, \"num_attention_heads\": 8,"
                 " \"num_key_value_heads\": 4, \"head_dim\": 256,"
                 " \"max_position_embeddings\": 8192, \"sliding_window\": 4096}"},
    {.type = "gemma3_text", .gated = true, .act = "gelu_pytorch_tanh", .norm = NORM_RMSNORM,
     .place = NORM_SANDWICH, .qk = QK_NORM_HEAD, .tied = true, .bias = BIAS_KEYS,
     .pos = POS_ROPE, .window = WIN_PATTERN},
    {.type = "phi3", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_KEYS,
     .pos = POS_ROPE, .window = WIN_ALL,
     .defaults = "{\"vocab_size\": 32064, \"hidden_size\": 3072, \"intermediate_size\": 8192,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 4096}"},
    {.type = "olmo2", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .place = NORM_POST,
     .qk = QK_NORM_FULL, .bias = BIAS_KEYS, .pos = POS_ROPE,
     .defaults = "{\"vocab_size\": 50304, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "olmo", .gated = true, .act = "silu", .norm = NORM_NONPARAMETRIC,
     .bias = BIAS_KEYS, .pos = POS_ROPE,
     .defaults = "{\"vocab_size\": 50304, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "olmoe", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .qk = QK_NORM_FULL,
     .bias = BIAS_KEYS, .pos = POS_ROPE, .moe = MOE_OLMOE,
     .defaults = "{\"vocab_size\": 50304, \"hidden_size\": 2048, \"intermediate_size\": 2048,"
                 " \"num_hidden_layers\": 16, \"num_attention_heads\": 16,"
                 " \"max_position_embeddings\": 4096, \"num_experts_per_tok\": 8,"
                 " \"num_experts\": 64}"},
    /* DeepseekV2Config's num_experts_per_tok is None, which routes no token: the key stays
     * required. */
    {.type = "deepseek_v2", .gated = true, .act = "silu", .norm = NORM_RMSNORM,
     .bias = BIAS_KEYS, .pos = POS_ROPE, .moe = MOE_DEEPSEEK, .mla = true,
     .defaults = "{\"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048, \"first_k_dense_replace\": 0,"
                 " \"kv_lora_rank\": 512, \"q_lora_rank\": 1536, \"n_routed_experts\": 64,"
                 " \"n_shared_experts\": 2, \"qk_nope_head_dim\": 128,"
                 " \"qk_rope_head_dim\": 64, \"v_head_dim\": 128,"
                 " \"moe_intermediate_size\": 1407, \"topk_method\": \"greedy\"}"},
    {.type = "deepseek_v3", .gated = true, .act = "silu", .norm = NORM_RMSNORM,
     .bias = BIAS_KEYS, .pos = POS_ROPE, .moe = MOE_DEEPSEEK, .mla = true, .mtp = true,
     .router_bias = true,
     .defaults = "{\"vocab_size\": 129280, \"hidden_size\": 7168, \"intermediate_size\": 18432,"
                 " \"moe_intermediate_size\": 2048, \"num_hidden_layers\": 61,"
                 " \"num_attention_heads\": 128, \"num_key_value_heads\": 128,"
                 " \"n_shared_experts\": 1, \"n_routed_experts\": 256, \"kv_lora_rank\": 512,"
                 " \"q_lora_rank\": 1536, \"qk_rope_head_dim\": 64, \"v_head_dim\": 128,"
                 " \"qk_nope_head_dim\": 128, \"num_experts_per_tok\": 8,"
                 " \"first_k_dense_replace\": 3, \"max_position_embeddings\": 4096,"
                 " \"num_nextn_predict_layers\": 1}"},
    {.type = "glm4_moe", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .qk = QK_NORM_HEAD,
     .qk_key = "use_qk_norm", .bias = BIAS_QKV_KEY, .pos = POS_ROPE, .moe = MOE_DEEPSEEK,
     .mtp = true, .router_bias = true, .head_dim_floor = true,
     .defaults = "{\"vocab_size\": 151552, \"hidden_size\": 4096, \"intermediate_size\": 10944,"
                 " \"num_hidden_layers\": 46, \"num_attention_heads\": 96,"
                 " \"num_key_value_heads\": 8, \"max_position_embeddings\": 131072,"
                 " \"moe_intermediate_size\": 1408, \"num_experts_per_tok\": 8,"
                 " \"n_shared_experts\": 1, \"n_routed_experts\": 128,"
                 " \"first_k_dense_replace\": 1, \"num_nextn_predict_layers\": 1}"},
    {.type = "gpt_oss", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_ALL,
     .pos = POS_ROPE, .window = WIN_ALTERNATE, .moe = MOE_GPT_OSS, .router_bias = true,
     .attn_sinks = true,
     .defaults = "{\"num_hidden_layers\": 36, \"num_local_experts\": 128,"
                 " \"vocab_size\": 201088, \"hidden_size\": 2880, \"intermediate_size\": 2880,"
                 " \"head_dim\": 64, \"num_attention_heads\": 64, \"num_key_value_heads\": 8,"
                 " \"sliding_window\": 128, \"max_position_embeddings\": 131072,"
                 " \"num_experts_per_tok\": 4}"},
    {.type = "cohere", .gated = true, .act = "silu", .norm = NORM_LAYERNORM_NOBIAS,
     .qk = QK_NORM_FULL, .qk_key = "use_qk_norm", .block = BLOCK_PARALLEL_ONE_NORM,
     .tied = true, .bias = BIAS_KEYS, .pos = POS_ROPE,
     .defaults = "{\"vocab_size\": 256000, \"hidden_size\": 8192, \"intermediate_size\": 22528,"
                 " \"num_hidden_layers\": 40, \"num_attention_heads\": 64,"
                 " \"max_position_embeddings\": 8192}"},
    {.type = "gpt2", .act = "gelu_new", .norm = NORM_LAYERNORM, .tied = true,
     .bias = BIAS_ALWAYS, .pos = POS_LEARNED, .names = NAMES_GPT2, .kv = KV_NONE,
     .no_head_dim = true,
     .defaults = "{\"vocab_size\": 50257, \"n_positions\": 1024, \"n_embd\": 768,"
                 " \"n_layer\": 12, \"n_head\": 12}"},
    {.type = "gpt_neox", .act = "gelu", .norm = NORM_LAYERNORM, .block = BLOCK_PARALLEL,
     .block_key = "use_parallel_residual", .bias = BIAS_ALL, .pos = POS_ROPE, .kv = KV_NONE,
     .no_head_dim = true,
     .defaults = "{\"vocab_size\": 50432, \"hidden_size\": 6144, \"intermediate_size\": 24576,"
                 " \"num_hidden_layers\": 44, \"num_attention_heads\": 64,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "phi", .act = "gelu_new", .norm = NORM_LAYERNORM, .qk = QK_NORM_HEAD,
     .qk_key = "qk_layernorm", .block = BLOCK_PARALLEL_ONE_NORM, .bias = BIAS_ALL,
     .pos = POS_ROPE, .lm_head_bias = true,
     .defaults = "{\"vocab_size\": 51200, \"hidden_size\": 2048, \"intermediate_size\": 8192,"
                 " \"num_hidden_layers\": 24, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "opt", .act = "relu", .norm = NORM_LAYERNORM, .tied = true, .bias = BIAS_ALL,
     .pos = POS_LEARNED, .pos_rows_extra = 2, .names = NAMES_OPT, .kv = KV_NONE,
     .no_head_dim = true, .extras = EXTRAS_OPT,
     .defaults = "{\"vocab_size\": 50272, \"max_position_embeddings\": 2048, \"num_hidden_layers\": 12,"
                 " \"num_attention_heads\": 12, \"ffn_dim\": 3072, \"d_model\": 768}"},
    {.type = "gptj", .act = "gelu_new", .norm = NORM_LAYERNORM, .block = BLOCK_PARALLEL_ONE_NORM,
     .bias = BIAS_MLP, .pos = POS_ROPE, .lm_head_bias = true, .names = NAMES_GPT2,
     .kv = KV_NONE, .no_head_dim = true,
     .defaults = "{\"vocab_size\": 50400, \"n_positions\": 2048, \"n_embd\": 4096,"
                 " \"n_layer\": 28, \"n_head\": 16}"},
    {.type = "gpt_bigcode", .act = "gelu_pytorch_tanh", .norm = NORM_LAYERNORM, .tied = true,
     .bias = BIAS_ALWAYS, .pos = POS_LEARNED, .names = NAMES_GPT2, .kv = KV_MULTI_QUERY,
     .no_head_dim = true,
     .defaults = "{\"vocab_size\": 50257, \"n_positions\": 1024, \"n_embd\": 768,"
                 " \"n_layer\": 12, \"n_head\": 12}"},
    {.type = "starcoder2", .act = "gelu_pytorch_tanh", .norm = NORM_LAYERNORM, .tied = true,
     .bias = BIAS_USE, .pos = POS_ROPE, .window = WIN_ALL,
     .defaults = "{\"vocab_size\": 49152, \"hidden_size\": 3072, \"intermediate_size\": 12288,"
                 " \"num_hidden_layers\": 30, \"num_attention_heads\": 24,"
                 " \"num_key_value_heads\": 2, \"max_position_embeddings\": 4096}"},
    {.type = "stablelm", .gated = true, .act = "silu", .norm = NORM_LAYERNORM,
     .block = BLOCK_PARALLEL_ONE_NORM, .block_key = "use_parallel_residual",
     .block_key_off = true, .bias = BIAS_QKV_USE, .pos = POS_ROPE, .no_head_dim = true,
     .extras = EXTRAS_STABLELM,
     .defaults = "{\"vocab_size\": 50304, \"intermediate_size\": 6912, \"hidden_size\": 2560,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"num_key_value_heads\": 32, \"max_position_embeddings\": 4096}"},
    {.type = "internlm2", .gated = true, .act = "silu", .norm = NORM_RMSNORM,
     .bias = BIAS_INTERNLM, .pos = POS_ROPE, .no_head_dim = true,
     .defaults = "{\"vocab_size\": 103168, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "baichuan", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_NONE,
     .pos = POS_ROPE, .kv = KV_NONE, .no_head_dim = true,
     .defaults = "{\"vocab_size\": 64000, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 4096}"},
    {.type = "chatglm", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_GLM,
     .pos = POS_ROPE, .names = NAMES_GLM, .kv = KV_GLM, .no_head_dim = true,
     .head_dim_kv_channels = true, .extras = EXTRAS_GLM,
     .defaults = "{\"num_layers\": 28, \"padded_vocab_size\": 65024, \"hidden_size\": 4096,"
                 " \"ffn_hidden_size\": 13696, \"kv_channels\": 128,"
                 " \"num_attention_heads\": 32, \"seq_length\": 2048}"},
    {.type = "qwen", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_QWEN,
     .pos = POS_ROPE, .kv = KV_NONE, .no_head_dim = true, .head_dim_kv_channels = true,
     .ffn_half = true,
     .defaults = "{\"vocab_size\": 151936, \"hidden_size\": 4096, \"num_hidden_layers\": 32,"
                 " \"num_attention_heads\": 32, \"max_position_embeddings\": 8192,"
                 " \"kv_channels\": 128, \"intermediate_size\": 22016}"},
    {.type = "deepseek", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_KEYS,
     .pos = POS_ROPE, .moe = MOE_DEEPSEEK_V1, .no_head_dim = true,
     .defaults = "{\"vocab_size\": 102400, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"moe_intermediate_size\": 1407, \"num_hidden_layers\": 30,"
                 " \"num_attention_heads\": 32, \"max_position_embeddings\": 2048}"},
    {.type = "minicpm", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .tied = true,
     .bias = BIAS_KEYS, .pos = POS_ROPE, .no_head_dim = true,
     .defaults = "{\"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "phi-msft", .act = "gelu_new", .norm = NORM_LAYERNORM,
     .block = BLOCK_PARALLEL_ONE_NORM, .bias = BIAS_ALWAYS, .pos = POS_ROPE, .lm_head_bias = true,
     .names = NAMES_GPT2, .kv = KV_MSFT, .no_head_dim = true, .extras = EXTRAS_MSFT,
     .defaults = "{\"vocab_size\": 50304, \"n_positions\": 2048, \"n_embd\": 1024,"
                 " \"n_layer\": 20, \"n_head\": 16}"},
    {.type = "cohere2", .gated = true, .act = "silu", .norm = NORM_LAYERNORM_NOBIAS,
     .block = BLOCK_PARALLEL_ONE_NORM, .tied = true, .bias = BIAS_KEYS, .pos = POS_ROPE,
     .window = WIN_PATTERN, .no_head_dim = true,
     .defaults = "{\"vocab_size\": 256000, \"hidden_size\": 8192, \"intermediate_size\": 22528,"
                 " \"num_hidden_layers\": 40, \"num_attention_heads\": 64,"
                 " \"max_position_embeddings\": 8192, \"sliding_window\": 4096,"
                 " \"sliding_window_pattern\": 4}"},
    {.type = "granite", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .bias = BIAS_KEYS,
     .pos = POS_ROPE,
     .defaults = "{\"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
                 " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                 " \"max_position_embeddings\": 2048}"},
    {.type = "exaone", .gated = true, .act = "silu", .norm = NORM_RMSNORM, .tied = true,
     .bias = BIAS_NONE, .pos = POS_ROPE, .names = NAMES_EXAONE, .no_head_dim = true,
     .defaults = "{\"vocab_size\": 102400, \"max_position_embeddings\": 2048,"
                 " \"hidden_size\": 2048, \"num_layers\": 32, \"num_attention_heads\": 32}"},
};
#define TYPE_COUNT (sizeof TYPES / sizeof TYPES[0])

/* Gemma 3's multimodal config: the language model is its text_config, a gemma3_text. The
 * released configs write only the keys that differ from Gemma3TextConfig's defaults
 * (google/gemma-3-4b-it's text_config has hidden_size, intermediate_size, num_hidden_layers
 * and sliding_window), so inside it the others take those defaults, as transformers does
 * (configuration_gemma3.py): */
#define GEMMA3_WRAPPER "gemma3"
#define GEMMA3_TEXT "gemma3_text"
static const char GEMMA3_TEXT_DEFAULTS[] =
    "{\"vocab_size\": 262208, \"hidden_size\": 2304, \"intermediate_size\": 9216,"
    " \"num_hidden_layers\": 26, \"num_attention_heads\": 8, \"num_key_value_heads\": 4,"
    " \"head_dim\": 256, \"max_position_embeddings\": 131072, \"sliding_window\": 4096,"
    " \"sliding_window_pattern\": 6}";

void hfconfig_types(char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    size_t at = 0;
    for (size_t i = 0; i <= TYPE_COUNT; i++) {
        const char *t = i < TYPE_COUNT ? TYPES[i].type : GEMMA3_WRAPPER;
        int w = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", t);
        if (w < 0 || (size_t)w >= len - at)
            return;
        at += (size_t)w;
    }
}

bool hfconfig_is(const cJSON *root)
{
    if (!cJSON_IsObject(root))
        return false;
    /* model_type names the reader's row; a config without one (or with it misspelt) still has
     * keys rooftop's schema never uses, and is read here so that the message names the
     * missing model_type and the supported ones, not the first key the schema does not know
     * (found by review: "_name_or_path: unknown field"). */
    static const char *const hf_keys[] = {"model_type", "architectures", "transformers_version",
                                          "_name_or_path", "num_hidden_layers", "hidden_size"};
    for (size_t i = 0; i < sizeof hf_keys / sizeof hf_keys[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(root, hf_keys[i]) != NULL)
            return true;
    return false;
}

/* ---- reading keys ---------------------------------------------------------------------- */

/* One read (json_read.h: the file's name, the prefix naming a nested object such as Gemma 3's
 * text_config, the config class's values for keys the file lacks, where the message goes)
 * and the object its keys come from. A key set to null reads as absent, as configs write
 * "not used". */
struct hf {
    struct json_read r;
    const cJSON *o;
};

/* Copies text from the file so that it prints on one line: bytes outside printable ASCII
 * become '?', and a long text is cut with "...". */
static void show(char *dst, size_t cap, const char *src)
{
    size_t n = 0, max = cap - 1 < HF_SHOW_MAX ? cap - 1 : HF_SHOW_MAX;
    for (; src[n] != '\0' && n < max; n++)
        dst[n] = (src[n] >= 0x20 && src[n] < 0x7f) ? src[n] : '?';
    dst[n] = '\0';
    if (src[n] != '\0' && n >= 3)
        memcpy(dst + n - 3, "...", 3);
}

/* The typed readers of json_read.h on c's object. */
__attribute__((format(printf, 3, 4))) static bool fail(const struct hf *c, const char *key,
                                                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool ok = json_read_vfail(&c->r, key, fmt, ap);
    va_end(ap);
    return ok;
}

static const cJSON *get(const struct hf *c, const char *key)
{
    return json_read_get(&c->r, c->o, key);
}

/* A key the model needs: missing (or null) is an error naming it. */
static bool req_int(const struct hf *c, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    return json_read_req_int(&c->r, c->o, key, lo, hi, out);
}

/* A key with a default (the config class's, documented where it is used). */
static bool opt_int(const struct hf *c, const char *key, int64_t lo, int64_t hi, int64_t def,
                    int64_t *out)
{
    return json_read_opt_int(&c->r, c->o, key, lo, hi, def, out);
}

static bool opt_bool(const struct hf *c, const char *key, bool def, bool *out)
{
    return json_read_opt_bool(&c->r, c->o, key, def, out);
}

/* A string key; *out NULL when absent. */
static bool opt_str(const struct hf *c, const char *key, const char **out)
{
    return json_read_opt_str(&c->r, c->o, key, out);
}

/* ---- the parts of the model ------------------------------------------------------------ */

static bool is_gelu(const char *act)
{
    static const char *const gelus[] = {"gelu", "gelu_new", "gelu_fast", "gelu_pytorch_tanh",
                                        "gelu_python", "gelu_accurate", "quick_gelu"};
    for (size_t i = 0; i < sizeof gelus / sizeof gelus[0]; i++)
        if (strcmp(act, gelus[i]) == 0)
            return true;
    return false;
}

/* The MLP kind from the activation (Gemma's hidden_activation first, as Gemma reads it). */
static bool read_mlp(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    static const char *const keys[] = {"hidden_activation", "hidden_act", "activation_function"};
    const char *act = NULL, *key = keys[1];
    for (size_t i = 0; act == NULL && i < sizeof keys / sizeof keys[0]; i++) {
        if (!opt_str(c, keys[i], &act))
            return false;
        key = keys[i];
    }
    if (act == NULL)
        act = t->act;
    char shown[HF_SHOW_MAX + 1];
    show(shown, sizeof shown, act);
    if (t->gated) {
        if (strcmp(act, "silu") == 0 || strcmp(act, "swish") == 0)
            m->mlp = MLP_SWIGLU;
        else if (is_gelu(act))
            m->mlp = MLP_GEGLU;
        else
            return fail(c, key, "\"%s\" in %s's gated MLP is not silu or gelu (swiglu, geglu)",
                        shown, t->type);
        return true;
    }
    if (is_gelu(act))
        m->mlp = MLP_GELU;
    else if (strcmp(act, "relu") == 0)
        m->mlp = MLP_RELU;
    else if (strcmp(act, "relu2") == 0)
        m->mlp = MLP_RELU2;
    else
        return fail(c, key, "\"%s\" is not an activation rooftop's MLP kinds have (gelu, relu, "
                    "relu2)", shown);
    return true;
}

static bool read_bias(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    bool attn = false, mlp = false;
    switch (t->bias) {
    case BIAS_QKV:
        m->qkv_bias = true;
        return true;
    case BIAS_ALWAYS:
        m->bias = true;
        return true;
    case BIAS_MLP:
        m->mlp_bias = true;
        return true;
    case BIAS_NONE:
        return true;
    case BIAS_USE:
        return opt_bool(c, "use_bias", true, &m->bias);
    case BIAS_QKV_USE:
        return opt_bool(c, "use_qkv_bias", false, &m->qkv_bias);
    case BIAS_INTERNLM:
        if (!opt_bool(c, "bias", true, &attn))
            return false;
        return !attn || fail(c, "bias", "true (the class default) puts biases on wqkv and wo "
                             "but not the MLP, which rooftop's fields cannot express; the "
                             "released configs say false");
    case BIAS_GLM:
        if (!opt_bool(c, "add_qkv_bias", false, &m->qkv_bias) ||
            !opt_bool(c, "add_bias_linear", false, &attn))
            return false;
        return !attn || fail(c, "add_bias_linear", "true: biases on the dense and MLP layers "
                             "beside the qkv's cannot be expressed");
    case BIAS_QWEN:
        m->qkv_bias = true; /* c_attn = Linear(h, 3 x projection, bias=True) */
        if (!opt_bool(c, "no_bias", true, &attn))
            return false;
        return attn || fail(c, "no_bias", "false: biases on c_proj and the MLP beside c_attn's "
                            "cannot be expressed");
    case BIAS_QKV_KEY:
        return opt_bool(c, "attention_bias", false, &m->qkv_bias);
    case BIAS_QKV_MOE:
        return opt_bool(c, "qkv_bias", true, &m->qkv_bias);
    case BIAS_ALL:
        if (!opt_bool(c, "attention_bias", true, &attn))
            return false;
        if (!attn)
            return fail(c, "attention_bias", "false leaves %s's MLP biases alone, which rooftop's "
                        "fields cannot express (every linear layer, or q, k, v only)", t->type);
        /* OPT: enable_bias false removes every linear layer's bias. */
        return opt_bool(c, "enable_bias", true, &m->bias);
    case BIAS_KEYS:
    default:
        if (!opt_bool(c, "attention_bias", false, &attn) || !opt_bool(c, "mlp_bias", false, &mlp))
            return false;
        if (attn && t->mla)
            return fail(c, "attention_bias", "true: biases on MLA's projections cannot be "
                        "expressed");
        if (attn != mlp)
            return fail(c, attn ? "attention_bias" : "mlp_bias",
                        "true with %s false: biases on the %s alone cannot be expressed (rooftop's "
                        "fields: every linear layer, or q, k, v only)",
                        attn ? "mlp_bias" : "attention_bias",
                        attn ? "attention (q, k, v and o)" : "MLP");
        m->bias = attn && mlp;
        return true;
    }
}

/* Gemma 3's "every N-th layer global": the N that gives exactly these full-attention layers,
 * or 0 when no N does. */
static int64_t pattern_of(const bool *full, int64_t layers)
{
    int64_t first = -1;
    for (int64_t i = 0; i < layers && first < 0; i++)
        if (full[i])
            first = i;
    const int64_t n = first + 1;
    for (int64_t i = 0; i < layers; i++)
        if (full[i] != ((i + 1) % n == 0))
            return 0;
    return n;
}

/* "layer_types": "sliding_attention" and "full_attention" per layer. Sets the window and its
 * pattern: all local (pattern 0), none (window 0), or every N-th layer global. */
static bool read_layer_types(const struct hf *c, const cJSON *lt, struct model_arch *m)
{
    if (!cJSON_IsArray(lt))
        return fail(c, "layer_types", "must be an array of \"sliding_attention\" or "
                    "\"full_attention\", got %s", json_kind(lt));
    int n = cJSON_GetArraySize(lt);
    if ((int64_t)n != m->layers)
        return fail(c, "layer_types", "has %d entries for %lld layers", n, (long long)m->layers);
    bool *full = calloc((size_t)n > 0 ? (size_t)n : 1, sizeof *full);
    if (full == NULL)
        return fail(c, "layer_types", "out of memory");
    int64_t local = 0, i = 0;
    for (const cJSON *e = lt->child; e != NULL; e = e->next, i++) {
        const char *s = cJSON_IsString(e) ? e->valuestring : NULL;
        if (s != NULL && strcmp(s, "full_attention") == 0) {
            full[i] = true;
        } else if (s != NULL && strcmp(s, "sliding_attention") == 0) {
            local++;
        } else {
            char shown[HF_SHOW_MAX + 1] = "";
            if (s != NULL)
                show(shown, sizeof shown, s);
            free(full);
            return s != NULL ? fail(c, "layer_types", "layer %lld is \"%s\", not "
                                    "\"sliding_attention\" or \"full_attention\"", (long long)i, shown)
                             : fail(c, "layer_types", "layer %lld is %s, not a string",
                                    (long long)i, json_kind(e));
        }
    }
    int64_t pattern = local > 0 && local < m->layers ? pattern_of(full, m->layers) : 0;
    free(full);
    if (local == 0) {
        m->sliding_window = 0;
        return true;
    }
    if (local < m->layers && pattern == 0)
        return fail(c, "layer_types", "its full-attention layers are not every N-th layer (the "
                    "only mix of local and global layers rooftop's fields express)");
    if (m->sliding_window <= 0)
        return fail(c, "sliding_window", "missing, and layer_types has %lld sliding layers",
                    (long long)local);
    m->sliding_window_pattern = pattern;
    return true;
}

/* Qwen's switch and bound: use_sliding_window (default false) and, when it is on with a
 * window, max_window_layers (*from). False with *on false: no window to place. */
static bool read_qwen_switch(const struct hf *c, int64_t window, bool *on, int64_t *from)
{
    bool use = false;
    *on = false;
    if (!opt_bool(c, "use_sliding_window", false, &use))
        return false;
    if (!use || window == 0)
        return true;
    *on = true;
    return req_int(c, "max_window_layers", 0, HF_LAYERS_MAX, from);
}

/* Qwen2Attention: layers from max_window_layers on are local. */
static bool read_qwen_window(const struct hf *c, struct model_arch *m, int64_t window)
{
    bool on = false;
    int64_t from = 0;
    if (!read_qwen_switch(c, window, &on, &from))
        return false;
    if (!on || from >= m->layers)
        return true;
    if (from > 0)
        return fail(c, "max_window_layers", "%lld: local layers after %lld global ones "
                    "cannot be expressed (all layers local, or every N-th global)",
                    (long long)from, (long long)from);
    m->sliding_window = window;
    return true;
}

/* Qwen2MoeConfig's layer_types (transformers main 008e5743): with use_sliding_window, layer i
 * is local when i is even and below max_window_layers. All the even layers local is every
 * other layer (pattern 2); none is no window; another mix cannot be expressed. */
static bool read_qwen2_moe_window(const struct hf *c, struct model_arch *m, int64_t window)
{
    bool on = false;
    int64_t below = 0;
    if (!read_qwen_switch(c, window, &on, &below))
        return false;
    if (!on || below == 0)
        return true;
    /* The first even layer at or after max_window_layers stays global. */
    int64_t first_global_even = below + below % 2;
    if (first_global_even < m->layers)
        return fail(c, "max_window_layers", "%lld: every other layer local below it and none "
                    "after cannot be expressed (all layers local, or every N-th global)",
                    (long long)below);
    m->sliding_window = window;
    m->sliding_window_pattern = 2;
    return true;
}

static bool read_window(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    int64_t window = 0;
    const cJSON *lt = get(c, "layer_types");
    /* A type without windows does not use the key (as transformers does not): not read. */
    if ((lt != NULL || t->window != WIN_NONE) &&
        !opt_int(c, "sliding_window", 0, HF_CONTEXT_MAX, 0, &window))
        return false;
    if (lt != NULL) {
        m->sliding_window = window;
        return read_layer_types(c, lt, m);
    }
    switch (t->window) {
    case WIN_ALL:
        m->sliding_window = window;
        return true;
    case WIN_ALTERNATE:
        m->sliding_window = window;
        m->sliding_window_pattern = window > 0 ? 2 : 0;
        return true;
    case WIN_PATTERN: {
        if (window == 0)
            return true;
        int64_t n = 0;
        if (!req_int(c, "sliding_window_pattern", 1, m->layers, &n))
            return false;
        m->sliding_window = n > 1 ? window : 0; /* every layer global: no window */
        m->sliding_window_pattern = n > 1 ? n : 0;
        return true;
    }
    case WIN_QWEN2_MOE:
        return read_qwen2_moe_window(c, m, window);
    case WIN_QWEN:
        return read_qwen_window(c, m, window);
    case WIN_NONE:
    default:
        return true;
    }
}

/* mlp_only_layers: the dense layers, which must be the first ones. */
static bool read_dense_list(const struct hf *c, struct model_arch *m)
{
    const cJSON *l = get(c, "mlp_only_layers");
    if (l == NULL)
        return true;
    if (!cJSON_IsArray(l))
        return fail(c, "mlp_only_layers", "must be an array of layer numbers, got %s",
                    json_kind(l));
    int n = cJSON_GetArraySize(l);
    if ((int64_t)n > m->layers)
        return fail(c, "mlp_only_layers", "lists %d layers of %lld", n, (long long)m->layers);
    bool *dense = calloc((size_t)n > 0 ? (size_t)n : 1, sizeof *dense);
    if (dense == NULL)
        return fail(c, "mlp_only_layers", "out of memory");
    bool ok = true;
    for (const cJSON *e = l->child; ok && e != NULL; e = e->next) {
        int64_t i = 0;
        if (!json_read_int(&c->r, "mlp_only_layers", e, 0, m->layers - 1, &i))
            ok = false;
        else if (i >= n || dense[i])
            ok = fail(c, "mlp_only_layers", "dense layer %lld: only the first layers may be "
                      "dense (as dense_layers), each once", (long long)i);
        else
            dense[i] = true;
    }
    free(dense);
    if (ok)
        m->dense_layers = n;
    return ok;
}

static bool read_moe(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    if (t->moe == MOE_NONE || (t->moe == MOE_DEEPSEEK_V1 && get(c, "n_routed_experts") == NULL))
        return true;
    const bool every_layer = t->moe == MOE_MIXTRAL || t->moe == MOE_GPT_OSS || t->moe == MOE_OLMOE;
    const bool deepseek = t->moe == MOE_DEEPSEEK || t->moe == MOE_DEEPSEEK_V1;
    const char *count_key = deepseek                                          ? "n_routed_experts"
                            : t->moe == MOE_MIXTRAL || t->moe == MOE_GPT_OSS ? "num_local_experts"
                                                                              : "num_experts";
    if (!req_int(c, count_key, 2, HF_EXPERTS_MAX, &m->experts) ||
        !req_int(c, "num_experts_per_tok", 1, m->experts, &m->experts_active))
        return false;
    m->router_bias = t->router_bias;
    if (every_layer)
        return true; /* experts of intermediate_size */
    if (!req_int(c, "moe_intermediate_size", 1, HF_WIDTH_MAX, &m->moe_ffn))
        return false;
    if (deepseek) {
        int64_t freq = 1;
        const char *method = NULL;
        if (!opt_int(c, "n_shared_experts", 0, HF_EXPERTS_MAX, 0, &m->shared_experts) ||
            !opt_int(c, "first_k_dense_replace", 0, m->layers, 0, &m->dense_layers) ||
            !opt_int(c, "moe_layer_freq", 1, HF_LAYERS_MAX, 1, &freq) ||
            !opt_str(c, "topk_method", &method))
            return false;
        if (freq != 1)
            return fail(c, "moe_layer_freq", "%lld: a MoE layer every %lld layers cannot be "
                        "expressed (dense first layers, then every layer MoE)", (long long)freq,
                        (long long)freq);
        /* noaux_tc routing adds e_score_correction_bias, a bias per expert (DeepSeek-V3). */
        if (method != NULL)
            m->router_bias = strcmp(method, "noaux_tc") == 0;
        return true;
    }
    int64_t step = 1;
    if (!opt_int(c, "decoder_sparse_step", 1, HF_LAYERS_MAX, 1, &step))
        return false;
    if (step != 1)
        return fail(c, "decoder_sparse_step", "%lld: a MoE layer every %lld layers cannot be "
                    "expressed (dense first layers, then every layer MoE)", (long long)step,
                    (long long)step);
    if (!read_dense_list(c, m))
        return false;
    if (t->moe == MOE_QWEN2) {
        /* Qwen2MoeSparseMoeBlock: one shared expert of this width and its gate, always. */
        if (!req_int(c, "shared_expert_intermediate_size", 1, HF_WIDTH_MAX, &m->shared_ffn))
            return false;
        m->shared_experts = 1;
        m->shared_gate = true;
    }
    return true;
}

static bool read_mla(const struct hf *c, struct model_arch *m)
{
    if (!req_int(c, "kv_lora_rank", 1, HF_WIDTH_MAX, &m->kv_lora_rank) ||
        !opt_int(c, "q_lora_rank", 0, HF_WIDTH_MAX, 0, &m->q_lora_rank) ||
        !req_int(c, "qk_nope_head_dim", 0, HF_WIDTH_MAX, &m->qk_nope_head_dim) ||
        !req_int(c, "qk_rope_head_dim", 0, HF_WIDTH_MAX, &m->qk_rope_head_dim) ||
        !req_int(c, "v_head_dim", 1, HF_WIDTH_MAX, &m->v_head_dim))
        return false;
    /* transformers sets head_dim = qk_rope_head_dim for DeepSeek; MLA's widths are the fields
     * above, so none is kept. */
    m->head_dim = 0;
    return true;
}

/* OPT's options that change its shape beyond the fields. */
static bool read_opt_extras(const struct hf *c, const struct model_arch *m)
{
    bool before = true, affine = true, remove_final = false;
    int64_t proj = m->d_model;
    if (!opt_bool(c, "do_layer_norm_before", true, &before) ||
        !opt_bool(c, "layer_norm_elementwise_affine", true, &affine) ||
        !opt_bool(c, "_remove_final_layer_norm", false, &remove_final) ||
        !opt_int(c, "word_embed_proj_dim", 1, HF_WIDTH_MAX, m->d_model, &proj))
        return false;
    if (!before)
        return fail(c, "do_layer_norm_before", "false: OPT's post-norm layers without a final "
                    "norm cannot be expressed");
    if (!affine)
        return fail(c, "layer_norm_elementwise_affine", "false: LayerNorms without weights "
                    "cannot be expressed");
    if (remove_final)
        return fail(c, "_remove_final_layer_norm", "true: a model without a final norm cannot "
                    "be expressed");
    if (proj != m->d_model)
        return fail(c, "word_embed_proj_dim", "%lld differs from hidden_size %lld: OPT's "
                    "project_in/project_out cannot be expressed", (long long)proj,
                    (long long)m->d_model);
    return true;
}

/* ChatGLM2/3 (modeling_chatglm.py): RMSNorm unless rmsnorm is false (LayerNorm), a final norm
 * when post_layer_norm (default true). ChatGLM-6B's first version shares the model_type but is
 * a GLM block with 2-D positions (position_encoding_2d, inner_hidden_size): refused. */
static bool read_glm_extras(const struct hf *c, struct model_arch *m)
{
    bool rms = true, post = true;
    if (get(c, "position_encoding_2d") != NULL || get(c, "inner_hidden_size") != NULL)
        return fail(c, get(c, "inner_hidden_size") != NULL ? "inner_hidden_size"
                                                           : "position_encoding_2d",
                    "ChatGLM-6B's first version (GLM blocks, 2-D positions) cannot be "
                    "expressed; ChatGLM2/3's configs are read");
    if (!opt_bool(c, "rmsnorm", true, &rms) || !opt_bool(c, "post_layer_norm", true, &post))
        return false;
    if (!post)
        return fail(c, "post_layer_norm", "false: a model without a final norm cannot be "
                    "expressed");
    m->norm = rms ? NORM_RMSNORM : NORM_LAYERNORM;
    return true;
}

/* StableLM's qk_layernorm: a LayerNorm (weight and bias) per head over head_dim, for Q and
 * for K, which rooftop's QK-norm shapes (one shared per head, or one over the projection in
 * the model's norm kind) do not hold: refused. */
static bool read_stablelm_extras(const struct hf *c)
{
    bool qk = false;
    if (!opt_bool(c, "qk_layernorm", false, &qk))
        return false;
    return !qk || fail(c, "qk_layernorm", "true: StableLM's per-head LayerNorms cannot be "
                       "expressed");
}

/* Phi's first format (PhiConfig of microsoft/phi-1_5 and phi-2 before transformers took them
 * in): the embedding and the head hold vocab_size rounded up to pad_vocab_size_multiple. */
static bool read_msft_extras(const struct hf *c, struct model_arch *m)
{
    int64_t pad = 64;
    if (!opt_int(c, "pad_vocab_size_multiple", 1, HF_VOCAB_MAX, 64, &pad))
        return false;
    m->vocab = (m->vocab + pad - 1) / pad * pad;
    return true;
}

static bool read_extras(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    switch (t->extras) {
    case EXTRAS_OPT:
        return read_opt_extras(c, m);
    case EXTRAS_GLM:
        return read_glm_extras(c, m);
    case EXTRAS_STABLELM:
        return read_stablelm_extras(c);
    case EXTRAS_MSFT:
        return read_msft_extras(c, m);
    case EXTRAS_NONE:
    default:
        return true;
    }
}

/* The K/V heads, as the type's class reads them. */
static bool read_kv(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    bool on = false;
    int64_t groups = 1;
    switch (t->kv) {
    case KV_NONE:
        m->kv_heads = m->heads;
        return true;
    case KV_MULTI_QUERY: /* GPTBigCodeConfig: num_key_value_heads = 1 if multi_query */
        if (!opt_bool(c, "multi_query", true, &on))
            return false;
        m->kv_heads = on ? 1 : m->heads;
        return true;
    case KV_GLM: /* SelfAttention: 2 x multi_query_group_num heads of K and V */
        if (!opt_bool(c, "multi_query_attention", false, &on) ||
            !opt_int(c, "multi_query_group_num", 1, HF_WIDTH_MAX, 1, &groups))
            return false;
        m->kv_heads = on ? groups : m->heads;
        return true;
    case KV_MSFT:
        return opt_int(c, "n_head_kv", 1, HF_WIDTH_MAX, m->heads, &m->kv_heads);
    case KV_KEY:
    default:
        /* Absent or null: every head has its own K and V (LlamaConfig's rule); a class
         * default (Mistral's 8) comes from the type's defaults. */
        return opt_int(c, "num_key_value_heads", 1, HF_WIDTH_MAX, m->heads, &m->kv_heads);
    }
}

/* The head width: head_dim where the class reads it, kv_channels for Qwen 1 and ChatGLM. */
static bool read_head_dim(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    if (t->head_dim_kv_channels) {
        if (!req_int(c, "kv_channels", 1, HF_WIDTH_MAX, &m->head_dim))
            return false;
        if (m->head_dim * m->heads == m->d_model)
            m->head_dim = 0; /* d_model / heads, as the fields keep it */
        return true;
    }
    if (t->mla || t->no_head_dim)
        return true;
    return opt_int(c, "head_dim", 1, HF_WIDTH_MAX, 0, &m->head_dim);
}

/* The name a shape key has here: the file's own (key, or the alias the class maps onto it),
 * else the one the class's defaults hold. */
static const char *shape_key(const struct hf *c, enum hf_names names, const char *key)
{
    const char *alias = NULL;
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (ALIASES[i].names == names && strcmp(ALIASES[i].key, key) == 0)
            alias = ALIASES[i].alias;
    if (alias == NULL || cJSON_GetObjectItemCaseSensitive(c->o, key) != NULL)
        return key;
    if (cJSON_GetObjectItemCaseSensitive(c->o, alias) != NULL)
        return alias;
    if (c->r.defaults != NULL && cJSON_GetObjectItemCaseSensitive(c->r.defaults, key) == NULL &&
        cJSON_GetObjectItemCaseSensitive(c->r.defaults, alias) != NULL)
        return alias;
    return key;
}

/* The shape every type has: widths, counts, vocabulary, context. */
static bool read_shape(const struct hf *c, const struct hf_type *t, struct model_arch *m)
{
    const struct hf_keys *k = &KEYS[t->names];
    const enum hf_names nm = t->names;
    if (!req_int(c, shape_key(c, nm, k->hidden), 1, HF_WIDTH_MAX, &m->d_model) ||
        !req_int(c, shape_key(c, nm, k->layers), 1, HF_LAYERS_MAX, &m->layers) ||
        !req_int(c, shape_key(c, nm, k->heads), 1, HF_WIDTH_MAX, &m->heads) ||
        !read_kv(c, t, m) || !req_int(c, k->vocab, 1, HF_VOCAB_MAX, &m->vocab) ||
        !req_int(c, shape_key(c, nm, k->context), 1, HF_CONTEXT_MAX - 2, &m->context))
        return false;
    /* The learned position table's rows: OPT keeps two more than its context. */
    m->context += t->pos_rows_extra;
    if (k->ffn_4h) {
        /* GPT2MLP: n_inner, or 4 x n_embd when null (ExaoneConfig likewise). */
        if (!opt_int(c, k->ffn, 1, HF_WIDTH_MAX, 4 * m->d_model, &m->ffn))
            return false;
    } else if (!req_int(c, k->ffn, 1, HF_WIDTH_MAX, &m->ffn)) {
        return false;
    }
    if (t->ffn_half) {
        /* QWenMLP: w1 and w2 are h -> intermediate_size / 2, c_proj back. */
        if (m->ffn % 2 != 0)
            return fail(c, k->ffn, "%lld is odd: Qwen's MLP is half of it", (long long)m->ffn);
        m->ffn /= 2;
    }
    if (!read_head_dim(c, t, m))
        return false;
    if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
        return fail(c, t->kv == KV_GLM    ? "multi_query_group_num"
                       : t->kv == KV_MSFT ? "n_head_kv"
                                          : "num_key_value_heads",
                    "%lld does not divide %s %lld", (long long)m->kv_heads, k->heads,
                    (long long)m->heads);
    if (m->head_dim == 0 && !t->mla && m->d_model % m->heads != 0 && t->head_dim_floor)
        m->head_dim = m->d_model / m->heads;
    if (m->head_dim == 0 && !t->mla && m->d_model % m->heads != 0)
        return fail(c, k->heads, "%lld does not divide %s %lld, and there is no head_dim",
                    (long long)m->heads, k->hidden, (long long)m->d_model);
    return true;
}

/* The last part of a path-like text ("Qwen/Qwen3-8B" -> "Qwen3-8B"), made printable. */
static void last_part(char *dst, size_t cap, const char *path)
{
    size_t n = strlen(path);
    while (n > 0 && path[n - 1] == '/')
        n--;
    size_t start = n;
    while (start > 0 && path[start - 1] != '/')
        start--;
    size_t len = n - start < cap - 1 ? n - start : cap - 1;
    for (size_t i = 0; i < len; i++) {
        char ch = path[start + i];
        dst[i] = (ch >= 0x20 && ch < 0x7f) ? ch : '?';
    }
    dst[len] = '\0';
}

/*
 * The model's name and id. A file named config.json (as Hugging Face names it) is known by
 * its directory ("dir/Qwen3-8B/config.json": Qwen3-8B); any other NAME.json (a config saved
 * among the presets, say) by NAME, its id as a preset's is, so that the picker and a saved
 * scenario find it again. The name is "_name_or_path"'s last part when the file has one.
 * Neither a directory nor a stem (a bare "config.json", an inline model, standard input or
 * another device): the model_type.
 */
static bool read_name(const struct hf *c, const cJSON *root, const struct hf_type *t,
                      struct model_arch *m)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "_name_or_path");
    if (v != NULL && !cJSON_IsNull(v) && (!cJSON_IsString(v) || v->valuestring == NULL))
        return fail(c, "_name_or_path", "must be a string, got %s", json_kind(v));
    const char *slash = strrchr(c->r.origin, '/');
    const char *base = slash != NULL ? slash + 1 : c->r.origin;
    size_t bl = strlen(base);
    char *from = NULL; /* what the id comes from: the stem, or the directory */
    /* A pipe as /dev/stdin or /proc/self/fd/0 names no model ("dev" is no id). */
    bool device = strncmp(c->r.origin, "/dev/", 5) == 0 || strncmp(c->r.origin, "/proc/", 6) == 0;
    if (device)
        from = strdup("");
    else if (bl > 5 && strcmp(base + bl - 5, ".json") == 0 && strcmp(base, "config.json") != 0)
        from = strndup(base, bl - 5);
    else if (slash != NULL)
        from = strndup(c->r.origin, (size_t)(slash - c->r.origin));
    else
        from = strdup("");
    if (from == NULL)
        return fail(c, NULL, "out of memory");
    last_part(m->id, sizeof m->id, from);
    free(from);
    if (m->id[0] == '\0' || strcmp(m->id, ".") == 0 || strcmp(m->id, "..") == 0)
        snprintf(m->id, sizeof m->id, "%s", t->type);
    if (v != NULL && cJSON_IsString(v))
        last_part(m->name, sizeof m->name, v->valuestring);
    if (m->name[0] == '\0')
        snprintf(m->name, sizeof m->name, "%s", m->id);
    return true;
}

static const struct hf_type *type_find(const char *name)
{
    for (size_t i = 0; i < TYPE_COUNT; i++)
        if (strcmp(TYPES[i].type, name) == 0)
            return &TYPES[i];
    return NULL;
}

/* The model_type, and for Gemma 3's multimodal config the text_config to read. */
static bool read_type(struct hf *c, const cJSON *root, const struct hf_type **t, bool *wrapped)
{
    const char *name = NULL;
    *wrapped = false;
    if (!opt_str(c, "model_type", &name))
        return false;
    char all[512];
    hfconfig_types(all, sizeof all);
    if (name == NULL)
        return fail(c, "model_type", "missing (supported: %s)", all);
    if (strcmp(name, GEMMA3_WRAPPER) == 0) {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "text_config");
        if (text == NULL || !cJSON_IsObject(text))
            return fail(c, "text_config", "%s: Gemma 3's language model is read from its "
                        "text_config object", text == NULL ? "missing" : "not an object");
        c->o = text;
        c->r.prefix = "text_config.";
        const char *inner = NULL;
        if (!opt_str(c, "model_type", &inner))
            return false;
        if (inner != NULL && strcmp(inner, GEMMA3_TEXT) != 0) {
            char shown[HF_SHOW_MAX + 1];
            show(shown, sizeof shown, inner);
            return fail(c, "model_type", "\"%s\" inside gemma3 is not %s", shown, GEMMA3_TEXT);
        }
        name = GEMMA3_TEXT;
        *wrapped = true;
    }
    *t = type_find(name);
    if (*t == NULL) {
        char shown[HF_SHOW_MAX + 1];
        show(shown, sizeof shown, name);
        return fail(c, "model_type", "\"%s\" is not supported (supported: %s)", shown, all);
    }
    return true;
}

static bool read_model(const struct hf *c, const cJSON *root, const struct hf_type *t,
                       bool wrapped, struct model_arch *out, char *source, size_t source_len);

bool hfconfig_read(const cJSON *root, const char *origin, struct model_arch *out, char *source,
                   size_t source_len, char *err, size_t errlen)
{
    struct hf c = {.o = root};
    json_read_init(&c.r, origin, err, errlen);
    c.r.null_absent = true;
    if (!cJSON_IsObject(root))
        return fail(&c, NULL, "a Hugging Face config.json must be a JSON object");
    const struct hf_type *t = NULL;
    bool wrapped = false;
    if (!read_type(&c, root, &t, &wrapped))
        return false;

    cJSON *defaults = NULL;
    const char *text = wrapped ? GEMMA3_TEXT_DEFAULTS : t->defaults;
    if (text != NULL && (defaults = cJSON_Parse(text)) == NULL)
        return fail(&c, NULL, "out of memory");
    c.r.defaults = defaults;
    bool ok = read_model(&c, root, t, wrapped, out, source, source_len);
    cJSON_Delete(defaults);
    return ok;
}

/* The checkpoint's element size from torch_dtype (transformers 5 names it dtype): what its
 * safetensors hold, for the check against the index's bytes. 0 for another name or none. */
static bool read_dtype(const struct hf *c, const cJSON *root, struct model_arch *m)
{
    static const struct {
        const char *name;
        int bytes;
    } dtypes[] = {{"float32", 4}, {"bfloat16", 2}, {"float16", 2}, {"float8_e4m3fn", 1},
                  {"float8_e5m2", 1}};
    const char *name = NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "torch_dtype");
    if (v == NULL)
        v = cJSON_GetObjectItemCaseSensitive(root, "dtype");
    if (v == NULL || cJSON_IsNull(v))
        return true;
    if (!cJSON_IsString(v) || v->valuestring == NULL) {
        struct hf top = *c; /* the key is the file's own, not text_config's */
        top.r.prefix = "";
        return fail(&top, cJSON_GetObjectItemCaseSensitive(root, "torch_dtype") ? "torch_dtype"
                                                                                : "dtype",
                    "must be a string, got %s", json_kind(v));
    }
    name = v->valuestring;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(name, dtypes[i].name) == 0)
            m->checkpoint_dtype_bytes = dtypes[i].bytes;
    return true;
}

/* The model of type t from c's object, once the type is known. */
static bool read_model(const struct hf *c, const cJSON *root, const struct hf_type *t,
                       bool wrapped, struct model_arch *out, char *source, size_t source_len)
{
    struct model_arch m;
    memset(&m, 0, sizeof m);
    m.norm = t->norm;
    m.norm_place = t->place;
    m.positional = t->pos;
    m.attn_sinks = t->attn_sinks;
    m.lm_head_bias = t->lm_head_bias;
    bool qk_on = t->qk_key == NULL, block_on = true;
    if (!read_shape(c, t, &m) || !read_mlp(c, t, &m) || !read_bias(c, t, &m) ||
        !opt_bool(c, "tie_word_embeddings", t->tied, &m.tied_embeddings) ||
        (t->qk_key != NULL && !opt_bool(c, t->qk_key, false, &qk_on)) ||
        (t->block_key != NULL && !opt_bool(c, t->block_key, !t->block_key_off, &block_on)) ||
        !read_window(c, t, &m) || !read_moe(c, t, &m) || (t->mla && !read_mla(c, &m)) ||
        (t->mtp && !opt_int(c, "num_nextn_predict_layers", 0, HF_LAYERS_MAX, 0, &m.mtp_layers)) ||
        !read_extras(c, t, &m) || !read_name(c, root, t, &m) || !read_dtype(c, root, &m))
        return false;
    m.qk_norm = qk_on ? t->qk : QK_NORM_NONE;
    m.block = block_on ? t->block : BLOCK_SEQUENTIAL;
    /* The MoE width defaults to the dense one: keep the file's own figures only. */
    if (m.moe_ffn == m.ffn)
        m.moe_ffn = 0;

    char why[512] = "";
    if (!model_validate(&m, why, (int)sizeof why))
        return fail(c, NULL, "%s", why[0] ? why : "not a usable model");
    if (source != NULL && source_len > 0)
        snprintf(source, source_len, "Hugging Face config.json (model_type %s%s)%s",
                 wrapped ? GEMMA3_WRAPPER ", its " : "", t->type,
                 wrapped ? "; the language model only, without the vision tower" : "");
    *out = m;
    return true;
}
