/* test_spec.c - the spec files and their loader: every GPU and model file loads with the
 * figures of reference.md, exact parameter counts from the model files, and one clear
 * one-line message for each kind of bad file. Specs are found through $ROOFTOP_SPECS
 * (set by `make test`) or ./specs from the repository root. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "dtype.h"
#include "gpu.h"
#include "inputs.h"
#include "model.h"
#include "scenario.h"
#include "scenario_file.h"
#include "spec.h"

/* The spec directory and the repository root it sits in. */
static char specs_dir[2048];
static char repo_root[2048];

static void paths_init(void)
{
    const char *env = getenv("ROOFTOP_SPECS");
    if (env && env[0]) {
        snprintf(specs_dir, sizeof specs_dir, "%s", env);
        snprintf(repo_root, sizeof repo_root, "%s/..", env);
    } else {
        snprintf(specs_dir, sizeof specs_dir, "specs");
        snprintf(repo_root, sizeof repo_root, ".");
    }
}

static void spec_path(char *buf, size_t n, const char *kind, const char *id)
{
    int w = snprintf(buf, n, "%s/%s/%s.json", specs_dir, kind, id);
    ck_assert(w > 0 && (size_t)w < n);
}

static void bad_path(char *buf, size_t n, const char *file)
{
    int w = snprintf(buf, n, "%s/tests/data/bad/%s", repo_root, file);
    ck_assert(w > 0 && (size_t)w < n);
}

/* reference.md section 3: bf16 dense peak (0 = none), bandwidth, memory, SMs. */
struct gpu_row {
    const char *id;
    double bf16, fp16, bandwidth, memory;
    int64_t sms;
};

static const struct gpu_row gpu_table[] = {
    {"h100-sxm", 989.4e12, 989.4e12, 3.35e12, 80e9, 132},
    {"h100-pcie", 756e12, 756e12, 2.0e12, 80e9, 114},
    {"h100-nvl", 835.5e12, 835.5e12, 3.9e12, 94e9, 0},
    {"h200", 989.4e12, 989.4e12, 4.8e12, 141e9, 132},
    {"a100-40gb", 312e12, 312e12, 1.555e12, 40e9, 108},
    {"a100-80gb", 312e12, 312e12, 2.039e12, 80e9, 108},
    {"b200", 2250e12, 2250e12, 8e12, 180e9, 148},
    {"l40s", 362e12, 362e12, 0.864e12, 48e9, 142},
    {"rtx-4090", 165.2e12, 165.2e12, 1.008e12, 24e9, 128},
    {"v100", 0, 125e12, 0.9e12, 32e9, 80},
    {"mi300x", 1307.4e12, 1307.4e12, 5.3e12, 192e9, 304},
    {"mi325x", 1307.4e12, 1307.4e12, 6e12, 256e9, 304},
};
#define GPU_ROWS (sizeof gpu_table / sizeof gpu_table[0])

static const char *const model_ids[] = {
    "gpt2-small",   "gpt2-medium", "gpt2-large",    "gpt2-xl",      "gpt3-small",
    "gpt3-medium",  "gpt3-large",  "gpt3-xl",       "gpt3-2.7b",    "gpt3-6.7b",
    "gpt3-13b",     "gpt3-175b",   "llama2-7b",     "llama2-13b",   "llama2-70b",
    "llama3.1-8b",  "llama3.1-70b", "llama3.1-405b", "mistral-7b",  "mixtral-8x7b",
    "qwen2.5-7b",   "qwen2.5-72b", "chinchilla",
};
#define MODEL_COUNT (sizeof model_ids / sizeof model_ids[0])

static struct gpu_spec load_gpu(const char *id)
{
    char path[4096], err[SPEC_ERR_MAX];
    struct gpu_spec g;
    spec_path(path, sizeof path, "gpus", id);
    ck_assert_msg(spec_load_gpu_file(path, &g, err, sizeof err), "%s: %s", id, err);
    return g;
}

static struct model_arch load_model(const char *id)
{
    char path[4096], err[SPEC_ERR_MAX];
    struct model_arch m;
    spec_path(path, sizeof path, "models", id);
    ck_assert_msg(spec_load_model_file(path, &m, err, sizeof err), "%s: %s", id, err);
    return m;
}

/* ---- GPUs ---------------------------------------------------------------------------- */

START_TEST(gpu_files_match_table)
{
    const struct gpu_row *row = &gpu_table[_i];
    struct gpu_spec g = load_gpu(row->id);
    ck_assert_str_eq(g.id, row->id);
    ck_assert(g.name[0] != '\0');
    ck_assert(g.source[0] != '\0');
    /* The files hold the table's figures as written, so they compare exactly. */
    ck_assert(g.bandwidth == row->bandwidth);
    ck_assert(g.memory_bytes == row->memory);
    ck_assert_int_eq(g.sms, row->sms);
    if (row->bf16 > 0) {
        ck_assert(g.peak_valid[PEAK_BF16]);
        ck_assert(g.peak_flops[PEAK_BF16] == row->bf16);
    } else {
        ck_assert(!g.peak_valid[PEAK_BF16]);
    }
    ck_assert(g.peak_valid[PEAK_FP16]);
    ck_assert(g.peak_flops[PEAK_FP16] == row->fp16);
}
END_TEST

