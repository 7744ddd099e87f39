/* test_hfconfig.c - Hugging Face config.json read as a model (src/hfconfig.c).
 *
 * tests/data/hf/NAME/config.json holds, for each supported model_type, the keys of the public
 * config.json of that checkpoint that matter (and a few that do not), written from its values.
 * Each must count to the released total exactly: the safetensors total Hugging Face shows for
 * the checkpoint, as public code quotes it (the source is named at each figure). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_util.h"
#include "hfcache.h"
#include "hfconfig.h"
#include "inputs.h"
#include "model.h"
#include "scenario.h"
#include "scenario_file.h"
#include "spec.h"

/* The repository ($ROOFTOP_SPECS/.. when make test sets it, else the current directory). */
static void data_path(char *buf, size_t n, const char *dir)
{
    const char *env = getenv("ROOFTOP_SPECS");
    int w = env != NULL && env[0] != '\0'
                ? snprintf(buf, n, "%s/../tests/data/hf/%s/config.json", env, dir)
                : snprintf(buf, n, "tests/data/hf/%s/config.json", dir);
    ck_assert(w > 0 && (size_t)w < n);
}

static struct model_arch load(const char *dir, struct spec_model_meta *meta)
{
    char path[4096], err[SPEC_ERR_MAX];
    data_path(path, sizeof path, dir);
    struct model_arch m;
    struct spec_model_meta mm;
    ck_assert_msg(spec_find_model_meta(path, &m, meta != NULL ? meta : &mm, err, sizeof err),
                  "%s: %s", dir, err);
    return m;
}

static struct param_counts counts(const struct model_arch *m)
{
    struct param_counts pc;
    model_params(m, &pc);
    return pc;
}

/* One checkpoint: its directory under tests/data/hf, model_type, released total. */
struct released {
    const char *dir;
    const char *type;
    int64_t total;
    bool with_mtp; /* the released total is the checkpoint with its MTP module (GLM-4.5) */
};

/*
 * Released totals (safetensors "total" of the checkpoint on Hugging Face), and where public
 * code quotes them:
 *   Llama-3.2-1B 1,235,814,400, Llama-3.2-3B 3,212,749,824, Qwen2.5-72B 72,706,203,648,
 *   Qwen2-57B-A14B 57,408,658,944, Qwen3-8B 8,190,735,360, Gemma-2-9B 9,241,705,984,
 *   Phi-3.5-mini 3,821,079,552, OLMo-2-1124-7B 7,298,617,344, DeepSeek-V3 671,026,419,200 (the
 *   main model, its README's "671B"), gpt-oss-20b 20,914,757,184, gpt-oss-120b
 *   116,829,156,672, Aya-Expanse-8B 8,028,033,024, Pythia-160m 162,322,944, Phi-2
 *   2,779,683,840, OPT-125m 125,239,296: the Hugging Face safetensors totals of those repos
 *   (also in tests/test_arch.c, field by field).
 *   Mistral-7B-v0.1 7,241,732,096: llama.cpp's GGUF general.parameter_count for it.
 *   Mixtral-8x7B-v0.1 46,702,792,704: keras-hub's mixtral presets ("params") and the Hub
 *     API's safetensors total of mistralai/Mixtral-8x7B-Instruct-v0.1.
 *   Qwen2.5-0.5B 494,032,768: the Qwen2ForCausalLM count and the GGUF n_params.
 *   Qwen3-30B-A3B 30,532,122,624: the GGUF general.parameter_count (qwen3moe, 48 blocks).
 *   gemma-7b 8,537,680,896: keras-hub's gemma presets ("gemma_7b_en" params).
 *   gemma-3-1b-pt 999,885,952: keras-hub's gemma3 presets ("gemma3_1b" params).
 *   DeepSeek-V2-Lite 15,706,484,224: chatllm.cpp's banner for it and the Hub's total.
 *   OLMoE-1B-7B-0924 6,919,161,856: the Hub API's safetensors parameterCount, as public code
 *     reading its SafeTensors headers quotes it (and the GGUF n_params).
 *   gpt2 124,439,808: docs/reference.md section 4 (GPT-2 small).
 *   GLM-4.5 358,337,791,296 and GLM-4.5-Air 110,468,824,832: the safetensors totals of
 *     zai-org/GLM-4.5 and -Air (a public table of Hub totals; also specs/models' presets),
 *     checkpoints that hold the MTP module (layer 92 and 46) beside the main model.
 * The types added for issue 20 (config values from each checkpoint's public config.json):
 *   gpt-j-6b 6,050,882,784: GPTJForCausalLM's num_parameters() as a public LoRA script for
 *     EleutherAI/gpt-j-6B prints it ("# of params: 6050882784").
 *   starcoder 15,517,456,384: a public table of Hub parameter counts (the StarCoder-15B
 *     fine-tunes multipl-t-starcoder-15b-*, the same checkpoint shape).
 *   starcoder2-15b 15,957,889,024: bigcode/starcoder2-15b's safetensors metadata, as a public
 *     model-card generator quotes it (F32, 63,831,628,056 bytes of safetensors).
 *   stablelm-2-1_6b 1,644,515,328: a public comparison table of StableLM 2 1.6B's config.
 *   internlm2_5-7b-chat 7,737,708,544: the Hub's safetensors parameter_count as public code
 *     lists it (get_safetensors_metadata), and chatllm.cpp's banner for InternLM 2.5 7B.
 *   Baichuan-7B 7,000,559,616, chatglm3-6b 6,243,584,000 (the chatglm2-6b row: the same
 *     shape) and Qwen-7B 7,721,324,544: calflops' README table (Params(Total)); ChatGLM3's
 *     count also in public logs of ChatGLMForConditionalGeneration's trainable parameters.
 *   deepseek-moe-16b-base 16,375,728,128: the Hub's total_params of deepseek-ai/
 *     deepseek-moe-16b-base and -chat in a public table of Hub parameter counts (the same
 *     table gives GLM-4.5 358,337,791,296, GLM-4.5-Air 110,468,824,832 and gpt-oss-20b
 *     20,914,757,184, equal to the totals above), and public benchmark bundles' num_params
 *     for it (64 routed + 2 shared experts of 1408, the first layer dense).
 *   MiniCPM-2B-sft-bf16 2,724,880,896: chatllm.cpp's banner for MiniCPM 2B, and MTEB's
 *     n_parameters for embedders built on it.
 *   phi-1_5 in the phi-msft format 1,418,270,720: microsoft/phi-1_5's safetensors_total_params
 *     (Hub metadata, as public code quotes it); phi-2 in it 2,779,683,840, as its phi row.
 *   c4ai-command-r7b-12-2024 8,028,033,024: the sum of the module tree a public 4-bit
 *     conversion's README prints (Embedding(256000, 4096), 32 layers, k/v 1024, MLP 14336, no
 *     biases), aya-expanse-8b's Hub total (the same shape).
 *   granite-3.1-2b-instruct 2,533,531,648: a public table of Hub parameter counts (also
 *     granite-guardian-3.1-2b's).
 *   EXAONE-3.5-7.8B-Instruct 7,818,448,896: "exact model parameters" of the checkpoint as a
 *     public MLX evaluation reports them.
 */
static const struct released RELEASED[] = {
    {"Llama-3.2-1B", "llama", 1235814400LL, false},
    {"Llama-3.2-3B", "llama", 3212749824LL, false},
    {"Mistral-7B-v0.1", "mistral", 7241732096LL, false},
    {"Mixtral-8x7B-v0.1", "mixtral", 46702792704LL, false},
    {"Qwen2.5-72B", "qwen2", 72706203648LL, false},
    {"Qwen2.5-0.5B", "qwen2", 494032768LL, false},
    {"Qwen2-57B-A14B", "qwen2_moe", 57408658944LL, false},
    {"Qwen3-8B", "qwen3", 8190735360LL, false},
    {"Qwen3-30B-A3B", "qwen3_moe", 30532122624LL, false},
    {"gemma-7b", "gemma", 8537680896LL, false},
    {"gemma-2-9b", "gemma2", 9241705984LL, false},
    {"gemma-3-1b-pt", "gemma3_text", 999885952LL, false},
    {"Phi-3.5-mini-instruct", "phi3", 3821079552LL, false},
    {"OLMo-2-1124-7B", "olmo2", 7298617344LL, false},
    /* OLMo 1 (allenai/OLMo-7B-0724-hf): non-parametric LayerNorms, 6,888,095,744 as released. */
    {"OLMo-7B-0724-hf", "olmo", 6888095744LL, false},
    {"OLMoE-1B-7B-0924", "olmoe", 6919161856LL, false},
    {"DeepSeek-V2-Lite", "deepseek_v2", 15706484224LL, false},
    {"DeepSeek-V3", "deepseek_v3", 671026419200LL, false},
    {"gpt-oss-20b", "gpt_oss", 20914757184LL, false},
    {"gpt-oss-120b", "gpt_oss", 116829156672LL, false},
    {"aya-expanse-8b", "cohere", 8028033024LL, false},
    {"gpt2", "gpt2", 124439808LL, false},
    {"pythia-160m", "gpt_neox", 162322944LL, false},
    {"phi-2", "phi", 2779683840LL, false},
    {"opt-125m", "opt", 125239296LL, false},
    {"GLM-4.5", "glm4_moe", 358337791296LL, true},
    {"GLM-4.5-Air", "glm4_moe", 110468824832LL, true},
    {"gpt-j-6b", "gptj", 6050882784LL, false},
    {"starcoder", "gpt_bigcode", 15517456384LL, false},
    {"starcoder2-15b", "starcoder2", 15957889024LL, false},
    {"stablelm-2-1_6b", "stablelm", 1644515328LL, false},
    {"internlm2_5-7b-chat", "internlm2", 7737708544LL, false},
    {"Baichuan-7B", "baichuan", 7000559616LL, false},
    {"chatglm3-6b", "chatglm", 6243584000LL, false},
    {"Qwen-7B", "qwen", 7721324544LL, false},
    {"deepseek-moe-16b-base", "deepseek", 16375728128LL, false},
    {"MiniCPM-2B-sft-bf16", "minicpm", 2724880896LL, false},
    {"phi-1_5-msft", "phi-msft", 1418270720LL, false},
    {"phi-2-msft", "phi-msft", 2779683840LL, false},
    {"c4ai-command-r7b-12-2024", "cohere2", 8028033024LL, false},
    {"granite-3.1-2b-instruct", "granite", 2533531648LL, false},
    {"EXAONE-3.5-7.8B-Instruct", "exaone", 7818448896LL, false},
};
#define RELEASED_COUNT (sizeof RELEASED / sizeof RELEASED[0])

