/* test_arch.c - the architecture fields of 2024-2026 models, each against a released total.
 *
 * Every model here is built field by field from its released config.json, and its count must
 * equal the released parameter total exactly: the safetensors "total" that Hugging Face shows
 * for the checkpoint (quoted in public code as the model's parameter count). Each test also
 * turns its field off and checks the count drops by exactly that field's parameters, so a
 * field that stopped counting fails here even where another error could hide it. */
#include <check.h>
#include <string.h>

#include "check_util.h"
#include "flops.h"
#include "inputs.h"
#include "memory.h"
#include "model.h"
#include "scenario.h"
#include "spec.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static struct model_arch base(int64_t L, int64_t h, int64_t a, int64_t k, int64_t f, int64_t V)
{
    struct model_arch m;
    memset(&m, 0, sizeof m);
    m.layers = L;
    m.d_model = h;
    m.heads = a;
    m.kv_heads = k;
    m.ffn = f;
    m.vocab = V;
    m.context = 4096;
    m.mlp = MLP_SWIGLU;
    m.norm = NORM_RMSNORM;
    m.positional = POS_ROPE;
    return m;
}

static struct param_counts count(const struct model_arch *m)
{
    char err[256] = "";
    ck_assert_msg(model_validate(m, err, (int)sizeof err), "%s", err);
    struct param_counts pc;
    model_params(m, &pc);
    return pc;
}

static int64_t total(const struct model_arch *m)
{
    return count(m).total;
}

/* gpt-oss-20b (openai/gpt-oss-20b config.json): head_dim 64 with d_model 2880 (64 x 64 =
 * 4096 != 2880), attention biases on q, k, v and o, a sink logit per head, 32 experts top-4
 * with biases on gate_up and down, a router with a bias, untied. Released: 20,914,757,184. */
static struct model_arch gpt_oss(int64_t layers, int64_t experts)
{
    struct model_arch m = base(layers, 2880, 64, 8, 2880, 201088);
    m.head_dim = 64;
    m.bias = true;
    m.attn_sinks = true;
    m.experts = experts;
    m.experts_active = 4;
    m.router_bias = true;
    m.sliding_window = 128;
    m.sliding_window_pattern = 2;
    m.context = 131072;
    return m;
}

START_TEST(gpt_oss_sinks_biases_router_bias)
{
    struct model_arch m = gpt_oss(24, 32);
    ck_assert_int_eq(total(&m), 20914757184LL);
    /* gpt-oss-120b: 36 layers, 128 experts. Released: 116,829,156,672. */
    struct model_arch big = gpt_oss(36, 128);
    ck_assert_int_eq(total(&big), 116829156672LL);

    struct model_arch off = m;
    off.attn_sinks = false;
    ck_assert_int_eq(total(&m) - total(&off), 24 * 64);          /* a logit per head */
    off = m;
    off.router_bias = false;
    ck_assert_int_eq(total(&m) - total(&off), 24 * 32);          /* a bias per expert */
    /* Its head_dim is not d_model / heads: Q and O are 2880 x 4096, not 2880 x 2880. */
    struct attn_dims ad;
    model_attn_dims(&m, &ad);
    ck_assert_int_eq(ad.q_width, 4096);
    ck_assert_int_eq(ad.w_out, 4096LL * 2880);
    /* Alternating sliding window: 12 of 24 layers local. */
    ck_assert_int_eq(model_local_layers(&m), 12);
}
END_TEST

/* Gemma-2-9B (google/gemma-2-9b config.json): GeGLU (gelu_pytorch_tanh gate), head_dim 256
 * with 16 heads over d_model 3584, sandwich RMSNorms (four a layer), tied embeddings.
 * Released: 9,241,705,984. */
START_TEST(gemma2_sandwich_geglu_head_dim)
{
    struct model_arch m = base(42, 3584, 16, 8, 14336, 256000);
    m.head_dim = 256;
    m.mlp = MLP_GEGLU;
    m.norm_place = NORM_SANDWICH;
    m.tied_embeddings = true;
    m.sliding_window = 4096;
    m.sliding_window_pattern = 2;
    ck_assert_int_eq(total(&m), 9241705984LL);
    ck_assert(model_mlp_gated(MLP_GEGLU) && model_mlp_gated(MLP_SWIGLU));
    ck_assert(!model_mlp_gated(MLP_GELU) && !model_mlp_gated(MLP_RELU) && !model_mlp_gated(MLP_RELU2));
    struct model_arch pre = m;
    pre.norm_place = NORM_PRE;
    ck_assert_int_eq(total(&m) - total(&pre), 42LL * 2 * 3584); /* two more norms a layer */
}
END_TEST

