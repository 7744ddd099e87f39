/* memory.c - memory per GPU, laid out as Megatron-LM and DeepSpeed lay it out.
 *
 * Sources, each where it is used:
 *   - Megatron-LM, megatron/training/theoretical_memory_usage.py: 18 bytes per parameter with
 *     mixed precision (2 weights + 4 fp32 gradients + 4 master + 8 Adam), 6 + 12/dp with the
 *     distributed optimizer; the embedding on the first stage and the output layer on the
 *     last; activations of the first stage with pp micro-batches in flight under 1F1B and
 *     1 + (pp - 1)/(pp x vpp) times that under the interleaved schedule.
 *   - DeepSpeed, runtime/zero/stage3.py estimate_zero3_model_states_mem_needs: 18 bytes per
 *     parameter sharded plus 4 x the largest module's parameters; stage_1_and_2.py
 *     estimate_zero2_model_states_mem_needs since DeepSpeed PR #5099: 2N + 18N/dp (the 16-bit
 *     gradients partitioned as well; the formula before it, 4N + 16N/dp, kept them whole).
 *   - Korthikanti et al. 2022, Table 2: the activations of one layer.
 *   - Transformer Engine, pytorch/module/linear.py: under fp8 a Linear saves the fp8 copy of
 *     its input for the weight gradient (inputmat_t / the fp8 ln_out), not the 16-bit one.
 */
#include "memory.h"

#include <math.h>
#include <string.h>

#include "dtype.h"

static void add(struct tensor_sum *t, double elements, double bytes_per_element)
{
    t->elements += elements;
    t->bytes += elements * bytes_per_element;
}

/* Whether the GEMMs run in an 8- or 4-bit format (the dtype is then a compute dtype only). */
static bool low_precision_compute(enum dtype d)
{
    return dtype_peak(d) == PEAK_FP8 || dtype_peak(d) == PEAK_FP4;
}

enum dtype memory_weights_dtype(const struct scenario *s)
{
    if (s->dtype == DTYPE_TF32)
        return DTYPE_FP32; /* an fp32 tensor multiplied at tf32 rate */
    if (low_precision_compute(s->dtype))
        return DTYPE_BF16; /* fp8/fp4 training keeps bf16 weights, cast per GEMM */
    return s->dtype;
}

enum dtype memory_grad_dtype(const struct scenario *s, enum mem_grad_why *why)
{
    enum mem_grad_why w;
    enum dtype d;
    if (s->grad_dtype != SCENARIO_DTYPE_AUTO) {
        w = GRAD_WHY_SET;
        d = s->grad_dtype;
    } else if (scenario_master_copy(s)) {
        /* Megatron-LM accumulates into fp32 main_grad buffers and DeepSpeed into fp32
         * partitions whenever an fp32 master copy exists: 18 bytes per parameter. */
        w = GRAD_WHY_MASTER;
        d = DTYPE_FP32;
    } else {
        w = GRAD_WHY_WEIGHTS;
        d = memory_weights_dtype(s);
    }
    if (why != NULL)
        *why = w;
    return d;
}

const char *memory_grad_why_text(enum mem_grad_why why)
{
    switch (why) {
    case GRAD_WHY_SET:
        return "as set by --grad-dtype";
    case GRAD_WHY_MASTER:
        return "auto: fp32, as Megatron/DeepSpeed with master weights";
    case GRAD_WHY_WEIGHTS:
        return "auto: the weights' dtype, no master copy";
    }
    return "";
}

double memory_routed_tokens(const struct scenario *s, double tokens)
{
    const struct model_arch *m = &s->model;
    const double k = (double)m->experts_active, E = (double)m->experts;
    if (s->moe_capacity > 0 && E > 0)
        return E * ceil(tokens * k * s->moe_capacity / E);
    return tokens * k;
}

/*
 * What one MoE layer's routed experts keep for backward on one rank, as Megatron-core's
 * MoEAlltoAllTokenDispatcher (legacy_a2a_token_dispatcher.py token_permutation) and
 * TEGroupedMLP (experts.py) run them: the T tokens are routed to top-k experts, R routed
 * tokens in all (memory_routed_tokens: T x top-k, or the capacity's padded count); with tp > 1
 * the dispatcher's all_to_all_sp2hp, the expert-parallel all-to-all and
 * all_gather_last_dim_from_tensor_parallel_region leave every tensor-parallel rank the whole
 * R x h input of its local experts (expert parallelism divides the experts, not the R tokens
 * a rank receives; folded to an expert tp of et, a rank holds et/t of them); fc1's output (R x 2f or R x f) and the activation's (R x f) are split by
 * the experts' tensor parallelism; the permuted probabilities are R fp32 values and the
 * router's probabilities T x experts fp32 on the sequence-parallel shard.
 */
