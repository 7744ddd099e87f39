/* test_lecture.c - the lecture demo (specs/scenarios/lecture.json) claim by claim: each
 * caption's figures against the analysis of its step (what the screen beside it shows), and
 * its claims too: what changes from the step before, what stays, what adds up, what is over
 * or under. Then the demo format's "_panels", "_sliders", "_answer" and "_toy", and every
 * step at 80 x 24: its caption whole in the box, nothing cut, only the panels it lists. */
#include <check.h>
#include <math.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "check_util.h"
#include "checkpoint.h"
#include "dash_harness.h"
#include "einsum.h"
#include "op_contract.h"
#include "demo.h"
#include "lecture_view.h"
#include "memory.h"
#include "numfmt.h"
#include "numfmt_table.h"
#include "gpu.h"
#include "roofline.h"
#include "scenario_file.h"
#include "solve.h"
#include "units.h"
#include "widgets.h"

static struct demo lec;
static struct analysis an[32];

static void load(void)
{
    char err[512];
    ck_assert_msg(demo_load("lecture", &lec, err, sizeof err), "%s", err);
    ck_assert(lec.n <= 32);
    for (int k = 0; k < lec.n; k++)
        analysis_run(&lec.steps[k].scenario, &an[k]);
}

static void unload(void)
{
    demo_free(&lec);
}

static int step_of(const char *title)
{
    for (int k = 0; k < lec.n; k++)
        if (strstr(lec.steps[k].title, title) != NULL)
            return k;
    ck_abort_msg("no lecture step \"%s\"", title);
    return -1;
}

/* Step k's caption says `figure`, and the figure as computed (shown) says it too. */
static void says(int k, const char *figure, const char *shown)
{
    ck_assert_msg(strstr(lec.steps[k].caption, figure) != NULL, "step %d's caption lacks \"%s\": %s",
                  k + 1, figure, lec.steps[k].caption);
    ck_assert_msg(strstr(shown, figure) != NULL, "step %d says \"%s\", the analysis \"%s\"", k + 1,
                  figure, shown);
}

/* Step b's scenario differs from step a's in the keys named (space-separated) at most. */
static void only_changes(int a, int b, const char *allowed)
{
    cJSON *ja = scenario_to_json(&lec.steps[a].scenario);
    cJSON *jb = scenario_to_json(&lec.steps[b].scenario);
    ck_assert(ja != NULL && jb != NULL);
    char keys[256];
    snprintf(keys, sizeof keys, "%s name", allowed);
    for (char *k = strtok(keys, " "); k != NULL; k = strtok(NULL, " ")) {
        cJSON_DeleteItemFromObjectCaseSensitive(ja, k);
        cJSON_DeleteItemFromObjectCaseSensitive(jb, k);
    }
    char *ta = cJSON_PrintUnformatted(ja), *tb = cJSON_PrintUnformatted(jb);
    ck_assert_msg(strcmp(ta, tb) == 0, "step %d changes more than %s:\n%s\n%s", b + 1, allowed,
                  ta, tb);
    free(ta);
    free(tb);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
}

static double state_bytes(const struct analysis *a)
{
    double b = 0;
    for (int i = MEM_PARAMS; i <= MEM_MASTER; i++)
        b += a->memory.row[i].bytes;
    return b;
}

START_TEST(claims_compute)
{
    char shown[64];
    int k = step_of("144-day");
    ck_assert(an[k].flops.six_nd == 6.0 * 70e9 * 15e12);
    says(k, "6.3e24 FLOPs", "6.3e24 FLOPs");
    units_duration(an[k].time.seconds, shown, sizeof shown);
    says(k, "143.9 days", shown);
    snprintf(shown, sizeof shown, "%.1f TFLOP/s", an[k].roofline.peak / 1e12);
    says(k, "989.4 TFLOP/s", shown);
    /* "the lecture: 1979e12 / 2 = 989.5e12": exact, not a rounding */
    ck_assert(1979e12 / 2 == 989.5e12);
    says(k, "1979e12 / 2 = 989.5e12", "1979e12 / 2 = 989.5e12");
    /* "the forward pass is 2ND and the backward 4ND": the panel's forward and backward */
    ck_assert_rel(an[k].flops.model_total / 3, 2 * 70e9 * 15e12, 1e-12);
    ck_assert_rel(an[k].flops.model_total * 2 / 3, 4 * 70e9 * 15e12, 1e-12);
    ck_assert(lec.steps[k].n_panels == 1 && demo_step_has_panel(&lec.steps[k], "compute"));
    /* One step time on its screen, 3.48 s (6.3e24 / 3.58M steps at 1024 x 989.4e12 x 0.5):
     * not the roofline's 1.89 s beside it, a figure of step 11 and 13 */
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "n");
    dash_demo_show(&h.d, k);
    harness_draw(&h);
    units_duration(an[k].time.step_seconds, shown, sizeof shown);
    ck_assert_str_eq(shown, "3.48 s");
    ck_assert_screen_has(&h, "step time      3.48 s");
    ck_assert(!screen_contains(&h.s, "roof step") && !screen_contains(&h.s, "roof MFU"));
    harness_stop(&h);
}
END_TEST

