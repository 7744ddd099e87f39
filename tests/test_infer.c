/* test_infer.c - serving: KV cache per token from the models' configs, decode memory-bound
 * and prefill compute-bound on an H100 (reference.md section 8), memory and the largest batch,
 * tensor parallelism, and the MLA preset's exact parameter count. Presets come from specs/
 * ($ROOFTOP_SPECS). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check_util.h"
#include "dtype.h"
#include "evaluation.h"
#include "flops.h"
#include "infer.h"
#include "infer_cli.h"
#include "infer_report.h"
#include "inputs.h"
#include "model.h"
#include "predict.h"
#include "scenario.h"
#include "scenario_check.h"
#include "spec.h"

static struct model_arch preset(const char *name)
{
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_find_model(name, &m, err, sizeof err), "%s: %s", name, err);
    return m;
}

/* An inference scenario on the built-in H100 SXM (reference.md section 3 figures). */
static struct scenario on_h100(const char *model)
{
    struct scenario s;
    infer_default(&s);
    s.model = preset(model);
    return s;
}

static void run_ok(const struct scenario *s, struct infer_result *r)
{
    char err[512];
    ck_assert_msg(infer_validate(s, err, (int)sizeof err), "%s", err);
    infer_run(s, r);
}

START_TEST(kv_per_token_exact)
{
    /* 2 (K and V) x layers x kv_heads x head_dim x 2 bytes (bf16), from the configs:
     * GPT-2 small 12 layers, 12 heads of 64; Llama-2-7B 32 x 32 heads of 128 (MHA);
     * Llama-3.1-8B 32 layers x 8 KV heads of 128 (GQA); Llama-2-70B 80 x 8 x 128 (GQA). */
    const struct {
        const char *model;
        double bytes;
    } cases[] = {
        {"gpt2-small", 2.0 * 12 * 12 * 64 * 2},       /* 36,864 */
        {"llama2-7b", 2.0 * 32 * 32 * 128 * 2},       /* 524,288 */
        {"llama3.1-8b", 2.0 * 32 * 8 * 128 * 2},      /* 131,072 */
        {"llama2-70b", 2.0 * 80 * 8 * 128 * 2},       /* 327,680 */
        /* MLA (DeepSeek-V2-Lite config): 27 layers x (kv_lora_rank 512 + qk_rope_head_dim 64)
         * x 2 bytes, the latent and the shared rope key only. */
        {"deepseek-v2-lite", 27.0 * (512 + 64) * 2},  /* 31,104 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct scenario s = on_h100(cases[i].model);
        s.prompt = 100;
        s.generate = 28;
        struct infer_result r;
        run_ok(&s, &r);
        ck_assert_msg(r.kv_bytes_per_token == cases[i].bytes, "%s: %.0f, want %.0f",
                      cases[i].model, r.kv_bytes_per_token, cases[i].bytes);
        /* The whole batch's cache: batch x (prompt + generate) tokens. */
        ck_assert_msg(r.memory.kv_cache == cases[i].bytes * 128.0, "%s", cases[i].model);
        /* fp8 KV halves it exactly. */
        s.kv_dtype = DTYPE_FP8_E4M3;
        run_ok(&s, &r);
        ck_assert(r.kv_bytes_per_token == cases[i].bytes / 2.0);
    }
}
END_TEST

START_TEST(kv_windows_and_tp)
{
    /* Mistral 7B (config sliding_window 4096): 32 layers x 8 KV heads x 128 x 2 x 2 bytes =
     * 4096 B per token per layer; a sequence of 8192 tokens keeps 4096 of them. */
    struct model_arch m = preset("mistral-7b");
    ck_assert_int_eq(m.sliding_window, 4096);
    ck_assert(infer_kv_bytes(&m, 2000, DTYPE_BF16, 1) == 32.0 * 2000 * 4096);
    ck_assert(infer_kv_bytes(&m, 8192, DTYPE_BF16, 1) == 32.0 * 4096 * 4096);
    /* Gemma 3 style pattern 6: of 12 layers, 2 global (every 6th), 10 local. */
    m.layers = 12;
    m.sliding_window_pattern = 6;
    ck_assert_int_eq(model_local_layers(&m), 10);
    ck_assert(infer_kv_bytes(&m, 8192, DTYPE_BF16, 1) == (2.0 * 8192 + 10.0 * 4096) * 4096);

    /* Tensor parallelism splits KV heads; beyond 8 ranks Llama-2-70B's 8 heads are
     * replicated (a rank holds a whole head), and MLA's latent sits on every rank. */
    struct model_arch l70 = preset("llama2-70b");
    ck_assert(infer_kv_bytes(&l70, 1, DTYPE_BF16, 2) == 327680.0 / 2);
    ck_assert(infer_kv_bytes(&l70, 1, DTYPE_BF16, 8) == 327680.0 / 8);
    ck_assert(infer_kv_bytes(&l70, 1, DTYPE_BF16, 16) == 327680.0 / 8);
    struct model_arch ds = preset("deepseek-v2-lite");
    ck_assert(infer_kv_bytes(&ds, 1, DTYPE_BF16, 4) == 31104.0);
}
END_TEST

