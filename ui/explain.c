/* explain.c - one line per focus that shows the arithmetic behind the figure, as a lecturer
 * would write it on the board. */
#include "explain.h"

#include "checkpoint.h"
#include "checkpoint_panel.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework.h"
#include "roofline.h"
#include "screen.h"
#include "units.h"

void explain_number(double v, char *buf, size_t n)
{
    if (!(v == v) || v < 0) {
        snprintf(buf, n, "0");
        return;
    }
    if (v < 1e4 && v == floor(v)) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    if (v < 1e4) {
        snprintf(buf, n, "%.4g", v);
        return;
    }
    /* Scientific, as the panels write their figures (6.85e23 beside 6.85e23, not 685.4e21),
     * up to four significant digits. */
    int e = (int)floor(log10(v));
    double m = v / pow(10, e);
    if (m >= 9.9995) {
        m /= 10;
        e += 1;
    }
    snprintf(buf, n, "%.4ge%d", m, e);
}

/* Variants of one explanation, longest first; the first that fits wins. */
struct variants {
    char text[3][400];
    int n;
};

static char *next(struct variants *v)
{
    return v->n < 3 ? v->text[v->n++] : v->text[2];
}

#define ADD(v, ...) snprintf(next(v), sizeof(v)->text[0], __VA_ARGS__)

static double state_bytes_per_param(const struct scenario *s, double *p, double *g, double *o,
                                    double *m)
{
    /* Storage, not compute: fp8 training keeps bf16 weights; gradients as the setup keeps
     * them (memory_grad_dtype). */
    *p = dtype_bytes(memory_weights_dtype(s));
    *g = dtype_bytes(memory_grad_dtype(s, NULL));
    *o = optimizer_states(s->optimizer) * dtype_bytes(optimizer_state_dtype(s->optimizer));
    *m = scenario_master_copy(s) ? 4 : 0;
    return *p + *g + *o + *m;
}

static void explain_flops(const struct dash *d, struct variants *v)
{
    const struct analysis *a = &d->ev.an;
    const char *x = d->cs.times;
    char n[32], dd[32], f[32], det[32];
    /* 6ND's N: the count typed for a custom size, as flops_totals uses it. */
    explain_number((double)(a->params.typed > 0 ? a->params.typed : a->params.active), n, sizeof n);
    explain_number(d->sc.tokens, dd, sizeof dd);
    explain_number(a->flops.six_nd, f, sizeof f);
    explain_number(a->flops.detailed, det, sizeof det);
    double diff = a->flops.six_nd > 0 ? 100 * (a->flops.detailed / a->flops.six_nd - 1) : 0;
    if (d->sc.flops_mode == FLOPS_6ND) {
        ADD(v, "FLOPs = 6 %s N %s D = 6 %s %s %s %s = %s FLOPs   (counted per operation: %s, %+.1f%%)",
            x, x, x, n, x, dd, f, det, diff);
        ADD(v, "FLOPs = 6 %s N %s D = 6 %s %s %s %s = %s FLOPs", x, x, x, n, x, dd, f);
    } else {
        ADD(v, "FLOPs counted per operation = %s (6 %s N %s D = 6 %s %s %s %s = %s, %+.1f%%)",
            det, x, x, x, n, x, dd, f, diff);
        ADD(v, "FLOPs per operation %s vs 6ND %s (%+.1f%%)", det, f, diff);
    }
}

/* The attention convention: what the detailed count takes of the s x s work. */
static void explain_attention(const struct dash *d, struct variants *v)
{
    char det[32];
    explain_number(d->ev.an.flops.detailed, det, sizeof det);
    if (d->sc.attention_flops == ATTN_FLOPS_CAUSAL)
        ADD(v, "attention causal: query i meets keys 0..i, half the s %s s score and A%sV work "
               "(what causal kernels run); detailed FLOPs %s; 6ND has no attention term",
            d->cs.times, d->cs.dot, det);
    else
        ADD(v, "attention full: every query against all s keys, the s %s s score and A%sV work "
               "whole (PaLM, Narayanan et al.); detailed FLOPs %s; 6ND has no attention term",
            d->cs.times, d->cs.dot, det);
    ADD(v, "attention %s; detailed FLOPs %s", attn_flops_name(d->sc.attention_flops), det);
}

