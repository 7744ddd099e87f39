/* predict.h - predicted step time of a layout: kernels at achievable efficiency, tensor,
 * pipeline and data-parallel communication, the pipeline bubble (reference.md section 7). */
#ifndef ROOFTOP_PREDICT_H
#define ROOFTOP_PREDICT_H

#include <stdbool.h>

#include "analysis.h"
#include "gpu.h"
#include "measured.h"
#include "scenario.h"

/* Where one step's time goes on the busiest GPU; the parts add up to the step. */
enum predict_part {
    PART_COMPUTE,     /* forward and backward kernels */
    PART_RECOMPUTE,   /* the forward work recomputation repeats */
    PART_TP_COMM,     /* tensor-parallel all-reduces (or reduce-scatter + all-gather) */
    PART_CP_COMM,     /* context parallelism's K/V ring not hidden under attention */
    PART_EP_COMM,     /* expert parallelism's all-to-alls of routed tokens */
    PART_PP_BUBBLE,   /* pipeline fill and drain */
    PART_PP_COMM,     /* point-to-point activation and gradient sends between stages */
    PART_DP_COMM,     /* data-parallel / ZeRO communication not hidden under compute */
    PART_OPTIMIZER,   /* the optimizer step */
    PART_COUNT
};

/* Context parallelism pays only where each rank keeps at least this many tokens of a
 * sequence: the plan searches no shorter chunk and a typed cp below it is warned of.
 * Megatron Core's parallelism guide places CP at long sequences (8K+ tokens), and NVIDIA's
 * published NeMo long-sequence runs keep 16K or more per rank; the step-time model does not
 * charge the short chunks' slower kernels, so without the bound it would split short
 * sequences only to shrink the pipeline bubble. */
#define PREDICT_CP_TOKENS_MIN 4096

/* Defaults where a GPU spec gives no figure. */
/* A large GEMM's rate over the dense peak: H100 SXM, 792.1 of 989 TFLOP/s bf16 (Bekman,
 * ml-engineering, "Maximum Achievable Matmul FLOPS" table), the middle of that table's NVIDIA
 * rows (A100 0.859, GH200 0.830, A100 PCIe 0.822, H100 0.801). */
#define PREDICT_GEMM_EFFICIENCY 0.801
/* A streaming kernel's bytes/s over the datasheet bandwidth: the device-to-device copy of
 * 4.3 of 4.8 TB/s measured on an H200 (reference.md section 3). */
#define PREDICT_MEMORY_EFFICIENCY 0.9
/* FlashAttention's rate over the dense peak (never above the GEMM fraction), on the work the
 * kernels execute (the backward 2.5 forward passes): cuDNN's fused attention, which
 * Transformer Engine runs on Hopper ("FusedAttention preference on Hopper+ for performance",
 * v1.8 attention.py), at head dimension 128 and sequence 4096 on an H100 SXM5: causal forward
 * 518 TFLOP/s, backward 499 (Shah et al. 2024, FlashAttention-3, its attention-speed
 * figures), 3.5 / (1/518 + 2.5/499) = 504 of 989 TFLOP/s over a training step's passes;
 * FlashAttention-2 reaches 50-73% of the A100's peak forward and less backward (Dao 2023),
 * FlashAttention-3 up to 75% forward on H100 at its best shapes (Shah et al. 2024). */
#define PREDICT_FLASH_EFFICIENCY 0.51

/* The system a scenario runs on: the GPU spec's node with the scenario's overrides and the
 * defaults filled in. */
struct predict_node {
    double domain;            /* GPUs per NVLink domain */
    double nvlink_bw;         /* bytes/s per GPU per direction collectives reach */
    double network_bw;
    double nvlink_lat;        /* seconds per ring step */
    double network_lat;
};

struct prediction {
    double step_seconds;
    double mfu;               /* model FLOPs / (step x GPUs x peak) */
    double hfu;               /* executed FLOPs (with recompute, optimizer) / same */
    double tokens_per_s;
    double days;              /* the whole run of s->tokens */
    double part[PART_COUNT];  /* seconds per step */
    double roofline_step;     /* the roofline's step (every op at peak or full bandwidth) */
    double gemm_efficiency;   /* large-GEMM fraction of peak used */
    bool gemm_measured;       /* GEMM times came from measured points */
    double micro_batch_seconds; /* one micro-batch through the busiest stage (fwd + bwd) */
    double cp_ring_seconds;   /* context parallelism's K/V ring traffic, before overlap */
    double attention_seconds; /* the attention core's kernels, which the ring overlaps */
    struct predict_node node;
    enum framework framework; /* whose schedule it is (the scenario's) */
    bool overlap_override;    /* --dp-overlap given: its fraction, not the framework's schedule */
};

const char *predict_part_name(enum predict_part p);   /* "compute", "tp_comm", ... */
/* Human label: "compute", "tensor-parallel comm", ... */
const char *predict_part_label(enum predict_part p);
/* In a few cells (the dashboard's step bar): "compute", "tp", "bubble", ... */
const char *predict_part_brief(enum predict_part p);

/* The node (see struct predict_node) for scenario s. */
void predict_node_of(const struct scenario *s, struct predict_node *out);

enum collective { COLL_ALL_REDUCE, COLL_REDUCE_SCATTER, COLL_ALL_GATHER, COLL_ALL_TO_ALL };
/* Ring cost (reference.md section 7) on n ranks of `bytes` per rank at bw bytes/s per rank
 * per direction, lat seconds per step: all-reduce 2(n-1)/n S/B + 2(n-1) lat, reduce-scatter
 * and all-gather (n-1)/n S/B + (n-1) lat. An all-to-all of S bytes per rank (S/n to each
 * rank) sends the (n-1)/n of it that leaves the rank, in n-1 pairwise exchanges: the same
 * (n-1)/n S/B + (n-1) lat. 0 for n <= 1. */
double predict_collective(enum collective c, double n, double bytes, double bw, double lat);

/* Bandwidth and latency of a group of n ranks laid out every `stride` ranks: NVLink when
 * the group fits one domain; else the network, with as many NICs as the group has ranks in
 * each domain (min(NVLink, k x network) per rank, k ranks per domain). */
void predict_group_link(const struct predict_node *node, double n, double stride, double *bw,
                        double *lat);

/*
 * Predicts the step of scenario s (valid; a = analysis_run(s)). m may be NULL; when it
 * holds measured GEMM points (measured_match) their times replace the GEMM model for the
 * ops they cover. Never NaN or infinite for a valid scenario.
 */
void predict_run(const struct scenario *s, const struct analysis *a, const struct measured *m,
                 struct prediction *out);
/* The same with the kernels' time divided by `derate` in (0, 1] instead of the framework's
 * (framework_profile()->derate; the validation calibrates it). */
void predict_run_derated(const struct scenario *s, const struct analysis *a,
                         const struct measured *m, double derate, struct prediction *out);

#endif
