/* test_presets.c - every model preset against its released parameter total, the MoE presets'
 * active counts as their makers state them, each architecture field shown to matter on the
 * preset that has it, the model picker's detail line at every width, and `rooftop list
 * models`.
 *
 * "Released total" is the safetensors total Hugging Face shows for the checkpoint (the sum of
 * its tensors' elements), quoted as the model's parameter count in public code; each row
 * names the checkpoint. Where the checkpoint holds more than the language model (a vision
 * tower, an untied copy of a tied head, fp8 scales) the row says what and the test adds
 * exactly that, computed from the released config. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "dash_harness.h"
#include "model.h"
#include "model_summary.h"
#include "spec.h"

/* What the checkpoint holds besides the model as the preset counts it. */
enum extra {
    X_NONE,      /* the checkpoint is the model */
    X_SIGLIP,    /* Gemma 3 4B/12B/27B: the SigLIP vision tower and its projector */
    X_UNTIED,    /* Qwen3 0.6B/1.7B: tie_word_embeddings true, yet lm_head.weight is stored */
    X_FP8_MTP,   /* DeepSeek-V3: the MTP module and the fp8 block scales */
    X_MTP,       /* GLM-4.5: the MTP module (layer 92 or 46 of the checkpoint), in bf16 */
};

struct released {
    const char *id;
    long long total; /* the released checkpoint's total */
    enum extra extra;
};