static void explain_time(const struct dash *d, struct variants *v)
{
    const struct analysis *a = &d->ev.an;
    const char *x = d->cs.times;
    char f[32], g[32], p[32], t[32], secs[32];
    explain_number(a->flops.total, f, sizeof f);
    explain_number((double)d->sc.gpus, g, sizeof g);
    explain_number(a->roofline.peak, p, sizeof p);
    units_duration(a->time.seconds, t, sizeof t);
    explain_number(a->time.seconds, secs, sizeof secs);
    if (d->ev.mfu_from == MFU_MEASURED) {
        /* The MFU is measured: show where it comes from, the GEMMs' FLOPs over their
         * measured time, against the same peak. */
        const struct measured *m = &d->ev.meas;
        char mf[32], ms[32];
        explain_number(m->flops, mf, sizeof mf);
        explain_number(m->seconds, ms, sizeof ms);
        ADD(v, "time = %s / (%s %s %s %s MFU) = %s; MFU measured = GEMM FLOPs / measured s / peak = %s / %s / %s = %.3g",
            f, g, x, p, x, t, mf, ms, p, d->ev.mfu);
        ADD(v, "time = %s / (%s %s %s %s %.3g measured = %s / %s / %s) = %s", f, g, x, p, x,
            d->ev.mfu, mf, ms, p, t);
        ADD(v, "time = %s / (%s %s %s %s %.3g measured) = %s", f, g, x, p, x, d->ev.mfu, t);
        return;
    }
    ADD(v, "time = FLOPs / (GPUs %s peak %s MFU) = %s / (%s %s %s %s %.3g) = %s s = %s", x, x, f,
        g, x, p, x, d->ev.mfu, secs, t);
    ADD(v, "time = %s / (%s %s %s %s %.3g) = %s", f, g, x, p, x, d->ev.mfu, t);
}

static void explain_state(const struct dash *d, struct variants *v)
{
    const struct scenario *s = &d->sc;
    double p, g, o, m;
    double total = state_bytes_per_param(s, &p, &g, &o, &m);
    char mb[48] = "";
    if (m > 0)
        snprintf(mb, sizeof mb, " + %.3g master (fp32)", m);
    ADD(v, "bytes/param = %.3g params (%s) + %.3g grads (%s) + %.3g %s state (%d %s %s)%s = %.3g B",
        p, dtype_name(memory_weights_dtype(s)), g, dtype_name(memory_grad_dtype(s, NULL)), o,
        optimizer_name(s->optimizer), optimizer_states(s->optimizer), d->cs.times,
        dtype_name(optimizer_state_dtype(s->optimizer)), mb, total);
    ADD(v, "bytes/param = %.3g + %.3g + %.3g%s = %.3g B", p, g, o, m > 0 ? " + 4" : "", total);
    if (d->focus == slider_id("grad_dtype")) {
        /* The gradient dtype's own lines: which one and why, then the bytes it makes. */
        enum mem_grad_why why;
        enum dtype gd = memory_grad_dtype(s, &why);
        v->n = 0;
        ADD(v, "gradients %s (%s); bytes/param = %.3g + %.3g + %.3g%s = %.3g B", dtype_name(gd),
            memory_grad_why_text(why), p, g, o, m > 0 ? " + 4" : "", total);
        ADD(v, "gradients %s (%s)", dtype_name(gd), memory_grad_why_text(why));
        ADD(v, "grads %s; bytes/param = %.3g + %.3g + %.3g%s = %.3g B", dtype_name(gd), p, g, o,
            m > 0 ? " + 4" : "", total);
    }
}