START_TEST(gpu_ridges)
{
    /* reference.md: bf16 ridge points H100 SXM 295, H200 206, A100 80GB 153 (within 0.5%). */
    struct gpu_spec g = load_gpu("h100-sxm");
    ck_assert_rel(gpu_ridge(&g, DTYPE_BF16), 295, 0.005);
    g = load_gpu("h200");
    ck_assert_rel(gpu_ridge(&g, DTYPE_BF16), 206, 0.005);
    g = load_gpu("a100-80gb");
    ck_assert_rel(gpu_ridge(&g, DTYPE_BF16), 153, 0.005);
}
END_TEST

START_TEST(builtin_h100_is_the_file)
{
    /* The default scenario's built-in H100 must be the preset, field for field, so a saved
     * default scenario names "h100-sxm" instead of inlining a near-copy. */
    struct gpu_spec file = load_gpu("h100-sxm"), builtin;
    gpu_builtin_h100(&builtin);
    ck_assert_str_eq(builtin.id, file.id);
    ck_assert_str_eq(builtin.name, file.name);
    ck_assert_str_eq(builtin.source, file.source);
    ck_assert(builtin.memory_bytes == file.memory_bytes);
    ck_assert(builtin.bandwidth == file.bandwidth);
    for (int p = 0; p < PEAK_COUNT; p++) {
        ck_assert_int_eq(builtin.peak_valid[p], file.peak_valid[p]);
        ck_assert(builtin.peak_flops[p] == file.peak_flops[p]);
    }
    ck_assert_int_eq(builtin.sms, file.sms);
    ck_assert(builtin.l2_bytes == file.l2_bytes);
    ck_assert(builtin.interconnect_bandwidth == file.interconnect_bandwidth);
}
END_TEST

START_TEST(gpu_missing_formats)
{
    struct gpu_spec g = load_gpu("v100");
    ck_assert(!g.peak_valid[PEAK_TF32]);
    ck_assert(!g.peak_valid[PEAK_FP8]);
    ck_assert(g.peak_flops[PEAK_BF16] == 0);
    g = load_gpu("a100-80gb");
    ck_assert(!g.peak_valid[PEAK_FP8]);
    ck_assert(!g.peak_valid[PEAK_FP4]);
    ck_assert(g.peak_flops[PEAK_FP64] == 9.7e12);
    g = load_gpu("b200");
    ck_assert(g.peak_valid[PEAK_FP4]);
    ck_assert(g.peak_flops[PEAK_FP4] == 9000e12);
    ck_assert(g.interconnect_bandwidth == 1.8e12);
    g = load_gpu("h100-sxm");
    ck_assert(g.peak_flops[PEAK_FP8] == 1978.9e12);
    ck_assert(g.peak_flops[PEAK_TF32] == 494.7e12);
    ck_assert(g.interconnect_bandwidth == 900e9);
    ck_assert(!g.peak_valid[PEAK_FP4]);
}
END_TEST

START_TEST(gpu_find_by_name_and_path)
{
    char err[SPEC_ERR_MAX], path[4096];
    struct gpu_spec g;
    ck_assert_int_eq(setenv("ROOFTOP_SPECS", specs_dir, 1), 0);
    ck_assert_msg(spec_find_gpu("h100-sxm", &g, err, sizeof err), "%s", err);
    ck_assert_str_eq(g.id, "h100-sxm");
    ck_assert(g.peak_flops[PEAK_BF16] == 989.4e12);
    /* Preset names are lowercase; an uppercase name finds the same file. */
    ck_assert_msg(spec_find_gpu("H200", &g, err, sizeof err), "%s", err);
    ck_assert_str_eq(g.id, "h200");
    spec_path(path, sizeof path, "gpus", "a100-80gb");
    ck_assert_msg(spec_find_gpu(path, &g, err, sizeof err), "%s", err);
    ck_assert_str_eq(g.id, "a100-80gb");

    ck_assert(!spec_find_gpu("h100-sxn", &g, err, sizeof err));
    ck_assert_msg(strstr(err, "h100-sxn") && strstr(err, "no such GPU") && strstr(err, "h100-sxm"),
                  "%s", err);
    ck_assert(!spec_find_gpu("", &g, err, sizeof err));
    ck_assert(err[0] != '\0');
    ck_assert(!spec_find_gpu("/nonexistent/x.json", &g, err, sizeof err));
    ck_assert_msg(strstr(err, "/nonexistent/x.json: cannot read"), "%s", err);
}
END_TEST