/* The checkpoint each total is from: Hugging Face <repo>, safetensors total. */
static const struct released table[] = {
    {"gpt2-small", 124439808LL, X_NONE},          /* openai-community/gpt2 */
    {"gpt2-medium", 354823168LL, X_NONE},         /* openai-community/gpt2-medium */
    {"gpt2-large", 774030080LL, X_NONE},          /* openai-community/gpt2-large */
    {"gpt2-xl", 1557611200LL, X_NONE},            /* openai-community/gpt2-xl */
    {"llama2-7b", 6738415616LL, X_NONE},          /* meta-llama/Llama-2-7b-hf */
    {"llama2-13b", 13015864320LL, X_NONE},        /* meta-llama/Llama-2-13b-hf */
    {"llama2-70b", 68976648192LL, X_NONE},        /* meta-llama/Llama-2-70b-hf */
    {"llama3.1-8b", 8030261248LL, X_NONE},        /* meta-llama/Llama-3.1-8B */
    {"llama3.1-70b", 70553706496LL, X_NONE},      /* meta-llama/Llama-3.1-70B */
    {"llama3.1-405b", 405853388800LL, X_NONE},    /* meta-llama/Llama-3.1-405B */
    {"llama3.2-1b", 1235814400LL, X_NONE},        /* meta-llama/Llama-3.2-1B */
    {"llama3.2-3b", 3212749824LL, X_NONE},        /* meta-llama/Llama-3.2-3B */
    {"llama3.3-70b", 70553706496LL, X_NONE},      /* meta-llama/Llama-3.3-70B-Instruct */
    {"mistral-7b", 7241732096LL, X_NONE},         /* mistralai/Mistral-7B-v0.1 */
    {"mistral-nemo-12b", 12247782400LL, X_NONE},  /* mistralai/Mistral-Nemo-Instruct-2407 */
    {"mixtral-8x7b", 46702792704LL, X_NONE},      /* mistralai/Mixtral-8x7B-v0.1 */
    {"mixtral-8x22b", 140620634112LL, X_NONE},    /* mistral-community/Mixtral-8x22B-v0.1 */
    {"qwen2.5-0.5b", 494032768LL, X_NONE},        /* Qwen/Qwen2.5-0.5B */
    {"qwen2.5-1.5b", 1543714304LL, X_NONE},       /* Qwen/Qwen2.5-1.5B */
    {"qwen2.5-3b", 3085938688LL, X_NONE},         /* Qwen/Qwen2.5-3B */
    {"qwen2.5-7b", 7615616512LL, X_NONE},         /* Qwen/Qwen2.5-7B */
    {"qwen2.5-14b", 14770033664LL, X_NONE},       /* Qwen/Qwen2.5-14B */
    {"qwen2.5-32b", 32763876352LL, X_NONE},       /* Qwen/Qwen2.5-32B */
    {"qwen2.5-72b", 72706203648LL, X_NONE},       /* Qwen/Qwen2.5-72B */
    {"qwen3-0.6b", 751632384LL, X_UNTIED},        /* Qwen/Qwen3-0.6B */
    {"qwen3-1.7b", 2031739904LL, X_UNTIED},       /* Qwen/Qwen3-1.7B */
    {"qwen3-4b", 4022468096LL, X_NONE},           /* Qwen/Qwen3-4B */
    {"qwen3-8b", 8190735360LL, X_NONE},           /* Qwen/Qwen3-8B */
    {"qwen3-14b", 14768307200LL, X_NONE},         /* Qwen/Qwen3-14B */
    {"qwen3-32b", 32762123264LL, X_NONE},         /* Qwen/Qwen3-32B */
    {"qwen3-30b-a3b", 30532122624LL, X_NONE},     /* Qwen/Qwen3-30B-A3B */
    {"qwen3-235b-a22b", 235093634560LL, X_NONE},  /* Qwen/Qwen3-235B-A22B */
    {"qwen2-57b-a14b", 57408658944LL, X_NONE},    /* Qwen/Qwen2-57B-A14B */
    {"qwen1.5-moe-a2.7b", 14315784192LL, X_NONE}, /* Qwen/Qwen1.5-MoE-A2.7B */
    {"gemma-2b", 2506172416LL, X_NONE},           /* google/gemma-2b */
    {"gemma-7b", 8537680896LL, X_NONE},           /* google/gemma-7b */
    {"gemma2-2b", 2614341888LL, X_NONE},          /* google/gemma-2-2b */
    {"gemma2-9b", 9241705984LL, X_NONE},          /* google/gemma-2-9b */
    {"gemma2-27b", 27227128320LL, X_NONE},        /* google/gemma-2-27b */
    {"gemma3-270m", 268098176LL, X_NONE},         /* google/gemma-3-270m (text only) */
    {"gemma3-1b", 999885952LL, X_NONE},           /* google/gemma-3-1b-pt (text only) */
    {"gemma3-4b", 4300079472LL, X_SIGLIP},        /* google/gemma-3-4b-it */
    {"gemma3-12b", 12187325040LL, X_SIGLIP},      /* google/gemma-3-12b-it */
    {"gemma3-27b", 27432406640LL, X_SIGLIP},      /* google/gemma-3-27b-it */
    {"olmo2-7b", 7298617344LL, X_NONE},           /* allenai/OLMo-2-1124-7B */
    {"olmo2-13b", 13716198400LL, X_NONE},         /* allenai/OLMo-2-1124-13B */
    {"olmo2-32b", 32234279936LL, X_NONE},         /* allenai/OLMo-2-0325-32B */
    {"phi2", 2779683840LL, X_NONE},               /* microsoft/phi-2 */
    {"phi3-mini", 3821079552LL, X_NONE},          /* microsoft/Phi-3-mini-4k-instruct */
    {"phi3-medium", 13960238080LL, X_NONE},       /* microsoft/Phi-3-medium-4k-instruct */
    {"phi4", 14659507200LL, X_NONE},              /* microsoft/phi-4 */
    {"phi4-mini", 3836021760LL, X_NONE},          /* microsoft/Phi-4-mini-instruct */
    {"pythia-1b", 1011781632LL, X_NONE},          /* EleutherAI/pythia-1b */
    {"pythia-6.9b", 6857302016LL, X_NONE},        /* EleutherAI/pythia-6.9b */
    {"pythia-12b", 11846072320LL, X_NONE},        /* EleutherAI/pythia-12b */
    {"deepseek-v2-lite", 15706484224LL, X_NONE},  /* deepseek-ai/DeepSeek-V2-Lite */
    {"deepseek-v2", 235741434880LL, X_NONE},      /* deepseek-ai/DeepSeek-V2 */
    {"deepseek-v3", 684531386000LL, X_FP8_MTP},   /* deepseek-ai/DeepSeek-V3 */
    {"glm4.5", 358337791296LL, X_MTP},            /* zai-org/GLM-4.5 */
    {"glm4.5-air", 110468824832LL, X_MTP},        /* zai-org/GLM-4.5-Air */
    {"gpt-oss-20b", 20914757184LL, X_NONE},       /* openai/gpt-oss-20b */
    {"gpt-oss-120b", 116829156672LL, X_NONE},     /* openai/gpt-oss-120b */
};
#define TABLE_ROWS (sizeof table / sizeof table[0])

/* Presets of models whose weights were never released: no checkpoint total to compare (their
 * counts follow the papers' shapes; test_core and test_spec check what those papers state). */
