/* model.c - parameter counts from a transformer's architecture. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const model_mlp_names[MODEL_MLP_KINDS] = {
    [MLP_GELU] = "gelu", [MLP_SWIGLU] = "swiglu", [MLP_RELU] = "relu", [MLP_RELU2] = "relu2",
    [MLP_GEGLU] = "geglu"};
const char *const model_norm_names[MODEL_NORM_KINDS] = {
    [NORM_LAYERNORM] = "layernorm", [NORM_RMSNORM] = "rmsnorm",
    [NORM_LAYERNORM_NOBIAS] = "layernorm-nobias", [NORM_NONPARAMETRIC] = "layernorm-nonparametric"};
const char *const model_pos_names[MODEL_POS_KINDS] = {[POS_LEARNED] = "learned", [POS_ROPE] = "rope"};
const char *const model_norm_place_names[MODEL_NORM_PLACES] = {
    [NORM_PRE] = "pre", [NORM_POST] = "post", [NORM_SANDWICH] = "sandwich"};
const char *const model_qk_norm_names[MODEL_QK_NORMS] = {
    [QK_NORM_NONE] = "none", [QK_NORM_HEAD] = "head", [QK_NORM_FULL] = "full"};
const char *const model_block_names[MODEL_BLOCKS] = {
    [BLOCK_SEQUENTIAL] = "sequential", [BLOCK_PARALLEL] = "parallel",
    [BLOCK_PARALLEL_ONE_NORM] = "parallel-one-norm"};

/* The name of kind k in a table of n, "?" when k is out of range (a corrupted value). */
static const char *name_of(const char *const *names, size_t n, int k)
{
    return k >= 0 && (size_t)k < n ? names[k] : "?";
}

static bool parse_in(const char *const *names, size_t n, const char *s, int *out)
{
    for (size_t i = 0; s != NULL && i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = (int)i;
            return true;
        }
    }
    return false;
}

/* One name and one parse function per kind, over its table. */
#define KIND_FUNCS(kind, type, table, count)                                                     \
    const char *model_##kind##_name(type k)                                                      \
    {                                                                                            \
        return name_of(table, count, (int)k);                                                    \
    }                                                                                            \
    bool model_##kind##_parse(const char *s, type *out)                                          \
    {                                                                                            \
        int k;                                                                                   \
        if (!parse_in(table, count, s, &k))                                                      \
            return false;                                                                        \
        *out = (type)k;                                                                          \
        return true;                                                                             \
    }

KIND_FUNCS(mlp, enum mlp_kind, model_mlp_names, MODEL_MLP_KINDS)
KIND_FUNCS(norm, enum norm_kind, model_norm_names, MODEL_NORM_KINDS)
KIND_FUNCS(pos, enum pos_kind, model_pos_names, MODEL_POS_KINDS)
KIND_FUNCS(norm_place, enum norm_place, model_norm_place_names, MODEL_NORM_PLACES)
KIND_FUNCS(qk_norm, enum qk_norm_kind, model_qk_norm_names, MODEL_QK_NORMS)
KIND_FUNCS(block, enum block_kind, model_block_names, MODEL_BLOCKS)

void model_names_join(const char *const *names, size_t n, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", names[i]);
        if (w < 0 || (size_t)w >= len - at)
            return;
        at += (size_t)w;
    }
}

/* Upper bounds that keep every product the core forms (d_model^2 x layers x experts, tokens x
 * vocab, ...) well inside int64 and double: a 10-trillion-parameter model is far below them. */
#define MAX_LAYERS MODEL_MAX_LAYERS
#define MAX_WIDTH MODEL_MAX_WIDTH
#define MAX_VOCAB MODEL_MAX_VOCAB
#define MAX_CONTEXT MODEL_MAX_CONTEXT
#define MAX_EXPERTS MODEL_MAX_EXPERTS
#define MAX_PARAMS 1e17

int64_t model_expert_ffn(const struct model_arch *m)
{
    return m->moe_ffn > 0 ? m->moe_ffn : m->ffn;
}

bool model_is_moe(const struct model_arch *m)
{
    return m->experts > 1;
}

int64_t model_moe_layers(const struct model_arch *m)
{
    if (!model_is_moe(m))
        return 0;
    int64_t dense = m->dense_layers < m->layers ? m->dense_layers : m->layers;
    return m->layers - (dense > 0 ? dense : 0);
}

bool model_is_mla(const struct model_arch *m)
{
    return m->kv_lora_rank > 0;
}