START_TEST(released_total)
{
    const struct released *r = &RELEASED[_i];
    struct spec_model_meta meta;
    struct model_arch m = load(r->dir, &meta);
    struct param_counts pc = counts(&m);
    const int64_t got = pc.total + (r->with_mtp ? pc.mtp : 0);
    ck_assert(r->with_mtp == (pc.mtp > 0) || strcmp(r->type, "deepseek_v3") == 0);
    ck_assert_msg(got == r->total, "%s: counted %lld, released %lld", r->dir, (long long)got,
                  (long long)r->total);
    /* Read by the Hugging Face reader, of the type the file says. */
    char want[128];
    snprintf(want, sizeof want, "(model_type %s)", r->type);
    ck_assert_msg(strstr(meta.source, want) != NULL, "%s: source \"%s\"", r->dir, meta.source);
}
END_TEST

/* The presets of the same checkpoints (specs/models, written field by field from the same
 * configs by hand) count the same, total and active: two readings of one file agree. */
START_TEST(presets_agree)
{
    static const char *const pairs[][2] = {
        {"Llama-3.2-1B", "llama3.2-1b"},   {"Mistral-7B-v0.1", "mistral-7b"},
        {"Mixtral-8x7B-v0.1", "mixtral-8x7b"}, {"Qwen2.5-72B", "qwen2.5-72b"},
        {"Qwen2-57B-A14B", "qwen2-57b-a14b"}, {"Qwen3-30B-A3B", "qwen3-30b-a3b"},
        {"gemma-2-9b", "gemma2-9b"},       {"gemma-3-4b-it", "gemma3-4b"},
        {"OLMo-2-1124-7B", "olmo2-7b"},    {"DeepSeek-V2-Lite", "deepseek-v2-lite"},
        {"DeepSeek-V3", "deepseek-v3"},    {"gpt-oss-120b", "gpt-oss-120b"},
        {"phi-2", "phi2"},                 {"Phi-3.5-mini-instruct", "phi3-mini"},
        {"GLM-4.5", "glm4.5"},             {"GLM-4.5-Air", "glm4.5-air"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct model_arch hf = load(pairs[i][0], NULL), p;
        char err[SPEC_ERR_MAX];
        ck_assert_msg(spec_find_model(pairs[i][1], &p, err, sizeof err), "%s", err);
        struct param_counts a = counts(&hf), b = counts(&p);
        ck_assert_msg(a.total == b.total && a.active == b.active && a.mtp == b.mtp,
                      "%s: %lld/%lld, preset %s: %lld/%lld", pairs[i][0], (long long)a.total,
                      (long long)a.active, pairs[i][1], (long long)b.total, (long long)b.active);
    }
}
END_TEST

/* Every supported type has a released total above, but the multimodal gemma3 (below). */
START_TEST(every_type_has_a_total)
{
    char types[512];
    hfconfig_types(types, sizeof types);
    char *save = NULL;
    for (char *t = strtok_r(types, ", ", &save); t != NULL; t = strtok_r(NULL, ", ", &save)) {
        if (strcmp(t, "gemma3") == 0)
            continue;
        bool found = false;
        for (size_t i = 0; i < RELEASED_COUNT; i++)
            found = found || strcmp(RELEASED[i].type, t) == 0;
        ck_assert_msg(found, "model_type %s has no released-total test", t);
    }
}
END_TEST

/* What each type's row of the table makes of its config (the conventions the file leaves
 * implicit), checked against the modeling code named in src/hfconfig.c. */
START_TEST(conventions)
{
    struct model_arch m = load("gemma-2-9b", NULL);
    ck_assert(m.mlp == MLP_GEGLU && m.norm_place == NORM_SANDWICH && m.tied_embeddings);
    ck_assert_int_eq(m.sliding_window, 4096);
    ck_assert_int_eq(model_local_layers(&m), 21); /* every other of 42 layers */
    m = load("gemma-3-1b-pt", NULL);
    ck_assert(m.qk_norm == QK_NORM_HEAD && m.sliding_window_pattern == 6);
    ck_assert_int_eq(model_local_layers(&m), 26 - 4); /* layers 6, 12, 18, 24 global */
    m = load("gpt-oss-20b", NULL);
    ck_assert(m.attn_sinks && m.router_bias && m.bias && !m.tied_embeddings);
    ck_assert_int_eq(model_local_layers(&m), 12);
    ck_assert_int_eq(m.head_dim, 64);
    m = load("OLMo-2-1124-7B", NULL);
    ck_assert(m.norm_place == NORM_POST && m.qk_norm == QK_NORM_FULL);
    m = load("Qwen3-8B", NULL);
    ck_assert(m.qk_norm == QK_NORM_HEAD && !m.qkv_bias && m.sliding_window == 0);
    m = load("Qwen2.5-72B", NULL);
    ck_assert(m.qkv_bias && !m.bias && m.sliding_window == 0); /* use_sliding_window false */
    m = load("Qwen2.5-0.5B", NULL);
    ck_assert(m.tied_embeddings);
    m = load("Qwen2-57B-A14B", NULL);
    ck_assert(m.shared_gate && m.shared_experts == 1 && m.shared_ffn == 20480 &&
              m.moe_ffn == 2560 && m.experts == 64 && m.experts_active == 8);
    m = load("Mistral-7B-v0.1", NULL);
    ck_assert(m.sliding_window == 4096 && m.sliding_window_pattern == 0);
    ck_assert_int_eq(model_local_layers(&m), 32);
    m = load("Mixtral-8x7B-v0.1", NULL);
    ck_assert(m.experts == 8 && m.experts_active == 2 && m.moe_ffn == 0 && !m.router_bias);
    m = load("aya-expanse-8b", NULL);
    ck_assert(m.norm == NORM_LAYERNORM_NOBIAS && m.block == BLOCK_PARALLEL_ONE_NORM &&
              m.qk_norm == QK_NORM_NONE && m.tied_embeddings);
    m = load("pythia-160m", NULL);
    ck_assert(m.block == BLOCK_PARALLEL && m.bias && m.mlp == MLP_GELU && !m.tied_embeddings);
    m = load("phi-2", NULL);
    ck_assert(m.block == BLOCK_PARALLEL_ONE_NORM && m.lm_head_bias && m.bias);
    m = load("opt-125m", NULL);
    ck_assert(m.mlp == MLP_RELU && m.positional == POS_LEARNED && m.tied_embeddings);
    ck_assert_int_eq(m.context, 2048 + 2); /* OPTLearnedPositionalEmbedding's offset */
    m = load("gpt2", NULL);
    ck_assert(m.positional == POS_LEARNED && m.ffn == 4 * 768 && m.tied_embeddings);
    m = load("OLMoE-1B-7B-0924", NULL);
    ck_assert(m.norm_place == NORM_PRE && m.qk_norm == QK_NORM_FULL && m.experts == 64 &&
              m.experts_active == 8 && m.moe_ffn == 0 && m.dense_layers == 0 && !m.router_bias);
    m = load("DeepSeek-V2-Lite", NULL);
    ck_assert(m.kv_lora_rank == 512 && m.q_lora_rank == 0 && m.shared_experts == 2 &&
              m.dense_layers == 1 && !m.router_bias && m.head_dim == 0);
    m = load("DeepSeek-V3", NULL);
    ck_assert(m.router_bias && m.mtp_layers == 1 && m.dense_layers == 3);
    /* The MTP module apart, as the checkpoint's layer 61 holds it (tests/test_arch.c). */
    ck_assert_int_eq(counts(&m).mtp, 13463426304LL);
    m = load("GLM-4.5", NULL);
    ck_assert(m.qkv_bias && !m.bias && m.qk_norm == QK_NORM_HEAD && m.router_bias &&
              m.mtp_layers == 1 && m.dense_layers == 3 && m.head_dim == 128);
    m = load("GLM-4.5-Air", NULL);
    ck_assert(m.qkv_bias && m.qk_norm == QK_NORM_NONE && m.dense_layers == 1); /* use_qk_norm false */
    m = load("Phi-3.5-mini-instruct", NULL);
    ck_assert(!m.tied_embeddings && m.mlp == MLP_SWIGLU && m.sliding_window == 262144);
}
END_TEST

/* Gemma 3's multimodal config: the language model from text_config, whose absent keys take
 * Gemma3TextConfig's defaults (8 heads, 4 KV heads, head_dim 256, vocab 262,208, every 6th
 * layer global). keras-hub's gemma3 presets give the text-only 4B 3,880,099,328 parameters
 * with a 262,144-token vocabulary; the Hugging Face text_config's 262,208 adds 64 x 2560. */
START_TEST(gemma3_text_config)
{
    struct spec_model_meta meta;
    struct model_arch m = load("gemma-3-4b-it", &meta);
    ck_assert_int_eq(m.heads, 8);
    ck_assert_int_eq(m.kv_heads, 4);
    ck_assert_int_eq(m.head_dim, 256);
    ck_assert_int_eq(m.vocab, 262208);
    ck_assert_int_eq(m.sliding_window, 1024);
    ck_assert_int_eq(m.sliding_window_pattern, 6);
    ck_assert_int_eq(counts(&m).total, 3880099328LL + 64LL * 2560);
    ck_assert_msg(strstr(meta.source, "without the vision tower") != NULL, "%s", meta.source);
}
END_TEST

/* ---- the reader on text ----------------------------------------------------------------- */

static bool parse(const char *json, struct model_arch *m, char *err, size_t n)
{
    return spec_parse_model(json, strlen(json), "models/x/config.json", m, err, n);
}

/* Refused, with one line that names the file and the key (and holds `also`). */
static void refused(const char *json, const char *key, const char *also)
{
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(!parse(json, &m, err, sizeof err), "accepted: %s", json);
    char want[128];
    snprintf(want, sizeof want, "models/x/config.json: %s: ", key);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "\"%s\" does not start \"%s\"", err,
                  want);
    ck_assert_msg(strstr(err, also) != NULL, "\"%s\" lacks \"%s\"", err, also);
    ck_assert_msg(strchr(err, '\n') == NULL, "more than one line: %s", err);
}

