/* model.c - parameter counts from a transformer's architecture. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const model_mlp_names[MODEL_MLP_KINDS] = {[MLP_GELU] = "gelu", [MLP_SWIGLU] = "swiglu"};
const char *const model_norm_names[MODEL_NORM_KINDS] = {[NORM_LAYERNORM] = "layernorm",
                                                        [NORM_RMSNORM] = "rmsnorm"};
const char *const model_pos_names[MODEL_POS_KINDS] = {[POS_LEARNED] = "learned", [POS_ROPE] = "rope"};

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

const char *model_mlp_name(enum mlp_kind k)
{
    return name_of(model_mlp_names, MODEL_MLP_KINDS, (int)k);
}

const char *model_norm_name(enum norm_kind k)
{
    return name_of(model_norm_names, MODEL_NORM_KINDS, (int)k);
}

const char *model_pos_name(enum pos_kind k)
{
    return name_of(model_pos_names, MODEL_POS_KINDS, (int)k);
}

bool model_mlp_parse(const char *s, enum mlp_kind *out)
{
    int k;
    if (!parse_in(model_mlp_names, MODEL_MLP_KINDS, s, &k))
        return false;
    *out = (enum mlp_kind)k;
    return true;
}

bool model_norm_parse(const char *s, enum norm_kind *out)
{
    int k;
    if (!parse_in(model_norm_names, MODEL_NORM_KINDS, s, &k))
        return false;
    *out = (enum norm_kind)k;
    return true;
}

bool model_pos_parse(const char *s, enum pos_kind *out)
{
    int k;
    if (!parse_in(model_pos_names, MODEL_POS_KINDS, s, &k))
        return false;
    *out = (enum pos_kind)k;
    return true;
}

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
#define MAX_LAYERS 100000
#define MAX_WIDTH 10000000LL   /* d_model, ffn, moe_ffn */
#define MAX_VOCAB 100000000LL
#define MAX_CONTEXT 100000000LL
#define MAX_EXPERTS 100000
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

/* Weights of one MLP (one expert) of hidden width f: two matrices, or three for SwiGLU. */
static int64_t mlp_weights(const struct model_arch *m, int64_t f)
{
    return (m->mlp == MLP_SWIGLU ? 3 : 2) * m->d_model * f;
}

/* Biases of one MLP of hidden width f (GPT-2 style bias on every linear layer). */
static int64_t mlp_biases(const struct model_arch *m, int64_t f)
{
    if (!m->bias)
        return 0;
    return (m->mlp == MLP_SWIGLU ? 2 * f : f) + m->d_model;
}

static int64_t norm_params(const struct model_arch *m)
{
    /* LayerNorm has a weight and a bias per channel, RMSNorm only the weight. */
    return (m->norm == NORM_LAYERNORM ? 2 : 1) * m->d_model;
}

void model_params(const struct model_arch *m, struct param_counts *out)
{
    memset(out, 0, sizeof *out);
    const int64_t h = m->d_model;
    const int64_t L = m->layers;
    struct attn_dims ad;
    model_attn_dims(m, &ad);
    const int64_t kv = m->kv_heads * model_head_dim(m); /* width of K and of V (not MLA) */

    out->embedding = m->vocab * h;
    out->position = m->positional == POS_LEARNED ? m->context * h : 0;
    out->lm_head = m->tied_embeddings ? 0 : m->vocab * h;

    /* Q and O are h x (heads x head_dim), K and V h x kv; MLA's projections in ad.w_in. */
    const int64_t attn = ad.w_in + ad.w_out;
    int64_t attn_bias = 0;
    if (model_is_mla(m))
        attn_bias = 0;   /* DeepSeek-V2 has attention_bias false; its biases are not modelled */
    else if (m->bias)
        attn_bias = ad.q_width + 2 * kv + h;
    else if (m->qkv_bias)
        attn_bias = ad.q_width + 2 * kv;

    const int64_t moe_layers = model_moe_layers(m);
    const int64_t dense_layers = L - moe_layers;
    const int64_t fe = model_expert_ffn(m);
    const int64_t n_exp = m->experts + m->shared_experts;
    const int64_t n_act = m->experts_active + m->shared_experts;

    const int64_t dense_mlp = mlp_weights(m, m->ffn);
    const int64_t dense_mlp_bias = mlp_biases(m, m->ffn);
    const int64_t moe_mlp = n_exp * mlp_weights(m, fe);
    const int64_t moe_mlp_active = n_act * mlp_weights(m, fe);
    const int64_t moe_bias = n_exp * mlp_biases(m, fe);
    const int64_t moe_bias_active = n_act * mlp_biases(m, fe);
    const int64_t router = moe_layers > 0 ? h * m->experts : 0;

    out->attention = L * attn;
    out->mlp = dense_layers * dense_mlp + moe_layers * moe_mlp;
    out->mlp_active = dense_layers * dense_mlp + moe_layers * moe_mlp_active;
    out->router = moe_layers * router;
    /* Two norms per layer and a final one, plus MLA's latent norms (RMSNorm weights). */
    out->norms = (2 * L + 1) * norm_params(m) + L * ad.norm;
    out->biases = L * attn_bias + dense_layers * dense_mlp_bias + moe_layers * moe_bias;
    const int64_t biases_active =
        L * attn_bias + dense_layers * dense_mlp_bias + moe_layers * moe_bias_active;

    const int64_t layer_common = attn + attn_bias + 2 * norm_params(m) + ad.norm;
    out->per_layer = moe_layers > 0 ? layer_common + moe_mlp + moe_bias + router
                                    : layer_common + dense_mlp + dense_mlp_bias;

    const int64_t outside = out->embedding + out->position + out->lm_head;
    out->total = outside + out->attention + out->mlp + out->router + out->norms + out->biases;
    out->active =
        outside + out->attention + out->mlp_active + out->router + out->norms + biases_active;

    out->typed = m->exact_params > 0 ? m->exact_params : 0;
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
        !field_range("v_head_dim", m->v_head_dim, 0, MAX_WIDTH, err, errlen))
        return false;
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
    double n_experts = (double)(m->experts + m->shared_experts);
    /* Attention at its widest: Q and O heads x max(head widths), K and V the same over the
     * KV heads (GQA: a 70B custom shape must not count 4 h^2), MLA's latent. */
    double hd = (double)(m->head_dim > 0 ? m->head_dim : m->d_model / m->heads);
    double mla_hd = (double)(m->qk_nope_head_dim + m->qk_rope_head_dim + m->v_head_dim);
    double head_w = hd > mla_hd ? hd : mla_hd;
    double wide = (double)m->heads * head_w, kv_wide = (double)m->kv_heads * head_w;
    double attn = 2.0 * h * wide + 2.0 * h * kv_wide +
                  (double)(m->kv_lora_rank + m->q_lora_rank) * (h + wide);
    double approx = 2.0 * (double)m->vocab * h + (double)m->context * h +
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