int64_t model_head_dim(const struct model_arch *m)
{
    if (m->head_dim > 0)
        return m->head_dim;
    return m->heads > 0 ? m->d_model / m->heads : 0;
}

void model_attn_dims(const struct model_arch *m, struct attn_dims *out)
{
    memset(out, 0, sizeof *out);
    const int64_t h = m->d_model, a = m->heads;
    if (model_is_mla(m)) {
        /* DeepSeek-V2 (modeling_deepseek.py): q_proj (or q_a_proj + q_a_layernorm + q_b_proj),
         * kv_a_proj_with_mqa to the latent and the rope key, kv_a_layernorm, kv_b_proj back to
         * per-head keys and values, o_proj. The cache holds the latent and the rope key. */
        const int64_t rope = m->qk_rope_head_dim, latent = m->kv_lora_rank;
        out->head_qk = m->qk_nope_head_dim + rope;
        out->head_v = m->v_head_dim;
        out->q_width = a * out->head_qk;
        out->o_width = a * out->head_v;
        const int64_t q = m->q_lora_rank > 0 ? h * m->q_lora_rank + m->q_lora_rank * out->q_width
                                             : h * out->q_width;
        out->w_in = q + h * (latent + rope) + latent * a * (m->qk_nope_head_dim + m->v_head_dim);
        out->norm = latent + m->q_lora_rank;
        out->cache_per_token = latent + rope;
        out->cache_heads = 1;
    } else {
        const int64_t d = model_head_dim(m), kv = m->kv_heads * d;
        out->head_qk = d;
        out->head_v = d;
        out->q_width = a * d;
        out->o_width = a * d;
        out->w_in = h * (out->q_width + 2 * kv);   /* Q, K, V */
        out->cache_per_token = 2 * kv;             /* K and V */
        out->cache_heads = m->kv_heads;
    }
    out->w_out = out->o_width * h;
}

int64_t model_local_layers(const struct model_arch *m)
{
    if (m->sliding_window <= 0)
        return 0;
    if (m->sliding_window_pattern <= 0)
        return m->layers;
    /* Gemma 3: layer i is global when (i + 1) is a multiple of the pattern. */
    return m->layers - m->layers / m->sliding_window_pattern;
}

double model_attn_span(const struct model_arch *m, double ctx)
{
    const double L = (double)m->layers, local = (double)model_local_layers(m);
    const double w = (double)m->sliding_window;
    const double capped = local > 0 && ctx > w ? w : ctx;
    return L > 0 ? ((L - local) * ctx + local * capped) / L : ctx;
}

bool model_checkpoint_explained(const struct model_arch *m, double *per_param)
{
    struct param_counts pc;
    model_params(m, &pc);
    const double n = (double)(pc.total + pc.mtp);
    *per_param = n > 0 ? m->checkpoint_bytes / n : 0;
    static const double sizes[] = {1, 2, 4};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const double want = m->checkpoint_dtype_bytes > 0 ? m->checkpoint_dtype_bytes : sizes[i];
        if (fabs(*per_param / want - 1.0) <= 0.01)
            return true;
    }
    return false;
}

bool model_mlp_gated(enum mlp_kind k)
{
    return k == MLP_SWIGLU || k == MLP_GEGLU;
}

int64_t model_layer_norms(const struct model_arch *m)
{
    if (m->block == BLOCK_PARALLEL_ONE_NORM)
        return 1;
    return m->norm_place == NORM_SANDWICH ? 4 : 2;
}

int64_t model_shared_ffn(const struct model_arch *m)
{
    return m->shared_ffn > 0 ? m->shared_ffn : model_expert_ffn(m);
}

/* Shared experts in units of the routed expert's width. */
static double shared_units(const struct model_arch *m)
{
    const double fe = (double)model_expert_ffn(m);
    return fe > 0 ? (double)m->shared_experts * (double)model_shared_ffn(m) / fe : 0.0;
}

double model_experts_visited(const struct model_arch *m)
{
    return model_is_moe(m) ? (double)m->experts_active + shared_units(m) : 1.0;
}

double model_experts_held(const struct model_arch *m)
{
    return model_is_moe(m) ? (double)m->experts + shared_units(m) : 1.0;
}

/* Weights of one MLP (one expert) of hidden width f: two matrices, or three when gated. */
static int64_t mlp_weights(const struct model_arch *m, int64_t f)
{
    return (model_mlp_gated(m->mlp) ? 3 : 2) * m->d_model * f;
}

