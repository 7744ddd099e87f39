/* flops.c - FLOPs and bytes of a training step, operation by operation. */
#include "flops.h"

#include <math.h>
#include <string.h>

#include "dtype.h"
#include "gpu.h"
#include "roofline.h"

/* One operation for one micro-batch on one GPU, forward only. */
struct op_fwd {
    enum op_kind kind;
    const char *name;
    bool tensor;        /* a matmul on tensor cores; else elementwise on the vector units */
    bool per_layer;     /* repeats in every layer of the stage */
    bool core;          /* part of the attention core (selective recomputation redoes it) */
    double flops;
    double bytes;
};

struct shape {
    double T;        /* tokens per micro-batch (new tokens: queries) */
    double b, s;     /* micro-batch, queries per sequence */
    double sk;       /* keys each query attends to, averaged over the layers (windows) */
    double h, a, kd, f, fe, V, E;
    double qd, od;   /* query width (heads x qk head), attention output width */
    double dqk, dv;  /* per-head score and value widths */
    double w_in;     /* attention weights before the scores, one layer, whole model */
    double kc, vc;   /* K and V elements read per cached token per layer on one rank */
    double cache;    /* elements cached per token per layer on one rank (K + V, or MLA latent) */
    double rope_w;   /* rotated elements per token on one rank */
    double n_act;    /* experts a token visits in a MoE layer (1 for dense) */
    double n_exp;    /* experts held in a MoE layer */
    double t;        /* tensor-parallel degree */
    double et;       /* the routed experts' tensor-parallel degree (t unless folded) */
    double e;        /* bytes per element of activations */
    double ew, ekv;  /* bytes per element of weights and of the K/V cache */
    enum mlp_kind mlp;
    double norms;    /* block norms a layer (pre/post 2, sandwich 4, one shared 1) */
    double qk_norm_w; /* query and key elements QK-norm normalises per token on one rank */
    bool moe, rms, rope, sp;
};

/*
 * The shape of a pass of `seqs` sequences with `queries` new tokens each attending to `keys`
 * tokens (averaged over the layers: sliding windows applied), on one of t tensor-parallel ranks. replicate_kv: a rank
 * keeps whole KV heads (serving: ceil(kv_heads / t), MLA's latent on every rank); otherwise
 * the K/V widths divide by t as the training shapes always did.
 */
static void shape_fill(const struct model_arch *m, double seqs, double queries, double keys,
                       double t, bool replicate_kv, struct shape *z)
{
    struct attn_dims ad;
    model_attn_dims(m, &ad);
    memset(z, 0, sizeof *z);
    z->s = queries;
    z->b = seqs;
    z->T = seqs * queries;
    z->sk = keys;
    z->h = (double)m->d_model;
    z->a = (double)m->heads;
    z->qd = (double)ad.q_width;
    z->od = (double)ad.o_width;
    z->dqk = (double)ad.head_qk;
    z->dv = (double)ad.head_v;
    z->w_in = (double)ad.w_in;
    const double share = replicate_kv ? ceil((double)ad.cache_heads / t) / (double)ad.cache_heads
                                      : 1.0 / t;
    z->cache = (double)ad.cache_per_token * share;
    if (model_is_mla(m)) {
        /* Absorbed MLA: scores over the latent and the rope key, values from the latent. */
        z->kd = (double)ad.cache_per_token;
        z->kc = z->cache;
        z->vc = (double)m->kv_lora_rank * share;
        z->rope_w = (double)m->qk_rope_head_dim * (z->a / t + 1.0);
    } else {
        z->kd = (double)ad.cache_per_token / 2.0;
        z->kc = z->cache / 2.0;
        z->vc = z->cache / 2.0;
        z->rope_w = (z->qd + z->kd) / t;
    }
    z->f = (double)m->ffn;
    z->fe = (double)model_expert_ffn(m);
    z->V = (double)m->vocab;
    z->E = (double)m->experts;
    z->moe = model_is_moe(m);
    z->n_act = model_experts_visited(m);
    z->n_exp = model_experts_held(m);
    z->t = t;
    z->et = t;
    z->mlp = m->mlp;
    z->norms = (double)model_layer_norms(m);
    z->qk_norm_w = m->qk_norm != QK_NORM_NONE ? (z->qd + z->kd) / t : 0.0;
    z->rms = m->norm == NORM_RMSNORM;
    z->rope = m->positional == POS_ROPE;
}