/* A small Llama-shaped config with extra keys spliced in (the first key of extra wins, as
 * cJSON takes the first of a name, so this also tests the keys it overrides: none here). */
#define LLAMA_KEYS                                                                           \
    "\"hidden_size\": 256, \"num_hidden_layers\": 4, \"num_attention_heads\": 4,"            \
    " \"vocab_size\": 1000, \"intermediate_size\": 512, \"max_position_embeddings\": 2048"

START_TEST(errors_name_the_key)
{
    /* An unknown type lists the supported ones. */
    refused("{\"model_type\": \"mamba\", " LLAMA_KEYS "}", "model_type",
            "\"mamba\" is not supported (supported: llama, mistral, mixtral, qwen2, qwen2_moe, "
            "qwen3, qwen3_moe, gemma, gemma2, gemma3_text, phi3, olmo2, olmo, olmoe, deepseek_v2, "
            "deepseek_v3, glm4_moe, gpt_oss, cohere, gpt2, gpt_neox, phi, opt, gptj, gpt_bigcode, "
            "starcoder2, stablelm, internlm2, baichuan, chatglm, qwen, deepseek, minicpm, phi-msft, "
            "cohere2, granite, exaone, gemma3)");
    refused("{\"model_type\": null, " LLAMA_KEYS "}", "model_type", "missing (supported: llama");
    /* No model_type at all: still a config (its keys say so), and the message says what it
     * lacks (found by review: it was read as rooftop's schema, "unknown field"). */
    refused("{" LLAMA_KEYS "}", "model_type", "missing (supported: llama");
    refused("{\"architectures\": [\"LlamaForCausalLM\"]}", "model_type", "missing (supported:");
    refused("{\"model_type\": 7}", "model_type", "must be a string, got a number");
    /* A missing key, a key of the wrong type. */
    /* A key written null is missing (LlamaConfig has no model without hidden_size). */
    refused("{\"model_type\": \"llama\", \"num_hidden_layers\": 4, \"hidden_size\": null}",
            "hidden_size", "missing");
    refused("{\"model_type\": \"llama\", \"hidden_size\": \"4096\"}", "hidden_size",
            "must be a whole number, got a string");
    refused("{\"model_type\": \"llama\", \"hidden_size\": 256.5}", "hidden_size",
            "must be a whole number, got 256.5");
    refused("{\"model_type\": \"gpt2\", \"n_embd\": 64, \"n_layer\": 2, \"n_head\": 4,"
            " \"vocab_size\": null}",
            "vocab_size", "missing");
    refused("{\"model_type\": \"llama\", " LLAMA_KEYS ", \"tie_word_embeddings\": 1}",
            "tie_word_embeddings", "must be true or false, got a number");
    refused("{\"model_type\": \"llama\", " LLAMA_KEYS ", \"num_key_value_heads\": 3}",
            "num_key_value_heads", "3 does not divide num_attention_heads 4");
    refused("{\"model_type\": \"llama\", " LLAMA_KEYS ", \"hidden_size\": 257}", "hidden_size",
            "appears twice");
    refused("{\"model_type\": \"gemma3\", \"vocab_size\": 10}", "text_config", "missing");
    refused("{\"model_type\": \"gemma3\", \"text_config\": {\"model_type\": \"llama\"}}",
            "text_config.model_type", "\"llama\" inside gemma3 is not gemma3_text");
}
END_TEST

/* Values the model fields cannot express are refused, never approximated. */
START_TEST(inexpressible_refused)
{
    /* Biases on q, k, v and o without the MLP's (attention_bias alone). */
    refused("{\"model_type\": \"llama\", " LLAMA_KEYS ", \"attention_bias\": true}",
            "attention_bias", "cannot be expressed");
    refused("{\"model_type\": \"gpt_neox\", " LLAMA_KEYS ", \"attention_bias\": false}",
            "attention_bias", "cannot express");
    refused("{\"model_type\": \"llama\", " LLAMA_KEYS ", \"hidden_act\": \"relu\"}",
            "hidden_act", "\"relu\" in llama's gated MLP is not silu or gelu");
    /* MoE layers that are not "dense first layers, then every layer". */
    const char *moe = "\"model_type\": \"qwen3_moe\", " LLAMA_KEYS ", \"num_experts\": 8,"
                      " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 128";
    char json[1024];
    snprintf(json, sizeof json, "{%s, \"decoder_sparse_step\": 2}", moe);
    refused(json, "decoder_sparse_step", "cannot be expressed");
    snprintf(json, sizeof json, "{%s, \"mlp_only_layers\": [1]}", moe);
    refused(json, "mlp_only_layers", "only the first layers may be dense");
    snprintf(json, sizeof json, "{%s, \"mlp_only_layers\": [0, 0]}", moe);
    refused(json, "mlp_only_layers", "each once");
    snprintf(json, sizeof json, "{%s, \"mlp_only_layers\": [1, 0]}", moe);
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(parse(json, &m, err, sizeof err), "%s", err);
    ck_assert_int_eq(m.dense_layers, 2);
    ck_assert_int_eq(m.ffn, 512); /* the dense layers' width */
    ck_assert_int_eq(m.moe_ffn, 128);
    /* (DeepseekV3Config's 128 K/V heads would not divide these 4 heads: 4 given.) */
    refused("{\"model_type\": \"deepseek_v3\", " LLAMA_KEYS ", \"n_routed_experts\": 8,"
            " \"num_key_value_heads\": 4, \"num_experts_per_tok\": 2,"
            " \"moe_intermediate_size\": 128, \"moe_layer_freq\": 2,"
            " \"kv_lora_rank\": 64, \"qk_nope_head_dim\": 32, \"qk_rope_head_dim\": 16,"
            " \"v_head_dim\": 32}",
            "moe_layer_freq", "cannot be expressed");
    /* Sliding windows that are not "all local" or "every N-th layer global". */
    refused("{\"model_type\": \"qwen2\", " LLAMA_KEYS ", \"num_key_value_heads\": 4,"
            " \"use_sliding_window\": true,"
            " \"sliding_window\": 1024, \"max_window_layers\": 2}",
            "max_window_layers", "cannot be expressed");
    refused("{\"model_type\": \"gemma2\", " LLAMA_KEYS ", \"sliding_window\": 512, \"layer_types\":"
            " [\"full_attention\", \"sliding_attention\", \"sliding_attention\", \"full_attention\"]}",
            "layer_types", "not every N-th layer");
    refused("{\"model_type\": \"gemma2\", " LLAMA_KEYS ", \"sliding_window\": 512, \"layer_types\":"
            " [\"sliding_attention\", \"full_attention\"]}",
            "layer_types", "has 2 entries for 4 layers");
    refused("{\"model_type\": \"gemma2\", " LLAMA_KEYS ", \"layer_types\": [\"sliding_attention\","
            " \"full_attention\", \"chunked_attention\", \"full_attention\"]}",
            "layer_types", "layer 2 is \"chunked_attention\"");
    refused("{\"model_type\": \"gemma2\", " LLAMA_KEYS ", \"sliding_window\": null,"
            " \"layer_types\": [\"sliding_attention\","
            " \"full_attention\", \"sliding_attention\", \"full_attention\"]}",
            "sliding_window", "missing, and layer_types has 2 sliding layers");
    refused("{\"model_type\": \"opt\", \"hidden_size\": 256, \"num_hidden_layers\": 4,"
            " \"num_attention_heads\": 4, \"vocab_size\": 1000, \"ffn_dim\": 512,"
            " \"max_position_embeddings\": 2048, \"word_embed_proj_dim\": 128}",
            "word_embed_proj_dim", "project_in/project_out cannot be expressed");
    refused("{\"model_type\": \"opt\", \"hidden_size\": 256, \"num_hidden_layers\": 4,"
            " \"num_attention_heads\": 4, \"vocab_size\": 1000, \"ffn_dim\": 512,"
            " \"max_position_embeddings\": 2048, \"do_layer_norm_before\": false}",
            "do_layer_norm_before", "cannot be expressed");
}
END_TEST

