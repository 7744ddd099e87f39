/* measured.c - the scenario's own GEMM shapes, and their measured times from probe points. */
#include "measured.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "model.h"

/* A width as one tensor-parallel rank holds it: rounded up where t does not divide it (the
 * rank with the larger share sets the pace), at least 1: ceil(v - 1e-9), by one truncating
 * conversion (the floor of x > 0) and a compare rather than libm's ceil, which without SSE4.1
 * is some 17 instructions; three widths a GEMM, a dozen GEMMs every evaluation (every key of
 * the dashboard, every layout a plan tries). */
static long width(double v)
{
    const double x = v - 1e-9;
    if (!(x > 0))
        return 1;
    long w = (long)x;
    return (double)w < x ? w + 1 : w;
}

/* label + suffix into g->label (both short literals: "mlp_down" "_moe"). */
static void put_label(struct measured_gemm *g, const char *label, const char *suffix)
{
    size_t a = strlen(label), b = strlen(suffix);
    if (a > sizeof g->label - 1)
        a = sizeof g->label - 1;
    if (b > sizeof g->label - 1 - a)
        b = sizeof g->label - 1 - a;
    memcpy(g->label, label, a);
    memcpy(g->label + a, suffix, b);
    g->label[a + b] = '\0';
}

/* labels: whether to write the label (matching points needs it; the step-time model, which
 * runs for every layout plan searches and on every key of the dashboard, does not: its label
 * is ""). Each field is written once, measured_match's as not matched, rather than the whole
 * struct (mostly the label's bytes) zeroed first, for the same reason. */
static int add(struct measured_gemm *out, int max, int n, bool labels, enum op_kind kind,
               const char *label, const char *suffix, double m, double k, double nn,
               double layers)
{
    if (n >= max || layers <= 0)
        return n;
    struct measured_gemm *g = &out[n];
    g->kind = kind;
    if (labels)
        put_label(g, label, suffix);
    else
        g->label[0] = '\0';
    g->found = false;
    g->pm = g->pn = g->pk = 0;
    g->dtype = DTYPE_FP64; /* enum dtype's 0, as zeroed */
    g->flops_per_s = 0;
    g->m = width(m);
    g->k = width(k);
    g->n = width(nn);
    g->layers = layers;
    return n + 1;
}

static int shapes(const struct scenario *s, struct measured_gemm *out, int max, bool labels)
{
    const struct model_arch *md = &s->model;
    /* The rows of one rank: a micro-batch's share of each sequence under context
     * parallelism. */
    const double T = (double)scenario_micro_batch(s) * (double)s->seq / (double)(s->cp > 1 ? s->cp : 1);
    const double t = (double)s->tp, h = (double)md->d_model;
    const double kd = (double)md->kv_heads * h / (double)md->heads;
    const double moe_layers = (double)model_moe_layers(md);
    const double dense_layers = (double)md->layers - moe_layers;
    const double L = (double)md->layers;
    int n = 0;
    /* The same matrices as layer_ops() and head_ops() in flops.c, (M x K) . (K x N). */
    n = add(out, max, n, labels, OP_QKV, "qkv", "", T, h, (h + 2.0 * kd) / t, L);
    n = add(out, max, n, labels, OP_OUT_PROJ, "out_proj", "", T, h / t, h, L);
    if (moe_layers > 0)
        n = add(out, max, n, labels, OP_ROUTER, "router", "", T, h, (double)md->experts, moe_layers);
    const bool swiglu = model_mlp_gated(md->mlp);
    for (int pass = 0; pass < 2; pass++) {
        double layers = pass == 0 ? dense_layers : moe_layers;
        if (layers <= 0)
            continue;
        double f = pass == 0 ? (double)md->ffn : (double)model_expert_ffn(md);
        /* In a MoE layer each token visits k experts: k x T rows through the MLP, of which a
         * rank runs et/t at f/et wide under the experts' tensor-parallel degree et. */
        double k = pass == 0 ? 1.0 : model_experts_visited(md);
        const double mt = pass == 0 ? t : (double)scenario_etp(s);
        k *= mt / t;
        /* A model with both kinds of MLP layer gets two labels per matrix. */
        const char *suffix = pass == 1 && dense_layers > 0 ? "_moe" : "";
        n = add(out, max, n, labels, OP_MLP_UP, "mlp_up", suffix, k * T, h, f / mt, layers);
        if (swiglu)
            n = add(out, max, n, labels, OP_MLP_GATE, "mlp_gate", suffix, k * T, h, f / mt, layers);
        n = add(out, max, n, labels, OP_MLP_DOWN, "mlp_down", suffix, k * T, f / mt, h, layers);
    }
    n = add(out, max, n, labels, OP_LM_HEAD, "lm_head", "", T, h, (double)md->vocab / t, 1.0);
    return n;
}