START_TEST(list_is_sorted_unique_and_complete)
{
    ck_assert_int_eq(setenv("ROOFTOP_SPECS", specs_dir, 1), 0);
    struct spec_list l;
    ck_assert(spec_list_gpus(&l));
    for (size_t i = 0; i < GPU_ROWS; i++) {
        bool found = false;
        for (size_t j = 0; j < l.count; j++)
            found = found || strcmp(l.ids[j], gpu_table[i].id) == 0;
        ck_assert_msg(found, "%s not listed", gpu_table[i].id);
    }
    for (size_t j = 1; j < l.count; j++)
        ck_assert_msg(strcmp(l.ids[j - 1], l.ids[j]) < 0, "%s before %s", l.ids[j - 1], l.ids[j]);
    spec_list_free(&l);
    ck_assert_ptr_null(l.ids);

    ck_assert(spec_list_models(&l));
    for (size_t i = 0; i < MODEL_COUNT; i++) {
        bool found = false;
        for (size_t j = 0; j < l.count; j++)
            found = found || strcmp(l.ids[j], model_ids[i]) == 0;
        ck_assert_msg(found, "%s not listed", model_ids[i]);
    }
    for (size_t j = 1; j < l.count; j++)
        ck_assert(strcmp(l.ids[j - 1], l.ids[j]) < 0);
    spec_list_free(&l);
}
END_TEST

/* ---- models -------------------------------------------------------------------------- */

START_TEST(model_files_load)
{
    struct model_arch m = load_model(model_ids[_i]);
    ck_assert_str_eq(m.id, model_ids[_i]);
    ck_assert(m.name[0] != '\0');
    struct param_counts pc;
    model_params(&m, &pc);
    ck_assert(pc.total > 0);
    ck_assert(pc.active > 0 && pc.active <= pc.total);
}
END_TEST

static int64_t params_of(const char *id)
{
    struct model_arch m = load_model(id);
    struct param_counts pc;
    model_params(&m, &pc);
    return pc.total;
}

START_TEST(model_exact_params)
{
    /* reference.md section 4: exact counts from the released configs. */
    ck_assert_int_eq(params_of("gpt2-small"), 124439808LL);
    ck_assert_int_eq(params_of("llama2-7b"), 6738415616LL);
    ck_assert_int_eq(params_of("llama3.1-8b"), 8030261248LL);
}
END_TEST

START_TEST(model_fields_read)
{
    struct model_arch m = load_model("gpt2-small");
    ck_assert(m.tied_embeddings && m.bias && !m.qkv_bias);
    ck_assert_int_eq(m.positional, POS_LEARNED);
    ck_assert_int_eq(m.mlp, MLP_GELU);
    ck_assert_int_eq(m.norm, NORM_LAYERNORM);
    ck_assert_int_eq(m.context, 1024);

    m = load_model("llama3.1-8b");
    ck_assert_int_eq(m.kv_heads, 8);
    ck_assert_int_eq(m.vocab, 128256);
    ck_assert(!m.tied_embeddings && !m.bias && !m.qkv_bias);
    ck_assert_int_eq(m.positional, POS_ROPE);
    ck_assert_int_eq(m.mlp, MLP_SWIGLU);
    ck_assert_int_eq(m.norm, NORM_RMSNORM);

    m = load_model("qwen2.5-7b");
    ck_assert(m.qkv_bias && !m.bias && !m.tied_embeddings);
    ck_assert_int_eq(m.kv_heads, 4);

    m = load_model("mixtral-8x7b");
    ck_assert_int_eq(m.experts, 8);
    ck_assert_int_eq(m.experts_active, 2);
    ck_assert_int_eq(m.moe_ffn, 14336);

    char path[4096], err[SPEC_ERR_MAX];
    struct spec_model_meta meta;
    ck_assert_int_eq(setenv("ROOFTOP_SPECS", specs_dir, 1), 0);
    ck_assert_msg(spec_find_model_meta("gpt3-175b", &m, &meta, err, sizeof err), "%s", err);
    ck_assert(meta.tokens == 300e9);
    ck_assert(meta.source[0] != '\0');
    spec_path(path, sizeof path, "models", "llama3.1-405b");
    ck_assert_msg(spec_find_model_meta(path, &m, &meta, err, sizeof err), "%s", err);
    ck_assert(meta.tokens == 15.6e12);
    ck_assert_msg(spec_find_model_meta("mistral-7b", &m, &meta, err, sizeof err), "%s", err);
    ck_assert(meta.tokens == 0);
}
END_TEST