/*
 * Keys each query of a training sequence meets, averaged over its positions and the layers,
 * under the scenario's convention. Full: every key (s; a local layer's window w when shorter),
 * PaLM's and Narayanan's count. Causal: query i meets keys 0..i, at most w of them in a local
 * layer; taken as the continuous average s/2 (w - w^2/(2s) in a window), the half of the
 * score and A.V work the convention names (the diagonal's extra s/2 keys per sequence are
 * below a part in s).
 */
static double training_keys(const struct scenario *s)
{
    const double seq = (double)s->seq;
    if (s->attention_flops != ATTN_FLOPS_CAUSAL)
        return model_attn_span(&s->model, seq);
    const double L = (double)s->model.layers, local = (double)model_local_layers(&s->model);
    const double w = (double)s->model.sliding_window;
    const double win = local > 0 && w < seq ? w - w * w / (2.0 * seq) : seq / 2.0;
    return L > 0 ? ((L - local) * seq / 2.0 + local * win) / L : seq / 2.0;
}

static void shape_of(const struct scenario *s, double tokens, double t, struct shape *z)
{
    const double seq = (double)s->seq;
    shape_fill(&s->model, tokens / seq, seq, training_keys(s), t, false, z);
    z->e = dtype_bytes(s->dtype == DTYPE_TF32 ? DTYPE_FP32 : s->dtype);
    z->ew = z->e;
    z->ekv = z->e;
    z->sp = s->sp;
}

/* A matmul (M x K) . (K x N) of activations by weights: 2MKN FLOPs; reads both operands
 * (activations e, weights ew bytes per element), writes the result. */
static struct op_fwd matmul(enum op_kind kind, const char *name, double M, double K, double N,
                            double e, double ew, double out_bytes)
{
    struct op_fwd o = {kind, name, true, true, false, 2.0 * M * K * N,
                       e * M * K + ew * K * N + out_bytes * M * N};
    return o;
}

static struct op_fwd elementwise(enum op_kind kind, const char *name, double n, double flops_per,
                                 double bytes)
{
    struct op_fwd o = {kind, name, false, true, false, n * flops_per, bytes};
    return o;
}

/* FLOPs per element of the MLP's activation (and gate product). */
static double activation_flops(enum mlp_kind k)
{
    switch (k) {
    case MLP_SWIGLU:
        return FLOPS_SWIGLU;
    case MLP_GEGLU:
        return FLOPS_GEGLU;
    case MLP_RELU:
        return FLOPS_RELU;
    case MLP_RELU2:
        return FLOPS_RELU2;
    case MLP_GELU:
    default:
        return FLOPS_GELU;
    }
}

/*
 * The forward operations of one layer and of the model's head for a micro-batch of z->T
 * tokens on one tensor-parallel rank (widths divided by z->t). flash merges the attention
 * core into one fused kernel. moe_layer selects which MLP the layer has.
 */