/* Biases of one MLP of hidden width f (bias on every linear layer: GPT-2, gpt-oss's experts;
 * or on the MLP alone: GPT-J). */
static int64_t mlp_biases(const struct model_arch *m, int64_t f)
{
    if (!m->bias && !m->mlp_bias)
        return 0;
    return (model_mlp_gated(m->mlp) ? 2 * f : f) + m->d_model;
}

/* One norm over width w: LayerNorm has a weight and a bias per channel, RMSNorm and LayerNorm
 * without its bias a weight, a non-parametric LayerNorm nothing. */
static int64_t norm_params(const struct model_arch *m, int64_t w)
{
    switch (m->norm) {
    case NORM_LAYERNORM:
        return 2 * w;
    case NORM_NONPARAMETRIC:
        return 0;
    case NORM_RMSNORM:
    case NORM_LAYERNORM_NOBIAS:
    default:
        return w;
    }
}

/* QK-norm's weights in one layer: one head's width each for Q and K (per head), or the whole
 * Q and K projections' widths (full). MLA's latent norms are counted apart. */
static int64_t qk_norm_params(const struct model_arch *m, const struct attn_dims *ad)
{
    switch (m->qk_norm) {
    case QK_NORM_HEAD:
        return 2 * norm_params(m, ad->head_qk);
    case QK_NORM_FULL:
        return norm_params(m, ad->q_width) + norm_params(m, m->kv_heads * ad->head_qk);
    case QK_NORM_NONE:
    default:
        return 0;
    }
}

/* The parameters of one layer, by part. */
struct layer_parts {
    int64_t attn, attn_bias, norms;       /* norms: block norms, QK-norm, MLA latent norms */
    int64_t mlp, mlp_active, mlp_bias, mlp_bias_active, router;
};

static void layer_count(const struct model_arch *m, const struct attn_dims *ad, bool moe,
                        struct layer_parts *p)
{
    memset(p, 0, sizeof *p);
    const int64_t h = m->d_model;
    const int64_t kv = m->kv_heads * model_head_dim(m); /* width of K and of V (not MLA) */
    /* Q and O are h x (heads x head_dim), K and V h x kv; MLA's projections in ad->w_in. */
    p->attn = ad->w_in + ad->w_out + (m->attn_sinks ? m->heads : 0);
    if (model_is_mla(m))
        p->attn_bias = 0; /* DeepSeek-V2/V3 have attention_bias false */
    else if (m->bias)
        p->attn_bias = ad->q_width + 2 * kv + h;
    else if (m->qkv_bias)
        p->attn_bias = ad->q_width + 2 * kv;
    p->norms = model_layer_norms(m) * norm_params(m, h) + qk_norm_params(m, ad) + ad->norm;
    if (!moe) {
        p->mlp = p->mlp_active = mlp_weights(m, m->ffn);
        p->mlp_bias = p->mlp_bias_active = mlp_biases(m, m->ffn);
        return;
    }
    const int64_t fe = model_expert_ffn(m), fs = model_shared_ffn(m);
    const int64_t shared = m->shared_experts * mlp_weights(m, fs) + (m->shared_gate ? h : 0);
    const int64_t shared_bias = m->shared_experts * mlp_biases(m, fs);
    p->mlp = m->experts * mlp_weights(m, fe) + shared;
    p->mlp_active = m->experts_active * mlp_weights(m, fe) + shared;
    p->mlp_bias = m->experts * mlp_biases(m, fe) + shared_bias;
    p->mlp_bias_active = m->experts_active * mlp_biases(m, fe) + shared_bias;
    p->router = h * m->experts + (m->router_bias ? m->experts : 0);
}

static int64_t layer_total(const struct layer_parts *p)
{
    return p->attn + p->attn_bias + p->norms + p->mlp + p->mlp_bias + p->router;
}

