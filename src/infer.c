/* infer.c - serving: memory with the KV cache, prefill and decode, latency, throughput. */
#include "infer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "flops.h"
#include "inputs.h"
#include "measured.h"
#include "predict.h"
#include "scenario.h"

/* Longest prompt + generation rooftop models (far beyond any released context). */
#define INFER_TOKENS_MAX 100000000LL

void infer_default(struct scenario *s)
{
    /* The registry's defaults (its GPU and dtype, the serving lengths, reserve and
     * efficiencies on auto; tp 1) with serving's own layout: one GPU serving one sequence. The
     * training rows' defaults (1024 GPUs, batch 2048) describe the lecture's run instead. */
    inputs_defaults(s);
    s->gpus = 1;
    s->batch = 1;
    s->micro_batch = 0;
}

enum dtype infer_weights_dtype(const struct scenario *s)
{
    return s->weights_dtype == SCENARIO_DTYPE_AUTO ? s->dtype : s->weights_dtype;
}

enum dtype infer_kv_dtype(const struct scenario *s)
{
    return s->kv_dtype == SCENARIO_DTYPE_AUTO ? s->dtype : s->kv_dtype;
}

/* The fraction of HBM planned on: the input, or vLLM's default. */
static double hbm_fraction(const struct scenario *s)
{
    return s->hbm_fraction > 0 ? s->hbm_fraction : INFER_HBM_FRACTION_DEFAULT;
}

void infer_efficiencies(const struct scenario *s, double *compute, double *memory)
{
    const struct gpu_spec *g = &s->gpu;
    *compute = s->compute_eff > 0 ? s->compute_eff
               : g->gemm_efficiency > 0 ? g->gemm_efficiency
                                        : PREDICT_GEMM_EFFICIENCY;
    *memory = s->memory_eff > 0 ? s->memory_eff
              : g->memory_efficiency > 0 ? g->memory_efficiency
                                         : PREDICT_MEMORY_EFFICIENCY;
}

static bool act_dtype_ok(enum dtype d)
{
    return d == DTYPE_FP32 || d == DTYPE_BF16 || d == DTYPE_FP16 || d == DTYPE_FP8_E4M3 ||
           d == DTYPE_FP8_E5M2;
}

void infer_dtypes(const struct gpu_spec *g, char *buf, size_t n)
{
    static const enum dtype acts[] = {DTYPE_FP32, DTYPE_BF16, DTYPE_FP16, DTYPE_FP8_E4M3,
                                      DTYPE_FP8_E5M2};
    const int count = (int)(sizeof acts / sizeof acts[0]);
    int usable = 0, shown = 0;
    for (int i = 0; i < count; i++)
        usable += gpu_peak(g, acts[i]) > 0;
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && at < n; i++) {
        if (!(gpu_peak(g, acts[i]) > 0))
            continue;
        int w = snprintf(buf + at, n - at, "%s%s",
                         shown == 0 ? "" : shown == usable - 1 ? " or " : ", ", dtype_name(acts[i]));
        if (w < 0)
            break;
        at += (size_t)w;
        shown++;
    }
    if (usable == 0)
        snprintf(buf, n, "none");
}