static void moe_routed(const struct scenario *s, double T, double f, double e, double g,
                       struct tensor_sum *rep, struct tensor_sum *split, struct tensor_sum *lo,
                       struct tensor_sum *lo_split)
{
    const struct model_arch *m = &s->model;
    const double R = memory_routed_tokens(s, T), h = (double)m->d_model;
    const double t = (double)s->tp, sp_div = s->sp ? t : 1.0;
    /* With an expert tp of its own (folded) a rank holds et/t of its group's R, whole. */
    const double share = (double)scenario_etp(s) / t;
    struct tensor_sum whole = {0, 0};                         /* on every TP rank, whole */
    add(&whole, R * h * share, g);                            /* the experts' fc1 input */
    add(&whole, R * share, 4.0);                              /* permuted probabilities */
    rep->elements += whole.elements * sp_div;                 /* rep is divided by sp_div */
    rep->bytes += whole.bytes * sp_div;
    if (g != e)
        add(lo, R * h * share * sp_div, g);
    add(rep, T * (double)m->experts, 4.0);                    /* router probabilities */
    add(split, (model_mlp_gated(m->mlp) ? 2.0 : 1.0) * R * f, e); /* fc1's output */
    add(split, R * f, g);                                     /* fc2's input */
    if (g != e)
        add(lo_split, R * f, g);
}

/* One layer's activations as they are gathered: the tensors every TP rank holds whole unless
 * sequence parallelism splits them (rep), those split t ways (split), and the low-precision
 * copies, counted into those two as well (lo, lo_split). */
struct layer_sums {
    struct tensor_sum rep, split, lo, lo_split;
};

/* The sizes one layer's activations are counted from. */
struct layer_dims {
    double e;     /* bytes of a 16-bit (weights' dtype) element */
    /* fp8/fp4 compute: the GEMM inputs that backward needs only for the weight gradient are
     * kept as the low-precision copy the forward GEMM used (Transformer Engine's Linear and
     * LayerNormLinear save inputmat_t / ln_out in fp8), the rest in 16 bits. */
    bool lowp;
    double g;     /* bytes of such a GEMM input */
    double b, cp, sq;
    double T;     /* tokens in the micro-batch on this rank: context parallelism splits the
                     sequence */
    double h, a;
    double qd, kd, vd, od; /* widths of Q, K, V and the attention output */
    double t, f;
};

static void layer_dims_of(const struct scenario *s, bool moe, struct layer_dims *d)
{
    const struct model_arch *m = &s->model;
    d->e = dtype_bytes(memory_weights_dtype(s));
    d->lowp = low_precision_compute(s->dtype);
    d->g = d->lowp ? dtype_bytes(s->dtype) : d->e;
    d->b = (double)scenario_micro_batch(s);
    d->cp = s->cp > 1 ? (double)s->cp : 1.0;
    d->sq = (double)s->seq;
    d->T = d->b * d->sq / d->cp;
    d->h = (double)m->d_model;
    d->a = (double)m->heads;
    struct attn_dims ad;
    model_attn_dims(m, &ad);
    /* Widths of Q, K and V as the scores use them: heads x head_dim (any head_dim, GQA), or
     * MLA's per-head keys and values after kv_b_proj, as training runs it. */
    d->qd = (double)ad.q_width;
    d->kd = model_is_mla(m) ? d->a * (double)ad.head_qk
                            : (double)m->kv_heads * (double)ad.head_qk;
    d->vd = model_is_mla(m) ? (double)ad.o_width
                            : (double)m->kv_heads * (double)ad.head_v;
    d->od = (double)ad.o_width;
    d->t = (double)s->tp;
    d->f = (double)(moe ? model_expert_ffn(m) : m->ffn);
}

/* Tensors outside the tensor-parallel region: every TP rank holds them whole unless
 * sequence parallelism splits them along the sequence. */
static void layer_outside_tp(const struct scenario *s, const struct layer_dims *d,
                             struct layer_sums *o)
{
    const struct model_arch *m = &s->model;
    const double T = d->T, h = d->h, e = d->e, g = d->g;
    add(&o->rep, T * h, e);            /* input of the first norm */
    add(&o->rep, T * h, g);            /* norm output = input of Q, K, V */
    if (d->lowp)
        add(&o->lo, T * h, g);
    if (m->block != BLOCK_PARALLEL_ONE_NORM) {
        add(&o->rep, T * h, e);        /* input of the second norm */
        add(&o->rep, T * h, g);        /* norm output = input of the MLP */
        if (d->lowp)
            add(&o->lo, T * h, g);
    }                                  /* (one shared norm: the MLP reads the same output) */
    if (m->norm_place == NORM_SANDWICH) {
        add(&o->rep, T * h, e);        /* inputs of the norms after attention and the MLP */
        add(&o->rep, T * h, e);
    }
    if (s->dropout) {
        add(&o->rep, T * h, 1.0);      /* dropout mask after attention */
        add(&o->rep, T * h, 1.0);      /* dropout mask after the MLP */
    }
}