START_TEST(mla_params_exact)
{
    /* DeepSeek-V2-Lite from its config.json (hidden 2048, 27 layers, 16 heads, q_lora_rank
     * null, kv_lora_rank 512, qk_nope 128, qk_rope 64, v 128, intermediate 10944 for the one
     * dense layer, 64 routed + 2 shared experts of 1408, vocab 102400, untied):
     * attention per layer q_proj 2048 x 16 x 192 + kv_a 2048 x 576 + kv_b 512 x 16 x 256 +
     * o_proj 2048 x 2048 = 13,762,560 and kv_a_layernorm 512; embeddings and LM head
     * 2 x 209,715,200; norms 55 x 2048; dense MLP 67,239,936; 26 MoE layers of 66 x 8,650,752
     * + router 131,072. Total 15,706,484,224 (DeepSeek-AI 2024: "15.7B"). */
    struct model_arch m = preset("deepseek-v2-lite");
    struct param_counts pc;
    model_params(&m, &pc);
    ck_assert_int_eq(pc.attention, 27LL * 13762560);
    ck_assert_int_eq(pc.total, 15706484224LL);
    ck_assert_rel(pc.total, 15.7e9, 0.0005);
    /* Mistral 7B's window does not change its count (7,241,732,096). */
    struct model_arch mi = preset("mistral-7b");
    model_params(&mi, &pc);
    ck_assert_int_eq(pc.total, 7241732096LL);

    /* head_dim apart from d_model / heads (Gemma, Qwen3 style): Q and O are h x heads x d. */
    struct model_arch g = preset("llama3.1-8b");
    model_params(&g, &pc);
    const int64_t base = pc.attention;
    g.head_dim = 256; /* twice 4096 / 32 */
    model_params(&g, &pc);
    ck_assert_int_eq(pc.attention, 2 * base);
}
END_TEST

START_TEST(decode_memory_bound)
{
    /* Llama-2-7B bf16 on an H100, batch 1: every step reads the 13.5 GB of weights, so time
     * per token >= 13.5 GB / 3.35 TB/s = 4.0 ms (reference.md section 8, the figure),
     * and at the H100 spec's measured 0.9 of the bandwidth no more than
     * (weights + cache + 1%) / (0.9 bw). */
    struct scenario s = on_h100("llama2-7b");
    s.batch = 1;
    s.prompt = 512;
    s.generate = 128;
    struct infer_result r;
    run_ok(&s, &r);
    ck_assert_rel(r.memory.weights, 13.48e9, 0.001);
    const double floor_s = r.memory.weights / 3.35e12;
    ck_assert_rel(floor_s, 4.0e-3, 0.01);
    ck_assert_msg(r.tpot >= floor_s, "tpot %g < %g", r.tpot, floor_s);
    const double cache_avg = r.kv_bytes_per_token * (512 + 64);
    ck_assert_msg(r.tpot <= 1.01 * (r.memory.weights + cache_avg) / (0.9 * 3.35e12),
                  "tpot %g", r.tpot);
    ck_assert(r.tpot_last >= r.tpot);
    /* Every decode operation is memory-bound; the weight GEMMs sit at intensity ~ batch. */
    for (int i = 0; i < r.decode.n_ops; i++) {
        const struct op *o = &r.decode.ops[i];
        ck_assert_msg(!o->compute_bound, "decode %s compute-bound", o->name);
        if (o->kind == OP_QKV || o->kind == OP_MLP_UP || o->kind == OP_OUT_PROJ)
            ck_assert_rel(o->intensity, 1.0, 0.01);
    }
    /* Batch 64: the same weights serve 64 tokens, intensity ~64, still below the ridge 295. */
    s.batch = 64;
    run_ok(&s, &r);
    for (int i = 0; i < r.decode.n_ops; i++)
        if (r.decode.ops[i].kind == OP_MLP_UP) {
            ck_assert_rel(r.decode.ops[i].intensity, 64.0, 0.03);
            ck_assert(!r.decode.ops[i].compute_bound);
        }
}
END_TEST

/* A MoE decode step reads the experts its tokens chose, not all of them: Mixtral 8x7B
 * (Jiang et al. 2024: each token "only uses 13B active parameters during inference" of 47B;
 * 2 of 8 experts) at batch 1 reads 32 layers x 2 experts x 4096 x 14336 bf16 weights in
 * mlp_up; at batch 2, 8 (1 - (6/8)^2) = 3.5 experts on average; a 2k-token prompt all 8
 * (found by review: every decode step read all 8 experts, 4x the batch-1 weights). */
START_TEST(moe_decode_reads_chosen_experts)
{
    struct scenario s = on_h100("mixtral-8x7b");
    s.batch = 1;
    s.prompt = 2048;
    s.generate = 2;
    struct infer_result r;
    run_ok(&s, &r);
    const double expert = 4096.0 * 14336 * 2; /* one expert's up matrix, bf16 */
    const struct op *up = NULL, *pre = NULL;
    for (int i = 0; i < r.decode.n_ops; i++)
        if (r.decode.ops[i].kind == OP_MLP_UP)
            up = &r.decode.ops[i];
    for (int i = 0; i < r.prefill.n_ops; i++)
        if (r.prefill.ops[i].kind == OP_MLP_UP)
            pre = &r.prefill.ops[i];
    ck_assert_ptr_nonnull(up);
    ck_assert_ptr_nonnull(pre);
    /* + the tokens' copies in and out: 2 per token, 4096 in and 14336 out, bf16. */
    ck_assert_rel(up->bytes, 32 * (2 * expert + 2 * 2 * (4096.0 + 14336)), 1e-12);
    ck_assert(pre->bytes > 32 * 8 * expert);
    s.batch = 2;
    run_ok(&s, &r);
    for (int i = 0; i < r.decode.n_ops; i++)
        if (r.decode.ops[i].kind == OP_MLP_UP)
            ck_assert_rel(r.decode.ops[i].bytes, 32 * (3.5 * expert + 4 * 2 * (4096.0 + 14336)),
                          1e-12);
}
END_TEST