/* OLMo-2-1124-7B (allenai config.json): norms after attention and MLP (post), QK-norm over
 * the whole projections (q_norm 4096, k_norm 4096 with 32 KV heads), untied.
 * Released: 7,298,617,344. */
START_TEST(olmo2_post_norm_full_qk_norm)
{
    struct model_arch m = base(32, 4096, 32, 32, 11008, 100352);
    m.norm_place = NORM_POST;
    m.qk_norm = QK_NORM_FULL;
    ck_assert_int_eq(total(&m), 7298617344LL);
    struct model_arch off = m;
    off.qk_norm = QK_NORM_NONE;
    ck_assert_int_eq(total(&m) - total(&off), 32LL * (4096 + 4096));
    /* Post-norm has as many norms as pre-norm. */
    off = m;
    off.norm_place = NORM_PRE;
    ck_assert_int_eq(total(&off), total(&m));
}
END_TEST

/* Qwen3-8B (Qwen/Qwen3-8B config.json): head_dim 128, QK-norm per head (one weight of 128 for
 * Q and one for K, shared by the heads), untied. Released: 8,190,735,360. */
START_TEST(qwen3_qk_norm_per_head)
{
    struct model_arch m = base(36, 4096, 32, 8, 12288, 151936);
    m.head_dim = 128;
    m.qk_norm = QK_NORM_HEAD;
    ck_assert_int_eq(total(&m), 8190735360LL);
    struct model_arch off = m;
    off.qk_norm = QK_NORM_NONE;
    ck_assert_int_eq(total(&m) - total(&off), 36LL * 2 * 128);
}
END_TEST

/* Qwen2-57B-A14B (Qwen/Qwen2-57B-A14B config.json): 64 experts of width 2560, top-8, and one
 * shared expert of its own width 20480 behind a sigmoid gate (h -> 1), biases on Q, K, V.
 * Released: 57,408,658,944. */
START_TEST(qwen2_moe_shared_expert_width_and_gate)
{
    struct model_arch m = base(28, 3584, 28, 4, 18944, 151936);
    m.qkv_bias = true;
    m.experts = 64;
    m.experts_active = 8;
    m.moe_ffn = 2560;
    m.shared_experts = 1;
    m.shared_ffn = 20480;
    m.shared_gate = true;
    struct param_counts pc = count(&m);
    ck_assert_int_eq(pc.total, 57408658944LL);
    /* Active: the 8 routed experts and the shared one in every layer. */
    const int64_t expert = 3LL * 3584 * 2560, shared = 3LL * 3584 * 20480 + 3584;
    ck_assert_int_eq(pc.total - pc.active, 28 * (64 - 8) * expert);
    struct model_arch off = m;
    off.shared_gate = false;
    ck_assert_int_eq(pc.total - total(&off), 28LL * 3584);
    off = m;
    off.shared_ffn = 0; /* the shared expert at the routed width */
    ck_assert_int_eq(pc.total - total(&off), 28 * (shared - 3584 - expert));
    ck_assert(model_experts_visited(&m) == 8.0 + 8.0); /* 20480 / 2560 = 8 expert widths */
}
END_TEST

/* DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json): MLA (q_lora_rank 1536, kv_lora_rank 512,
 * qk_nope 128, qk_rope 64, v 128), 3 dense layers then 58 MoE layers of 256 experts of width
 * 2048, top-8, one shared expert, the router's e_score_correction_bias, one MTP module.
 * Released: the main model is 671,026,419,200 (the README's "671B of the Main Model weights
 * and 14B of the MTP Module"). */