/* layer_types, when the config has it, gives the local layers (transformers >= 4.5x writes
 * it); the older keys give the same model. */
/* A key a config leaves out takes its class's default, and a key the class never reads
 * changes nothing (issue 20). MistralConfig: sliding_window 4096 and num_key_value_heads 8
 * when absent, while null means none / one per head; GPT2Config and OPTConfig have neither
 * num_key_value_heads nor head_dim (GPT2Attention: head_dim = n_embd / n_head), so gpt2 with
 * "head_dim": 128 stays 124,439,808 (it counted 153M). */
START_TEST(class_defaults_and_unread_keys)
{
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    /* The default 8 K/V heads do not divide 4 heads: the message names the defaulted key. */
    ck_assert(!parse("{\"model_type\": \"mistral\", \"hidden_size\": 256, \"num_hidden_layers\": 4,"
                     " \"num_attention_heads\": 4, \"vocab_size\": 1000}", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "num_key_value_heads: 8 does not divide") != NULL, "%s", err);
    ck_assert_msg(parse("{\"model_type\": \"mistral\", \"hidden_size\": 4096,"
                        " \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
                        " \"vocab_size\": 32000, \"intermediate_size\": 14336}", &m, err, sizeof err),
                  "%s", err);
    ck_assert(m.kv_heads == 8 && m.sliding_window == 4096 && m.context == 131072);
    /* Mistral-7B-v0.1 written without the window: the same count, and the window of 4096. */
    ck_assert_int_eq(counts(&m).total, 7241732096LL);
    ck_assert_msg(parse("{\"model_type\": \"mistral\", " LLAMA_KEYS ", \"num_key_value_heads\": null,"
                        " \"sliding_window\": null}", &m, err, sizeof err), "%s", err);
    ck_assert(m.kv_heads == 4 && m.sliding_window == 0);

    struct model_arch g = load("gpt2", NULL);
    const char *gpt2 = "{\"model_type\": \"gpt2\", \"n_embd\": 768, \"n_layer\": 12, \"n_head\": 12,"
                       " \"n_positions\": 1024, \"vocab_size\": 50257, \"head_dim\": 128,"
                       " \"num_key_value_heads\": 4}";
    ck_assert_msg(parse(gpt2, &m, err, sizeof err), "%s", err);
    ck_assert(m.head_dim == 0 && m.kv_heads == 12);
    ck_assert_int_eq(counts(&m).total, counts(&g).total);
    ck_assert_int_eq(counts(&m).total, 124439808LL);
    struct model_arch o = load("opt-125m", NULL);
    char opt[1024];
    snprintf(opt, sizeof opt, "{\"model_type\": \"opt\", \"hidden_size\": 768,"
             " \"num_hidden_layers\": 12, \"num_attention_heads\": 12, \"ffn_dim\": 3072,"
             " \"max_position_embeddings\": 2048, \"vocab_size\": 50272, \"head_dim\": 32,"
             " \"num_key_value_heads\": 3}");
    ck_assert_msg(parse(opt, &m, err, sizeof err), "%s", err);
    ck_assert_int_eq(counts(&m).total, counts(&o).total);
    ck_assert_int_eq(counts(&m).total, 125239296LL);
}
END_TEST

/*
 * A config of nothing but its model_type is the model its class's defaults build (issue 20):
 * the class documents that model (auto_docstring(checkpoint=...) in transformers'
 * configuration_<type>.py at main 008e5743), and its count equals the released total above
 * or the preset written from that checkpoint's own config (its context may differ: the
 * counts do not depend on it for RoPE models). MistralConfig: Mistral-7B-v0.1;
 * MixtralConfig: Mixtral-8x7B-v0.1; GemmaConfig: gemma-7b; Phi3Config: Phi-3-mini (the
 * shape of Phi-3.5-mini); LlamaConfig: Llama-2-7b; Gemma2Config: gemma-2-2b; GPT2Config:
 * gpt2; OPTConfig: opt-125m; GPTJConfig: gpt-j-6B (tie_word_embeddings false: the head
 * apart, with its bias).
 *
 * The MoE and MLA types (classes read at transformers main 008e5743, GptOssConfig at
 * 02b8f42b):
 *   qwen2_moe: Qwen2MoeConfig documents Qwen/Qwen1.5-MoE-A2.7B, and its defaults are that
 *     checkpoint's config (24 layers of 2048, 16 heads, 60 experts of 1408 and a shared one of
 *     5632): 14,315,784,192, keras-hub's qwen1.5_moe_2.7b_en preset ("params") and half the
 *     bf16 bytes of its model.safetensors.index.json (metadata.total_size 28,631,568,384, as
 *     a public test of the index asserts it).
 *   olmo: OlmoConfig documents allenai/OLMo-7B-hf, whose shape its defaults are:
 *     6,888,095,744, the total_params of allenai/OLMo-7B in a public model-metadata test
 *     (also OLMo-7B-0724-hf's, above).
 *   deepseek_v3: DeepseekV3Config's docstring names bzantium/tiny-deepseek-v3, but its
 *     defaults are DeepSeek-V3's own config (61 layers of 7168, 256 routed experts of 2048,
 *     MLA 1536/512): the main model's 671,026,419,200 above, and num_mtp_layers 1 (the key
 *     num_nextn_predict_layers) its MTP module, counted apart.
 *   gpt_oss: GptOssConfig names openai/gpt-oss-20b, but its defaults (36 layers, 128 experts)
 *     are gpt-oss-120b: 116,829,156,672 above.
 * Where the defaults are no released checkpoint, the count is the one computed here by hand
 * from them (no released total exists to hold them to):
 *   qwen3_moe (Qwen3MoeConfig names Qwen3-30B-A3B-Base, but defaults to 24 layers and no
 *     head_dim, so 2048 / 32 = 64, the "Qwen3-15B-A2B" of its example): per layer attention
 *     2048 x 32 x 64 x 2 + 2048 x 4 x 64 x 2 = 9,437,184, q/k norms 128, norms 4,096, router
 *     128 x 2048 = 262,144, experts 128 x 3 x 2048 x 768 = 603,979,776: 613,683,328; x 24 +
 *     embedding and head 2 x 151936 x 2048 = 622,329,856 + final norm 2,048 = 15,350,731,776.
 *   olmoe (OlmoeConfig names OLMoE-1B-7B-0924, whose experts are 1024 wide, but defaults to
 *     intermediate_size 2048): attention 4 x 2048^2 = 16,777,216, QK-norms over the
 *     projections 2 x 2048, norms 2 x 2048, router 64 x 2048, experts 64 x 3 x 2048^2 =
 *     805,306,368: 822,222,848 a layer; x 16 + 2 x 50304 x 2048 + 2,048 = 13,361,612,800.
 *   glm4_moe (Glm4MoeConfig names zai-org/GLM-4.5, but its defaults are GLM-4.5-Air's widths
 *     without its head_dim 128 and attention_bias true: the heads are 4096 // 96 = 42 wide,
 *     as Glm4MoeAttention floors it): attention 4096 x 96 x 42 x 2 + 4096 x 8 x 42 x 2 =
 *     35,782,656, norms 8,192; the dense first layer's MLP 3 x 4096 x 10944 = 134,479,872;
 *     each of the 45 MoE layers' 128 experts and one shared of 1408 (3 x 4096 x 1408 x 129 =
 *     2,231,894,016), router 128 x 4096 and its 128 correction biases: 170,270,720 +
 *     45 x 2,268,209,280 + 2 x 151552 x 4096 + 4,096 = 103,481,206,400 (MTP apart).
 *   deepseek_v2 (DeepseekV2Config names DeepSeek-V2-Lite, 27 layers of 2048, but defaults
 *     to 32 of 4096 and to num_experts_per_tok None, which routes no token: the key stays
 *     required, and 6 is given): MLA q 4096 x 1536 + 1536 + 1536 x 32 x 192, kv 4096 x 576 +
 *     512 + 512 x 32 x 256, o 32 x 128 x 4096 = 39,061,504; norms 8,192; 64 routed and 2
 *     shared experts of 1407 (66 x 3 x 4096 x 1407 = 1,141,088,256), router 64 x 4096:
 *     1,180,420,096 a layer (first_k_dense_replace 0); x 32 + 2 x 32000 x 4096 + 4,096 =
 *     38,035,591,168.
 */