static void explain_parallel(const struct dash *d, struct variants *v)
{
    const struct scenario *s = &d->sc;
    const char *x = d->cs.times;
    char n[32], per[32];
    units_count((double)d->ev.an.params.total, n, sizeof n);
    units_count(d->ev.an.memory.row[MEM_PARAMS].elements, per, sizeof per);
    static const char *const zero_what[4] = {"nothing sharded", "optimizer state sharded",
                                             "optimizer + grads sharded",
                                             "optimizer + grads + params sharded"};
    int z = s->zero >= 0 && s->zero <= 3 ? s->zero : 0;
    if (s->cp > 1 || s->ep > 1) {
        /* Megatron-LM's layout: gpus = dp x tp x pp x cp; ep splits the routed experts over
         * ep of the dp x cp ranks. */
        char ep[64] = "";
        if (s->ep > 1)
            snprintf(ep, sizeof ep, "; experts over ep %lld of dp %s cp = %lld", (long long)s->ep,
                     x, (long long)(d->ev.an.dp * s->cp));
        ADD(v, "dp = GPUs / (tp %s pp %s cp) = %lld / (%lld %s %lld %s %lld) = %lld%s; params/GPU %s; ZeRO-%d: %s",
            x, x, (long long)s->gpus, (long long)s->tp, x, (long long)s->pp, x, (long long)s->cp,
            (long long)d->ev.an.dp, ep, per, z, zero_what[z]);
        ADD(v, "dp = %lld / (%lld %s %lld %s %lld) = %lld%s", (long long)s->gpus, (long long)s->tp,
            x, (long long)s->pp, x, (long long)s->cp, (long long)d->ev.an.dp, ep);
        return;
    }
    /* params/GPU is the memory table's (the busiest stage, an MTP module on the last, ZeRO's
     * shard), not the total over tp x pp: stated beside the total, never as its quotient. */
    ADD(v, "dp = GPUs / (tp %s pp) = %lld / (%lld %s %lld) = %lld; params/GPU %s of %s; ZeRO-%d: %s over %lld",
        x, (long long)s->gpus, (long long)s->tp, x, (long long)s->pp, (long long)d->ev.an.dp, per,
        n, z, zero_what[z], (long long)d->ev.an.dp);
    ADD(v, "dp = %lld / (%lld %s %lld) = %lld; params/GPU %s; ZeRO-%d", (long long)s->gpus,
        (long long)s->tp, x, (long long)s->pp, (long long)d->ev.an.dp, per, z);
}

static void explain_batch(const struct dash *d, struct variants *v)
{
    const struct analysis *a = &d->ev.an;
    const char *x = d->cs.times;
    char tok[32];
    units_count((double)d->sc.batch * (double)d->sc.seq, tok, sizeof tok);
    ADD(v, "batch %lld = micro-batch %lld %s dp %lld %s %lld accumulation steps; %s tokens per step",
        (long long)d->sc.batch, (long long)a->micro_batch, x, (long long)a->dp, x,
        (long long)a->accum_steps, tok);
    ADD(v, "batch %lld = %lld %s %lld %s %lld accum", (long long)d->sc.batch,
        (long long)a->micro_batch, x, (long long)a->dp, x, (long long)a->accum_steps);
}