START_TEST(prefill_compute_bound)
{
    /* A 2k prompt on an H100: the GEMMs have 2048 rows, far above the ridge of 295. */
    struct scenario s = on_h100("llama2-7b");
    s.prompt = 2048;
    s.generate = 1;
    struct infer_result r;
    run_ok(&s, &r);
    ck_assert_msg(r.prefill.intensity > 295.0, "prefill intensity %g", r.prefill.intensity);
    for (int i = 0; i < r.prefill.n_ops; i++)
        if (r.prefill.ops[i].kind == OP_QKV || r.prefill.ops[i].kind == OP_MLP_DOWN)
            ck_assert(r.prefill.ops[i].compute_bound);
    /* FLOPs: 2 N per token for the layers' matmuls + 4 L s h for attention (reference.md
     * section 2), the LM head once (the last token's logits), plus ~0.1% elementwise work. */
    struct param_counts pc;
    model_params(&s.model, &pc);
    const double layers = (double)(pc.attention + pc.mlp);
    const double want = 2.0 * layers * 2048 + 4.0 * 32 * 2048.0 * 2048 * 4096 + 2.0 * 4096 * 32000;
    ck_assert_rel(r.prefill.flops, want, 0.005);
    /* TTFT at least the FLOPs at the peak; with generate 1 it is all the latency. */
    ck_assert(r.ttft >= r.prefill.flops / 989.4e12);
    ck_assert_int_eq(r.decode_steps, 0);
    ck_assert(r.end_to_end == r.ttft);
}
END_TEST

START_TEST(max_batch_consistent)
{
    const char *models[] = {"llama2-7b", "llama3.1-8b", "mistral-7b", "deepseek-v2-lite"};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        struct scenario s = on_h100(models[i]);
        s.prompt = 1024;
        s.generate = 1024;
        struct infer_result r;
        run_ok(&s, &r);
        ck_assert_msg(r.max_batch >= 1, "%s: max batch %lld", models[i], (long long)r.max_batch);
        s.batch = r.max_batch;
        run_ok(&s, &r);
        ck_assert_msg(r.memory.fits, "%s: max batch %lld does not fit", models[i], (long long)s.batch);
        ck_assert(r.memory.total == r.memory.weights + r.memory.kv_cache + r.memory.activations);
        s.batch += 1;
        run_ok(&s, &r);
        ck_assert_msg(!r.memory.fits, "%s: batch %lld fits too", models[i], (long long)s.batch);
    }
    /* Llama-2-70B in bf16 (138 GB) fits on no single H100: max batch 0, and does not fit. */
    struct scenario s = on_h100("llama2-70b");
    struct infer_result r;
    run_ok(&s, &r);
    ck_assert_int_eq(r.max_batch, 0);
    ck_assert(!r.memory.fits);
}
END_TEST

START_TEST(weights_dtypes)
{
    /* int4 with one fp16 scale per 128 values: 0.5 + 2/128 bytes per weight. */
    ck_assert(dtype_bytes(DTYPE_INT4) == 0.515625);
    ck_assert(!dtype_trains(DTYPE_INT4) && !dtype_trains(DTYPE_INT8) && dtype_trains(DTYPE_BF16));
    struct scenario s = on_h100("llama2-7b");
    struct param_counts pc;
    model_params(&s.model, &pc);
    const double linear = (double)(pc.attention + pc.mlp);
    const double other = (double)(pc.embedding + pc.lm_head);
    struct infer_result r;
    s.weights_dtype = DTYPE_INT4;
    run_ok(&s, &r);
    /* The blocks' linear layers in int4; embeddings, LM head and norms stay bf16. */
    ck_assert(r.memory.weights == linear * 0.515625 + other * 2.0 + (double)pc.norms * 2.0);
    s.weights_dtype = DTYPE_FP8_E4M3;
    run_ok(&s, &r);
    ck_assert(r.memory.weights == linear + other * 2.0 + (double)pc.norms * 2.0);
    /* Batch-1 decode reads fewer bytes, so it is faster than bf16's. */
    const double fp8_tpot = r.tpot;
    s.weights_dtype = DTYPE_BF16;
    run_ok(&s, &r);
    ck_assert(fp8_tpot < 0.6 * r.tpot);
}
END_TEST

START_TEST(tensor_parallel)
{
    /* The step-time model's ring all-reduce on the H100's node (reference.md section 7):
     * 2(n-1)/n x S / B + 2(n-1) x lat; S = 1 GB over 8 GPUs. */
    struct scenario h = on_h100("llama2-7b");
    struct scenario only_gpu;
    memset(&only_gpu, 0, sizeof only_gpu);
    only_gpu.gpu = h.gpu;
    struct predict_node node;
    predict_node_of(&only_gpu, &node);
    ck_assert(node.nvlink_bw > 0 && node.nvlink_lat > 0);
    ck_assert_rel(infer_allreduce_seconds(&h.gpu, 1e9, 8),
                  2.0 * 7 / 8 * 1e9 / node.nvlink_bw + 14 * node.nvlink_lat, 1e-12);
    ck_assert(infer_allreduce_seconds(&h.gpu, 1e9, 1) == 0.0);

    /* Llama-2-70B bf16 on 2 and 4 H100s: the weights split, two all-reduces per layer per
     * step (80 layers: 160 of batch x 8192 x 2 bytes). */
    struct scenario s = on_h100("llama2-70b");
    struct param_counts pc;
    model_params(&s.model, &pc);
    struct infer_result r2, r4;
    s.tp = 2;
    run_ok(&s, &r2);
    s.tp = 4;
    run_ok(&s, &r4);
    ck_assert_rel(r2.memory.weights, 2.0 * (double)pc.total / 2, 0.001);
    ck_assert_rel(r4.memory.weights, 2.0 * (double)pc.total / 4, 0.001);
    ck_assert_rel(r2.decode.comm_seconds, 160 * infer_allreduce_seconds(&s.gpu, 8192.0 * 2, 2), 1e-9);
    ck_assert(r4.tpot < r2.tpot);
    ck_assert(r4.max_batch > 2 * r2.max_batch);
    ck_assert_rel(r4.tokens_per_s_per_gpu, r4.tokens_per_s / 4, 1e-12);
}
END_TEST

