/* explain.c - one line per focus that shows the arithmetic behind the figure, as a lecturer
 * would write it on the board. */
#include "explain.h"

#include "checkpoint_panel.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure.h"
#include "framework.h"
#include "report.h"
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

/* Variants of one explanation, longest first; the first that fits wins. A variant after one
 * that fits is never written (its arithmetic formatted for nothing): ADD skips it. The third
 * slot takes every variant from the third on, the last written kept, as the pick reads it. */
struct variants {
    char text[3][400];
    int n;
    int width;     /* the room the line has */
    signed char fits[3]; /* slot i's text fits: 1, 0, or -1 not asked yet */
};

static bool slot_fits(struct variants *v, int i)
{
    if (v->fits[i] < 0)
        v->fits[i] = (signed char)(screen_width(v->text[i]) <= v->width);
    return v->fits[i] != 0;
}

/* Whether the next variant can still be the one shown: no slot before its own fits. */
static bool wanted(struct variants *v)
{
    int slot = v->n < 3 ? v->n : 2;
    for (int i = 0; i < slot; i++)
        if (slot_fits(v, i))
            return false;
    return true;
}

static char *next(struct variants *v)
{
    int slot = v->n < 3 ? v->n++ : 2;
    v->fits[slot] = -1;
    return v->text[slot];
}

/* The variants written so far dropped: a focus whose own lines replace them. */
static void restart(struct variants *v)
{
    v->n = 0;
}

#define ADD(v, ...)                                                                               \
    do {                                                                                          \
        if (wanted(v))                                                                            \
            snprintf(next(v), sizeof(v)->text[0], __VA_ARGS__);                                  \
    } while (0)

/* A figure the line shows: the report's row (its key, src/report.c) and the list item it is
 * taken for (0 outside lists). The line formats the report's numbers, one figure in this
 * view's display mode (explain_number), and computes none of its own. */
struct shown {
    const char *key;
    int item;
};
#define SHOWN_MAX 12

/* The report's values over this evaluation of fig[0..n-1] into val, each row looked up once
 * into rows[] (a constant list per explanation, not searched on every frame); a value the
 * report leaves out (or a key it lacks) is null. */
static void figures(const struct dash *d, const struct shown *fig, int n,
                    const struct figure **rows, struct figure_value *val)
{
    struct figure_pick pick[SHOWN_MAX];
    bool shown[SHOWN_MAX];
    for (int i = 0; i < n; i++) {
        pick[i] = (struct figure_pick){figure_find_once(report_table(), fig[i].key, &rows[i]),
                                       fig[i].item};
        if (pick[i].row == NULL) {
            for (int j = 0; j < n; j++)
                figure_null(&val[j]);
            return;
        }
    }
    report_figures(&d->ev, pick, n, val, shown);
}
#define FIGURES(d, fig, val)                                                                      \
    static const struct figure *rows_[sizeof(fig) / sizeof(fig)[0]];                              \
    struct figure_value val[sizeof(fig) / sizeof(fig)[0]];                                        \
    figures(d, fig, (int)(sizeof(fig) / sizeof(fig)[0]), rows_, val)

/* A value's number (0 where the report has none) and its word ("" where none). */
static double num(const struct figure_value *v)
{
    return v->kind == FK_NUM ? v->num : 0;
}

static long long whole(const struct figure_value *v)
{
    double x = num(v);
    return x == x ? (long long)x : 0;
}

static const char *word(const struct figure_value *v)
{
    return v->kind == FK_STR && v->str != NULL ? v->str : "";
}

static const struct shown FLOPS_SHOWN[] = {{"params.six_nd_n", 0},
                                           {"flops.six_nd", 0},
                                           {"flops.detailed", 0},
                                           {"flops.detailed_vs_six_nd_percent", 0}};
enum { FS_N, FS_SIX_ND, FS_DETAILED, FS_DIFF };

