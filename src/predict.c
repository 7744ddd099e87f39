/* predict.c - predicted step time: the roofline with achievable efficiency, communication and
 * the pipeline schedule (reference.md section 7). */
#include "predict.h"

#include "memory.h"

#include <math.h>
#include <string.h>

#include "dtype.h"
#include "framework.h"

/* Each part of the step: its JSON key, its label in the reports and its name in a panel's
 * few cells (the dashboard's step bar). */
static const struct {
    const char *name, *label, *brief;
} PARTS[PART_COUNT] = {
    [PART_COMPUTE] = {"compute", "compute", "compute"},
    [PART_RECOMPUTE] = {"recompute", "recompute", "recomp"},
    [PART_TP_COMM] = {"tp_comm", "tensor-parallel comm", "tp"},
    [PART_CP_COMM] = {"cp_comm", "context-parallel comm", "cp"},
    [PART_EP_COMM] = {"ep_comm", "expert all-to-all", "ep"},
    [PART_PP_BUBBLE] = {"pp_bubble", "pipeline bubble", "bubble"},
    [PART_PP_COMM] = {"pp_comm", "pipeline sends", "pp"},
    [PART_DP_COMM] = {"dp_comm", "data-parallel comm", "dp"},
    [PART_OPTIMIZER] = {"optimizer", "optimizer step", "opt"},
};

const char *predict_part_name(enum predict_part p)
{
    return (unsigned)p < PART_COUNT ? PARTS[p].name : "?";
}

const char *predict_part_label(enum predict_part p)
{
    return (unsigned)p < PART_COUNT ? PARTS[p].label : "?";
}

const char *predict_part_brief(enum predict_part p)
{
    return (unsigned)p < PART_COUNT ? PARTS[p].brief : "?";
}

/* Where a GPU spec has no node: one GPU per domain on the slowest network of the presets,
 * HDR 200 Gb/s per GPU (DGX A100, reference.md section 7). Latencies per ring step: NCCL's
 * tuning model (NVIDIA/nccl src/graph/tuning.cc hwLat, Ring with the Simple protocol large
 * messages take: NVLink 3.4 us, network 14 us). The fraction of a link's bandwidth
 * collectives reach: Calculon's A100 and H100 system files (Isaev et al. 2023,
 * calculon-ai/calculon systems/a100_80g.json, h100_80g_nvl8.json: NVLink 0.6, InfiniBand
 * 0.9). */
#define DEFAULT_NETWORK_BW 25e9
#define DEFAULT_NVLINK_LAT 3.4e-6
#define DEFAULT_NETWORK_LAT 14e-6
#define NVLINK_EFFICIENCY 0.6
#define NETWORK_EFFICIENCY 0.9

void predict_node_of(const struct scenario *s, struct predict_node *out)
{
    const struct gpu_node *g = &s->gpu.node;
    memset(out, 0, sizeof *out);
    out->domain = s->node_gpus > 0 ? (double)s->node_gpus : g->domain > 0 ? (double)g->domain : 1.0;
    double net = s->network_bw > 0 ? s->network_bw
                 : g->network_bandwidth > 0 ? g->network_bandwidth
                                            : DEFAULT_NETWORK_BW;
    /* A datasheet's NVLink figure counts both directions. */
    double nvl = g->nvlink_bandwidth > 0 ? g->nvlink_bandwidth
                 : s->gpu.interconnect_bandwidth > 0 ? s->gpu.interconnect_bandwidth / 2.0
                                                     : net;
    out->network_bw = NETWORK_EFFICIENCY * net;
    out->nvlink_bw = NVLINK_EFFICIENCY * nvl;
    out->nvlink_lat = g->nvlink_latency > 0 ? g->nvlink_latency : DEFAULT_NVLINK_LAT;
    out->network_lat = g->network_latency > 0 ? g->network_latency : DEFAULT_NETWORK_LAT;
}

double predict_collective(enum collective c, double n, double bytes, double bw, double lat)
{
    if (n <= 1 || bw <= 0)
        return 0.0;
    double one = (n - 1.0) / n * bytes / bw + (n - 1.0) * lat;
    return c == COLL_ALL_REDUCE ? 2.0 * one : one;
}

void predict_group_link(const struct predict_node *node, double n, double stride, double *bw,
                        double *lat)
{
    if ((n - 1.0) * stride + 1.0 <= node->domain) {
        *bw = node->nvlink_bw;
        *lat = node->nvlink_lat;
        return;
    }
    /* Rings cross domains through one NIC per GPU; with k of the group's ranks in a domain,
     * k rings run side by side (NCCL's channels over the node's rails). */
    double k = stride >= node->domain ? 1.0 : fmin(n, floor(node->domain / stride));
    *bw = fmin(node->nvlink_bw, k * node->network_bw);
    *lat = node->network_lat;
}

/*
 * A GEMM's rate over the large-GEMM rate E, from its shape (M x K) . (K x N), `batch` of them,
 * and what writing one output element costs. NVIDIA's Matrix Multiplication Background User's
 * Guide ("Dimension Quantization Effects"): the output is computed in tiles, 128 x 128 being
 * cuBLAS's common large-GEMM tile, a partial tile costing a whole one (tile quantisation), and
 * the tiles run one per SM at a time, the last wave leaving SMs idle (wave quantisation; not
 * applied when the SM count is unknown). A tile's main loop does 2 K FLOPs per output element
 * at E's rate; its epilogue then writes the tile back (reading it first where the GEMM
 * accumulates into its output) at the SM's share of the memory bandwidth, the SM's tensor
 * cores idle meanwhile: out_flops = the output's bytes per element x E's rate over the
 * achieved bandwidth (FLOP/B: 263 on an H100 SXM in bf16, 146 on an A100, for 2 bytes 526
 * and 292), and the tile runs at K / (K + out_flops / 2) of E. So a GEMM with a short K (a
 * small model's hidden size) runs further below E than a large one, and more so on a GPU of
 * a higher ridge point, as the Megatron-LM README's weak-scaling table shows (MFU 41% at
 * hidden 2048, 47-48% at 16384 and more, "larger GEMMs have higher arithmetic intensity and
 * are consequently more efficient"). Memory-bound skinny GEMMs are the caller's max with their
 * bytes' time.
 */