static const char *const unreleased[] = {
    "gpt3-small", "gpt3-medium", "gpt3-large", "gpt3-xl",   "gpt3-2.7b",
    "gpt3-6.7b",  "gpt3-13b",    "gpt3-175b",  "chinchilla",
};
#define UNRELEASED (sizeof unreleased / sizeof unreleased[0])

static struct model_arch load(const char *id)
{
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_find_model(id, &m, err, sizeof err), "%s: %s", id, err);
    return m;
}

static struct param_counts counts(const struct model_arch *m)
{
    char err[256] = "";
    ck_assert_msg(model_validate(m, err, (int)sizeof err), "%s: %s", m->id, err);
    struct param_counts pc;
    model_params(m, &pc);
    return pc;
}

static int64_t total(const struct model_arch *m)
{
    return counts(m).total;
}

/*
 * Gemma 3's vision tower, from the vision_config of google/gemma-3-4b-it (the same in 12b
 * and 27b): SigLIP with hidden 1152, 27 layers, MLP 4304, patch 14 on 896-pixel images (64 x
 * 64 = 4096 positions), vision_use_head false. Its tensors: the patch convolution (3 x 14 x 14
 * x 1152 and a bias), the position embedding, per layer q, k, v, o (1152 x 1152 and a bias
 * each), two LayerNorms (weight and bias), fc1 and fc2 (with biases), and the post LayerNorm.
 * Then the projector into the language model: mm_input_projection_weight 1152 x d_model and
 * mm_soft_emb_norm (1152).
 */
static int64_t gemma3_vision(int64_t d_model)
{
    const int64_t v = 1152, mlp = 4304, layers = 27, patch = 14, positions = (896 / 14) * (896 / 14);
    const int64_t embed = 3 * patch * patch * v + v + positions * v;
    const int64_t layer = 4 * (v * v + v) + 2 * 2 * v + (v * mlp + mlp) + (mlp * v + v);
    const int64_t tower = embed + layers * layer + 2 * v;
    return tower + v * d_model + v;
}

/*
 * DeepSeek-V3's checkpoint is fp8 with one fp32 scale (weight_scale_inv) per 128 x 128 block
 * of each quantized linear weight: q_a, q_b, kv_a, kv_b and o in attention, gate, up and down
 * in every MLP (routed and shared experts), in the 61 layers and the MTP module's layer. The
 * embeddings, the heads, norms, routers and the MTP's eh_proj stay bf16 (DeepSeek-V3's
 * inference/convert.py and the checkpoint's tensor list).
 */
static int64_t blocks(int64_t rows, int64_t cols)
{
    return ((rows + 127) / 128) * ((cols + 127) / 128);
}

static int64_t deepseek_v3_scales(const struct model_arch *m)
{
    const int64_t h = m->d_model, a = m->heads, q = m->q_lora_rank, kv = m->kv_lora_rank;
    const int64_t qk = m->qk_nope_head_dim + m->qk_rope_head_dim;
    const int64_t attn = blocks(q, h) + blocks(a * qk, q) + blocks(kv + m->qk_rope_head_dim, h) +
                         blocks(a * (m->qk_nope_head_dim + m->v_head_dim), kv) +
                         blocks(h, a * m->v_head_dim);
    const int64_t dense = 2 * blocks(m->ffn, h) + blocks(h, m->ffn);
    const int64_t fe = m->moe_ffn;
    const int64_t expert = 2 * blocks(fe, h) + blocks(h, fe);
    const int64_t moe = (m->experts + m->shared_experts) * expert;
    const int64_t moe_layers = m->layers - m->dense_layers + m->mtp_layers;
    return m->dense_layers * (attn + dense) + moe_layers * (attn + moe);
}

/* Every preset's count against its checkpoint, exactly. */
START_TEST(preset_equals_released_total)
{
    const struct released *r = &table[_i];
    struct model_arch m = load(r->id);
    struct param_counts pc = counts(&m);
    int64_t got = pc.total;
    switch (r->extra) {
    case X_NONE:
        break;
    case X_SIGLIP:
        got += gemma3_vision(m.d_model);
        break;
    case X_UNTIED:
        ck_assert(m.tied_embeddings);
        got += m.vocab * m.d_model;
        break;
    case X_FP8_MTP:
        got += pc.mtp + deepseek_v3_scales(&m);
        break;
    case X_MTP:
        ck_assert(pc.mtp > 0);
        got += pc.mtp;
        break;
    }
    ck_assert_msg(got == r->total, "%s: %lld, released %lld (%+lld)", r->id, (long long)got,
                  r->total, (long long)got - r->total);
}
END_TEST