/* Attention's tensors inside the tensor-parallel region (split t ways), and MLA's latents. */
static void layer_attention(const struct scenario *s, const struct layer_dims *d,
                            struct layer_sums *o)
{
    const struct model_arch *m = &s->model;
    const double T = d->T, e = d->e, g = d->g;
    add(&o->split, T * d->qd, e);      /* Q */
    add(&o->split, T * d->kd, e);      /* K */
    add(&o->split, T * d->vd, e);      /* V */
    /* The attention output, input of the output projection: FlashAttention's backward needs
     * it in 16 bits; the projection's weight gradient needs it too, as the fp8 copy under fp8.
     * Without FlashAttention (or with the core recomputed) only the projection keeps it. */
    if (!d->lowp || s->flash)
        add(&o->split, T * d->od, e);
    if (d->lowp) {
        add(&o->split, T * d->od, g);
        add(&o->lo_split, T * d->od, g);
    }
    if (m->qk_norm != QK_NORM_NONE) {
        add(&o->split, T * d->qd, e);  /* Q and K before their norms */
        add(&o->split, T * d->kd, e);
    }
    if (model_is_mla(m)) {
        /* The latents that feed the up-projections: the KV latent and rope key (input of
         * kv_a_layernorm and kv_b_proj) and the query latent. The down-projections are not
         * split by tensor parallelism, so every rank holds these whole. */
        add(&o->rep, T * (double)(m->kv_lora_rank + m->qk_rope_head_dim), e);
        if (m->q_lora_rank > 0)
            add(&o->rep, T * (double)m->q_lora_rank, e);
    }
}

/* MLP inside: GELU keeps its input and output (f each); SwiGLU keeps gate and up (2f)
 * and their product, the input of the down projection (f). The activation function's
 * backward needs its inputs in 16 bits; the down projection's input is its GEMM input
 * (fp8 under fp8). A MoE layer's shared experts are dense MLPs of their width on every
 * token; its routed experts are counted apart (moe_routed). */
static void layer_mlp(const struct scenario *s, bool moe, const struct layer_dims *d,
                      struct layer_sums *o)
{
    const struct model_arch *m = &s->model;
    const double T = d->T, f = d->f;
    const double tokens_mlp = moe ? T * (model_experts_visited(m) - (double)m->experts_active)
                                  : T;
    const double gate = model_mlp_gated(m->mlp) ? 2.0 : 1.0;
    add(&o->split, gate * tokens_mlp * f, d->e);
    add(&o->split, tokens_mlp * f, d->g);
    if (d->lowp)
        add(&o->lo_split, tokens_mlp * f, d->g);
    if (moe)
        moe_routed(s, T, f, d->e, d->g, &o->rep, &o->split, &o->lo, &o->lo_split);
}

/* The attention core: the s x s softmax (and dropout) when it is stored, FlashAttention's
 * per-row log-sum-exp when it is not. */
static void layer_core(const struct scenario *s, const struct layer_dims *d,
                       struct layer_sums *o)
{
    bool core_stored = !s->flash && s->recompute != RECOMPUTE_SELECTIVE;
    if (core_stored) {
        /* the local queries' rows of the s x s attention matrix */
        double scores = d->a * (d->sq / d->cp) * d->sq * d->b;
        add(&o->split, scores, d->e);          /* softmax output */
        if (s->dropout) {
            add(&o->split, scores, 1.0);       /* its dropout mask */
            add(&o->split, scores, d->e);      /* dropout output, input of A.V */
        }
    } else if (s->flash) {
        add(&o->split, d->a * d->T, 4.0);      /* fp32 log-sum-exp per row */
    }
}

struct tensor_sum memory_layer_activations(const struct scenario *s, bool moe, double *low)
{
    struct layer_dims d;
    layer_dims_of(s, moe, &d);
    struct layer_sums sums = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    /* In this order: each sum adds its parts as it always has. */
    layer_outside_tp(s, &d, &sums);
    layer_attention(s, &d, &sums);
    layer_mlp(s, moe, &d, &sums);
    layer_core(s, &d, &sums);

    double rep_div = s->sp ? d.t : 1.0;
    struct tensor_sum out = {sums.rep.elements / rep_div + sums.split.elements / d.t,
                             sums.rep.bytes / rep_div + sums.split.bytes / d.t};
    if (low != NULL)
        *low = sums.lo.bytes / rep_div + sums.lo_split.bytes / d.t;
    return out;
}