static double gemm_shape_efficiency(const struct gpu_spec *g, double M, double N, double K,
                                    double batch, double out_flops)
{
    if (M <= 0 || N <= 0 || K <= 0)
        return 1.0;
    const double tm = 128.0, tn = 128.0;
    double tiles_m = ceil(M / tm), tiles_n = ceil(N / tn);
    double eff = M * N / (tiles_m * tm * tiles_n * tn);
    if (g->sms > 0) {
        double tiles = batch * tiles_m * tiles_n, sms = (double)g->sms;
        eff *= tiles / (ceil(tiles / sms) * sms);
    }
    return eff * K / (K + out_flops / 2.0);
}

/* What a GEMM's epilogue costs per output byte, in FLOPs at E's rate: E x the peak over the
 * achieved memory bandwidth (0 when the bandwidth is unknown). */
static double epilogue_flops_per_byte(const struct gpu_spec *g, enum dtype d)
{
    const double E = g->gemm_efficiency > 0 ? g->gemm_efficiency : PREDICT_GEMM_EFFICIENCY;
    const double me = g->memory_efficiency > 0 ? g->memory_efficiency : PREDICT_MEMORY_EFFICIENCY;
    return g->bandwidth > 0 ? E * gpu_peak(g, d) / (me * g->bandwidth) : 0.0;
}

/* The GEMMs' epilogues of a step: per output element, the forward's and the input
 * gradient's write (the activations' bytes), and the weight gradient's (what the framework's
 * accumulation costs: weight_grad bytes), each times epilogue_flops_per_byte. */
struct gemm_epilogue {
    double act, weight_grad;    /* FLOPs at E's rate per output element */
    double fwd_passes;          /* forward passes a step (2 with full recomputation) */
};

static bool kind_is_gemm(enum op_kind k)
{
    return k == OP_QKV || k == OP_OUT_PROJ || k == OP_ROUTER || k == OP_MLP_UP ||
           k == OP_MLP_GATE || k == OP_MLP_DOWN || k == OP_LM_HEAD;
}

/*
 * The matmuls an fp8 (or fp4) run computes in that dtype: Transformer Engine's linear layers,
 * every GEMM kind but the router and the LM head. The rest stay in bf16 as Megatron-core runs
 * them: dot-product attention unless --fp8-dot-product-attention
 * (TransformerConfig.fp8_dot_product_attention, False by default), the LM head (GPTModel's
 * output_layer, Megatron's own ColumnParallelLinear, not Transformer Engine's, unless an
 * MXFP8 output projection is asked for), and the router.
 */
static bool narrow_kind(enum op_kind k)
{
    return kind_is_gemm(k) && k != OP_ROUTER && k != OP_LM_HEAD;
}

static bool kind_is_head(enum op_kind k)
{
    return k == OP_FINAL_NORM || k == OP_LM_HEAD || k == OP_LOSS;
}

static bool kind_is_core(enum op_kind k)
{
    return k == OP_SCORES || k == OP_SOFTMAX || k == OP_ATTN_V || k == OP_FLASH_ATTN;
}

/* A GEMM's inverse rate over E, summed over a step's passes, each of the same FLOPs: the
 * forward (M x K) . (K x N) (twice with full recomputation), the first operand's gradient
 * (M x N) . (N x K), whose K is the forward's N, and the second's (K x M) . (M x N), whose K is
 * the forward's M (the tokens, for a weight), its output costing wgrad_flops per element. The
 * tiles' quantisation is the forward's for all three (the gradients' outputs are the
 * forward's inputs, of the same large dimensions in a training step). */
static double passes_inverse(const struct gpu_spec *g, double M, double N, double K, double batch,
                             const struct gemm_epilogue *ep, double wgrad_flops)
{
    const double q = gemm_shape_efficiency(g, M, N, K, batch, 0.0);
    const double half = ep->act / 2.0;
    return (ep->fwd_passes * (1.0 + half / K) + (1.0 + half / N) + (1.0 + wgrad_flops / (2.0 * M))) / q;
}

/* Fraction of E a GEMM kind reaches over a step's passes (passes_inverse): the FLOP-weighted
 * harmonic mean over its shapes (a MoE model has a dense and an expert MLP of the same
 * kind). */
static double kind_shape_efficiency(const struct gpu_spec *g, const struct measured_gemm *gm,
                                    int n, enum op_kind kind, const struct gemm_epilogue *ep)
{
    double w = 0, t = 0;
    for (int i = 0; i < n; i++) {
        if (gm[i].kind != kind)
            continue;
        const double M = (double)gm[i].m, N = (double)gm[i].n, K = (double)gm[i].k;
        const double f = 2.0 * M * N * K * gm[i].layers;
        w += f * (ep->fwd_passes + 2.0);
        t += f * passes_inverse(g, M, N, K, 1.0, ep, ep->weight_grad);
    }
    return t > 0 ? w / t : 1.0;
}

/* Measured GEMM times are usable when they were measured on the scenario's GPU (even when
 * --points-any-device let another device's points match), in its dtype, and are not faster
 * than its peak. */
static bool measured_usable(const struct measured *m, const struct analysis *a)
{
    return m != NULL && m->n_ops == a->n_ops && m->n_ops_measured > 0 && !m->dtype_differs &&
           !m->other_device && m->efficiency > 0 && m->efficiency <= 1.0;
}

/* One step's data-parallel traffic of P bytes of weights per GPU over n ranks. */
/*
 * The dtype gradients are reduced in: --grad-dtype when set. With auto, fp32 where Megatron-LM
 * reduces in fp32: bf16 weights with fp32 main gradients (its arguments.py forces
 * accumulate_allreduce_grads_in_fp32 for bf16, fp8 runs included); otherwise the weights'
 * dtype (fp16: Megatron's default, and DeepSpeed reduces the 16-bit gradients before filling
 * its fp32 partition).
 */
static enum dtype reduce_dtype(const struct scenario *s)
{
    if (s->grad_dtype != SCENARIO_DTYPE_AUTO)
        return s->grad_dtype;
    const enum dtype w = memory_weights_dtype(s);
    return w == DTYPE_BF16 && memory_grad_dtype(s, NULL) == DTYPE_FP32 ? DTYPE_FP32 : w;
}