static int layer_ops(const struct shape *z, bool flash, bool moe_layer, struct op_fwd *ops)
{
    int n = 0;
    const double T = z->T, h = z->h, t = z->t, e = z->e;
    /* Outside the tensor-parallel region, sequence parallelism splits tokens t ways. */
    const double Tn = z->sp ? T / t : T;
    const double norm_flops = z->rms ? FLOPS_RMSNORM : FLOPS_LAYERNORM;

    /* The block's norms over the hidden state, and QK-norm over the heads on this rank. */
    const double normed = z->norms * Tn * h + T * z->qk_norm_w;
    ops[n++] = elementwise(OP_NORM, "norm", normed, norm_flops, 2.0 * e * normed);
    /* Q, K, V (or MLA's projections): the attention's input weights over this rank. */
    const double qkv_n = z->w_in / h / t;
    ops[n++] = matmul(OP_QKV, "qkv", T, h, qkv_n, e, z->ew, e);
    if (z->rope)
        ops[n++] = elementwise(OP_ROPE, "rope", T * z->rope_w, FLOPS_ROPE, 2.0 * e * T * z->rope_w);
    const double heads = z->a / t;
    const double ss = z->b * heads * z->s * z->sk; /* score elements on this rank */
    /* Queries read and outputs written; keys and values read from the cache (training: the
     * K and V just computed) for each sequence's sk tokens. */
    const double q = e * T * heads * z->dqk, out = e * T * heads * z->dv;
    const double keys = z->ekv * z->b * z->sk;
    if (flash) {
        struct op_fwd o = {OP_FLASH_ATTN, "flash_attn", true, true, true,
                           2.0 * ss * (z->dqk + z->dv) + FLOPS_SOFTMAX * ss,
                           q + out + keys * z->cache};
        ops[n++] = o;
    } else {
        struct op_fwd sc = {OP_SCORES, "attn_scores", true, true, true, 2.0 * ss * z->dqk,
                            q + keys * z->kc + e * ss};
        struct op_fwd sm = {OP_SOFTMAX, "softmax", false, true, true, FLOPS_SOFTMAX * ss, 2.0 * e * ss};
        struct op_fwd av = {OP_ATTN_V, "attn_v", true, true, true, 2.0 * ss * z->dv,
                            e * ss + keys * z->vc + out};
        ops[n++] = sc;
        ops[n++] = sm;
        ops[n++] = av;
    }
    ops[n++] = matmul(OP_OUT_PROJ, "out_proj", T, z->od / t, h, e, z->ew, e);
    ops[n++] = elementwise(OP_RESIDUAL, "residual", 2.0 * Tn * h, 1.0, 2.0 * 3.0 * e * Tn * h);

    /* hidden width, tokens per token, weight copies, and the MLP's tensor-parallel degree
     * with the rows each rank takes per token of its tensor-parallel group */
    double f = z->f, k = 1.0, w = 1.0, mt = t, rows = 1.0;
    if (moe_layer) {
        f = z->fe;
        k = z->n_act;
        w = z->n_exp;
        mt = z->et;
        rows = z->et / t;
        ops[n++] = matmul(OP_ROUTER, "router", T, h, z->E, e, z->ew, 4.0);
    }
    /* A MoE layer sends k copies of each token through experts and reads the w experts it
     * holds that some token chose (all of them in training): tokens k*T, weights w*h*f. With
     * the experts' own tensor-parallel degree et (folded: Megatron-core's
     * --expert-tensor-parallel-size), a rank runs et/t of its group's k*T rows at f/et wide:
     * the same work, other shapes and weight bytes. */
    struct op_fwd up = matmul(OP_MLP_UP, "mlp_up", k * T * rows, h, f / mt, e, z->ew, e);
    up.bytes = e * (k * T * rows * h + k * T * f / t) + z->ew * w * h * f / mt;
    ops[n++] = up;
    const bool gated = model_mlp_gated(z->mlp);
    if (gated) {
        struct op_fwd gate = up;
        gate.kind = OP_MLP_GATE;
        gate.name = "mlp_gate";
        ops[n++] = gate;
    }
    double act_el = k * T * f / t;
    ops[n++] = elementwise(OP_ACT, model_mlp_name(z->mlp), act_el, activation_flops(z->mlp),
                           (gated ? 3.0 : 2.0) * e * act_el);
    struct op_fwd down = matmul(OP_MLP_DOWN, "mlp_down", k * T * rows, f / mt, h, e, z->ew, e);
    down.bytes = e * (k * T * f / t + k * T * rows * h) + z->ew * w * h * f / mt;
    ops[n++] = down;
    return n;
}

static int head_ops(const struct shape *z, struct op_fwd *ops)
{
    int n = 0;
    const double T = z->T, h = z->h, t = z->t, e = z->e, V = z->V;
    const double Tn = z->sp ? T / t : T;
    const double norm_flops = z->rms ? FLOPS_RMSNORM : FLOPS_LAYERNORM;
    struct op_fwd fn = elementwise(OP_FINAL_NORM, "final_norm", Tn * h, norm_flops, 2.0 * e * Tn * h);
    fn.per_layer = false;
    ops[n++] = fn;
    /* Logits in fp32, split over the vocabulary by tensor parallelism. */
    struct op_fwd lm = matmul(OP_LM_HEAD, "lm_head", T, h, V / t, e, e, 4.0);
    lm.per_layer = false;
    ops[n++] = lm;
    struct op_fwd loss = elementwise(OP_LOSS, "loss", T * V / t, FLOPS_LOSS, 4.0 * T * V / t);
    loss.per_layer = false;
    ops[n++] = loss;
    return n;
}

