/* spec_write.c - GPU and model specs written back as JSON, in the schema spec.c reads (what
 * `rooftop import`, `probe --save-spec` and the dashboard's save write). */
#include "spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "dtype.h"
#include "files.h"

/* ---- the same schema, with cJSON ------------------------------------------- */

bool spec_json_add_number(cJSON *o, const char *key, double v)
{
    cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
    if (item == NULL)
        return false;
    if (!cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

/* A figure where 0 means unknown: the number, or null as the spec files write unknowns. */
static bool add_figure(cJSON *o, const char *key, double v)
{
    return spec_json_add_number(o, key, v > 0 ? v : NAN);
}

/* An optional group ("node", "efficiency"): added only when one of its figures is known, so
 * a GPU without them is written as the files without them are. */
static cJSON *add_group(cJSON *o, const char *key, const double *vals, size_t n, bool *ok)
{
    bool any = false;
    for (size_t i = 0; i < n; i++)
        any = any || vals[i] > 0;
    if (!any)
        return NULL;
    cJSON *g = cJSON_AddObjectToObject(o, key);
    if (g == NULL)
        *ok = false;
    return g;
}

cJSON *spec_gpu_to_json(const struct gpu_spec *g)
{
    cJSON *o = cJSON_CreateObject();
    if (o == NULL)
        return NULL;
    bool ok = cJSON_AddStringToObject(o, "name", g->name) != NULL &&
              add_figure(o, "memory_bytes", g->memory_bytes) &&
              add_figure(o, "bandwidth", g->bandwidth);
    cJSON *pk = ok ? cJSON_AddObjectToObject(o, "peak_flops") : NULL;
    ok = ok && pk != NULL;
    for (int k = 0; ok && k < PEAK_COUNT; k++)
        ok = spec_json_add_number(pk, peak_name((enum peak_kind)k),
                                  g->peak_valid[k] && g->peak_flops[k] > 0 ? g->peak_flops[k] : NAN);
    ok = ok && add_figure(o, "sms", (double)g->sms) && add_figure(o, "l2_bytes", g->l2_bytes) &&
         add_figure(o, "interconnect_bandwidth", g->interconnect_bandwidth) &&
         cJSON_AddStringToObject(o, "source", g->source) != NULL;
    const double node[] = {(double)g->node.domain, g->node.nvlink_bandwidth,
                           g->node.network_bandwidth, g->node.nvlink_latency,
                           g->node.network_latency};
    static const char *const node_keys[] = {"gpus", "nvlink_bandwidth", "network_bandwidth",
                                            "nvlink_latency", "network_latency"};
    cJSON *n = ok ? add_group(o, "node", node, 5, &ok) : NULL;
    for (size_t i = 0; ok && n != NULL && i < 5; i++)
        if (node[i] > 0)
            ok = spec_json_add_number(n, node_keys[i], node[i]);
    const double eff[] = {g->gemm_efficiency, g->memory_efficiency};
    cJSON *e = ok ? add_group(o, "efficiency", eff, 2, &ok) : NULL;
    if (ok && e != NULL && eff[0] > 0)
        ok = spec_json_add_number(e, "gemm", eff[0]);
    if (ok && e != NULL && eff[1] > 0)
        ok = spec_json_add_number(e, "memory", eff[1]);
    cJSON *pw = ok ? add_group(o, "power", &g->board_power, 1, &ok) : NULL;
    if (ok && pw != NULL)
        ok = spec_json_add_number(pw, "board", g->board_power);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *spec_model_to_json(const struct model_arch *m, const struct spec_model_meta *meta)
{
    cJSON *o = cJSON_CreateObject();
    if (o == NULL)
        return NULL;
    bool ok = cJSON_AddStringToObject(o, "name", m->name) != NULL;
    const struct {
        const char *key;
        int64_t v;
    } shape[] = {{"layers", m->layers}, {"d_model", m->d_model}, {"heads", m->heads},
                 {"kv_heads", m->kv_heads}, {"ffn", m->ffn}, {"vocab", m->vocab},
                 {"context", m->context}};
    for (size_t i = 0; ok && i < sizeof shape / sizeof shape[0]; i++)
        ok = spec_json_add_number(o, shape[i].key, (double)shape[i].v);
    ok = ok && cJSON_AddStringToObject(o, "mlp", model_mlp_name(m->mlp)) != NULL &&
         cJSON_AddStringToObject(o, "norm", model_norm_name(m->norm)) != NULL &&
         cJSON_AddBoolToObject(o, "tied_embeddings", m->tied_embeddings) != NULL &&
         cJSON_AddBoolToObject(o, "bias", m->bias) != NULL &&
         cJSON_AddBoolToObject(o, "qkv_bias", m->qkv_bias) != NULL &&
         cJSON_AddStringToObject(o, "positional", model_pos_name(m->positional)) != NULL;
    /* The kinds beyond the basics only when they differ from the default, so older files and
     * the presets read the same. */
    if (ok && m->norm_place != NORM_PRE)
        ok = cJSON_AddStringToObject(o, "norm_place", model_norm_place_name(m->norm_place)) != NULL;
    if (ok && m->qk_norm != QK_NORM_NONE)
        ok = cJSON_AddStringToObject(o, "qk_norm", model_qk_norm_name(m->qk_norm)) != NULL;
    if (ok && m->block != BLOCK_SEQUENTIAL)
        ok = cJSON_AddStringToObject(o, "block", model_block_name(m->block)) != NULL;
    const struct {
        const char *key;
        bool v;
    } flags[] = {{"attn_sinks", m->attn_sinks}, {"shared_gate", m->shared_gate},
                 {"router_bias", m->router_bias}, {"lm_head_bias", m->lm_head_bias},
                 {"mlp_bias", m->mlp_bias}};
    for (size_t i = 0; ok && i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i].v)
            ok = cJSON_AddBoolToObject(o, flags[i].key, true) != NULL;
    const struct {
        const char *key;
        int64_t v;
        bool always; /* written as 0 too; the rest only when used */
    } more[] = {{"experts", m->experts, true},
                {"experts_active", m->experts_active, true},
                {"shared_experts", m->shared_experts, true},
                {"moe_ffn", m->moe_ffn, true},
                {"dense_layers", m->dense_layers, true},
                {"head_dim", m->head_dim, false},
                {"sliding_window", m->sliding_window, false},
                {"sliding_window_pattern", m->sliding_window_pattern, false},
                {"kv_lora_rank", m->kv_lora_rank, false},
                {"q_lora_rank", m->q_lora_rank, false},
                {"qk_nope_head_dim", m->qk_nope_head_dim, false},
                {"qk_rope_head_dim", m->qk_rope_head_dim, false},
                {"v_head_dim", m->v_head_dim, false},
                {"shared_ffn", m->shared_ffn, false},
                {"mtp_layers", m->mtp_layers, false}};
    for (size_t i = 0; ok && i < sizeof more / sizeof more[0]; i++)
        if (more[i].always || more[i].v > 0)
            ok = spec_json_add_number(o, more[i].key, (double)more[i].v);
    double tokens = meta != NULL ? meta->tokens : m->trained_tokens;
    if (ok && tokens > 0)
        ok = spec_json_add_number(o, "tokens", tokens);
    if (ok && meta != NULL && meta->source[0])
        ok = cJSON_AddStringToObject(o, "source", meta->source) != NULL;
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

bool spec_save_json(const char *path, const cJSON *o, char *err, size_t errlen)
{
    char *text = o != NULL ? cJSON_Print(o) : NULL;
    size_t n = text != NULL ? strlen(text) : 0;
    char *line = text != NULL ? realloc(text, n + 2) : NULL;
    if (line == NULL) {
        free(text);
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    /* A text file ends in a newline; cJSON_Print leaves it off. */
    line[n] = '\n';
    line[n + 1] = '\0';
    bool ok = files_write(path, line, n + 1, err, errlen);
    free(line);
    return ok;
}

bool spec_save_gpu(const char *path, const struct gpu_spec *g, char *err, size_t errlen)
{
    cJSON *o = spec_gpu_to_json(g);
    bool ok = spec_save_json(path, o, err, errlen);
    cJSON_Delete(o);
    return ok;
}