START_TEST(model_defaults)
{
    /* Only the required fields: kv_heads = heads, booleans false, rope, dense. */
    const char *json = "{\"name\":\"min\",\"layers\":2,\"d_model\":64,\"heads\":4,\"ffn\":256,"
                       "\"vocab\":100,\"context\":128,\"mlp\":\"swiglu\",\"norm\":\"rmsnorm\"}";
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_parse_model(json, strlen(json), "dir/min.json", &m, err, sizeof err), "%s",
                  err);
    ck_assert_str_eq(m.id, "min");
    ck_assert_str_eq(m.name, "min");
    ck_assert_int_eq(m.kv_heads, 4);
    ck_assert(!m.tied_embeddings && !m.bias && !m.qkv_bias);
    ck_assert_int_eq(m.positional, POS_ROPE);
    ck_assert_int_eq(m.experts, 0);
    ck_assert_int_eq(m.experts_active, 0);
    ck_assert_int_eq(m.moe_ffn, 0);
    ck_assert_int_eq(m.dense_layers, 0);
    ck_assert_int_eq(m.exact_params, 0);
    /* The id is the file stem, whole up to the 63 bytes an id holds. */
    const char *stem = "a-preset-name-sixty-three-bytes-long-which-is-the-most-it-holds";
    ck_assert_uint_eq(strlen(stem), MODEL_NAME_MAX - 1);
    char origin[128];
    snprintf(origin, sizeof origin, "/some/dir/%s.json", stem);
    ck_assert_msg(spec_parse_model(json, strlen(json), origin, &m, err, sizeof err), "%s", err);
    ck_assert_str_eq(m.id, stem);
}
END_TEST

/* ---- bad files ----------------------------------------------------------------------- */

/* The message: one line that starts with the file's path and names what it must name. */
static void assert_message(const char *err, const char *path, const char *must)
{
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':',
                  "message does not start with the file: %s", err);
    ck_assert_msg(strchr(err, '\n') == NULL, "message is not one line: %s", err);
    ck_assert_msg(strstr(err, must) != NULL, "message lacks \"%s\": %s", must, err);
}

struct bad_case {
    const char *file;
    bool gpu;
    const char *must1, *must2; /* the field (when there is one) and what is wrong */
};

static const struct bad_case bad_cases[] = {
    {"not-json.json", false, "not JSON", "line 3"},
    {"empty.json", false, "empty", NULL},
    {"missing-field.json", false, ": layers: ", "missing"},
    {"negative.json", true, ": bandwidth: ", "must be positive, got -1"},
    {"string-for-number.json", false, ": layers: ", "must be a whole number, got a string"},
    {"zero-layers.json", false, ": layers: ", "got 0"},
    {"heads-not-dividing.json", false, ": heads: ", "7 does not divide d_model 768"},
    {"kv-heads-not-dividing.json", false, ": kv_heads: ", "5 does not divide heads 12"},
    {"unknown-field.json", false, ": layer: ", "unknown field (did you mean \"layers\"?)"},
    {"bad-enum.json", false, ": mlp: ", "\"swish\""},
};
#define BAD_CASES (sizeof bad_cases / sizeof bad_cases[0])

START_TEST(bad_file_refused)
{
    const struct bad_case *c = &bad_cases[_i];
    char path[4096], err[SPEC_ERR_MAX];
    bad_path(path, sizeof path, c->file);
    ck_assert_msg(access(path, R_OK) == 0, "test data missing: %s", path);
    bool ok;
    if (c->gpu) {
        struct gpu_spec g;
        ok = spec_load_gpu_file(path, &g, err, sizeof err);
    } else {
        struct model_arch m;
        ok = spec_load_model_file(path, &m, err, sizeof err);
    }
    ck_assert_msg(!ok, "%s was accepted", c->file);
    assert_message(err, path, c->must1);
    if (c->must2)
        assert_message(err, path, c->must2);
}
END_TEST

START_TEST(huge_file_refused)
{
    char path[] = "/tmp/rooftop-test-spec-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    /* Valid JSON padded past 1 MiB: refused for its size alone. */
    fputs("{\"name\": \"big\"", f);
    for (int i = 0; i < 1100 * 1024; i++)
        fputc(' ', f);
    fputs("}\n", f);
    ck_assert_int_eq(fclose(f), 0);
    char err[SPEC_ERR_MAX];
    struct gpu_spec g;
    bool ok = spec_load_gpu_file(path, &g, err, sizeof err);
    unlink(path);
    ck_assert(!ok);
    assert_message(err, path, "too large");
}
END_TEST

/* Parses text as a model (or GPU) and checks the refusal names field and problem. */
static void refuse_model(const char *json, const char *must1, const char *must2)
{
    char err[SPEC_ERR_MAX];
    struct model_arch m;
    ck_assert_msg(!spec_parse_model(json, strlen(json), "t.json", &m, err, sizeof err),
                  "accepted: %s", json);
    assert_message(err, "t.json", must1);
    if (must2)
        assert_message(err, "t.json", must2);
}

static void refuse_gpu(const char *json, const char *must1, const char *must2)
{
    char err[SPEC_ERR_MAX];
    struct gpu_spec g;
    ck_assert_msg(!spec_parse_gpu(json, strlen(json), "g.json", &g, err, sizeof err),
                  "accepted: %s", json);
    assert_message(err, "g.json", must1);
    if (must2)
        assert_message(err, "g.json", must2);
}