/* Tokens of one micro-batch on one rank (context parallelism splits the sequence). */
static double rank_tokens(const struct scenario *s)
{
    double cp = s->cp > 1 ? (double)s->cp : 1.0;
    return (double)scenario_micro_batch(s) * (double)s->seq / cp;
}

/* What a layer keeps under full recomputation: its input only (split over t with SP). */
static struct tensor_sum layer_checkpoint(const struct scenario *s)
{
    const double e = dtype_bytes(memory_weights_dtype(s));
    double el = rank_tokens(s) * (double)s->model.d_model / (s->sp ? (double)s->tp : 1.0);
    struct tensor_sum c = {el, el * e};
    return c;
}

/* The last stage, outside the layers: final-norm input and LM-head input (16-bit), fp32
 * logits, split over t (Korthikanti et al. 2022, section 4.3; Megatron-LM's
 * 4 s b h (1 + V/h) at pp 1). */
static struct tensor_sum outside_activations(const struct scenario *s)
{
    const double e = dtype_bytes(memory_weights_dtype(s));
    double T = rank_tokens(s);
    double t = (double)s->tp;
    struct tensor_sum o = {0, 0};
    add(&o, T * (double)s->model.d_model / t, e);
    add(&o, T * (double)s->model.d_model / t, e);
    add(&o, T * (double)s->model.vocab / t, 4.0);
    return o;
}

/* The first stage, before the layers: the int64 token ids and the embedding's dropout mask
 * (Megatron-LM's theoretical_memory_usage.py: 8 s b and s b h per micro-batch in flight).
 * The mask is split over t with sequence parallelism; the ids are whole on every rank. */
static struct tensor_sum embedding_activations(const struct scenario *s)
{
    double T = rank_tokens(s);
    struct tensor_sum o = {0, 0};
    add(&o, T, 8.0);
    if (s->dropout)
        add(&o, T * (double)s->model.d_model / (s->sp ? (double)s->tp : 1.0), 1.0);
    return o;
}

static double ceil_div(double a, double b)
{
    return ceil(a / b);
}

/* The model's parameters by where they sit in a pipeline. Derived from model_params of one-
 * and two-layer copies of the architecture, so that every kind of part the model counts
 * (norms, biases, MLA, routers, ...) lands in its layer without a second count here. */
struct layout {
    double dense_layer;  /* one layer with a dense MLP */
    double moe_layer;    /* one mixture-of-experts layer (= dense_layer for a dense model) */
    double routed;       /* of moe_layer: the routed experts' weights (expert parallelism
                            splits them) */
    double first;        /* the first stage's own: token embedding and learned positions */
    double last;         /* the last stage's own: final norm and LM head */
    double tied;         /* tied embeddings: the copy of V x h the last stage keeps for the
                            output layer when pp > 1 (Megatron-LM) */
    double embedding;    /* V x h */
    double largest_in_layer; /* the largest single weight matrix inside a layer */
    double mtp;          /* multi-token-prediction modules (last stage) */
    double mtp_routed;   /* of mtp: routed-expert weights */
};

static double total_of(const struct model_arch *m, struct param_counts *pc)
{
    model_params(m, pc);
    return (double)pc->total;
}

static void layout_count(const struct model_arch *m, struct layout *o)
{
    memset(o, 0, sizeof *o);
    struct param_counts p1, p2, p3 = {0}, p4;
    struct model_arch a = *m;
    a.exact_params = 0;
    a.layers = 1;
    a.dense_layers = 1;
    double one = total_of(&a, &p1);
    a.layers = 2;
    a.dense_layers = 2;
    o->dense_layer = total_of(&a, &p2) - one;
    o->moe_layer = o->dense_layer;
    if (model_is_moe(m)) {
        a.dense_layers = 1;
        o->moe_layer = total_of(&a, &p3) - one;
        a.experts = m->experts + 1;
        total_of(&a, &p4);
        o->routed = (double)(p4.mlp - p3.mlp) * (double)m->experts;
    }
    /* Multi-token-prediction modules (counted apart from the model's total) sit after the
     * last layer, on the last stage (Megatron-LM); a MoE model's are MoE layers, so their
     * count comes from the copy whose last layer is MoE (p3), not from the one-layer copy
     * whose only layer is dense (p1). */
    o->mtp = model_is_moe(m) ? (double)p3.mtp : (double)p1.mtp;
    o->mtp_routed = model_is_moe(m) ? (double)m->mtp_layers * o->routed : 0.0;
    o->first = (double)(p1.embedding + p1.position);
    o->last = one - o->dense_layer - o->first;
    o->embedding = (double)p1.embedding;
    o->tied = m->tied_embeddings ? (double)p1.embedding : 0.0;
    struct attn_dims ad;
    model_attn_dims(m, &ad);
    const double h = (double)m->d_model;
    double big = h * (double)m->ffn;
    if (model_is_moe(m))
        big = fmax(big, h * (double)model_expert_ffn(m));
    big = fmax(big, h * (double)ad.q_width);
    big = fmax(big, h * (double)ad.o_width);
    o->largest_in_layer = big;
}