/* The parts the checkpoints hold beyond the model, on their own, against what is stated. */
START_TEST(released_extras)
{
    /* DeepSeek-V3 (its README): "671B of the Main Model weights and 14B of the Multi-Token
     * Prediction (MTP) Module weights". The main model exactly: 671,026,419,200, as the
     * checkpoint's layers 0-60 sum. */
    struct model_arch v3 = load("deepseek-v3");
    struct param_counts pc = counts(&v3);
    ck_assert_int_eq(pc.total, 671026419200LL);
    ck_assert_int_eq(llround((double)pc.mtp / 1e9), 13); /* 13.46B: "14B" rounds it up */
    ck_assert(pc.mtp > 13e9 && pc.mtp < 14e9);
    /* Qwen3-0.6B as transformers counts it (the tied head once): 596,049,920, the figure
     * model.num_parameters() prints in public code. */
    struct model_arch q = load("qwen3-0.6b");
    ck_assert_int_eq(total(&q), 596049920LL);
    /* Gemma 3 4B, 12B and 27B ship the same SigLIP tower: each release less its language
     * model and its projector (1152 x d_model + 1152) leaves the same 416,866,032, which is
     * what gemma3_vision counts from the vision_config. */
    static const struct {
        const char *id;
        long long released;
    } gemma[] = {{"gemma3-4b", 4300079472LL}, {"gemma3-12b", 12187325040LL},
                 {"gemma3-27b", 27432406640LL}};
    for (size_t i = 0; i < sizeof gemma / sizeof gemma[0]; i++) {
        struct model_arch g = load(gemma[i].id);
        ck_assert_int_eq(gemma[i].released - total(&g) - (1152LL * g.d_model + 1152), 416866032LL);
        ck_assert_int_eq(gemma3_vision(g.d_model) - (1152LL * g.d_model + 1152), 416866032LL);
    }
}
END_TEST

/* Every shipped preset has a released figure here, or is a model never released. */
START_TEST(every_preset_is_covered)
{
    struct spec_list l;
    ck_assert(spec_list_models(&l));
    ck_assert_uint_eq(l.count, TABLE_ROWS + UNRELEASED);
    for (size_t i = 0; i < l.count; i++) {
        bool found = false;
        for (size_t k = 0; k < TABLE_ROWS && !found; k++)
            found = strcmp(table[k].id, l.ids[i]) == 0;
        for (size_t k = 0; k < UNRELEASED && !found; k++)
            found = strcmp(unreleased[k], l.ids[i]) == 0;
        ck_assert_msg(found, "%s: no released total in test_presets", l.ids[i]);
    }
    spec_list_free(&l);
}
END_TEST

/* Every new preset says where it comes from. */
START_TEST(presets_name_their_source)
{
    struct model_arch m;
    struct spec_model_meta meta;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_find_model_meta(table[_i].id, &m, &meta, err, sizeof err), "%s", err);
    ck_assert_msg(meta.source[0] != '\0', "%s has no source", table[_i].id);
}
END_TEST

/* Rounds v to the digits a maker states ("5.13B": 2 decimals of a billion). */
static double round_to(double v, double unit)
{
    return round(v / unit) * unit;
}

/*
 * Active parameters per token as each maker states them. rooftop's active count includes
 * the input embedding and the LM head; makers differ on the embedding (a lookup, no
 * matmul), so each check names the convention its figure follows.
 */
