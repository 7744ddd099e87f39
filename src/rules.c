/* rules.c - what one input allows given the others: the checks, give-way rules and step
 * bounds the registry's rows name (src/rules.h). */
#include "rules.h"

#include <math.h>
#include <stdio.h>

#include "units.h"

/* One problem: the input at fault and what is wrong, without a flag's spelling (the dashboard
 * names inputs by their labels, the command line by their flags). */
#define FAIL(k, ...)                                                                             \
    do {                                                                                         \
        *key = (k);                                                                              \
        snprintf(msg, n, __VA_ARGS__);                                                           \
        return false;                                                                            \
    } while (0)

/* Whether given first and last stages leave the stages between an equal share of at least
 * one layer each (and there is a pipeline). */
static bool uneven_split_ok(const struct scenario *s)
{
    int64_t mid, rest;
    scenario_middle_stages(s, &mid, &rest);
    return s->pp >= 2 && rest >= 0 && (mid == 0 ? rest == 0 : rest >= mid && rest % mid == 0);
}

/* Whether the embedding or the loss is counted as a layer of the split
 * (--account-for-embedding/loss-in-pipeline-split). */
static bool accounted(const struct scenario *s)
{
    return s->account_embedding || s->account_loss;
}

/* The layers with the embedding and the loss counted in, as Megatron-core splits them. */
static int64_t accounted_layers(const struct scenario *s)
{
    return s->model.layers + (s->account_embedding ? 1 : 0) + (s->account_loss ? 1 : 0);
}

/* Megatron-core's rule for that split: the counted layers an equal share of every stage's
 * vpp chunks, with a layer left on the first and the last stage. */
static bool accounted_split_ok(const struct scenario *s, int64_t vpp)
{
    const int64_t chunks = s->pp * (vpp > 1 ? vpp : 1);
    return s->pp >= 2 && accounted_layers(s) % chunks == 0 && accounted_layers(s) / s->pp >= 2;
}

/* The fewest layers a stage holds (interleaving needs vpp of them). */
static int64_t fewest_stage_layers(const struct scenario *s)
{
    if (!scenario_uneven_stages(s))
        return s->pp > 0 ? s->model.layers / s->pp : 0;
    int64_t least = s->model.layers;
    for (int64_t i = 0; i < s->pp; i++)
        if (scenario_stage_layers(s, i) < least)
            least = scenario_stage_layers(s, i);
    return least;
}

/* ---- checks -------------------------------------------------------------------------------- */

bool rules_check_model(const struct scenario *s, const char **key, char *msg, size_t n)
{
    char merr[256];
    if (!model_validate(&s->model, merr, (int)sizeof merr))
        FAIL("model", "%s: %s", s->model.id[0] ? s->model.id : "(custom)", merr);
    return true;
}

/* A degree of the layout: at most the GPUs, and dividing them. */
static bool degree_fits(const struct scenario *s, int64_t d, const char **key, char *msg,
                        size_t n)
{
    if (d > s->gpus)
        FAIL(*key, "must be between 1 and the GPU count (%lld), got %lld", (long long)s->gpus,
             (long long)d);
    if (s->gpus % d != 0)
        FAIL(*key, "%lld does not divide the %lld GPUs", (long long)d, (long long)s->gpus);
    return true;
}

/* The degree at fault is named, as rooftop infer names --tp: the model's own bound first,
 * then a degree that alone does not divide the GPUs; the GPU count only when each does and
 * their product does not (1000 GPUs at tp 8, pp 4, cp 2: cp's check). */
bool rules_check_tp(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (s->tp <= s->gpus && s->model.heads % s->tp != 0)
        FAIL("tp", "%lld does not divide the %lld attention heads", (long long)s->tp,
             (long long)s->model.heads);
    return degree_fits(s, s->tp, key, msg, n);
}

