/* test_core.c - the accounting core against reference.md: the lecture's worked examples,
 * exact parameter counts, Korthikanti's activation table, GPT-3's training FLOPs. Models are
 * built here field by field so these tests do not depend on the spec files. */
#include <check.h>
#include <string.h>

#include "analysis.h"
#include "check_util.h"
#include "flops.h"
#include "inputs.h"
#include "memory.h"
#include "model.h"
#include "roofline.h"
#include "scenario.h"
#include "scenario_check.h"
#include "solve.h"

static struct model_arch gpt2(int64_t L, int64_t h, int64_t a)
{
    struct model_arch m;
    memset(&m, 0, sizeof m);
    m.layers = L;
    m.d_model = h;
    m.heads = a;
    m.kv_heads = a;
    m.ffn = 4 * h;
    m.vocab = 50257;
    m.context = 1024;
    m.mlp = MLP_GELU;
    m.norm = NORM_LAYERNORM;
    m.tied_embeddings = true;
    m.bias = true;
    m.positional = POS_LEARNED;
    return m;
}

static struct model_arch llama(int64_t L, int64_t h, int64_t a, int64_t k, int64_t f, int64_t V)
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

static int64_t total_params(struct model_arch m)
{
    struct param_counts pc;
    model_params(&m, &pc);
    return pc.total;
}

START_TEST(params_exact)
{
    /* reference.md section 4: exact counts from the released configs. */
    ck_assert_int_eq(total_params(gpt2(12, 768, 12)), 124439808LL);
    ck_assert_int_eq(total_params(llama(32, 4096, 32, 32, 11008, 32000)), 6738415616LL);
    ck_assert_int_eq(total_params(llama(32, 4096, 32, 8, 14336, 128256)), 8030261248LL);
    /* GPT-2 family formula: V h + ctx h + L (12 h^2 + 13 h) + 2 h, for GPT-2 xl. */
    int64_t L = 48, h = 1600;
    ck_assert_int_eq(total_params(gpt2(L, h, 25)), 50257 * h + 1024 * h + L * (12 * h * h + 13 * h) + 2 * h);
}
END_TEST

START_TEST(params_moe_and_qkv_bias)
{
    /* Mixtral 8x7B: 46.7B total, 12.9B active (Mistral AI's announcement). */
    struct model_arch m = llama(32, 4096, 32, 8, 14336, 32000);
    m.experts = 8;
    m.experts_active = 2;
    m.moe_ffn = 14336;
    struct param_counts pc;
    model_params(&m, &pc);
    ck_assert_rel(pc.total, 46.7e9, 0.002);
    ck_assert_rel(pc.active, 12.9e9, 0.005);
    ck_assert_int_eq(pc.router, 32LL * 4096 * 8);
    /* Qwen2.5-7B: biases on Q, K, V only: 7,615,616,512 (released checkpoint). */
    struct model_arch q = llama(28, 3584, 28, 4, 18944, 152064);
    q.qkv_bias = true;
    model_params(&q, &pc);
    ck_assert_int_eq(pc.total, 7615616512LL);
    ck_assert_int_eq(pc.biases, 28LL * (3584 + 2 * 512));
}
END_TEST

