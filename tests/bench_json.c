/* bench_json.c - the JSON readers on the hostile-input audit's files (issue 21), made here:
 * a 1 MB config.json (a real config plus 130,942 three-letter keys), a 1 MB scenario of
 * 116,442 ignored "_" keys, and a points document of 3,000,000 keys (38 MB). Each was
 * quadratic in its keys (56 s, 37.8 s, and killed at 60 s); prints `name value unit` lines:
 * config_ms, scenario_ms, points_ms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "inputs.h"
#include "points.h"
#include "scenario.h"
#include "scenario_file.h"
#include "spec.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct text {
    char *s;
    size_t n, cap;
};

static void put(struct text *t, const char *s)
{
    size_t l = strlen(s);
    if (t->n + l + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1 << 16;
        while (cap < t->n + l + 1)
            cap *= 2;
        char *p = realloc(t->s, cap);
        if (p == NULL) {
            fprintf(stderr, "bench_json: out of memory\n");
            exit(1);
        }
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->n, s, l + 1);
    t->n += l;
}

/* n keys of three characters (and a prefix), none repeated: ,"PRE abc":0 */
static void keys(struct text *t, const char *pre, size_t n)
{
    static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    char k[64];
    for (size_t i = 0; i < n; i++) {
        if (n > 238328)
            snprintf(k, sizeof k, ",\"%s%zu\":0", pre, i);
        else
            snprintf(k, sizeof k, ",\"%s%c%c%c\":0", pre, al[i / 3844 % 62], al[i / 62 % 62],
                     al[i % 62]);
        put(t, k);
    }
}

int main(void)
{
    char err[SPEC_ERR_MAX];
    struct text t = {0};
    /* Llama-3.2-1B's config.json, with its keys in capitals so none of the 130,942 lower- and
     * mixed-case three-letter keys repeats one. */
    put(&t, "{\"MODEL_TYPE\":0,\"model_type\":\"llama\",\"architectures\":[\"LlamaForCausalLM\"],"
            "\"hidden_size\":2048,\"intermediate_size\":8192,\"num_attention_heads\":32,"
            "\"num_hidden_layers\":16,\"num_key_value_heads\":8,\"vocab_size\":128256,"
            "\"max_position_embeddings\":131072,\"tie_word_embeddings\":true,"
            "\"torch_dtype\":\"bfloat16\",\"head_dim\":64");
    keys(&t, "", 130942);
    put(&t, "}");
    struct model_arch m;
    double t0 = now_s();
    bool ok = spec_parse_model_meta(t.s, t.n, "config.json", &m, NULL, err, sizeof err);
    double config_s = now_s() - t0;
    if (!ok) {
        fprintf(stderr, "bench_json: the config: %s\n", err);
        return 1;
    }
    printf("config_ms %.1f ms (%zu bytes)\n", config_s * 1e3, t.n);

    t.n = 0;
    put(&t, "{\"model\":\"llama2-7b\"");
    keys(&t, "_", 116442);
    put(&t, "}");
    struct scenario s;
    inputs_defaults(&s);
    t0 = now_s();
    ok = scenario_parse(t.s, t.n, "scenario.json", &s, err, sizeof err);
    double scenario_s = now_s() - t0;
    if (!ok) {
        fprintf(stderr, "bench_json: the scenario: %s\n", err);
        return 1;
    }
    printf("scenario_ms %.1f ms (%zu bytes)\n", scenario_s * 1e3, t.n);

    t.n = 0;
    put(&t, "{\"device\":{\"kind\":\"cpu\",\"name\":\"bench\"},\"time\":\"2026-12-02T00:00:00Z\","
            "\"points\":[]");
    keys(&t, "k", 3000000);
    put(&t, "}");
    struct points_doc d;
    points_init(&d);
    t0 = now_s();
    ok = points_parse(t.s, t.n, "points.json", &d, err, sizeof err);
    double points_s = now_s() - t0;
    points_free(&d);
    free(t.s);
    if (!ok) {
        fprintf(stderr, "bench_json: the points: %s\n", err);
        return 1;
    }
    printf("points_ms %.1f ms (%zu bytes)\n", points_s * 1e3, t.n);
    return 0;
}
