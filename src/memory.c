/* memory.c - memory per GPU. */
#include "memory.h"

#include <math.h>
#include <string.h>

#include "dtype.h"

static void add(struct tensor_sum *t, double elements, double bytes_per_element)
{
    t->elements += elements;
    t->bytes += elements * bytes_per_element;
}

/* Dtype in which parameters (and so gradients and activations) are held. TF32 is an fp32
 * tensor multiplied at tf32 rate. */
static enum dtype storage_dtype(enum dtype d)
{
    return d == DTYPE_TF32 ? DTYPE_FP32 : d;
}

struct tensor_sum memory_layer_activations(const struct scenario *s, bool moe)
{
    const struct model_arch *m = &s->model;
    const double e = dtype_bytes(storage_dtype(s->dtype));
    const double b = (double)scenario_micro_batch(s);
    const double sq = (double)s->seq;
    const double T = b * sq;                       /* tokens in the micro-batch */
    const double h = (double)m->d_model;
    const double a = (double)m->heads;
    struct attn_dims ad;
    model_attn_dims(m, &ad);
    /* Widths of Q, K and V as the scores use them: heads x head_dim (any head_dim, GQA), or
     * MLA's per-head keys and values after kv_b_proj, as training runs it. */
    const double qd = (double)ad.q_width;
    const double kd = model_is_mla(m) ? a * (double)ad.head_qk
                                      : (double)m->kv_heads * (double)ad.head_qk;
    const double vd = model_is_mla(m) ? (double)ad.o_width
                                      : (double)m->kv_heads * (double)ad.head_v;
    const double t = (double)s->tp;
    const double n_act = moe ? model_experts_visited(m) : 1.0;
    const double f = (double)(moe ? model_expert_ffn(m) : m->ffn);

    /* Tensors outside the tensor-parallel region: every TP rank holds them whole unless
     * sequence parallelism splits them along the sequence. */
    struct tensor_sum rep = {0, 0};
    add(&rep, T * h, e);               /* input of the first norm */
    add(&rep, T * h, e);               /* norm output = input of Q, K, V */
    if (m->block != BLOCK_PARALLEL_ONE_NORM) {
        add(&rep, T * h, e);           /* input of the second norm */
        add(&rep, T * h, e);           /* norm output = input of the MLP */
    }                                  /* (one shared norm: the MLP reads the same output) */
    if (m->norm_place == NORM_SANDWICH) {
        add(&rep, T * h, e);           /* inputs of the norms after attention and the MLP */
        add(&rep, T * h, e);
    }
    if (s->dropout) {
        add(&rep, T * h, 1.0);         /* dropout mask after attention */
        add(&rep, T * h, 1.0);         /* dropout mask after the MLP */
    }

    /* Tensors inside the tensor-parallel region: split t ways. */
    struct tensor_sum split = {0, 0};
    add(&split, T * qd, e);            /* Q */
    add(&split, T * kd, e);            /* K */
    add(&split, T * vd, e);            /* V */
    add(&split, T * (double)ad.o_width, e); /* attention output = input of the output projection */
    if (m->qk_norm != QK_NORM_NONE) {
        add(&split, T * qd, e);        /* Q and K before their norms */
        add(&split, T * kd, e);
    }
    if (model_is_mla(m)) {
        /* The latents that feed the up-projections: the KV latent and rope key (input of
         * kv_a_layernorm and kv_b_proj) and the query latent. The down-projections are not
         * split by tensor parallelism, so every rank holds these whole. */
        add(&rep, T * (double)(m->kv_lora_rank + m->qk_rope_head_dim), e);
        if (m->q_lora_rank > 0)
            add(&rep, T * (double)m->q_lora_rank, e);
    }
    /* MLP inside: GELU keeps its input and output (f each); SwiGLU keeps gate and up (2f)
     * and their product, the input of the down projection (f). A token visits n_act experts. */
    double mlp = (model_mlp_gated(m->mlp) ? 3.0 : 2.0) * T * f * n_act;
    add(&split, mlp, e);
    if (moe) {
        add(&split, T * h * n_act, e);                        /* tokens dispatched to experts */
        add(&split, T * (double)m->experts, 4.0);             /* fp32 router probabilities */
    }
    bool core_stored = !s->flash && s->recompute != RECOMPUTE_SELECTIVE;
    if (core_stored) {
        double scores = a * sq * sq * b;                      /* the s x s attention matrix */
        add(&split, scores, e);                               /* softmax output */
        if (s->dropout) {
            add(&split, scores, 1.0);                         /* its dropout mask */
            add(&split, scores, e);                           /* dropout output, input of A.V */
        }
    } else if (s->flash) {
        add(&split, a * T, 4.0);                              /* fp32 log-sum-exp per row */
    }

    double rep_div = s->sp ? t : 1.0;
    struct tensor_sum out = {rep.elements / rep_div + split.elements / t,
                             rep.bytes / rep_div + split.bytes / t};
    return out;
}

/* What a layer keeps under full recomputation: its input only (split over t with SP). */
static struct tensor_sum layer_checkpoint(const struct scenario *s)
{
    const double e = dtype_bytes(storage_dtype(s->dtype));
    double T = (double)scenario_micro_batch(s) * (double)s->seq;
    double el = T * (double)s->model.d_model / (s->sp ? (double)s->tp : 1.0);
    struct tensor_sum c = {el, el * e};
    return c;
}

