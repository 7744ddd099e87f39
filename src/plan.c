/* plan.c - searching layouts by predicted step time. */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "evaluation.h"
#include "inputs.h"
#include "report.h"
#include "scenario_check.h"
#include "units.h"

/* Bounds that keep the search to a fraction of a second: context parallelism to 16 (Llama
 * 3's 128K-token stage used 16, Dubey et al. 2024 section 3.3), expert parallelism to 64. */
#define PLAN_CP_MAX 16
#define PLAN_EP_MAX 64

/* Whether keep() would take an entry of this key: the list is not full, or the key beats its
 * last. */
static bool would_keep(const struct plan *list, int n, int cap, double key,
                       double (*key_of)(const struct plan *))
{
    return n < cap || key < key_of(&list[n - 1]);
}

/* Keeps list[0..*n) sorted by key ascending, at most cap entries. */
static void keep(struct plan *list, int *n, int cap, const struct plan *p, double key,
                 double (*key_of)(const struct plan *))
{
    if (!would_keep(list, *n, cap, key, key_of))
        return;
    int i = *n < cap ? (*n)++ : cap - 1;
    while (i > 0 && key_of(&list[i - 1]) > key) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = *p;
}

static double by_step(const struct plan *p)
{
    return p->pred.step_seconds;
}

static double by_memory(const struct plan *p)
{
    return p->memory_total;
}

struct search {
    struct plan_result *out;
    struct plan *misses;     /* the smallest layouts that do not fit (predicted at the end) */
    int n_misses;
    int top;
    struct evaluation *ev;   /* one layout at a time, by stages */
    /* The scenario searched from, when it passes scenario_validate (then a layout's ranges are
     * checked only where it differs); NULL otherwise. */
    const struct scenario *base;
};

/* The first and last stages' layers that make L split over pp stages when it does not
 * evenly: the stages between take ceil(L / pp) each and the two ends share the rest equally
 * (Llama 3 405B: 126 layers on 16 stages, 8 between and 7 at each end); 0 when no such split
 * exists. */
static int64_t plan_uneven_edge(int64_t L, int64_t pp)
{
    if (pp < 3)
        return 0;
    int64_t c = (L + pp - 1) / pp, rest = L - c * (pp - 2);
    return rest > 0 && rest % 2 == 0 && rest / 2 <= c ? rest / 2 : 0;
}

/* Memory first: the FLOPs and the prediction only for a layout that fits (or, at the end, for
 * the closest misses that are shown). */
static void try_layout(struct search *st, const struct scenario *s)
{
    char err[256];
    if (st->base != NULL ? !scenario_validate_from(s, st->base, err, (int)sizeof err)
                         : !scenario_validate(s, err, (int)sizeof err))
        return;
    evaluation_memory(s, st->ev);
    st->out->searched++;
    const double total = st->ev->an.memory.total;
    if (!st->ev->an.memory.fits) {
        if (!would_keep(st->misses, st->n_misses, st->top, total, by_memory))
            return;
        struct plan p = {.s = *s, .memory_total = total, .fits = false};
        keep(st->misses, &st->n_misses, st->top, &p, total, by_memory);
        return;
    }
    st->out->fitting++;
    evaluation_step(s, st->ev);
    const struct prediction pred = st->ev->pred;
    if (!would_keep(st->out->plans, st->out->n, st->top, pred.step_seconds, by_step))
        return;
    struct plan p = {.s = *s, .pred = pred, .memory_total = total, .fits = true};
    cost_compute(s, p.pred.days * 86400.0, &p.cost);
    keep(st->out->plans, &st->out->n, st->top, &p, pred.step_seconds, by_step);
}

static const char *const axis_keys[PLAN_AXES] = {
    [PLAN_TP] = "tp",     [PLAN_PP] = "pp",     [PLAN_VPP] = "vpp",
    [PLAN_CP] = "cp",     [PLAN_EP] = "ep",     [PLAN_ETP] = "etp",   [PLAN_SP] = "sp",
    [PLAN_ZERO] = "zero", [PLAN_MICRO_BATCH] = "micro_batch", [PLAN_RECOMPUTE] = "recompute",
};

const char *plan_axis_key(enum plan_axis a)
{
    return (unsigned)a < PLAN_AXES ? axis_keys[a] : "?";
}

