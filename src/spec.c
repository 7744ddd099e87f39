/* spec.c - loading GPU and model spec files (JSON, read with cJSON) and finding presets. */
#include "spec.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dtype.h"
#include "files.h"
#include "hfcache.h"
#include "json_dup.h"
#include "json_kind.h"
#include "json_read.h"
#include "hfconfig.h"
#include "nearest.h"

/*
 * Bounds on model fields: the same as model_validate()'s, so whatever the core accepts (a
 * scenario saves its model inline and reads it back through here) loads again. Far above
 * any real model, and with the size check they keep the core's int64 products (h*h*L, V*h,
 * h*f*E*L, bytes of state) from overflowing: at most 1e17 parameters.
 */
#define MODEL_LAYERS_MAX 100000
#define MODEL_WIDTH_MAX 10000000
#define MODEL_FFN_MAX 10000000
#define MODEL_VOCAB_MAX 100000000
#define MODEL_CONTEXT_MAX 100000000
#define MODEL_EXPERTS_MAX 100000
#define MODEL_SHARED_MAX 100000
#define MODEL_PARAMS_MAX 1e17
#define MODEL_TOKENS_MAX 1e18

/* Bounds on GPU figures: at least 1 (so ratios stay finite), at most far beyond any chip. */
#define GPU_MEMORY_MAX 1e15
#define GPU_BANDWIDTH_MAX 1e16
#define GPU_FLOPS_MAX 1e19
#define GPU_SMS_MAX 1000000
#define GPU_L2_MAX 1e13
#define GPU_POWER_MAX 1e5 /* watts: a board of 100 kW is a typo */


static const char *const model_fields[] = {
    "name",    "layers",         "d_model",  "heads",          "kv_heads",
    "ffn",     "vocab",          "context",  "mlp",            "norm",
    "tied_embeddings", "bias",   "qkv_bias", "positional",     "experts",
    "experts_active",  "shared_experts",     "moe_ffn",        "dense_layers",
    "tokens",  "source",
    /* Attention shape beyond d_model / heads, named as in Hugging Face configs. */
    "head_dim", "sliding_window", "sliding_window_pattern", "kv_lora_rank", "q_lora_rank",
    "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim",
    /* Norms, blocks and MoE beyond the basics (issue 9). */
    "norm_place", "qk_norm", "block", "attn_sinks", "shared_ffn", "shared_gate", "router_bias",
    "mtp_layers", "lm_head_bias", "mlp_bias",
};
#define MODEL_FIELD_COUNT (sizeof model_fields / sizeof model_fields[0])

static const char *const gpu_fields[] = {
    "name", "memory_bytes", "bandwidth", "peak_flops", "sms", "l2_bytes",
    "interconnect_bandwidth", "source", "node", "efficiency", "power",
};
#define GPU_FIELD_COUNT (sizeof gpu_fields / sizeof gpu_fields[0])


static bool text_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The preset id of a file: its name without directories and without ".json". */
static void text_stem(char *dst, size_t cap, const char *path)
{
    const char *base = path ? strrchr(path, '/') : NULL;
    base = base ? base + 1 : (path ? path : "");
    char *stem = strdup(base);
    if (stem == NULL) {
        /* Out of memory: an id that says so rather than one cut from the wrong place. */
        snprintf(dst, cap, "?");
        return;
    }
    if (text_ends_with(stem, ".json"))
        stem[strlen(stem) - 5] = '\0';
    json_read_safe(dst, cap, stem, cap - 1);
    free(stem);
}
/* ---- models --------------------------------------------------------------------------- */

/* About how many parameters the shape has (all experts), in double so it cannot overflow. */
static double model_size_estimate(const struct model_arch *m)
{
    double h = (double)m->d_model, L = (double)m->layers;
    double head = h / (double)m->heads;
    double attn = 2 * h * h + 2 * h * (double)m->kv_heads * head;
    double mats = model_mlp_gated(m->mlp) ? 3 : 2;
    double dense = attn + mats * h * (double)m->ffn;
    double eff = (double)(m->moe_ffn > 0 ? m->moe_ffn : m->ffn);
    double moe = attn + mats * h * eff * model_experts_held(m) +
                 h * (double)m->experts;
    double per_layer = dense > moe ? dense : moe;
    double emb = (double)m->vocab * h * (m->tied_embeddings ? 1 : 2);
    if (m->positional == POS_LEARNED)
        emb += (double)m->context * h;
    return L * per_layer + emb;
}