/* The memory an engine plans on (issue 20): vLLM's gpu_memory_utilization 0.9 of each GPU,
 * less the reserve (training's 2 GB: the CUDA context, NCCL, the allocator), is what the
 * weights, the KV cache and the activations must fit in; the max batch is what fits there.
 * Llama 3.1 8B in fp8 on an H100 (80 GB) at 128 + 2048 tokens: 70 GB planned on, batch 432
 * (502 on the whole 80 GB, which no engine plans on). The activations are one step's: an
 * engine prefills in chunks, B (1 + 128 / 2048) tokens a step but at least 2048
 * (trtllm-bench's max_num_tokens, tensorrt_llm/bench/build/tuning.py), 51,200 B a token
 * (2 x 4096 + 3 x 14336 fp8 elements), and each sequence's fp32 logits (4 x 128,256 B). */
START_TEST(hbm_fraction_and_reserve)
{
    struct scenario s = on_h100("llama3.1-8b");
    s.dtype = s.weights_dtype = s.kv_dtype = DTYPE_FP8_E4M3;
    s.prompt = 128;
    s.generate = 2048;
    struct infer_result r;
    run_ok(&s, &r);
    ck_assert_rel(r.memory.usable, 0.9 * 80e9 - 2e9, 1e-15);
    const double kv = 2176.0 * 65536.0, step = 2048.0 * 51200.0, logits = 4.0 * 128256.0;
    ck_assert_rel(r.kv_bytes_per_sequence_gpu, kv, 1e-15);
    ck_assert_int_eq(r.max_batch,
                     (int64_t)floor((r.memory.usable - r.memory.weights - step) / (kv + logits)));
    ck_assert_int_eq(r.max_batch, 432);
    s.batch = r.max_batch;
    run_ok(&s, &r);
    ck_assert(r.memory.fits);
    s.batch++;
    run_ok(&s, &r);
    ck_assert(!r.memory.fits && r.memory.total < r.memory.capacity); /* under 80 GB, over 70 */
    /* The whole device and no reserve: the batch the earlier model planned. */
    s.batch = 1;
    s.hbm_fraction = 1;
    s.memory_reserve = 0;
    run_ok(&s, &r);
    ck_assert_int_eq(r.max_batch, 502);
    /* Both are registry rows the infer command takes. */
    struct check_run c;
    ck_assert_int_eq(check_run_bin(&c, "infer --model llama3.1-8b --hbm-fraction 0.95 "
                                       "--memory-reserve 1GB --format json"), 0);
    ck_assert(strstr(c.out, "\"usable\":\t75000000000") != NULL);
    check_run_free(&c);
    ck_assert_int_eq(check_run_bin(&c, "infer --model llama3.1-8b --hbm-fraction 1.5"), 2);
    ck_assert_msg(strstr(c.err, "--hbm-fraction:") != NULL, "%s", c.err);
    check_run_free(&c);
    ck_assert_int_eq(check_run_bin(&c, "infer --model llama3.1-8b --memory-reserve 79GB"), 2);
    ck_assert_msg(strstr(c.err, "--memory-reserve: must be at least 0 and below the 72 GB") !=
                  NULL, "%s", c.err);
    check_run_free(&c);
}
END_TEST

/* Kernel rates by shape: a GEMM of M token rows computes on whole 64-row tiles (Hopper's wgmma
 * M = 64), so 4 prompts of 100 tokens (M = 400) pay for 448 rows when compute-bound, and at
 * the fraction its depth allows: K / (K + 720 bytes), 8192 / 8912 for K = 4096 in bf16 (the
 * fit to DeepGEMM's FP8 GEMMs, src/infer.c); the prefill's FlashAttention runs at the
 * step-time model's 0.51 of the peak. */
START_TEST(kernels_by_shape)
{
    struct scenario s = on_h100("llama3.1-8b");
    s.batch = 4;
    s.prompt = 100;
    s.generate = 16;
    struct infer_result r;
    run_ok(&s, &r);
    const double peak = gpu_peak(&s.gpu, DTYPE_BF16), bw = s.gpu.bandwidth;
    const double fill = 8192.0 / (8192.0 + 720.0);
    for (int i = 0; i < r.prefill.n_ops; i++) {
        const struct op *o = &r.prefill.ops[i];
        const double mem = o->bytes / (r.memory_eff * bw);
        if (o->kind == OP_QKV) {
            const double c = o->flops / (r.compute_eff * fill * (400.0 / 448.0) * peak);
            ck_assert(c > mem);
            ck_assert_rel(o->seconds, c, 1e-12);
        } else if (o->kind == OP_FLASH_ATTN) {
            ck_assert_rel(o->seconds, fmax(o->flops / (PREDICT_FLASH_EFFICIENCY * peak), mem),
                          1e-12);
        }
    }
    /* Decode's skinny GEMMs: the weights' stream and the math one after the other (each
     * weight byte used once per row), never below the padded tiles' math. */
    for (int i = 0; i < r.decode.n_ops; i++) {
        const struct op *o = &r.decode.ops[i];
        if (o->kind != OP_MLP_UP)
            continue;
        const double mem = o->bytes / (r.memory_eff * bw);
        const double sum = o->flops / (r.compute_eff * fill * peak) + mem;
        ck_assert(sum > mem * 1.001);
        ck_assert_rel(o->seconds,
                      fmax(sum, o->flops / (r.compute_eff * fill * peak) * 64.0 / (double)s.batch),
                      1e-12);
    }
    /* The down projection's K is the MLP's 14336: deeper, so nearer the GPU's figure than the
     * up projection's (their FLOPs are equal, compute-bound at 4096 rows). */
    s.batch = 32;
    s.prompt = 128;
    run_ok(&s, &r);
    double up = 0, down = 0;
    for (int i = 0; i < r.prefill.n_ops; i++) {
        if (r.prefill.ops[i].kind == OP_MLP_UP)
            up = r.prefill.ops[i].seconds;
        if (r.prefill.ops[i].kind == OP_MLP_DOWN)
            down = r.prefill.ops[i].seconds;
    }
    ck_assert_rel(up / down, (28672.0 / (28672.0 + 720.0)) / fill, 1e-9);
}
END_TEST