bool rules_check_pp(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (s->pp <= s->gpus && s->pp > s->model.layers)
        FAIL("pp", "%lld pipeline stages for %lld layers", (long long)s->pp,
             (long long)s->model.layers);
    return degree_fits(s, s->pp, key, msg, n);
}

bool rules_check_cp(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (!degree_fits(s, s->cp, key, msg, n))
        return false;
    if (scenario_dp(s) == 0) {
        if (s->cp > 1)
            FAIL("gpus", "%lld is not a multiple of tp x pp x cp = %lld x %lld x %lld",
                 (long long)s->gpus, (long long)s->tp, (long long)s->pp, (long long)s->cp);
        FAIL("gpus", "%lld is not a multiple of tp x pp = %lld", (long long)s->gpus,
             (long long)(s->tp * s->pp));
    }
    /* Megatron-LM's context parallelism splits each sequence into 2 x cp chunks and gives rank
     * r chunks r and 2cp-1-r, so that every rank has an equal share of causal attention's work
     * (get_batch_on_this_cp_rank views the sequence as 2 x cp equal chunks). */
    if (s->cp > 1 && s->seq % (2 * s->cp) != 0)
        FAIL("cp", "the %lld-token sequence does not split into 2 x cp = %lld equal chunks "
                   "(Megatron-LM's load-balanced causal split)",
             (long long)s->seq, (long long)(2 * s->cp));
    return true;
}

bool rules_check_ep(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (s->ep > s->gpus)
        FAIL("ep", "must be between 1 and the GPU count (%lld), got %lld", (long long)s->gpus,
             (long long)s->ep);
    /* No MoE layer: experts <= 1, or every layer kept dense (dense_layers = layers). */
    if (s->ep > 1 && model_moe_layers(&s->model) == 0)
        FAIL("ep", "%lld expert-parallel ranks for a dense model (no routed experts%s)",
             (long long)s->ep, s->model.experts > 1 ? ": all its layers are dense" : "");
    if (s->ep > 1 && s->model.experts % s->ep != 0)
        FAIL("ep", "%lld does not divide the %lld routed experts", (long long)s->ep,
             (long long)s->model.experts);
    /* Megatron-core (parallel_state.initialize_model_parallel, MoE parallel folding) raises
     * unless the world divides into expert tensor x expert x pipeline parallel: a pipeline
     * stage's tp x cp x dp ranks regrouped as etp x ep x edp for the expert layers. */
    if (s->ep > 1 && scenario_expert_dp(s) == 0)
        FAIL("ep", "%lld x expert tp %lld does not divide tensor x context x data parallel = "
                   "%lld x %lld x %lld",
             (long long)s->ep, (long long)scenario_etp(s), (long long)s->tp, (long long)s->cp,
             (long long)scenario_dp(s));
    /* Megatron-LM (TransformerConfig): "When using expert parallelism and tensor parallelism,
     * sequence parallelism must be used" (the dispatcher routes each rank's own tokens). */
    if (s->ep > 1 && s->tp > 1 && !s->sp)
        FAIL("ep", "%lld with tensor parallelism needs sequence parallelism on (Megatron-LM)",
             (long long)s->ep);
    return true;
}

/* The expert tensor-parallel degree: within the GPUs, dividing the expert width, and only
 * for a model with routed experts (auto always is). */
bool rules_check_etp(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (s->etp <= 0)
        return true;
    if (model_moe_layers(&s->model) == 0)
        FAIL("etp", "%lld expert tensor-parallel ranks for a dense model (no routed experts)",
             (long long)s->etp);
    if (s->etp > s->gpus)
        FAIL("etp", "must be between 1 and the GPU count (%lld), got %lld", (long long)s->gpus,
             (long long)s->etp);
    if (model_expert_ffn(&s->model) % s->etp != 0)
        FAIL("etp", "%lld does not divide the experts' hidden width %lld", (long long)s->etp,
             (long long)model_expert_ffn(&s->model));
    if (scenario_expert_dp(s) == 0)
        FAIL("etp", "%lld x ep %lld does not divide tensor x context x data parallel = %lld x "
                    "%lld x %lld",
             (long long)s->etp, (long long)(s->ep > 1 ? s->ep : 1), (long long)s->tp,
             (long long)s->cp, (long long)scenario_dp(s));
    return true;
}