static void params_count(const struct model_arch *m, struct param_counts *out)
{
    memset(out, 0, sizeof *out);
    const int64_t h = m->d_model;
    const int64_t L = m->layers;
    struct attn_dims ad;
    model_attn_dims(m, &ad);

    out->embedding = m->vocab * h;
    out->position = m->positional == POS_LEARNED ? m->context * h : 0;
    out->lm_head = m->tied_embeddings ? 0 : m->vocab * h;

    const int64_t moe_layers = model_moe_layers(m);
    const int64_t dense_layers = L - moe_layers;
    struct layer_parts d, e;
    layer_count(m, &ad, false, &d);
    layer_count(m, &ad, true, &e);
    if (moe_layers == 0)
        e = d;

    out->attention = L * d.attn;
    out->mlp = dense_layers * d.mlp + moe_layers * e.mlp;
    out->mlp_active = dense_layers * d.mlp_active + moe_layers * e.mlp_active;
    out->router = moe_layers * e.router;
    out->norms = L * d.norms + norm_params(m, h); /* the layers' and the final norm */
    const int64_t head_bias = m->lm_head_bias ? m->vocab : 0;
    out->biases = L * d.attn_bias + dense_layers * d.mlp_bias + moe_layers * e.mlp_bias + head_bias;
    const int64_t biases_active = L * d.attn_bias + dense_layers * d.mlp_bias_active +
                                  moe_layers * e.mlp_bias_active + head_bias;
    out->per_layer = moe_layers > 0 ? layer_total(&e) : layer_total(&d);

    const int64_t outside = out->embedding + out->position + out->lm_head;
    out->total = outside + out->attention + out->mlp + out->router + out->norms + out->biases;
    out->active =
        outside + out->attention + out->mlp_active + out->router + out->norms + biases_active;

    /* DeepSeek-V3's MTP module, as its checkpoint stores it (modeling_deepseek.py, layer 61):
     * norms of the hidden state and of the next token's embedding, a projection of their
     * concatenation 2h -> h, one transformer layer of the last kind, a final norm, and its own
     * copies of the embedding and the output head. */
    if (m->mtp_layers > 0) {
        const int64_t one = 2 * norm_params(m, h) + 2 * h * h + out->per_layer +
                            norm_params(m, h) + 2 * m->vocab * h;
        out->mtp = m->mtp_layers * one;
    }

    out->typed = m->exact_params > 0 ? m->exact_params : 0;
}

/* The counts of the last architecture asked for are kept (per thread): `rooftop plan` counts
 * one model's parameters for each of thousands of layouts. Keyed on the whole struct: equal
 * bytes, equal counts. */
void model_params(const struct model_arch *m, struct param_counts *out)
{
    static _Thread_local struct {
        bool set;
        struct model_arch m;
        struct param_counts p;
    } last;
    if (last.set && memcmp(&last.m, m, sizeof *m) == 0) {
        *out = last.p;
        return;
    }
    params_count(m, out);
    last.set = true;
    last.m = *m;
    last.p = *out;
}

static bool field_range(const char *field, int64_t v, int64_t lo, int64_t hi, char *err, int n)
{
    if (v < lo || v > hi) {
        if (v < lo)
            snprintf(err, (size_t)n, "%s: must be at least %lld, got %lld", field, (long long)lo,
                     (long long)v);
        else
            snprintf(err, (size_t)n, "%s: %lld is too large (at most %lld)", field, (long long)v,
                     (long long)hi);
        return false;
    }
    return true;
}