bool infer_validate(const struct scenario *s, char *err, int errlen)
{
    const size_t n = (size_t)errlen;
    if (!model_validate(&s->model, err, errlen))
        return false;
    if (s->tp < 1 || s->tp > s->model.heads || s->model.heads % s->tp != 0) {
        snprintf(err, n, "--tp: %lld does not divide the model's %lld heads", (long long)s->tp,
                 (long long)s->model.heads);
        return false;
    }
    if (s->batch < 1 || s->batch > INFER_BATCH_MAX) {
        snprintf(err, n, "--batch: must be between 1 and %lld, got %lld",
                 (long long)INFER_BATCH_MAX, (long long)s->batch);
        return false;
    }
    if (s->prompt < 1 || s->prompt > INFER_TOKENS_MAX) {
        snprintf(err, n, "--prompt: must be between 1 and %lld tokens, got %lld",
                 (long long)INFER_TOKENS_MAX, (long long)s->prompt);
        return false;
    }
    if (s->generate < 1 || s->generate > INFER_TOKENS_MAX) {
        snprintf(err, n, "--generate: must be between 1 and %lld tokens, got %lld",
                 (long long)INFER_TOKENS_MAX, (long long)s->generate);
        return false;
    }
    if (s->prompt + s->generate > s->model.context) {
        snprintf(err, n, "--generate: prompt %lld + generate %lld tokens exceed %s's context of %lld",
                 (long long)s->prompt, (long long)s->generate, s->model.name,
                 (long long)s->model.context);
        return false;
    }
    if (!act_dtype_ok(s->dtype) || (s->gpu.bandwidth > 0 && !(gpu_peak(&s->gpu, s->dtype) > 0))) {
        char has[128];
        infer_dtypes(&s->gpu, has, sizeof has);
        snprintf(err, n, "--dtype: the activations on the %s are %s, not %s", s->gpu.name, has,
                 dtype_name(s->dtype));
        return false;
    }
    const enum dtype wd = infer_weights_dtype(s), kd = infer_kv_dtype(s);
    if ((unsigned)wd >= DTYPE_COUNT || wd == DTYPE_FP64 || wd == DTYPE_TF32) {
        snprintf(err, n, "--weights-dtype: must be fp32, bf16, fp16, fp8, int8, int4 or fp4");
        return false;
    }
    if ((unsigned)kd >= DTYPE_COUNT || kd == DTYPE_FP64 || kd == DTYPE_TF32) {
        snprintf(err, n, "--kv-dtype: must be fp32, bf16, fp16, fp8, int8, int4 or fp4");
        return false;
    }
    if (!(s->compute_eff >= 0 && s->compute_eff <= 1)) {
        snprintf(err, n, "--compute-eff: must be in (0, 1], got %g", s->compute_eff);
        return false;
    }
    if (!(s->memory_eff >= 0 && s->memory_eff <= 1)) {
        snprintf(err, n, "--memory-eff: must be in (0, 1], got %g", s->memory_eff);
        return false;
    }
    if (!(s->hbm_fraction >= 0 && s->hbm_fraction <= 1)) {
        snprintf(err, n, "--hbm-fraction: must be in (0, 1], got %g", s->hbm_fraction);
        return false;
    }
    if (!(s->memory_reserve >= 0) ||
        !(s->memory_reserve < hbm_fraction(s) * s->gpu.memory_bytes)) {
        snprintf(err, n, "--memory-reserve: must be at least 0 and below the %.3g GB planned on "
                 "(%.3g of the %s's %.3g GB), got %.3g GB", hbm_fraction(s) * s->gpu.memory_bytes / 1e9,
                 hbm_fraction(s), s->gpu.name, s->gpu.memory_bytes / 1e9, s->memory_reserve / 1e9);
        return false;
    }
    if (!(s->gpu.bandwidth > 0) || !(gpu_peak(&s->gpu, s->dtype) > 0) || !(s->gpu.memory_bytes > 0)) {
        snprintf(err, n, "--gpu: %s lacks bandwidth, memory or a %s peak", s->gpu.name,
                 dtype_name(s->dtype));
        return false;
    }
    return true;
}

/* Elements one GPU caches per token per layer: whole KV heads on each rank (a rank cannot
 * hold part of a head; with more ranks than KV heads they are replicated), and MLA's shared
 * latent on every rank. */
static double cache_per_token_gpu(const struct model_arch *m, int64_t tp)
{
    struct attn_dims ad;
    model_attn_dims(m, &ad);
    const double heads = (double)ad.cache_heads;
    return (double)ad.cache_per_token * ceil(heads / (double)tp) / heads;
}

double infer_kv_bytes(const struct model_arch *m, double ctx, enum dtype kv, int64_t tp)
{
    const double local = (double)model_local_layers(m);
    const double w = (double)m->sliding_window;
    const double local_ctx = local > 0 && ctx > w ? w : ctx;
    const double tokens = ((double)m->layers - local) * ctx + local * local_ctx;
    return tokens * cache_per_token_gpu(m, tp) * dtype_bytes(kv);
}