START_TEST(moe_active_as_stated)
{
    struct model_arch m;
    struct param_counts pc;

    /* OpenAI, gpt-oss model card, Table 1: active 3.61B (20b) and 5.13B (120b), counting the
     * unembedding but not the embedding. */
    m = load("gpt-oss-20b");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)(pc.active - pc.embedding), 1e7), 3.61e9, 1);
    m = load("gpt-oss-120b");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)(pc.active - pc.embedding), 1e7), 5.13e9, 1);

    /* DeepSeek-V3 paper (abstract): "37B activated", the main model without the embedding
     * (36.6B; with it 37.6B, which would round to 38B). */
    m = load("deepseek-v3");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)(pc.active - pc.embedding), 1e9), 37e9, 1);
    ck_assert_double_eq_tol(round_to((double)pc.active, 1e9), 38e9, 1);
    /* DeepSeek-V2 paper: 21B activated (20.9B without the embedding, 21.4B with). */
    m = load("deepseek-v2");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)pc.active, 1e9), 21e9, 1);

    /* Zhipu AI: GLM-4.5 "355B total, 32B active", GLM-4.5-Air "106B total, 12B active":
     * the active counts without the embedding and the output head (32.1B and 12.2B). */
    m = load("glm4.5");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)(pc.active - pc.embedding - pc.lm_head), 1e9), 32e9, 1);
    m = load("glm4.5-air");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)(pc.active - pc.embedding - pc.lm_head), 1e9), 12e9, 1);
    ck_assert_int_eq(pc.total / 1000000000, 106);

    /* Mistral AI: Mixtral 8x7B "12.9B active", 8x22B "39B active": everything counted. */
    m = load("mixtral-8x7b");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)pc.active, 1e8), 12.9e9, 1);
    m = load("mixtral-8x22b");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)pc.active, 1e9), 39e9, 1);

    /* Qwen model cards: Qwen3-235B-A22B 22B activated, Qwen2-57B-A14B 14B, Qwen1.5-MoE-A2.7B
     * 2.7B, everything counted. Qwen3-30B-A3B's "3.3B activated" is 3.35B cut, not rounded. */
    m = load("qwen3-235b-a22b");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)pc.active, 1e9), 22e9, 1);
    m = load("qwen2-57b-a14b");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)pc.active, 1e9), 14e9, 1);
    m = load("qwen1.5-moe-a2.7b");
    pc = counts(&m);
    ck_assert_double_eq_tol(round_to((double)pc.active, 1e8), 2.7e9, 1);
    m = load("qwen3-30b-a3b");
    pc = counts(&m);
    ck_assert_int_eq(pc.active / 100000000, 33);
}
END_TEST

/* Each architecture field, turned off on a preset that has it, changes the count by exactly
 * that field's parameters (or, for a field that is no parameter, only what it should). */