static void explain_activations(const struct dash *d, struct variants *v)
{
    const struct analysis *a = &d->ev.an;
    const struct scenario *s = &d->sc;
    char per[32], out[32], tot[32];
    units_bytes(a->memory.activations_per_layer, per, sizeof per);
    units_bytes(a->memory.activations_outside, out, sizeof out);
    units_bytes(a->memory.row[MEM_ACTIVATIONS].bytes, tot, sizeof tot);
    const char *scores = s->flash ? "FlashAttention" : "s x s scores kept";
    if (s->recompute == RECOMPUTE_SQRT) {
        /* Why sqrt(L) checkpoints hold more than full's every-layer input here: a layer
         * stores A, many times its input I, and sqrt(L) is the best interval only when
         * A = I (the lecture's toy). */
        double A, I, L = (double)s->model.layers, k = ceil(sqrt(L));
        checkpoint_panel_sizes(d, &A, &I);
        char full[32], root[32];
        units_bytes(checkpoint_memory(L, A, I, 1), full, sizeof full);
        units_bytes(checkpoint_memory(L, A, I, k), root, sizeof root);
        double ratio = I > 0 ? A / I : 0, best = checkpoint_best_k(L, A, I);
        ADD(v, "sqrt: %.0f checkpoints + %.0f layers' activations = %s of layers; a layer stores %.1f %s its input, so full (every input + one layer) holds %s: least at k = sqrt(L I / A) = %.1f; sqrt(L) is best when A = I, the lecture's toy",
            ceil(L / k), k, root, ratio, d->cs.times, full, best);
        ADD(v, "sqrt: layers %s, full %s: a layer keeps %.1f%s its input, best k = %.1f", root,
            full, ratio, d->cs.times, best);
        return;
    }
    if (s->pp == 1 && s->recompute == RECOMPUTE_NONE) {
        /* The plain case adds up on screen: every layer's tensors plus the LM head's. */
        ADD(v, "activations = L %s per layer + outside = %lld %s %s + %s = %s per GPU (b = %lld, s = %lld, %s)",
            d->cs.times, (long long)s->model.layers, d->cs.times, per, out, tot,
            (long long)a->micro_batch, (long long)s->seq, scores);
        ADD(v, "activations = %lld %s %s + %s = %s (b=%lld, s=%lld)", (long long)s->model.layers,
            d->cs.times, per, out, tot, (long long)a->micro_batch, (long long)s->seq);
        return;
    }
    ADD(v, "activations %s per GPU: %s kept per layer per micro-batch (b = %lld, s = %lld, %s), recompute %s, %lld pipeline stages",
        tot, per, (long long)a->micro_batch, (long long)s->seq, scores, recompute_name(s->recompute),
        (long long)s->pp);
    ADD(v, "activations %s per GPU: %s/layer kept (b=%lld, s=%lld), recompute %s", tot, per,
        (long long)a->micro_batch, (long long)s->seq, recompute_name(s->recompute));
}

static void explain_memory(const struct dash *d, struct variants *v)
{
    const struct memory *m = &d->ev.an.memory;
    char parts[MEM_COUNT][32], tot[32], cap[32];
    for (int i = 0; i < MEM_COUNT; i++)
        units_bytes(m->row[i].bytes, parts[i], sizeof parts[i]);
    units_bytes(m->total, tot, sizeof tot);
    units_bytes(m->capacity, cap, sizeof cap);
    char usable[32];
    units_bytes(m->usable, usable, sizeof usable);
    ADD(v, "per GPU = %s params + %s grads + %s optimizer + %s master + %s buffers + %s activations = %s of %s usable (%s less the reserve)",
        parts[MEM_PARAMS], parts[MEM_GRADS], parts[MEM_OPTIMIZER], parts[MEM_MASTER],
        parts[MEM_BUFFERS], parts[MEM_ACTIVATIONS], tot, usable, cap);
    ADD(v, "per GPU = %s + %s + %s + %s + %s + %s = %s of %s", parts[MEM_PARAMS],
        parts[MEM_GRADS], parts[MEM_OPTIMIZER], parts[MEM_MASTER], parts[MEM_BUFFERS],
        parts[MEM_ACTIVATIONS], tot, usable);
}