#define MODEL_HEAD "{\"name\":\"t\",\"d_model\":768,\"heads\":12,\"ffn\":3072,\"vocab\":50257," \
                   "\"context\":1024,\"mlp\":\"gelu\",\"norm\":\"layernorm\","

START_TEST(bad_model_texts)
{
    refuse_model(MODEL_HEAD "\"layers\":12.5}", ": layers: ", "whole number");
    refuse_model(MODEL_HEAD "\"layers\":2000000}", ": layers: ", "too large");
    refuse_model(MODEL_HEAD "\"layers\":1e999}", ": layers: ", "finite");
    refuse_model(MODEL_HEAD "\"layers\":-3}", ": layers: ", "must be positive, got -3");
    refuse_model(MODEL_HEAD "\"layers\":null}", ": layers: ", "got null");
    refuse_model(MODEL_HEAD "\"layers\":12,\"layers\":13}", ": layers: ", "twice");
    refuse_model(MODEL_HEAD "\"layers\":12,\"bias\":1}", ": bias: ", "true or false");
    refuse_model(MODEL_HEAD "\"layers\":12,\"positional\":\"alibi\"}", ": positional: ", "\"alibi\"");
    refuse_model(MODEL_HEAD "\"layers\":12,\"kv_heads\":24}", ": kv_heads: ", "more than heads");
    refuse_model(MODEL_HEAD "\"layers\":12,\"experts\":8}", ": experts_active: ", "at least 1");
    refuse_model(MODEL_HEAD "\"layers\":12,\"experts\":8,\"experts_active\":9}", ": experts_active: ",
                 "more than experts");
    refuse_model(MODEL_HEAD "\"layers\":12,\"shared_experts\":1}", ": shared_experts: ", NULL);
    refuse_model(MODEL_HEAD "\"layers\":12,\"dense_layers\":13}", ": dense_layers: ", NULL);
    refuse_model(MODEL_HEAD "\"layers\":12,\"tokens\":-1}", ": tokens: ", "positive");
    refuse_model(MODEL_HEAD "\"layers\":12,\"name\":\"x\"}", ": name: ", "twice");
    refuse_model(MODEL_HEAD "\"layers\":12} trailing", "not JSON", NULL);
    refuse_model("[1, 2]", "must be a JSON object", "an array");
    refuse_model("   \n\t ", "empty", NULL);
    /* A shape whose products would overflow the core's arithmetic. */
    refuse_model("{\"name\":\"huge\",\"layers\":100000,\"d_model\":1000000,\"heads\":1,"
                 "\"ffn\":10000000,\"vocab\":100,\"context\":100,\"mlp\":\"gelu\","
                 "\"norm\":\"layernorm\"}",
                 "parameters", NULL);
    /* A name that would garble the terminal. */
    refuse_model("{\"name\":\"a\\u001b[2Jb\",\"layers\":2,\"d_model\":64,\"heads\":4,"
                 "\"ffn\":256,\"vocab\":100,\"context\":128,\"mlp\":\"gelu\",\"norm\":\"rmsnorm\"}",
                 ": name: ", "control");
}
END_TEST

#define GPU_HEAD "{\"name\":\"g\",\"memory_bytes\":80e9,\"bandwidth\":3.35e12,"

START_TEST(bad_gpu_texts)
{
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf16\":0}}", ": peak_flops.bf16: ", "null");
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf16\":null,\"fp8\":null}}", ": peak_flops: ",
               "at least one");
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf61\":1e15}}", ": peak_flops.bf61: ", "bf16");
    refuse_gpu(GPU_HEAD "\"peak_flops\":989e12}", ": peak_flops: ", "got a number");
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf16\":\"989e12\"}}", ": peak_flops.bf16: ",
               "got a string");
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf16\":1e15},\"sms\":-1}", ": sms: ", "negative");
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf16\":1e15},\"sms\":13.5}", ": sms: ", "whole");
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf16\":1e15},\"l2_bytes\":-5}", ": l2_bytes: ", NULL);
    refuse_gpu(GPU_HEAD "\"peak_flops\":{\"bf16\":1e15},\"memory_bytes\":1}", ": memory_bytes: ",
               "twice");
    refuse_gpu("{\"name\":\"g\",\"memory_bytes\":80e9,\"peak_flops\":{\"bf16\":1e15}}",
               ": bandwidth: ", "missing");
    refuse_gpu("{\"name\":\"g\",\"memory_bytes\":0,\"bandwidth\":1e12,\"peak_flops\":{\"bf16\":1e15}}",
               ": memory_bytes: ", "positive");
    refuse_gpu("{\"name\":\"\",\"memory_bytes\":1e9,\"bandwidth\":1e12,\"peak_flops\":{\"bf16\":1e15}}",
               ": name: ", "empty");
}
END_TEST