START_TEST(class_default_models)
{
    static const struct {
        const char *type;
        const char *preset; /* NULL: the total below */
        int64_t total;
    } rows[] = {
        {"mistral", NULL, 7241732096LL},  {"mixtral", NULL, 46702792704LL},
        {"gemma", NULL, 8537680896LL},    {"phi3", NULL, 3821079552LL},
        {"gpt2", NULL, 124439808LL},      {"opt", NULL, 125239296LL},
        {"llama", "llama2-7b", 0},        {"gemma2", "gemma2-2b", 0},
        {"qwen2_moe", NULL, 14315784192LL}, {"olmo", NULL, 6888095744LL},
        {"deepseek_v3", NULL, 671026419200LL}, {"gpt_oss", NULL, 116829156672LL},
        {"qwen3_moe", NULL, 15350731776LL}, {"olmoe", NULL, 13361612800LL},
        {"glm4_moe", NULL, 103481206400LL}, {"gptj", NULL, 6050882784LL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char json[128], err[SPEC_ERR_MAX];
        struct model_arch m;
        snprintf(json, sizeof json, "{\"model_type\": \"%s\"}", rows[i].type);
        ck_assert_msg(parse(json, &m, err, sizeof err), "%s: %s", rows[i].type, err);
        int64_t want = rows[i].total;
        if (rows[i].preset != NULL) {
            struct model_arch p;
            ck_assert_msg(spec_find_model(rows[i].preset, &p, err, sizeof err), "%s", err);
            want = counts(&p).total;
        }
        ck_assert_msg(counts(&m).total == want, "%s: %lld, the class's model %lld", rows[i].type,
                      (long long)counts(&m).total, (long long)want);
    }
    /* DeepSeek-V3's MTP module from the class's num_mtp_layers 1: the fixture's, which writes
     * num_nextn_predict_layers 1. */
    char err[SPEC_ERR_MAX];
    struct model_arch m, v3 = load("DeepSeek-V3", NULL);
    ck_assert_msg(parse("{\"model_type\": \"deepseek_v3\"}", &m, err, sizeof err), "%s", err);
    ck_assert(m.mtp_layers == 1 && counts(&v3).mtp > 0);
    ck_assert_int_eq(counts(&m).mtp, counts(&v3).mtp);
    ck_assert_int_eq(counts(&m).active, counts(&v3).active);
    /* DeepseekV2Config: num_experts_per_tok None is no model; given, the count above. */
    ck_assert(!parse("{\"model_type\": \"deepseek_v2\"}", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "num_experts_per_tok: missing") != NULL, "%s", err);
    ck_assert_msg(parse("{\"model_type\": \"deepseek_v2\", \"num_experts_per_tok\": 6}", &m, err,
                        sizeof err), "%s", err);
    ck_assert(m.q_lora_rank == 1536 && m.kv_heads == 32 && !m.router_bias && m.dense_layers == 0);
    ck_assert_int_eq(counts(&m).total, 38035591168LL);
}
END_TEST

/* One key left out at a time takes its class's default, checked by its effect. */
START_TEST(class_default_keys)
{
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    /* Qwen2Config: num_key_value_heads 32 when absent (not one per head, as Llama's None). */
    ck_assert_msg(parse("{\"model_type\": \"qwen2\", \"num_attention_heads\": 64,"
                        " \"hidden_size\": 8192}", &m, err, sizeof err), "%s", err);
    ck_assert(m.kv_heads == 32 && m.heads == 64 && m.ffn == 22016 && m.vocab == 151936);
    ck_assert(m.sliding_window == 0); /* use_sliding_window false: the 4096 is unused */
    ck_assert_msg(parse("{\"model_type\": \"llama\", \"num_attention_heads\": 64,"
                        " \"hidden_size\": 8192}", &m, err, sizeof err), "%s", err);
    ck_assert_int_eq(m.kv_heads, 64);
    /* Qwen3Config: head_dim 128 whatever the width (Qwen3-0.6B: 1024 / 16 heads = 64 but 128). */
    ck_assert_msg(parse("{\"model_type\": \"qwen3\", \"hidden_size\": 1024,"
                        " \"num_attention_heads\": 16, \"num_key_value_heads\": 8}", &m, err,
                        sizeof err), "%s", err);
    ck_assert_int_eq(m.head_dim, 128);
    /* Gemma2Config: sliding_window 4096 on every other layer. */
    ck_assert_msg(parse("{\"model_type\": \"gemma2\"}", &m, err, sizeof err), "%s", err);
    ck_assert(m.sliding_window == 4096 && m.sliding_window_pattern == 2);
    ck_assert_int_eq(model_local_layers(&m), 13);
    /* GPT2Config and OPTConfig map hidden_size onto n_embd / d_model (attribute_map). */
    ck_assert_msg(parse("{\"model_type\": \"gpt2\", \"hidden_size\": 1024, \"n_head\": 16,"
                        " \"num_hidden_layers\": 24}", &m, err, sizeof err), "%s", err);
    ck_assert(m.d_model == 1024 && m.layers == 24 && m.ffn == 4096 && m.context == 1024);
    ck_assert_msg(parse("{\"model_type\": \"opt\", \"d_model\": 2048, \"ffn_dim\": 8192,"
                        " \"num_attention_heads\": 32, \"num_hidden_layers\": 24}", &m, err,
                        sizeof err), "%s", err);
    ck_assert(m.d_model == 2048 && m.context == 2050); /* OPT's two extra position rows */
    /* MixtralConfig: sliding_window None (no window), 8 experts, 2 a token. */
    ck_assert_msg(parse("{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2}", &m, err,
                        sizeof err), "%s", err);
    ck_assert(m.sliding_window == 0 && m.experts == 8 && m.experts_active == 2);
    /* Glm4MoeConfig has no head_dim: 4096 // 96 = 42 (floored, as Glm4MoeAttention builds
     * it); a file's head_dim 128 (GLM-4.5-Air's) is read. MTP: num_mtp_layers 1 unless the
     * file writes num_nextn_predict_layers. */
    ck_assert_msg(parse("{\"model_type\": \"glm4_moe\"}", &m, err, sizeof err), "%s", err);
    ck_assert(m.head_dim == 42 && m.kv_heads == 8 && !m.qkv_bias && m.mtp_layers == 1 &&
              m.router_bias && m.shared_experts == 1 && m.dense_layers == 1);
    ck_assert_msg(parse("{\"model_type\": \"glm4_moe\", \"head_dim\": 128,"
                        " \"num_nextn_predict_layers\": 0}", &m, err, sizeof err), "%s", err);
    ck_assert(m.head_dim == 128 && m.mtp_layers == 0);
    /* Qwen2MoeConfig: qkv_bias (default true) on q, k, v; use_sliding_window puts the window
     * on every other layer below max_window_layers (28: all 24 layers' even ones). */
    ck_assert_msg(parse("{\"model_type\": \"qwen2_moe\"}", &m, err, sizeof err), "%s", err);
    ck_assert(m.qkv_bias && m.sliding_window == 0 && m.shared_experts == 1 && m.shared_gate);
    ck_assert_msg(parse("{\"model_type\": \"qwen2_moe\", \"qkv_bias\": false,"
                        " \"use_sliding_window\": true}", &m, err, sizeof err), "%s", err);
    ck_assert(!m.qkv_bias && m.sliding_window == 4096 && m.sliding_window_pattern == 2);
    ck_assert_int_eq(model_local_layers(&m), 12);
    ck_assert(!parse("{\"model_type\": \"qwen2_moe\", \"use_sliding_window\": true,"
                     " \"max_window_layers\": 10}", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "max_window_layers: 10") != NULL, "%s", err);
    /* Qwen3MoeConfig has no head_dim either (2048 / 32 = 64), unlike Qwen3Config's 128. */
    ck_assert_msg(parse("{\"model_type\": \"qwen3_moe\"}", &m, err, sizeof err), "%s", err);
    ck_assert(m.head_dim == 0 && m.kv_heads == 4 && m.experts == 128 && m.moe_ffn == 768);
    /* GptOssConfig: every other layer local with a window of 128, 4 of 128 experts. */
    ck_assert_msg(parse("{\"model_type\": \"gpt_oss\"}", &m, err, sizeof err), "%s", err);
    ck_assert(m.sliding_window == 128 && m.sliding_window_pattern == 2 && m.head_dim == 64 &&
              m.experts_active == 4 && m.attn_sinks);
    ck_assert_int_eq(model_local_layers(&m), 18);
}
END_TEST

/* The new types' conventions, as their modeling code builds them. */
START_TEST(new_type_conventions)
{
    struct model_arch m = load("gpt-j-6b", NULL);
    /* GPTJAttention: q, k, v, out_proj without bias; GPTJMLP fc_in/fc_out with; one ln_1 for
     * the parallel block; lm_head with a bias. */
    ck_assert(m.mlp_bias && !m.bias && !m.qkv_bias && m.lm_head_bias &&
              m.block == BLOCK_PARALLEL_ONE_NORM && m.ffn == 4 * 4096 && !m.tied_embeddings);
    m = load("starcoder", NULL);
    ck_assert(m.kv_heads == 1 && m.bias && m.positional == POS_LEARNED && m.tied_embeddings);
    m = load("starcoder2-15b", NULL);
    ck_assert(m.kv_heads == 4 && m.bias && m.norm == NORM_LAYERNORM && m.mlp == MLP_GELU &&
              m.sliding_window == 4096 && !m.tied_embeddings);
    m = load("stablelm-2-1_6b", NULL);
    ck_assert(m.qkv_bias && !m.bias && m.norm == NORM_LAYERNORM && m.block == BLOCK_SEQUENTIAL);
    m = load("chatglm3-6b", NULL);
    ck_assert(m.kv_heads == 2 && m.qkv_bias && m.ffn == 13696 && m.vocab == 65024 &&
              m.context == 8192 && m.norm == NORM_RMSNORM);
    m = load("Qwen-7B", NULL);
    ck_assert(m.ffn == 11008 && m.qkv_bias && m.kv_heads == 32 && m.head_dim == 0);
    m = load("deepseek-moe-16b-base", NULL);
    ck_assert(m.experts == 64 && m.experts_active == 6 && m.shared_experts == 2 &&
              m.moe_ffn == 1408 && m.dense_layers == 1 && !m.router_bias);
    m = load("c4ai-command-r7b-12-2024", NULL);
    /* Cohere2Config: every 4th layer global (sliding_window_pattern 4), tied. */
    ck_assert(m.sliding_window == 4096 && m.sliding_window_pattern == 4 && m.tied_embeddings &&
              m.block == BLOCK_PARALLEL_ONE_NORM && m.qk_norm == QK_NORM_NONE);
    ck_assert_int_eq(model_local_layers(&m), 24);
    m = load("EXAONE-3.5-7.8B-Instruct", NULL);
    ck_assert(m.layers == 32 && m.kv_heads == 8 && !m.bias && !m.tied_embeddings);
    /* DeepseekConfig without n_routed_experts is dense; ExaoneConfig's intermediate_size
     * null is 4 x hidden; phi-msft pads the vocabulary to a multiple of 64. */
    struct model_arch d;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(parse("{\"model_type\": \"deepseek\", " LLAMA_KEYS "}", &d, err, sizeof err),
                  "%s", err);
    ck_assert(!model_is_moe(&d));
    ck_assert_msg(parse("{\"model_type\": \"exaone\", \"hidden_size\": 256, \"num_layers\": 2,"
                        " \"num_attention_heads\": 4, \"vocab_size\": 1000}", &d, err, sizeof err),
                  "%s", err);
    ck_assert(d.ffn == 1024 && d.layers == 2 && d.tied_embeddings);
    ck_assert_msg(parse("{\"model_type\": \"phi-msft\", \"n_embd\": 256, \"n_layer\": 2,"
                        " \"n_head\": 4, \"vocab_size\": 50257}", &d, err, sizeof err), "%s", err);
    ck_assert_int_eq(d.vocab, 50304);
    /* What the fields cannot express is refused, naming the key. */
    refused("{\"model_type\": \"internlm2\", " LLAMA_KEYS "}", "bias", "cannot express");
    refused("{\"model_type\": \"chatglm\", \"inner_hidden_size\": 16384}", "inner_hidden_size",
            "first version");
    refused("{\"model_type\": \"chatglm\", \"add_bias_linear\": true}", "add_bias_linear",
            "cannot be expressed");
    refused("{\"model_type\": \"stablelm\", \"qk_layernorm\": true}", "qk_layernorm",
            "cannot be expressed");
    refused("{\"model_type\": \"qwen\", \"no_bias\": false}", "no_bias", "cannot be expressed");
    refused("{\"model_type\": \"qwen\", \"intermediate_size\": 1001}", "intermediate_size",
            "odd");
}
END_TEST

START_TEST(layer_types_and_patterns)
{
    struct model_arch a, b;
    char err[SPEC_ERR_MAX];
    const char *six = "{\"model_type\": \"gemma3_text\", \"hidden_size\": 256,"
                      " \"num_hidden_layers\": 12, \"num_attention_heads\": 4, \"vocab_size\": 1000,"
                      " \"intermediate_size\": 512, \"max_position_embeddings\": 2048,"
                      " \"head_dim\": 64, \"sliding_window\": 512, \"sliding_window_pattern\": 6}";
    const char *types = "{\"model_type\": \"gemma3_text\", \"hidden_size\": 256,"
                        " \"num_hidden_layers\": 12, \"num_attention_heads\": 4,"
                        " \"vocab_size\": 1000, \"intermediate_size\": 512,"
                        " \"max_position_embeddings\": 2048, \"head_dim\": 64,"
                        " \"sliding_window\": 512, \"layer_types\": [\"sliding_attention\","
                        " \"sliding_attention\", \"sliding_attention\", \"sliding_attention\","
                        " \"sliding_attention\", \"full_attention\", \"sliding_attention\","
                        " \"sliding_attention\", \"sliding_attention\", \"sliding_attention\","
                        " \"sliding_attention\", \"full_attention\"]}";
    ck_assert_msg(parse(six, &a, err, sizeof err), "%s", err);
    ck_assert_msg(parse(types, &b, err, sizeof err), "%s", err);
    ck_assert_int_eq(a.sliding_window_pattern, 6);
    ck_assert_int_eq(b.sliding_window_pattern, 6);
    ck_assert_int_eq(model_local_layers(&a), 10);
    ck_assert_int_eq(model_local_layers(&b), 10);
    /* All local (pattern 0), none local (no window). */
    ck_assert_msg(parse("{\"model_type\": \"mistral\", " LLAMA_KEYS ", \"num_key_value_heads\": 4,"
                        " \"sliding_window\": 64,"
                        " \"layer_types\": [\"sliding_attention\", \"sliding_attention\","
                        " \"sliding_attention\", \"sliding_attention\"]}", &a, err, sizeof err),
                  "%s", err);
    ck_assert(a.sliding_window == 64 && a.sliding_window_pattern == 0);
    ck_assert_int_eq(model_local_layers(&a), 4);
    ck_assert_msg(parse("{\"model_type\": \"qwen3\", " LLAMA_KEYS ", \"num_key_value_heads\": 4,"
                        " \"sliding_window\": 64,"
                        " \"layer_types\": [\"full_attention\", \"full_attention\","
                        " \"full_attention\", \"full_attention\"]}", &a, err, sizeof err),
                  "%s", err);
    ck_assert_int_eq(a.sliding_window, 0);
    /* A type without windows ignores the key, as transformers does (Llama). */
    ck_assert_msg(parse("{\"model_type\": \"llama\", " LLAMA_KEYS ", \"sliding_window\": \"x\"}",
                        &a, err, sizeof err), "%s", err);
    ck_assert_int_eq(a.sliding_window, 0);
    /* Qwen2 with use_sliding_window from the first layer: every layer local. */
    ck_assert_msg(parse("{\"model_type\": \"qwen2\", " LLAMA_KEYS ", \"num_key_value_heads\": 4,"
            " \"use_sliding_window\": true,"
                        " \"sliding_window\": 1024, \"max_window_layers\": 0}", &a, err,
                        sizeof err), "%s", err);
    ck_assert_int_eq(model_local_layers(&a), 4);
}
END_TEST

/* The name: _name_or_path's last part, else the file's directory (config.json) or its stem,
 * else the model_type; the id: the directory or the stem. */
START_TEST(names)
{
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    const char *named = "{\"model_type\": \"llama\", \"_name_or_path\": \"meta-llama/Llama-3.2-1B\", "
                        LLAMA_KEYS "}";
    ck_assert_msg(parse(named, &m, err, sizeof err), "%s", err);
    ck_assert_str_eq(m.name, "Llama-3.2-1B");
    ck_assert_str_eq(m.id, "x"); /* the directory: where the file is */
    const char *plain = "{\"model_type\": \"llama\", " LLAMA_KEYS "}";
    ck_assert_msg(parse(plain, &m, err, sizeof err), "%s", err);
    ck_assert_str_eq(m.name, "x"); /* models/x/config.json */
    ck_assert_msg(spec_parse_model(plain, strlen(plain), "config.json", &m, err, sizeof err), "%s",
                  err);
    ck_assert_str_eq(m.name, "llama");
    /* Saved among the presets as NAME.json: its id is NAME, as a preset's. */
    ck_assert_msg(spec_parse_model(named, strlen(named), "specs/models/l32.json", &m, err,
                                   sizeof err), "%s", err);
    ck_assert_str_eq(m.id, "l32");
    ck_assert_str_eq(m.name, "Llama-3.2-1B");
    /* A control character in the name does not reach the terminal. */
    const char *ctl = "{\"model_type\": \"llama\", \"_name_or_path\": \"a\\u001b[2Jb\", "
                      LLAMA_KEYS "}";
    ck_assert_msg(parse(ctl, &m, err, sizeof err), "%s", err);
    ck_assert_str_eq(m.name, "a?[2Jb");
}
END_TEST

/* A scenario file's "model" may name a config.json, or hold one inline. */
START_TEST(scenario_takes_a_config)
{
    char dir[256], path[4096], scen[512], cfg[4096];
    check_tmpdir(dir, sizeof dir, "hf");
    data_path(cfg, sizeof cfg, "Qwen3-8B");
    snprintf(scen, sizeof scen, "%s/s.json", dir);
    FILE *f = fopen(scen, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "{\"model\": \"%s\", \"gpus\": 8}\n", cfg);
    ck_assert_int_eq(fclose(f), 0);
    struct scenario s;
    inputs_defaults(&s);
    char err[1024];
    ck_assert_msg(scenario_load(scen, &s, err, sizeof err), "%s", err);
    ck_assert_int_eq(counts(&s.model).total, 8190735360LL);
    /* Inline. */
    f = fopen(scen, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "{\"model\": {\"model_type\": \"llama\", " LLAMA_KEYS "}, \"gpus\": 8}\n");
    ck_assert_int_eq(fclose(f), 0);
    inputs_defaults(&s);
    ck_assert_msg(scenario_load(scen, &s, err, sizeof err), "%s", err);
    ck_assert_int_eq(s.model.d_model, 256);
    /* Saved and read back: the same model (kept inline, as no preset has its name). */
    snprintf(path, sizeof path, "%s/back.json", dir);
    ck_assert_msg(scenario_save(path, &s, err, sizeof err), "%s", err);
    struct scenario b;
    inputs_defaults(&b);
    ck_assert_msg(scenario_load(path, &b, err, sizeof err), "%s", err);
    ck_assert_int_eq(counts(&b.model).total, counts(&s.model).total);
    check_rmtree(dir);
}
END_TEST

/* A config saved among the user's presets is one: listed and found by its file's name (the
 * dashboard's model picker lists the same search path). */
START_TEST(config_as_preset)
{
    char dir[256], sub[512], path[600], cfg[4096];
    check_tmpdir(dir, sizeof dir, "hfpreset");
    snprintf(sub, sizeof sub, "%s/rooftop", dir);
    ck_assert(mkdir(sub, 0755) == 0);
    snprintf(sub, sizeof sub, "%s/rooftop/models", dir);
    ck_assert(mkdir(sub, 0755) == 0);
    snprintf(path, sizeof path, "%s/my-qwen3.json", sub);
    data_path(cfg, sizeof cfg, "Qwen3-8B");
    char *text = check_read_all(cfg);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    free(text);
    ck_assert(setenv("XDG_CONFIG_HOME", dir, 1) == 0);
    struct spec_list l;
    ck_assert(spec_list_models(&l));
    bool listed = false;
    for (size_t i = 0; i < l.count; i++)
        listed = listed || strcmp(l.ids[i], "my-qwen3") == 0;
    spec_list_free(&l);
    ck_assert(listed);
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_find_model("my-qwen3", &m, err, sizeof err), "%s", err);
    ck_assert_str_eq(m.id, "my-qwen3");
    ck_assert_int_eq(counts(&m).total, 8190735360LL);
    check_rmtree(dir);
}
END_TEST