/* The name and the required sizes. */
static bool model_read_shape(const struct json_read *r, const cJSON *o, struct model_arch *m)
{
    const cJSON *v = json_read_get(r, o, "name");
    if (!v)
        return json_read_fail(r, "name", "missing");
    if (!json_read_text(r, "name", v, m->name, sizeof m->name, false))
        return false;
    if (!json_read_req_int(r, o, "layers", 1, MODEL_LAYERS_MAX, &m->layers) ||
        !json_read_req_int(r, o, "d_model", 1, MODEL_WIDTH_MAX, &m->d_model) ||
        !json_read_req_int(r, o, "heads", 1, MODEL_WIDTH_MAX, &m->heads) ||
        !json_read_opt_int(r, o, "kv_heads", 1, MODEL_WIDTH_MAX, m->heads, &m->kv_heads) ||
        !json_read_req_int(r, o, "ffn", 1, MODEL_FFN_MAX, &m->ffn) ||
        !json_read_req_int(r, o, "vocab", 1, MODEL_VOCAB_MAX, &m->vocab) ||
        !json_read_req_int(r, o, "context", 1, MODEL_CONTEXT_MAX, &m->context))
        return false;
    return true;
}

/* The kinds: MLP, norm, positions, the norms' place, QK-norm, block. */
static bool model_read_kinds(const struct json_read *r, const cJSON *o, struct model_arch *m)
{
    const cJSON *v;
    int mlp, norm, pos = POS_ROPE;
    if (!json_read_req_enum(r, o, "mlp", model_mlp_names, MODEL_MLP_KINDS, &mlp) ||
        !json_read_req_enum(r, o, "norm", model_norm_names, MODEL_NORM_KINDS, &norm))
        return false;
    if ((v = json_read_get(r, o, "positional")) &&
        !json_read_enum(r, "positional", v, model_pos_names, MODEL_POS_KINDS, &pos))
        return false;
    m->mlp = (enum mlp_kind)mlp;
    m->norm = (enum norm_kind)norm;
    m->positional = (enum pos_kind)pos;
    int place = NORM_PRE, qk = QK_NORM_NONE, block = BLOCK_SEQUENTIAL;
    if (((v = json_read_get(r, o, "norm_place")) &&
         !json_read_enum(r, "norm_place", v, model_norm_place_names, MODEL_NORM_PLACES, &place)) ||
        ((v = json_read_get(r, o, "qk_norm")) &&
         !json_read_enum(r, "qk_norm", v, model_qk_norm_names, MODEL_QK_NORMS, &qk)) ||
        ((v = json_read_get(r, o, "block")) &&
         !json_read_enum(r, "block", v, model_block_names, MODEL_BLOCKS, &block)))
        return false;
    m->norm_place = (enum norm_place)place;
    m->qk_norm = (enum qk_norm_kind)qk;
    m->block = (enum block_kind)block;
    return true;
}

/* The yes/no fields: tied embeddings, biases, sinks, the shared experts' gate, router bias. */
static bool model_read_flags(const struct json_read *r, const cJSON *o, struct model_arch *m)
{
    if (!json_read_opt_bool(r, o, "tied_embeddings", false, &m->tied_embeddings) ||
        !json_read_opt_bool(r, o, "bias", false, &m->bias) || !json_read_opt_bool(r, o, "qkv_bias", false, &m->qkv_bias) ||
        !json_read_opt_bool(r, o, "attn_sinks", false, &m->attn_sinks) ||
        !json_read_opt_bool(r, o, "shared_gate", false, &m->shared_gate) ||
        !json_read_opt_bool(r, o, "router_bias", false, &m->router_bias) ||
        !json_read_opt_bool(r, o, "lm_head_bias", false, &m->lm_head_bias) ||
        !json_read_opt_bool(r, o, "mlp_bias", false, &m->mlp_bias))
        return false;
    return true;
}