/*
 * Against published serving measurements: TensorRT-LLM's performance overview
 * (github.com/NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md at commit
 * 00f37686, "Total Output Throughput (tokens/sec)", trtllm-bench throughput with the PyTorch
 * backend, requests at an infinite rate, fixed ISL/OSL, ModelOpt FP8 checkpoints
 * nvidia/Llama-3.1-8B-Instruct-FP8 and nvidia/Llama-3.3-70B-Instruct-FP8; H100 SXM 80GB: 8B
 * at tp 1, 70B at tp 2; H200 SXM 141GB: both at tp 1; KV cache fraction 0.9-0.95). rooftop:
 * fp8 activations, weights and KV cache, the batch at the max batch that fits, output tokens
 * / (TTFT + steps x TPOT). Mean |error| on the H100 rows: 27.4% before issue 20 (all of HBM,
 * one GEMM efficiency for every shape), 20.1% with 0.9 of HBM and 64-row tiles, 11.5% (at
 * most +34.9%, 8B 128/128) with decode's GEMMs as stream + math and one step's activations
 * (chunked prefill), 11.0% with FlashAttention at 0.51 (predict.h), 7.4% (at most +23.8%,
 * 70B 128/128) with each GEMM at the efficiency its depth K allows (K / (K + 720 bytes), the
 * fit to DeepGEMM's FP8 GEMMs: src/infer.c); the H200 rows, never used to choose the model:
 * 23.5% -> 16.6% (at most +50.6%, 8B 128/128) -> 16.0% -> 12.6% (at most +35.5%). The bounds
 * hold the model to that (README table).
 */
struct published_row {
    const char *model;
    int64_t tp, isl, osl;
    double published;
};

static double published_error(const char *gpu, const struct published_row *row)
{
    struct scenario s = on_h100(row->model);
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_find_gpu(gpu, &s.gpu, err, sizeof err), "%s", err);
    s.dtype = s.weights_dtype = s.kv_dtype = DTYPE_FP8_E4M3;
    s.tp = row->tp;
    s.prompt = row->isl;
    s.generate = row->osl;
    struct infer_result r;
    run_ok(&s, &r);
    ck_assert(r.max_batch >= 1);
    s.batch = r.max_batch;
    run_ok(&s, &r);
    return r.tokens_per_s / row->published - 1.0;
}

static void published_table(const char *gpu, const struct published_row *rows, size_t n,
                            double row_bound, double mean_bound)
{
    double sum = 0, worst = 0;
    for (size_t i = 0; i < n; i++) {
        const double e = published_error(gpu, &rows[i]);
        sum += fabs(e);
        worst = fmax(worst, fabs(e));
        ck_assert_msg(fabs(e) < row_bound, "%s %s tp %lld %lld/%lld: %+.1f%%", gpu, rows[i].model,
                      (long long)rows[i].tp, (long long)rows[i].isl, (long long)rows[i].osl,
                      100 * e);
    }
    ck_assert_msg(sum / (double)n < mean_bound, "%s: mean |error| %.3f (worst %.3f)", gpu,
                  sum / (double)n, worst);
}

START_TEST(published_serving)
{
    static const struct published_row h100[] = {
        {"llama3.1-8b", 1, 128, 128, 28312},   {"llama3.1-8b", 1, 128, 2048, 22714},
        {"llama3.1-8b", 1, 128, 4096, 14325},  {"llama3.1-8b", 1, 500, 2000, 17660},
        {"llama3.1-8b", 1, 1000, 1000, 15220}, {"llama3.1-8b", 1, 1000, 2000, 13899},
        {"llama3.1-8b", 1, 2048, 128, 3450},   {"llama3.1-8b", 1, 2048, 2048, 9305},
        {"llama3.1-8b", 1, 5000, 500, 3459},   {"llama3.1-8b", 1, 20000, 2000, 1351},
        {"llama3.3-70b", 2, 128, 128, 6378},   {"llama3.3-70b", 2, 128, 2048, 6651},
        {"llama3.3-70b", 2, 128, 4096, 4199},  {"llama3.3-70b", 2, 500, 2000, 5222},
        {"llama3.3-70b", 2, 1000, 1000, 4205}, {"llama3.3-70b", 2, 1000, 2000, 4146},
        {"llama3.3-70b", 2, 2048, 128, 762},   {"llama3.3-70b", 2, 2048, 2048, 3082},
        {"llama3.3-70b", 2, 5000, 500, 898},   {"llama3.3-70b", 2, 20000, 2000, 437},
    };
    static const struct published_row h200[] = {
        {"llama3.1-8b", 1, 128, 128, 27911},   {"llama3.1-8b", 1, 128, 2048, 26221},
        {"llama3.1-8b", 1, 128, 4096, 18027},  {"llama3.1-8b", 1, 500, 2000, 20770},
        {"llama3.1-8b", 1, 1000, 1000, 17744}, {"llama3.1-8b", 1, 1000, 2000, 16828},
        {"llama3.1-8b", 1, 2048, 128, 3538},   {"llama3.1-8b", 1, 2048, 2048, 12194},
        {"llama3.1-8b", 1, 5000, 500, 3902},   {"llama3.1-8b", 1, 20000, 2000, 1804},
        {"llama3.3-70b", 1, 128, 128, 3803},   {"llama3.3-70b", 1, 128, 2048, 4336},
        {"llama3.3-70b", 1, 128, 4096, 2872},  {"llama3.3-70b", 1, 500, 2000, 3666},
        {"llama3.3-70b", 1, 1000, 1000, 2909}, {"llama3.3-70b", 1, 1000, 2000, 2994},
        {"llama3.3-70b", 1, 2048, 128, 442},   {"llama3.3-70b", 1, 2048, 2048, 2003},
        {"llama3.3-70b", 1, 5000, 500, 566},   {"llama3.3-70b", 1, 20000, 2000, 283},
    };
    published_table("h100-sxm", h100, sizeof h100 / sizeof h100[0], 0.25, 0.08);
    published_table("h200", h200, sizeof h200 / sizeof h200[0], 0.37, 0.13);
}
END_TEST