int64_t plan_axis_get(const struct scenario *s, enum plan_axis a)
{
    switch (a) {
    case PLAN_TP: return s->tp;
    case PLAN_PP: return s->pp;
    case PLAN_VPP: return s->vpp;
    case PLAN_CP: return s->cp;
    case PLAN_EP: return s->ep;
    case PLAN_ETP: return s->etp;
    case PLAN_SP: return s->sp ? 1 : 0;
    case PLAN_ZERO: return s->zero;
    case PLAN_MICRO_BATCH: return s->micro_batch;
    case PLAN_RECOMPUTE: return (int64_t)s->recompute;
    case PLAN_AXES: break;
    }
    return 0;
}

/* An axis's values in the search: the fixed one alone, else lo to hi; free when not fixed
 * (the search's own bounds and shortcuts apply only to free axes). */
static bool is_free(const struct plan_fixed *fx, enum plan_axis a)
{
    return fx == NULL || !fx->set[a];
}

static int64_t first_of(const struct plan_fixed *fx, enum plan_axis a, int64_t lo)
{
    return is_free(fx, a) ? lo : fx->value[a];
}

static int64_t last_of(const struct plan_fixed *fx, enum plan_axis a, int64_t hi)
{
    return is_free(fx, a) ? hi : fx->value[a];
}

/* The inner axes of one (tp, cp, pp, ep) layout with per_rank sequences per data-parallel
 * rank: micro-batch, interleaving, ZeRO, sp and recomputation. */
static void search_inner(struct search *st, struct scenario *s, const struct plan_fixed *fx,
                         int64_t dp, int64_t per_rank)
{
    static const enum recompute recomputes[] = {RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL};
    const int n_re = (int)(sizeof recomputes / sizeof recomputes[0]);
    const int64_t L = s->model.layers, tp = s->tp, pp = s->pp, cp = s->cp;
    const int64_t edge = s->first_stage_layers;
    /* A fixed micro-batch of auto (0) is the whole batch per rank. */
    int64_t mb0 = first_of(fx, PLAN_MICRO_BATCH, 1), mb1 = last_of(fx, PLAN_MICRO_BATCH, 16);
    if (mb0 == 0)
        mb0 = mb1 = per_rank;
    for (int64_t mb = mb0; mb <= mb1 && mb <= per_rank; mb *= 2) {
        if (per_rank % mb != 0)
            continue;
        for (int64_t vpp = first_of(fx, PLAN_VPP, 1); vpp <= last_of(fx, PLAN_VPP, 4); vpp *= 2) {
            bool splits = edge > 0 ? edge >= vpp : L % (pp * vpp) == 0;
            if (vpp > 1 && (pp == 1 || !splits || (per_rank / mb) % pp != 0))
                continue;
            int z1 = (int)last_of(fx, PLAN_ZERO, dp * cp > 1 ? 3 : 0);
            for (int zero = (int)first_of(fx, PLAN_ZERO, 0); zero <= z1; zero++) {
                int sp1 = (int)last_of(fx, PLAN_SP, tp > 1 ? 1 : 0);
                for (int sp = (int)first_of(fx, PLAN_SP, 0); sp <= sp1; sp++) {
                    if (sp && tp == 1)
                        continue;
                    for (int r = 0; r < (is_free(fx, PLAN_RECOMPUTE) ? n_re : 1); r++) {
                        enum recompute re = is_free(fx, PLAN_RECOMPUTE)
                                                ? recomputes[r]
                                                : (enum recompute)fx->value[PLAN_RECOMPUTE];
                        /* FlashAttention already recomputes the attention core: selective
                         * recomputation would repeat "none". */
                        if (is_free(fx, PLAN_RECOMPUTE) && re == RECOMPUTE_SELECTIVE && s->flash)
                            continue;
                        s->micro_batch = mb;
                        s->vpp = vpp;
                        s->zero = zero;
                        s->sp = sp != 0;
                        s->recompute = re;
                        try_layout(st, s);
                    }
                }
            }
        }
    }
}

/* The expert axes of one (tp, cp, pp) layout: expert parallelism in powers of two dividing the
 * experts and the stage's ranks over the expert tp, and that tp as tp's (auto) or, with
 * tensor parallelism, folded to 1 (Megatron-core's MoE parallel folding: whole experts, no
 * tensor-parallel collectives in the MoE layers), or as given. */