START_TEST(params_custom_exact)
{
    struct model_arch m;
    ck_assert(model_from_params(70e9, &m));
    struct param_counts pc;
    model_params(&m, &pc);
    /* The total is the sum of the parts the Parameters table prints (issue 8: 67.48B of
     * parts under a 70B total before), fitted within 0.01% of N; 6ND keeps N as typed. */
    ck_assert_int_eq(pc.total, pc.embedding + pc.position + pc.attention + pc.mlp + pc.router +
                                   pc.norms + pc.biases + pc.lm_head);
    ck_assert_int_eq(pc.total, m.layers * pc.per_layer + pc.embedding + pc.lm_head +
                                   pc.norms / (2 * m.layers + 1));
    ck_assert_rel(pc.total, 70e9, 1e-4);
    ck_assert_int_eq(pc.typed, 70000000000LL);
    ck_assert_int_eq(m.d_model, 128 * m.heads);
    ck_assert(llabs(m.heads - m.layers) <= 4);
    char err[256];
    ck_assert_msg(model_validate(&m, err, sizeof err), "%s", err);
    /* The fitted MLP stays a Llama-like width (8/3 h = 2.67 h), not a stretched one. */
    ck_assert_msg(m.ffn > 2 * m.d_model && m.ffn < 3 * m.d_model, "ffn %lld for h %lld",
                  (long long)m.ffn, (long long)m.d_model);
    /* Every size --params accepts fits within 0.01%, down to the 1M floor (where the
     * vocabulary shrinks) and up to 1e17. */
    for (double n = 1e6; n <= 1e17; n *= 1.37) {
        ck_assert(model_from_params(n, &m));
        ck_assert_msg(model_validate(&m, err, sizeof err), "%g: %s", n, err);
        model_params(&m, &pc);
        ck_assert_msg(fabs((double)pc.total - n) <= 1e-4 * n, "%g parameters fitted to %lld", n,
                      (long long)pc.total);
        ck_assert_int_eq(pc.typed, llround(n));
    }
    ck_assert(!model_from_params(-1, &m));
    ck_assert(!model_from_params(0, &m));
}
END_TEST

START_TEST(params_custom_flops_one_shape)
{
    /* 6ND uses N as typed, the detailed count the fitted shape: against the same shape the
     * detailed count is above 6ND (attention and the head's loss come on top of 6N per
     * token), not the -1.2% the 67.48B shape under a 70B label gave. */
    struct scenario s;
    inputs_defaults(&s);
    struct analysis a;
    analysis_run(&s, &a);
    ck_assert_rel(a.flops.six_nd, 6.0 * 70e9 * 15e12, 1e-12);
    double six_nd_shape = 6.0 * (double)a.params.total * s.tokens;
    ck_assert_msg(a.flops.detailed > six_nd_shape, "detailed %g, 6ND of the shape %g",
                  a.flops.detailed, six_nd_shape);
    /* PaLM: 6N + 12 L h s per token; the detailed count lands within 0.5% of it. */
    /* The embedding is a look-up, not a matmul: PaLM's N here leaves it out. */
    double n_mm = (double)(a.params.total - a.params.embedding);
    double palm = (6.0 * n_mm + 12.0 * (double)s.model.layers * (double)s.model.d_model *
                                    (double)s.seq) *
                  s.tokens;
    ck_assert_rel(a.flops.detailed, palm, 0.005);
}
END_TEST

static struct scenario lecture(void)
{
    struct scenario s;
    inputs_defaults(&s);
    return s;
}

/* The lecture's per-GPU arithmetic: no tensor or pipeline parallelism, ZeRO-3. */
static struct scenario lecture_on(int64_t gpus)
{
    struct scenario s = lecture();
    s.gpus = gpus;
    s.batch = gpus;
    s.tp = 1;
    s.pp = 1;
    s.sp = false;
    s.zero = 3;
    return s;
}

START_TEST(lecture_144_days)
{
    /* 6 x 70e9 x 15e12 / (1024 x 989.4e12 x 0.5) = 143.94 days (lecture: 143.93 with 989.5). */
    struct scenario s = lecture();
    char err[256];
    ck_assert_msg(scenario_validate(&s, err, sizeof err), "%s", err);
    struct analysis a;
    analysis_run(&s, &a);
    ck_assert_rel(a.flops.total, 6.3e24, 1e-12);
    ck_assert_rel(a.flops.six_nd, 6.3e24, 1e-12);
    ck_assert_rel(a.time.days, 6.3e24 / (1024 * 989.4e12 * 0.5) / 86400, 1e-9);
    ck_assert(a.time.days > 143.85 && a.time.days < 143.95);
    ck_assert_rel(a.time.mfu, 0.5, 1e-12);
    ck_assert_rel(a.time.hfu, 0.5, 1e-12);
    /* Twice the GPUs: half the time. */
    s.gpus = 2048;
    struct analysis b;
    analysis_run(&s, &b);
    ck_assert_rel(b.time.days, a.time.days / 2, 1e-12);
}
END_TEST