/* NCCL's tuning model (NVIDIA/nccl src/graph/tuning.cc, the Simple protocol large messages
 * use): every collective costs a base latency of 8.4 us before its ring steps; a tree level
 * over the network costs twice a ring step there (Tree Simple 28 us vs Ring Simple 14 us). */
#define COLL_BASE_LATENCY 8.4e-6
#define TREE_LEVEL_STEPS 2.0
/* The SMs a communication kernel holds while it runs: one CTA per NCCL channel, 16 channels
 * assumed (the ring count NCCL builds on 8-GPU, 8-NIC nodes). Compute under it runs on the
 * rest: slowed by 16 / SMs of the time they overlap. Where the SM count is unknown, 132
 * (H100 SXM). */
#define COMM_SMS 16.0
#define DEFAULT_SMS 132.0

static double comm_interference(const struct scenario *s)
{
    return COMM_SMS / (s->gpu.sms > 0 ? (double)s->gpu.sms : DEFAULT_SMS);
}

/* One collective of `bytes` per rank over n ranks every `stride`: NCCL's base latency, then
 * the ring; an all-reduce across domains takes the faster of the ring and NCCL's tree, whose
 * latency grows with log2 of the domains it spans rather than with the ranks (the bandwidth
 * term is the same at scale, reference.md section 7). */
static double coll_time(const struct predict_node *node, enum collective c, double n,
                        double stride, double bytes)
{
    if (n <= 1 || bytes <= 0)
        return 0.0;
    double bw, lat;
    predict_group_link(node, n, stride, &bw, &lat);
    double t = predict_collective(c, n, bytes, bw, lat);
    if ((n - 1.0) * stride + 1.0 > node->domain) {
        /* Across domains a ring's steps inside a domain take NVLink's latency, only its
         * domain crossings the network's (tuning.cc counts nNodes - 1 inter-node steps). */
        double per = fmax(1.0, fmin(n, floor(node->domain / stride)));
        double domains = ceil(n / per), hops = c == COLL_ALL_REDUCE ? 2.0 : 1.0;
        t -= hops * ((n - domains) * (lat - node->nvlink_lat));
    }
    if (c == COLL_ALL_REDUCE && (n - 1.0) * stride + 1.0 > node->domain) {
        double per = fmax(1.0, fmin(n, floor(node->domain / stride)));
        double levels = ceil(log2(ceil(n / per)));
        double tree = 2.0 * (n - 1.0) / n * bytes / bw +
                      2.0 * (levels * TREE_LEVEL_STEPS * node->network_lat + (per - 1.0) * node->nvlink_lat);
        t = fmin(t, tree);
    }
    return COLL_BASE_LATENCY + t;
}

/* The compute a data-parallel schedule can hide communication under, on the busiest stage:
 * one micro-batch's forward and its backward (with any recomputed forward), and the layers. */
struct dp_window {
    double fwd, bwd;       /* seconds of one micro-batch, all the stage's layers */
    double layers;         /* layers on the stage */
    double micro;          /* micro-batches per step */
    bool full;             /* full recomputation */
    /* Micro-batches whose backward passes can run under the gradients' reduce (and whose
     * forward passes under the weights' gather): the interleaved schedule runs the
     * micro-batches in groups of p through every model chunk, and each chunk's gradients are
     * final once the last group's p micro-batches have left it, its reduce launched then,
     * while the other chunks still run that group (Megatron-LM r0.8 schedules.py:
     * is_last_microbatch_for_model_chunk and the grad_sync_func it launches per chunk; the
     * weights' gathers likewise per chunk through the first group, param_sync_func): p;
     * otherwise the last micro-batch's backward (the first one's forward) alone: 1. */
    double group;
};

/* The ranks the weights are sharded or reduced over and where they sit. */
struct dp_group {
    double n, stride;
    double params;         /* parameters per GPU this group reduces */
    /* Parameters per GPU of the first stage's token (and learned position) embedding, in
     * this group: the tensors the forward uses first and whose gradient the backward
     * finishes last; 0 where the group holds none (the routed experts). */
    double embedding;
};

/* Exposed time of `total` seconds run under `window` seconds of compute, `first` of it (the
 * first piece to gather, or the last to reduce) never hidden; the hidden part into *hidden. */
static double bounded_overlap(double total, double first, double window, double *hidden)
{
    double rest = total - first;
    double h = fmin(rest, fmax(0.0, window));
    *hidden += h;
    return total - h;
}

/* ZeRO 0-2: gradients reduced in buckets (all-reduce, or reduce-scatter with the weights
 * all-gathered after the optimizer), once per step or, where the framework does, after every
 * micro-batch; hidden as its overlap flags allow: the reduce under the backward of the last
 * micro-batch but its last bucket, the gather under the next forward but its first.
 * That bucket holds the first stage's embedding, whole: the buckets are filled in reverse
 * order of the parameters (backward order), each closed once it holds the bucket size, so a
 * table larger than a bucket makes its own, and the embedding comes last (Megatron-LM r0.8
 * param_and_grad_buffer.py; PyTorch DDP's and DeepSpeed's buckets likewise, in gradient-ready
 * order); its gradient is the backward's last, and its weights the forward's first, whose
 * gather (distrib_optimizer.py: launched in zero_grad, waited on by the embedding's forward
 * pre-hook) has only the data loading before it. */