/* rooftop import prints rooftop's model JSON; read back, it is the same model. */
START_TEST(import_round_trip)
{
    char dir[256], cfg[4096], args[8192], out[512];
    check_tmpdir(dir, sizeof dir, "hfimport");
    static const char *const dirs[] = {"DeepSeek-V3", "gpt-oss-20b", "gemma-3-4b-it", "opt-125m",
                                       "Qwen2-57B-A14B", "phi-2"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        struct model_arch m = load(dirs[i], NULL);
        data_path(cfg, sizeof cfg, dirs[i]);
        snprintf(out, sizeof out, "%s/m%zu.json", dir, i);
        /* To a file with --out, and to stdout. */
        snprintf(args, sizeof args, "import '%s' --out '%s'", cfg, out);
        struct check_run r;
        ck_assert_msg(check_run_bin(&r, args) == 0, "%s: %s", dirs[i], r.err);
        ck_assert_str_eq(r.out, "");
        check_run_free(&r);
        struct model_arch back;
        char err[SPEC_ERR_MAX];
        ck_assert_msg(spec_load_model_file(out, &back, err, sizeof err), "%s", err);
        struct param_counts a = counts(&m), b = counts(&back);
        ck_assert_int_eq(a.total, b.total);
        ck_assert_int_eq(a.active, b.active);
        ck_assert_int_eq(a.mtp, b.mtp);
        ck_assert_str_eq(back.name, m.name);
        snprintf(args, sizeof args, "import '%s'", cfg);
        ck_assert_msg(check_run_bin(&r, args) == 0, "%s: %s", dirs[i], r.err);
        ck_assert_msg(spec_parse_model(r.out, strlen(r.out), "stdout", &back, err, sizeof err),
                      "%s", err);
        ck_assert_int_eq(counts(&back).total, a.total);
        check_run_free(&r);
    }
    /* --model takes the config as the report's model. */
    struct check_run r;
    data_path(cfg, sizeof cfg, "Qwen3-8B");
    snprintf(args, sizeof args, "report --model '%s' --format json", cfg);
    ck_assert_msg(check_run_bin(&r, args) == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "8190735360") != NULL, "%s", r.out);
    check_run_free(&r);
    /* Bad input, a file or usage: one line naming the file, exit 2 as every command. */
    snprintf(out, sizeof out, "%s/bad.json", dir);
    FILE *f = fopen(out, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"model_type\": \"rwkv\"}\n", f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(args, sizeof args, "import '%s'", out);
    ck_assert_int_eq(check_run_bin(&r, args), 2);
    ck_assert_msg(strstr(r.err, "rooftop import: ") == r.err && strstr(r.err, "bad.json: model_type: "
                  "\"rwkv\" is not supported (supported: llama,") != NULL, "%s", r.err);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "import"), 2);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "import --out x.json"), 2);
    ck_assert_msg(strstr(r.err, "the file comes first") != NULL, "%s", r.err);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "import --help"), 0);
    ck_assert_msg(strstr(r.out, "deepseek_v3") != NULL, "%s", r.out);
    check_run_free(&r);
    check_rmtree(dir);
}
END_TEST