START_TEST(lecture_largest_model)
{
    struct scenario s = lecture_on(8);
    s.optimizer = OPT_ADAMW;
    s.dtype = DTYPE_BF16;
    s.master_weights = false; /* 2 + 2 + 4 + 4 = 12 bytes per parameter */
    ck_assert_rel(solve_max_params(&s, false), 8 * 80e9 / 12, 1e-9);
    /* With master weights and 16-bit gradients, ZeRO's (Rajbhandari et al. 2020, section 3.1)
     * 2 + 2 + 12 = 16 bytes. */
    s.master_weights = true;
    s.grad_dtype = DTYPE_BF16;
    ck_assert_rel(solve_max_params(&s, false), 4e10, 1e-9);
    /* Gradients auto: fp32 beside an fp32 master copy, as Megatron-LM and DeepSpeed keep them
     * (theoretical_memory_usage.py: 18 bytes per parameter). */
    s.grad_dtype = SCENARIO_DTYPE_AUTO;
    ck_assert_rel(solve_max_params(&s, false), 8 * 80e9 / 18, 1e-9);
    s.dtype = DTYPE_FP32;     /* the 2025 lecture: all fp32, 4 + 4 + 8 = 16 */
    s.master_weights = false;
    ck_assert_rel(solve_max_params(&s, false), 4e10, 1e-9);
    /* With activations the answer shrinks but stays positive. */
    s.dtype = DTYPE_BF16;
    double with_act = solve_max_params(&s, true);
    ck_assert(with_act > 1e9 && with_act < 5.333e10);
}
END_TEST

START_TEST(lecture_memory_rows)
{
    /* Memory table for 70B on 8 H100s with ZeRO-3: 12 B/param split 8 ways. The model is
     * the shape fitted to 70e9 (its own count within 0.01%), so the rows are exact for its
     * count and the lecture's figures hold to 1e-4. */
    struct scenario s = lecture_on(8);
    struct analysis a;
    analysis_run(&s, &a);
    const double N = (double)a.params.total;
    ck_assert_rel(N, 70e9, 1e-4);
    ck_assert_rel(a.memory.row[MEM_PARAMS].bytes, 2 * N / 8, 1e-9);
    ck_assert_rel(a.memory.row[MEM_PARAMS].bytes, 2 * 70e9 / 8, 1e-4);
    ck_assert_rel(a.memory.row[MEM_GRADS].bytes, 2 * N / 8, 1e-9);
    ck_assert_rel(a.memory.row[MEM_OPTIMIZER].bytes, 8 * N / 8, 1e-9);
    ck_assert_rel(a.memory.row[MEM_OPTIMIZER].elements, 2 * N / 8, 1e-9);
    ck_assert_int_eq(a.memory.row[MEM_OPTIMIZER].dtype, DTYPE_FP32);
    ck_assert(a.memory.row[MEM_MASTER].bytes == 0);
    /* ZeRO 0: no sharding, 12 x 70e9 = 840 GB per GPU: does not fit. */
    s.zero = 0;
    analysis_run(&s, &a);
    ck_assert_rel(a.memory.total - a.memory.row[MEM_ACTIVATIONS].bytes, 12 * N, 1e-9);
    ck_assert_rel(a.memory.total - a.memory.row[MEM_ACTIVATIONS].bytes, 12 * 70e9, 1e-4);
    ck_assert(!a.memory.fits);
}
END_TEST

START_TEST(lecture_intensities)
{
    struct op_cost c;
    lecture_op_cost(LOP_RELU, 1024.0 * 1024, DTYPE_BF16, &c);
    ck_assert_rel(c.intensity, 0.25, 1e-12);
    lecture_op_cost(LOP_GELU, 1024.0 * 1024, DTYPE_BF16, &c);
    ck_assert_rel(c.intensity, 5.0, 1e-12);
    lecture_op_cost(LOP_DOT, 1024.0 * 1024, DTYPE_BF16, &c);
    ck_assert_rel(c.intensity, 0.4999995, 1e-7);
    lecture_op_cost(LOP_MATVEC, 1024, DTYPE_BF16, &c);
    ck_assert_rel(c.intensity, 0.9976, 1e-4);
    ck_assert_rel(c.flops, 1024.0 * 2047, 1e-15);
    lecture_op_cost(LOP_MATMUL, 1024, DTYPE_BF16, &c);
    ck_assert_rel(c.intensity, 341.17, 1e-4);
    ck_assert_rel(c.bytes, 6.0 * 1024 * 1024, 1e-15);
    /* H100 ridge: 989.4e12 / 3.35e12 = 295.3 FLOP/byte. */
    struct gpu_spec g;
    gpu_builtin_h100(&g);
    ck_assert_rel(gpu_ridge(&g, DTYPE_BF16), 295.4, 0.001);
    /* The lecture's other figures: 8 H100s for two weeks; GPT-3's feed-forward matrix. */
    ck_assert_rel(8 * 2 * 604800.0 * 989.5e12, 9.575e21, 1e-3);
    ck_assert_rel(12288.0 * 4 * 12288 * dtype_bytes(DTYPE_FP32), 2415919104.0, 1e-15);
}
END_TEST