static double dp_replicated(const struct scenario *s, const struct predict_node *node,
                            const struct dp_group *gr, const struct dp_window *w, double *hidden)
{
    const struct framework_profile *f = framework_profile(s->framework);
    const double Pg = gr->params * dtype_bytes(reduce_dtype(s));
    const double Pw = gr->params * dtype_bytes(memory_weights_dtype(s));
    double bucket = f->bucket_params;
    if (s->framework == FRAMEWORK_MEGATRON)
        bucket = fmax(bucket, 1e6 * gr->n);
    const double nb = fmax(1.0, ceil(gr->params / bucket));
    const bool split = s->zero >= 1 || Pg != Pw;
    const double reduces = s->zero >= 2 && f->reduce_every_micro ? w->micro : 1.0;
    const double edge = nb > 1 ? fmin(1.0, fmax(1.0 / nb, gr->embedding / gr->params)) : 1.0;
    const enum collective rc = split ? COLL_REDUCE_SCATTER : COLL_ALL_REDUCE;
    double r = nb * coll_time(node, rc, gr->n, gr->stride, Pg / nb);
    double r_last = edge < 1.0 ? coll_time(node, rc, gr->n, gr->stride, edge * Pg) : r;
    const double window = (reduces > 1.0 ? 1.0 : w->group) * w->bwd;
    double exposed = f->grad_overlap ? reduces * bounded_overlap(r, r_last, window, hidden) : reduces * r;
    if (split) {
        double g = nb * coll_time(node, COLL_ALL_GATHER, gr->n, gr->stride, Pw / nb);
        double g_first = edge < 1.0 ? coll_time(node, COLL_ALL_GATHER, gr->n, gr->stride, edge * Pw) : g;
        exposed += f->param_overlap ? bounded_overlap(g, g_first, w->group * w->fwd, hidden) : g;
    }
    return exposed;
}

/* One pass over the stage's layers with `comm` seconds of communication a layer under
 * `compute` seconds: prefetched, each layer's traffic runs under the previous layer's
 * compute, the first layer's never hidden and none more than the compute under it. */
static double layer_pass(double layers, double comm, double compute, bool prefetch, double *hidden)
{
    if (!prefetch || layers <= 1)
        return layers * comm;
    double h = (layers - 1.0) * fmin(comm, compute);
    *hidden += h;
    return layers * comm - h;
}

/*
 * ZeRO-3 / FSDP: every micro-batch gathers each layer's weights before its forward and again
 * before its backward (and before a recomputed forward where the framework releases them in
 * between: DeepSpeed), in the framework's number of calls a layer, each with NCCL's latency;
 * the gradients are reduce-scattered in the backward pass (a layer's at a time, or
 * DeepSpeed's buckets). In the backward a layer's gather and reduce share the link.
 */
static double dp_sharded(const struct scenario *s, const struct predict_node *node,
                         const struct dp_group *gr, const struct dp_window *w, double *hidden)
{
    const struct framework_profile *f = framework_profile(s->framework);
    const double L = fmax(1.0, w->layers);
    const double Pg = gr->params * dtype_bytes(reduce_dtype(s));
    const double Pw = gr->params * dtype_bytes(memory_weights_dtype(s));
    const double k = f->gathers_per_layer > 0 ? f->gathers_per_layer : framework_layer_tensors(&s->model);
    const double gather = k * (coll_time(node, COLL_ALL_GATHER, gr->n, gr->stride, Pw / L / k) +
                               gr->n * f->gather_copy_per_rank);
    double reduce;
    if (s->framework == FRAMEWORK_DEEPSPEED) {
        double nb = fmax(1.0, ceil(gr->params / f->bucket_params));
        reduce = nb * coll_time(node, COLL_REDUCE_SCATTER, gr->n, gr->stride, Pg / nb) / L;
    } else {
        reduce = coll_time(node, COLL_REDUCE_SCATTER, gr->n, gr->stride, Pg / L);
    }
    const double bwd_gathers = 1.0 + (w->full && f->regather_recompute ? 1.0 : 0.0);
    double per_micro = layer_pass(L, gather, w->fwd / L, f->prefetch, hidden) +
                       layer_pass(L, bwd_gathers * gather + reduce, w->bwd / L, f->prefetch, hidden);
    return w->micro * per_micro;
}

/* Data-parallel communication of one group, exposed under the framework's schedule, or
 * with --dp-overlap's fraction hidden (at most the compute) when it is given. */
static double dp_group_exposed(const struct scenario *s, const struct predict_node *node,
                               const struct dp_group *gr, const struct dp_window *w,
                               double *hidden)
{
    if (gr->n <= 1)
        return 0.0;
    if (s->dp_overlap == SCENARIO_OVERLAP_AUTO)
        return s->zero >= 3 ? dp_sharded(s, node, gr, w, hidden)
                            : dp_replicated(s, node, gr, w, hidden);
    double h = 0; /* all of it, before any hiding: what is exposed and what is hidden */
    double comm = (s->zero >= 3 ? dp_sharded(s, node, gr, w, &h) : dp_replicated(s, node, gr, w, &h)) + h;
    double hid = fmin(s->dp_overlap * comm, w->micro * (w->fwd + w->bwd));
    *hidden += hid;
    return comm - hid;
}

/* Data parallelism over the dp x cp ranks that hold the same weights, every t ranks
 * (Megatron's order tp-cp-dp: its gradient reduce runs over the data-parallel group with
 * context parallelism), exposed under the framework's schedule (dp_group_exposed). With
 * expert parallelism the routed experts' share (etp x ep per GPU of them) reduces over the
 * t x dp x cp / (etp x ep) ranks of its expert-data-parallel group, every etp x ep ranks
 * (dp x cp / ep every t x ep when etp is tp). The compute under
 * the hidden part loses the SMs the communication holds. */
static double dp_part(const struct scenario *s, const struct analysis *a,
                      const struct predict_node *node, const struct dp_window *w)
{
    const double t = (double)s->tp, p = (double)s->pp, ep = (double)s->ep;
    const double R = (double)a->dp * (double)s->cp;
    if (R <= 1)
        return 0.0;
    double routed = scenario_routed_apart(s);
    double hidden = 0;
    /* The token embedding split over the tensor-parallel ranks (vocabulary-parallel), learned
     * positions replicated. */
    double embedding = (double)a->params.embedding / t + (double)a->params.position;
    struct dp_group dense = {R, t, ceil(((double)a->params.total - routed) / (t * p)), embedding};
    double comm = dp_group_exposed(s, node, &dense, w, &hidden);
    /* The routed experts: over their expert-data-parallel ranks, every etp x ep. */
    const double et = (double)scenario_etp(s), edp = routed > 0 ? (double)scenario_expert_dp(s) : 0.0;
    if (edp > 1) {
        struct dp_group experts = {edp, et * ep, ceil(routed / (et * p * ep)), 0.0};
        comm += dp_group_exposed(s, node, &experts, w, &hidden);
    }
    return comm + comm_interference(s) * hidden;
}