START_TEST(fields_matter_on_presets)
{
    struct model_arch m, off;

    /* gpt-oss-20b: a sink logit per head and layer; a router bias per expert and layer;
     * biases on q, k, v (64 x 64 + 2 x 8 x 64) and o (2880), and on each expert's gate_up
     * (2 x 2880) and down (2880). */
    m = load("gpt-oss-20b");
    off = m;
    off.attn_sinks = false;
    ck_assert_int_eq(total(&m) - total(&off), 24 * 64);
    off = m;
    off.router_bias = false;
    ck_assert_int_eq(total(&m) - total(&off), 24 * 32);
    off = m;
    off.bias = false;
    ck_assert_int_eq(total(&m) - total(&off), 24 * ((64 * 64 + 2 * 8 * 64 + 2880) + 32 * 3 * 2880));
    /* The window is no parameter: every other layer local (Gemma 2 / gpt-oss layer_types). */
    off = m;
    off.sliding_window = 0;
    ck_assert_int_eq(total(&m), total(&off));
    ck_assert_int_eq(model_local_layers(&m), 12);
    ck_assert_int_eq(model_local_layers(&off), 0);

    /* Gemma 2 9B: head_dim 256, not 3584 / 16 = 224: q and o are 16 heads wide, k and v 8. */
    m = load("gemma2-9b");
    off = m;
    off.head_dim = 0;
    ck_assert_int_eq(total(&m) - total(&off), 42LL * 3584 * (256 - 224) * (16 + 8 + 8 + 16));
    /* Sandwich norms: two more RMSNorms (3584) a layer than pre-norm. */
    off = m;
    off.norm_place = NORM_PRE;
    ck_assert_int_eq(total(&m) - total(&off), 42LL * 2 * 3584);
    /* GeGLU: the gate matrix, 3584 x 14336 a layer. */
    off = m;
    off.mlp = MLP_GELU;
    ck_assert_int_eq(total(&m) - total(&off), 42LL * 3584 * 14336);

    /* Gemma 3 27B: QK-norm per head (two weights of head_dim 128); every 6th layer global,
     * so 52 of 62 local. */
    m = load("gemma3-27b");
    off = m;
    off.qk_norm = QK_NORM_NONE;
    ck_assert_int_eq(total(&m) - total(&off), 62 * 2 * 128);
    ck_assert_int_eq(model_local_layers(&m), 52);

    /* OLMo 2 7B: QK-norm over the whole q and k projections (4096 each); norms after
     * attention and MLP: as many as before them. */
    m = load("olmo2-7b");
    off = m;
    off.qk_norm = QK_NORM_NONE;
    ck_assert_int_eq(total(&m) - total(&off), 32 * (4096 + 4096));
    off = m;
    off.norm_place = NORM_PRE;
    ck_assert_int_eq(total(&m), total(&off));
    /* OLMo 2 32B has GQA: k's norm is 8 x 128 wide. */
    m = load("olmo2-32b");
    off = m;
    off.qk_norm = QK_NORM_NONE;
    ck_assert_int_eq(total(&m) - total(&off), 64 * (5120 + 8 * 128));

    /* Qwen2-57B-A14B: the shared expert is 20480 wide, not the routed 2560, and has a gate
     * (3584 -> 1). */
    m = load("qwen2-57b-a14b");
    off = m;
    off.shared_ffn = 0;
    ck_assert_int_eq(total(&m) - total(&off), 28LL * 3 * 3584 * (20480 - 2560));
    off = m;
    off.shared_gate = false;
    ck_assert_int_eq(total(&m) - total(&off), 28 * 3584);

    /* DeepSeek-V3: the router's e_score_correction_bias (256 a MoE layer); MTP apart from the
     * total; q compressed to rank 1536 (q_a, its norm, q_b) instead of a full q_proj. */
    m = load("deepseek-v3");
    off = m;
    off.router_bias = false;
    ck_assert_int_eq(total(&m) - total(&off), 58 * 256);
    off = m;
    off.mtp_layers = 0;
    ck_assert_int_eq(total(&m), total(&off));
    ck_assert(counts(&m).mtp > 0 && counts(&off).mtp == 0);
    off = m;
    off.q_lora_rank = 0;
    const int64_t qw = 128 * (128 + 64);
    ck_assert_int_eq(total(&m) - total(&off),
                     61LL * (7168 * 1536 + 1536 + 1536 * qw - 7168 * qw));

    /* Phi-2: one LayerNorm (weight and bias, 2560) for attention and MLP side by side; a
     * bias on the LM head (51200). Pythia: two norms, side by side, as many as in sequence. */
    m = load("phi2");
    off = m;
    off.block = BLOCK_PARALLEL;
    ck_assert_int_eq(total(&off) - total(&m), 32 * 2 * 2560);
    off = m;
    off.lm_head_bias = false;
    ck_assert_int_eq(total(&m) - total(&off), 51200);
    m = load("pythia-6.9b");
    off = m;
    off.block = BLOCK_SEQUENTIAL;
    ck_assert_int_eq(total(&m), total(&off));

    /* Llama 3.2 1B: the tied head saves 128256 x 2048. */
    m = load("llama3.2-1b");
    off = m;
    off.tied_embeddings = false;
    ck_assert_int_eq(total(&off) - total(&m), 128256LL * 2048);

    /* Mistral 7B v0.1: a 4096-token window on every layer (sliding_window 4096, no pattern). */
    m = load("mistral-7b");
    ck_assert_int_eq(m.sliding_window, 4096);
    ck_assert_int_eq(model_local_layers(&m), 32);
}
END_TEST

/* ---- the picker's detail line -------------------------------------------------------- */

/* Qwen3-8B and DeepSeek-V3 at full width, word for word. */
START_TEST(summary_full_lines)
{
    char buf[512];
    struct model_arch m = load("qwen3-8b");
    int w = model_summary_line(&m, 400, "·", "×", buf, sizeof buf);
    ck_assert_str_eq(buf, "36 layers · d 4096 · 32/8 heads × 128 · swiglu ffn 12288 · rmsnorm, "
                          "QK-norm per head · vocab 151936 · 8.19B");
    ck_assert_int_eq(w, model_summary_width(buf));
    m = load("deepseek-v3");
    model_summary_line(&m, 400, "·", "×", buf, sizeof buf);
    ck_assert_str_eq(buf, "61 layers · d 7168 · 128 heads, MLA kv 512 q 1536 · swiglu, dense ffn "
                          "18432 · rmsnorm · 256 experts × 2048 top-8 + 1 shared, router bias, "
                          "first 3 dense · vocab 129280 · 671B, 37.6B active (+13.5B MTP)");
    m = load("gemma2-27b");
    model_summary_line(&m, 400, ".", "x", buf, sizeof buf);
    ck_assert_str_eq(buf, "46 layers . d 4608 . 32/16 heads x 128 . geglu ffn 36864 . rmsnorm "
                          "sandwich . window 4096, every 2nd global . tied . vocab 256000 . 27.2B");
    m = load("qwen2-57b-a14b");
    model_summary_line(&m, 400, "·", "×", buf, sizeof buf);
    ck_assert_str_eq(buf, "28 layers · d 3584 · 28/4 heads × 128 · swiglu · rmsnorm · 64 experts "
                          "× 2560 top-8 + 1 shared × 20480 gated · QKV bias · vocab 151936 · "
                          "57.4B, 14.2B active");
}
END_TEST