enum fwd_part { FWD_ALL, FWD_LAYERS, FWD_CORE };

/* Sum of forward FLOPs over a whole model for `tokens` tokens (no parallelism): all of it,
 * the layers only (what full recomputation repeats), or the attention core (selective). */
static double forward_sum(const struct scenario *s, double tokens, enum fwd_part part)
{
    struct shape z;
    shape_of(s, tokens, 1.0, &z);
    struct op_fwd ops[OP_KIND_COUNT];
    double moe_layers = (double)model_moe_layers(&s->model);
    double dense_layers = (double)s->model.layers - moe_layers;
    double total = 0;
    for (int pass = 0; pass < 2; pass++) {
        double count = pass == 0 ? dense_layers : moe_layers;
        if (count <= 0)
            continue;
        int n = layer_ops(&z, s->flash, pass == 1, ops);
        for (int i = 0; i < n; i++)
            if (part != FWD_CORE || ops[i].core)
                total += count * ops[i].flops;
    }
    if (part == FWD_ALL) {
        int n = head_ops(&z, ops);
        for (int i = 0; i < n; i++)
            total += ops[i].flops;
    }
    return total;
}

double flops_forward(const struct scenario *s, double tokens)
{
    return forward_sum(s, tokens, FWD_ALL);
}

/* Forward FLOPs that recomputation repeats, for `tokens` tokens. FlashAttention already
 * recomputes its core inside its own backward kernel: selective recomputation adds nothing. */
static double recompute_forward(const struct scenario *s, double tokens)
{
    switch (s->recompute) {
    case RECOMPUTE_FULL:
    case RECOMPUTE_SQRT:
        return forward_sum(s, tokens, FWD_LAYERS);
    case RECOMPUTE_SELECTIVE:
        return s->flash ? 0.0 : forward_sum(s, tokens, FWD_CORE);
    case RECOMPUTE_NONE:
    case RECOMPUTE_COUNT:
        break;
    }
    return 0.0;
}

/* Parameters whose update one GPU performs. Tensor and pipeline parallelism split them,
 * expert tensor and expert parallelism the routed experts; ZeRO shards the rest over the
 * ranks holding the same weights (Megatron-LM's distributed optimizer shards over the
 * data-parallel group with context parallelism, the experts over their expert-data-parallel
 * group: the same share per GPU). */
static double optimizer_params_per_gpu(const struct scenario *s, const struct param_counts *pc)
{
    const double routed = scenario_routed_apart(s);
    const double mp = (double)(s->tp * s->pp);
    if (s->zero >= 1)
        return ceil(ceil((double)pc->total / mp) / (double)scenario_dp_cp(s));
    return ceil(((double)pc->total - routed) / mp) +
           ceil(routed / ((double)(scenario_etp(s) * s->pp) * (double)s->ep));
}