void predict_run(const struct scenario *s, const struct analysis *a, const struct measured *m,
                 struct prediction *out)
{
    predict_run_derated(s, a, m, framework_profile(s->framework)->derate, out);
}

/* What every part of one step's prediction reads: the layout and the model as numbers. */
struct step_ctx {
    const struct scenario *s;
    const struct analysis *a;
    const struct predict_node *node;
    double t, p, v, cp, ep;      /* parallel degrees */
    double mb, seq, h;           /* micro-batch, sequence, hidden size */
    double seq_r;                /* queries (tokens) of a sequence on one context rank */
    double micro;                /* micro-batches per step per pipeline */
    double e;                    /* bytes of an activation on the wire */
    bool full, selective;        /* the forward recomputed whole / its attention core */
    /* The GPU's rates, found once per prediction rather than for each op (op_time): the
     * dense peak of the scenario's dtype, the vector (fp32) peak elementwise ops run at (the
     * dense one where the GPU gives none), the bandwidth, the large-GEMM and memory
     * efficiencies, and FlashAttention's. */
    double peak, vector_peak, bw, E, me, F;
    /* The rate of the matmuls an fp8 or fp4 run leaves in bf16 (narrow_kind): the dtype's
     * peak otherwise. */
    double wide_peak;
    double stage_layers;         /* layers of the busiest stage */
    struct gemm_epilogue epi;    /* what the GEMMs' epilogues cost (stage_kernels) */
};

/* The busiest stage's kernels, all micro-batches: each op at its achievable rate. */
struct kernel_times {
    double layer_compute, layer_recompute, head_compute;
    double gemm_seconds;         /* the layers' linear GEMMs, which tensor-parallel overlap uses */
    double core_seconds;         /* the attention core's kernels (all passes), which the CP
                                    ring overlaps */
};

/* One op's time: measured where points apply, else its rate on the GPU for its kind and
 * shape, never faster than the roofline, divided by the framework's derating. */
/* FlashAttention's rates with attention dropout over its rates without: FA4's SM100 kernels
 * and cuDNN's fused attention, bf16, p 0.125, head dims 64 and 128 (Dao-AILab/flash-attention
 * PR #2597, its benchmark: "Dropout costs ~20-40% over no-drop ... fwd ~ 75-85%, bwd ~ 60-70%
 * of no-drop TFLOPS", cuDNN's dropout backward slower still), the middle of each range. */
#define FLASH_DROPOUT_FWD 0.80
#define FLASH_DROPOUT_BWD 0.65

static double op_time(const struct step_ctx *c, const struct op *o, int i,
                      const struct measured *m, bool use_measured,
                      const struct measured_gemm *gm, int ngm, double extra_bytes, double derate)
{
    const struct scenario *s = c->s;
    const struct gpu_spec *g = &s->gpu;
    const double peak = narrow_kind(o->kind) ? c->peak : c->wide_peak;
    const double vector_peak = c->vector_peak, bw = c->bw;
    const double E = c->E, me = c->me, F = c->F;
    const double heads = (double)s->model.heads / c->t, hd = c->h / (double)s->model.heads;
    double mem = bw > 0 ? (o->bytes + extra_bytes) / (me * bw) : 0.0;
    double sec;
    if (kind_is_gemm(o->kind) && use_measured && m->op_seconds[i] >= 0) {
        sec = m->op_seconds[i];
    } else if (kind_is_gemm(o->kind)) {
        sec = fmax(o->flops / (E * kind_shape_efficiency(g, gm, ngm, o->kind, &c->epi) * peak), mem);
    } else if (o->kind == OP_SCORES || o->kind == OP_ATTN_V) {
        /* Batched per-head GEMMs: s x s (scores) or s x d (A.V) outputs per head, recomputed
         * with full and selective recomputation; their gradients write activations. */
        double N = o->kind == OP_SCORES ? c->seq : hd, K = o->kind == OP_SCORES ? hd : c->seq;
        struct gemm_epilogue core = c->epi;
        core.fwd_passes = c->full || c->selective ? 2.0 : 1.0;
        double inv = passes_inverse(g, c->seq_r, N, K, c->mb * heads, &core, core.act);
        sec = fmax(o->flops * inv / ((core.fwd_passes + 2.0) * E * peak), mem);
    } else if (o->kind == OP_FLASH_ATTN) {
        /* The fused backward recomputes the scores: five matmuls to the forward's two, 2.5
         * forward passes where the op counts 2 (Dao 2023, FlashAttention-2, section 3.1.2;
         * its benchmarks count the backward as 2.5 x the forward). */
        const double counted = 3.0 + (c->full ? 1.0 : 0.0);
        const double fwd = counted - 2.0;
        /* Dropout inside the fused kernel draws a Philox number per score element, forward
         * and again in the backward (which regenerates the mask): the forward runs at
         * FLASH_DROPOUT_FWD and the backward at FLASH_DROPOUT_BWD of their dropout-free
         * rates. */
        const double pf = s->dropout ? FLASH_DROPOUT_FWD : 1.0, pb = s->dropout ? FLASH_DROPOUT_BWD : 1.0;
        sec = fmax(o->flops * (fwd / pf + 2.5 / pb) / counted / (F * peak), mem);
    } else {
        sec = fmax(o->flops / vector_peak, mem);
    }
    /* Never faster than the roofline (a measured point cannot beat the peak either). */
    return fmax(sec, o->seconds) / derate;
}

/*
 * Bytes the cross-entropy moves per logit, forward and backward, as the frameworks run it
 * unfused. Megatron-LM (and Megatron-DeepSpeed) vocab_parallel_cross_entropy
 * (megatron/core/tensor_parallel/cross_entropy.py, r0.8.0): the e-byte logits cast to fp32
 * (e + 4), the max (4), the in-place subtraction (8), exp (8), the sum (4), the division into
 * the softmax it keeps (8); backward the in-place product with the loss gradient (8) and the
 * cast back to e bytes for the LM head's GEMMs (4 + e). PyTorch's cross_entropy (FSDP, after
 * the model's logits.float()): the cast (e + 4), log_softmax fused (8), its backward (12),
 * the cast back (4 + e). No casts where the logits are fp32 already.
 */