/* The micro-batch within the batch, and the batch split over the data-parallel ranks (the
 * layout's levels have checked that there are ranks). */
bool rules_check_micro_batch(const struct scenario *s, const char **key, char *msg, size_t n)
{
    int64_t dp = scenario_dp(s);
    if (s->micro_batch > s->batch)
        FAIL("micro_batch", "must be between 1 and the batch (%lld), got %lld",
             (long long)s->batch, (long long)s->micro_batch);
    if (s->micro_batch == 0 && s->batch % dp != 0)
        FAIL("batch", "%lld sequences do not split over %lld data-parallel ranks",
             (long long)s->batch, (long long)dp);
    if (scenario_accum_steps(s) == 0)
        FAIL("batch", "%lld is not a multiple of micro-batch %lld x data-parallel ranks %lld",
             (long long)s->batch, (long long)scenario_micro_batch(s), (long long)dp);
    return true;
}

bool rules_check_vpp(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (s->vpp > s->model.layers)
        FAIL("vpp", "must be between 1 and the %lld layers, got %lld", (long long)s->model.layers,
             (long long)s->vpp);
    if (s->vpp > 1 && s->pp == 1)
        FAIL("vpp", "%lld virtual stages need pipeline parallelism (pp above 1)",
             (long long)s->vpp);
    /* (With the embedding and loss counted in, or uneven stages: rules_check_stages.) */
    if (s->vpp > 1 && !accounted(s) && !scenario_uneven_stages(s) &&
        s->model.layers % (s->pp * s->vpp) != 0)
        FAIL("vpp", "%lld layers do not split into pp %lld x vpp %lld chunks (counting the "
                    "embedding and loss in the split, or uneven first and last stages, may)",
             (long long)s->model.layers, (long long)s->pp, (long long)s->vpp);
    /* Megatron-LM's interleaved schedule runs micro-batches in groups of pp. */
    if (s->vpp > 1 && scenario_accum_steps(s) % s->pp != 0)
        FAIL("vpp", "the interleaved schedule needs micro-batches per step (%lld) to be a "
                    "multiple of pp %lld",
             (long long)scenario_accum_steps(s), (long long)s->pp);
    return true;
}

/* The embedding or the loss counted as a layer: a pipeline whose stages' chunks take an equal
 * share of the counted layers (Megatron-core's get_num_layers_to_build asserts it), and never
 * with given first or last stages (its TransformerConfig refuses both). */
static bool check_accounted(const struct scenario *s, const char **key, char *msg, size_t n)
{
    const char *which = s->account_embedding ? "account_for_embedding_in_pipeline_split"
                                             : "account_for_loss_in_pipeline_split";
    if (s->first_stage_layers > 0 || s->last_stage_layers > 0)
        FAIL(which, "cannot be on with the first or last stage's layers given (Megatron-LM "
                    "takes one or the other)");
    if (s->pp < 2)
        FAIL(which, "counts a layer of the pipeline split: it needs pipeline parallelism (pp "
                    "above 1)");
    const char *counted = !s->account_loss        ? "the embedding"
                          : !s->account_embedding ? "the loss"
                                                  : "the embedding and the loss";
    if (!accounted_split_ok(s, 1))
        FAIL(which, "%lld layers and %s (%lld counted) do not split into pp %lld stages of 2 or "
                    "more",
             (long long)s->model.layers, counted, (long long)accounted_layers(s), (long long)s->pp);
    if (!accounted_split_ok(s, s->vpp))
        FAIL("vpp", "%lld layers and %s (%lld counted) do not split into pp %lld x vpp %lld "
                    "chunks",
             (long long)s->model.layers, counted, (long long)accounted_layers(s), (long long)s->pp,
             (long long)s->vpp);
    return true;
}