START_TEST(lecture_toy_and_accumulation)
{
    /* Toy: B=2, D=4, L=3, bf16 params/grads/activations, one fp32 state: 432 bytes. */
    struct memory m;
    memory_toy_mlp(2, 4, 3, DTYPE_BF16, 1, &m);
    ck_assert_rel(m.row[MEM_PARAMS].elements, 48, 0);
    ck_assert_rel(m.row[MEM_PARAMS].bytes, 96, 0);
    ck_assert_rel(m.row[MEM_GRADS].bytes, 96, 0);
    ck_assert_rel(m.row[MEM_OPTIMIZER].bytes, 192, 0);
    ck_assert_rel(m.row[MEM_ACTIVATIONS].bytes, 48, 0);
    ck_assert_rel(m.total, 432, 0);
    /* Gradient accumulation: B=64, D=1024, L=16: 2,097,152 bytes; micro-batch 16: 524,288. */
    memory_toy_mlp(64, 1024, 16, DTYPE_BF16, 1, &m);
    ck_assert_rel(m.row[MEM_ACTIVATIONS].bytes, 2097152, 0);
    memory_toy_mlp(16, 1024, 16, DTYPE_BF16, 1, &m);
    ck_assert_rel(m.row[MEM_ACTIVATIONS].bytes, 524288, 0);
}
END_TEST

/* Korthikanti et al. 2022 Table 2: GPT-3 175B-like layer, s=2048, b=1, h=12288, a=96. */
static struct scenario korthikanti(int64_t t, bool sp, enum recompute r)
{
    struct scenario s = lecture();
    s.model = gpt2(96, 12288, 96);
    s.model.context = 2048;
    s.seq = 2048;
    s.tp = t;
    s.pp = 1;
    s.gpus = 8 * t;
    s.batch = 8;
    s.micro_batch = 1;
    s.sp = sp;
    s.recompute = r;
    s.flash = false;
    s.dropout = true;
    s.dtype = DTYPE_BF16;
    return s;
}

START_TEST(korthikanti_table)
{
    const double sbh = 2048.0 * 1 * 12288, as_h = 96.0 * 2048 / 12288;
    struct {
        int64_t t;
        bool sp;
        enum recompute r;
        double want;
    } rows[] = {
        {1, false, RECOMPUTE_NONE, sbh * (34 + 5 * as_h)},
        {8, false, RECOMPUTE_NONE, sbh * (10 + 24.0 / 8 + 5 * as_h / 8)},
        {8, true, RECOMPUTE_NONE, sbh * (34.0 / 8 + 5 * as_h / 8)},
        {8, false, RECOMPUTE_SELECTIVE, sbh * (10 + 24.0 / 8)},
        {8, true, RECOMPUTE_SELECTIVE, 34 * sbh / 8},
        {1, false, RECOMPUTE_FULL, 2 * sbh},
        {4, false, RECOMPUTE_NONE, sbh * (10 + 24.0 / 4 + 5 * as_h / 4)},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct scenario s = korthikanti(rows[i].t, rows[i].sp, rows[i].r);
        char err[256];
        ck_assert_msg(scenario_validate(&s, err, sizeof err), "%s", err);
        struct analysis a;
        analysis_run(&s, &a);
        ck_assert_rel(a.memory.activations_per_layer, rows[i].want, 1e-12);
    }
}
END_TEST