START_TEST(validation)
{
    char err[512];
    struct scenario s = on_h100("llama2-7b");
    s.tp = 3;
    ck_assert(!infer_validate(&s, err, (int)sizeof err));
    ck_assert_msg(strncmp(err, "--tp:", 5) == 0, "%s", err);
    s = on_h100("llama2-7b");
    s.prompt = 4000;
    s.generate = 200; /* 4200 > the 4096 context */
    ck_assert(!infer_validate(&s, err, (int)sizeof err));
    ck_assert_msg(strncmp(err, "--generate:", 11) == 0, "%s", err);
    s = on_h100("llama2-7b");
    s.memory_eff = 1.5; /* 0 means the GPU's figure; above 1 is impossible */
    ck_assert(!infer_validate(&s, err, (int)sizeof err));
    ck_assert_msg(strncmp(err, "--memory-eff:", 13) == 0, "%s", err);
    s = on_h100("llama2-7b");
    s.dtype = DTYPE_INT4;
    ck_assert(!infer_validate(&s, err, (int)sizeof err));
    ck_assert_msg(strncmp(err, "--dtype:", 8) == 0, "%s", err);
}
END_TEST

/* A model file under tests/data/models ($ROOFTOP_SPECS/.. is the repository). */
static struct model_arch data_model(const char *file)
{
    const char *env = getenv("ROOFTOP_SPECS");
    char path[4096];
    if (env)
        snprintf(path, sizeof path, "%s/../tests/data/models/%s", env, file);
    else
        snprintf(path, sizeof path, "tests/data/models/%s", file);
    struct model_arch m;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_load_model_file(path, &m, err, sizeof err), "%s", err);
    return m;
}

START_TEST(llm_analysis_llama_a100)
{
    /*
     * llm-analysis (github.com/cli99/llm-analysis, commit b60b392), examples/llama/
     * outputs_infer/ (the -summary.json files): LLaMA 7B-65B on an A100 SXM 80GB, batch 1, prompt 512,
     * 32 generated tokens, flops_efficiency 0.7, hbm_memory_efficiency 0.9; 65B at tp 2.
     * Their figures: kv_cache_memory_per_gpu; weight_memory_per_gpu + embedding_memory_per_gpu;
     * prefill_num_flops_fwd_total (all GPUs); prefill_latency; decode_latency (one step).
     * KV caches agree exactly (same formula). The rest within the stated tolerances, for
     * these reasons: their MLP is 8h^2 (ffn 8h/3) where the configs have 11008, 13824, 17920,
     * 22016 (+0.5-0.8% weights); their prefill runs the LM head on all 512 tokens, ours on
     * the last; our prefill adds the norms', RoPE's and residuals' memory time (TTFT +3-5%)
     * and runs each GEMM at the efficiency its depth allows, 0.7 x K / (K + 720 bytes) (K of
     * 4096 to 22016 in bf16: 0.92-0.98 of theirs, which is 0.7 at every shape): TTFT +8-11%;
     * their decode reads the whole embedding table every step and their all-reduce costs at
     * least 8 us where the step-time model's ring costs 2(n-1) x 1 us (TPOT -1-4%).
     */
    const struct {
        const char *model;   /* preset (same shape as LLaMA-1) or tests/data file */
        bool file;
        int64_t tp;
        double kv, weights, prefill_flops, ttft, tpot;
    } rows[] = {
        {"llama2-7b", false, 1, 285212672.0, 13147045888.0 + 262144000.0, 6868726448128.0,
         0.03188561941644569, 0.0074788276267005824},
        {"llama2-13b", false, 1, 445644800.0, 25493504000.0 + 327680000.0, 13267422412800.0,
         0.06138395353600637, 0.01438337208991216},
        {"llama1-30b.json", true, 1, 869007360.0, 64221347840.0 + 425984000.0, 33300089405440.0,
         0.1535964519380898, 0.0359529896566166},
        {"llama1-65b.json", true, 2, 713031680.0, 64686653440.0 + 262144000.0, 66926327889920.0,
         0.1594699851924863, 0.03746739204280868},
    };
    struct gpu_spec a100;
    char err[SPEC_ERR_MAX];
    ck_assert_msg(spec_find_gpu("a100-80gb", &a100, err, sizeof err), "%s", err);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct scenario s;
        infer_default(&s);
        s.model = rows[i].file ? data_model(rows[i].model) : preset(rows[i].model);
        s.gpu = a100;
        s.tp = rows[i].tp;
        s.batch = 1;
        s.prompt = 512;
        s.generate = 32;
        s.compute_eff = 0.7;
        s.memory_eff = 0.9;
        struct infer_result r;
        run_ok(&s, &r);
        ck_assert_msg(r.memory.kv_cache == rows[i].kv, "%s kv %.0f", rows[i].model, r.memory.kv_cache);
        ck_assert_rel(r.memory.weights, rows[i].weights, 0.01);
        ck_assert_rel(r.prefill.flops * (double)s.tp, rows[i].prefill_flops, 0.02);
        /* Ours is the slower by what the comment explains (+3-5% memory time, depth 0.92-0.98:
         * 1.076 to 1.107 of theirs), within 4% of 1.09 of theirs. */
        ck_assert_rel(r.ttft, 1.09 * rows[i].ttft, 0.04);
        ck_assert_rel(r.tpot, rows[i].tpot, 0.04);
    }
}
END_TEST