/* A pipeline layout (Megatron-core's PipelineParallelLayerLayout.validate_layer_layout): pp x
 * vpp chunks holding the model's decoder layers, the embedding in the first and the loss in
 * the last, the MTP layers in the last; alone (Megatron takes no other split with it). */
static bool check_layout(const struct scenario *s, const char **key, char *msg, size_t n)
{
    static const char *const K = "pipeline_model_parallel_layout";
    struct pp_layout l;
    char why[160];
    if (!pp_layout_parse(s->pp_layout, &l, why, sizeof why))
        FAIL(K, "\"%s\": %s", s->pp_layout, why);
    if (s->first_stage_layers > 0 || s->last_stage_layers > 0 || accounted(s))
        FAIL(K, "cannot be used with the first or last stage's layers given or the embedding "
                "or loss counted in (Megatron-LM takes one of them)");
    if (l.chunks % s->pp != 0)
        FAIL(K, "its %d stages do not split over pp %lld", l.chunks, (long long)s->pp);
    if (l.chunks / s->pp != s->vpp)
        FAIL("vpp", "the pipeline layout's %d stages are pp %lld x vpp %lld, not vpp %lld",
             l.chunks, (long long)s->pp, (long long)(l.chunks / s->pp), (long long)s->vpp);
    if (l.decoder != s->model.layers)
        FAIL(K, "it builds %d decoder layers (t), the model has %lld", l.decoder,
             (long long)s->model.layers);
    if (l.embeddings != 1 || l.embedding_chunk != 0)
        FAIL(K, "the embedding (E) must be named once, in the first stage");
    if (l.losses != 1 || l.loss_chunk != l.chunks - 1)
        FAIL(K, "the loss (L) must be named once, in the last stage");
    if (l.mtp != s->model.mtp_layers)
        FAIL(K, "it names %d MTP layers (m) where the model has %lld", l.mtp,
             (long long)s->model.mtp_layers);
    if (l.mtp_outside_last > 0)
        FAIL(K, "its MTP layers (m) must be in the last stage");
    return true;
}

/* The uneven pipeline stages: within the layers, on a pipeline, the stages between them an
 * equal share, each stage at least vpp layers when interleaved. */
bool rules_check_stages(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (s->first_stage_layers > s->model.layers)
        FAIL("decoder_first_pipeline_num_layers", "must be between 1 and the %lld layers, got %lld",
             (long long)s->model.layers, (long long)s->first_stage_layers);
    if (s->last_stage_layers > s->model.layers)
        FAIL("decoder_last_pipeline_num_layers", "must be between 1 and the %lld layers, got %lld",
             (long long)s->model.layers, (long long)s->last_stage_layers);
    if (s->pp_layout[0] != '\0')
        return check_layout(s, key, msg, n);
    if (accounted(s))
        return check_accounted(s, key, msg, n);
    if (!scenario_uneven_stages(s))
        return true;
    const char *which = s->first_stage_layers > 0 ? "decoder_first_pipeline_num_layers"
                                                  : "decoder_last_pipeline_num_layers";
    int64_t mid, rest;
    scenario_middle_stages(s, &mid, &rest);
    if (s->pp < 2)
        FAIL(which, "uneven stages need pipeline parallelism (pp above 1)");
    if (!uneven_split_ok(s))
        FAIL(which, "the %lld layers left for the %lld stages between do not split evenly",
             (long long)rest, (long long)mid);
    for (int64_t i = 0; s->vpp > 1 && i < s->pp; i++)
        if (scenario_stage_layers(s, i) < s->vpp)
            FAIL("vpp", "stage %lld holds %lld layers, fewer than vpp %lld chunks", (long long)i,
                 (long long)scenario_stage_layers(s, i), (long long)s->vpp);
    return true;
}