static void explain_ridge(const struct dash *d, struct variants *v)
{
    char p[32], b[32];
    explain_number(d->ev.an.roofline.peak, p, sizeof p);
    explain_number(d->ev.an.roofline.bandwidth, b, sizeof b);
    if (d->lecture_ops) {
        struct op_cost c;
        lecture_op_cost(LOP_MATMUL, lecture_op_default_n(LOP_MATMUL), d->sc.dtype, &c);
        ADD(v, "matmul n = 1024: n%s(2n-1) FLOPs / 3%s%gn%s bytes = %.4g FLOP/B; ReLU n / 4n = 0.25; ridge %s / %s = %.0f",
            d->cs.utf8 ? "\xC2\xB2" : "^2", d->cs.times, dtype_bytes(d->sc.dtype),
            d->cs.utf8 ? "\xC2\xB2" : "^2", c.intensity, p, b, d->ev.an.roofline.ridge);
        ADD(v, "matmul 1024: %.4g FLOP/B, ReLU 0.25; ridge %.0f FLOP/B", c.intensity,
            d->ev.an.roofline.ridge);
        return;
    }
    ADD(v, "ridge = peak / bandwidth = %s / %s = %.0f FLOP/B: ops left of it are memory-bound, right of it compute-bound",
        p, b, d->ev.an.roofline.ridge);
    ADD(v, "ridge = %s / %s = %.0f FLOP/B", p, b, d->ev.an.roofline.ridge);
}

static void explain_ops(const struct dash *d, struct variants *v)
{
    char t[32];
    units_duration(d->ev.an.roofline.step_seconds, t, sizeof t);
    const struct measured *m = &d->ev.meas;
    if (m->n_ops_measured > 0 && !d->lecture_ops) {
        char mf[32], ms[32], p[32];
        explain_number(m->flops, mf, sizeof mf);
        units_duration(m->seconds, ms, sizeof ms);
        explain_number(m->peak, p, sizeof p);
        ADD(v, "measured: %d of %d GEMM ops, %s FLOPs in %s on %s = %.3g of the %s peak %s%s",
            m->n_ops_measured, m->n_gemm_ops, mf, ms, m->device[0] ? m->device : d->points_from,
            m->efficiency, dtype_name(d->sc.dtype), p,
            d->ev.mfu_from == MFU_MEASURED ? " (the MFU)" : " (M: use it as the MFU)");
        ADD(v, "measured GEMMs: %s FLOPs in %s = %.3g of peak%s", mf, ms, m->efficiency,
            d->ev.mfu_from == MFU_MEASURED ? " (the MFU)" : " (M: as MFU)");
    }
    ADD(v, "op time = max(FLOPs / peak, bytes / bandwidth); their sum %s per step per GPU %s MFU %s %.2f",
        t, d->cs.arrow, d->cs.le, d->ev.an.roofline.mfu_bound);
    ADD(v, "op time = max(FLOPs/peak, bytes/bw); sum %s %s MFU %s %.2f", t, d->cs.arrow,
        d->cs.le, d->ev.an.roofline.mfu_bound);
}

/* The framework's schedule: what it hides of the data-parallel communication, and the
 * constant its kernels are priced at (src/framework.h). */
static void explain_framework(const struct dash *d, struct variants *v)
{
    const struct prediction *p = &d->ev.pred;
    const struct framework_profile *f = framework_profile(d->sc.framework);
    char dp[32], step[32];
    units_duration(p->part[PART_DP_COMM], dp, sizeof dp);
    units_duration(p->step_seconds, step, sizeof step);
    ADD(v, "%s (%s): data-parallel comm %s exposed of the %s step; kernel time / %.3g",
        f->label, f->assumed, dp, step, f->derate);
    ADD(v, "%s: data-parallel comm %s exposed of the %s step, kernel time / %.3g", f->label, dp,
        step, f->derate);
    ADD(v, "%s: dp comm %s of %s", f->label, dp, step);
}