/* layout_count, kept for the last architecture (per thread): `rooftop plan` and the
 * dashboard's layouts list count the memory of thousands of layouts of one model, whose
 * layout this is (it counts one- and two-layer copies of the model each time). Keyed on the
 * whole struct: equal bytes, equal counts. */
static void layout_compute(const struct model_arch *m, struct layout *o)
{
    static _Thread_local struct {
        bool set;
        struct model_arch m;
        struct layout l;
    } last;
    if (last.set && memcmp(&last.m, m, sizeof *m) == 0) {
        *o = last.l;
        return;
    }
    layout_count(m, o);
    last.set = true;
    last.m = *m;
    last.l = *o;
}

/* Layers [lo, hi) of the model: how many of them are MoE layers (the dense ones come first). */
static double moe_in(const struct model_arch *m, int64_t lo, int64_t hi)
{
    int64_t dense = m->layers - model_moe_layers(m);
    int64_t from = lo > dense ? lo : dense;
    return hi > from ? (double)(hi - from) : 0.0;
}

/* The layers stage i holds and how many are MoE. Plain: L / pp each, the remainder one each
 * to the stages after the first (the first and last already hold the embedding and head).
 * Interleaved: the vpp chunks i, i + pp, ... of L / (pp x vpp) layers each. */
static void stage_layers(const struct scenario *s, int64_t i, double *layers, double *moe)
{
    const struct model_arch *m = &s->model;
    const int64_t pp = s->pp, L = m->layers;
    *layers = 0;
    *moe = 0;
    if (scenario_uneven_stages(s)) {
        int64_t lo = 0;
        for (int64_t j = 0; j < i; j++)
            lo += scenario_stage_layers(s, j);
        int64_t n = scenario_stage_layers(s, i);
        *layers = (double)n;
        *moe = moe_in(m, lo, lo + n);
        return;
    }
    if (s->vpp > 1 && L % (pp * s->vpp) == 0) {
        int64_t c = L / (pp * s->vpp);
        for (int64_t k = 0; k < s->vpp; k++) {
            int64_t lo = (i + k * pp) * c;
            *layers += (double)c;
            *moe += moe_in(m, lo, lo + c);
        }
        return;
    }
    int64_t base = L / pp, rem = L % pp;
    /* Stages 1..rem get one more layer (stage 0 never does unless pp == 1). */
    int64_t extra_before = i < 1 ? 0 : (i - 1 < rem ? i - 1 : rem);
    int64_t lo = i * base + extra_before;
    int64_t n = base + (i >= 1 && i <= rem ? 1 : 0);
    if (pp == 1)
        n = L;
    *layers = (double)n;
    *moe = moe_in(m, lo, lo + n);
}

/* Micro-batches whose activations stage i holds at its peak (Narayanan et al. 2021; Megatron-
 * LM's schedules.py warm-up counts). 1F1B: min(pp - i, m). Interleaved: 2 (pp - i - 1) +
 * (vpp - 1) pp + 1 model chunks in flight, each 1/vpp of the stage's layers, so for the first
 * stage pp + (pp - 1)/vpp stage-sized micro-batches: Megatron's 1 + (pp - 1)/(pp vpp)
 * times the pp of 1F1B. */
static double stage_in_flight(const struct scenario *s, int64_t i, int64_t accum_steps)
{
    double m = (double)accum_steps;
    if (m < 1)
        m = 1;
    const double pp = (double)s->pp, v = (double)s->vpp;
    if (s->pp == 1)
        return 1;
    if (s->vpp > 1) {
        double chunks = 2 * (pp - (double)i - 1) + (v - 1) * pp + 1;
        return fmin(chunks, m * v) / v;
    }
    return fmin(pp - (double)i, m);
}

/* Model-state rows for a stage holding `params` parameters per GPU of which `expert` are
 * routed-expert weights (already split by etp and ep). dpc: the data x context ranks ZeRO
 * shards the dense parts over; edp: the expert-data-parallel ranks (tp x dpc / (etp x ep)). */
struct state_rows {
    double el[MEM_COUNT];
};

/* dpc, at least 1: an invalid layout (dp 0) must not divide by zero on its way to the check
 * that names it. */
static double state_ranks(const struct scenario *s)
{
    return fmax(1.0, (double)(scenario_dp(s) * (s->cp > 1 ? s->cp : 1)));
}