START_TEST(activations_flash_and_batch)
{
    struct scenario s = korthikanti(1, false, RECOMPUTE_NONE);
    struct analysis a, b;
    analysis_run(&s, &a);
    s.flash = true;
    analysis_run(&s, &b);
    /* FlashAttention stores no s x s matrices: only 34 sbh plus fp32 row statistics. */
    const double sbh = 2048.0 * 12288;
    ck_assert_rel(b.memory.activations_per_layer, 34 * sbh + 4.0 * 96 * 2048, 1e-12);
    ck_assert(b.memory.activations_per_layer < a.memory.activations_per_layer);
    /* Doubling the micro-batch doubles the activations. */
    s.micro_batch = 2;
    analysis_run(&s, &a);
    ck_assert_rel(a.memory.row[MEM_ACTIVATIONS].bytes, 2 * b.memory.row[MEM_ACTIVATIONS].bytes, 1e-12);
    /* Full recomputation stores the layer inputs and rebuilds one layer at a time. */
    s.micro_batch = 1;
    s.recompute = RECOMPUTE_FULL;
    analysis_run(&s, &a);
    ck_assert_rel(a.memory.row[MEM_ACTIVATIONS].bytes,
                  96 * 2 * sbh + b.memory.activations_per_layer + b.memory.activations_outside +
                      b.memory.activations_embedding, 1e-12);
    /* The embedding's: int64 token ids and the dropout mask (Megatron-LM's 8 s b + s b h). */
    ck_assert_rel(b.memory.activations_embedding, 8 * 2048.0 + sbh, 1e-12);
    /* sqrt(L) checkpoints: fewer bytes than full storage, more than full recomputation. */
    s.recompute = RECOMPUTE_SQRT;
    struct analysis c;
    analysis_run(&s, &c);
    ck_assert(c.memory.row[MEM_ACTIVATIONS].bytes < b.memory.row[MEM_ACTIVATIONS].bytes);
}
END_TEST

START_TEST(activations_pipeline_1f1b)
{
    /* 1F1B: the first of p stages holds min(p, micro-batches) micro-batches of its L/p layers;
     * the last one micro-batch of its layers plus the LM head. GPT-3 shape, 96 layers, pp 4. */
    struct scenario s = korthikanti(1, false, RECOMPUTE_NONE);
    s.pp = 4;
    s.gpus = 8;          /* dp 2 */
    s.batch = 16;        /* micro-batch 1: 8 micro-batches per rank, 4 in flight */
    char err[256];
    ck_assert_msg(scenario_validate(&s, err, sizeof err), "%s", err);
    struct analysis a;
    analysis_run(&s, &a);
    double layer = a.memory.activations_per_layer;
    double embed = a.memory.activations_embedding;
    ck_assert_rel(a.memory.row[MEM_ACTIVATIONS].bytes, 24 * 4 * (layer + embed / 24), 1e-12);
    ck_assert_int_eq(a.memory.busiest.index, 0);
    s.batch = 4;         /* 2 micro-batches per rank: only 2 in flight */
    analysis_run(&s, &a);
    ck_assert_rel(a.memory.first.activations, 24 * 2 * layer + 2 * embed, 1e-12);
    ck_assert_rel(a.memory.last.activations, 24 * layer + a.memory.activations_outside, 1e-12);
    /* The stages are not equal (Megatron-LM): the first holds the embedding and positions with
     * its 24 layers, the last its 24 layers, the final norm and (tied embeddings) a copy of the
     * embedding for the LM head. GPT-2 layer: 12 h^2 + 13 h. */
    const double h = 12288, lp = 12 * h * h + 13 * h;
    const double first = (double)(a.params.embedding + a.params.position) + 24 * lp;
    const double last = 24 * lp + 2 * h + (double)a.params.embedding;
    ck_assert_rel(a.memory.first.params, first, 1e-15);
    ck_assert_rel(a.memory.last.params, last, 1e-15);
    ck_assert_int_eq(a.memory.busiest.index, 0);
    /* ZeRO-3 shards the busiest stage's parameters over dp 2. */
    ck_assert_rel(a.memory.row[MEM_PARAMS].elements, ceil(first / 2), 1e-15);
}
END_TEST