double infer_allreduce_seconds(const struct gpu_spec *g, double bytes, int64_t n)
{
    /* The node comes from the GPU spec alone (no scenario overrides in serving). */
    struct scenario only_gpu;
    memset(&only_gpu, 0, sizeof only_gpu);
    only_gpu.gpu = *g;
    struct predict_node node;
    predict_node_of(&only_gpu, &node);
    return predict_collective(COLL_ALL_REDUCE, (double)n, bytes, node.nvlink_bw, node.nvlink_lat);
}

/* Weights on one GPU: the blocks' linear layers in the weight dtype; embeddings, LM head,
 * biases and norms stay in the activations' dtype, as GPTQ, AWQ and fp8 serving keep them.
 * Tensor parallelism splits the linear layers and the vocabulary; norms are replicated. */
static double weight_bytes(const struct scenario *s, const struct param_counts *pc)
{
    const double t = (double)s->tp, ea = dtype_bytes(s->dtype);
    const double ew = dtype_bytes(infer_weights_dtype(s));
    const double linear = (double)(pc->attention + pc->mlp + pc->router);
    const double other = (double)(pc->embedding + pc->position + pc->lm_head + pc->biases);
    return (linear * ew + other * ea) / t + (double)pc->norms * ea;
}

/* Tokens an engine runs in one step, at most: in-flight batching mixes the batch's decode
 * tokens with chunks of new prompts, B (1 + prompt / generate) tokens a step in the steady
 * state, at least 2048 and at most 32768 (trtllm-bench's max_num_tokens,
 * tensorrt_llm/bench/build/tuning.py finetune_setting; vLLM's max_num_batched_tokens bounds
 * a step alike), and never more than the whole batch's prompts. */
#define INFER_STEP_TOKENS_MIN 2048.0
#define INFER_STEP_TOKENS_MAX 32768.0

static double step_tokens(const struct scenario *s, double B)
{
    const double P = (double)s->prompt, N = (double)s->generate;
    const double steady = fmin(fmax(B * (1.0 + P / N), INFER_STEP_TOKENS_MIN),
                               INFER_STEP_TOKENS_MAX);
    return fmin(B * P, steady);
}

/* Transient activations on one GPU at batch B, the largest a layer keeps live (FlashAttention,
 * so no score matrix) for one step's tokens (step_tokens: prompts are prefilled in chunks):
 * the residual stream in and out plus the larger of the attention's projections and the
 * MLP's hidden tensors, and the fp32 logits of each sequence's last position. */
static double activation_bytes(const struct scenario *s, double B)
{
    const struct model_arch *m = &s->model;
    struct attn_dims ad;
    model_attn_dims(m, &ad);
    const double t = (double)s->tp, h = (double)m->d_model;
    const double attn = ((double)ad.q_width + (double)ad.cache_per_token + (double)ad.o_width) / t;
    const double routed = model_experts_visited(m);
    const double f = model_is_moe(m) ? (double)model_expert_ffn(m) : (double)m->ffn;
    const double f_dense = (double)m->ffn;
    const double widest = routed * f > f_dense ? routed * f : f_dense;
    const double mlp = (model_mlp_gated(m->mlp) ? 3.0 : 2.0) * widest / t;
    const double live = 2.0 * h + (attn > mlp ? attn : mlp);
    return step_tokens(s, B) * live * dtype_bytes(s->dtype) + B * 4.0 * (double)m->vocab / t;
}

/* The largest batch whose cache and activations fit in room (both grow with the batch). */
static int64_t max_batch_in(const struct scenario *s, double kv_seq, double room)
{
    double lo = 0.0, hi = (double)INFER_BATCH_MAX;
    if (!(room > 0))
        return 0;
    if (hi * kv_seq + activation_bytes(s, hi) <= room)
        return INFER_BATCH_MAX;
    while (hi - lo > 1.0) {
        const double mid = floor((lo + hi) / 2.0);
        if (mid * kv_seq + activation_bytes(s, mid) <= room)
            lo = mid;
        else
            hi = mid;
    }
    return (int64_t)lo;
}

/* Whether an op kind is a weight GEMM, and how many run side by side on its tokens: a MoE
 * layer's routed experts. */