static void state_rows(const struct scenario *s, double dpc, double params, double expert,
                       double gathered, enum dtype wd, enum dtype gd, struct state_rows *o)
{
    memset(o, 0, sizeof *o);
    /* The experts' shards spread over their own data-parallel ranks (Megatron-core's
     * expert-data-parallel group: dp x cp / ep when the expert tp is tp). */
    const double dense = params - expert;
    const double shard = ceil_div(dense, dpc) +
                         (expert > 0 ? ceil_div(expert, fmax(1.0, (double)scenario_expert_dp(s))) : 0.0);
    o->el[MEM_PARAMS] = s->zero >= 3 ? shard : params;
    o->el[MEM_GRADS] = s->zero >= 2 ? shard : params;
    double opt = s->zero >= 1 ? shard : params;
    o->el[MEM_OPTIMIZER] = opt * optimizer_states(s->optimizer);
    /* The fp32 master copy belongs to the optimizer state (ZeRO's K = 12 counts it). */
    o->el[MEM_MASTER] = scenario_master_copy(s) ? opt : 0;
    double buf = 0;
    if (s->zero >= 3)
        buf = 2 * gathered; /* the gathered module's weights and its full gradient */
    else if (s->zero == 2 && dtype_bytes(gd) > dtype_bytes(wd))
        buf = shard;        /* the backward's 16-bit gradients, partitioned as the fp32 ones
                               (DeepSpeed's ZeRO-2 keeps only its own bucket's reduced part) */
    o->el[MEM_BUFFERS] = buf;
}

/* bpe: each row's bytes per element (its dtype's). */
static double state_bytes(const struct state_rows *r, const double *bpe)
{
    double b = 0;
    for (int k = 0; k < MEM_COUNT; k++)
        if (k != MEM_ACTIVATIONS)
            b += r->el[k] * bpe[k];
    return b;
}

/* The dtype of each row; the weights' and gradients' also go to out. */
static void memory_dtypes(const struct scenario *s, struct memory *out, enum dtype *dt)
{
    const enum dtype wd = memory_weights_dtype(s);
    const enum dtype gd = memory_grad_dtype(s, &out->grad_why);
    out->weights_dtype = wd;
    out->grad_dtype = gd;
    dt[MEM_PARAMS] = wd;
    dt[MEM_GRADS] = gd;
    dt[MEM_OPTIMIZER] = optimizer_state_dtype(s->optimizer);
    dt[MEM_MASTER] = DTYPE_FP32;
    dt[MEM_BUFFERS] = wd;
    dt[MEM_ACTIVATIONS] = wd;
}

/* What every stage's activations are made of, one micro-batch each. */
struct act_parts {
    struct tensor_sum dense, moe; /* one layer of each kind */
    struct tensor_sum widest;     /* the layer rebuilt whole during backward under recompute */
    struct tensor_sum ckpt;       /* what a checkpointed layer keeps */
    struct tensor_sum outside, embed; /* the last stage's after the layers, the first's before */
    bool full, sqrt_ckpt;         /* the recomputation */
};

/* What a layer stores with nothing recomputed, per layer as activations_per_layer: the
 * layers' own figure `per` except under selective recomputation, which leaves out the
 * attention core a non-flash layer would store (the layers are summed again only then). */
static double layer_stored(const struct scenario *s, double per)
{
    if (s->recompute != RECOMPUTE_SELECTIVE || s->flash)
        return per;
    struct scenario t = *s;
    t.recompute = RECOMPUTE_NONE;
    const double L = (double)t.model.layers, moe = (double)model_moe_layers(&t.model);
    double dense = memory_layer_activations(&t, false, NULL).bytes;
    double routed = moe > 0 ? memory_layer_activations(&t, true, NULL).bytes : dense;
    return ((L - moe) * dense + moe * routed) / L;
}

/* The activation parts, and the per-layer, low-precision, outside and embedding figures of
 * out. */
static void act_parts_of(const struct scenario *s, struct memory *out, struct act_parts *a)
{
    const struct model_arch *m = &s->model;
    int64_t moe_layers = model_moe_layers(m);
    double low_dense = 0, low_moe = 0;
    a->dense = memory_layer_activations(s, false, &low_dense);
    a->moe = moe_layers > 0 ? memory_layer_activations(s, true, &low_moe) : a->dense;
    if (moe_layers == 0)
        low_moe = low_dense;
    a->widest = moe_layers > 0 ? a->moe : a->dense;
    const double L = (double)m->layers;
    double dense_layers = L - (double)moe_layers;
    out->activations_per_layer =
        (dense_layers * a->dense.bytes + (double)moe_layers * a->moe.bytes) / L;
    out->activations_low = (dense_layers * low_dense + (double)moe_layers * low_moe) / L;
    out->layer_stored = layer_stored(s, out->activations_per_layer);
    a->full = s->recompute == RECOMPUTE_FULL;
    a->sqrt_ckpt = s->recompute == RECOMPUTE_SQRT;
    a->ckpt = layer_checkpoint(s);
    out->layer_input = a->ckpt.bytes;
    if (a->full || a->sqrt_ckpt)
        out->activations_per_layer = a->ckpt.bytes;
    a->outside = outside_activations(s);
    a->embed = embedding_activations(s);
    out->activations_outside = a->outside.bytes;
    out->activations_embedding = a->embed.bytes;
}