/* The optional counts: experts, the attention's shape beyond d_model / heads, MTP layers. */
static bool model_read_counts(const struct json_read *r, const cJSON *o, struct model_arch *m)
{
    if (!json_read_opt_int(r, o, "experts", 0, MODEL_EXPERTS_MAX, 0, &m->experts) ||
        !json_read_opt_int(r, o, "experts_active", 0, MODEL_EXPERTS_MAX, 0, &m->experts_active) ||
        !json_read_opt_int(r, o, "shared_experts", 0, MODEL_SHARED_MAX, 0, &m->shared_experts) ||
        !json_read_opt_int(r, o, "moe_ffn", 0, MODEL_FFN_MAX, 0, &m->moe_ffn) ||
        !json_read_opt_int(r, o, "dense_layers", 0, MODEL_LAYERS_MAX, 0, &m->dense_layers) ||
        !json_read_opt_count(r, o, "head_dim", MODEL_WIDTH_MAX, &m->head_dim) ||
        !json_read_opt_count(r, o, "sliding_window", MODEL_CONTEXT_MAX, &m->sliding_window) ||
        !json_read_opt_count(r, o, "sliding_window_pattern", MODEL_LAYERS_MAX, &m->sliding_window_pattern) ||
        !json_read_opt_count(r, o, "kv_lora_rank", MODEL_WIDTH_MAX, &m->kv_lora_rank) ||
        !json_read_opt_count(r, o, "q_lora_rank", MODEL_WIDTH_MAX, &m->q_lora_rank) ||
        !json_read_opt_count(r, o, "qk_nope_head_dim", MODEL_WIDTH_MAX, &m->qk_nope_head_dim) ||
        !json_read_opt_count(r, o, "qk_rope_head_dim", MODEL_WIDTH_MAX, &m->qk_rope_head_dim) ||
        !json_read_opt_count(r, o, "v_head_dim", MODEL_WIDTH_MAX, &m->v_head_dim) ||
        !json_read_opt_count(r, o, "shared_ffn", MODEL_FFN_MAX, &m->shared_ffn) ||
        !json_read_opt_count(r, o, "mtp_layers", MODEL_LAYERS_MAX, &m->mtp_layers))
        return false;
    return true;
}

/* What the file says about the model besides its shape: training tokens, source. */
static bool model_read_meta(const struct json_read *r, const cJSON *o,
                            struct spec_model_meta *meta)
{
    const cJSON *v;
    if ((v = json_read_get(r, o, "tokens")) &&
        !json_read_range(r, "tokens", v, 1, MODEL_TOKENS_MAX, false, &meta->tokens))
        return false;
    if ((v = json_read_get(r, o, "source")) &&
        !json_read_text(r, "source", v, meta->source, sizeof meta->source, true))
        return false;
    return true;
}

/* Cross-field checks; model_validate() repeats the essential ones, these name the file. */
static bool model_read_check(const struct json_read *r, const struct model_arch *m)
{
    if (m->head_dim == 0 && m->kv_lora_rank == 0 && m->d_model % m->heads != 0)
        return json_read_fail(r, "heads", "%lld does not divide d_model %lld", (long long)m->heads,
                    (long long)m->d_model);
    if (m->kv_heads > m->heads)
        return json_read_fail(r, "kv_heads", "%lld is more than heads %lld", (long long)m->kv_heads,
                    (long long)m->heads);
    if (m->heads % m->kv_heads != 0)
        return json_read_fail(r, "kv_heads", "%lld does not divide heads %lld", (long long)m->kv_heads,
                    (long long)m->heads);
    if (m->experts > 1 && m->experts_active < 1)
        return json_read_fail(r, "experts_active", "must be at least 1 with %lld experts",
                    (long long)m->experts);
    /* A dense model (experts 0 or 1) may say its one MLP is "active", as model_validate
     * allows; anything more needs that many experts. */
    if (m->experts_active > (m->experts > 1 ? m->experts : 1))
        return json_read_fail(r, "experts_active", "%lld is more than experts %lld",
                    (long long)m->experts_active, (long long)m->experts);
    if (m->shared_experts > 0 && m->experts <= 1)
        return json_read_fail(r, "shared_experts", "needs a mixture of experts (experts > 1), experts is %lld",
                    (long long)m->experts);
    /* The block/norm, QK-norm/MLA and MoE-only fields' checks are model_validate()'s alone:
     * spec_parse_model_meta runs it next and names the file and the field. */
    if (m->dense_layers > m->layers)
        return json_read_fail(r, "dense_layers", "%lld is more than layers %lld",
                    (long long)m->dense_layers, (long long)m->layers);
    double size = model_size_estimate(m);
    if (!(size <= MODEL_PARAMS_MAX))
        return json_read_fail(r, "size", "about %.3g parameters, more than rooftop counts (1e17)", size);
    return true;
}