bool rules_check_gpu(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (!(s->gpu.memory_bytes > 0) || !(s->gpu.bandwidth > 0))
        FAIL("gpu", "%s has no memory or bandwidth", s->gpu.id[0] ? s->gpu.id : "(gpu)");
    return true;
}

bool rules_check_memory_reserve(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (!(s->memory_reserve < s->gpu.memory_bytes)) {
        /* In the units the option is typed in (80GB, not 8e+10), bytes exact beside them. */
        char cap[32], got[32];
        units_bytes(s->gpu.memory_bytes, cap, sizeof cap);
        units_bytes(s->memory_reserve, got, sizeof got);
        FAIL("memory_reserve", "must be at least 0 and below the GPU's %s (%.0f bytes), got %s "
             "(%.0f bytes)", cap, s->gpu.memory_bytes, got, s->memory_reserve);
    }
    return true;
}

bool rules_check_dtype(const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (!gpu_has_dtype(&s->gpu, s->dtype)) {
        /* Timing it at another format's rate would print a number nobody can reach. */
        char has[128];
        gpu_dtypes(&s->gpu, has, sizeof has);
        FAIL("dtype", "the %s has no %s peak; it has %s",
             s->gpu.name[0] ? s->gpu.name : s->gpu.id[0] ? s->gpu.id : "GPU",
             peak_name(dtype_peak(s->dtype)), has);
    }
    return true;
}
#undef FAIL

/* ---- give way ------------------------------------------------------------------------------ */

static bool gpus_fixed(const struct give_way *g)
{
    return g->moved == offsetof(struct scenario, gpus);
}

static int64_t at_least_1(int64_t v)
{
    return v < 1 ? 1 : v;
}

/* tp: the largest degree up to the one asked for that divides the heads and leaves the GPU
 * count as it is (1 always does). */
void rules_give_way_tp(struct scenario *c, const struct give_way *g)
{
    const struct scenario *want = g->want;
    bool fixed = gpus_fixed(g);
    int64_t t = at_least_1(want->tp);
    if (t > c->gpus && fixed)
        t = c->gpus;
    if (c->model.heads > 0) {
        int64_t gp = fixed ? c->gpus : want->gpus;
        int64_t p = at_least_1(want->pp), x = at_least_1(want->cp);
        while (t > 1 && (c->model.heads % t != 0 || gp % (t * p * x) != 0))
            t--;
    }
    if (t != want->tp)
        snprintf(g->note, g->n, "tensor degree %lld (not %lld): it must divide the %lld heads%s",
                 (long long)t, (long long)want->tp, (long long)c->model.heads,
                 fixed ? " and the GPU count" : "");
    c->tp = t;
}

/* pp: at most the layers, and with the GPU count fixed a divisor of what tp leaves. */
void rules_give_way_pp(struct scenario *c, const struct give_way *g)
{
    const struct scenario *want = g->want;
    bool fixed = gpus_fixed(g);
    int64_t p = at_least_1(want->pp);
    if (c->model.layers > 0 && p > c->model.layers)
        p = c->model.layers;
    while (fixed && p > 1 && c->gpus % (c->tp * p) != 0)
        p--;
    if (p != want->pp)
        snprintf(g->note, g->n, "pipeline degree %lld (not %lld): %lld layers%s", (long long)p,
                 (long long)want->pp, (long long)c->model.layers,
                 fixed ? " and the GPU count" : "");
    c->pp = p;
}

/* cp: the largest degree up to the one asked for that splits the sequence into 2 x cp equal
 * chunks (Megatron-LM's causal load balance) and, with the GPU count fixed, leaves it a
 * multiple of tp x pp x cp. */