START_TEST(gpt3_training_flops)
{
    /* GPT-3 175B on 300B tokens: 3.14e23 FLOPs (Brown et al. 2020), within 1%. */
    struct scenario s = lecture();
    s.model = gpt2(96, 12288, 96);
    s.model.context = 2048;
    s.seq = 2048;
    s.tokens = 300e9;
    s.gpus = 1024;
    s.batch = 1024;
    s.flops_mode = FLOPS_DETAILED;
    struct analysis a;
    analysis_run(&s, &a);
    ck_assert_rel(a.flops.six_nd, 3.14e23, 0.01);
    ck_assert_rel(a.flops.detailed, 3.14e23, 0.05);
    /* Detailed against Korthikanti's closed form 72 B s l h^2 (1 + s/(6h) + V/(12 l h)):
     * per token 72 l h^2 (...)/... with B s = tokens. */
    double l = 96, h = 12288, sq = 2048, V = 50257;
    double closed = 72.0 * s.tokens * l * h * h * (1 + sq / (6 * h) + V / (12 * l * h));
    ck_assert_rel(a.flops.detailed, closed, 0.01);
    /* Full recomputation adds one forward of the layers: about 8ND / 6ND. */
    s.recompute = RECOMPUTE_FULL;
    analysis_run(&s, &a);
    ck_assert_rel((a.flops.model_total + a.flops.recompute) / a.flops.model_total, 4.0 / 3.0, 0.01);
    ck_assert(a.time.mfu < a.time.hfu);
    ck_assert_rel(a.time.hfu, 0.5, 1e-12);
}
END_TEST

START_TEST(ops_roofline)
{
    struct scenario s = lecture();
    s.flops_mode = FLOPS_DETAILED;
    struct analysis a;
    analysis_run(&s, &a);
    ck_assert_rel(a.roofline.ridge, 989.4 / 3.35, 1e-9);
    ck_assert_int_gt(a.n_ops, 8);
    double sum = 0;
    for (int i = 0; i < a.n_ops; i++) {
        const struct op *o = &a.ops[i];
        ck_assert(o->flops > 0 && o->bytes > 0);
        ck_assert(isfinite(o->intensity) && isfinite(o->seconds));
        sum += o->seconds;
        /* Big matmuls are compute-bound, elementwise ops memory-bound, as the lecture says. */
        if (o->kind == OP_MLP_UP || o->kind == OP_QKV)
            ck_assert_msg(o->compute_bound, "%s intensity %g", o->name, o->intensity);
        if (o->kind == OP_NORM || o->kind == OP_ACT || o->kind == OP_RESIDUAL || o->kind == OP_OPTIMIZER)
            ck_assert_msg(!o->compute_bound, "%s intensity %g", o->name, o->intensity);
    }
    ck_assert_rel(a.roofline.step_seconds, sum, 1e-12);
    ck_assert(a.roofline.mfu_bound > 0.5 && a.roofline.mfu_bound <= 1.0);
}
END_TEST

START_TEST(huge_no_overflow)
{
    /* 10 trillion parameters on a million GPUs: finite, positive everywhere. */
    struct scenario s = lecture();
    ck_assert(model_from_params(10e12, &s.model));
    s.gpus = 1048576;
    s.tp = 8;
    s.pp = 16;
    s.batch = 8192 * 16;
    s.flops_mode = FLOPS_DETAILED;
    char err[256];
    ck_assert_msg(scenario_validate(&s, err, sizeof err), "%s", err);
    struct analysis a;
    analysis_run(&s, &a);
    ck_assert_int_eq(a.params.typed, 10000000000000LL);
    ck_assert_rel(a.params.total, 10e12, 1e-4);
    ck_assert(isfinite(a.memory.total) && a.memory.total > 0);
    ck_assert(isfinite(a.flops.total) && a.flops.total > 0);
    ck_assert(isfinite(a.time.seconds) && a.time.seconds > 0);
}
END_TEST

