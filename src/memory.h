/* memory.h - memory per GPU: the lecture's rows (parameters, gradients, optimizer state,
 * master weights, activations) under mixed precision, ZeRO, and tensor, pipeline, context and
 * expert parallelism, laid out as the frameworks do it (Megatron-LM, DeepSpeed). */
#ifndef ROOFTOP_MEMORY_H
#define ROOFTOP_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "dtype.h"
#include "model.h"
#include "scenario.h"

/* One row of the lecture's memory table, per GPU. */
struct mem_row {
    enum dtype dtype;
    double elements;     /* per GPU */
    double bytes;        /* per GPU */
};

/*
 * MEM_BUFFERS: working copies in the weights' dtype that exist besides the model state:
 * ZeRO-3's gathered module (its full weights and their gradients before the reduce-scatter;
 * DeepSpeed's estimator adds 4 bytes x the largest module's parameters), and under ZeRO-2
 * with gradients wider than the weights the 16-bit gradients the backward writes, partitioned
 * as the fp32 shards they are reduced into (DeepSpeed's 2N + 18N/dp: 18 = 2 + 4 + 4 + 8).
 */
enum mem_kind {
    MEM_PARAMS,
    MEM_GRADS,
    MEM_OPTIMIZER,
    MEM_MASTER,
    MEM_BUFFERS,
    MEM_ACTIVATIONS,
    MEM_COUNT
};

/* Why the gradients are held in the dtype they are. */
enum mem_grad_why {
    GRAD_WHY_SET,        /* --grad-dtype asked for it */
    GRAD_WHY_MASTER,     /* auto: fp32, as Megatron-LM and DeepSpeed keep them with fp32 master
                            weights (main_grad buffers) */
    GRAD_WHY_WEIGHTS,    /* auto: the weights' dtype (no master copy: the lecture's setup) */
};

/* One pipeline stage's share, per GPU. */
struct mem_stage {
    int64_t index;       /* 0 = the first stage (embedding), pp - 1 the last (LM head) */
    int64_t layers;      /* transformer layers it holds */
    double params;       /* parameters it holds per GPU before ZeRO (after tp and ep) */
    double in_flight;    /* micro-batches whose activations it holds at its peak */
    double state;        /* bytes of parameters, gradients, optimizer state, master, buffers */
    double activations;  /* bytes */
    double total;        /* state + activations */
};

struct memory {
    struct mem_row row[MEM_COUNT];  /* the busiest stage's */
    double activations_per_layer;  /* bytes stored per layer per micro-batch, per GPU */
    double activations_outside;    /* final norm, LM head input, fp32 logits: last stage, bytes */
    double activations_embedding;  /* token ids and embedding dropout mask: first stage, per
                                      micro-batch, bytes */
    /* The checkpoint panel's two sizes (src/checkpoint.h's A and I): what a layer stores
     * per micro-batch with nothing recomputed, and its input, all full recomputation keeps
     * of it; bytes per GPU. */
    double layer_stored;
    double layer_input;
    double activations_low;        /* of activations_per_layer: the fp8/fp4 copies of GEMM
                                      inputs that fp8 training keeps for backward, bytes */
    double total;                  /* bytes per GPU */
    double capacity;               /* GPU memory, bytes (the datasheet's) */
    double reserve;                /* CUDA context and allocator reserve, bytes */
    double usable;                 /* capacity - reserve: what "fits" compares against */
    bool fits;
    enum dtype weights_dtype;      /* what parameters are stored in (bf16 under fp8 compute) */
    enum dtype grad_dtype;         /* what gradients are stored in */
    enum mem_grad_why grad_why;
    double gathered_params;        /* ZeRO-3: the largest module's parameters gathered at once */
    int64_t stages;                /* pipeline stages (pp) */
    struct mem_stage busiest;      /* the stage whose total the rows show */
    struct mem_stage first, last;  /* the two ends of the pipeline (the same stage at pp 1) */
};

/* Bytes and element count of some stored tensors. */
struct tensor_sum {
    double elements;
    double bytes;
};

/* What weights, and so gradients without master weights and activations, are stored in:
 * fp32 for fp32/tf32; bf16 under fp8/fp4 compute (Transformer Engine keeps bf16 weights and
 * casts them for each GEMM); the dtype itself otherwise. */
enum dtype memory_weights_dtype(const struct scenario *s);
/* The gradients' dtype: --grad-dtype, or auto (fp32 with an fp32 master copy, as
 * Megatron-LM's and DeepSpeed's mixed precision; else the weights' dtype). why may be NULL. */
enum dtype memory_grad_dtype(const struct scenario *s, enum mem_grad_why *why);
/* "fp32, as Megatron/DeepSpeed with master weights" and so on: the table's note. */
const char *memory_grad_why_text(enum mem_grad_why why);

/*
 * Activations one transformer layer stores for backward, one micro-batch, one GPU
 * (Korthikanti et al. 2022 generalised to GQA, SwiGLU, MoE, FlashAttention and any dtype).
 * moe selects the mixture-of-experts kind of layer. Honours tp, sp, cp, flash, dropout,
 * selective recomputation and fp8 compute; full and sqrt recomputation are applied by
 * memory_compute. low, when not NULL, receives the bytes of fp8/fp4 GEMM-input copies.
 */
struct tensor_sum memory_layer_activations(const struct scenario *s, bool moe, double *low);

/* Tokens a rank's routed experts process in one MoE layer for `tokens` routed: tokens x top-k
 * (dropless, balanced), or with moe_capacity the experts' padded capacity, experts x
 * ceil(tokens x top-k x factor / experts) (Megatron-core's moe_utils.get_capacity). */
double memory_routed_tokens(const struct scenario *s, double tokens);

/* Fills out from the scenario and its parameter counts. */
void memory_compute(const struct scenario *s, const struct param_counts *pc, struct memory *out);

/*
 * The lecture's toy example: a deep linear network of `layers` D x D layers on a batch of B,
 * params/grads in dtype d, optimizer state in fp32 (one value per parameter per state),
 * activations B x D per layer in dtype d. Rows as in struct memory (master weights none).
 */
void memory_toy_mlp(double B, double D, double layers, enum dtype d, int states, struct memory *out);

#endif