void flops_totals(const struct scenario *s, const struct param_counts *pc, struct flops *f)
{
    memset(f, 0, sizeof *f);
    const double step_tokens = (double)s->batch * (double)s->seq;
    const double steps = s->tokens / step_tokens;
    /* 6ND's N is the count as typed for a custom size (the lecture's 70e9 exactly), the
     * active parameters otherwise. */
    const double N = (double)(pc->typed > 0 ? pc->typed : pc->active);

    double detailed_step = 3.0 * flops_forward(s, step_tokens);   /* forward + 2 x backward */
    double six_nd_step = 6.0 * N * step_tokens;
    double recompute_step;
    if (s->flops_mode == FLOPS_6ND && (s->recompute == RECOMPUTE_FULL || s->recompute == RECOMPUTE_SQRT))
        recompute_step = 2.0 * N * step_tokens;                   /* one more forward: 8ND */
    else
        recompute_step = recompute_forward(s, step_tokens);
    /* Without ZeRO every rank holding a copy repeats its update: dp x cp copies of the
     * dense weights, the expert-data-parallel degree's of the routed experts. */
    const double copies = s->zero >= 1 ? 1.0 : (double)scenario_dp_cp(s);
    const double routed = scenario_routed_apart(s);
    const double expert_copies =
        s->zero >= 1 || routed <= 0 ? 1.0 : fmax(1.0, (double)scenario_expert_dp(s));
    double opt_step = optimizer_flops_per_param(s->optimizer) *
                      (((double)pc->total - routed) * copies + routed * expert_copies);

    f->model_per_step = s->flops_mode == FLOPS_6ND ? six_nd_step : detailed_step;
    f->recompute_per_step = recompute_step;
    /* 6ND is the lecture's formula: it leaves the optimizer out, and so do we in that mode. */
    f->optimizer_per_step = s->flops_mode == FLOPS_6ND ? 0.0 : opt_step;
    f->per_step = f->model_per_step + f->recompute_per_step + f->optimizer_per_step;
    f->model_total = f->model_per_step * steps;
    f->recompute = f->recompute_per_step * steps;
    f->total = f->per_step * steps;
    f->six_nd = 6.0 * N * s->tokens;
    f->detailed = detailed_step * steps;
}

/*
 * The ops being written and where each kind went. put_op merges an op into the entry of its
 * kind (dense and MoE layers both have MLPs); finding that entry through `at` rather than by
 * scanning the list saves some 1,100 instructions a dashboard key (28 ops a key, each
 * scanning the list so far) and the same for every layout a plan tries.
 */
struct op_list {
    struct op *ops;
    int *n;
    int at[OP_KIND_COUNT]; /* ops[at[kind]] is the kind's entry; -1: none yet */
};

static void op_list_start(struct op_list *l, struct op *ops, int *n)
{
    l->ops = ops;
    l->n = n;
    *n = 0;
    for (int k = 0; k < OP_KIND_COUNT; k++)
        l->at[k] = -1;
}

static void put_op(struct op_list *l, const struct op_fwd *o, double mult, double peak,
                   double bandwidth, double ridge)
{
    if ((unsigned)o->kind >= OP_KIND_COUNT)
        return;
    struct op *dst;
    if (l->at[o->kind] >= 0) {
        dst = &l->ops[l->at[o->kind]];
    } else {
        if (*l->n >= ANALYSIS_MAX_OPS)
            return;
        l->at[o->kind] = *l->n;
        dst = &l->ops[(*l->n)++];
        memset(dst, 0, sizeof *dst);
        dst->kind = o->kind;
        dst->name = o->name;
    }
    dst->flops += o->flops * mult;
    dst->bytes += o->bytes * mult;
    dst->intensity = dst->bytes > 0 ? dst->flops / dst->bytes : 0.0;
    dst->compute_bound = dst->intensity >= ridge;
    dst->attainable = roofline_attainable(peak, bandwidth, dst->intensity);
    dst->seconds = roofline_seconds(dst->flops, dst->bytes, peak, bandwidth);
}

/* The rates one stage's ops run at. */
struct rates {
    double tensor, vector, bw;
};

/*
 * The ops of one GPU of a pipeline stage holding `layers` layers (and the LM head when head)
 * over one step of m micro-batches, forward + backward (+ recompute), and the optimizer.
 * Returns the sum of their roofline times; *model_flops gets their model FLOPs.
 */