static void explain_flops(const struct dash *d, struct variants *v)
{
    FIGURES(d, FLOPS_SHOWN, x);
    const char *t = d->cs.times;
    char n[32], dd[32], f[32], det[32];
    /* 6ND's N: the count typed for a custom size, as flops_totals uses it; D the tokens typed. */
    explain_number(num(&x[FS_N]), n, sizeof n);
    explain_number(d->sc.tokens, dd, sizeof dd);
    explain_number(num(&x[FS_SIX_ND]), f, sizeof f);
    explain_number(num(&x[FS_DETAILED]), det, sizeof det);
    double diff = num(&x[FS_DIFF]);
    if (d->sc.flops_mode == FLOPS_6ND) {
        ADD(v, "FLOPs = 6 %s N %s D = 6 %s %s %s %s = %s FLOPs   (counted per operation: %s, %+.1f%%)",
            t, t, t, n, t, dd, f, det, diff);
        ADD(v, "FLOPs = 6 %s N %s D = 6 %s %s %s %s = %s FLOPs", t, t, t, n, t, dd, f);
    } else {
        ADD(v, "FLOPs counted per operation = %s (6 %s N %s D = 6 %s %s %s %s = %s, %+.1f%%)",
            det, t, t, t, n, t, dd, f, diff);
        ADD(v, "FLOPs per operation %s vs 6ND %s (%+.1f%%)", det, f, diff);
    }
}

static const struct shown ATTENTION_SHOWN[] = {{"flops.detailed", 0}};