START_TEST(cli_inputs_registry)
{
    /* Every serving input is a row of the registry (issue 7), hidden from the training
     * sliders: one grammar (2Ki = 2048, 1k = 1000, 50%), "auto" dtypes and efficiencies. */
    static const char *const keys[] = {"prompt", "generate", "weights_dtype", "kv_dtype",
                                       "compute_eff", "memory_eff"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct input *in = inputs_find(keys[i]);
        ck_assert_msg(in != NULL, "%s: no registry row", keys[i]);
        ck_assert(in->flags & INPUT_HIDDEN);
    }
    struct scenario s = on_h100("llama2-7b");
    char err[512];
    char *argv[] = {"infer", "--prompt", "2Ki", "--generate", "1k", "--kv-dtype", "fp8",
                    "--dtype", "fp16", "--weights-dtype", "auto", "--compute-eff", "50%",
                    "--memory-eff", "auto"};
    ck_assert_msg(infer_cli_parse(&s, 15, argv, 1, NULL, err, sizeof err), "%s", err);
    ck_assert_int_eq(s.prompt, 2048);
    ck_assert_int_eq(s.generate, 1000);
    ck_assert_int_eq(infer_kv_dtype(&s), DTYPE_FP8_E4M3);   /* given: --dtype leaves it */
    ck_assert_int_eq(infer_weights_dtype(&s), DTYPE_FP16);  /* auto: the dtype */
    ck_assert(s.compute_eff == 0.5);
    ck_assert(s.memory_eff == 0.0);           /* auto: the GPU spec's figure */
    char *later[] = {"infer", "--weights-dtype", "int4", "--kv-dtype", "auto", "--dtype", "fp32"};
    s = on_h100("llama2-7b");
    ck_assert_msg(infer_cli_parse(&s, 7, later, 1, NULL, err, sizeof err), "%s", err);
    ck_assert_int_eq(infer_weights_dtype(&s), DTYPE_INT4);
    ck_assert_int_eq(infer_kv_dtype(&s), DTYPE_FP32);
    /* The registry's messages, named by the flag. */
    static const struct {
        const char *flag, *value, *want;
    } bad[] = {
        {"--prompt", "0", "--prompt: 0 is out of range (1 to 1B)"},
        {"--generate", "1.5", "--generate: '1.5' is not a whole number"},
        {"--compute-eff", "2", "--compute-eff: 2 is out of range"},
        {"--kv-dtype", "fp7", "--kv-dtype: 'fp7' is not one of auto, fp32"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *one[] = {"infer", (char *)bad[i].flag, (char *)bad[i].value};
        s = on_h100("llama2-7b");
        ck_assert(!infer_cli_parse(&s, 3, one, 1, NULL, err, sizeof err));
        ck_assert_msg(strncmp(err, bad[i].want, strlen(bad[i].want)) == 0, "%s", err);
    }
}
END_TEST

/* The inference view starts from what was typed with the training inputs: `rooftop --prompt
 * 8192 --generate 64`, then i, shows prompt 8192 and generate 64 (it showed 2048 and 256,
 * then, on Llama-2-7B's 4,096-token context, 2048 and 1024). */
START_TEST(view_starts_from_typed)
{
    struct check_run run;
    ck_assert_msg(check_run_bin(&run, "snapshot --size 120x40 --model llama3.1-8b --prompt 8192 "
                                      "--generate 64 --kv-dtype fp8 --keys i") == 0,
                  "%s", run.err);
    ck_assert_msg(strstr(run.out, " prompt ") && strstr(run.out, "8192 \xe2\x94\x82"), "%s",
                  run.out);
    ck_assert_msg(strstr(run.out, "1 x 8256 tokens"), "%s", run.out);
    check_run_free(&run);
    /* With no model typed (the lecture's 70B, no preset) the view serves a preset whose
     * context holds the typed 8,256 tokens, at prompt 8192 and generate 64. */
    ck_assert_msg(check_run_bin(&run, "snapshot --size 120x40 --prompt 8192 --generate 64 "
                                      "--keys i") == 0,
                  "%s", run.err);
    ck_assert_msg(strstr(run.out, "8192 \xe2\x94\x82") && strstr(run.out, "  64 \xe2\x94\x82"),
                  "%s", run.out);
    ck_assert_msg(strstr(run.out, "1 x 8256 tokens"), "%s", run.out);
    check_run_free(&run);
}
END_TEST

/* Whether two serving results are the same figures: rooftop infer's JSON of each, compared. */
static bool same_serving(const struct scenario *s, const struct infer_result *a,
                         const struct scenario *t, const struct infer_result *b)
{
    cJSON *ja = infer_report_json(s, a), *jb = infer_report_json(t, b);
    ck_assert_ptr_nonnull(ja);
    ck_assert_ptr_nonnull(jb);
    bool same = cJSON_Compare(ja, jb, true);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    return same;
}

/* The one evaluation's serving figures are infer_run's: evaluation_serve (rooftop infer, the
 * inference view, a serving sweep) and evaluation_run asked to serve, on Llama-3.1-8B (KV
 * 2 x 32 layers x 8 KV heads x 128 x 2 bytes = 131,072 per token); asking for them changes
 * none of the training figures. */
START_TEST(evaluation_serving_is_infer_run)
{
    static struct evaluation ev, plain;
    struct infer_result *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    struct scenario s = on_h100("llama3.1-8b");
    s.batch = 16;
    s.prompt = 8192;
    run_ok(&s, r);
    evaluation_serve(&s, &ev);
    ck_assert(ev.have_serving && !ev.have_points && ev.warn.n == 0);
    ck_assert_int_eq(ev.sc.prompt, 8192);
    ck_assert(ev.serving.kv_bytes_per_token == 131072.0);
    ck_assert(ev.serving.ttft == r->ttft && ev.serving.tpot == r->tpot);
    ck_assert(same_serving(&s, r, &ev.sc, &ev.serving));

    /* A training scenario that serves too: the default layout on the same model. */
    struct scenario t;
    char err[512];
    inputs_defaults(&t);
    t.model = preset("llama3.1-8b");
    ck_assert_msg(scenario_validate(&t, err, (int)sizeof err), "%s", err);
    ck_assert_msg(infer_validate(&t, err, (int)sizeof err), "%s", err);
    run_ok(&t, r);
    struct eval_input in = {.serve = true};
    evaluation_run(&t, &in, &ev);
    evaluation_run(&t, NULL, &plain);
    ck_assert(ev.have_serving && !plain.have_serving);
    ck_assert(same_serving(&t, r, &ev.sc, &ev.serving));
    ck_assert(ev.an.memory.total == plain.an.memory.total && ev.an.memory.total > 0);
    ck_assert(ev.pred.step_seconds == plain.pred.step_seconds && ev.pred.step_seconds > 0);
    ck_assert(ev.an.time.seconds == plain.an.time.seconds);
    ck_assert_int_eq(ev.warn.n, plain.warn.n);
    free(r);
}
END_TEST

/* `rooftop infer` prints the one evaluation's serving figures: its JSON is infer_run's for
 * the scenario its flags make. */
START_TEST(cli_json_is_infer_run)
{
    char *argv[] = {"infer", "--model", "llama3.1-8b", "--batch", "8"};
    struct scenario s;
    char err[512];
    ck_assert_msg(infer_cli_scenario(&s, 5, argv, 1, NULL, err, sizeof err), "%s", err);
    struct infer_result *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    run_ok(&s, r);
    cJSON *want = infer_report_json(&s, r);
    ck_assert_ptr_nonnull(want);
    struct check_run run;
    ck_assert_msg(check_run_bin(&run, "infer --model llama3.1-8b --batch 8 --format json") == 0,
                  "%s", run.err);
    cJSON *got = cJSON_Parse(run.out);
    ck_assert_msg(got != NULL, "%s", run.out);
    ck_assert_msg(cJSON_Compare(want, got, true), "%s", run.out);
    const cJSON *kv = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(got, "kv"), "bytes_per_token");
    ck_assert_msg(cJSON_IsNumber(kv), "%s", run.out);
    ck_assert(cJSON_GetNumberValue(kv) == 131072.0);
    cJSON_Delete(got);
    cJSON_Delete(want);
    check_run_free(&run);
    free(r);
}
END_TEST