START_TEST(odd_but_valid_texts)
{
    char err[SPEC_ERR_MAX];
    struct gpu_spec g;
    /* A byte-order mark, nulls for unknown figures, a whole number written as 132.0. */
    const char *json = "\xEF\xBB\xBF" GPU_HEAD "\"peak_flops\":{\"fp16\":1e15,\"fp4\":null},"
                       "\"sms\":132.0,\"l2_bytes\":null,\"interconnect_bandwidth\":0}";
    ck_assert_msg(spec_parse_gpu(json, strlen(json), "g.json", &g, err, sizeof err), "%s", err);
    ck_assert_int_eq(g.sms, 132);
    ck_assert(g.peak_valid[PEAK_FP16] && !g.peak_valid[PEAK_FP4] && !g.peak_valid[PEAK_BF16]);
    ck_assert(g.l2_bytes == 0 && g.interconnect_bandwidth == 0);
    ck_assert_str_eq(g.id, "g");
    /* A dense model may call its one MLP "active", as model_validate allows. */
    struct model_arch m;
    const char *dense = MODEL_HEAD "\"layers\":12,\"experts\":0,\"experts_active\":1}";
    ck_assert_msg(spec_parse_model(dense, strlen(dense), "t.json", &m, err, sizeof err), "%s", err);
    ck_assert_int_eq(m.experts_active, 1);
    /* No error buffer at all must not crash. */
    ck_assert(!spec_parse_gpu("{", 1, "g.json", &g, NULL, 0));
    ck_assert(!spec_parse_model(NULL, 0, NULL, NULL, NULL, 0));
    /* Text that is cut short (length below strlen) is read only up to the length. */
    ck_assert(!spec_parse_gpu(json, 20, "g.json", &g, err, sizeof err));
    assert_message(err, "g.json", "not JSON");
}
END_TEST

/* ---- writing: the schema round trip --------------------------------------------------- */