START_TEST(claims_dtypes)
{
    int k = step_of("Number formats");
    struct numfmt h, b, s;
    numfmt_get(NF_FP16, &h);
    numfmt_get(NF_BF16, &b);
    numfmt_get(NF_FP32, &s);
    char fig[32];
    ck_assert_int_eq(h.exp_bits, 5);
    says(k, "fp16 has 5 exponent bits", "fp16 has 5 exponent bits");
    numfmt_table_figure(h.min_subnormal, fig, sizeof fig);
    says(k, "5.96e-08", fig);
    ck_assert(1e-8 < h.min_subnormal / 2 && numfmt_round(&h, 1e-8) == 0);
    /* bf16: fp32's 8 exponent bits and its range, 7 mantissa bits, keeps 1e-8 */
    ck_assert(b.exp_bits == 8 && s.exp_bits == 8 && b.min_normal == s.min_normal);
    ck_assert_rel(b.max, s.max, 0.01);
    ck_assert_int_eq(b.man_bits, 7);
    ck_assert(numfmt_round(&b, 1e-8) != 0);
    ck_assert_int_eq(NUMFMT_NVFP4_BLOCK, 16);
    ck_assert(demo_step_has_panel(&lec.steps[k], "dtypes"));
}
END_TEST

START_TEST(claims_fitting)
{
    char shown[64];
    int k = step_of("largest model on 8");
    ck_assert_rel(state_bytes(&an[k]), 12.0 * (double)an[k].params.total / 8, 1e-9);
    units_count(solve_max_params(&lec.steps[k].scenario, false), shown, sizeof shown);
    says(k, "53.3B", shown);
    /* "Model state alone is then 79.9 GB per GPU, over the 78 GB usable (80 GB less a 2 GB
     * reserve), before ZeRO-3's gather buffer and the activations" */
    units_bytes(state_bytes(&an[k]), shown, sizeof shown);
    says(k, "79.9 GB per GPU", "79.9 GB per GPU");
    ck_assert_str_eq(shown, "79.9 GB");
    ck_assert(state_bytes(&an[k]) > an[k].memory.usable);
    units_bytes(an[k].memory.usable, shown, sizeof shown);
    ck_assert_str_eq(shown, "78 GB");
    ck_assert(an[k].memory.capacity - an[k].memory.usable == 2e9);
    ck_assert(an[k].memory.row[MEM_BUFFERS].bytes > 0 && an[k].memory.row[MEM_ACTIVATIONS].bytes > 0);
    ck_assert(!an[k].memory.fits);
    ck_assert_int_eq(lec.steps[k].scenario.zero, 3);
    only_changes(step_of("144-day"), k, "params gpus zero batch micro_batch seq");
    /* The step is about fitting: no time on its screen. */
    ck_assert(!demo_step_has_panel(&lec.steps[k], "compute"));

    int k3 = step_of("fp32");
    ck_assert_rel(state_bytes(&an[k3]), 16.0 * (double)an[k3].params.total / 8, 1e-9);
    units_count(solve_max_params(&lec.steps[k3].scenario, false), shown, sizeof shown);
    says(k3, "40B", shown);
    /* "again the whole 80 GB of model state per GPU" */
    ck_assert_rel(state_bytes(&an[k3]), 80e9, 1e-3);
    only_changes(k, k3, "params dtype");
    /* "bf16 weights with an fp32 master copy cost 16 too with bf16 gradients (2 + 2 + 4 +
     * 8); grads auto keeps them fp32 beside the master copy, 18" */
    struct scenario m = lec.steps[k3].scenario;
    m.dtype = DTYPE_BF16;
    m.master_weights = true;
    m.grad_dtype = DTYPE_BF16;
    struct analysis *a = malloc(sizeof *a);
    ck_assert(a != NULL);
    analysis_run(&m, a);
    ck_assert_rel(state_bytes(a), 16.0 * (double)a->params.total / 8, 1e-9);
    m.grad_dtype = SCENARIO_DTYPE_AUTO;
    analysis_run(&m, a);
    ck_assert_rel(state_bytes(a), 18.0 * (double)a->params.total / 8, 1e-9);
    free(a);
    says(k3, "16 too", "16 too");
    says(k3, "fp32 beside the master copy, 18", "fp32 beside the master copy, 18");
}
END_TEST