/* Any bytes: a model or one line of error, and hfconfig_read on parsed JSON the same. */
START_TEST(reader_on_odd_input)
{
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert(!hfconfig_read(NULL, NULL, &m, NULL, 0, err, sizeof err));
    ck_assert_msg(strstr(err, "must be a JSON object") != NULL, "%s", err);
    cJSON *arr = cJSON_Parse("[1]");
    ck_assert(!hfconfig_is(arr));
    ck_assert(!hfconfig_read(arr, "a.json", &m, NULL, 0, NULL, 0)); /* no room for a message */
    cJSON_Delete(arr);
    /* Huge widths are refused by the bounds, not overflowed. */
    refused("{\"model_type\": \"llama\", \"hidden_size\": 1e300}", "hidden_size", "too large");
    refused("{\"model_type\": \"llama\", \"hidden_size\": -4}", "hidden_size", "must be positive, got -4");
    refused("{\"model_type\": \"mixtral\", " LLAMA_KEYS ", \"num_key_value_heads\": 4,"
            " \"num_local_experts\": 4,"
            " \"num_experts_per_tok\": 5}", "num_experts_per_tok", "at most 4");
}
END_TEST

/* ---- the local Hugging Face cache (src/hfcache.c) ---------------------------------------- */

/* Writes text to DIR/REL, making the directories on the way. */
static void put(const char *dir, const char *rel, const char *text)
{
    char path[4096], cmd[4200];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    ck_assert_int_eq(system(cmd), 0);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    ck_assert(fputs(text, f) >= 0);
    ck_assert_int_eq(fclose(f), 0);
}

/* A cache as huggingface_hub lays it out: models--ORG--NAME/refs/main naming the revision,
 * snapshots/REV/config.json (a copy of a test config), and model.safetensors.index.json
 * beside it when index is non-NULL. */