/* The attention convention: what the detailed count takes of the s x s work. */
static void explain_attention(const struct dash *d, struct variants *v)
{
    FIGURES(d, ATTENTION_SHOWN, x);
    char det[32];
    explain_number(num(&x[0]), det, sizeof det);
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

static const struct shown TIME_SHOWN[] = {
    {"flops.total", 0},   {"parallel.gpus", 0},           {"roofline.peak", 0},
    {"time.seconds", 0},  {"time.mfu_in_use", 0},         {"measured.flops_per_step", 0},
    {"measured.seconds_per_step", 0}};
enum { TS_FLOPS, TS_GPUS, TS_PEAK, TS_SECONDS, TS_MFU, TS_MEAS_FLOPS, TS_MEAS_SECONDS };

static void explain_time(const struct dash *d, struct variants *v)
{
    FIGURES(d, TIME_SHOWN, x);
    const char *t = d->cs.times;
    char f[32], g[32], p[32], dur[32], secs[32];
    explain_number(num(&x[TS_FLOPS]), f, sizeof f);
    explain_number(num(&x[TS_GPUS]), g, sizeof g);
    explain_number(num(&x[TS_PEAK]), p, sizeof p);
    units_duration(num(&x[TS_SECONDS]), dur, sizeof dur);
    explain_number(num(&x[TS_SECONDS]), secs, sizeof secs);
    double mfu = num(&x[TS_MFU]);
    if (d->ev.mfu_from == MFU_MEASURED) {
        /* The MFU is measured: show where it comes from, the GEMMs' FLOPs over their
         * measured time, against the same peak. */
        char mf[32], ms[32];
        explain_number(num(&x[TS_MEAS_FLOPS]), mf, sizeof mf);
        explain_number(num(&x[TS_MEAS_SECONDS]), ms, sizeof ms);
        ADD(v, "time = %s / (%s %s %s %s MFU) = %s; MFU measured = GEMM FLOPs / measured s / peak = %s / %s / %s = %.3g",
            f, g, t, p, t, dur, mf, ms, p, mfu);
        ADD(v, "time = %s / (%s %s %s %s %.3g measured = %s / %s / %s) = %s", f, g, t, p, t, mfu,
            mf, ms, p, dur);
        ADD(v, "time = %s / (%s %s %s %s %.3g measured) = %s", f, g, t, p, t, mfu, dur);
        return;
    }
    ADD(v, "time = FLOPs / (GPUs %s peak %s MFU) = %s / (%s %s %s %s %.3g) = %s s = %s", t, t, f,
        g, t, p, t, mfu, secs, dur);
    ADD(v, "time = %s / (%s %s %s %s %.3g) = %s", f, g, t, p, t, mfu, dur);
}

static const struct shown STATE_SHOWN[] = {
    {"memory.bytes_per_param.params", 0},    {"memory.bytes_per_param.grads", 0},
    {"memory.bytes_per_param.optimizer", 0}, {"memory.bytes_per_param.master", 0},
    {"memory.bytes_per_param.total", 0},     {"memory.optimizer_states", 0},
    {"memory.weights_dtype", 0},             {"memory.grad_dtype", 0},
    {"memory.optimizer_state_dtype", 0},     {"memory.grad_dtype_why", 0}};
enum { SS_P, SS_G, SS_O, SS_M, SS_TOTAL, SS_STATES, SS_WDT, SS_GDT, SS_ODT, SS_WHY };

static void explain_state(const struct dash *d, struct variants *v)
{
    FIGURES(d, STATE_SHOWN, x);
    double p = num(&x[SS_P]), g = num(&x[SS_G]), o = num(&x[SS_O]), m = num(&x[SS_M]);
    double total = num(&x[SS_TOTAL]);
    char mb[48] = "", plus[16] = "";
    if (m > 0) {
        snprintf(mb, sizeof mb, " + %.3g master (fp32)", m);
        snprintf(plus, sizeof plus, " + %.3g", m);
    }
    ADD(v, "bytes/param = %.3g params (%s) + %.3g grads (%s) + %.3g %s state (%lld %s %s)%s = %.3g B",
        p, word(&x[SS_WDT]), g, word(&x[SS_GDT]), o, optimizer_name(d->sc.optimizer),
        whole(&x[SS_STATES]), d->cs.times, word(&x[SS_ODT]), mb, total);
    ADD(v, "bytes/param = %.3g + %.3g + %.3g%s = %.3g B", p, g, o, plus, total);
    if (d->focus == slider_id("grad_dtype")) {
        /* The gradient dtype's own lines: which one and why, then the bytes it makes. */
        const char *gd = word(&x[SS_GDT]), *why = word(&x[SS_WHY]);
        restart(v);
        ADD(v, "gradients %s (%s); bytes/param = %.3g + %.3g + %.3g%s = %.3g B", gd, why, p, g,
            o, plus, total);
        ADD(v, "gradients %s (%s)", gd, why);
        ADD(v, "grads %s; bytes/param = %.3g + %.3g + %.3g%s = %.3g B", gd, p, g, o, plus, total);
    }
}

static const struct shown PARALLEL_SHOWN[] = {
    {"params.total", 0}, {"memory.rows[].elements", MEM_PARAMS},
    {"parallel.gpus", 0}, {"parallel.dp", 0}, {"parallel.tp", 0}, {"parallel.pp", 0},
    {"parallel.cp", 0}, {"parallel.ep", 0}, {"parallel.etp", 0}};
enum { PS_TOTAL, PS_PER_GPU, PS_GPUS, PS_DP, PS_TP, PS_PP, PS_CP, PS_EP, PS_ETP };

static void explain_parallel(const struct dash *d, struct variants *v)
{
    FIGURES(d, PARALLEL_SHOWN, x);
    const char *t = d->cs.times;
    char n[32], per[32];
    units_count(num(&x[PS_TOTAL]), n, sizeof n);
    units_count(num(&x[PS_PER_GPU]), per, sizeof per);
    long long gpus = whole(&x[PS_GPUS]), dp = whole(&x[PS_DP]), tp = whole(&x[PS_TP]);
    long long pp = whole(&x[PS_PP]), cp = whole(&x[PS_CP]), epn = whole(&x[PS_EP]);
    static const char *const zero_what[4] = {"nothing sharded", "optimizer state sharded",
                                             "optimizer + grads sharded",
                                             "optimizer + grads + params sharded"};
    int z = d->sc.zero >= 0 && d->sc.zero <= 3 ? d->sc.zero : 0;
    if (cp > 1 || epn > 1) {
        /* Megatron-LM's layout: gpus = dp x tp x pp x cp; ep splits the routed experts over
         * ep of a stage's tp x dp x cp ranks over the expert tp (dp x cp when that is tp). */
        char ep[96] = "";
        long long etp = whole(&x[PS_ETP]);
        if (epn > 1 && (etp == tp || etp < 1))
            snprintf(ep, sizeof ep, "; experts over ep %lld of dp %s cp = %lld", epn, t, dp * cp);
        else if (epn > 1)
            snprintf(ep, sizeof ep, "; experts over ep %lld of tp %s dp %s cp / etp %lld = %lld",
                     epn, t, t, etp, tp * dp * cp / etp);
        ADD(v, "dp = GPUs / (tp %s pp %s cp) = %lld / (%lld %s %lld %s %lld) = %lld%s; params/GPU %s; ZeRO-%d: %s",
            t, t, gpus, tp, t, pp, t, cp, dp, ep, per, z, zero_what[z]);
        ADD(v, "dp = %lld / (%lld %s %lld %s %lld) = %lld%s", gpus, tp, t, pp, t, cp, dp, ep);
        return;
    }
    /* params/GPU is the memory table's (the busiest stage, an MTP module on the last, ZeRO's
     * shard), not the total over tp x pp: stated beside the total, never as its quotient. */
    ADD(v, "dp = GPUs / (tp %s pp) = %lld / (%lld %s %lld) = %lld; params/GPU %s of %s; ZeRO-%d: %s over %lld",
        t, gpus, tp, t, pp, dp, per, n, z, zero_what[z], dp);
    ADD(v, "dp = %lld / (%lld %s %lld) = %lld; params/GPU %s; ZeRO-%d", gpus, tp, t, pp, dp, per,
        z);
}

static const struct shown BATCH_SHOWN[] = {{"parallel.micro_batch", 0},
                                           {"parallel.dp", 0},
                                           {"parallel.accum_steps", 0},
                                           {"parallel.tokens_per_step", 0}};
enum { BS_MICRO, BS_DP, BS_ACCUM, BS_TOKENS };

static void explain_batch(const struct dash *d, struct variants *v)
{
    FIGURES(d, BATCH_SHOWN, x);
    const char *t = d->cs.times;
    char tok[32];
    units_count(num(&x[BS_TOKENS]), tok, sizeof tok);
    long long mb = whole(&x[BS_MICRO]), dp = whole(&x[BS_DP]), acc = whole(&x[BS_ACCUM]);
    ADD(v, "batch %lld = micro-batch %lld %s dp %lld %s %lld accumulation steps; %s tokens per step",
        (long long)d->sc.batch, mb, t, dp, t, acc, tok);
    ADD(v, "batch %lld = %lld %s %lld %s %lld accum", (long long)d->sc.batch, mb, t, dp, t, acc);
}

static const struct shown ACTIVATIONS_SHOWN[] = {
    {"memory.activations_per_layer", 0},
    {"memory.activations_outside", 0},
    {"memory.rows[].bytes", MEM_ACTIVATIONS},
    {"parallel.micro_batch", 0},
    {"parallel.pp", 0}};
enum { AS_PER, AS_OUT, AS_TOTAL, AS_MICRO, AS_PP };

/* sqrt(L) checkpoints against full's every-layer input: the checkpoint panel's figures. */
static void explain_sqrt(const struct dash *d, struct variants *v)
{
    /* Why sqrt(L) checkpoints hold more than full's every-layer input here: a layer stores A,
     * many times its input I, and sqrt(L) is the best interval only when A = I (the
     * lecture's toy). */
    struct checkpoint_sizes z;
    struct checkpoint_line rows[24];
    checkpoint_panel_sizes(d, &z);
    int n = checkpoint_panel_curve(d, rows, 24);
    double full_mem = 0, root_mem = 0, k = 0, kept = 0;
    for (int i = n - 1; i >= 0; i--) {
        if (strcmp(rows[i].kind, "every") != 0)
            continue;
        if (rows[i].x[CC_K] == 1)
            full_mem = rows[i].x[CC_MEMORY];
        if (rows[i].sqrt_l) {
            root_mem = rows[i].x[CC_MEMORY];
            k = rows[i].x[CC_K];
            kept = rows[i].x[CC_CHECKPOINTS];
        }
    }
    char full[32], root[32];
    units_bytes(full_mem, full, sizeof full);
    units_bytes(root_mem, root, sizeof root);
    double ratio = z.x[CS_RATIO], best = z.x[CS_BEST_K];
    ADD(v, "sqrt: %.0f checkpoints + %.0f layers' activations = %s of layers; a layer stores %.1f %s its input, so full (every input + one layer) holds %s: least at k = sqrt(L I / A) = %.1f; sqrt(L) is best when A = I, the lecture's toy",
        kept, k, root, ratio, d->cs.times, full, best);
    ADD(v, "sqrt: layers %s, full %s: a layer keeps %.1f%s its input, best k = %.1f", root, full,
        ratio, d->cs.times, best);
}

static void explain_activations(const struct dash *d, struct variants *v)
{
    const struct scenario *s = &d->sc;
    if (s->recompute == RECOMPUTE_SQRT) {
        explain_sqrt(d, v);
        return;
    }
    FIGURES(d, ACTIVATIONS_SHOWN, x);
    char per[32], out[32], tot[32];
    units_bytes(num(&x[AS_PER]), per, sizeof per);
    units_bytes(num(&x[AS_OUT]), out, sizeof out);
    units_bytes(num(&x[AS_TOTAL]), tot, sizeof tot);
    long long mb = whole(&x[AS_MICRO]), pp = whole(&x[AS_PP]);
    const char *scores = s->flash ? "FlashAttention" : "s x s scores kept";
    if (pp == 1 && s->recompute == RECOMPUTE_NONE) {
        /* The plain case adds up on screen: every layer's tensors plus the LM head's. */
        ADD(v, "activations = L %s per layer + outside = %lld %s %s + %s = %s per GPU (b = %lld, s = %lld, %s)",
            d->cs.times, (long long)s->model.layers, d->cs.times, per, out, tot, mb,
            (long long)s->seq, scores);
        ADD(v, "activations = %lld %s %s + %s = %s (b=%lld, s=%lld)", (long long)s->model.layers,
            d->cs.times, per, out, tot, mb, (long long)s->seq);
        return;
    }
    ADD(v, "activations %s per GPU: %s kept per layer per micro-batch (b = %lld, s = %lld, %s), recompute %s, %lld pipeline stages",
        tot, per, mb, (long long)s->seq, scores, recompute_name(s->recompute), pp);
    ADD(v, "activations %s per GPU: %s/layer kept (b=%lld, s=%lld), recompute %s", tot, per, mb,
        (long long)s->seq, recompute_name(s->recompute));
}

static const struct shown MEMORY_SHOWN[] = {
    {"memory.rows[].bytes", MEM_PARAMS}, {"memory.rows[].bytes", MEM_GRADS},
    {"memory.rows[].bytes", MEM_OPTIMIZER}, {"memory.rows[].bytes", MEM_MASTER},
    {"memory.rows[].bytes", MEM_BUFFERS}, {"memory.rows[].bytes", MEM_ACTIVATIONS},
    {"memory.total", 0}, {"memory.capacity", 0}, {"memory.usable", 0}};
enum { MS_TOTAL = MEM_COUNT, MS_CAPACITY, MS_USABLE };

static void explain_memory(const struct dash *d, struct variants *v)
{
    FIGURES(d, MEMORY_SHOWN, x);
    char parts[MEM_COUNT][32], tot[32], cap[32], usable[32];
    for (int i = 0; i < MEM_COUNT; i++)
        units_bytes(num(&x[i]), parts[i], sizeof parts[i]);
    units_bytes(num(&x[MS_TOTAL]), tot, sizeof tot);
    units_bytes(num(&x[MS_CAPACITY]), cap, sizeof cap);
    units_bytes(num(&x[MS_USABLE]), usable, sizeof usable);
    ADD(v, "per GPU = %s params + %s grads + %s optimizer + %s master + %s buffers + %s activations = %s of %s usable (%s less the reserve)",
        parts[MEM_PARAMS], parts[MEM_GRADS], parts[MEM_OPTIMIZER], parts[MEM_MASTER],
        parts[MEM_BUFFERS], parts[MEM_ACTIVATIONS], tot, usable, cap);
    ADD(v, "per GPU = %s + %s + %s + %s + %s + %s = %s of %s", parts[MEM_PARAMS],
        parts[MEM_GRADS], parts[MEM_OPTIMIZER], parts[MEM_MASTER], parts[MEM_BUFFERS],
        parts[MEM_ACTIVATIONS], tot, usable);
}

static const struct shown RIDGE_SHOWN[] = {
    {"roofline.peak", 0}, {"roofline.bandwidth", 0}, {"roofline.ridge", 0}};
enum { RS_PEAK, RS_BANDWIDTH, RS_RIDGE };

static void explain_ridge(const struct dash *d, struct variants *v)
{
    FIGURES(d, RIDGE_SHOWN, x);
    char p[32], b[32];
    explain_number(num(&x[RS_PEAK]), p, sizeof p);
    explain_number(num(&x[RS_BANDWIDTH]), b, sizeof b);
    double ridge = num(&x[RS_RIDGE]);
    if (d->lecture_ops) {
        /* The lecture's toy operations: their own arithmetic, not the scenario's. */
        struct op_cost c;
        lecture_op_cost(LOP_MATMUL, lecture_op_default_n(LOP_MATMUL), d->sc.dtype, &c);
        ADD(v, "matmul n = 1024: n%s(2n-1) FLOPs / 3%s%gn%s bytes = %.4g FLOP/B; ReLU n / 4n = 0.25; ridge %s / %s = %.0f",
            d->cs.utf8 ? "\xC2\xB2" : "^2", d->cs.times, dtype_bytes(d->sc.dtype),
            d->cs.utf8 ? "\xC2\xB2" : "^2", c.intensity, p, b, ridge);
        ADD(v, "matmul 1024: %.4g FLOP/B, ReLU 0.25; ridge %.0f FLOP/B", c.intensity, ridge);
        return;
    }
    ADD(v, "ridge = peak / bandwidth = %s / %s = %.0f FLOP/B: ops left of it are memory-bound, right of it compute-bound",
        p, b, ridge);
    ADD(v, "ridge = %s / %s = %.0f FLOP/B", p, b, ridge);
}

static const struct shown OPS_SHOWN[] = {
    {"roofline.step_seconds", 0},     {"roofline.mfu_bound", 0},
    {"measured.flops_per_step", 0},   {"measured.seconds_per_step", 0},
    {"measured.peak", 0},             {"measured.efficiency", 0},
    {"measured.ops_measured", 0},     {"measured.gemm_ops", 0},
    {"measured.device", 0}};
enum { OS_STEP, OS_BOUND, OS_FLOPS, OS_SECONDS, OS_PEAK, OS_EFF, OS_OPS, OS_GEMMS, OS_DEVICE };

static void explain_ops(const struct dash *d, struct variants *v)
{
    FIGURES(d, OPS_SHOWN, x);
    char t[32];
    units_duration(num(&x[OS_STEP]), t, sizeof t);
    double bound = num(&x[OS_BOUND]);
    if (whole(&x[OS_OPS]) > 0 && !d->lecture_ops) {
        char mf[32], ms[32], p[32];
        explain_number(num(&x[OS_FLOPS]), mf, sizeof mf);
        units_duration(num(&x[OS_SECONDS]), ms, sizeof ms);
        explain_number(num(&x[OS_PEAK]), p, sizeof p);
        const char *dev = word(&x[OS_DEVICE]);
        ADD(v, "measured: %lld of %lld GEMM ops, %s FLOPs in %s on %s = %.3g of the %s peak %s%s",
            whole(&x[OS_OPS]), whole(&x[OS_GEMMS]), mf, ms, dev[0] ? dev : d->points_from,
            num(&x[OS_EFF]), dtype_name(d->sc.dtype), p,
            d->ev.mfu_from == MFU_MEASURED ? " (the MFU)" : " (M: use it as the MFU)");
        ADD(v, "measured GEMMs: %s FLOPs in %s = %.3g of peak%s", mf, ms, num(&x[OS_EFF]),
            d->ev.mfu_from == MFU_MEASURED ? " (the MFU)" : " (M: as MFU)");
    }
    ADD(v, "op time = max(FLOPs / peak, bytes / bandwidth); their sum %s per step per GPU %s MFU %s %.2f",
        t, d->cs.arrow, d->cs.le, bound);
    ADD(v, "op time = max(FLOPs/peak, bytes/bw); sum %s %s MFU %s %.2f", t, d->cs.arrow, d->cs.le,
        bound);
}

static const struct shown FRAMEWORK_SHOWN[] = {
    {"time.predicted.breakdown[].seconds", PART_DP_COMM},
    {"time.predicted.step_seconds", 0},
    {"time.predicted.framework", 0},
    {"time.predicted.framework_assumes", 0},
    {"time.predicted.framework_derate", 0}};
enum { WS_DP, WS_STEP, WS_NAME, WS_ASSUMES, WS_DERATE };

/* The framework's schedule: what it hides of the data-parallel communication, and the
 * constant its kernels are priced at (src/framework.h). */
static void explain_framework(const struct dash *d, struct variants *v)
{
    FIGURES(d, FRAMEWORK_SHOWN, x);
    char dp[32], step[32];
    units_duration(num(&x[WS_DP]), dp, sizeof dp);
    units_duration(num(&x[WS_STEP]), step, sizeof step);
    /* The framework row's text is its label ("Megatron-LM"), its value the CLI's word. */
    const char *label = x[WS_NAME].text != NULL ? x[WS_NAME].text : word(&x[WS_NAME]);
    double derate = num(&x[WS_DERATE]);
    ADD(v, "%s (%s): data-parallel comm %s exposed of the %s step; kernel time / %.3g", label,
        word(&x[WS_ASSUMES]), dp, step, derate);
    ADD(v, "%s: data-parallel comm %s exposed of the %s step, kernel time / %.3g", label, dp,
        step, derate);
    ADD(v, "%s: dp comm %s of %s", label, dp, step);
}

static const struct shown MODEL_SHOWN[] = {
    {"params.total", 0}, {"params.per_layer", 0}, {"params.embeddings", 0},
    {"params.lm_head", 0}, {"params.active", 0}, {"params.typed", 0}};
enum { MO_TOTAL, MO_LAYER, MO_EMB, MO_HEAD, MO_ACTIVE, MO_TYPED };

static void explain_model(const struct dash *d, struct variants *v)
{
    FIGURES(d, MODEL_SHOWN, x);
    const struct model_arch *m = &d->sc.model;
    char tot[32], layer[32], emb[32], head[32], act[32], rounded[32];
    units_count(num(&x[MO_TOTAL]), tot, sizeof tot);
    units_count(num(&x[MO_LAYER]), layer, sizeof layer);
    units_count(num(&x[MO_EMB]), emb, sizeof emb);
    units_count(num(&x[MO_HEAD]), head, sizeof head);
    units_count(num(&x[MO_ACTIVE]), act, sizeof act);
    /* At 80 columns: the total rounded, as the panels give it. */
    memcpy(rounded, tot, sizeof rounded);
    long long total = whole(&x[MO_TOTAL]), typed = whole(&x[MO_TYPED]);
    char moe[64] = "";
    if (model_is_moe(m))
        snprintf(moe, sizeof moe, "; %s active per token", act);
    else if (typed > 0 && typed != total) {
        /* Rounded, the fitted shape and the count typed print alike: show both exactly. */
        snprintf(tot, sizeof tot, "%lld", total);
        snprintf(moe, sizeof moe, "; 6ND uses the %lld typed", typed);
    }
    ADD(v, "N = %s: %lld layers %s %s + embeddings %s + LM head %s (h = %lld, %lld heads, %lld KV)%s",
        tot, (long long)m->layers, d->cs.times, layer, emb, head, (long long)m->d_model,
        (long long)m->heads, (long long)m->kv_heads, moe);
    ADD(v, "N = %s: %lld layers %s %s + %s + %s%s", tot, (long long)m->layers, d->cs.times, layer,
        emb, head, moe);
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

/* The explanation of an input's row, or NULL; the last row's kept (the focus stays on one
 * slider for many frames: its key is not searched on every frame). */
static explain_fn *explain_of(const struct input *in)
{
    static const struct input *last;
    static explain_fn *fn;
    if (in == last)
        return fn;
    fn = NULL;
    for (size_t i = 0; i < sizeof by_input / sizeof by_input[0] && fn == NULL; i++)
        if (key_listed(by_input[i].keys, in->key))
            fn = by_input[i].fn;
    last = in;
    return fn;
}

static void explain_input(const struct dash *d, struct variants *v)
{
    const struct input *in = slider_input(d->focus);
    explain_fn *fn = explain_of(in);
    if (fn != NULL)
        fn(d, v);
    else
        ADD(v, "%s: %s", in->label, in->help);
}

void explain_line(const struct dash *d, int width, char *buf, size_t n)
{
    struct variants v = {.n = 0, .width = width};
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
        if (slot_fits(&v, i)) {
            pick = i;
            break;
        }
    snprintf(buf, n, "%s", v.text[pick]);
}