START_TEST(claims_toys)
{
    char fig[32];
    int k = step_of("toy optimizer");
    const struct demo_step *st = &lec.steps[k];
    ck_assert(st->toy == DEMO_TOY_OPTIMIZER && st->toy_B == 2 && st->toy_D == 4 && st->toy_L == 3);
    struct memory m;
    memory_toy_mlp(st->toy_B, st->toy_D, st->toy_L, DTYPE_BF16, 1, &m);
    /* reference.md: params 96 B, grads 96 B, fp32 state 192 B, activations 48 B: 432 B */
    ck_assert(m.row[MEM_PARAMS].elements == 48);
    says(k, "48 parameters", "48 parameters");
    ck_assert(m.row[MEM_PARAMS].bytes == 96 && m.row[MEM_GRADS].bytes == 96);
    ck_assert(m.row[MEM_OPTIMIZER].bytes == 192 && m.row[MEM_ACTIVATIONS].bytes == 48);
    snprintf(fig, sizeof fig, "Total %.0f bytes", m.total);
    says(k, "Total 432 bytes", fig);

    k = step_of("toy accumulation");
    st = &lec.steps[k];
    ck_assert(st->toy == DEMO_TOY_ACCUMULATION);
    struct memory whole, micro;
    memory_toy_mlp(st->toy_B, st->toy_D, st->toy_L, DTYPE_BF16, 1, &whole);
    memory_toy_mlp(st->toy_micro, st->toy_D, st->toy_L, DTYPE_BF16, 1, &micro);
    /* reference.md: B 64, D 1024, L 16: 2,097,152 bytes; micro-batch 16: 524,288 */
    ck_assert(whole.row[MEM_ACTIVATIONS].bytes == 2.0 * 64 * 1024 * 16);
    ck_assert(whole.row[MEM_ACTIVATIONS].bytes == 2097152);
    ck_assert(micro.row[MEM_ACTIVATIONS].bytes == 524288);
    says(k, "2,097,152 bytes", "2,097,152 bytes");
    says(k, "524,288 bytes", "524,288 bytes");
    /* "accumulated over 4 steps ... store a quarter" */
    ck_assert(st->toy_B / st->toy_micro == 4);
    says(k, "over 4 steps", "over 4 steps");
    /* and the toy panels beside those captions show the same bytes */
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "n");
    dash_demo_show(&h.d, k);
    harness_draw(&h);
    ck_assert_screen_has(&h, "2,097,152 bytes");
    ck_assert_screen_has(&h, "524,288 bytes");
    ck_assert(!screen_contains(&h.s, "bytes/param")); /* no formula of a slider not shown */
    dash_demo_show(&h.d, step_of("toy optimizer"));
    harness_draw(&h);
    ck_assert_screen_has(&h, "432 B");
    ck_assert_screen_has(&h, "192 B");
    harness_stop(&h);
}
END_TEST

START_TEST(claims_activations)
{
    char shown[64];
    int ka = step_of("Activations: batch");
    units_bytes(an[ka].memory.row[MEM_ACTIVATIONS].bytes, shown, sizeof shown);
    says(ka, "418 GB", shown);
    /* "they grow with micro-batch x sequence x layers, and without FlashAttention with the
     * s x s scores too": twice the micro-batch twice the bytes; twice the sequence more than
     * twice without FlashAttention, twice with it */
    struct scenario s = lec.steps[ka].scenario;
    struct analysis *a = malloc(sizeof *a);
    ck_assert(a != NULL);
    s.micro_batch *= 2;
    s.batch *= 2;
    analysis_run(&s, a);
    ck_assert_rel(a->memory.activations_per_layer, 2 * an[ka].memory.activations_per_layer, 1e-12);
    s = lec.steps[ka].scenario;
    s.seq *= 2;
    analysis_run(&s, a);
    ck_assert(a->memory.activations_per_layer > 2.5 * an[ka].memory.activations_per_layer);
    s.flash = true;
    struct scenario s1 = s;
    s1.seq /= 2;
    struct analysis *b = malloc(sizeof *b);
    ck_assert(b != NULL);
    analysis_run(&s, a);
    analysis_run(&s1, b);
    ck_assert_rel(a->memory.activations_per_layer, 2 * b->memory.activations_per_layer, 1e-12);

    int kg = step_of("Gradient accumulation");
    snprintf(shown, sizeof shown, "%lld accumulation steps", (long long)an[kg].accum_steps);
    says(kg, "8 accumulation steps", shown);
    /* "The activations shrink eightfold; the FLOPs do not change, and at the same MFU
     * neither does the training time." */
    ck_assert_rel(an[ka].memory.row[MEM_ACTIVATIONS].bytes / an[kg].memory.row[MEM_ACTIVATIONS].bytes,
                  8, 1e-12);
    ck_assert_rel(an[kg].flops.total, an[ka].flops.total, 1e-12);
    ck_assert_rel(an[kg].time.seconds, an[ka].time.seconds, 1e-12);
    ck_assert(an[kg].time.mfu == an[ka].time.mfu);
    only_changes(ka, kg, "micro_batch");
    /* the step shows the time it talks of, and no predicted step (which does change) */
    ck_assert(demo_step_has_panel(&lec.steps[kg], "compute"));

    int kc = step_of("Activation checkpointing");
    /* "activations drop to a sliver, and the GPUs execute 8ND instead of 6ND. At the same
     * hardware utilization (HFU 0.5) that takes 8/6 as long: the MFU ... is 0.375." */
    ck_assert(an[kc].memory.row[MEM_ACTIVATIONS].bytes < 0.1 * an[kg].memory.row[MEM_ACTIVATIONS].bytes);
    ck_assert_rel(an[kc].flops.total / an[kc].flops.six_nd, 8.0 / 6.0, 1e-12);
    ck_assert_rel(an[kc].time.seconds / an[kg].time.seconds, 8.0 / 6.0, 1e-12);
    snprintf(shown, sizeof shown, "HFU %.3g", an[kc].time.hfu);
    says(kc, "HFU 0.5", shown);
    snprintf(shown, sizeof shown, "is %.3g", an[kc].time.mfu);
    says(kc, "is 0.375", shown);
    only_changes(kg, kc, "recompute");
    free(a);
    free(b);
}
END_TEST