static double stage_ops(const struct scenario *s, const struct param_counts *pc, const struct shape *z,
                        double m, double layers, bool head, const struct rates *r, struct op *out,
                        int *n_out, double *model_flops)
{
    struct op_list list;
    op_list_start(&list, out, n_out);
    *model_flops = 0;
    const double share = layers / (double)s->model.layers;
    const double moe_layers = (double)model_moe_layers(&s->model) * share;
    const double dense_layers = layers - moe_layers;
    const double bw = r->bw;
    bool full = s->recompute == RECOMPUTE_FULL || s->recompute == RECOMPUTE_SQRT;
    bool selective = s->recompute == RECOMPUTE_SELECTIVE && !s->flash;
    struct op_fwd ops[OP_KIND_COUNT];
    for (int pass = 0; pass < 2; pass++) {
        double count = pass == 0 ? dense_layers : moe_layers;
        if (count <= 0)
            continue;
        int n = layer_ops(z, s->flash, pass == 1, ops);
        for (int i = 0; i < n; i++) {
            double passes = 3.0 + ((full || (selective && ops[i].core)) ? 1.0 : 0.0);
            double peak = ops[i].tensor ? r->tensor : r->vector;
            put_op(&list, &ops[i], count * m * passes, peak, bw, bw > 0 ? peak / bw : 0);
            *model_flops += ops[i].flops * count * m * 3.0;
        }
    }
    if (head) {
        int n = head_ops(z, ops);
        for (int i = 0; i < n; i++) {
            double peak = ops[i].tensor ? r->tensor : r->vector;
            put_op(&list, &ops[i], m * 3.0, peak, bw, bw > 0 ? peak / bw : 0);
            *model_flops += ops[i].flops * m * 3.0;
        }
    }

    /* The optimizer step: read weights, gradients, state (and master copy), write back. */
    double np = optimizer_params_per_gpu(s, pc);
    double pbytes = z->e;
    double sbytes = optimizer_states(s->optimizer) * dtype_bytes(optimizer_state_dtype(s->optimizer));
    double mbytes = scenario_master_copy(s) ? 4.0 : 0.0;
    struct op_fwd opt = {OP_OPTIMIZER, "optimizer", false, false, false,
                         optimizer_flops_per_param(s->optimizer) * np,
                         np * (2.0 * pbytes + pbytes + 2.0 * sbytes + 2.0 * mbytes)};
    put_op(&list, &opt, 1.0, r->vector, bw, bw > 0 ? r->vector / bw : 0);

    double step = 0;
    for (int i = 0; i < *n_out; i++)
        step += out[i].seconds;
    return step;
}

void flops_ops(const struct scenario *s, const struct param_counts *pc, struct op *ops,
               int *n_ops, struct roofline *rf)
{
    struct shape z;
    const double micro_tokens = (double)scenario_micro_batch(s) * (double)s->seq;
    shape_of(s, micro_tokens, (double)s->tp, &z);
    /* Context parallelism: a rank holds seq/cp of each sequence's queries (Megatron-LM's 2cp
     * chunks, balanced for causal attention), which meet all of the sequence's keys as they
     * pass around the ring: tokens and score work divide by cp, the keys do not. */
    if (s->cp > 1) {
        z.s /= (double)s->cp;
        z.T /= (double)s->cp;
    }
    /* Expert parallelism: a rank holds experts/ep of the routed experts (the shared ones
     * whole); balanced routing brings it as many token-expert pairs as its own tokens make,
     * so the work stays and the expert weights it reads divide by ep. */
    if (s->ep > 1 && z.moe)
        z.n_exp -= z.E * (1.0 - 1.0 / (double)s->ep);
    z.et = (double)scenario_etp(s);
    const double m = (double)scenario_accum_steps(s);

    struct rates r;
    r.bw = s->gpu.bandwidth;
    r.tensor = gpu_peak(&s->gpu, s->dtype);
    /* Elementwise work runs on the vector units at the fp32 (CUDA-core) rate. */
    r.vector = gpu_peak(&s->gpu, DTYPE_FP32);
    if (r.vector <= 0)
        r.vector = r.tensor;

    rf->peak = r.tensor;
    rf->bandwidth = r.bw;
    rf->ridge = r.bw > 0 ? r.tensor / r.bw : 0.0;

    /* Pipeline stages: the first L mod p hold one layer more; the last holds the LM head.
     * The table shows one GPU of the busiest stage (no GPU runs the first stage's layers
     * and the last one's head together). */
    const int64_t L = s->model.layers, p = s->pp > 0 ? s->pp : 1;
    double last_layers = (double)(L / p), first_layers = (double)((L + p - 1) / p);
    if (scenario_uneven_stages(s)) {
        /* Given first or last stages: the last as given, the busiest of the others. */
        last_layers = (double)scenario_stage_layers(s, p - 1);
        first_layers = 0;
        for (int64_t i = 0; i < p - 1; i++)
            first_layers = fmax(first_layers, (double)scenario_stage_layers(s, i));
    }
    double model_flops;
    double step = stage_ops(s, pc, &z, m, p == 1 ? (double)L : last_layers, true, &r, ops,
                            n_ops, &model_flops);
    rf->stage_layers = p == 1 ? (double)L : last_layers;
    rf->stage_head = true;
    if (p > 1 && first_layers > last_layers) {
        struct op first[ANALYSIS_MAX_OPS];
        int n_first;
        double mf_first;
        double step_first = stage_ops(s, pc, &z, m, first_layers, false, &r, first, &n_first,
                                      &mf_first);
        if (step_first > step) {
            memcpy(ops, first, sizeof first);
            *n_ops = n_first;
            step = step_first;
            model_flops = mf_first;
            rf->stage_layers = first_layers;
            rf->stage_head = false;
        }
    }
    rf->step_seconds = step;
    rf->mfu_bound = step > 0 && r.tensor > 0 ? model_flops / (step * r.tensor) : 0.0;
}

