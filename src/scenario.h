/* scenario.h - every input of one training run, together. */
#ifndef ROOFTOP_SCENARIO_H
#define ROOFTOP_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dtype.h"
#include "gpu.h"
#include "model.h"
#include "pp_layout.h"

enum optimizer { OPT_ADAMW, OPT_SGD, OPT_ADAGRAD, OPT_ADAM8BIT, OPT_COUNT };
enum recompute { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL, RECOMPUTE_SQRT, RECOMPUTE_COUNT };
enum flops_mode { FLOPS_DETAILED, FLOPS_6ND };
/* How much of the s x s attention work the detailed count takes. Full: every query against
 * every key, the MFU convention of PaLM (appendix B) and Narayanan et al. 2021 (rooftop's
 * count before the choice existed, and its default). Causal: the half a causal kernel
 * executes (query i meets keys 0..i). */
enum attn_flops { ATTN_FLOPS_FULL, ATTN_FLOPS_CAUSAL, ATTN_FLOPS_COUNT };
/* Where the utilisation the training time uses comes from: the typed number (mfu), the
 * measured GEMM efficiency of the points matched to the scenario, or the step-time model's
 * predicted HFU (src/predict.h). The evaluation (src/evaluation.h) resolves it. */
enum mfu_mode { MFU_TYPED, MFU_MEASURED, MFU_PREDICTED, MFU_MODE_COUNT };
/* The training framework whose schedule the step time models: what it overlaps, how it
 * gathers and reduces (src/framework.h). */
enum framework { FRAMEWORK_MEGATRON, FRAMEWORK_DEEPSPEED, FRAMEWORK_FSDP, FRAMEWORK_COUNT };
/* dp_overlap's "auto": the framework's own overlap. */
#define SCENARIO_OVERLAP_AUTO (-1.0)

#define SCENARIO_NAME_MAX 128