START_TEST(claims_checkpointing)
{
    int k = step_of("checkpointing curve");
    struct scenario s = lec.steps[k].scenario;
    struct memory m;
    s.recompute = RECOMPUTE_NONE;
    memory_compute(&s, &an[k].params, &m);
    double A = m.activations_per_layer;
    s.recompute = RECOMPUTE_FULL;
    memory_compute(&s, &an[k].params, &m);
    double I = m.activations_per_layer, L = (double)s.model.layers;
    /* "A transformer layer stores about 16 x its input" */
    ck_assert_msg(A / I > 15.5 && A / I < 16.5, "A / I = %g", A / I);
    says(k, "about 16 x its input", "about 16 x its input");
    /* "the least is at k = sqrt(L I / A), near 1: that is why full beats sqrt here" */
    double best = checkpoint_best_k(L, A, I), root = ceil(sqrt(L));
    ck_assert(best < 2);
    for (double j = 2; j <= L; j++)
        ck_assert(checkpoint_memory(L, A, I, 1) < checkpoint_memory(L, A, I, j));
    /* ... and the memory panel agrees: recompute sqrt holds more than full */
    struct analysis *a = malloc(sizeof *a);
    ck_assert(a != NULL);
    s.recompute = RECOMPUTE_SQRT;
    analysis_run(&s, a);
    double sqrt_act = a->memory.row[MEM_ACTIVATIONS].bytes;
    s.recompute = RECOMPUTE_FULL;
    analysis_run(&s, a);
    ck_assert(sqrt_act > a->memory.row[MEM_ACTIVATIONS].bytes);
    /* the curve's layer part is what the memory panel holds beyond the outside-layer part */
    ck_assert_rel(a->memory.row[MEM_ACTIVATIONS].bytes - a->memory.activations_outside,
                  checkpoint_memory(L, A, I, 1), 0.02);
    free(a);
    /* "The lecture's toy stores a layer's output only (A = I): least memory at k = sqrt(L)" */
    for (double j = 1; j <= L; j++)
        ck_assert(checkpoint_memory(L, 1, 1, root) <= checkpoint_memory(L, 1, 1, j));
    /* and nothing stored re-runs L (L - 1) / 2 forwards: O(L^2) */
    struct ckpt_row rows[24];
    int n = checkpoint_curve(L, A, I, rows, 24);
    ck_assert(rows[n - 1].kind == CKPT_NONE && rows[n - 1].recompute == L * (L - 1) / 2);
    ck_assert(rows[0].kind == CKPT_ALL && rows[0].recompute == 0 && rows[0].memory == L * A);
    bool marked = false;
    for (int i = 0; i < n; i++)
        marked = marked || (rows[i].sqrt_l && rows[i].k == root);
    ck_assert(marked);
    /* Storing nothing holds less than any interval, the toy's too (2 I against sqrt(L)'s
     * 12 I): "least" is of the intervals, as the caption and the panel say. */
    ck_assert(rows[n - 1].memory < checkpoint_memory(L, A, I, 1));
    struct ckpt_row toy[24];
    int nt = checkpoint_curve(L, 1, 1, toy, 24);
    ck_assert(toy[nt - 1].kind == CKPT_NONE && toy[nt - 1].memory == 2);
    ck_assert(checkpoint_memory(L, 1, 1, root) == 12 && toy[nt - 1].memory < 12);
    says(k, "of the intervals, least memory at k = sqrt(L)", "of the intervals, least memory at k = sqrt(L)");
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "n");
    dash_demo_show(&h.d, k);
    harness_draw(&h);
    ck_assert_screen_has(&h, "least of the k rows at sqrt(L I / A) = 1.4");
    /* the panel's memory column is the layers' part; the memory figure adds the rest:
     * 1.61 GB at k = 1 + 591 MB = the 2.2 GB of activations the line below shows */
    char out[32], line[96];
    units_bytes(h.d.ev.an.memory.activations_outside, out, sizeof out);
    ck_assert_str_eq(out, "591 MB");
    snprintf(line, sizeof line, "each memory + %s outside the layers", out);
    ck_assert_screen_has(&h, line);
    ck_assert_screen_has(&h, "activations 2.2 GB per GPU");
    ck_assert_rel(h.d.ev.an.memory.row[MEM_ACTIVATIONS].bytes,
                  checkpoint_memory(L, A, I, 1) + h.d.ev.an.memory.activations_outside, 0.01);
    ck_assert_int_eq(h.s.cut, 0);
    harness_stop(&h);
}
END_TEST

