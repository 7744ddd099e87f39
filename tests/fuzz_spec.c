/* fuzz_spec.c - libFuzzer target for the spec loader: arbitrary bytes as a GPU file and as a
 * model file must give either a spec or one line of error, never a crash or a leak; and what
 * is accepted, written back by the schema's one writer, reads back to the same figures. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "spec.h"

#include "fuzz_keys_work.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The writer's text for o (freed here); aborts when it cannot be made. */
static char *print_json(cJSON *o)
{
    if (o == NULL)
        abort();
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (text == NULL)
        abort();
    return text;
}

static void gpu_round_trip(const struct gpu_spec *g)
{
    char *text = print_json(spec_gpu_to_json(g));
    struct gpu_spec b;
    char err[SPEC_ERR_MAX];
    if (!spec_parse_gpu(text, strlen(text), "fuzz.json", &b, err, sizeof err))
        abort();
    free(text);
    if (strcmp(b.name, g->name) != 0 || strcmp(b.source, g->source) != 0 ||
        b.memory_bytes != g->memory_bytes || b.bandwidth != g->bandwidth || b.sms != g->sms ||
        b.l2_bytes != g->l2_bytes || b.interconnect_bandwidth != g->interconnect_bandwidth ||
        b.node.domain != g->node.domain || b.node.nvlink_bandwidth != g->node.nvlink_bandwidth ||
        b.node.network_bandwidth != g->node.network_bandwidth ||
        b.node.nvlink_latency != g->node.nvlink_latency ||
        b.node.network_latency != g->node.network_latency ||
        b.gemm_efficiency != g->gemm_efficiency || b.memory_efficiency != g->memory_efficiency)
        abort();
    for (int p = 0; p < PEAK_COUNT; p++)
        if (b.peak_valid[p] != g->peak_valid[p] || b.peak_flops[p] != g->peak_flops[p])
            abort();
}

static void model_round_trip(const struct model_arch *m, const struct spec_model_meta *meta)
{
    char *text = print_json(spec_model_to_json(m, meta));
    struct model_arch b;
    struct spec_model_meta bm;
    char err[SPEC_ERR_MAX];
    if (!spec_parse_model_meta(text, strlen(text), "fuzz.json", &b, &bm, err, sizeof err))
        abort();
    free(text);
    struct param_counts pa, pb;
    model_params(m, &pa);
    model_params(&b, &pb);
    if (strcmp(b.name, m->name) != 0 || pa.total != pb.total || pa.active != pb.active ||
        b.head_dim != m->head_dim || b.sliding_window != m->sliding_window ||
        b.kv_lora_rank != m->kv_lora_rank || b.mlp != m->mlp || b.norm != m->norm ||
        b.positional != m->positional || bm.tokens != meta->tokens ||
        strcmp(bm.source, meta->source) != 0)
        abort();
}

/* Aborts (a finding) when an error message is empty or spans lines. */
static void check_message(const char *err)
{
    if (err[0] == '\0' || strchr(err, '\n') != NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_keys_work(data, size);
    char err[SPEC_ERR_MAX];
    struct gpu_spec g;
    struct model_arch m;
    struct spec_model_meta meta;
    const char *text = (const char *)data;

    if (spec_parse_gpu(text, size, "fuzz.json", &g, err, sizeof err)) {
        /* An accepted GPU has a rate to run at and figures that divide cleanly. */
        if (g.bandwidth <= 0 || g.memory_bytes <= 0 || g.name[0] == '\0')
            abort();
        for (int p = 0; p < PEAK_COUNT; p++)
            if (g.peak_valid[p] && !(g.peak_flops[p] > 0))
                abort();
        gpu_round_trip(&g);
    } else {
        check_message(err);
    }

    if (spec_parse_model_meta(text, size, "fuzz.json", &m, &meta, err, sizeof err)) {
        /* An accepted model is one the core can count without overflow. */
        struct param_counts pc;
        model_params(&m, &pc);
        if (pc.total <= 0 || pc.active <= 0 || pc.active > pc.total)
            abort();
        /* heads divide d_model unless head_dim or MLA gives the head width itself. */
        if ((m.head_dim == 0 && m.kv_lora_rank == 0 && m.d_model % m.heads != 0) ||
            m.heads % m.kv_heads != 0)
            abort();
        model_round_trip(&m, &meta);
    } else {
        check_message(err);
    }
    return 0;
}