int measured_shapes(const struct scenario *s, struct measured_gemm *out, int max)
{
    return shapes(s, out, max, true);
}

int measured_dims(const struct scenario *s, struct measured_gemm *out, int max)
{
    return shapes(s, out, max, false);
}

bool measured_shapes_arg(const struct scenario *s, char *buf, size_t n)
{
    struct measured_gemm g[MEASURED_MAX_GEMMS];
    int ng = measured_shapes(s, g, MEASURED_MAX_GEMMS);
    size_t used = 0;
    if (n == 0)
        return false;
    buf[0] = '\0';
    for (int i = 0; i < ng; i++) {
        /* The probe takes dimensions up to 2^20 and operands up to 2^34 elements: a longer
         * micro-batch is measured with fewer rows (matched by its label all the same). */
        long m = g[i].m;
        double most = MEASURED_ELEMS_MAX / (double)(g[i].n > g[i].k ? g[i].n : g[i].k);
        if ((double)m > most)
            m = (long)most;
        if (m > MEASURED_DIM_MAX)
            m = MEASURED_DIM_MAX;
        int w = snprintf(buf + used, n - used, "%s%s=%ld,%ld,%ld", i ? ";" : "", g[i].label, m,
                         g[i].n, g[i].k);
        if (w < 0 || (size_t)w >= n - used)
            return false;
        used += (size_t)w;
    }
    return true;
}

/* A whole number 1..2^20 of the text [p, end); false on anything else. */
static bool parse_dim(const char *p, const char *end, long *out)
{
    if (p == end)
        return false;
    long v = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (*p - '0');
        if (v > MEASURED_DIM_MAX)
            return false;
    }
    if (v < 1)
        return false;
    *out = v;
    return true;
}

bool measured_parse_name(const char *name, char *label, size_t label_n, long *m, long *n,
                         long *k)
{
    static const char prefix[] = "shape.";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0)
        return false;
    const char *l = name + sizeof prefix - 1;
    const char *dot = strchr(l, '.');
    if (!dot || dot == l || (size_t)(dot - l) >= label_n || strchr(dot + 1, '.'))
        return false;
    const char *d = dot + 1;
    const char *x1 = strchr(d, 'x');
    const char *x2 = x1 ? strchr(x1 + 1, 'x') : NULL;
    if (!x1 || !x2 || !parse_dim(d, x1, m) || !parse_dim(x1 + 1, x2, n) ||
        !parse_dim(x2 + 1, x2 + 1 + strlen(x2 + 1), k))
        return false;
    memcpy(label, l, (size_t)(dot - l));
    label[dot - l] = '\0';
    return true;
}

/* The point for gemm g: valid, same label; the exact shape first, else the largest. */
static const struct probe_point *find_point(const struct points_doc *d,
                                            const struct measured_gemm *g, long *pm, long *pn,
                                            long *pk)
{
    const struct probe_point *best = NULL;
    bool best_exact = false;
    for (size_t i = 0; d && i < d->n; i++) {
        const struct probe_point *p = &d->points[i];
        char label[MEASURED_LABEL_MAX];
        long m, n, k;
        if (!p->valid || !(p->flops_per_s > 0) || !isfinite(p->flops_per_s) ||
            !measured_parse_name(p->name, label, sizeof label, &m, &n, &k) ||
            strcmp(label, g->label) != 0)
            continue;
        bool exact = m == g->m && n == g->n && k == g->k;
        if (best && (best_exact || (!exact && p->flops <= best->flops)))
            continue;
        best = p;
        best_exact = exact;
        *pm = m;
        *pn = n;
        *pk = k;
    }
    return best;
}