START_TEST(deepseek_v3_mtp_apart)
{
    struct model_arch m = base(61, 7168, 128, 128, 18432, 129280);
    m.kv_lora_rank = 512;
    m.q_lora_rank = 1536;
    m.qk_nope_head_dim = 128;
    m.qk_rope_head_dim = 64;
    m.v_head_dim = 128;
    m.experts = 256;
    m.experts_active = 8;
    m.shared_experts = 1;
    m.moe_ffn = 2048;
    m.dense_layers = 3;
    m.router_bias = true;
    m.mtp_layers = 1;
    struct param_counts pc = count(&m);
    ck_assert_int_eq(pc.total, 671026419200LL);
    /* The MTP module as the checkpoint stores it (layer 61): enorm, hnorm, eh_proj 2h x h,
     * one MoE layer (per_layer), shared_head.norm, and its copies of the embedding and head:
     * 13,463,426,304 (the README rounds it to 14B; 671B + 14B is its "685B"). */
    ck_assert_int_eq(pc.per_layer, 11507286272LL);
    ck_assert_int_eq(pc.mtp, 3LL * 7168 + 2LL * 7168 * 7168 + 11507286272LL + 2LL * 129280 * 7168);
    ck_assert_int_eq(pc.mtp, 13463426304LL);
    struct model_arch off = m;
    off.mtp_layers = 0;
    struct param_counts po = count(&off);
    ck_assert_int_eq(po.total, pc.total); /* MTP is apart from the model's total */
    ck_assert_int_eq(po.mtp, 0);
}
END_TEST

/* Phi-2 (microsoft/phi-2 config.json): attention and MLP in parallel after one shared
 * LayerNorm, biases on every linear layer, a bias on the LM head, untied. Released:
 * 2,779,683,840. */
START_TEST(phi2_parallel_one_norm_head_bias)
{
    struct model_arch m = base(32, 2560, 32, 32, 10240, 51200);
    m.mlp = MLP_GELU;
    m.norm = NORM_LAYERNORM;
    m.bias = true;
    m.block = BLOCK_PARALLEL_ONE_NORM;
    m.lm_head_bias = true;
    ck_assert_int_eq(total(&m), 2779683840LL);
    ck_assert_int_eq(model_layer_norms(&m), 1);
    struct model_arch off = m;
    off.lm_head_bias = false;
    ck_assert_int_eq(total(&m) - total(&off), 51200);
}
END_TEST

/* Pythia-160m (EleutherAI, GPT-NeoX): parallel attention and MLP, each with its own
 * LayerNorm, biases everywhere, untied. Released: 162,322,944. */
START_TEST(neox_parallel_two_norms)
{
    struct model_arch m = base(12, 768, 12, 12, 3072, 50304);
    m.mlp = MLP_GELU;
    m.norm = NORM_LAYERNORM;
    m.bias = true;
    m.block = BLOCK_PARALLEL;
    ck_assert_int_eq(total(&m), 162322944LL);
    ck_assert_int_eq(model_layer_norms(&m), 2);
}
END_TEST

/* Aya-Expanse-8B (CohereForAI, Cohere architecture): LayerNorm without a bias, attention and
 * MLP in parallel after one norm, tied. Released: 8,028,033,024. */
START_TEST(cohere_layernorm_without_bias)
{
    struct model_arch m = base(32, 4096, 32, 8, 14336, 256000);
    m.norm = NORM_LAYERNORM_NOBIAS;
    m.block = BLOCK_PARALLEL_ONE_NORM;
    m.tied_embeddings = true;
    ck_assert_int_eq(total(&m), 8028033024LL);
    struct model_arch with_bias = m;
    with_bias.norm = NORM_LAYERNORM;
    ck_assert_int_eq(total(&with_bias) - total(&m), (32 + 1) * 4096LL);
}
END_TEST

/* OLMo-7B (allenai/OLMo-7B-0724-hf): LayerNorms without weights or biases (OlmoLayerNorm),
 * SwiGLU, untied. Released: 6,888,095,744, with no norm parameter at all. */
START_TEST(olmo1_nonparametric_norm)
{
    struct model_arch m = base(32, 4096, 32, 32, 11008, 50304);
    m.norm = NORM_NONPARAMETRIC;
    struct param_counts pc = count(&m);
    ck_assert_int_eq(pc.total, 6888095744LL);
    ck_assert_int_eq(pc.norms, 0);
}
END_TEST

/* OPT-125m (facebook/opt-125m): ReLU MLP of two matrices, LayerNorm, biases, learned
 * positions with OPT's offset of 2 (2050 rows), tied. Released: 125,239,296. */