enum attn_flops flops_attention_executed(const struct scenario *s)
{
    return s->flash ? ATTN_FLOPS_CAUSAL : ATTN_FLOPS_FULL;
}

void flops_ops_executed(const struct scenario *s, const struct param_counts *pc, struct op *ops,
                        int *n_ops, struct roofline *rf)
{
    struct scenario x = *s;
    x.attention_flops = flops_attention_executed(s);
    flops_ops(&x, pc, ops, n_ops, rf);
}

void flops_pass(const struct model_arch *m, const struct gpu_spec *g, const struct flops_pass *p,
                struct op *ops, int *n_ops)
{
    struct op_list list;
    op_list_start(&list, ops, n_ops);
    struct shape z;
    shape_fill(m, p->seqs, p->queries, p->keys, p->tp, true, &z);
    /* Serving reads only the routed experts some token of the pass chose: with T tokens each
     * routed to k of E (uniformly, what load balancing aims at), E (1 - (1 - k/E)^T) of them
     * on average: k for one decode token (the active parameters, Mixtral's "13B of 47B"),
     * all E for a prompt. Training's micro-batches are thousands of tokens: all of them. */
    if (z.moe && z.E > 0) {
        const double shared = z.n_exp - z.E;
        const double k = z.n_act - shared;
        const double touched = z.E * (1.0 - pow(1.0 - fmin(k, z.E) / z.E, fmax(z.T, 1.0)));
        z.n_exp = shared + fmax(fmin(k, z.E), touched);
    }
    z.e = dtype_bytes(p->act);
    z.ew = dtype_bytes(p->weights);
    z.ekv = dtype_bytes(p->kv);

    /* Matmuls run at the activations' tensor-core rate (weights below it are dequantised on
     * the fly), elementwise work at the fp32 vector rate; both at the assumed efficiencies. */
    const double bw = g->bandwidth * p->memory_eff;
    const double tensor_peak = gpu_peak(g, p->act) * p->compute_eff;
    double vector_peak = gpu_peak(g, DTYPE_FP32) * p->compute_eff;
    if (vector_peak <= 0)
        vector_peak = tensor_peak;

    const double moe_layers = (double)model_moe_layers(m);
    const double dense_layers = (double)m->layers - moe_layers;
    struct op_fwd fwd[OP_KIND_COUNT];
    for (int pass = 0; pass < 2; pass++) {
        double count = pass == 0 ? dense_layers : moe_layers;
        if (count <= 0)
            continue;
        int n = layer_ops(&z, p->flash, pass == 1, fwd);
        for (int i = 0; i < n; i++) {
            double peak = fwd[i].tensor ? tensor_peak : vector_peak;
            put_op(&list, &fwd[i], count, peak, bw, bw > 0 ? peak / bw : 0);
        }
    }
    /* The head sees only the tokens whose logits are wanted (serving: one per sequence). */
    struct shape zh = z;
    zh.T = p->head_tokens;
    int n = head_ops(&zh, fwd);
    for (int i = 0; i < n; i++) {
        if (fwd[i].kind == OP_LOSS)
            continue;
        double peak = fwd[i].tensor ? tensor_peak : vector_peak;
        put_op(&list, &fwd[i], 1.0, peak, bw, bw > 0 ? peak / bw : 0);
    }
}