void rules_give_way_cp(struct scenario *c, const struct give_way *g)
{
    const struct scenario *want = g->want;
    bool fixed = gpus_fixed(g);
    int64_t x = at_least_1(want->cp);
    if (fixed && x > c->gpus)
        x = c->gpus;
    if (x > c->seq / 2)
        x = at_least_1(c->seq / 2); /* 2 x cp chunks of at least a token */
    while (x > 1 && (c->seq % (2 * x) != 0 || (fixed && c->gpus % (c->tp * c->pp * x) != 0)))
        x--;
    if (x != want->cp)
        snprintf(g->note, g->n, "context degree %lld (not %lld): the %lld-token sequence must "
                                "split into 2 x cp chunks%s",
                 (long long)x, (long long)want->cp, (long long)c->seq,
                 fixed ? " and the GPU count into tp x pp x cp" : "");
    c->cp = x;
}

/* The GPU count: the multiple of tp x pp x cp at or above the one asked for. */
void rules_give_way_gpus(struct scenario *c, const struct give_way *g)
{
    int64_t unit = c->tp * c->pp * c->cp;
    int64_t want = at_least_1(g->want->gpus);
    int64_t gp = unit > 0 ? (want + unit - 1) / unit * unit : want;
    if (gp != g->want->gpus)
        snprintf(g->note, g->n, "GPUs %lld (not %lld): a multiple of tensor x pipeline%s = %lld",
                 (long long)gp, (long long)g->want->gpus, c->cp > 1 ? " x context" : "",
                 (long long)unit);
    c->gpus = gp;
}

/* A given expert tensor-parallel degree the layout cannot hold: auto (tp). */
void rules_give_way_etp(struct scenario *c, const struct give_way *g)
{
    const int64_t want = g->want->etp;
    if (want <= 0 || (model_moe_layers(&c->model) > 0 && model_expert_ffn(&c->model) % want == 0 &&
                      scenario_expert_dp(c) > 0))
        return;
    c->etp = 0;
    snprintf(g->note, g->n, "expert tp %lld off (tp's): it does not divide this layout",
             (long long)want);
}

/* ep: the largest degree up to the one asked for that divides the routed experts and a
 * stage's ranks over the expert tp (Megatron-core); 1 for a dense model. */
void rules_give_way_ep(struct scenario *c, const struct give_way *g)
{
    int64_t e = at_least_1(g->want->ep);
    /* A stage's ranks over the expert tensor-parallel degree: what ep must divide. */
    const int64_t stage = c->tp * scenario_dp_cp(c), et = scenario_etp(c);
    const int64_t ranks = et > 0 && stage % et == 0 ? stage / et : 0;
    const bool no_sp = c->tp > 1 && !c->sp; /* Megatron needs sp with tp and ep */
    const bool dense = model_moe_layers(&c->model) == 0;
    if (dense || no_sp)
        e = 1;
    if (e > 1 && e > c->model.experts)
        e = c->model.experts;
    while (e > 1 && (c->model.experts % e != 0 || ranks <= 0 || ranks % e != 0))
        e--;
    if (e != g->want->ep)
        snprintf(g->note, g->n, "expert degree %lld (not %lld): %s", (long long)e,
                 (long long)g->want->ep,
                 dense   ? "the model has no routed experts"
                 : no_sp ? "with tensor parallelism it needs sequence parallelism on"
                         : "it must divide the routed experts and the ranks of a stage");
    c->ep = e;
}

/* The micro-batch: the largest up to the one asked for that splits the batch. The batch
 * never moves: one that cannot split is left for the check to name. */
void rules_give_way_micro_batch(struct scenario *c, const struct give_way *g)
{
    int64_t dp = scenario_dp(c);
    int64_t m = g->want->micro_batch;
    if (dp > 0 && m > 0 && m * dp > c->batch)
        m = c->batch / dp;
    while (dp > 0 && m > 1 && c->batch % (m * dp) != 0)
        m--;
    if (m < 1 && g->want->micro_batch > 0)
        m = g->want->micro_batch; /* nothing splits: the check names the batch */
    if (m != g->want->micro_batch)
        snprintf(g->note, g->n, "micro-batch %lld (not %lld): it must split the batch over %lld "
                                "data-parallel ranks",
                 (long long)m, (long long)g->want->micro_batch, (long long)dp);
    c->micro_batch = m;
}