static double loss_bytes_per_logit(const struct scenario *s, double e)
{
    double cast = e < 4.0 ? 2.0 * (e + 4.0) : 0.0;
    return (s->framework == FRAMEWORK_FSDP ? 8.0 + 12.0 : 32.0 + 8.0) + cast;
}

/*
 * The weight gradients' epilogue and their accumulation over a step's micro-batches.
 * Megatron-LM adds each micro-batch's weight gradient into main_grad inside the GEMM
 * (gradient_accumulation_fusion, its default since NVIDIA/Megatron-LM 83b1e42f30, 2022): the
 * epilogue reads and writes the accumulator, 2 x the gradient's bytes a weight. Elsewhere the
 * GEMM writes the gradient in the activations' dtype and PyTorch's autograd adds each later
 * micro-batch's into .grad in a kernel of its own, 3 x those bytes a weight, except where each
 * micro-batch's gradients are reduce-scattered and only a shard accumulates (ZeRO-3,
 * DeepSpeed's ZeRO-2). Sets c->epi; the accumulation kernels' seconds of the stage's layers
 * into *layer, of the LM head's weights into *head.
 */
static void weight_grad_epilogue(struct step_ctx *c, double derate, double *layer, double *head)
{
    const struct scenario *s = c->s;
    const struct gpu_spec *g = &s->gpu;
    const double R = epilogue_flops_per_byte(g, s->dtype);
    const bool fused = s->framework == FRAMEWORK_MEGATRON;
    const double grad = dtype_bytes(memory_grad_dtype(s, NULL));
    c->epi.act = c->e * R;
    c->epi.weight_grad = (fused ? 2.0 * grad : c->e) * R;
    c->epi.fwd_passes = c->full ? 2.0 : 1.0;
    *layer = *head = 0;
    const bool sharded = s->zero >= 3 || (s->framework == FRAMEWORK_DEEPSPEED && s->zero >= 2);
    if (fused || sharded || c->micro <= 1 || g->bandwidth <= 0)
        return;
    const struct param_counts *pc = &c->a->params;
    const double me = g->memory_efficiency > 0 ? g->memory_efficiency : PREDICT_MEMORY_EFFICIENCY;
    const double per_weight = 3.0 * c->e * (c->micro - 1.0) / (me * g->bandwidth * derate);
    const double routed = scenario_routed_apart(s);
    const double linear = (double)(pc->attention + pc->mlp + pc->router);
    const double on_gpu = (linear - routed) / c->t + routed / ((double)scenario_etp(s) * c->ep);
    *layer = on_gpu * c->stage_layers / (double)s->model.layers * per_weight;
    *head = (double)(pc->lm_head > 0 ? pc->lm_head : pc->embedding) / c->t * per_weight;
}

/* The kernels as they execute: the attention core's work is the kernel's (causal with
 * FlashAttention, full without), not the MFU convention's (flops_ops_executed), on the stage
 * the ops list holds (flops_ops: the busiest). Sets c->stage_layers. */
static void stage_kernels(struct step_ctx *c, const struct measured *m, double derate,
                          struct kernel_times *k, struct prediction *out)
{
    const struct scenario *s = c->s;
    const struct analysis *a = c->a;
    struct measured_gemm gm[MEASURED_MAX_GEMMS];
    int ngm = measured_dims(s, gm, MEASURED_MAX_GEMMS);
    const bool use_measured = measured_usable(m, a);
    out->gemm_measured = use_measured;
    const struct op *ops = a->ops;
    int n_ops = a->n_ops;
    c->stage_layers = a->roofline.stage_layers;
    struct op exec[ANALYSIS_MAX_OPS];
    if (s->attention_flops != flops_attention_executed(s)) {
        struct scenario trained = *s;
        scenario_trained_model(s, &trained.model);
        struct roofline rf;
        flops_ops_executed(&trained, &a->params, exec, &n_ops, &rf);
        ops = exec;
        c->stage_layers = rf.stage_layers;
    }
    /* Dropout traffic the roofline's op list leaves out: without FlashAttention the s x s
     * probabilities are read and written once more with a 1-byte mask, forward (and its
     * recomputation: full, or selective, whose recomputed core attention holds the attention
     * dropout, Korthikanti et al. 2022 section 5) and backward; the two hidden-state dropouts
     * add their masks (recomputed only with the whole layer). */
    const double passes = 2.0 + (c->full ? 1.0 : 0.0);
    const double score_passes = passes + (c->selective ? 1.0 : 0.0);
    const double tokens_n = c->mb * c->seq_r / (s->sp ? c->t : 1.0);
    const double heads = (double)s->model.heads / c->t;
    double drop_scores = 0, drop_hidden = 0;
    if (s->dropout) {
        if (!s->flash)
            drop_scores = c->stage_layers * c->micro * c->mb * heads * c->seq_r * c->seq *
                          (2.0 * c->e + 1.0) * score_passes;
        drop_hidden = c->stage_layers * c->micro * 2.0 * tokens_n * c->h * passes;
    }
    /* The loss as it runs (loss_bytes_per_logit) where the op list counts less. */
    const double logits = c->micro * c->mb * c->seq_r * (double)s->model.vocab / c->t;
    const double loss_bytes = logits * loss_bytes_per_logit(s, c->e);
    memset(k, 0, sizeof *k);
    double accum = 0, accum_head = 0;
    weight_grad_epilogue(c, derate, &accum, &accum_head);
    k->gemm_seconds = accum;
    k->layer_compute = accum;
    for (int i = 0; i < n_ops; i++) {
        const struct op *o = &ops[i];
        double extra = (o->kind == OP_SOFTMAX ? drop_scores : 0.0) +
                       (o->kind == OP_RESIDUAL ? drop_hidden : 0.0) +
                       (o->kind == OP_LOSS ? fmax(0.0, loss_bytes - o->bytes) : 0.0);
        double sec = op_time(c, o, i, m, use_measured, gm, ngm, extra, derate) +
                     (o->kind == OP_LM_HEAD ? accum_head : 0.0);
        if (o->kind == OP_OPTIMIZER) {
            out->part[PART_OPTIMIZER] += sec;
        } else if (kind_is_head(o->kind)) {
            k->head_compute += sec;
        } else {
            if (kind_is_gemm(o->kind))
                k->gemm_seconds += sec;
            /* Recomputation is one more forward pass: a quarter of the op's four passes. */
            double re = (c->full || (c->selective && kind_is_core(o->kind))) ? sec / 4.0 : 0.0;
            k->layer_recompute += re;
            k->layer_compute += sec - re;
            if (kind_is_core(o->kind))
                k->core_seconds += sec;
        }
    }
}