START_TEST(opt_relu)
{
    struct model_arch m = base(12, 768, 12, 12, 3072, 50272);
    m.mlp = MLP_RELU;
    m.norm = NORM_LAYERNORM;
    m.bias = true;
    m.positional = POS_LEARNED;
    m.context = 2050;
    m.tied_embeddings = true;
    ck_assert_int_eq(total(&m), 125239296LL);
    struct model_arch sq = m;
    sq.mlp = MLP_RELU2; /* squared ReLU has the same two matrices */
    ck_assert_int_eq(total(&sq), total(&m));
}
END_TEST

/* Kinds are read and written by name; a block that is not sequential has pre-norms only,
 * MLA refuses QK-norm, and MoE-only fields need experts. */
START_TEST(kinds_and_refusals)
{
    enum norm_place np;
    enum qk_norm_kind qk;
    enum block_kind bk;
    enum mlp_kind mk;
    enum norm_kind nk;
    ck_assert(model_norm_place_parse("sandwich", &np) && np == NORM_SANDWICH);
    ck_assert(model_qk_norm_parse("head", &qk) && qk == QK_NORM_HEAD);
    ck_assert(model_block_parse("parallel-one-norm", &bk) && bk == BLOCK_PARALLEL_ONE_NORM);
    ck_assert(model_mlp_parse("relu2", &mk) && mk == MLP_RELU2);
    ck_assert(model_norm_parse("layernorm-nobias", &nk) && nk == NORM_LAYERNORM_NOBIAS);
    ck_assert(!model_block_parse("Parallel", &bk));
    ck_assert_str_eq(model_qk_norm_name(QK_NORM_FULL), "full");

    char err[256];
    struct model_arch m = base(4, 256, 4, 4, 512, 1000);
    m.block = BLOCK_PARALLEL;
    m.norm_place = NORM_SANDWICH;
    ck_assert(!model_validate(&m, err, (int)sizeof err));
    ck_assert_str_eq(err, "block: a parallel block has pre-norms only, not sandwich");
    m = base(4, 256, 4, 4, 512, 1000);
    m.shared_gate = true;
    ck_assert(!model_validate(&m, err, (int)sizeof err));
    ck_assert_str_eq(err, "shared_gate: is for a mixture of experts, and experts is 0");
    m = base(4, 256, 4, 4, 512, 1000);
    m.kv_lora_rank = 64;
    m.qk_nope_head_dim = 32;
    m.qk_rope_head_dim = 16;
    m.v_head_dim = 32;
    m.qk_norm = QK_NORM_HEAD;
    ck_assert(!model_validate(&m, err, (int)sizeof err));
    ck_assert(strstr(err, "qk_norm: MLA") == err);
    m = base(4, 256, 4, 4, 512, 1000);
    m.block = (enum block_kind)7;
    ck_assert(!model_validate(&m, err, (int)sizeof err));
    ck_assert_str_eq(err, "block: 7 is too large (at most 2)");
}
END_TEST