START_TEST(validation_messages)
{
    struct scenario s = lecture();
    char err[256];
    s.tp = 3;
    ck_assert(!scenario_validate(&s, err, sizeof err));
    ck_assert_msg(strstr(err, "--gpus") || strstr(err, "--tp"), "%s", err);
    s = lecture();
    s.mfu = 1.5;
    ck_assert(!scenario_validate(&s, err, sizeof err));
    ck_assert_msg(strncmp(err, "--mfu:", 6) == 0, "%s", err);
    s = lecture();
    s.batch = 1000; /* 1000 sequences do not split over 1024 ranks */
    ck_assert(!scenario_validate(&s, err, sizeof err));
    ck_assert_msg(strncmp(err, "--batch:", 8) == 0, "%s", err);
    s = lecture();
    s.model.heads = 7;
    ck_assert(!scenario_validate(&s, err, sizeof err));
    ck_assert_msg(strstr(err, "heads") != NULL, "%s", err);
}
END_TEST

START_TEST(solve_min_gpus_explains)
{
    /* Llama-2-70B (reference.md section 4) with a batch of 8 sequences of 2048: data
     * parallelism stops at 8 GPUs, where each GPU still holds 12 B x 69B / 8 of model state
     * plus one micro-batch's activations, more than 80 GB. min-gpus says so, and what fits. */
    struct scenario s = lecture_on(8);
    s.model = llama(80, 8192, 64, 8, 28672, 32000);
    s.batch = 8;
    s.micro_batch = 1;
    s.gpus = 1;
    s.seq = 2048;
    char err[256];
    ck_assert_msg(scenario_validate(&s, err, sizeof err), "%s", err);
    ck_assert_int_eq(solve_min_gpus(&s, true, 1048576), 0);
    struct solve_miss miss;
    solve_min_gpus_miss(&s, true, 1048576, &miss);
    ck_assert(miss.batch_limits);
    ck_assert_int_eq(miss.dp, 8);
    ck_assert_int_eq(miss.gpus, 8);
    /* Activations count: the capacity less the reserve (CUDA context and allocator). */
    ck_assert(miss.capacity == 80e9 - 2e9);
    double n = (double)total_params(s.model);
    /* 12 B/param sharded, plus ZeRO-3's gathered module (DeepSpeed: 4 bytes x the largest
     * module's parameters, here the 32000 x 8192 embedding). */
    ck_assert_rel(miss.needed - miss.activations, 12.0 * n / 8 + 4.0 * 32000 * 8192, 1e-6);
    ck_assert(miss.activations > 0 && miss.needed > miss.capacity);
    /* Each hint is what min-gpus finds with that one change. */
    ck_assert_int_ge(miss.n_hints, 1);
    /* tp 2 no longer fits in the 78 GB usable with ZeRO-3's gathered embedding: tp 4. */
    ck_assert_str_eq(miss.hint[0].option, "--tp 4");
    struct scenario t = s;
    t.tp = 4;
    t.gpus = 4;
    ck_assert_int_eq(miss.hint[0].gpus, solve_min_gpus(&t, true, 1048576));
    ck_assert_int_eq(miss.hint[0].gpus, 16);
    /* Capped by --max-gpus 4 instead: not the batch. */
    solve_min_gpus_miss(&s, true, 4, &miss);
    ck_assert(!miss.batch_limits);
    ck_assert_int_eq(miss.gpus, 4);
    ck_assert_int_eq(miss.n_hints, 0);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, params_exact);
    tcase_add_test(tc, params_moe_and_qkv_bias);
    tcase_add_test(tc, params_custom_exact);
    tcase_add_test(tc, params_custom_flops_one_shape);
    tcase_add_test(tc, lecture_144_days);
    tcase_add_test(tc, lecture_largest_model);
    tcase_add_test(tc, lecture_memory_rows);
    tcase_add_test(tc, lecture_intensities);
    tcase_add_test(tc, lecture_toy_and_accumulation);
    tcase_add_test(tc, korthikanti_table);
    tcase_add_test(tc, activations_flash_and_batch);
    tcase_add_test(tc, activations_pipeline_1f1b);
    tcase_add_test(tc, gpt3_training_flops);
    tcase_add_test(tc, ops_roofline);
    tcase_add_test(tc, huge_no_overflow);
    tcase_add_test(tc, validation_messages);
    tcase_add_test(tc, solve_min_gpus_explains);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(core_suite());
}