/* Tensor parallelism (Megatron): per layer and micro-batch two all-reduces of the b.s.h
 * activations forward, two backward, two more when the forward is recomputed; sequence
 * parallelism turns each into a reduce-scatter and an all-gather of the same volume, and
 * its backward gathers the two column-parallel layers' inputs once more for their weight
 * gradients, only the sequence-parallel shard being kept (Korthikanti et al. 2022, section
 * 4.2.2; Transformer Engine's LayerNormLinear backward): two all-gathers more. The
 * first stage adds the vocabulary-parallel embedding's all-reduce, the last the LM head
 * input's in backward (*edge). Exposed: Megatron runs them on the critical path, except
 * where its --tp-comm-overlap (Transformer Engine's userbuffers, with sequence parallelism,
 * Hopper and later, inside one NVLink domain) splits each all-gather and reduce-scatter into
 * t chunks pipelined with the GEMM it feeds or follows: the first chunk is exposed, no more
 * is hidden than the linear layers' GEMM time, and those GEMMs lose the SMs it holds. */
static double tp_comm(const struct step_ctx *c, const struct kernel_times *k, double *edge)
{
    const struct scenario *s = c->s;
    *edge = 0;
    if (c->t <= 1)
        return 0;
    double lbw, llat;
    predict_group_link(c->node, c->t, 1.0, &lbw, &llat);
    double S = c->mb * c->seq_r * c->h * c->e;
    double one = s->sp ? predict_collective(COLL_REDUCE_SCATTER, c->t, S, lbw, llat) +
                             predict_collective(COLL_ALL_GATHER, c->t, S, lbw, llat)
                       : predict_collective(COLL_ALL_REDUCE, c->t, S, lbw, llat);
    const double regather = s->sp ? predict_collective(COLL_ALL_GATHER, c->t, S, lbw, llat) : 0.0;
    /* The blocks a layer runs tensor-parallel: its attention and its MLP, but a MoE layer's
     * experts with an expert tp of 1 (folded) take each rank's sequence-parallel tokens as
     * they are. */
    const double folded = scenario_etp(s) == 1 && model_is_moe(&s->model)
                              ? (double)model_moe_layers(&s->model) / (double)s->model.layers
                              : 0.0;
    const double blocks = 2.0 - folded;
    double layer = c->stage_layers * c->micro *
                   (blocks * (2.0 + (c->full ? 1.0 : 0.0)) * one + blocks * regather);
    *edge = c->micro * one;
    if (c->t <= c->node->domain && s->sp && framework_tp_overlap(s)) {
        double hid = 0;
        layer = bounded_overlap(layer, c->t > 1 ? layer / c->t : layer, k->gemm_seconds, &hid) +
                comm_interference(s) * hid;
    }
    return layer;
}

/* Context parallelism (Megatron-LM's CP, Transformer Engine's P2P ring attention, after Liu
 * et al. 2023 "Ring Attention"): each of the cp ranks holds seq/cp of every sequence; its K
 * and V chunk travels the ring in cp - 1 steps in forward, and backward sends K, V and their
 * gradients dK, dV (twice the bytes) the same cp - 1 steps; a recomputed forward sends again.
 * Each step's send overlaps the attention of the chunk in hand, so only what the attention
 * kernels do not cover is exposed. The ring's ranks sit every t (Megatron's order
 * tp-cp-dp-pp). The ring's whole traffic goes to *ring. */
static double cp_comm(const struct step_ctx *c, const struct kernel_times *k, double *ring)
{
    const struct scenario *s = c->s;
    *ring = 0;
    if (c->cp <= 1)
        return 0;
    double cbw, clat;
    predict_group_link(c->node, c->cp, c->t, &cbw, &clat);
    struct attn_dims ad;
    model_attn_dims(&s->model, &ad);
    /* K and V per token on one tensor-parallel rank: GQA/MHA's kv heads; MLA trains with K
     * and V expanded per head. */
    double kv = model_is_mla(&s->model) ? (double)s->model.heads * (double)(ad.head_qk + ad.head_v)
                                        : (double)ad.cache_per_token;
    double S = c->mb * c->seq_r * kv / c->t * c->e;
    double step1 = S / cbw + clat;
    double rounds = (c->cp - 1.0) * (1.0 + 2.0 + (c->full ? 1.0 : 0.0));
    *ring = c->stage_layers * c->micro * rounds * step1;
    return fmax(0.0, *ring - k->core_seconds);
}

/* Expert parallelism (Megatron-LM's all-to-all token dispatcher): in every MoE layer each rank
 * sends its tokens' top-k copies to the ranks holding those experts and takes the results back
 * (dispatch + combine), forward, backward and a recomputed forward. With balanced routing a
 * rank's k x tokens x h elements go (ep-1)/ep off the rank. Tokens per rank: seq/cp of each
 * sequence, split t ways (Megatron requires sequence parallelism with tp and ep). The ep ranks
 * sit every etp (the expert grid etp-ep-edp, expert tensor parallelism innermost). Shared
 * experts run where the token is. */
static double ep_comm(const struct step_ctx *c)
{
    const struct scenario *s = c->s;
    if (c->ep <= 1 || !model_is_moe(&s->model))
        return 0;
    double ebw, elat;
    predict_group_link(c->node, c->ep, (double)scenario_etp(s), &ebw, &elat);
    double k = (double)s->model.experts_active;
    double S = c->mb * c->seq_r / c->t * k * c->h * c->e;
    double one = predict_collective(COLL_ALL_TO_ALL, c->ep, S, ebw, elat);
    double moe_share = (double)model_moe_layers(&s->model) / (double)s->model.layers;
    return c->stage_layers * moe_share * c->micro * 2.0 * (2.0 + (c->full ? 1.0 : 0.0)) * one;
}