/* Whether the line full has a part (between " · ") that is part, or starts with part's
 * first word (up to a space or comma). */
static bool has_part(const char *full, const char *part)
{
    const size_t n = strlen(part), first = strcspn(part, " ,");
    for (const char *p = full;;) {
        const char *end = strstr(p, " · ");
        size_t whole = end ? (size_t)(end - p) : strlen(p), word = strcspn(p, " ,");
        if (word > whole)
            word = whole;
        if ((whole == n && strncmp(p, part, n) == 0) ||
            (word == first && strncmp(p, part, word) == 0))
            return true;
        if (!end)
            return false;
        p = end + strlen(" · ");
    }
}

/* Every preset at every width from 0 to 200: never wider than asked, the width it returns is
 * the line's, parts whole (each dot-separated part is one of the model's full or short
 * forms, so no part is cut) once the layers fit, the layers always first, and a wider box
 * never shows less. */
START_TEST(summary_fits_every_width)
{
    struct spec_list l;
    ck_assert(spec_list_models(&l));
    /* An empty list would pass every check below: the shipped presets must be there. */
    ck_assert_uint_ge(l.count, 60);
    for (size_t i = 0; i < l.count; i++) {
        struct model_arch m = load(l.ids[i]);
        char full[512];
        model_summary_line(&m, 1000, "·", "×", full, sizeof full);
        int prev_parts = 0;
        for (int width = 0; width <= 200; width++) {
            char buf[512];
            int w = model_summary_line(&m, width, "·", "×", buf, sizeof buf);
            REQUIRE(w <= width && w == model_summary_width(buf), "%s at %d: %d wide: %s",
                    l.ids[i], width, model_summary_width(buf), buf);
            char layers[32];
            snprintf(layers, sizeof layers, "%lldL", (long long)m.layers);
            if (width < (int)strlen(layers))
                continue; /* cut at a character: the only case a part is cut */
            REQUIRE(strncmp(buf, layers, strlen(layers)) == 0 ||
                        strncmp(buf, full, strcspn(full, " ")) == 0,
                    "%s at %d: %s", l.ids[i], width, buf);
            int parts = 1;
            for (const char *p = buf; (p = strstr(p, " · ")) != NULL; p += 3)
                parts++;
            REQUIRE(parts >= prev_parts, "%s: %d parts at width %d, %d before", l.ids[i], parts,
                    width, prev_parts);
            prev_parts = parts;
            /* Every part shown is one of the full line's parts or a short form of one (the
             * same first word: "128 experts top-4" for "128 experts × 2048 top-8, ..."),
             * never a part cut short ("rmsno"). */
            char copy[512];
            snprintf(copy, sizeof copy, "%s", buf);
            for (char *part = copy, *next; part; part = next) {
                next = strstr(part, " · ");
                if (next) {
                    *next = '\0';
                    next += strlen(" · ");
                }
                REQUIRE(strcmp(part, layers) == 0 || has_part(full, part),
                        "%s at %d: part \"%s\" is not the model's", l.ids[i], width, part);
            }
            REQUIRE(width < 60 || strstr(buf, " · ") != NULL, "%s at %d: %s", l.ids[i], width, buf);
        }
        /* At 200 columns most lines are whole. */
        if (model_summary_width(full) <= 200) {
            char buf[512];
            model_summary_line(&m, 200, "·", "×", buf, sizeof buf);
            ck_assert_str_eq(buf, full);
        }
    }
    spec_list_free(&l);
}
END_TEST