struct scenario {
    char name[SCENARIO_NAME_MAX];
    struct model_arch model;
    struct gpu_spec gpu;
    int64_t gpus;            /* total = data x tensor x pipeline x context */
    int64_t tp;              /* tensor-parallel degree */
    int64_t pp;              /* pipeline-parallel degree */
    int64_t cp;              /* context-parallel degree: each sequence split over cp ranks */
    int64_t ep;              /* expert-parallel degree: routed experts split over ep ranks */
    int64_t etp;             /* expert tensor-parallel degree (Megatron-LM's
                                --expert-tensor-parallel-size); 0 = auto, the tp degree */
    bool sp;                 /* sequence parallelism (with tensor parallelism) */
    int zero;                /* ZeRO stage 0..3 over the data-parallel ranks (3 = FSDP) */
    enum dtype dtype;        /* the GEMMs' dtype; also weights and activations, except that
                                fp8/fp4 training stores them in bf16 (memory_weights_dtype) */
    bool master_weights;     /* fp32 master copy of the weights (ignored when dtype is fp32) */
    enum dtype grad_dtype;   /* gradients; SCENARIO_DTYPE_AUTO: what the setup does (fp32
                                with master weights, as Megatron-LM and DeepSpeed; else the
                                weights' dtype): memory_grad_dtype() */
    enum optimizer optimizer;
    int64_t batch;           /* global batch, sequences per optimizer step */
    int64_t micro_batch;     /* sequences per forward/backward on one data-parallel rank;
                                0 = batch / dp (no accumulation) */
    int64_t seq;             /* tokens per sequence */
    double tokens;           /* training tokens D */
    double mfu;              /* fraction of peak achieved on executed FLOPs (0, 1], typed */
    enum mfu_mode mfu_mode;  /* typed: mfu above; measured or predicted: the evaluation's */
    enum recompute recompute;
    bool flash;              /* FlashAttention: no s x s scores stored */
    bool dropout;            /* dropout masks stored (1 byte per element) */
    enum flops_mode flops_mode;
    int64_t vocab_pad;       /* Megatron-LM's make-vocab-size-divisible-by: the vocabulary is
                                padded to a multiple of vocab_pad x tp; 0 = not padded */
    enum attn_flops attention_flops; /* the s x s work counted: full (default) or causal */
    double moe_capacity;     /* Megatron-core's moe_expert_capacity_factor: each expert takes
                                at most (and, padded, exactly) ceil(tokens x top-k x factor /
                                experts) tokens; 0 = dropless (the balanced top-k tokens) */
    /* The step-time model's inputs (src/predict.h). */
    int64_t vpp;             /* virtual pipeline stages per GPU (interleaved 1F1B); 1 = plain */
    int64_t first_stage_layers; /* Megatron-LM's --decoder-first-pipeline-num-layers: the first
                                   pipeline stage's layers; 0 = the even split */
    int64_t last_stage_layers;  /* --decoder-last-pipeline-num-layers: the last stage's */
    /* Megatron-LM's --account-for-embedding-in-pipeline-split and
     * --account-for-loss-in-pipeline-split: the embedding (the LM head and loss) counts as
     * one layer of the first (last) stage's first (last) chunk in the even split. */
    bool account_embedding;
    bool account_loss;
    /* Megatron-core's --pipeline-model-parallel-layout ("Et|(tt|)*30mL", src/pp_layout.h):
     * the layers of every chunk given; "" = none. */
    char pp_layout[PP_LAYOUT_TEXT_MAX];
    enum framework framework; /* Megatron-LM (default), DeepSpeed or PyTorch FSDP */
    double dp_overlap;       /* fraction of data-parallel communication hidden under compute,
                                or SCENARIO_OVERLAP_AUTO: as the framework hides it */
    int64_t node_gpus;       /* GPUs per NVLink domain; 0 = the GPU spec's node */
    double network_bw;       /* network bytes/s per GPU per direction; 0 = the GPU spec's */
    double memory_reserve;   /* bytes per GPU the CUDA context and allocator keep: "fits"
                                compares against the capacity less this */
    /* What a run costs (src/cost.h): the price of one GPU-hour (the user's; 0 = none, no
     * cost is shown) and the data centre's power usage effectiveness. */
    double price;            /* USD per GPU-hour; 0 = not given */
    double pue;              /* facility power / IT power, >= 1 */
    /* Serving's own inputs (rooftop infer, the dashboard's inference view, src/infer.h); the
     * training accounting does not read them. */
    int64_t prompt;          /* prompt tokens per sequence */
    int64_t generate;        /* tokens generated per sequence */
    enum dtype weights_dtype; /* linear-layer weights; SCENARIO_DTYPE_AUTO: the dtype's */
    enum dtype kv_dtype;     /* the KV cache; SCENARIO_DTYPE_AUTO: the dtype's */
    double compute_eff;      /* fraction of the dense peak reached; 0 = the GPU spec's */
    double memory_eff;       /* fraction of the bandwidth reached; 0 = the GPU spec's */
    double hbm_fraction;     /* fraction of each GPU's memory the engine plans on, (0, 1]; 0 =
                                INFER_HBM_FRACTION_DEFAULT (vLLM's gpu_memory_utilization) */
};

/* "auto" for the serving dtypes: the same as dtype. */
#define SCENARIO_DTYPE_AUTO DTYPE_COUNT

/* Whether an fp32 master copy of the weights is kept: asked for, and the weights stored below
 * fp32 (tf32 is stored as fp32). The one rule memory, the optimizer op and the formulas use. */
bool scenario_master_copy(const struct scenario *s);

/*
 * The scenario's title, derived rather than stored stale (issue 8): its name when it has one
 * (a scenario file's or demo's "name"), else "MODEL on N x GPU" from what it is now. "custom"
 * counts as no name (the command line's mark for an edited scenario). Report, export and
 * dashboard all title a scenario with this.
 */
void scenario_title(const struct scenario *s, char *buf, size_t n);

/* Data-parallel degree gpus / (tp * pp * cp); 0 when it does not divide. */
int64_t scenario_dp(const struct scenario *s);
/* The ranks that hold the same dense weights: dp x cp. Megatron-LM reduces gradients and
 * shards its distributed optimizer over this group (the data-parallel group "with context
 * parallel"); ep divides it. 0 when the layout does not divide. */