START_TEST(claims_roofline)
{
    int k = step_of("Five operations");
    static const struct {
        enum lecture_op op;
        const char *figure;
    } fig[] = {{LOP_RELU, "ReLU (0.25)"}, {LOP_DOT, "dot product (0.5)"},
               {LOP_MATVEC, "matrix-vector (~1)"}, {LOP_GELU, "GELU (5)"},
               {LOP_MATMUL, "matmul (341)"}};
    double ridge = gpu_ridge(&lec.steps[k].scenario.gpu, DTYPE_BF16);
    for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++) {
        struct op_cost c;
        lecture_op_cost(fig[i].op, lecture_op_default_n(fig[i].op), DTYPE_BF16, &c);
        char want[64];
        const char *open = strchr(fig[i].figure, '(');
        if (fig[i].op == LOP_MATVEC)
            snprintf(want, sizeof want, "%.*s(~%.0f)", (int)(open - fig[i].figure), fig[i].figure,
                     c.intensity);
        else
            snprintf(want, sizeof want, "%.*s(%.3g)", (int)(open - fig[i].figure), fig[i].figure,
                     c.intensity);
        says(k, fig[i].figure, want);
        /* left of the ridge: memory-bound; the matmul right of it */
        ck_assert((c.intensity >= ridge) == (fig[i].op == LOP_MATMUL));
    }
    char shown[64];
    snprintf(shown, sizeof shown, "ridge at %.0f FLOP/byte", ridge);
    says(k, "ridge at 295 FLOP/byte", shown);

    /* "For mlp_up, b s h, h f -> b s f sums over h: ... 2 b s h f FLOPs a layer forward,
     * three times that with the backward" */
    int kc = step_of("Operations as contracts");
    ck_assert(demo_step_has_panel(&lec.steps[kc], "contracts"));
    bool is_mm;
    const char *c = op_contract(OP_MLP_UP, true, &is_mm);
    ck_assert(is_mm);
    says(kc, "b s h, h f -> b s f", c);
    struct einsum_spec sp;
    char err[256], dims[128];
    ck_assert(einsum_parse(c, EINSUM_CONTRACT, &sp, err, sizeof err));
    const struct scenario *sc = &lec.steps[kc].scenario;
    double b = (double)sc->batch / (double)scenario_dp(sc);
    snprintf(dims, sizeof dims, "b=%.0f,s=%lld,h=%lld,f=%lld", b, (long long)sc->seq,
             (long long)sc->model.d_model, (long long)sc->model.ffn);
    double size[EINSUM_MAX_NAMES];
    ck_assert_msg(einsum_dims(&sp, dims, size, err, sizeof err), "%s", err);
    struct einsum_cost cost;
    einsum_cost(&sp, size, 2, &cost);
    ck_assert_int_eq((int)cost.summed, 1 << 2); /* h, the third name */
    ck_assert(cost.flops == 2 * b * (double)sc->seq * (double)sc->model.d_model *
                                (double)sc->model.ffn);
    for (int i = 0; i < an[kc].n_ops; i++)
        if (an[kc].ops[i].kind == OP_MLP_UP)
            ck_assert_rel(an[kc].ops[i].flops, 3 * (double)sc->model.layers * cost.flops, 1e-12);

    /* At 80 x 24 the step shows every operation of the table, lm_head, loss and the
     * optimizer too: those sharing a contract share a row (norm, final_norm). */
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "n");
    dash_demo_show(&h.d, kc);
    harness_draw(&h);
    ck_assert_int_eq(h.s.cut, 0);
    ck_assert_int_eq(h.d.ev.an.n_ops, an[kc].n_ops);
    for (int i = 0; i < an[kc].n_ops; i++) {
        const char *spec = op_contract(an[kc].ops[i].kind, true, &is_mm);
        bool found = false;
        for (int y = 0; y < 24 && !found; y++) {
            char row[512];
            screen_row_text(&h.s, y, row, sizeof row);
            found = strstr(row, an[kc].ops[i].name) != NULL && strstr(row, spec) != NULL;
        }
        ck_assert_msg(found, "contracts step at 80x24: no row of %s with %s", an[kc].ops[i].name, spec);
    }
    ck_assert_screen_has(&h, "mlp_up, mlp_gate b s h, h f -> b s f");
    ck_assert_screen_has(&h, "p param");
    harness_stop(&h);

    k = step_of("transformer's operations");
    /* "the matmuls ... are compute-bound; the norms, residuals and the activation function
     * are memory-bound. Their roofline times add up to the sum in the panel's header." */
    double sum = 0;
    for (int i = 0; i < an[k].n_ops; i++) {
        const struct op *o = &an[k].ops[i];
        sum += o->seconds;
        bool mm = o->kind == OP_QKV || o->kind == OP_OUT_PROJ || o->kind == OP_MLP_UP ||
                  o->kind == OP_MLP_GATE || o->kind == OP_MLP_DOWN || o->kind == OP_LM_HEAD;
        bool ew = o->kind == OP_NORM || o->kind == OP_FINAL_NORM || o->kind == OP_RESIDUAL ||
                  o->kind == OP_ACT;
        if (mm)
            ck_assert_msg(o->compute_bound, "%s", o->name);
        if (ew)
            ck_assert_msg(!o->compute_bound, "%s", o->name);
    }
    ck_assert_rel(an[k].roofline.step_seconds, sum, 1e-12);
    /* At 80 x 24 the table shows the 11 costliest of 14; the line under them gives the
     * other 3's time, so that what is on screen adds up to the header's 1.89 s. */
    ck_assert_int_eq(an[k].n_ops, 14);
    double t[32], rest = 0;
    for (int i = 0; i < an[k].n_ops; i++)
        t[i] = an[k].ops[i].seconds;
    for (int i = 0; i < 3; i++) { /* the three shortest */
        int m = i;
        for (int j = i + 1; j < an[k].n_ops; j++)
            if (t[j] < t[m])
                m = j;
        double x = t[i];
        t[i] = t[m];
        t[m] = x;
        rest += t[i];
    }
    char want[96], rest_fig[32];
    units_duration(rest, rest_fig, sizeof rest_fig);
    snprintf(want, sizeof want, "1-11 of 14 by time (the other 3: %s)", rest_fig);
    struct harness h2;
    harness_start(&h2, 80, 24, true, true);
    harness_keys(&h2, "n");
    dash_demo_show(&h2.d, k);
    harness_draw(&h2);
    ck_assert_screen_has(&h2, want);
    ck_assert_screen_has(&h2, "sum 1.89 s");
    ck_assert_int_eq(h2.s.cut, 0);
    harness_stop(&h2);
}
END_TEST