/* Outside the layers: final-norm input and LM-head input (16-bit), fp32 logits, split over t. */
static struct tensor_sum outside_activations(const struct scenario *s)
{
    const double e = dtype_bytes(storage_dtype(s->dtype));
    double T = (double)scenario_micro_batch(s) * (double)s->seq;
    double t = (double)s->tp;
    struct tensor_sum o = {0, 0};
    add(&o, T * (double)s->model.d_model / t, e);
    add(&o, T * (double)s->model.d_model / t, e);
    add(&o, T * (double)s->model.vocab / t, 4.0);
    return o;
}

static double ceil_div(double a, double b)
{
    return ceil(a / b);
}

void memory_compute(const struct scenario *s, const struct param_counts *pc, struct memory *out)
{
    memset(out, 0, sizeof *out);
    const struct model_arch *m = &s->model;
    const enum dtype pd = storage_dtype(s->dtype);
    const double dp = (double)scenario_dp(s);
    const double mp = (double)(s->tp * s->pp);
    /* Tensor and pipeline parallelism divide the model; ZeRO shards over data parallelism. */
    const double shard = ceil_div((double)pc->total, mp);

    struct mem_row *r = out->row;
    r[MEM_PARAMS].dtype = pd;
    r[MEM_PARAMS].elements = s->zero >= 3 ? ceil_div(shard, dp) : shard;
    r[MEM_GRADS].dtype = pd;
    r[MEM_GRADS].elements = s->zero >= 2 ? ceil_div(shard, dp) : shard;
    double opt_shard = s->zero >= 1 ? ceil_div(shard, dp) : shard;
    r[MEM_OPTIMIZER].dtype = optimizer_state_dtype(s->optimizer);
    r[MEM_OPTIMIZER].elements = opt_shard * optimizer_states(s->optimizer);
    /* The fp32 master copy belongs to the optimizer state (ZeRO's K = 12 counts it). */
    r[MEM_MASTER].dtype = DTYPE_FP32;
    r[MEM_MASTER].elements = scenario_master_copy(s) ? opt_shard : 0;

    /* Activations: per layer for each kind of layer, then the pipeline schedule. */
    int64_t moe_layers = model_moe_layers(m);
    int64_t dense_layers = m->layers - moe_layers;
    struct tensor_sum dense = memory_layer_activations(s, false);
    struct tensor_sum moe = moe_layers > 0 ? memory_layer_activations(s, true) : dense;
    struct tensor_sum widest = moe_layers > 0 ? moe : dense;
    double L = (double)m->layers;
    struct tensor_sum avg = {((double)dense_layers * dense.elements + (double)moe_layers * moe.elements) / L,
                             ((double)dense_layers * dense.bytes + (double)moe_layers * moe.bytes) / L};

    struct tensor_sum stored_layer = avg;
    if (s->recompute == RECOMPUTE_FULL || s->recompute == RECOMPUTE_SQRT)
        stored_layer = layer_checkpoint(s);
    out->activations_per_layer = stored_layer.bytes;

    /* 1F1B pipeline: the first stage holds min(pp, micro-batches) micro-batches of its
     * L/pp layers in flight; the last stage one micro-batch plus the LM head. */
    double L_stage = ceil_div(L, (double)s->pp);
    double inflight = fmin((double)s->pp, (double)scenario_accum_steps(s));
    if (inflight < 1)
        inflight = 1;
    struct tensor_sum outside = outside_activations(s);
    out->activations_outside = outside.bytes;

    double layers_kept = L_stage;      /* layers whose stored tensors sit in memory at once */
    double working_layers = 0;         /* layers rebuilt whole during backward */
    if (s->recompute == RECOMPUTE_FULL) {
        working_layers = 1;
    } else if (s->recompute == RECOMPUTE_SQRT) {
        double seg = ceil(sqrt(L_stage));  /* a checkpoint every sqrt(L) layers */
        layers_kept = ceil_div(L_stage, seg);
        working_layers = seg;
    }
    double first_el = stored_layer.elements * layers_kept * inflight + widest.elements * working_layers;
    double first_b = stored_layer.bytes * layers_kept * inflight + widest.bytes * working_layers;
    double last_el = stored_layer.elements * layers_kept + widest.elements * working_layers + outside.elements;
    double last_b = stored_layer.bytes * layers_kept + widest.bytes * working_layers + outside.bytes;
    if (s->pp == 1) {
        first_el = last_el;
        first_b = last_b;
    }
    r[MEM_ACTIVATIONS].dtype = pd;
    r[MEM_ACTIVATIONS].elements = first_b >= last_b ? first_el : last_el;
    r[MEM_ACTIVATIONS].bytes = fmax(first_b, last_b);

    for (int i = 0; i < MEM_COUNT; i++) {
        if (i != MEM_ACTIVATIONS)
            r[i].bytes = r[i].elements * dtype_bytes(r[i].dtype);
        out->total += r[i].bytes;
    }
    out->capacity = s->gpu.memory_bytes;
    out->fits = out->total <= out->capacity;
}

void memory_toy_mlp(double B, double D, double layers, enum dtype d, int states, struct memory *out)
{
    memset(out, 0, sizeof *out);
    double n = D * D * layers;
    out->row[MEM_PARAMS] = (struct mem_row){d, n, n * dtype_bytes(d)};
    out->row[MEM_GRADS] = (struct mem_row){d, n, n * dtype_bytes(d)};
    out->row[MEM_OPTIMIZER] = (struct mem_row){DTYPE_FP32, n * states, n * states * 4.0};
    out->row[MEM_MASTER] = (struct mem_row){DTYPE_FP32, 0, 0};
    double act = B * D * layers;
    out->row[MEM_ACTIVATIONS] = (struct mem_row){d, act, act * dtype_bytes(d)};
    out->activations_per_layer = B * D * dtype_bytes(d);
    for (int i = 0; i < MEM_COUNT; i++)
        out->total += out->row[i].bytes;
}