int64_t scenario_dp_cp(const struct scenario *s);
/* The expert layers' own grid (Megatron-core's MoE parallel folding: etp x ep x edp x pp, the
 * same GPUs as tp x cp x dp x pp): the expert tensor-parallel degree (etp, auto: tp), and the
 * expert-data-parallel degree, the ranks that hold the same expert shard, tp x cp x dp / (etp
 * x ep); 0 when that does not divide. */
int64_t scenario_etp(const struct scenario *s);
int64_t scenario_expert_dp(const struct scenario *s);
/* The routed experts' weights where the layout splits them apart from the dense ones (ep
 * above 1, or an expert tp other than tp), else 0: what the per-GPU counts treat apart. */
double scenario_routed_apart(const struct scenario *s);
/* The vocabulary as trained: the model's, or with vocab_pad the next multiple of vocab_pad x
 * tp (Megatron-LM's _vocab_size_with_padding), which the embedding, the LM head, their FLOPs
 * and the logits then hold. */
int64_t scenario_vocab(const struct scenario *s);
/* The model as trained: s->model with scenario_vocab's vocabulary. What the accounting (the
 * parameter counts, memory, FLOPs) reads. */
void scenario_trained_model(const struct scenario *s, struct model_arch *out);
/* The routed experts' weights, whole model: what expert parallelism splits over ep ranks
 * (MoE layers x experts x one expert's matrices, three when gated; expert biases, a few per
 * million, stay with the dense weights). 0 for a dense model. */
double scenario_expert_params(const struct scenario *s);
/* Whether the first or the last pipeline stage's layers differ from the others': given
 * (uneven stages), one fewer for the embedding or the loss counted as a layer, or as a
 * pipeline layout sets them. */
bool scenario_uneven_stages(const struct scenario *s);
/* The pipeline layout, read: false when none is given or it does not read (the check says
 * why). */
bool scenario_layout(const struct scenario *s, struct pp_layout *out);
/* The first and the last stage's layers as the split makes them: given, or the even share
 * of the layers with the embedding and the loss counted in, less the one each counts for;
 * 0 where that stage takes the even split. */
int64_t scenario_first_stage_layers(const struct scenario *s);
int64_t scenario_last_stage_layers(const struct scenario *s);
/* The stages between an uneven first and last stage, and the layers left for them. */
void scenario_middle_stages(const struct scenario *s, int64_t *stages, int64_t *layers);
/* With uneven stages, the layers pipeline stage i of pp holds: a layout's chunks on it, or
 * the first and the last as scenario_first/last_stage_layers make them and the stages
 * between them the rest in equal parts (Megatron-LM's rule, which scenario_validate checks:
 * src/scenario_check.h); 0 for i outside 0..pp-1. */
int64_t scenario_stage_layers(const struct scenario *s, int64_t i);
/* Micro-batch actually used (resolves 0 to batch / dp). */
int64_t scenario_micro_batch(const struct scenario *s);
/* Gradient-accumulation steps: batch / (micro_batch * dp). */
int64_t scenario_accum_steps(const struct scenario *s);

const char *optimizer_name(enum optimizer o);      /* "adamw", "sgd", "adagrad", "adam8bit" */
bool optimizer_parse(const char *s, enum optimizer *out);
/* Optimizer state per parameter: element count and the dtype it is held in. */
int optimizer_states(enum optimizer o);            /* AdamW 2, SGD 1, AdaGrad 1, 8-bit Adam 2 */
enum dtype optimizer_state_dtype(enum optimizer o);
/* FLOPs of one optimizer step per parameter. */
double optimizer_flops_per_param(enum optimizer o);
/* "megatron", "deepspeed", "fsdp". */
const char *framework_name(enum framework f);
/* "full", "causal". */
const char *attn_flops_name(enum attn_flops a);
/* "typed", "measured", "predicted". */
const char *mfu_mode_name(enum mfu_mode m);
const char *recompute_name(enum recompute r);      /* "none", "selective", "full", "sqrt" */
bool recompute_parse(const char *s, enum recompute *out);

#endif