static void explain_model(const struct dash *d, struct variants *v)
{
    const struct param_counts *p = &d->ev.an.params;
    const struct model_arch *m = &d->sc.model;
    char tot[32], layer[32], emb[32], head[32], act[32];
    units_count((double)p->total, tot, sizeof tot);
    units_count((double)p->per_layer, layer, sizeof layer);
    units_count((double)(p->embedding + p->position), emb, sizeof emb);
    units_count((double)p->lm_head, head, sizeof head);
    units_count((double)p->active, act, sizeof act);
    char moe[64] = "";
    if (model_is_moe(m))
        snprintf(moe, sizeof moe, "; %s active per token", act);
    else if (p->typed > 0 && p->typed != p->total) {
        /* Rounded, the fitted shape and the count typed print alike: show both exactly. */
        snprintf(tot, sizeof tot, "%lld", (long long)p->total);
        snprintf(moe, sizeof moe, "; 6ND uses the %lld typed", (long long)p->typed);
    }
    ADD(v, "N = %s: %lld layers %s %s + embeddings %s + LM head %s (h = %lld, %lld heads, %lld KV)%s",
        tot, (long long)m->layers, d->cs.times, layer, emb, head, (long long)m->d_model,
        (long long)m->heads, (long long)m->kv_heads, moe);
    ADD(v, "N = %s: %lld layers %s %s + %s + %s%s", tot, (long long)m->layers, d->cs.times, layer,
        emb, head, moe);
    /* At 80 columns: the total rounded, as the panels give it. */
    char rounded[32];
    units_count((double)p->total, rounded, sizeof rounded);
    ADD(v, "N = %s: %lld layers %s %s + %s + %s%s%s", rounded, (long long)m->layers, d->cs.times,
        layer, emb, head, model_is_moe(m) ? "; active " : "", model_is_moe(m) ? act : "");
}

/* The formula each input's slider explains, by registry key (an input not listed shows
 * what the registry says of it). */
typedef void explain_fn(const struct dash *d, struct variants *v);
static const struct {
    const char *keys; /* space-separated */
    explain_fn *fn;
} by_input[] = {
    {"model", explain_model},
    {"params tokens flops", explain_flops},
    {"attention_flops", explain_attention},
    {"gpu gpus mfu", explain_time},
    {"dtype master_weights grad_dtype optimizer", explain_state},
    {"tp pp cp ep sp zero", explain_parallel},
    {"batch micro_batch", explain_batch},
    {"seq recompute flash", explain_activations},
    {"framework dp_overlap", explain_framework},
};

static bool key_listed(const char *keys, const char *key)
{
    size_t len = strlen(key);
    for (const char *p = keys; *p;) {
        size_t w = strcspn(p, " ");
        if (w == len && strncmp(p, key, len) == 0)
            return true;
        p += w + (p[w] == ' ');
    }
    return false;
}

static void explain_input(const struct dash *d, struct variants *v)
{
    const struct input *in = slider_input(d->focus);
    for (size_t i = 0; i < sizeof by_input / sizeof by_input[0]; i++)
        if (key_listed(by_input[i].keys, in->key)) {
            by_input[i].fn(d, v);
            return;
        }
    ADD(v, "%s: %s", in->label, in->help);
}

void explain_line(const struct dash *d, int width, char *buf, size_t n)
{
    struct variants v = {.n = 0};
    switch (d->focus) {
    case FOCUS_COMPUTE:
        explain_time(d, &v);
        break;
    case FOCUS_MEMORY:
        explain_memory(d, &v);
        break;
    case FOCUS_ROOFLINE:
        explain_ridge(d, &v);
        break;
    case FOCUS_OPS:
        explain_ops(d, &v);
        break;
    default:
        if (d->focus >= 0 && d->focus < slider_count())
            explain_input(d, &v);
        else
            ADD(&v, " ");
        break;
    }
    int pick = v.n - 1;
    for (int i = 0; i < v.n; i++)
        if (screen_width(v.text[i]) <= width) {
            pick = i;
            break;
        }
    snprintf(buf, n, "%s", v.text[pick]);
}