static bool weight_gemm(const struct model_arch *m, enum op_kind k, double *groups)
{
    *groups = 1.0;
    switch (k) {
    case OP_MLP_UP:
    case OP_MLP_GATE:
    case OP_MLP_DOWN:
        if (model_is_moe(m))
            *groups = (double)m->experts;
        return true;
    case OP_QKV:
    case OP_OUT_PROJ:
    case OP_LM_HEAD:
        return true;
    default:
        return false;
    }
}

/* Tensor cores multiply in tiles of at least 64 rows (Hopper's wgmma instructions take
 * M = 64 per warpgroup; CUTLASS's and cuBLAS's smallest CTA tiles are 64 rows on Ampere and
 * Hopper): a GEMM of M token rows computes ceil(M / 64) x 64 of them. The fraction of that
 * work that is real. */
static double row_fill(double M)
{
    return M > 0 ? M / (ceil(M / 64.0) * 64.0) : 1.0;
}

/*
 * A weight GEMM's output tile pays a fixed time besides its K loop (filling the load
 * pipeline, writing the tile out), so a shallow GEMM reaches less of the peak than a deep one:
 * the fraction K / (K + K0), with K0 INFER_TILE_FIXED_BYTES of the K loop (the same bytes in
 * fp8 and bf16: a tile's stage holds as many bytes, half as many elements in bf16). K0 is the
 * least-squares fit of E K / (K + K0) to DeepGEMM's FP8 GEMMs at M = 4096, N >= 4096 on an
 * H800 (deepseek-ai/DeepGEMM README at a6d97a1, "Normal GEMMs for dense models": K 512, 1536,
 * 2048, 7168, 16384 at 590, 990, 1025, 1304, 1358 TFLOPS; the fit E = 1422 TFLOPS, K0 = 720,
 * each within 3%). The GPU's GEMM efficiency is its best shape's, the deep limit here.
 */
#define INFER_TILE_FIXED_BYTES 720.0

/* The reduction depth K of a weight GEMM on one rank: d_model, but for the output projection
 * (the heads' outputs) and the MLP's down projection (its hidden width, an expert's in a MoE
 * model), both split by tensor parallelism. */
static double gemm_depth(const struct scenario *s, enum op_kind k)
{
    const struct model_arch *m = &s->model;
    struct attn_dims ad;
    switch (k) {
    case OP_OUT_PROJ:
        model_attn_dims(m, &ad);
        return (double)ad.o_width / (double)s->tp;
    case OP_MLP_DOWN:
        return (double)(model_is_moe(m) ? model_expert_ffn(m) : m->ffn) / (double)s->tp;
    default:
        return (double)m->d_model;
    }
}

static double depth_fill(const struct scenario *s, enum op_kind k)
{
    const double kb = gemm_depth(s, k) * dtype_bytes(s->dtype);
    return kb / (kb + INFER_TILE_FIXED_BYTES);
}

/*
 * One serving op's time by its shape. A weight GEMM of M token rows computes on whole
 * 64-row tiles (row_fill): a short prompt's GEMMs pay for the padding of the last tile; a
 * MoE layer's chosen experts each take their share of the routed rows. Prefill's long-M
 * GEMMs reuse each weight tile across many row tiles and hide its load behind the math (the
 * roofline's max). A decode step's GEMM has one row per sequence: each weight byte streams
 * from HBM once and is used by every row once, so near the ridge (a batch of hundreds) the
 * stream and the math do not overlap and its time is their sum, never below the padded
 * tiles' math (at batch 1 the weights' stream alone; a GEMV does not pad to 64 rows). The
 * math runs at the efficiency its depth allows (depth_fill).
 * FlashAttention reaches PREDICT_FLASH_EFFICIENCY of the peak (never above the GEMMs'
 * fraction; the step-time model's figure): prefill's attention is compute-bound there,
 * decode's reads the cache at the bandwidth. Never faster than the roofline.
 */