/* The writer's object as text (freed here). */
static char *json_text(cJSON *o)
{
    ck_assert_ptr_nonnull(o);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* Every shipped GPU, written by the one writer and read back, is the same GPU. */
START_TEST(gpu_presets_round_trip)
{
    struct spec_list l;
    ck_assert(spec_list_gpus(&l));
    ck_assert_uint_ge(l.count, 12);
    for (size_t i = 0; i < l.count; i++) {
        struct gpu_spec g, back;
        char err[SPEC_ERR_MAX];
        ck_assert_msg(spec_find_gpu(l.ids[i], &g, err, sizeof err), "%s", err);
        char *text = json_text(spec_gpu_to_json(&g));
        ck_assert_msg(spec_parse_gpu(text, strlen(text), l.ids[i], &back, err, sizeof err), "%s\n%s",
                      err, text);
        free(text);
        /* Field by field: the struct has padding, so no memcmp. */
        ck_assert_str_eq(back.name, g.name);
        ck_assert_str_eq(back.source, g.source);
        ck_assert(back.memory_bytes == g.memory_bytes && back.bandwidth == g.bandwidth);
        for (int k = 0; k < PEAK_COUNT; k++) {
            ck_assert_int_eq(back.peak_valid[k], g.peak_valid[k]);
            ck_assert(back.peak_flops[k] == g.peak_flops[k]);
        }
        ck_assert(back.sms == g.sms && back.l2_bytes == g.l2_bytes);
        ck_assert(back.interconnect_bandwidth == g.interconnect_bandwidth);
        ck_assert(back.node.domain == g.node.domain);
        ck_assert(back.node.nvlink_bandwidth == g.node.nvlink_bandwidth);
        ck_assert(back.node.network_bandwidth == g.node.network_bandwidth);
        ck_assert(back.node.nvlink_latency == g.node.nvlink_latency);
        ck_assert(back.node.network_latency == g.node.network_latency);
        ck_assert(back.gemm_efficiency == g.gemm_efficiency);
        ck_assert(back.memory_efficiency == g.memory_efficiency);
    }
    spec_list_free(&l);
}
END_TEST

/* Every shipped model, with its tokens and source, likewise. */
START_TEST(model_presets_round_trip)
{
    struct spec_list l;
    ck_assert(spec_list_models(&l));
    ck_assert_uint_ge(l.count, 20);
    for (size_t i = 0; i < l.count; i++) {
        struct model_arch m, back;
        struct spec_model_meta meta, mback;
        char err[SPEC_ERR_MAX];
        ck_assert_msg(spec_find_model_meta(l.ids[i], &m, &meta, err, sizeof err), "%s", err);
        char *text = json_text(spec_model_to_json(&m, &meta));
        ck_assert_msg(spec_parse_model_meta(text, strlen(text), l.ids[i], &back, &mback, err,
                                            sizeof err),
                      "%s\n%s", err, text);
        free(text);
        ck_assert_str_eq(back.id, m.id);
        ck_assert_str_eq(back.name, m.name);
        const int64_t *a[] = {&m.layers, &m.d_model, &m.heads, &m.kv_heads, &m.ffn, &m.vocab,
                              &m.context, &m.experts, &m.experts_active, &m.shared_experts,
                              &m.moe_ffn, &m.dense_layers, &m.head_dim, &m.sliding_window,
                              &m.sliding_window_pattern, &m.kv_lora_rank, &m.q_lora_rank,
                              &m.qk_nope_head_dim, &m.qk_rope_head_dim, &m.v_head_dim,
                              &m.shared_ffn, &m.mtp_layers};
        const int64_t *b[] = {&back.layers, &back.d_model, &back.heads, &back.kv_heads,
                              &back.ffn, &back.vocab, &back.context, &back.experts,
                              &back.experts_active, &back.shared_experts, &back.moe_ffn,
                              &back.dense_layers, &back.head_dim, &back.sliding_window,
                              &back.sliding_window_pattern, &back.kv_lora_rank,
                              &back.q_lora_rank, &back.qk_nope_head_dim,
                              &back.qk_rope_head_dim, &back.v_head_dim, &back.shared_ffn,
                              &back.mtp_layers};
        for (size_t k = 0; k < sizeof a / sizeof a[0]; k++)
            ck_assert_msg(*a[k] == *b[k], "%s: field %zu: %lld vs %lld", l.ids[i], k,
                          (long long)*a[k], (long long)*b[k]);
        ck_assert(back.mlp == m.mlp && back.norm == m.norm && back.positional == m.positional);
        ck_assert(back.tied_embeddings == m.tied_embeddings && back.bias == m.bias &&
                  back.qkv_bias == m.qkv_bias);
        ck_assert(back.norm_place == m.norm_place && back.qk_norm == m.qk_norm &&
                  back.block == m.block && back.attn_sinks == m.attn_sinks &&
                  back.lm_head_bias == m.lm_head_bias && back.shared_gate == m.shared_gate &&
                  back.router_bias == m.router_bias);
        ck_assert(mback.tokens == meta.tokens);
        ck_assert_str_eq(mback.source, meta.source);
    }
    spec_list_free(&l);
}
END_TEST

/* The kinds' names have one table: parse and name agree, in enum order. */
START_TEST(kind_names_one_table)
{
    enum mlp_kind mk;
    enum norm_kind nk;
    enum pos_kind pk;
    ck_assert(model_mlp_parse("swiglu", &mk) && mk == MLP_SWIGLU);
    ck_assert(model_mlp_parse("gelu", &mk) && mk == MLP_GELU);
    ck_assert(!model_mlp_parse("swish", &mk) && !model_mlp_parse("SwiGLU", &mk));
    ck_assert(model_norm_parse("rmsnorm", &nk) && nk == NORM_RMSNORM);
    ck_assert(model_pos_parse("learned", &pk) && pk == POS_LEARNED);
    ck_assert_str_eq(model_mlp_name(MLP_SWIGLU), "swiglu");
    ck_assert_str_eq(model_norm_name(NORM_LAYERNORM), "layernorm");
    ck_assert_str_eq(model_pos_name(POS_ROPE), "rope");
    ck_assert_str_eq(model_mlp_name((enum mlp_kind)7), "?");
    char list[64];
    model_names_join(model_norm_names, MODEL_NORM_KINDS, list, sizeof list);
    ck_assert_str_eq(list, "layernorm, rmsnorm, layernorm-nobias, layernorm-nonparametric");
    /* The scenario's option takes the same words and names them when refusing. */
    struct scenario s;
    inputs_defaults(&s);
    char err[256];
    ck_assert_int_eq(scenario_set_option(&s, "positional", "learned", err, sizeof err), 1);
    ck_assert(s.model.positional == POS_LEARNED);
    ck_assert_int_eq(scenario_set_option(&s, "mlp", "swish", err, sizeof err), -1);
    ck_assert_str_eq(err, "'swish' is not one of gelu, swiglu, relu, relu2 or geglu");
}
END_TEST

/* A scenario saved the GPU without its node and efficiency and the model without head_dim,
 * sliding window or MLA widths: loaded back, they were gone. */
START_TEST(scenario_keeps_whole_gpu_and_model)
{
    char dir[256], path[320];
    check_tmpdir(dir, sizeof dir, "schema");
    snprintf(path, sizeof path, "%s/s.json", dir);
    struct scenario s, back;
    inputs_defaults(&s);
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_find_gpu("h200", &s.gpu, err, sizeof err), "%s", err);
    ck_assert(s.gpu.node.domain > 0 && s.gpu.gemm_efficiency > 0);
    snprintf(s.gpu.id, sizeof s.gpu.id, "custom"); /* not the preset: written out whole */
    ck_assert_msg(spec_find_model("deepseek-v2-lite", &s.model, err, sizeof err), "%s", err);
    ck_assert(s.model.kv_lora_rank > 0);
    snprintf(s.model.id, sizeof s.model.id, "custom");
    s.gpus = 8;
    s.batch = 64;
    s.micro_batch = 1;
    ck_assert_msg(scenario_save(path, &s, err, sizeof err), "%s", err);
    inputs_defaults(&back);
    ck_assert_msg(scenario_load(path, &back, err, sizeof err), "%s", err);
    ck_assert(back.gpu.node.domain == s.gpu.node.domain);
    ck_assert(back.gpu.node.nvlink_bandwidth == s.gpu.node.nvlink_bandwidth);
    ck_assert(back.gpu.gemm_efficiency == s.gpu.gemm_efficiency);
    ck_assert(back.model.kv_lora_rank == s.model.kv_lora_rank);
    ck_assert(back.model.qk_rope_head_dim == s.model.qk_rope_head_dim);
    ck_assert(back.model.v_head_dim == s.model.v_head_dim);
    ck_assert_str_eq(back.model.id, "custom");
    check_rmtree(dir);
}
END_TEST