/* The next word of letters and digits at *p (lower case) into w; false at the end. */
static bool next_word(const char **p, char *w, size_t n)
{
    const char *c = *p;
    while (*c != '\0' && !isalnum((unsigned char)*c))
        c++;
    if (*c == '\0')
        return false;
    size_t k = 0;
    for (; isalnum((unsigned char)*c); c++)
        if (k + 1 < n)
            w[k++] = (char)tolower((unsigned char)*c);
    w[k] = '\0';
    *p = c;
    return true;
}

static bool has_word(const char *text, const char *word)
{
    char w[64];
    for (const char *p = text; next_word(&p, w, sizeof w);)
        if (strcmp(w, word) == 0)
            return true;
    return false;
}

/* Case-insensitive equality of the first n bytes (both strings at least that long or equal). */
static bool same_text(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
        if (a[i] == '\0')
            return true;
    }
    return true;
}

bool measured_device_matches(const struct probe_device *dev, const struct gpu_spec *g)
{
    if (dev->name[0] == '\0')
        return false;
    /* A spec saved from these points (points_to_gpu_spec): "NAME (measured)", NAME cut to
     * 52 bytes. */
    static const char tag[] = " (measured)";
    size_t gl = strlen(g->name), tl = sizeof tag - 1;
    size_t base = gl >= tl && strcmp(g->name + gl - tl, tag) == 0 ? gl - tl : gl;
    size_t dl = strlen(dev->name);
    if (base > 0 && (dl == base || (base == 52 && dl > 52)) && same_text(g->name, dev->name, base))
        return true;
    if (strcmp(dev->kind, "cpu") == 0)
        return false;
    char model[64] = "", w[64];
    for (const char *p = g->name; next_word(&p, w, sizeof w);)
        if (strpbrk(w, "0123456789") != NULL) {
            snprintf(model, sizeof model, "%s", w);
            break;
        }
    if (model[0] == '\0' || !has_word(dev->name, model))
        return false;
    static const char *const variants[] = {"pcie", "nvl"};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (has_word(dev->name, variants[i]) != has_word(g->name, variants[i]))
            return false;
    if (dev->memory_bytes > 0 && g->memory_bytes > 0) {
        double r = dev->memory_bytes / g->memory_bytes;
        if (r < 0.8 || r > 1.25)
            return false;
    }
    return true;
}