static void search_experts(struct search *st, struct scenario *s, const struct plan_fixed *fx,
                           int64_t tp, int64_t cp, int64_t pp, int64_t dp)
{
    const bool moe = model_is_moe(&s->model);
    const int64_t E = s->model.experts;
    const int64_t etps[2] = {0, 1};
    const int n_etp = !is_free(fx, PLAN_ETP) ? 1 : moe && tp > 1 ? 2 : 1;
    for (int f = 0; f < n_etp; f++) {
        const int64_t etp = first_of(fx, PLAN_ETP, etps[f]);
        const int64_t et = etp > 0 ? etp : tp;
        const int64_t ep1 = last_of(fx, PLAN_EP, moe ? PLAN_EP_MAX : 1);
        for (int64_t ep = first_of(fx, PLAN_EP, 1); ep <= ep1; ep *= 2) {
            if (ep < 1 || (ep > 1 && (E % ep != 0 || (tp * dp * cp) % (ep * et) != 0)))
                continue;
            s->tp = tp;
            s->cp = cp;
            s->pp = pp;
            s->ep = ep;
            s->etp = etp;
            search_inner(st, s, fx, dp, s->batch / dp);
        }
    }
}

/* The outer axes: tensor, context, pipeline and expert parallelism. */
static void search_outer(struct search *st, const struct scenario *base,
                         const struct plan_fixed *fx)
{
    struct predict_node node;
    predict_node_of(base, &node);
    const int64_t G = base->gpus, L = base->model.layers, H = base->model.heads;
    /* Tensor parallelism past two NVLink domains only loses (its all-reduces go over the
     * network every layer). */
    const int64_t tp_max = (int64_t)fmax(2.0 * node.domain, 1.0);
    struct scenario s = *base;
    const int64_t tp1 = last_of(fx, PLAN_TP, tp_max < G ? tp_max : G);
    for (int64_t tp = first_of(fx, PLAN_TP, 1); tp <= tp1; tp++) {
        if (tp < 1 || G % tp != 0 || H % tp != 0)
            continue;
        /* Context parallelism in powers of two up to PLAN_CP_MAX, where the sequence splits
         * into 2 x cp chunks (Megatron-LM) of PREDICT_CP_TOKENS_MIN tokens or more. */
        const int64_t cp1 = last_of(fx, PLAN_CP, PLAN_CP_MAX < G / tp ? PLAN_CP_MAX : G / tp);
        for (int64_t cp = first_of(fx, PLAN_CP, 1); cp <= cp1; cp *= 2) {
            if (cp < 1 || (G / tp) % cp != 0 ||
                (cp > 1 && (base->seq % (2 * cp) != 0 ||
                            (is_free(fx, PLAN_CP) && base->seq / cp < PREDICT_CP_TOKENS_MIN))))
                continue;
            const int64_t pp1 = last_of(fx, PLAN_PP, G / (tp * cp) < L ? G / (tp * cp) : L);
            for (int64_t pp = first_of(fx, PLAN_PP, 1); pp <= pp1; pp++) {
                if (pp < 1 || (G / (tp * cp)) % pp != 0)
                    continue;
                /* Layers that do not split over pp: uneven first and last stages (Megatron's
                 * --decoder-first/last-pipeline-num-layers) where they make the split. */
                int64_t edge = L % pp == 0 ? 0 : plan_uneven_edge(L, pp);
                if (L % pp != 0 && edge == 0)
                    continue;
                s.first_stage_layers = edge;
                s.last_stage_layers = edge;
                s.account_embedding = false; /* the search makes its own split */
                s.account_loss = false;
                s.pp_layout[0] = '\0';
                int64_t dp = G / (tp * pp * cp);
                if (base->batch % dp != 0)
                    continue;
                search_experts(st, &s, fx, tp, cp, pp, dp);
            }
        }
    }
}

void plan_search(const struct scenario *base, int top, struct plan_result *out)
{
    plan_search_fixed(base, NULL, top, out);
}