static bool model_read(const struct json_read *r, const cJSON *o, struct model_arch *m,
                       struct spec_model_meta *meta)
{
    /* In this order: the first field that fails is the one named. */
    return json_read_keys(r, o, "", model_fields, MODEL_FIELD_COUNT) &&
           model_read_shape(r, o, m) && model_read_kinds(r, o, m) &&
           model_read_flags(r, o, m) && model_read_counts(r, o, m) &&
           model_read_meta(r, o, meta) && model_read_check(r, m);
}

bool spec_parse_model_meta(const char *json, size_t len, const char *origin,
                           struct model_arch *out, struct spec_model_meta *meta, char *err,
                           size_t errlen)
{
    struct json_read r;
    json_read_init(&r, origin, err, errlen);
    cJSON *root;
    if (!json_read_object(&r, json, len, &root))
        return false;
    struct model_arch m;
    struct spec_model_meta mm;
    memset(&m, 0, sizeof m);
    memset(&mm, 0, sizeof mm);
    bool ok;
    if (hfconfig_is(root)) {
        /* A Hugging Face config.json: its own reader (hfconfig.c), so that --model, scenario
         * files, the dashboard and `rooftop import` all take one. */
        const cJSON *dup;
        if (!json_dup_find(root, &dup, NULL)) {
            ok = json_read_fail(&r, NULL, "out of memory");
        } else if (dup != NULL) {
            char key[JSON_READ_SHOW_MAX + 4];
            json_read_safe(key, sizeof key, dup->string, JSON_READ_SHOW_MAX);
            ok = json_read_fail(&r, key, "appears twice");
        } else {
            ok = hfconfig_read(root, r.origin, &m, mm.source, sizeof mm.source, err, errlen);
        }
    } else {
        text_stem(m.id, sizeof m.id, origin);
        ok = model_read(&r, root, &m, &mm);
    }
    cJSON_Delete(root);
    if (!ok)
        return false;
    char why[JSON_READ_ERR_MAX];
    why[0] = '\0';
    if (!model_validate(&m, why, (int)sizeof why))
        return json_read_fail(&r, NULL, "%s", why[0] ? why : "not a usable model");
    m.trained_tokens = mm.tokens;
    *out = m;
    if (meta)
        *meta = mm;
    return true;
}

bool spec_parse_model(const char *json, size_t len, const char *origin, struct model_arch *out,
                      char *err, size_t errlen)
{
    return spec_parse_model_meta(json, len, origin, out, NULL, err, errlen);
}

/* ---- GPUs ----------------------------------------------------------------------------- */

/* An optional non-negative figure where 0 or null means unknown. */
static bool opt_figure(const struct json_read *r, const cJSON *o, const char *name, double hi,
                       double *out)
{
    const cJSON *v = json_read_get(r, o, name);
    *out = 0;
    if (!v || cJSON_IsNull(v))
        return true;
    return json_read_range(r, name, v, 1, hi, true, out);
}

static bool gpu_read_peaks(const struct json_read *r, const cJSON *o, struct gpu_spec *g)
{
    const char *names[PEAK_COUNT];
    for (int p = 0; p < PEAK_COUNT; p++)
        names[p] = peak_name((enum peak_kind)p);
    const cJSON *pf = json_read_get(r, o, "peak_flops");
    if (!pf)
        return json_read_fail(r, "peak_flops", "missing");
    if (!cJSON_IsObject(pf))
        return json_read_fail(r, "peak_flops", "must be an object of dense FLOP/s by format (fp64 ... fp4), got %s",
                    json_kind(pf));
    if (!json_read_keys(r, pf, "peak_flops.", names, PEAK_COUNT))
        return false;
    int known = 0;
    for (int p = 0; p < PEAK_COUNT; p++) {
        const cJSON *v = json_read_get(r, pf, names[p]);
        g->peak_flops[p] = 0;
        g->peak_valid[p] = false;
        if (!v || cJSON_IsNull(v))
            continue; /* the GPU has no such rate */
        char field[32];
        snprintf(field, sizeof field, "peak_flops.%s", names[p]);
        if (cJSON_IsNumber(v) && v->valuedouble == 0)
            return json_read_fail(r, field, "must be positive, got 0 (use null for a format the GPU lacks)");
        if (!json_read_range(r, field, v, 1, GPU_FLOPS_MAX, false, &g->peak_flops[p]))
            return false;
        g->peak_valid[p] = true;
        known++;
    }
    if (known == 0)
        return json_read_fail(r, "peak_flops", "needs at least one rate (all are missing or null)");
    return true;
}

