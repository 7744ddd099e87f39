/* flops.h - FLOPs and bytes of every operation of a training step, and the step's totals. */
#ifndef ROOFTOP_FLOPS_H
#define ROOFTOP_FLOPS_H

#include "analysis.h"
#include "scenario.h"

/* FLOPs per element of the elementwise operations (each add, multiply, exp, divide is one). */
#define FLOPS_GELU 20.0       /* the lecture's count for the tanh approximation */
#define FLOPS_SWIGLU 6.0      /* sigmoid (4) x gate, times up */
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
 * (a->roofline.stage_layers, stage_head). Fills a->ops, a->n_ops and a->roofline. Needs
 * a->params.
 */
void flops_ops(const struct scenario *s, struct analysis *a);

/* Model FLOPs of one forward pass over `tokens` tokens of sequences of length seq, whole
 * model, no parallelism (the detailed count). */
double flops_forward(const struct scenario *s, double tokens);

/* Totals per step and per run (fills a->flops). Needs a->params. */
void flops_totals(const struct scenario *s, struct analysis *a);

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