bool model_validate(const struct model_arch *m, char *err, int errlen)
{
    if (!field_range("layers", m->layers, 1, MAX_LAYERS, err, errlen) ||
        !field_range("d_model", m->d_model, 1, MAX_WIDTH, err, errlen) ||
        !field_range("heads", m->heads, 1, MAX_WIDTH, err, errlen) ||
        !field_range("kv_heads", m->kv_heads, 1, MAX_WIDTH, err, errlen) ||
        !field_range("ffn", m->ffn, 1, MAX_WIDTH, err, errlen) ||
        !field_range("vocab", m->vocab, 1, MAX_VOCAB, err, errlen) ||
        !field_range("context", m->context, 1, MAX_CONTEXT, err, errlen) ||
        !field_range("experts", m->experts, 0, MAX_EXPERTS, err, errlen) ||
        !field_range("experts_active", m->experts_active, 0, MAX_EXPERTS, err, errlen) ||
        !field_range("shared_experts", m->shared_experts, 0, MAX_EXPERTS, err, errlen) ||
        !field_range("moe_ffn", m->moe_ffn, 0, MAX_WIDTH, err, errlen) ||
        !field_range("dense_layers", m->dense_layers, 0, m->layers, err, errlen) ||
        !field_range("head_dim", m->head_dim, 0, MAX_WIDTH, err, errlen) ||
        !field_range("sliding_window", m->sliding_window, 0, MAX_CONTEXT, err, errlen) ||
        !field_range("sliding_window_pattern", m->sliding_window_pattern, 0, m->layers, err, errlen) ||
        !field_range("kv_lora_rank", m->kv_lora_rank, 0, MAX_WIDTH, err, errlen) ||
        !field_range("q_lora_rank", m->q_lora_rank, 0, MAX_WIDTH, err, errlen) ||
        !field_range("qk_nope_head_dim", m->qk_nope_head_dim, 0, MAX_WIDTH, err, errlen) ||
        !field_range("qk_rope_head_dim", m->qk_rope_head_dim, 0, MAX_WIDTH, err, errlen) ||
        !field_range("v_head_dim", m->v_head_dim, 0, MAX_WIDTH, err, errlen) ||
        !field_range("shared_ffn", m->shared_ffn, 0, MAX_WIDTH, err, errlen) ||
        !field_range("mtp_layers", m->mtp_layers, 0, MAX_LAYERS, err, errlen) ||
        !field_range("mlp", (int64_t)m->mlp, 0, MODEL_MLP_KINDS - 1, err, errlen) ||
        !field_range("norm", (int64_t)m->norm, 0, MODEL_NORM_KINDS - 1, err, errlen) ||
        !field_range("positional", (int64_t)m->positional, 0, MODEL_POS_KINDS - 1, err, errlen) ||
        !field_range("norm_place", (int64_t)m->norm_place, 0, MODEL_NORM_PLACES - 1, err, errlen) ||
        !field_range("qk_norm", (int64_t)m->qk_norm, 0, MODEL_QK_NORMS - 1, err, errlen) ||
        !field_range("block", (int64_t)m->block, 0, MODEL_BLOCKS - 1, err, errlen))
        return false;
    if (m->block != BLOCK_SEQUENTIAL && m->norm_place != NORM_PRE) {
        snprintf(err, (size_t)errlen, "block: a %s block has pre-norms only, not %s",
                 model_block_name(m->block), model_norm_place_name(m->norm_place));
        return false;
    }
    if (model_is_mla(m) && m->qk_norm != QK_NORM_NONE) {
        snprintf(err, (size_t)errlen, "qk_norm: MLA (kv_lora_rank %lld) normalises its latents, "
                 "not Q and K; use none", (long long)m->kv_lora_rank);
        return false;
    }
    if (m->experts <= 1 && (m->shared_ffn > 0 || m->shared_gate || m->router_bias)) {
        snprintf(err, (size_t)errlen, "%s: is for a mixture of experts, and experts is %lld",
                 m->shared_ffn > 0 ? "shared_ffn" : m->shared_gate ? "shared_gate" : "router_bias",
                 (long long)m->experts);
        return false;
    }
    if (model_is_mla(m) && (m->qk_nope_head_dim + m->qk_rope_head_dim < 1 || m->v_head_dim < 1)) {
        snprintf(err, (size_t)errlen, "v_head_dim: MLA (kv_lora_rank %lld) needs qk_nope_head_dim "
                 "or qk_rope_head_dim and v_head_dim of at least 1", (long long)m->kv_lora_rank);
        return false;
    }
    /* With an explicit head_dim (or MLA's own widths) heads need not divide d_model. */
    if (m->head_dim == 0 && !model_is_mla(m) && m->d_model % m->heads != 0) {
        snprintf(err, (size_t)errlen, "heads: %lld does not divide d_model %lld",
                 (long long)m->heads, (long long)m->d_model);
        return false;
    }
    if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
        snprintf(err, (size_t)errlen, "kv_heads: %lld does not divide heads %lld",
                 (long long)m->kv_heads, (long long)m->heads);
        return false;
    }
    if (m->experts > 1 && (m->experts_active < 1 || m->experts_active > m->experts)) {
        snprintf(err, (size_t)errlen, "experts_active: must be between 1 and experts (%lld), got %lld",
                 (long long)m->experts, (long long)m->experts_active);
        return false;
    }
    if (m->experts <= 1 && (m->experts_active > 1 || m->shared_experts > 0)) {
        snprintf(err, (size_t)errlen, "experts: must be at least 2 for a mixture of experts, got %lld",
                 (long long)m->experts);
        return false;
    }
    /* The count in floating point first, so a huge shape is refused before int64 overflows. */
    double h = (double)m->d_model, L = (double)m->layers;
    double fe = (double)(m->moe_ffn > 0 ? m->moe_ffn : m->ffn);
    double fs = (double)(m->shared_ffn > 0 ? m->shared_ffn : fe);
    double n_experts = (double)m->experts + (double)m->shared_experts * fs / (fe > 0 ? fe : 1);
    /* Attention at its widest: Q and O heads x max(head widths), K and V the same over the
     * KV heads (GQA: a 70B custom shape must not count 4 h^2), MLA's latent. */
    double hd = (double)(m->head_dim > 0 ? m->head_dim : m->d_model / m->heads);
    double mla_hd = (double)(m->qk_nope_head_dim + m->qk_rope_head_dim + m->v_head_dim);
    double head_w = hd > mla_hd ? hd : mla_hd;
    double wide = (double)m->heads * head_w, kv_wide = (double)m->kv_heads * head_w;
    double attn = 2.0 * h * wide + 2.0 * h * kv_wide +
                  (double)(m->kv_lora_rank + m->q_lora_rank) * (h + wide);
    double approx = (2.0 + 2.0 * (double)m->mtp_layers) * (double)m->vocab * h +
                    (double)m->context * h +
                    L * (attn + 3.0 * h * ((double)m->ffn + n_experts * fe) + h * (double)m->experts);
    if (approx > MAX_PARAMS) {
        snprintf(err, (size_t)errlen, "layers: the shape has %.3g parameters, more than %.0e",
                 approx, MAX_PARAMS);
        return false;
    }
    if (m->exact_params < 0 || (double)m->exact_params > MAX_PARAMS) {
        snprintf(err, (size_t)errlen, "params: must be between 1 and %.0e", MAX_PARAMS);
        return false;
    }
    return true;
}