/* A model JSON with every new field reads, counts and writes back the same. */
START_TEST(spec_fields_round_trip)
{
    const char *json =
        "{\"name\": \"t\", \"layers\": 4, \"d_model\": 256, \"heads\": 4, \"kv_heads\": 2,"
        " \"ffn\": 512, \"vocab\": 1000, \"context\": 2048, \"mlp\": \"geglu\","
        " \"norm\": \"layernorm-nobias\", \"norm_place\": \"sandwich\", \"qk_norm\": \"full\","
        " \"attn_sinks\": true, \"lm_head_bias\": true, \"experts\": 8, \"experts_active\": 2,"
        " \"shared_experts\": 1, \"shared_ffn\": 1024, \"shared_gate\": true,"
        " \"router_bias\": true, \"mtp_layers\": 1, \"head_dim\": 96}";
    struct model_arch m, back;
    struct spec_model_meta meta, mback;
    char err[512];
    memset(&m, 0, sizeof m);
    ck_assert_msg(spec_parse_model_meta(json, strlen(json), "t.json", &m, &meta, err, sizeof err),
                  "%s", err);
    ck_assert(m.mlp == MLP_GEGLU && m.norm == NORM_LAYERNORM_NOBIAS &&
              m.norm_place == NORM_SANDWICH && m.qk_norm == QK_NORM_FULL && m.attn_sinks &&
              m.lm_head_bias && m.shared_gate && m.router_bias);
    ck_assert_int_eq(m.shared_ffn, 1024);
    ck_assert_int_eq(m.mtp_layers, 1);
    cJSON *o = spec_model_to_json(&m, &meta);
    ck_assert_ptr_nonnull(o);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(spec_parse_model_meta(text, strlen(text), "t.json", &back, &mback, err, sizeof err),
                  "%s\n%s", err, text);
    free(text);
    ck_assert_int_eq(total(&back), total(&m));
    ck_assert_int_eq(count(&back).mtp, count(&m).mtp);
    ck_assert(back.norm_place == m.norm_place && back.qk_norm == m.qk_norm &&
              back.block == m.block && back.shared_ffn == m.shared_ffn);

    /* Cross-field refusals reach a model file through model_validate, naming the file and
     * the field. */
    const char *clash = "{\"name\": \"t\", \"layers\": 4, \"d_model\": 256, \"heads\": 4,"
                        " \"ffn\": 512, \"vocab\": 1000, \"context\": 2048, \"mlp\": \"gelu\","
                        " \"norm\": \"rmsnorm\", \"block\": \"parallel\", \"norm_place\": \"post\"}";
    ck_assert(!spec_parse_model_meta(clash, strlen(clash), "t.json", &back, &mback, err, sizeof err));
    ck_assert_str_eq(err, "t.json: block: a parallel block has pre-norms only, not post");
    const char *gate = "{\"name\": \"t\", \"layers\": 4, \"d_model\": 256, \"heads\": 4,"
                       " \"ffn\": 512, \"vocab\": 1000, \"context\": 2048, \"mlp\": \"gelu\","
                       " \"norm\": \"rmsnorm\", \"router_bias\": true}";
    ck_assert(!spec_parse_model_meta(gate, strlen(gate), "t.json", &back, &mback, err, sizeof err));
    ck_assert_str_eq(err, "t.json: router_bias: is for a mixture of experts, and experts is 0");

    /* A misspelt kind names the field and the kinds it can be. */
    const char *bad = "{\"name\": \"t\", \"layers\": 4, \"d_model\": 256, \"heads\": 4,"
                      " \"ffn\": 512, \"vocab\": 1000, \"context\": 2048, \"mlp\": \"gelu\","
                      " \"norm\": \"rmsnorm\", \"qk_norm\": \"perhead\"}";
    ck_assert(!spec_parse_model_meta(bad, strlen(bad), "t.json", &back, &mback, err, sizeof err));
    ck_assert_msg(strstr(err, "qk_norm") != NULL && strstr(err, "\"none\", \"head\" or \"full\"") != NULL, "%s", err);
}
END_TEST

/* The norm operation's FLOPs follow the norms the block has: sandwich norms do twice the work
 * of pre-norms, one shared norm half, and QK-norm adds the Q and K widths (Qwen3-8B: 4096 +
 * 1024 elements a token per layer, beside the block's 2 x 4096). */
static double norm_flops(const struct model_arch *m)
{
    struct scenario s;
    inputs_defaults(&s);
    s.model = *m;
    s.gpus = 1;
    s.tp = s.pp = 1;
    s.zero = 0;
    s.batch = 8;
    s.seq = 1024;
    s.micro_batch = 8;
    struct param_counts pc;
    model_params(m, &pc);
    struct op ops[ANALYSIS_MAX_OPS];
    int n = 0;
    struct roofline rf;
    flops_ops(&s, &pc, ops, &n, &rf);
    for (int i = 0; i < n; i++)
        if (ops[i].kind == OP_NORM)
            return ops[i].flops;
    ck_abort_msg("no norm op");
    return 0;
}

START_TEST(norm_flops_follow_the_block)
{
    struct model_arch m = base(36, 4096, 32, 8, 12288, 151936);
    m.head_dim = 128;
    const double pre = norm_flops(&m);
    ck_assert(pre > 0);
    struct model_arch v = m;
    v.norm_place = NORM_SANDWICH;
    ck_assert_double_eq_tol(norm_flops(&v), 2.0 * pre, 1e-6 * pre);
    v = m;
    v.block = BLOCK_PARALLEL_ONE_NORM;
    ck_assert_double_eq_tol(norm_flops(&v), 0.5 * pre, 1e-6 * pre);
    v = m;
    v.qk_norm = QK_NORM_HEAD;
    ck_assert_double_eq_tol(norm_flops(&v), pre * (2.0 * 4096 + 4096 + 1024) / (2.0 * 4096),
                            1e-6 * pre);
}
END_TEST