/* A number field of an optional sub-object: its key, range and where it goes. */
struct sub_number {
    const char *key;
    double lo, hi;
    bool zero_ok;   /* 0 means unknown */
    double *out;
};

/*
 * The optional object o.name: absent or null is fine (*out NULL); otherwise only the keys in
 * names (the last of them "source", a text) and each of nums within its range.
 */
static bool sub_object(const struct json_read *r, const cJSON *o, const char *name,
                       const char *const *names, size_t n_names, const struct sub_number *nums,
                       size_t n_nums, const cJSON **out)
{
    *out = NULL;
    const cJSON *obj = json_read_get(r, o, name);
    if (!obj || cJSON_IsNull(obj))
        return true;
    if (!cJSON_IsObject(obj))
        return json_read_fail(r, name, "must be an object, got %s", json_kind(obj));
    char prefix[32], field[64];
    snprintf(prefix, sizeof prefix, "%s.", name);
    if (!json_read_keys(r, obj, prefix, names, n_names))
        return false;
    const cJSON *v;
    for (size_t i = 0; i < n_nums; i++) {
        snprintf(field, sizeof field, "%s%s", prefix, nums[i].key);
        if ((v = json_read_get(r, obj, nums[i].key)) &&
            !json_read_range(r, field, v, nums[i].lo, nums[i].hi, nums[i].zero_ok, nums[i].out))
            return false;
    }
    char src[GPU_SOURCE_MAX];
    snprintf(field, sizeof field, "%ssource", prefix);
    if ((v = json_read_get(r, obj, "source")) && !json_read_text(r, field, v, src, sizeof src, true))
        return false;
    *out = obj;
    return true;
}

/* Optional "node": {"gpus" (per NVLink domain), "nvlink_bandwidth", "network_bandwidth"
 * (bytes/s per GPU per direction), "nvlink_latency", "network_latency" (seconds per ring
 * step), "source"}, and "efficiency": {"gemm", "memory" (fractions of peak and bandwidth),
 * "source"}: for the step-time model; "power": {"board", "source"} for the energy. */
static bool gpu_read_node(const struct json_read *r, const cJSON *o, struct gpu_spec *g)
{
    static const char *const node_keys[] = {"gpus", "nvlink_bandwidth", "network_bandwidth",
                                            "nvlink_latency", "network_latency", "source"};
    const struct sub_number node_nums[] = {
        {"nvlink_bandwidth", 1, GPU_BANDWIDTH_MAX, true, &g->node.nvlink_bandwidth},
        {"network_bandwidth", 1, GPU_BANDWIDTH_MAX, true, &g->node.network_bandwidth},
        {"nvlink_latency", 1e-9, 1.0, true, &g->node.nvlink_latency},
        {"network_latency", 1e-9, 1.0, true, &g->node.network_latency},
    };
    static const char *const eff_keys[] = {"gemm", "memory", "source"};
    const struct sub_number eff_nums[] = {
        {"gemm", 0.01, 1.0, false, &g->gemm_efficiency},
        {"memory", 0.01, 1.0, false, &g->memory_efficiency},
    };
    /* "power": {"board" (W, the datasheet's maximum board power), "source"}: for the energy
     * of a run (src/cost.h). */
    static const char *const power_keys[] = {"board", "source"};
    const struct sub_number power_nums[] = {
        {"board", 1, GPU_POWER_MAX, false, &g->board_power},
    };
    const cJSON *node, *eff, *power, *v;
    if (!sub_object(r, o, "node", node_keys, sizeof node_keys / sizeof node_keys[0], node_nums,
                    sizeof node_nums / sizeof node_nums[0], &node) ||
        !sub_object(r, o, "efficiency", eff_keys, sizeof eff_keys / sizeof eff_keys[0], eff_nums,
                    sizeof eff_nums / sizeof eff_nums[0], &eff) ||
        !sub_object(r, o, "power", power_keys, sizeof power_keys / sizeof power_keys[0],
                    power_nums, sizeof power_nums / sizeof power_nums[0], &power))
        return false;
    if (node && (v = json_read_get(r, node, "gpus")) &&
        !json_read_int(r, "node.gpus", v, 1, GPU_SMS_MAX, &g->node.domain))
        return false;
    return true;
}