/* What a narrow picker keeps, and ASCII separators. */
START_TEST(summary_narrow)
{
    char buf[256];
    struct model_arch m = load("gpt-oss-120b");
    model_summary_line(&m, 76, ".", "x", buf, sizeof buf);
    ck_assert_str_eq(buf, "36L . d 2880 . 64/8 heads . swiglu . rmsnorm . 128 experts top-4 . 117B");
    for (const char *p = buf; *p; p++)
        ck_assert((unsigned char)*p < 0x80);
    model_summary_line(&m, 30, "·", "×", buf, sizeof buf);
    ck_assert_str_eq(buf, "36L · d 2880 · 64/8 heads");
    model_summary_line(&m, 3, "·", "×", buf, sizeof buf);
    ck_assert_str_eq(buf, "36L");
    ck_assert_int_eq(model_summary_line(&m, 2, "·", "×", buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "36");
    ck_assert_int_eq(model_summary_line(&m, 0, "·", "×", buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    /* A small buffer holds whole characters only. */
    char small[6];
    model_summary_line(&m, 200, "·", "×", small, sizeof small);
    ck_assert_str_eq(small, "36 la");
}
END_TEST

/* The dashboard's model picker shows the highlighted model's line, at 120x40 and 80x24. */
START_TEST(picker_detail_line)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "mdeepseek-v3");
    ck_assert_int_eq(h.d.mode, DM_PICK_MODEL);
    ck_assert_str_eq(h.d.presets.models[h.d.pick].arch.id, "deepseek-v3");
    ck_assert_screen_has(&h, "61 layers · d 7168 · 128 heads, MLA kv 512 q 1536");
    ck_assert_screen_has(&h, "256 experts top-8 + shared");
    harness_keys(&h, "<BS><BS><BS><BS><BS><BS><BS><BS><BS><BS><BS>olmo2-7");
    ck_assert_str_eq(h.d.presets.models[h.d.pick].arch.id, "olmo2-7b");
    ck_assert_screen_has(&h, "rmsnorm after, QK-norm full");
    harness_keys(&h, "<Esc>");
    ck_assert(!screen_contains(&h.s, "rmsnorm after"));
    harness_stop(&h);

    harness_start(&h, 80, 24, true, false);
    harness_keys(&h, "mgemma3-27b");
    ck_assert_screen_has(&h, "62L . d 5376 . 32/16 heads . geglu . rmsnorm, QK-norm . window 1024 . 27B");
    harness_keys(&h, "<Esc>g");
    ck_assert_int_eq(h.d.mode, DM_PICK_GPU);
    ck_assert(!screen_contains(&h.s, "62L"));
    harness_stop(&h);
}
END_TEST

/* `rooftop list models`: the new presets with their exact counts. */
START_TEST(list_models_shows_presets)
{
    struct check_run r;
    ck_assert_int_eq(check_run_bin(&r, "list models"), 0);
    static const char *const want[] = {
        "\ngpt-oss-120b ",      " 117B (116829156672)   5.71B\n", "\ndeepseek-v3 ",
        " 671B (671026419200)   37.6B\n", "\nqwen3-8b ", " 8.19B (8190735360)       -\n",
        "\ngemma2-9b ", " 9.24B (9241705984)       -\n", "\nqwen1.5-moe-a2.7b ",
        " 14.3B (14315784192)   2.69B\n", "\nolmo2-13b ", " 13.7B (13716198400)       -\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(r.out, want[i]) != NULL, "list models lacks \"%s\"", want[i]);
    /* One line per preset and a header, every column aligned under its heading. */
    int lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, (int)(TABLE_ROWS + UNRELEASED) + 1);
    const char *head = r.out, *row = strstr(r.out, "\nqwen1.5-moe-a2.7b ") + 1;
    ck_assert_int_eq((int)(strstr(head, "active\n") - head), (int)(strchr(row, '\n') - row) - 6);
    check_run_free(&r);
}
END_TEST

static Suite *presets_suite(void)
{
    Suite *s = suite_create("presets");
    TCase *tc = tcase_create("counts");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, preset_equals_released_total, 0, (int)TABLE_ROWS);
    tcase_add_test(tc, released_extras);
    tcase_add_test(tc, every_preset_is_covered);
    tcase_add_loop_test(tc, presets_name_their_source, 0, (int)TABLE_ROWS);
    tcase_add_test(tc, moe_active_as_stated);
    tcase_add_test(tc, fields_matter_on_presets);
    suite_add_tcase(s, tc);
    tc = tcase_create("picker");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, summary_full_lines);
    tcase_add_test(tc, summary_fits_every_width);
    tcase_add_test(tc, summary_narrow);
    tcase_add_test(tc, picker_detail_line);
    tcase_add_test(tc, list_models_shows_presets);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    /* The shipped presets only: not the user's own. */
    if (setenv("XDG_CONFIG_HOME", "/nonexistent-rooftop-test", 1) != 0)
        return EXIT_FAILURE;
    return check_run_suite(presets_suite());
}