/* At 80 x 24 every step reads in one page: the caption's box holds all of it (no c needed),
 * nothing is cut, the panels shown are those listed, and the sliders only those listed. */
START_TEST(steps_at_80x24)
{
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "n");
    ck_assert_int_eq(h.d.demo.n, lec.n);
    for (int k = 0; k < h.d.demo.n; k++) {
        dash_demo_show(&h.d, k);
        harness_draw(&h);
        const struct demo_step *st = &h.d.demo.steps[k];
        ck_assert_msg(lecture_view_step(&h.d) == st, "step %d chooses no panels", k + 1);
        struct layout L;
        dash_layout(&h.d, 80, 24, &L);
        struct rect r = L.r[P_CAPTION];
        ck_assert(r.h >= 1 && r.h <= DEMO_CAPTION_ROWS);
        char head[200];
        const char *text;
        ck_assert(dash_caption(&h.d, head, sizeof head, &text));
        int lines = widget_wrap(NULL, r, &text, 1, 0, 0);
        ck_assert_msg(lines <= r.h, "step %d: %d caption lines in a box of %d", k + 1, lines, r.h);
        /* every word of it on screen, in the one page */
        char cap[DEMO_TEXT_MAX], seen[4096] = "";
        for (int y = r.y; y < r.y + r.h; y++) {
            char row[512];
            screen_row_text(&h.s, y, row, sizeof row);
            strncat(seen, row, sizeof seen - strlen(seen) - 2);
            strcat(seen, " ");
        }
        snprintf(cap, sizeof cap, "%s", st->caption);
        char *save = NULL;
        for (char *w = strtok_r(cap, " ", &save); w; w = strtok_r(NULL, " ", &save))
            ck_assert_msg(strstr(seen, w) != NULL, "step %d: '%s' not on the page", k + 1, w);
        ck_assert_int_eq(h.s.cut, 0);
        static const char *const std[] = {"memory", "compute", "roofline", "ops"};
        for (int p = 0; p < 4; p++)
            ck_assert_msg(rect_empty(L.r[P_MEMORY + p]) != demo_step_has_panel(st, std[p]),
                          "step %d: %s", k + 1, std[p]);
        int ids[SLIDER_MAX];
        ck_assert_int_eq(lecture_view_sliders(&h.d, ids), st->n_sliders);
        /* The roofline's step only beside the roofline or the operations. */
        if (!demo_step_has_panel(st, "roofline") && !demo_step_has_panel(st, "ops"))
            ck_assert_msg(!screen_contains(&h.s, "roof step"), "step %d", k + 1);
        /* No predicted step on a lecture step's screen (lecture 2 has none). */
        ck_assert(!screen_contains(&h.s, "pred step") && !screen_contains(&h.s, "pred MFU"));
    }
    harness_stop(&h);
}
END_TEST