static double op_seconds(const struct scenario *s, double rows, bool decode, const struct op *o)
{
    const struct model_arch *m = &s->model;
    double E, me;
    infer_efficiencies(s, &E, &me);
    const double peak = gpu_peak(&s->gpu, s->dtype), bw = s->gpu.bandwidth;
    const double mem = bw > 0 ? o->bytes / (me * bw) : 0.0;
    double groups = 1.0;
    double sec = o->seconds;
    if (weight_gemm(m, o->kind, &groups) && peak > 0) {
        double M = o->kind == OP_LM_HEAD ? (double)s->batch : rows;
        if (groups > 1) {
            /* The experts some token chose, E (1 - (1 - k/E)^T) (flops_pass reads as many),
             * share the T x k routed rows. */
            const double k = fmin((double)m->experts_active, groups);
            const double touched = groups * (1.0 - pow(1.0 - k / groups, fmax(rows, 1.0)));
            M = rows * k / fmax(touched, k);
        }
        const double Ek = E * depth_fill(s, o->kind);
        const double tiles = o->flops / (Ek * row_fill(M) * peak);
        sec = decode ? fmax(tiles, o->flops / (Ek * peak) + mem) : fmax(tiles, mem);
    } else if (o->kind == OP_FLASH_ATTN && peak > 0) {
        sec = fmax(o->flops / (fmin(PREDICT_FLASH_EFFICIENCY, E) * peak), mem);
    }
    return fmax(sec, o->seconds);
}

static void phase_run(const struct scenario *s, double queries, double keys,
                      struct infer_phase *ph)
{
    memset(ph, 0, sizeof *ph);
    struct flops_pass p = {
        .seqs = (double)s->batch,
        .queries = queries,
        .keys = keys,
        .head_tokens = (double)s->batch,
        .tp = (double)s->tp,
        .act = s->dtype,
        .weights = infer_weights_dtype(s),
        .kv = infer_kv_dtype(s),
        .flash = true,
    };
    infer_efficiencies(s, &p.compute_eff, &p.memory_eff);
    flops_pass(&s->model, &s->gpu, &p, ph->ops, &ph->n_ops);
    for (int i = 0; i < ph->n_ops; i++) {
        ph->ops[i].seconds = op_seconds(s, (double)s->batch * queries, queries == 1.0,
                                        &ph->ops[i]);
        ph->flops += ph->ops[i].flops;
        ph->bytes += ph->ops[i].bytes;
        ph->compute_seconds += ph->ops[i].seconds;
    }
    ph->intensity = ph->bytes > 0 ? ph->flops / ph->bytes : 0.0;
    ph->keys = keys;
    /* Megatron: an all-reduce of the tokens' hidden states after attention and after the MLP
     * of every layer. */
    const double msg = (double)s->batch * queries * (double)s->model.d_model * dtype_bytes(s->dtype);
    ph->comm_seconds = 2.0 * (double)s->model.layers * infer_allreduce_seconds(&s->gpu, msg, s->tp);
    ph->seconds = ph->compute_seconds + ph->comm_seconds;
}

/* Sum of min(c, w) over c = a .. b (integers, a <= b). */
static double sum_capped(double a, double b, double w)
{
    double sum = 0;
    double hi = b < w ? b : w;
    if (hi >= a)
        sum += (a + hi) * (hi - a + 1.0) / 2.0;
    double from = a > w + 1.0 ? a : w + 1.0;
    if (b >= from)
        sum += w * (b - from + 1.0);
    return sum;
}

/* Keys a decode token attends to, averaged over the layers and over the steps whose token
 * sits at positions a .. b (the token itself included). Exact with sliding windows. */
static double decode_keys(const struct model_arch *m, double a, double b)
{
    const double L = (double)m->layers, local = (double)model_local_layers(m);
    const double steps = b - a + 1.0;
    const double global_sum = (a + b) * steps / 2.0;
    const double local_sum = local > 0 ? sum_capped(a, b, (double)m->sliding_window) : 0.0;
    return ((L - local) * global_sum + local * local_sum) / (L * steps);
}