static void cache_model(const char *hub, const char *repo, const char *dir, const char *index)
{
    char base[512], rel[640], src[4096];
    const char *slash = strchr(repo, '/');
    snprintf(base, sizeof base, "models--%.*s--%s", (int)(slash - repo), repo, slash + 1);
    snprintf(rel, sizeof rel, "%s/refs/main", base);
    put(hub, rel, "0123abcd\n");
    data_path(src, sizeof src, dir);
    char *text = check_read_all(src);
    snprintf(rel, sizeof rel, "%s/snapshots/0123abcd/config.json", base);
    put(hub, rel, text);
    free(text);
    if (index != NULL) {
        snprintf(rel, sizeof rel, "%s/snapshots/0123abcd/model.safetensors.index.json", base);
        put(hub, rel, index);
    }
}

static void env_clear(void)
{
    unsetenv("HF_HUB_CACHE");
    unsetenv("HF_HOME");
    unsetenv("XDG_CACHE_HOME");
}

/* --model ORG/NAME reads the cached config offline, found as huggingface_hub finds it:
 * HF_HUB_CACHE, else HF_HOME/hub, else XDG_CACHE_HOME/huggingface/hub, else
 * ~/.cache/huggingface/hub. The model is known by its repo id. */
START_TEST(cache_resolves_repo_id)
{
    char tmp[128], hub[256], h[256], err[SPEC_ERR_MAX];
    check_tmpdir(tmp, sizeof tmp, "hfcache");
    struct model_arch m;
    const char *old_home = getenv("HOME");
    char *home = old_home != NULL ? strdup(old_home) : NULL;
    env_clear();
    snprintf(hub, sizeof hub, "%s/home/.cache/huggingface/hub", tmp);
    cache_model(hub, "Qwen/Qwen3-8B", "Qwen3-8B", NULL);
    snprintf(h, sizeof h, "%s/home", tmp);
    setenv("HOME", h, 1);
    ck_assert_msg(spec_find_model("Qwen/Qwen3-8B", &m, err, sizeof err), "%s", err);
    ck_assert_str_eq(m.id, "Qwen/Qwen3-8B");
    ck_assert_int_eq(counts(&m).total, 8190735360LL);
    ck_assert(m.checkpoint_bytes == 0); /* no index beside it */
    /* XDG_CACHE_HOME over HOME, HF_HOME/hub over that, HF_HUB_CACHE over all: each set in
     * turn holds a different config under the same repo id. */
    static const struct {
        const char *var, *value, *hub, *dir;
        int64_t total;
    } order[] = {
        {"XDG_CACHE_HOME", "xdg", "xdg/huggingface/hub", "gpt2", 124439808LL},
        {"HF_HOME", "hfhome", "hfhome/hub", "Qwen2.5-0.5B", 494032768LL},
        {"HF_HUB_CACHE", "hubcache", "hubcache", "Llama-3.2-1B", 1235814400LL},
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        snprintf(hub, sizeof hub, "%s/%s", tmp, order[i].hub);
        cache_model(hub, "Qwen/Qwen3-8B", order[i].dir, NULL);
        snprintf(h, sizeof h, "%s/%s", tmp, order[i].value);
        setenv(order[i].var, h, 1);
        ck_assert_msg(spec_find_model("Qwen/Qwen3-8B", &m, err, sizeof err), "%s", err);
        ck_assert_int_eq(counts(&m).total, order[i].total);
    }
    /* Not downloaded: one line naming where it looked, offline. */
    ck_assert(!spec_find_model("Qwen/Qwen3-9B", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "/hubcache/models--Qwen--Qwen3-9B: not in the Hugging Face "
                         "cache") != NULL, "%s", err);
    ck_assert(strchr(err, '\n') == NULL);
    /* A ref to a revision that is not there. */
    put(hub, "models--acme--tiny/refs/main", "feedbeef");
    ck_assert(!spec_find_model("acme/tiny", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "snapshots/feedbeef/config.json: missing") != NULL, "%s", err);
    /* The dashboard's model picker lists what is cached, by repo id. */
    char **ids = NULL;
    size_t n = hfcache_list(&ids);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(ids[0], "Qwen/Qwen3-8B");
    hfcache_list_free(ids, n);
    /* Repo ids, not paths: a .json file or a deeper path is a file. */
    ck_assert(hfcache_is_repo_id("meta-llama/Llama-3.1-8B"));
    ck_assert(!hfcache_is_repo_id("specs/models/x.json") && !hfcache_is_repo_id("a/b/c") &&
              !hfcache_is_repo_id("../x") && !hfcache_is_repo_id("/x") &&
              !hfcache_is_repo_id("x"));
    env_clear();
    if (home != NULL)
        setenv("HOME", home, 1);
    free(home);
    check_rmtree(tmp);
}
END_TEST

/* The checkpoint's bytes from model.safetensors.index.json beside the config: Qwen3-8B's
 * bf16 safetensors hold 2 x 8,190,735,360 = 16,381,470,720 bytes; a total its dtype cannot
 * explain (a quantized checkpoint, or another model's config) is a warning in the report. */
START_TEST(cache_checkpoint_bytes)
{
    char tmp[128], hub[256], err[SPEC_ERR_MAX];
    check_tmpdir(tmp, sizeof tmp, "hfindex");
    env_clear();
    snprintf(hub, sizeof hub, "%s/hub", tmp);
    setenv("HF_HUB_CACHE", hub, 1);
    cache_model(hub, "Qwen/Qwen3-8B", "Qwen3-8B",
                "{\"metadata\": {\"total_size\": 16381470720}, \"weight_map\": {}}");
    cache_model(hub, "acme/quantized", "Qwen3-8B", "{\"metadata\": {\"total_size\": 5000000000}}");
    cache_model(hub, "acme/broken", "Qwen3-8B", "{\"metadata\": {\"total_size\": \"big\"}}");
    struct model_arch m;
    double per = 0;
    ck_assert_msg(spec_find_model("Qwen/Qwen3-8B", &m, err, sizeof err), "%s", err);
    ck_assert(m.checkpoint_bytes == 16381470720.0 && m.checkpoint_dtype_bytes == 2);
    ck_assert(model_checkpoint_explained(&m, &per));
    ck_assert_rel(per, 2.0, 1e-12);
    ck_assert_msg(spec_find_model("acme/quantized", &m, err, sizeof err), "%s", err);
    ck_assert(!model_checkpoint_explained(&m, &per));
    ck_assert_rel(per, 5e9 / 8190735360.0, 1e-12);
    ck_assert(!spec_find_model("acme/broken", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "model.safetensors.index.json: metadata.total_size: must be a "
                         "number, got a string") != NULL, "%s", err);

    struct check_run r;
    ck_assert_int_eq(check_run_bin(&r, "report --model Qwen/Qwen3-8B"), 0);
    ck_assert_msg(strstr(r.out, "weights 16.4 GB in the checkpoint (model.safetensors.index."
                         "json): 2 bytes a parameter counted") != NULL, "%s", r.out);
    ck_assert(strstr(r.out, "warning: the checkpoint") == NULL);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "report --model acme/quantized"), 0);
    ck_assert_msg(strstr(r.out, "warning: the checkpoint holds 5 GB (model.safetensors.index."
                         "json), 0.61 bytes a counted parameter where its torch_dtype has 2") !=
                  NULL, "%s", r.out);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "report --model acme/broken"), 2);
    ck_assert_msg(strstr(r.err, "metadata.total_size") != NULL, "%s", r.err);
    check_run_free(&r);
    env_clear();
    check_rmtree(tmp);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hfconfig");
    TCase *tc = tcase_create("released totals");
    tcase_add_loop_test(tc, released_total, 0, (int)RELEASED_COUNT);
    tcase_add_test(tc, every_type_has_a_total);
    tcase_add_test(tc, presets_agree);
    tcase_add_test(tc, conventions);
    tcase_add_test(tc, gemma3_text_config);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("reader");
    tcase_add_test(tr, errors_name_the_key);
    tcase_add_test(tr, inexpressible_refused);
    tcase_add_test(tr, layer_types_and_patterns);
    tcase_add_test(tr, class_defaults_and_unread_keys);
    tcase_add_test(tr, class_default_models);
    tcase_add_test(tr, class_default_keys);
    tcase_add_test(tr, new_type_conventions);
    tcase_add_test(tr, names);
    tcase_add_test(tr, scenario_takes_a_config);
    tcase_add_test(tr, config_as_preset);
    tcase_add_test(tr, reader_on_odd_input);
    tcase_set_timeout(tr, 60);
    suite_add_tcase(s, tr);
    TCase *ti = tcase_create("import");
    tcase_add_test(ti, import_round_trip);
    tcase_add_test(ti, cache_resolves_repo_id);
    tcase_add_test(ti, cache_checkpoint_bytes);
    tcase_set_timeout(ti, 120);
    suite_add_tcase(s, ti);
    return check_run_suite(s);
}