/* One rule for a non-finite number in what rooftop writes: null (the scenario writer wrote
 * 0, the points writer null). */
START_TEST(non_finite_written_as_null)
{
    struct scenario s;
    inputs_defaults(&s);
    s.mfu = NAN;
    cJSON *o = scenario_to_json(&s);
    ck_assert_ptr_nonnull(o);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, "mfu")));
    cJSON_Delete(o);
    struct gpu_spec g;
    gpu_builtin_h100(&g);
    g.l2_bytes = INFINITY;
    o = spec_gpu_to_json(&g);
    ck_assert_ptr_nonnull(o);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, "l2_bytes")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(o, "peak_flops"), "fp4")));
    cJSON_Delete(o);
}
END_TEST

/* A scenario name of multi-byte UTF-8 past the limit gets the same message as an ASCII one,
 * in bytes, not "not a string, number or boolean it can take" (once it passed 511 bytes). */
START_TEST(test_scenario_long_utf8_string)
{
    char json[2048], name[1300];
    size_t n = 0;
    for (int i = 0; i < 300; i++) {
        name[n++] = (char)0xc3;
        name[n++] = (char)0xa9; /* U+00E9 */
    }
    name[n] = '\0';
    snprintf(json, sizeof json, "{\"name\": \"%s\"}", name);
    struct scenario s;
    inputs_defaults(&s);
    char err[SPEC_ERR_MAX];
    ck_assert(!scenario_parse(json, strlen(json), "s.json", &s, err, sizeof err));
    ck_assert_str_eq(err, "s.json: name: longer than 127 bytes (this one has 600)");
    memset(name, 'a', 300);
    name[300] = '\0';
    snprintf(json, sizeof json, "{\"name\": \"%s\"}", name);
    ck_assert(!scenario_parse(json, strlen(json), "s.json", &s, err, sizeof err));
    ck_assert_str_eq(err, "s.json: name: longer than 127 bytes (this one has 300)");
}
END_TEST

static Suite *spec_suite(void)
{
    Suite *s = suite_create("spec");
    TCase *tc = tcase_create("gpus");
    tcase_add_loop_test(tc, gpu_files_match_table, 0, (int)GPU_ROWS);
    tcase_add_test(tc, gpu_ridges);
    tcase_add_test(tc, builtin_h100_is_the_file);
    tcase_add_test(tc, gpu_missing_formats);
    tcase_add_test(tc, gpu_find_by_name_and_path);
    tcase_add_test(tc, list_is_sorted_unique_and_complete);
    suite_add_tcase(s, tc);
    tc = tcase_create("models");
    tcase_add_loop_test(tc, model_files_load, 0, (int)MODEL_COUNT);
    tcase_add_test(tc, model_exact_params);
    tcase_add_test(tc, model_fields_read);
    tcase_add_test(tc, model_defaults);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad");
    tcase_add_loop_test(tc, bad_file_refused, 0, (int)BAD_CASES);
    tcase_add_test(tc, huge_file_refused);
    tcase_add_test(tc, bad_model_texts);
    tcase_add_test(tc, bad_gpu_texts);
    tcase_add_test(tc, odd_but_valid_texts);
    suite_add_tcase(s, tc);
    tc = tcase_create("writing");
    tcase_add_test(tc, gpu_presets_round_trip);
    tcase_add_test(tc, model_presets_round_trip);
    tcase_add_test(tc, kind_names_one_table);
    tcase_add_test(tc, scenario_keeps_whole_gpu_and_model);
    tcase_add_test(tc, non_finite_written_as_null);
    tcase_add_test(tc, test_scenario_long_utf8_string);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    paths_init();
    /* Keep the user's own presets out of what is listed and found. */
    if (setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-test", 1) != 0)
        return EXIT_FAILURE;
    return check_run_suite(spec_suite());
}