/* Given first and last stages that this pipeline cannot hold: the even split; likewise the
 * embedding and loss counted in where the counted layers do not split over the stages. */
void rules_give_way_stages(struct scenario *c, const struct give_way *g)
{
    struct pp_layout l;
    if (c->pp_layout[0] != '\0') {
        if (scenario_layout(c, &l) && l.chunks % c->pp == 0)
            return;
        c->pp_layout[0] = '\0';
        snprintf(g->note, g->n, "pipeline layout off: its stages do not split over pp %lld",
                 (long long)c->pp);
    }
    if (accounted(c)) {
        if (c->first_stage_layers == 0 && c->last_stage_layers == 0 && accounted_split_ok(c, 1))
            return;
        c->account_embedding = false;
        c->account_loss = false;
        snprintf(g->note, g->n, "embedding and loss not counted in the split: it does not fit pp %lld",
                 (long long)c->pp);
    }
    if (!scenario_uneven_stages(c) || uneven_split_ok(c))
        return;
    c->first_stage_layers = 0;
    c->last_stage_layers = 0;
    snprintf(g->note, g->n, "uneven stages off: the first and last stages do not fit pp %lld",
             (long long)c->pp);
}

/* Interleaving needs the layers to split into pp x vpp chunks (with uneven stages: vpp
 * layers on every stage; with the embedding and loss counted in: those counted layers) and
 * the micro-batches to come in groups of pp (Megatron-LM); where they do not, the plain
 * schedule. */
void rules_give_way_vpp(struct scenario *c, const struct give_way *g)
{
    struct pp_layout l;
    if (scenario_layout(c, &l) && c->pp > 0 && l.chunks % c->pp == 0) {
        c->vpp = l.chunks / c->pp; /* the layout's chunks are the virtual stages */
        return;
    }
    int64_t v = g->want->vpp;
    if (v <= 1)
        return;
    int64_t m = scenario_accum_steps(c);
    bool splits = accounted(c)                ? accounted_split_ok(c, v)
                  : scenario_uneven_stages(c) ? fewest_stage_layers(c) >= v
                                              : c->model.layers % (c->pp * v) == 0;
    if (c->pp == 1 || !splits || m <= 0 || m % c->pp != 0)
        v = 1;
    if (v != g->want->vpp)
        snprintf(g->note, g->n, "interleaved stages off (not %lld): vpp does not split this layout",
                 (long long)g->want->vpp);
    c->vpp = v;
}

/* ---- step bounds --------------------------------------------------------------------------- */

/* The micro-batch: auto, then up to the batch. */
void rules_steps_micro_batch(const struct scenario *s, struct step_bounds *b)
{
    b->hi = (double)(s->batch > 0 ? s->batch : 1);
    b->step_hi = fmin(b->step_hi, (double)s->batch);
}

/* GPU counts that tp x pp x cp divide only, doubling. */
void rules_steps_gpus(const struct scenario *s, struct step_bounds *b)
{
    double unit = (double)at_least_1(s->tp) * (double)at_least_1(s->pp) *
                  (double)at_least_1(s->cp);
    b->unit = unit;
    b->step_lo = unit;
    b->step_hi = fmax(b->step_hi, unit);
}

/* Up to half the sequence: the sequence splits into 2 x cp chunks. */
void rules_steps_cp(const struct scenario *s, struct step_bounds *b)
{
    b->step_hi = fmin(b->step_hi, fmax((double)(s->seq / 2), 1.0));
}

/* Up to the routed experts; 1 alone for a dense model. */
void rules_steps_ep(const struct scenario *s, struct step_bounds *b)
{
    double e = model_moe_layers(&s->model) > 0 ? (double)s->model.experts : 1.0;
    b->step_hi = fmin(b->step_hi, e);
}
