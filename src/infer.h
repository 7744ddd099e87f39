/* infer.h - serving a model: memory per GPU with the KV cache, prefill and decode on the
 * roofline, latency and throughput (reference.md section 8). */
#ifndef ROOFTOP_INFER_H
#define ROOFTOP_INFER_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "dtype.h"
#include "gpu.h"
#include "model.h"
#include "scenario.h"

/* Largest batch max_batch reports (beyond it the answer is "more than this"). */
#define INFER_BATCH_MAX 1000000000LL

/* A serving scenario is a struct scenario (one registry of inputs, src/inputs.h): the model,
 * GPU and dtype, tp (GPUs serving one copy of the model), batch (sequences decoded together),
 * prompt and generate, the storage dtypes (weights_dtype, kv_dtype; auto: the dtype's), the
 * efficiencies, the memory reserve and the planned HBM fraction. The training layout's other
 * inputs (pp, zero, ...) are not read. */

/* The storage dtypes in use: the input, or the dtype's when it is auto. */
enum dtype infer_weights_dtype(const struct scenario *s);
enum dtype infer_kv_dtype(const struct scenario *s);

/* vLLM's gpu_memory_utilization default (vllm/config: 0.9). */
#define INFER_HBM_FRACTION_DEFAULT 0.9

/* One phase's totals on one GPU (prefill: the whole prompt; decode: one step of the batch). */
struct infer_phase {
    double flops;
    double bytes;
    double intensity;        /* flops / bytes */
    double compute_seconds;  /* the operations' roofline times at the assumed efficiencies */
    double comm_seconds;     /* tensor-parallel all-reduces: two per layer */
    double seconds;          /* compute + communication */
    double keys;             /* keys a new token attends to, averaged over the layers */
    struct op ops[ANALYSIS_MAX_OPS];
    int n_ops;
};

struct infer_result {
    struct param_counts params;
    struct {
        double weights;      /* bytes per GPU */
        double kv_cache;     /* the whole batch at prompt + generate tokens */
        double activations;  /* transient: the largest one layer of prefill keeps live */
        double total;
        double capacity;
        double usable;       /* capacity x the HBM fraction - the reserve: what fits uses */
        bool fits;
    } memory;
    double kv_bytes_per_token;          /* whole model: the formula from the config */
    double kv_bytes_per_token_gpu;      /* one GPU's share (whole KV heads, MLA replicated) */
    double kv_bytes_per_sequence_gpu;   /* one sequence at prompt + generate, windows applied */
    struct infer_phase prefill;
    struct infer_phase decode;          /* one step, averaged over the generated tokens */
    struct infer_phase decode_last;     /* the last step (the longest cache) */
    int64_t decode_steps;               /* generate - 1: prefill yields the first token */
    double ttft;                        /* time to first token: the prefill */
    double tpot;                        /* time per output token, averaged over the steps */
    double tpot_last;
    double end_to_end;                  /* ttft + decode_steps x tpot */
    double tokens_per_s;                /* generated tokens of the batch / end_to_end */
    double tokens_per_s_per_gpu;
    double decode_tokens_per_s;         /* batch / tpot: the steady decode rate */
    int64_t max_batch;                  /* largest batch whose memory fits */
    double compute_eff, memory_eff;     /* the efficiencies used (inputs or the GPU's) */
    double peak;                        /* dense FLOP/s of the activations' dtype */
    double bandwidth;
    double ridge;                       /* peak / bandwidth, FLOP/byte */
};

/* Defaults on the built-in H100: tp 1, batch 1, prompt 2048, generate 256, bf16 everywhere,
 * the GPU's efficiencies. The model must be set by the caller (a preset). */
void infer_default(struct scenario *s);

/* The activations' formats serving computes in on g (those it has a peak for): "fp32, bf16,
 * fp16, fp8-e4m3 or fp8-e5m2" on an H100; "none" for a GPU without peaks. */
void infer_dtypes(const struct gpu_spec *g, char *buf, size_t n);

/* Checks the inputs together. On error writes one line naming the flag ("--tp: 3 does not
 * divide the model's 32 heads") to err and returns false. */
bool infer_validate(const struct scenario *s, char *err, int errlen);

/* Computes everything; s must have passed infer_validate. Never NaN or infinity. The front
 * ends call it through the one evaluation (evaluation_serve, or evaluation_run asked to
 * serve: src/evaluation.h); tests/test_tree.c checks that nothing else does. */
void infer_run(const struct scenario *s, struct infer_result *out);

/* KV-cache bytes of one sequence of ctx tokens on one of tp GPUs (sliding-window layers keep
 * at most the window). */
double infer_kv_bytes(const struct model_arch *m, double ctx, enum dtype kv, int64_t tp);

/* One all-reduce of `bytes` over n GPUs of one NVLink domain of GPU g: the step-time model's
 * ring (predict_collective) on g's node; 0 for n = 1. */
double infer_allreduce_seconds(const struct gpu_spec *g, double bytes, int64_t n);

/*
 * The weight GEMMs of one decode step at each of the nb batches (M = batch rows: qkv,
 * out_proj, the MLP, router, LM head on one tensor-parallel rank) as `rooftop probe --shapes`
 * takes them, labels prefixed "bB_" ("b8_qkv=8,12288,4096;..."), so measured points show how
 * far a real GEMM at batch 1, 8, 64 is from the roof. False when buf is too small or a batch
 * is not positive.
 */
bool infer_probe_shapes(const struct scenario *s, const int64_t *batches, int nb, char *buf,
                        size_t n);

/* The efficiencies s runs at: its inputs, or g's measured figures, or the defaults. */
void infer_efficiencies(const struct scenario *s, double *compute, double *memory);

#endif