/* Stage i's parameters per GPU (nl layers, nm of them MoE): all of them, the routed-expert
 * weights among them, and the module ZeRO-3 gathers. */
struct stage_params {
    double per_gpu, expert, gathered;
};

static void stage_params_of(const struct scenario *s, const struct param_counts *pc,
                            const struct layout *lay, int64_t i, double nl, double nm,
                            struct stage_params *o)
{
    const double t = (double)(s->tp > 0 ? s->tp : 1);
    const double ep = s->ep > 1 ? (double)s->ep : 1.0;
    const int64_t pp = s->pp > 0 ? s->pp : 1;
    double nd = nl - nm;
    bool is_first = i == 0, is_last = i == pp - 1;
    double params, routed = nm * lay->routed;
    if (pp == 1) {
        params = (double)pc->total; /* exact, as the single stage holds it all */
    } else {
        params = nd * lay->dense_layer + nm * lay->moe_layer;
        if (is_first)
            params += lay->first;
        if (is_last)
            params += lay->last + lay->tied;
    }
    if (is_last) {
        params += lay->mtp;
        routed += lay->mtp_routed;
    }
    /* Tensor parallelism splits every part (norms, replicated in practice, are a rounding
     * error: Megatron-LM's estimate divides them too); the routed experts the expert tensor
     * and expert parallelism (Megatron's expert tensor parallelism defaults to tp). */
    const double et = (double)scenario_etp(s);
    o->expert = routed > 0 ? ceil_div(routed, et * ep) : 0.0;
    o->per_gpu = ceil_div(params - routed, t) + o->expert;
    o->gathered = 0;
    if (s->zero >= 3) {
        /* DeepSpeed gathers one module at a time: its estimator charges the largest
         * module's parameters (the embedding or LM head in a language model). */
        double big = lay->largest_in_layer;
        if (is_first || is_last)
            big = fmax(big, lay->embedding);
        o->gathered = big / t;
    }
}

/* Stage i's activations (nl layers, nm of them MoE) for inflight micro-batches: elements in
 * *el, bytes in *b. */
static void stage_activations(const struct scenario *s, const struct act_parts *a, int64_t i,
                              double nl, double nm, double inflight, double *el, double *b)
{
    const int64_t pp = s->pp > 0 ? s->pp : 1;
    bool is_first = i == 0, is_last = i == pp - 1;
    double nd = nl - nm;
    double layer_avg_el = nl > 0 ? (nd * a->dense.elements + nm * a->moe.elements) / nl : 0;
    double layer_avg_b = nl > 0 ? (nd * a->dense.bytes + nm * a->moe.bytes) / nl : 0;
    double kept = nl, working = 0;
    double per_el = layer_avg_el, per_b = layer_avg_b;
    if (a->full) {
        per_el = a->ckpt.elements;
        per_b = a->ckpt.bytes;
        working = nl > 0 ? 1 : 0;   /* one layer rebuilt whole during backward */
    } else if (a->sqrt_ckpt && nl > 0) {
        double seg = ceil(sqrt(nl)); /* a checkpoint every sqrt(L) layers */
        kept = ceil_div(nl, seg);
        per_el = a->ckpt.elements;
        per_b = a->ckpt.bytes;
        working = seg;
    }
    double act_el = per_el * kept * inflight + a->widest.elements * working;
    double act_b = per_b * kept * inflight + a->widest.bytes * working;
    if (is_first) {
        act_el += a->embed.elements * inflight;
        act_b += a->embed.bytes * inflight;
    }
    if (is_last) {
        act_el += a->outside.elements;
        act_b += a->outside.bytes;
    }
    *el = act_el;
    *b = act_b;
}