static bool gpu_read(const struct json_read *r, const cJSON *o, struct gpu_spec *g)
{
    if (!json_read_keys(r, o, "", gpu_fields, GPU_FIELD_COUNT))
        return false;
    const cJSON *v = json_read_get(r, o, "name");
    if (!v)
        return json_read_fail(r, "name", "missing");
    if (!json_read_text(r, "name", v, g->name, sizeof g->name, false))
        return false;
    if (!(v = json_read_get(r, o, "memory_bytes")))
        return json_read_fail(r, "memory_bytes", "missing");
    if (!json_read_range(r, "memory_bytes", v, 1, GPU_MEMORY_MAX, false, &g->memory_bytes))
        return false;
    if (!(v = json_read_get(r, o, "bandwidth")))
        return json_read_fail(r, "bandwidth", "missing");
    if (!json_read_range(r, "bandwidth", v, 1, GPU_BANDWIDTH_MAX, false, &g->bandwidth))
        return false;
    if (!gpu_read_peaks(r, o, g))
        return false;
    v = json_read_get(r, o, "sms");
    if (v && !cJSON_IsNull(v) && !json_read_int(r, "sms", v, 0, GPU_SMS_MAX, &g->sms))
        return false;
    if (!opt_figure(r, o, "l2_bytes", GPU_L2_MAX, &g->l2_bytes) ||
        !opt_figure(r, o, "interconnect_bandwidth", GPU_BANDWIDTH_MAX, &g->interconnect_bandwidth))
        return false;
    if ((v = json_read_get(r, o, "source")) &&
        !json_read_text(r, "source", v, g->source, sizeof g->source, true))
        return false;
    return gpu_read_node(r, o, g);
}

bool spec_parse_gpu(const char *json, size_t len, const char *origin, struct gpu_spec *out,
                    char *err, size_t errlen)
{
    struct json_read r;
    json_read_init(&r, origin, err, errlen);
    cJSON *root;
    if (!json_read_object(&r, json, len, &root))
        return false;
    struct gpu_spec g;
    memset(&g, 0, sizeof g);
    text_stem(g.id, sizeof g.id, origin);
    bool ok = gpu_read(&r, root, &g);
    cJSON_Delete(root);
    if (ok)
        *out = g;
    return ok;
}

/* ---- files ---------------------------------------------------------------------------- */

/* Reads a whole spec file (at most JSON_READ_FILE_MAX bytes) through the bounded reader; the
 * caller frees *data. */
static bool file_read(const struct json_read *r, const char *path, char **data, size_t *len)
{
    char msg[FILES_ERR_MAX];
    if (files_read(path, JSON_READ_FILE_MAX, data, len, msg, sizeof msg))
        return true;
    /* The reader's line names the path; ours names it as the origin already. */
    const char *what = msg, *shown = files_name_shown(path);
    size_t pl = strlen(shown);
    if (strncmp(msg, shown, pl) == 0 && strncmp(msg + pl, ": ", 2) == 0)
        what = msg + pl + 2;
    return json_read_fail(r, NULL, "%s", what);
}

static bool load_model(const char *path, struct model_arch *out, struct spec_model_meta *meta,
                       char *err, size_t errlen)
{
    struct json_read r;
    json_read_init(&r, files_name_shown(path), err, errlen);
    char *data;
    size_t len;
    if (!file_read(&r, path, &data, &len))
        return false;
    bool ok = spec_parse_model_meta(data, len, files_name_shown(path), out, meta, err, errlen);
    free(data);
    return ok;
}