void measured_match(const struct scenario *s, const struct analysis *a,
                    const struct points_doc *d, bool any_device, struct measured *out)
{
    memset(out, 0, sizeof *out);
    out->n_gemms = measured_shapes(s, out->gemm, MEASURED_MAX_GEMMS);
    out->n_ops = a->n_ops;
    out->peak = gpu_peak(&s->gpu, s->dtype);
    out->point_dtype = s->dtype;
    if (d)
        snprintf(out->device, sizeof out->device, "%s", d->device.name);
    if (d && !measured_device_matches(&d->device, &s->gpu)) {
        /* A CPU's fp32 GEMM rate over an H100's bf16 peak is no MFU (issue 8: 0.000109,
         * "1802.8 years"): points apply to the device they were measured on. */
        out->other_device = true;
        snprintf(out->device_why, sizeof out->device_why,
                 "the points were measured on %s%s, not on the scenario's %s",
                 d->device.name[0] ? d->device.name : "an unnamed device",
                 strcmp(d->device.kind, "cpu") == 0 ? " (a CPU)" : "",
                 s->gpu.name[0] ? s->gpu.name : s->gpu.id);
        if (!any_device)
            d = NULL;
    }
    for (int i = 0; i < out->n_gemms; i++) {
        struct measured_gemm *g = &out->gemm[i];
        const struct probe_point *p = find_point(d, g, &g->pm, &g->pn, &g->pk);
        if (!p)
            continue;
        g->found = true;
        g->dtype = p->dtype;
        g->flops_per_s = p->flops_per_s;
        out->n_found++;
        if (g->pm != g->m || g->pn != g->n || g->pk != g->k)
            out->shape_differs = true;
        if (p->dtype != s->dtype && !out->dtype_differs) {
            out->dtype_differs = true;
            out->point_dtype = p->dtype;
        }
    }
    for (int o = 0; o < a->n_ops && o < ANALYSIS_MAX_OPS; o++) {
        const struct op *op = &a->ops[o];
        out->op_seconds[o] = -1;
        /* An op's FLOPs split over its shapes (a dense and a MoE MLP) as their forward
         * FLOPs do: 2 M N K per run, times the layers that run it. */
        double weight = 0, rate_sum = 0;
        bool all = true;
        int parts = 0;
        for (int i = 0; i < out->n_gemms; i++) {
            const struct measured_gemm *g = &out->gemm[i];
            if (g->kind != op->kind)
                continue;
            parts++;
            double w = 2.0 * (double)g->m * (double)g->n * (double)g->k * g->layers;
            weight += w;
            if (!g->found)
                all = false;
            else
                rate_sum += w / g->flops_per_s;
        }
        if (parts > 0)
            out->n_gemm_ops++;
        if (parts == 0 || !all || !(weight > 0) || !(op->flops > 0))
            continue;
        double sec = op->flops * rate_sum / weight;
        if (!isfinite(sec) || !(sec > 0))
            continue;
        out->op_seconds[o] = sec;
        out->n_ops_measured++;
        out->flops += op->flops;
        out->seconds += sec;
    }
    if (out->seconds > 0 && out->peak > 0)
        out->efficiency = out->flops / out->seconds / out->peak;
    if (!isfinite(out->efficiency))
        out->efficiency = 0;
}

/* Each count, figure and flag, not the 2 KB of arrays they bound: an evaluation without
 * points (every key of the dashboard) zeroed them all, some 250 instructions, for nothing
 * that is read. A field added to struct measured is set here too. */
void measured_clear(struct measured *m)
{
    m->n_gemms = m->n_found = m->n_ops = m->n_gemm_ops = m->n_ops_measured = 0;
    m->flops = m->seconds = m->peak = m->efficiency = 0;
    m->shape_differs = m->dtype_differs = m->other_device = false;
    m->point_dtype = DTYPE_FP64; /* enum dtype's 0, as zeroed */
    m->device[0] = m->device_why[0] = '\0';
}

bool measured_mfu(const struct measured *m, double *mfu, char *why, size_t n)
{
    if (m->other_device && m->n_ops_measured == 0) {
        snprintf(why, n, "%s", m->device_why);
        return false;
    }
    if (m->n_ops_measured == 0) {
        snprintf(why, n, "no shape points match this scenario's GEMMs");
        return false;
    }
    if (!(m->peak > 0)) {
        snprintf(why, n, "the GPU has no peak for the scenario's dtype");
        return false;
    }
    if (!(m->efficiency > 0) || m->efficiency > 1) {
        snprintf(why, n,
                 "measured efficiency %.3g is not in (0, 1]: the points come from a device "
                 "faster than the scenario's GPU",
                 m->efficiency);
        return false;
    }
    *mfu = m->efficiency;
    return true;
}

void measured_describe(const struct measured *m, const struct scenario *s, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (m->n_ops_measured == 0)
        return;
    char extra[256] = "";
    if (m->shape_differs)
        snprintf(extra, sizeof extra, "; measured at other shapes than the scenario's");
    if (m->dtype_differs) {
        size_t l = strlen(extra);
        snprintf(extra + l, sizeof extra - l, "; %s points against the %s peak",
                 dtype_name(m->point_dtype), dtype_name(s->dtype));
    }
    if (m->other_device) {
        size_t l = strlen(extra);
        snprintf(extra + l, sizeof extra - l, "; another device than the %s",
                 s->gpu.name[0] ? s->gpu.name : s->gpu.id);
    }
    snprintf(buf, n, "measured GEMM efficiency %.3g of the %s peak (%d of %d GEMM ops) on %s%s",
             m->efficiency, dtype_name(s->dtype), m->n_ops_measured, m->n_gemm_ops,
             m->device[0] ? m->device : "the measured device", extra);
}