/* The custom shape for `layers`: head size 128, as many heads as layers (rounded to a
 * multiple of 8 from 16 layers on, so common tensor-parallel degrees divide them), so
 * d_model is about 128 x layers. */
static void custom_shape(int64_t layers, struct model_arch *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->id, sizeof m->id, "custom");
    m->layers = layers;
    m->heads = layers >= 16 ? ((layers + 4) / 8) * 8 : layers;
    m->d_model = 128 * m->heads;
    m->kv_heads = (m->heads > 8 && m->heads % 8 == 0) ? 8 : m->heads;
    /* SwiGLU at 8/3 d_model keeps the MLP at 8 h^2, so a layer is 12 h^2 like GPT-3's. */
    m->ffn = ((8 * m->d_model / 3 + 255) / 256) * 256;
    m->vocab = 128256;
    m->context = 8192;
    m->mlp = MLP_SWIGLU;
    m->norm = NORM_RMSNORM;
    m->positional = POS_ROPE;
}

/* The count of m with its MLP width (or vocabulary) set to zero: what the fit must top up. */
static double count_without(struct model_arch m, bool ffn, bool vocab)
{
    if (ffn)
        m.ffn = 0;
    if (vocab)
        m.vocab = 0;
    struct param_counts pc;
    model_params(&m, &pc);
    return (double)pc.total;
}

bool model_from_params(double n, struct model_arch *out)
{
    if (!(n >= 1e6) || !(n <= MAX_PARAMS))
        return false;
    /* Each unit of ffn adds 3 h per layer (SwiGLU), so the fitted count lands within 1.5 h L
     * of n: under 1/(8 h) of n once the layers dominate, under 0.01% for every n. */
    struct model_arch best, cand;
    double best_score = INFINITY;
    bool found = false;
    for (int64_t layers = 1; layers <= MAX_LAYERS; layers++) {
        custom_shape(layers, &cand);
        double rest = count_without(cand, true, false);
        double unit = 3.0 * (double)cand.d_model * (double)layers;
        double ffn = (n - rest) / unit;
        if (ffn < 1.0)
            break; /* the rest only grows with layers */
        double score = fabs(ffn / (double)cand.d_model - 8.0 / 3.0);
        if (score < best_score) {
            best_score = score;
            cand.ffn = (int64_t)llround(ffn);
            best = cand;
            found = true;
        }
    }
    if (!found) {
        /* Below one layer plus a 128256-token vocabulary (about 33M): fit the vocabulary, two
         * rows of h (embedding and LM head) each. */
        custom_shape(1, &best);
        double rest = count_without(best, false, true);
        long long vocab = llround((n - rest) / (2.0 * (double)best.d_model));
        best.vocab = vocab >= 1 ? (int64_t)vocab : 1;
    }
    best.exact_params = (int64_t)llround(n);
    char count[32];
    if (n >= 1e12)
        snprintf(count, sizeof count, "%.4gT", n / 1e12);
    else if (n >= 1e9)
        snprintf(count, sizeof count, "%.4gB", n / 1e9);
    else
        snprintf(count, sizeof count, "%.4gM", n / 1e6);
    snprintf(best.name, sizeof best.name, "custom %s", count);
    *out = best;
    return true;
}