/* Activations of one layer with heads wider than d_model / heads, sandwich norms, a shared norm,
 * QK-norm and MLA: Korthikanti et al. 2022's count (16-bit, FlashAttention, no dropout, no
 * parallelism: 4 h for the two norms' inputs and outputs, Q, K, V and the attention output,
 * the MLP's tensors, a fp32 log-sum-exp per head) with each tensor at its real width. */
static double layer_bytes(const struct model_arch *m)
{
    struct scenario s;
    inputs_defaults(&s);
    s.model = *m;
    s.gpus = 1;
    s.tp = s.pp = 1;
    s.sp = false;
    s.flash = true;
    s.dropout = false;
    s.recompute = RECOMPUTE_NONE;
    s.batch = 2;
    s.micro_batch = 2;
    s.seq = 1024;
    return memory_layer_activations(&s, false, NULL).bytes;
}

START_TEST(activations_at_real_widths)
{
    const double T = 2.0 * 1024, e = 2.0;
    /* gpt-oss-20b's attention (dense here): Q and the output 64 x 64 = 4096 wide, K and V
     * 8 x 64 = 512, over d_model 2880; SwiGLU 2880. */
    struct model_arch m = base(24, 2880, 64, 8, 2880, 201088);
    m.head_dim = 64;
    const double h = 2880, f = 2880, q = 4096, kv = 512, a = 64;
    const double want = e * T * (4 * h + q + kv + kv + q + 3 * f) + 4.0 * a * T;
    ck_assert_double_eq_tol(layer_bytes(&m), want, 1e-9 * want);

    struct model_arch v = m;
    v.norm_place = NORM_SANDWICH;       /* two more norm inputs */
    ck_assert_double_eq_tol(layer_bytes(&v) - layer_bytes(&m), e * T * 2 * h, 1e-6);
    v = m;
    v.block = BLOCK_PARALLEL_ONE_NORM;  /* one norm's input and output fewer */
    ck_assert_double_eq_tol(layer_bytes(&m) - layer_bytes(&v), e * T * 2 * h, 1e-6);
    v = m;
    v.qk_norm = QK_NORM_HEAD;           /* Q and K before their norms */
    ck_assert_double_eq_tol(layer_bytes(&v) - layer_bytes(&m), e * T * (q + kv), 1e-6);

    /* DeepSeek-V3's MLA as training runs it: Q and K 128 x 192, V and the output 128 x 128,
     * plus the KV latent and rope key (576) and the query latent (1536). */
    struct model_arch d = base(61, 7168, 128, 128, 18432, 129280);
    d.kv_lora_rank = 512;
    d.q_lora_rank = 1536;
    d.qk_nope_head_dim = 128;
    d.qk_rope_head_dim = 64;
    d.v_head_dim = 128;
    const double hd = 7168, qk = 128 * 192, vo = 128 * 128, fd = 18432;
    const double want_d = e * T * (4 * hd + qk + qk + vo + vo + 3 * fd + 576 + 1536) + 4.0 * 128 * T;
    ck_assert_double_eq_tol(layer_bytes(&d), want_d, 1e-9 * want_d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("arch");
    TCase *tc = tcase_create("released totals");
    tcase_add_test(tc, gpt_oss_sinks_biases_router_bias);
    tcase_add_test(tc, gemma2_sandwich_geglu_head_dim);
    tcase_add_test(tc, olmo2_post_norm_full_qk_norm);
    tcase_add_test(tc, qwen3_qk_norm_per_head);
    tcase_add_test(tc, qwen2_moe_shared_expert_width_and_gate);
    tcase_add_test(tc, deepseek_v3_mtp_apart);
    tcase_add_test(tc, phi2_parallel_one_norm_head_bias);
    tcase_add_test(tc, neox_parallel_two_norms);
    tcase_add_test(tc, cohere_layernorm_without_bias);
    tcase_add_test(tc, opt_relu);
    tcase_add_test(tc, olmo1_nonparametric_norm);
    tcase_add_test(tc, kinds_and_refusals);
    tcase_add_test(tc, spec_fields_round_trip);
    tcase_add_test(tc, norm_flops_follow_the_block);
    tcase_add_test(tc, activations_at_real_widths);
    suite_add_tcase(s, tc);
    return check_run_suite(s);
}
