/* analysis.h - everything rooftop computes from a scenario, in one struct. */
#ifndef ROOFTOP_ANALYSIS_H
#define ROOFTOP_ANALYSIS_H

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

enum mem_kind { MEM_PARAMS, MEM_GRADS, MEM_OPTIMIZER, MEM_MASTER, MEM_ACTIVATIONS, MEM_COUNT };

struct memory {
    struct mem_row row[MEM_COUNT];
    double activations_per_layer;  /* bytes stored per layer per micro-batch, per GPU */
    double activations_outside;    /* embedding/final norm/LM head/logits, bytes per GPU */
    double total;                  /* bytes per GPU */
    double capacity;               /* GPU memory, bytes */
    bool fits;
};

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

struct timing {
    double seconds;
    double days;
    double gpu_hours;
    double mfu;               /* model FLOPs / (time * gpus * peak) */
    double hfu;               /* executed FLOPs / (time * gpus * peak) = the --mfu input */
    double tokens_per_s;
    double step_seconds;
    double steps;
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

struct analysis {
    struct param_counts params;
    struct memory memory;
    struct flops flops;
    struct timing time;
    struct roofline roofline;
    struct op ops[ANALYSIS_MAX_OPS];
    int n_ops;
    int64_t dp;
    int64_t micro_batch;
    int64_t accum_steps;
};

/* Computes everything. The scenario must have passed scenario_validate; the result never
 * holds NaN or infinity for a valid scenario. */
void analysis_run(const struct scenario *s, struct analysis *out);

#endif