void plan_search_fixed(const struct scenario *base, const struct plan_fixed *fixed, int top,
                       struct plan_result *out)
{
    memset(out, 0, sizeof *out);
    if (fixed != NULL)
        out->fixed = *fixed;
    if (top < 1)
        top = 1;
    if (top > PLAN_TOP_MAX)
        top = PLAN_TOP_MAX;
    struct search st = {out, calloc((size_t)top, sizeof(struct plan)), 0, top,
                        malloc(sizeof(struct evaluation)), NULL};
    if (st.misses == NULL || st.ev == NULL) {
        free(st.misses);
        free(st.ev);
        return;
    }
    char err[256];
    st.base = scenario_validate(base, err, (int)sizeof err) ? base : NULL;
    search_outer(&st, base, fixed);
    /* Fewer fitting layouts than asked for: the closest misses after them. */
    for (int i = 0; i < st.n_misses && out->n < top; i++) {
        struct plan *p = &out->plans[out->n++];
        *p = st.misses[i];
        evaluation_memory(&p->s, st.ev);
        evaluation_step(&p->s, st.ev);
        p->pred = st.ev->pred;
        cost_compute(&p->s, p->pred.days * 86400.0, &p->cost);
    }
    free(st.misses);
    free(st.ev);
}

static const char *const BY_NAMES[PLAN_BY_COUNT] = {"time", "cost", "energy"};

const char *plan_by_name(enum plan_by by)
{
    return (int)by >= 0 && by < PLAN_BY_COUNT ? BY_NAMES[by] : "?";
}

bool plan_by_parse(const char *s, enum plan_by *out)
{
    for (int i = 0; i < PLAN_BY_COUNT; i++)
        if (strcmp(s, BY_NAMES[i]) == 0) {
            *out = (enum plan_by)i;
            return true;
        }
    return false;
}

/* GPU-seconds of the whole run: what the cost and the energy are proportional to. */
static double by_gpu_seconds(const struct plan *p)
{
    return (double)p->s.gpus * p->pred.step_seconds;
}

void plan_search_by(const struct scenario *base, const struct plan_fixed *fixed, int top,
                    enum plan_by by, struct plan_result *out)
{
    if (by == PLAN_BY_TIME) {
        plan_search_fixed(base, fixed, top, out);
        return;
    }
    memset(out, 0, sizeof *out);
    if (fixed != NULL)
        out->fixed = *fixed;
    top = top < 1 ? 1 : top > PLAN_TOP_MAX ? PLAN_TOP_MAX : top;
    struct plan_result *one = malloc(sizeof *one);
    struct plan *misses = calloc((size_t)top, sizeof *misses);
    int n_misses = 0;
    if (one == NULL || misses == NULL) {
        free(one);
        free(misses);
        return;
    }
    struct scenario s = *base;
    for (int64_t g = base->gpus; g >= 1; g = g % 2 == 0 ? g / 2 : 0) {
        s.gpus = g;
        plan_search_fixed(&s, fixed, top, one);
        out->searched += one->searched;
        out->fitting += one->fitting;
        for (int i = 0; i < one->n; i++) {
            const struct plan *p = &one->plans[i];
            if (p->fits)
                keep(out->plans, &out->n, top, p, by_gpu_seconds(p), by_gpu_seconds);
            else
                keep(misses, &n_misses, top, p, by_memory(p), by_memory);
        }
    }
    for (int i = 0; i < n_misses && out->n < top; i++)
        out->plans[out->n++] = misses[i];
    free(one);
    free(misses);
}

void plan_flags(const struct plan *p, char *buf, size_t n)
{
    const struct scenario *s = &p->s;
    snprintf(buf, n,
             "--gpus %lld --tp %lld --pp %lld --vpp %lld --cp %lld --ep %lld --sp %s --zero %d "
             "--micro-batch %lld --recompute %s --mfu predicted",
             (long long)s->gpus, (long long)s->tp, (long long)s->pp, (long long)s->vpp,
             (long long)s->cp, (long long)s->ep, s->sp ? "on" : "off", s->zero,
             (long long)s->micro_batch, recompute_name(s->recompute));
    size_t used = strlen(buf);
    if (s->etp > 0 && used < n) {
        snprintf(buf + used, n - used, " --etp %lld", (long long)s->etp);
        used = strlen(buf);
    }
    if (scenario_uneven_stages(s) && used < n)
        snprintf(buf + used, n - used,
                 " --decoder-first-pipeline-num-layers %lld --decoder-last-pipeline-num-layers %lld",
                 (long long)s->first_stage_layers, (long long)s->last_stage_layers);
}