bool spec_file_is_model(const char *path)
{
    char *data = NULL;
    size_t len = 0;
    char err[FILES_ERR_MAX];
    if (path == NULL || !files_read(path, JSON_READ_FILE_MAX, &data, &len, err, sizeof err))
        return false;
    cJSON *root = cJSON_ParseWithLength(data, len);
    free(data);
    bool model = cJSON_IsObject(root) && (hfconfig_is(root) ||
                                          cJSON_GetObjectItemCaseSensitive(root, "d_model") != NULL);
    cJSON_Delete(root);
    return model;
}

bool spec_load_model_file(const char *path, struct model_arch *out, char *err, size_t errlen)
{
    return load_model(path ? path : "", out, NULL, err, errlen);
}

bool spec_load_gpu_file(const char *path, struct gpu_spec *out, char *err, size_t errlen)
{
    struct json_read r;
    if (!path)
        path = "";
    json_read_init(&r, files_name_shown(path), err, errlen);
    char *data;
    size_t len;
    if (!file_read(&r, path, &data, &len))
        return false;
    bool ok = spec_parse_gpu(data, len, files_name_shown(path), out, err, errlen);
    free(data);
    return ok;
}

/* ---- the search path (files.c) -------------------------------------------------------- */

static int ids_compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the stems of DIR's *.json files to the list; false only when out of memory. */
static bool list_dir(const char *dir, char ***ids, size_t *count, size_t *cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return true; /* a directory on the path that does not exist is normal */
    struct dirent *e;
    bool ok = true;
    while (ok && (e = readdir(d)) != NULL) {
        const char *nm = e->d_name;
        size_t l = strlen(nm);
        if (nm[0] == '.' || l <= 5 || !text_ends_with(nm, ".json") || l - 5 >= MODEL_NAME_MAX)
            continue;
        char *path = files_join(dir, nm);
        if (path == NULL) {
            ok = false;
            break;
        }
        struct stat st;
        bool regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);
        free(path);
        if (!regular)
            continue;
        char *id = strndup(nm, l - 5);
        if (!id) {
            ok = false;
            break;
        }
        /* An id that would not print cleanly or would be taken for a file name is skipped. */
        if (!json_read_printable(id) || text_ends_with(id, ".json")) {
            free(id);
            continue;
        }
        if (*count == *cap) {
            size_t ncap = *cap ? *cap * 2 : 32;
            char **grown = realloc(*ids, ncap * sizeof *grown);
            if (!grown) {
                free(id);
                ok = false;
                break;
            }
            *ids = grown;
            *cap = ncap;
        }
        (*ids)[(*count)++] = id;
    }
    closedir(d);
    return ok;
}

static bool list_kind(const char *kind, struct spec_list *out)
{
    out->ids = NULL;
    out->count = 0;
    struct files_dirs dirs;
    if (!files_dirs(kind, &dirs))
        return false;
    char **ids = NULL;
    size_t count = 0, cap = 0;
    for (size_t i = 0; i < dirs.n; i++) {
        if (!list_dir(dirs.dir[i], &ids, &count, &cap)) {
            struct spec_list tmp = {ids, count};
            spec_list_free(&tmp);
            files_dirs_free(&dirs);
            return false;
        }
    }
    files_dirs_free(&dirs);
    if (count > 1)
        qsort(ids, count, sizeof *ids, ids_compare);
    size_t u = 0;
    for (size_t i = 0; i < count; i++) {
        if (u > 0 && strcmp(ids[u - 1], ids[i]) == 0)
            free(ids[i]);
        else
            ids[u++] = ids[i];
    }
    out->ids = ids;
    out->count = u;
    return true;
}

bool spec_list_gpus(struct spec_list *out)
{
    return list_kind("gpus", out);
}

bool spec_list_models(struct spec_list *out)
{
    return list_kind("models", out);
}

bool spec_list_scenarios(struct spec_list *out)
{
    return list_kind("scenarios", out);
}

void spec_list_free(struct spec_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->count; i++)
        free(l->ids[i]);
    free(l->ids);
    l->ids = NULL;
    l->count = 0;
}

/*
 * Resolves NAME|FILE of a kind to a file path (malloc'ed; NULL on failure). On failure writes
 * the one-line message: an unknown preset, with the closest known one when it looks like a
 * typo, or where rooftop looked when it found no presets at all.
 */