START_TEST(probe_decode_shapes)
{
    /* Decode's weight GEMMs at batch B: M = B rows; Llama-2-7B's QKV is 4096 -> 3 x 4096, its
     * MLP 4096 -> 11008; tensor parallelism splits the output widths. */
    struct scenario s = on_h100("llama2-7b");
    const int64_t batches[] = {1, 8, 64};
    char buf[4096];
    ck_assert(infer_probe_shapes(&s, batches, 3, buf, sizeof buf));
    ck_assert_msg(strstr(buf, "b1_qkv=1,12288,4096") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, "b8_mlp_down=8,4096,11008") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, "b64_lm_head=64,32000,4096") != NULL, "%s", buf);
    s.tp = 2;
    ck_assert(infer_probe_shapes(&s, batches, 1, buf, sizeof buf));
    ck_assert_msg(strstr(buf, "b1_qkv=1,6144,4096;") != NULL, "%s", buf);
    /* Too small a buffer, or a batch of 0, is refused. */
    ck_assert(!infer_probe_shapes(&s, batches, 3, buf, 40));
    const int64_t zero[] = {0};
    ck_assert(!infer_probe_shapes(&s, zero, 1, buf, sizeof buf));
}
END_TEST

static Suite *infer_suite(void)
{
    Suite *s = suite_create("infer");
    TCase *tc = tcase_create("infer");
    tcase_add_test(tc, kv_per_token_exact);
    tcase_add_test(tc, kv_windows_and_tp);
    tcase_add_test(tc, mla_params_exact);
    tcase_add_test(tc, decode_memory_bound);
    tcase_add_test(tc, moe_decode_reads_chosen_experts);
    tcase_add_test(tc, prefill_compute_bound);
    tcase_add_test(tc, max_batch_consistent);
    tcase_add_test(tc, weights_dtypes);
    tcase_add_test(tc, tensor_parallel);
    tcase_add_test(tc, validation);
    tcase_add_test(tc, hbm_fraction_and_reserve);
    tcase_add_test(tc, kernels_by_shape);
    tcase_add_test(tc, published_serving);
    tcase_add_test(tc, llm_analysis_llama_a100);
    tcase_add_test(tc, probe_decode_shapes);
    tcase_add_test(tc, cli_inputs_registry);
    tcase_add_test(tc, view_starts_from_typed);
    tcase_add_test(tc, evaluation_serving_is_infer_run);
    tcase_add_test(tc, cli_json_is_infer_run);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(infer_suite());
}
