/* flops.h - FLOPs and bytes of every operation of a training step, and the step's totals. */
#ifndef ROOFTOP_FLOPS_H
#define ROOFTOP_FLOPS_H

#include <stdbool.h>

#include "dtype.h"
#include "gpu.h"
#include "model.h"
#include "scenario.h"

/* Operations of the model, as the roofline sees them. */
enum op_kind {
    OP_NORM, OP_QKV, OP_ROPE, OP_SCORES, OP_SOFTMAX, OP_ATTN_V, OP_FLASH_ATTN, OP_OUT_PROJ,
    OP_RESIDUAL, OP_ROUTER, OP_MLP_UP, OP_MLP_GATE, OP_ACT, OP_MLP_DOWN,
    OP_FINAL_NORM, OP_LM_HEAD, OP_LOSS, OP_OPTIMIZER,
    OP_KIND_COUNT
};

#define ANALYSIS_MAX_OPS OP_KIND_COUNT

struct op {
    enum op_kind kind;
    const char *name;      /* "qkv", "attn_scores", ... */
    double flops;          /* per optimizer step, one GPU, forward + backward (+ recompute) */
    double bytes;          /* bytes read + written, same scope */
    double intensity;      /* FLOP/byte */
    bool compute_bound;    /* intensity >= ridge */
    double attainable;     /* min(peak, bandwidth * intensity), FLOP/s */
    double seconds;        /* max(flops / peak, bytes / bandwidth) */
};

struct flops {
    double per_step;          /* FLOPs executed per optimizer step, all GPUs (incl. recompute) */
    double model_per_step;    /* model FLOPs per step (the counting mode's, no recompute) */
    double recompute_per_step;
    double optimizer_per_step;
    double total;             /* executed over the whole run of D tokens */
    double model_total;       /* model FLOPs over the run */
    double six_nd;            /* 6 N D, N = active parameters */
    double detailed;          /* detailed model FLOPs over the run, whatever the mode */
    double recompute;         /* recompute FLOPs over the run */
};

struct roofline {
    double peak;              /* dense FLOP/s of the scenario's dtype */
    double bandwidth;         /* bytes/s */
    double ridge;             /* FLOP/byte */
    double step_seconds;      /* sum of the ops' roofline times (one GPU, one step) */
    double stage_layers;      /* layers of the pipeline stage the ops show (its busiest) */
    bool stage_head;          /* that stage is the last, with the LM head */
    double mfu_bound;         /* model FLOPs per GPU per step / (step_seconds * peak) */
};


/* FLOPs per element of the elementwise operations (each add, multiply, exp, divide is one). */
#define FLOPS_GELU 20.0       /* the lecture's count for the tanh approximation */
#define FLOPS_SWIGLU 6.0      /* sigmoid (4) x gate, times up */
#define FLOPS_GEGLU 21.0      /* gelu of the gate (20), times up */
#define FLOPS_RELU 1.0        /* a compare-select */
#define FLOPS_RELU2 2.0       /* relu, then square */
#define FLOPS_LAYERNORM 7.0   /* mean, subtract, square, variance, normalise, scale, shift */
#define FLOPS_RMSNORM 4.0     /* square, mean, normalise, scale */
#define FLOPS_SOFTMAX 5.0     /* scale, max, subtract+exp, sum, divide */
#define FLOPS_ROPE 3.0        /* two multiplies and an add per rotated element */
#define FLOPS_LOSS 5.0        /* log-softmax and the target pick, per logit */

/*
 * The operations of one training step as one GPU runs them (its tensor-parallel shard, its
 * pipeline stage's layers, all of its micro-batches), forward + backward (2 x forward) +
 * recomputation, with FLOPs, bytes, intensity, bound and roofline time. With pipeline
 * parallelism the GPU is one of the busiest stage: the first L mod pp stages hold one layer
 * more, the last holds the LM head, and the stage with the longer roofline time is shown
 * (rf->stage_layers, stage_head). From the parameter counts; fills ops (ANALYSIS_MAX_OPS of
 * them), *n_ops and the roofline.
 */
void flops_ops(const struct scenario *s, const struct param_counts *pc, struct op *ops,
               int *n_ops, struct roofline *rf);

/*
 * The same ops with the attention core's work as its kernels execute it, whatever convention
 * the FLOP count takes (--attention-flops changes MFU, never time): FlashAttention's causal
 * kernel skips the blocks above the diagonal (Dao 2023, section 3.1), so query i meets keys
 * 0..i; the unfused path (a batched GEMM of every score, then the masked softmax, as
 * Megatron-LM's fused scale-mask-softmax) computes all s keys and masks afterwards. What the
 * step-time model times.
 */
void flops_ops_executed(const struct scenario *s, const struct param_counts *pc, struct op *ops,
                        int *n_ops, struct roofline *rf);
/* The convention a scenario's attention kernels execute: causal with FlashAttention, full
 * without. */
enum attn_flops flops_attention_executed(const struct scenario *s);

/* Model FLOPs of one forward pass over `tokens` tokens of sequences of length seq, whole
 * model, no parallelism (the detailed count). */
double flops_forward(const struct scenario *s, double tokens);

/* Totals per step and per run, from the parameter counts. */
void flops_totals(const struct scenario *s, const struct param_counts *pc, struct flops *out);

/* One forward pass of a serving batch (prefill or one decode step). */
struct flops_pass {
    double seqs;          /* sequences in the batch */
    double queries;       /* new tokens per sequence: the prompt, or 1 per decode step */
    double keys;          /* keys each new token attends to, averaged over the layers (sliding
                             windows applied) and, for decode, over the steps */
    double head_tokens;   /* tokens through the final norm and LM head */
    double tp;            /* tensor-parallel degree: widths and KV heads split over it */
    enum dtype act;       /* activations, and the matmuls' arithmetic */
    enum dtype weights;   /* weights as stored */
    enum dtype kv;        /* the KV cache */
    double compute_eff;   /* fraction of the dense peak the kernels reach, (0, 1] */
    double memory_eff;    /* fraction of the memory bandwidth they reach, (0, 1] */
    bool flash;           /* fused attention (no score matrix in memory) */
};

/*
 * The forward operations of the pass on one tensor-parallel rank, summed over the layers,
 * with roofline times at the derated peak and bandwidth. ops holds ANALYSIS_MAX_OPS.
 * Every rank keeps whole KV heads (ceil(kv_heads / tp); MLA's latent on every rank).
 */
void flops_pass(const struct model_arch *m, const struct gpu_spec *g, const struct flops_pass *p,
                struct op *ops, int *n_ops);

#endif