/* The keys move over the sliders a step lists, and past them to its panels only. */
START_TEST(focus_stays_on_screen)
{
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "n");
    dash_demo_show(&h.d, step_of("largest model on 8"));
    harness_draw(&h);
    int ids[SLIDER_MAX], n = lecture_view_sliders(&h.d, ids);
    ck_assert_int_eq(n, 6);
    for (int i = 0; i < 20; i++) {
        harness_keys(&h, "<Down>");
        ck_assert(lecture_focusable(lecture_view_step(&h.d), h.d.focus));
        ck_assert(h.d.focus == FOCUS_MEMORY || h.d.focus < slider_count());
    }
    harness_stop(&h);
}
END_TEST

START_TEST(demo_format_errors)
{
    static const struct {
        const char *json, *want;
    } cases[] = {
        {"{\"steps\":[{\"_panels\":[\"nope\"]}]}", "d.json: step 1: _panels: 'nope'"},
        {"{\"steps\":[{\"_panels\":[]}]}", "d.json: step 1: _panels: name at least one"},
        {"{\"steps\":[{\"_panels\":\"memory\"}]}", "d.json: step 1: _panels: want an array"},
        {"{\"steps\":[{\"_sliders\":[\"gpuz\"]}]}", "d.json: step 1: _sliders: 'gpuz'"},
        {"{\"steps\":[{\"_panels\":[\"toy\"]}]}", "d.json: step 1: _toy: goes with"},
        {"{\"steps\":[{\"_panels\":[\"toy\"],\"_toy\":{\"kind\":\"x\"}}]}", "_toy: kind:"},
        {"{\"steps\":[{\"_panels\":[\"toy\"],\"_toy\":{\"kind\":\"optimizer\",\"B\":0,\"D\":4,\"L\":3}}]}",
         "_toy: B: want a whole number"},
        {"{\"steps\":[{\"_panels\":[\"toy\"],\"_toy\":{\"kind\":\"accumulation\",\"B\":4,\"D\":4,\"L\":3}}]}",
         "_toy: micro: want"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct demo l;
        char err[512];
        ck_assert_msg(!demo_parse(cases[i].json, strlen(cases[i].json), "d.json", &l, err, sizeof err),
                      "accepted %s", cases[i].json);
        ck_assert_msg(strstr(err, cases[i].want) != NULL, "%s: %s", cases[i].json, err);
    }
}
END_TEST

/* specs/scenarios/exercises.json: each answer is the figure rooftop computes for the step's
 * scenario, and it is not on screen until a shows it. */
START_TEST(exercises_answers)
{
    struct demo ex;
    char err[512], fig[64];
    ck_assert_msg(demo_load("exercises", &ex, err, sizeof err), "%s", err);
    ck_assert_int_eq(ex.n, 4);
    struct analysis *a = malloc(sizeof *a);
    ck_assert(a != NULL);
    /* 1: MFU 0.4 -> 179.9 days */
    analysis_run(&ex.steps[0].scenario, a);
    ck_assert(ex.steps[0].scenario.mfu == 0.4);
    units_duration(a->time.seconds, fig, sizeof fig);
    ck_assert_str_eq(fig, "179.9 days");
    ck_assert_msg(strstr(ex.steps[0].answer, fig) == ex.steps[0].answer, "%s", ex.steps[0].answer);
    /* 2: AdamW on 16 H100s, 12 bytes a parameter -> 106.7B */
    double n = solve_max_params(&ex.steps[1].scenario, false);
    ck_assert_int_eq(ex.steps[1].scenario.gpus, 16);
    snprintf(fig, sizeof fig, "%.1fB:", n / 1e9);
    ck_assert_str_eq(fig, "106.7B:");
    ck_assert_msg(strstr(ex.steps[1].answer, fig) == ex.steps[1].answer, "%s", ex.steps[1].answer);
    /* the command it names prints units_count's 3 figures, 107B, not 106.7B */
    units_count(n, fig, sizeof fig);
    ck_assert_str_eq(fig, "107B");
    ck_assert(strstr(ex.steps[1].answer, "--gpus 16 --zero 3 prints it to 3 figures: 107B") != NULL);
    /* 3: the square matmul turns compute-bound at n = 887 */
    double ridge = gpu_ridge(&ex.steps[2].scenario.gpu, DTYPE_BF16);
    long long first = 0;
    for (long long k = 1; k < 100000 && first == 0; k++) {
        struct op_cost c;
        lecture_op_cost(LOP_MATMUL, (double)k, DTYPE_BF16, &c);
        if (c.intensity >= ridge)
            first = k;
    }
    ck_assert_int_eq(first, 887);
    snprintf(fig, sizeof fig, "n = %lld:", first);
    ck_assert_msg(strstr(ex.steps[2].answer, fig) == ex.steps[2].answer, "%s", ex.steps[2].answer);
    /* 4: 8 H100s for 2 weeks -> 9.57e21 FLOPs at 989.4e12, 9.58e21 at the lecture's 989.5e12 */
    const struct scenario *s4 = &ex.steps[3].scenario;
    double promised = (double)s4->gpus * 14 * 86400 * gpu_peak(&s4->gpu, s4->dtype);
    snprintf(fig, sizeof fig, "%.3ge21 FLOPs", promised / 1e21);
    ck_assert_str_eq(fig, "9.57e21 FLOPs");
    ck_assert_msg(strstr(ex.steps[3].answer, fig) == ex.steps[3].answer, "%s", ex.steps[3].answer);
    snprintf(fig, sizeof fig, "%.3ge21", 8.0 * 14 * 86400 * 989.5e12 / 1e21);
    ck_assert_str_eq(fig, "9.58e21");
    ck_assert(strstr(ex.steps[3].answer, fig) != NULL);
    free(a);
    demo_free(&ex);

    /* On screen: the question whole, the answer only after a, at 80 x 24. */
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    ck_assert_msg(dash_demo_open(&h.d, "exercises", 0, err, sizeof err), "%s", err);
    harness_draw(&h);
    ck_assert_screen_has(&h, "(a shows the answer)");
    ck_assert(!screen_contains(&h.s, "179.9"));
    ck_assert_int_eq(h.s.cut, 0);
    harness_keys(&h, "a");
    ck_assert_screen_has(&h, "Answer: 179.9 days");
    harness_keys(&h, "n");
    ck_assert(!h.d.answer_shown);
    ck_assert(!screen_contains(&h.s, "106.7B"));
    harness_keys(&h, "a");
    ck_assert_screen_has(&h, "106.7B");
    for (int k = 0; k < h.d.demo.n; k++) {
        dash_demo_show(&h.d, k);
        harness_keys(&h, "a");
        ck_assert_int_eq(h.s.cut, 0);
        struct layout L;
        dash_layout(&h.d, 80, 24, &L);
        char head[200], ans[DEMO_TEXT_MAX + 16];
        const char *texts[2];
        int nt = lecture_caption(&h.d.demo, k, true, head, sizeof head, ans, sizeof ans, texts);
        ck_assert_int_eq(nt, 2);
        ck_assert_msg(widget_wrap(NULL, L.r[P_CAPTION], texts, nt, 0, 0) <= L.r[P_CAPTION].h,
                      "exercise %d does not read in one page", k + 1);
    }
    harness_stop(&h);
}
END_TEST

/* d: the number formats' box takes a typed value; fp16 turns 1e-8 into 0 on screen. */
START_TEST(dtypes_box)
{
    struct harness h;
    harness_start(&h, 100, 30, true, true);
    harness_keys(&h, "d");
    ck_assert_int_eq(h.d.mode, DM_DTYPES);
    ck_assert(h.d.dtype_value == 1e-8);
    ck_assert_screen_has(&h, "value: 1e-08");
    ck_assert_screen_has(&h, "fp16        16 1/5/10       65504");
    harness_keys(&h, "<BS><BS><BS><BS><BS>70000<Enter>");
    ck_assert(h.d.dtype_value == 70000);
    /* past fp16's 65504: inf; bf16 rounds it to 70144 (steps of 512 in [65536, 131072)) */
    ck_assert_screen_has(&h, "inf");
    ck_assert_screen_has(&h, "70144");
    /* letters are not typed; a lone '-' is refused, the value stays */
    harness_keys(&h, "x<BS><BS><BS><BS><BS>-<Enter>");
    ck_assert(h.d.dtype_value == 70000);
    ck_assert(h.d.status_error);
    harness_keys(&h, "<Esc>");
    ck_assert_int_eq(h.d.mode, DM_NORMAL);
    harness_stop(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("lecture");
    TCase *tc = tcase_create("claims");
    tcase_add_unchecked_fixture(tc, load, unload);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, claims_compute);
    tcase_add_test(tc, claims_dtypes);
    tcase_add_test(tc, claims_fitting);
    tcase_add_test(tc, claims_toys);
    tcase_add_test(tc, claims_activations);
    tcase_add_test(tc, claims_checkpointing);
    tcase_add_test(tc, claims_roofline);
    tcase_add_test(tc, steps_at_80x24);
    tcase_add_test(tc, focus_stays_on_screen);
    tcase_add_test(tc, demo_format_errors);
    tcase_add_test(tc, exercises_answers);
    tcase_add_test(tc, dtypes_box);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite());
}