void infer_run(const struct scenario *s, struct infer_result *out)
{
    memset(out, 0, sizeof *out);
    const struct model_arch *m = &s->model;
    model_params(m, &out->params);
    struct attn_dims ad;
    model_attn_dims(m, &ad);

    const double P = (double)s->prompt, N = (double)s->generate, ctx = P + N;
    const enum dtype kd = infer_kv_dtype(s);
    out->kv_bytes_per_token = (double)ad.cache_per_token * (double)m->layers * dtype_bytes(kd);
    out->kv_bytes_per_token_gpu = cache_per_token_gpu(m, s->tp) * (double)m->layers * dtype_bytes(kd);
    out->kv_bytes_per_sequence_gpu = infer_kv_bytes(m, ctx, kd, s->tp);

    const double weights = weight_bytes(s, &out->params);
    const double B = (double)s->batch;
    out->memory.weights = weights;
    out->memory.kv_cache = B * out->kv_bytes_per_sequence_gpu;
    out->memory.activations = activation_bytes(s, B);
    out->memory.total = out->memory.weights + out->memory.kv_cache + out->memory.activations;
    out->memory.capacity = s->gpu.memory_bytes;
    out->memory.usable = hbm_fraction(s) * s->gpu.memory_bytes - s->memory_reserve;
    out->memory.fits = out->memory.total <= out->memory.usable;

    out->max_batch = max_batch_in(s, out->kv_bytes_per_sequence_gpu, out->memory.usable - weights);

    /* Prefill: every prompt token attends to the whole prompt (the full s^2 the FLOP counts
     * use throughout rooftop; a causal kernel skips about half of the scores). */
    phase_run(s, P, model_attn_span(m, P), &out->prefill);

    /* Prefill yields the first token; decode steps 1 .. N-1 feed token j at position P + j. */
    out->decode_steps = s->generate - 1;
    const double first = P + 1.0, last = P + (N > 1 ? N - 1.0 : 1.0);
    phase_run(s, 1.0, decode_keys(m, first, last), &out->decode);
    phase_run(s, 1.0, decode_keys(m, last, last), &out->decode_last);

    out->ttft = out->prefill.seconds;
    /* The weights' time is the same every step and the cache's grows linearly, so the step
     * at the average cache length takes the average time (each op stays on its side of the
     * ridge as the cache grows: the attention's FLOPs and bytes grow together). */
    out->tpot = out->decode.seconds;
    out->tpot_last = out->decode_last.seconds;
    out->end_to_end = out->ttft + (double)out->decode_steps * out->tpot;
    out->tokens_per_s = out->end_to_end > 0 ? B * N / out->end_to_end : 0.0;
    out->tokens_per_s_per_gpu = out->tokens_per_s / (double)s->tp;
    out->decode_tokens_per_s = out->tpot > 0 ? B / out->tpot : 0.0;

    infer_efficiencies(s, &out->compute_eff, &out->memory_eff);
    out->peak = gpu_peak(&s->gpu, s->dtype);
    out->bandwidth = s->gpu.bandwidth;
    out->ridge = out->bandwidth > 0 ? out->peak / out->bandwidth : 0.0;
}

bool infer_probe_shapes(const struct scenario *s, const int64_t *batches, int nb, char *buf,
                        size_t n)
{
    if (n == 0)
        return false;
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < nb; i++) {
        if (batches[i] < 1)
            return false;
        /* A decode step's GEMMs are a forward pass over batch tokens of one position each:
         * the training shapes of a micro-batch of `batch` sequences of 1 token. */
        struct scenario step;
        inputs_defaults(&step);
        step.model = s->model;
        step.gpu = s->gpu;
        step.tp = s->tp;
        step.gpus = s->tp;
        step.batch = batches[i];
        step.micro_batch = batches[i];
        step.seq = 1;
        step.dtype = s->dtype;
        char one[1024];
        if (!measured_shapes_arg(&step, one, sizeof one))
            return false;
        /* Each "LABEL=M,N,K" becomes "bB_LABEL=M,N,K". */
        for (char *p = one; *p;) {
            char *end = strchr(p, ';');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            int w = snprintf(buf + used, n - used, "%sb%lld_%.*s", used ? ";" : "",
                             (long long)batches[i], (int)len, p);
            if (w < 0 || (size_t)w >= n - used)
                return false;
            used += (size_t)w;
            p += len + (end ? 1 : 0);
        }
    }
    return true;
}