static char *resolve(const char *kind, const char *what, const char *name, char *err,
                     size_t errlen)
{
    struct json_read r;
    json_read_init(&r, name, err, errlen);
    if (name[0] == '\0') {
        if (r.errlen)
            snprintf(r.err, r.errlen, "empty %s name", what);
        return NULL;
    }
    if (files_is_path(name)) {
        char *path = strdup(name);
        if (path == NULL)
            json_read_fail(&r, NULL, "out of memory");
        return path;
    }
    if (strlen(name) < MODEL_NAME_MAX) {
        char *path = files_find_json(kind, name);
        if (path != NULL)
            return path;
        /* Presets are lowercase; "H100-SXM" means h100-sxm. */
        char lower[MODEL_NAME_MAX];
        size_t i = 0;
        for (; name[i]; i++)
            lower[i] = (name[i] >= 'A' && name[i] <= 'Z') ? (char)(name[i] - 'A' + 'a') : name[i];
        lower[i] = '\0';
        if (strcmp(lower, name) != 0 && (path = files_find_json(kind, lower)) != NULL)
            return path;
    }
    struct spec_list l;
    bool listed = list_kind(kind, &l);
    char near[200] = "";
    if (listed)
        nearest_suggest(name, (const char *const *)l.ids, l.count, "", near, sizeof near);
    if (listed && l.count == 0) {
        char where[256];
        files_dirs_describe(kind, where, sizeof where);
        json_read_fail(&r, NULL, "no such %s preset, and no %s presets found in %s (set ROOFTOP_SPECS or "
                       "give a file)", what, what, where);
    } else if (near[0]) {
        json_read_fail(&r, NULL, "no such %s preset (did you mean %s? `rooftop list %s` shows them all)", what,
             near, kind);
    } else {
        json_read_fail(&r, NULL, "no such %s preset (`rooftop list %s` shows them all)", what, kind);
    }
    if (listed)
        spec_list_free(&l);
    return NULL;
}

bool spec_find_gpu(const char *name_or_file, struct gpu_spec *out, char *err, size_t errlen)
{
    char *path = resolve("gpus", "GPU", name_or_file ? name_or_file : "", err, errlen);
    if (path == NULL)
        return false;
    bool ok = spec_load_gpu_file(path, out, err, errlen);
    free(path);
    return ok;
}

/* A model read from the Hugging Face cache is known by its repo id (which finds it again),
 * not by the snapshot directory its config.json is in; its name is NAME when the config has
 * no _name_or_path. */
static void name_cached(struct model_arch *m, const char *repo_id, const char *path)
{
    const char *end = strrchr(path, '/'), *start = end;
    while (start != NULL && start > path && start[-1] != '/')
        start--;
    bool from_dir = start != NULL && strlen(m->name) == (size_t)(end - start) &&
                    strncmp(m->name, start, (size_t)(end - start)) == 0;
    if (from_dir)
        snprintf(m->name, sizeof m->name, "%s", strchr(repo_id, '/') + 1);
    snprintf(m->id, sizeof m->id, "%s", repo_id);
}

bool spec_find_model_meta(const char *name_or_file, struct model_arch *out,
                          struct spec_model_meta *meta, char *err, size_t errlen)
{
    const char *name = name_or_file ? name_or_file : "";
    struct stat st;
    /* "ORG/NAME" that is no file here: the model in the local Hugging Face cache. */
    const bool cached = hfcache_is_repo_id(name) && stat(name, &st) != 0 &&
                        strlen(name) < MODEL_NAME_MAX;
    char *path = cached ? hfcache_config(name, err, errlen)
                        : resolve("models", "model", name, err, errlen);
    if (path == NULL)
        return false;
    struct spec_model_meta local;
    if (meta == NULL)
        meta = &local;
    bool ok = load_model(path, out, meta, err, errlen);
    if (ok && strncmp(meta->source, "Hugging Face config.json", 24) == 0) {
        if (cached)
            name_cached(out, name, path);
        /* The checkpoint's bytes, from the safetensors index beside the config. */
        double bytes = hfcache_checkpoint_bytes(path, err, errlen);
        ok = bytes >= 0;
        out->checkpoint_bytes = ok ? bytes : 0;
    }
    free(path);
    return ok;
}

bool spec_find_model(const char *name_or_file, struct model_arch *out, char *err, size_t errlen)
{
    return spec_find_model_meta(name_or_file, out, NULL, err, errlen);
}

