/* memory.h - memory per GPU: the lecture's rows (parameters, gradients, optimizer state,
 * master weights, activations) under mixed precision, ZeRO and tensor/pipeline parallelism. */
#ifndef ROOFTOP_MEMORY_H
#define ROOFTOP_MEMORY_H

#include <stdbool.h>

#include "dtype.h"
#include "model.h"
#include "scenario.h"

/* One row of the lecture's memory table, per GPU. */
struct mem_row {
    enum dtype dtype;
    double elements;     /* per GPU */
    double bytes;        /* per GPU */
};

enum mem_kind { MEM_PARAMS, MEM_GRADS, MEM_OPTIMIZER, MEM_MASTER, MEM_ACTIVATIONS, MEM_COUNT };

struct memory {
    struct mem_row row[MEM_COUNT];
    double activations_per_layer;  /* bytes stored per layer per micro-batch, per GPU */
    double activations_outside;    /* embedding/final norm/LM head/logits, bytes per GPU */
    double total;                  /* bytes per GPU */
    double capacity;               /* GPU memory, bytes */
    bool fits;
};


/* Bytes and element count of some stored tensors. */
struct tensor_sum {
    double elements;
    double bytes;
};

/*
 * Activations one transformer layer stores for backward, one micro-batch, one GPU
 * (Korthikanti et al. 2022 generalised to GQA, SwiGLU, MoE, FlashAttention and any dtype).
 * moe selects the mixture-of-experts kind of layer. Honours tp, sp, flash, dropout and
 * selective recomputation; full and sqrt recomputation are applied by memory_compute.
 */
struct tensor_sum memory_layer_activations(const struct scenario *s, bool moe);

/* Fills out from the scenario and its parameter counts. */
void memory_compute(const struct scenario *s, const struct param_counts *pc, struct memory *out);

/*
 * The lecture's toy example: a deep linear network of `layers` D x D layers on a batch of B,
 * params/grads in dtype d, optimizer state in fp32 (one value per parameter per state),
 * activations B x D per layer in dtype d. Rows as in struct memory (master weights none).
 */
void memory_toy_mlp(double B, double D, double layers, enum dtype d, int states, struct memory *out);

#endif