/* Pipeline: 1F1B idles (p - 1) micro-batch times per step; interleaving v chunks per GPU makes
 * each v times shorter (Narayanan et al. 2021, section 2.2). Sends: activations forward and
 * gradients backward, once per micro-batch and chunk, split over the tensor ranks (Megatron's
 * scatter/gather, Narayanan et al. section 4.1) and over the network once the pipeline leaves
 * one NVLink domain (the slowest boundary sets the pace). */
static void pipeline_parts(const struct step_ctx *c, struct prediction *out)
{
    if (c->p <= 1)
        return;
    const struct predict_node *node = c->node;
    out->part[PART_PP_BUBBLE] = (c->p - 1.0) / c->v * out->micro_batch_seconds;
    bool inside = (double)c->s->gpus <= node->domain;
    double pbw = inside ? node->nvlink_bw : node->network_bw;
    double plat = inside ? node->nvlink_lat : node->network_lat;
    double S = c->mb * c->seq_r * c->h * c->e / c->t;
    out->part[PART_PP_COMM] = 2.0 * c->v * c->micro * (S / pbw + plat);
}

/* The step from its parts, and what follows from it: MFU, HFU, tokens/s, days. */
static void step_totals(const struct step_ctx *c, struct prediction *out)
{
    const struct scenario *s = c->s;
    double step = 0;
    for (int i = 0; i < PART_COUNT; i++)
        step += out->part[i];
    out->step_seconds = step;
    double rate = step * (double)s->gpus * c->peak;
    if (rate > 0) {
        out->mfu = c->a->flops.model_per_step / rate;
        out->hfu = c->a->flops.per_step / rate;
    }
    double step_tokens = (double)s->batch * c->seq;
    out->tokens_per_s = step > 0 ? step_tokens / step : 0.0;
    out->days = step * (s->tokens / step_tokens) / 86400.0;
}

void predict_run_derated(const struct scenario *s, const struct analysis *a,
                         const struct measured *m, double derate, struct prediction *out)
{
    memset(out, 0, sizeof *out);
    predict_node_of(s, &out->node);
    out->framework = s->framework;
    out->overlap_override = s->dp_overlap != SCENARIO_OVERLAP_AUTO;
    const struct gpu_spec *g = &s->gpu;
    out->gemm_efficiency = g->gemm_efficiency > 0 ? g->gemm_efficiency : PREDICT_GEMM_EFFICIENCY;
    out->roofline_step = a->roofline.step_seconds;
    struct step_ctx c = {
        .s = s, .a = a, .node = &out->node,
        .t = (double)s->tp, .p = (double)s->pp, .v = (double)s->vpp,
        .cp = (double)s->cp, .ep = (double)s->ep,
        .mb = (double)a->micro_batch, .seq = (double)s->seq, .h = (double)s->model.d_model,
        .seq_r = (double)s->seq / (double)s->cp,
        .micro = (double)a->accum_steps,
        /* Activations on the wire in their stored dtype: fp32 under tf32, bf16 under fp8
         * compute (Transformer Engine keeps its fp8 copies for the GEMMs only). */
        .e = dtype_bytes(memory_weights_dtype(s)),
        .full = s->recompute == RECOMPUTE_FULL || s->recompute == RECOMPUTE_SQRT,
        .selective = s->recompute == RECOMPUTE_SELECTIVE && !s->flash,
    };
    c.peak = gpu_peak(g, s->dtype);
    c.wide_peak = dtype_bytes(s->dtype) < 2.0 && gpu_peak(g, DTYPE_BF16) > 0 ? gpu_peak(g, DTYPE_BF16)
                                                                            : c.peak;
    c.vector_peak = gpu_peak(g, DTYPE_FP32);
    if (c.vector_peak <= 0)
        c.vector_peak = c.peak;
    c.bw = g->bandwidth;
    c.E = out->gemm_efficiency;
    c.me = g->memory_efficiency > 0 ? g->memory_efficiency : PREDICT_MEMORY_EFFICIENCY;
    c.F = fmin(PREDICT_FLASH_EFFICIENCY, c.E);
    struct kernel_times k;
    stage_kernels(&c, m, derate, &k, out);
    double edge_tp = 0;
    double layer_tp = tp_comm(&c, &k, &edge_tp);
    double layer_cp = cp_comm(&c, &k, &out->cp_ring_seconds);
    double layer_ep = ep_comm(&c);

    /* The busiest stage: the first has the embedding, the last the LM head (with one stage,
     * both). */
    double first = k.layer_compute + k.layer_recompute + layer_tp + edge_tp + layer_cp + layer_ep;
    double last = first + k.head_compute;
    if (c.p == 1)
        last += edge_tp;
    bool head_stage = c.p == 1 || last >= first;
    out->part[PART_COMPUTE] = k.layer_compute + (head_stage ? k.head_compute : 0.0);
    out->part[PART_RECOMPUTE] = k.layer_recompute;
    out->part[PART_TP_COMM] = layer_tp + edge_tp * (c.p == 1 ? 2.0 : 1.0);
    out->part[PART_CP_COMM] = layer_cp;
    out->attention_seconds = k.core_seconds;
    out->part[PART_EP_COMM] = layer_ep;
    double busy = out->part[PART_COMPUTE] + out->part[PART_RECOMPUTE] + out->part[PART_TP_COMM] +
                  layer_cp + layer_ep;
    out->micro_batch_seconds = c.micro > 0 ? busy / c.micro : 0.0;
    pipeline_parts(&c, out);

    /* Data parallelism (dp_part) under one micro-batch's forward and backward. */
    struct dp_window w = {0, 0, c.stage_layers, c.micro, c.full, c.v > 1 ? fmin(c.p, c.micro) : 1.0};
    if (c.micro > 0) {
        w.fwd = k.layer_compute / (3.0 * c.micro);
        w.bwd = 2.0 * w.fwd + k.layer_recompute / c.micro;
    }
    out->part[PART_DP_COMM] = dp_part(s, a, &out->node, &w);
    step_totals(&c, out);
}