/* The rows (the busiest stage's), the total and whether it fits. */
static void memory_rows(const struct scenario *s, const enum dtype *dt, const double *best_el,
                        double act_elements, struct memory *out)
{
    struct mem_row *r = out->row;
    for (int k = 0; k < MEM_COUNT; k++) {
        r[k].dtype = dt[k];
        r[k].elements = k == MEM_ACTIVATIONS ? act_elements : best_el[k];
        r[k].bytes = k == MEM_ACTIVATIONS ? out->busiest.activations
                                          : r[k].elements * dtype_bytes(dt[k]);
        out->total += r[k].bytes;
    }
    out->capacity = s->gpu.memory_bytes;
    out->reserve = s->memory_reserve;
    out->usable = out->capacity - out->reserve;
    out->fits = out->total <= out->usable;
}

void memory_compute(const struct scenario *s, const struct param_counts *pc, struct memory *out)
{
    memset(out, 0, sizeof *out);
    enum dtype dt[MEM_COUNT];
    memory_dtypes(s, out, dt);
    const int64_t pp = s->pp > 0 ? s->pp : 1;
    struct layout lay;
    layout_compute(&s->model, &lay);
    struct act_parts acts;
    act_parts_of(s, out, &acts);

    out->stages = pp;
    /* The same for every stage: found once, not again for each stage's state, its bytes and
     * its in-flight count (plan sizes the memory of every layout it tries, up to tens of
     * stages each). */
    const int64_t accum_steps = scenario_accum_steps(s);
    const double dpc = state_ranks(s);
    double bpe[MEM_COUNT];
    for (int k = 0; k < MEM_COUNT; k++)
        bpe[k] = dtype_bytes(dt[k]);
    bool have = false;
    double best_el[MEM_COUNT] = {0};
    double act_elements = 0;
    /* A stage's parameters and state depend on its layers (nl, nm) and on whether it is the
     * first or the last, not on its place otherwise: a middle stage holding the layers of
     * the stage before it (itself a middle one) has its state, which is kept rather than
     * found again (most of a deep pipeline's stages). */
    struct stage_params par;
    struct state_rows sr;
    double state = 0, prev_nl = 0, prev_nm = 0;
    /* Every stage: the busiest decides the rows (the first holds the embedding and the most
     * micro-batches, the last the LM head and the logits; a middle one can hold an extra
     * layer). */
    for (int64_t i = 0; i < pp; i++) {
        double nl, nm;
        stage_layers(s, i, &nl, &nm);
        /* Stage i and the one before it are middle ones when 1 < i < pp - 1. */
        if (!(i > 1 && i < pp - 1 && nl == prev_nl && nm == prev_nm)) {
            stage_params_of(s, pc, &lay, i, nl, nm, &par);
            state_rows(s, dpc, par.per_gpu, par.expert, par.gathered, out->weights_dtype,
                       out->grad_dtype, &sr);
            state = state_bytes(&sr, bpe);
        }
        prev_nl = nl;
        prev_nm = nm;
        /* Activations: the stage's layers for each micro-batch in flight. */
        double inflight = stage_in_flight(s, i, accum_steps);
        double act_el, act_b;
        stage_activations(s, &acts, i, nl, nm, inflight, &act_el, &act_b);
        struct mem_stage st = {i, (int64_t)nl, par.per_gpu, inflight, state, act_b, 0};
        st.total = st.state + st.activations;
        if (i == 0)
            out->first = st;
        if (i == pp - 1)
            out->last = st;
        if (!have || st.total > out->busiest.total) {
            have = true;
            out->busiest = st;
            memcpy(best_el, sr.el, sizeof best_el);
            act_elements = act_el;
            out->gathered_params = par.gathered;
        }
    }
    memory_rows(s, dt, best_el, act_elements, out);
}

void memory_toy_mlp(double B, double D, double layers, enum dtype d, int states, struct memory *out)
{
    memset(out, 0, sizeof *out);
    double n = D * D * layers;
    out->row[MEM_PARAMS] = (struct mem_row){d, n, n * dtype_bytes(d)};
    out->row[MEM_GRADS] = (struct mem_row){d, n, n * dtype_bytes(d)};
    out->row[MEM_OPTIMIZER] = (struct mem_row){DTYPE_FP32, n * states, n * states * 4.0};
    out->row[MEM_MASTER] = (struct mem_row){DTYPE_FP32, 0, 0};
    out->row[MEM_BUFFERS] = (struct mem_row){d, 0, 0};
    double act = B * D * layers;
    out->row[MEM_ACTIVATIONS] = (struct mem_row){d, act, act * dtype_bytes(d)};
    out->activations_per_layer = B * D * dtype_bytes(d);
    out->layer_stored = out->activations_per_layer;
    out->layer_input = out->activations_per_layer;
    out->weights_dtype = d;
    out->grad_dtype = d;
    out->grad_why = GRAD_WHY_WEIGHTS;
    out->stages = 1;
    for (int i = 0; i < MEM_COUNT; i++)
        out->total += out->row[i].bytes;
}
