/* test_measured.c - the scenario's own GEMM shapes, measured points matched to them, and what
 * they change: the measured column and efficiency in `report` (in process and through the
 * binary, --points and --mfu measured) and in the headless dashboard (the column, M). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_util.h"
#include "cli.h"
#include "dash_harness.h"
#include "inputs.h"
#include "measured.h"
#include "points.h"
#include "report.h"
#include "scenario_check.h"
#include "spec.h"
#include "units.h"

/* Llama 2 7B (reference.md section 4) on 2 H200s, tensor-parallel 2, one sequence of 4096. */
static const char *const LLAMA_ARGS =
    "--model llama2-7b --gpu h200 --gpus 2 --tp 2 --batch 1 --micro-batch 1 --seq 4096 "
    "--tokens 1e9 --flops detailed --mfu 0.5";

static void parse_scenario(struct scenario *s, const char *args)
{
    char buf[1024], err[512];
    char *argv[64];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", args);
    argv[argc++] = (char *)"report";
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    inputs_defaults(s);
    ck_assert_msg(cli_parse_scenario(s, argc, argv, 1, err, sizeof err), "%s", err);
    ck_assert_msg(scenario_validate(s, err, (int)sizeof err), "%s", err);
}

static const struct measured_gemm *gemm(const struct measured_gemm *g, int n, const char *label)
{
    for (int i = 0; i < n; i++)
        if (strcmp(g[i].label, label) == 0)
            return &g[i];
    return NULL;
}

static const struct op *op_named(const struct analysis *a, const char *name, int *index)
{
    for (int i = 0; i < a->n_ops; i++)
        if (strcmp(a->ops[i].name, name) == 0) {
            if (index)
                *index = i;
            return &a->ops[i];
        }
    ck_abort_msg("no op %s", name);
    return NULL;
}

#define ck_shape(g, n, label, M, N, K)                                                       \
    do {                                                                                    \
        const struct measured_gemm *x_ = gemm((g), (n), (label));                           \
        ck_assert_msg(x_ != NULL, "no shape %s", (label));                                  \
        ck_assert_int_eq(x_->m, (M));                                                       \
        ck_assert_int_eq(x_->n, (N));                                                       \
        ck_assert_int_eq(x_->k, (K));                                                       \
    } while (0)

START_TEST(test_shapes_llama2_7b)
{
    struct scenario s;
    parse_scenario(&s, LLAMA_ARGS);
    /* The architecture the shapes come from (reference.md): L 32, h 4096, a = k = 32,
     * f 11008, V 32000, SwiGLU. */
    ck_assert_int_eq(s.model.layers, 32);
    ck_assert_int_eq(s.model.d_model, 4096);
    ck_assert_int_eq(s.model.kv_heads, 32);
    ck_assert_int_eq(s.model.ffn, 11008);
    ck_assert_int_eq(s.model.vocab, 32000);
    const long T = 1 * 4096, h = 4096, t = 2, kd = 32 * (4096 / 32), f = 11008, V = 32000;
    struct measured_gemm g[MEASURED_MAX_GEMMS];
    int n = measured_shapes(&s, g, MEASURED_MAX_GEMMS);
    ck_assert_int_eq(n, 6);
    /* C[M x N] = A[M x K] B[K x N]: QKV 4096 x 4096 x 6144, widths split over 2 ranks */
    ck_shape(g, n, "qkv", T, (h + 2 * kd) / t, h);
    ck_assert_int_eq((h + 2 * kd) / t, 6144);
    ck_shape(g, n, "out_proj", T, h, h / t);
    ck_shape(g, n, "mlp_up", T, f / t, h);
    ck_shape(g, n, "mlp_gate", T, f / t, h);
    ck_shape(g, n, "mlp_down", T, h, f / t);
    ck_shape(g, n, "lm_head", T, V / t, h);

    char arg[512];
    ck_assert(measured_shapes_arg(&s, arg, sizeof arg));
    ck_assert_str_eq(arg, "qkv=4096,6144,4096;out_proj=4096,4096,2048;mlp_up=4096,5504,4096;"
                          "mlp_gate=4096,5504,4096;mlp_down=4096,4096,5504;lm_head=4096,16000,4096");
    char tiny[40];
    ck_assert(!measured_shapes_arg(&s, tiny, sizeof tiny));

    /* The shapes are the ones the FLOP count uses: forward 2MNK per layer, x3 with backward. */
    struct analysis a;
    analysis_run(&s, &a);
    ck_assert(op_named(&a, "qkv", NULL)->flops == 3.0 * 32 * 2.0 * T * 6144 * h);
    ck_assert(op_named(&a, "mlp_down", NULL)->flops == 3.0 * 32 * 2.0 * T * h * (f / t));
    ck_assert(op_named(&a, "lm_head", NULL)->flops == 3.0 * 2.0 * T * (V / t) * h);
}
END_TEST

START_TEST(test_shapes_moe)
{
    /* Mixtral: each token visits its top 2 of 8 experts, so the MLP runs on 2T rows; the
     * router is T x h x 8. GQA: 8 KV heads of 128. */
    struct scenario s;
    parse_scenario(&s, "--model mixtral-8x7b --gpus 8 --tp 8 --batch 2 --micro-batch 2 --seq 1024");
    struct measured_gemm g[MEASURED_MAX_GEMMS];
    int n = measured_shapes(&s, g, MEASURED_MAX_GEMMS);
    const long T = 2 * 1024;
    ck_assert_int_eq(n, 7);
    ck_shape(g, n, "qkv", T, (4096 + 2 * 8 * 128) / 8, 4096);
    ck_shape(g, n, "router", T, 8, 4096);
    ck_shape(g, n, "mlp_up", 2 * T, 14336 / 8, 4096);
    ck_shape(g, n, "mlp_down", 2 * T, 4096, 14336 / 8);
    ck_shape(g, n, "lm_head", T, 32000 / 8, 4096);

    /* A model with one dense layer before its MoE layers: both MLPs, told apart. */
    parse_scenario(&s, "--model mixtral-8x7b --dense-layers 1 --gpus 1 --batch 1 --seq 512");
    n = measured_shapes(&s, g, MEASURED_MAX_GEMMS);
    ck_assert_int_eq(n, 10);
    ck_shape(g, n, "mlp_up", 512, 14336, 4096);
    ck_shape(g, n, "mlp_up_moe", 2 * 512, 14336, 4096);
    ck_assert(gemm(g, n, "mlp_up")->layers == 1 && gemm(g, n, "mlp_up_moe")->layers == 31);
    /* measured_dims (the step-time model's): the same kinds and dimensions, no labels. */
    struct measured_gemm d[MEASURED_MAX_GEMMS];
    ck_assert_int_eq(measured_dims(&s, d, MEASURED_MAX_GEMMS), n);
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(d[i].label, "");
        ck_assert(d[i].kind == g[i].kind && d[i].m == g[i].m && d[i].n == g[i].n &&
                  d[i].k == g[i].k && d[i].layers == g[i].layers);
    }

    /* A vocabulary tp does not divide: the larger share. GPT-2's 50257 over 2 is 25129. */
    parse_scenario(&s, "--model gpt2-small --gpus 2 --tp 2 --batch 2 --seq 1024");
    n = measured_shapes(&s, g, MEASURED_MAX_GEMMS);
    ck_assert_int_eq(n, 5); /* GELU: no gate */
    ck_shape(g, n, "lm_head", 1024, 25129, 768);
}
END_TEST

START_TEST(test_parse_name)
{
    char label[MEASURED_LABEL_MAX];
    long m, n, k;
    ck_assert(measured_parse_name("shape.qkv.4096x6144x4096", label, sizeof label, &m, &n, &k));
    ck_assert_str_eq(label, "qkv");
    ck_assert_int_eq(m, 4096);
    ck_assert_int_eq(n, 6144);
    ck_assert_int_eq(k, 4096);
    ck_assert(measured_parse_name("shape.mlp_up-2.1x2x3", label, sizeof label, &m, &n, &k));
    ck_assert_str_eq(label, "mlp_up-2");
    static const char *const bad[] = {
        "shape.4096x6144x4096", "shape..1x2x3", "shape.qkv.1x2", "shape.qkv.1x2x3x4",
        "shape.qkv.0x2x3", "shape.qkv.1x2x", "shape.qkv.1x2x3.4", "gemm.bf16.4096",
        "shape.qkv.1x-2x3", "shape.qkv.2000000x2x3", "shape.qkv.1 x2x3",
        "shape.a_label_longer_than_23_chars.1x2x3", "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!measured_parse_name(bad[i], label, sizeof label, &m, &n, &k), "took %s",
                      bad[i]);
}
END_TEST

/* Adds a point that ran `flops` at `rate` FLOP/s. */
static void add_point(struct points_doc *d, const char *name, enum dtype dt, double flops,
                      double rate, bool valid)
{
    struct probe_point p = points_make(name, dt, flops, flops / 100, flops / rate, valid);
    ck_assert(points_add(d, &p));
}

/* A point for every shape of s at its exact shape, rate[i] for the i-th. */
static void add_shapes(struct points_doc *d, const struct scenario *s, const double *rate)
{
    struct measured_gemm g[MEASURED_MAX_GEMMS];
    int n = measured_shapes(s, g, MEASURED_MAX_GEMMS);
    for (int i = 0; i < n; i++) {
        char name[POINTS_NAME_MAX];
        snprintf(name, sizeof name, "shape.%s.%ldx%ldx%ld", g[i].label, g[i].m, g[i].n, g[i].k);
        add_point(d, name, s->dtype, 2.0 * g[i].m * g[i].n * g[i].k, rate[i], true);
    }
}

/* The llama2-7b rates of the hand-written document, in measured_shapes order. */
static const double LLAMA_RATES[6] = {600e12, 500e12, 700e12, 700e12, 650e12, 400e12};
static const char *const LLAMA_OPS[6] = {"qkv", "out_proj", "mlp_up", "mlp_gate", "mlp_down",
                                         "lm_head"};

static void llama_doc(struct points_doc *d, const struct scenario *s)
{
    points_init(d);
    /* The H200 the scenario runs on, as CUDA names it (141 GB: it reports 143.8e9 bytes). */
    snprintf(d->device.kind, sizeof d->device.kind, "cuda");
    snprintf(d->device.name, sizeof d->device.name, "NVIDIA H200");
    d->device.memory_bytes = 143.8e9;
    add_point(d, "bw.copy", DTYPE_FP32, 0 + 1, 1e12, true);
    /* Ignored: invalid, no label, another label, not a shape, a smaller qkv (the exact one
     * wins). */
    add_point(d, "shape.qkv.4096x6144x4096", DTYPE_BF16, 2.06e11, 950e12, false);
    add_point(d, "shape.4096x6144x4096", DTYPE_BF16, 2.06e11, 950e12, true);
    add_point(d, "shape.mlp.4096x6144x4096", DTYPE_BF16, 2.06e11, 950e12, true);
    add_point(d, "gemm.bf16.8192", DTYPE_BF16, 1.1e12, 800e12, true);
    add_point(d, "shape.qkv.64x953x4096", DTYPE_BF16, 5e8, 900e12, true);
    add_shapes(d, s, LLAMA_RATES);
}

/* sum F / sum (F / rate) / peak over the ops with a rate. */
static double llama_expected(const struct analysis *a, int n, double *flops, double *secs)
{
    double F = 0, S = 0;
    for (int i = 0; i < n; i++) {
        double f = op_named(a, LLAMA_OPS[i], NULL)->flops;
        F += f;
        S += f / LLAMA_RATES[i];
    }
    *flops = F;
    *secs = S;
    return F / S / 989.4e12;
}

/* The Llama scenario, its analysis and a points document measuring all its GEMMs. */
static void llama_setup(struct scenario *s, struct analysis *a, struct points_doc *d)
{
    parse_scenario(s, LLAMA_ARGS);
    analysis_run(s, a);
    llama_doc(d, s);
}

START_TEST(test_match_efficiency)
{
    struct scenario s;
    struct analysis a;
    struct points_doc d;
    llama_setup(&s, &a, &d);
    struct measured m;
    measured_match(&s, &a, &d, false, &m);
    ck_assert_int_eq(m.n_gemms, 6);
    ck_assert_int_eq(m.n_found, 6);
    ck_assert_int_eq(m.n_gemm_ops, 6);
    ck_assert_int_eq(m.n_ops_measured, 6);
    ck_assert(!m.shape_differs);
    ck_assert(!m.dtype_differs);
    ck_assert_str_eq(m.device, "NVIDIA H200");
    ck_assert(!m.other_device);
    ck_assert(m.peak == 989.4e12);
    double F, S;
    double want = llama_expected(&a, 6, &F, &S);
    ck_assert_rel(m.efficiency, want, 1e-12);
    ck_assert_rel(m.flops, F, 1e-15);
    ck_assert_rel(m.seconds, S, 1e-12);
    /* about 0.6: the rates sit between 400 and 700 TFLOP/s against 989.4 */
    ck_assert(want > 0.55 && want < 0.65);
    for (int i = 0; i < 6; i++) {
        int k;
        const struct op *o = op_named(&a, LLAMA_OPS[i], &k);
        ck_assert_rel(m.op_seconds[k], o->flops / LLAMA_RATES[i], 1e-12);
    }
    int k;
    op_named(&a, "norm", &k);
    ck_assert(m.op_seconds[k] == -1);
    op_named(&a, "flash_attn", &k);
    ck_assert(m.op_seconds[k] == -1);
    double mfu = 0;
    char why[256];
    ck_assert(measured_mfu(&m, &mfu, why, sizeof why));
    ck_assert(mfu == m.efficiency);
    char line[512];
    measured_describe(&m, &s, line, sizeof line);
    char expect[512];
    snprintf(expect, sizeof expect,
             "measured GEMM efficiency %.3g of the bf16 peak (6 of 6 GEMM ops) on NVIDIA H200", want);
    ck_assert_str_eq(line, expect);
    points_free(&d);

    /* Without the LM head's point: five ops, efficiency over them only. */
    llama_doc(&d, &s);
    d.n = 0;
    add_shapes(&d, &s, LLAMA_RATES);
    d.n--; /* the last shape is lm_head */
    measured_match(&s, &a, &d, false, &m);
    ck_assert_int_eq(m.n_ops_measured, 5);
    ck_assert_rel(m.efficiency, llama_expected(&a, 5, &F, &S), 1e-12);
    points_free(&d);

    /* Only the CPU's scaled-down fp32 point for qkv: refused for the H200 (a CPU's rate
     * over a GPU's peak is no MFU, issue 8)... */
    points_init(&d);
    snprintf(d.device.kind, sizeof d.device.kind, "cpu");
    snprintf(d.device.name, sizeof d.device.name, "AMD EPYC 9454");
    add_point(&d, "shape.qkv.64x953x4096", DTYPE_FP32, 2.0 * 64 * 953 * 4096, 50e9, true);
    measured_match(&s, &a, &d, false, &m);
    ck_assert(m.other_device);
    ck_assert_int_eq(m.n_ops_measured, 0);
    ck_assert_str_eq(m.device_why, "the points were measured on AMD EPYC 9454 (a CPU), not on "
                                   "the scenario's H200 SXM");
    /* ...unless the user says they know: matched by its label, and said so. */
    measured_match(&s, &a, &d, true, &m);
    ck_assert_int_eq(m.n_ops_measured, 1);
    ck_assert(m.shape_differs);
    ck_assert(m.dtype_differs);
    ck_assert_rel(m.efficiency, 50e9 / 989.4e12, 1e-12);
    const struct measured_gemm *q = gemm(m.gemm, m.n_gemms, "qkv");
    ck_assert(q->found && q->pm == 64 && q->pn == 953 && q->pk == 4096);
    measured_describe(&m, &s, line, sizeof line);
    ck_assert_msg(strstr(line, "(1 of 6 GEMM ops)") &&
                      strstr(line, "; measured at other shapes than the scenario's; fp32 points "
                                   "against the bf16 peak; another device than the H200 SXM"),
                  "%s", line);
    points_free(&d);

    /* Faster than the scenario's GPU (points from an H200 against an A100): refused. */
    llama_doc(&d, &s);
    d.n = 0;
    static const double fast[6] = {600e12, 600e12, 600e12, 600e12, 600e12, 600e12};
    add_shapes(&d, &s, fast);
    struct scenario a100 = s;
    parse_scenario(&a100, "--model llama2-7b --gpu a100-80gb --gpus 2 --tp 2 --batch 1 --seq 4096");
    struct analysis aa;
    analysis_run(&a100, &aa);
    measured_match(&a100, &aa, &d, false, &m);
    /* Another device: nothing matched, and M says why. */
    ck_assert(m.other_device);
    ck_assert_int_eq(m.n_ops_measured, 0);
    ck_assert(!measured_mfu(&m, &mfu, why, sizeof why));
    ck_assert_str_eq(why, "the points were measured on NVIDIA H200, not on the scenario's A100 "
                          "SXM 80GB");
    /* Used all the same when the user says so: more than the A100's peak. */
    measured_match(&a100, &aa, &d, true, &m);
    ck_assert_rel(m.efficiency, 600.0 / 312.0, 1e-12);
    ck_assert(!measured_mfu(&m, &mfu, why, sizeof why));
    ck_assert_str_eq(why, "measured efficiency 1.92 is not in (0, 1]: the points come from a "
                          "device faster than the scenario's GPU");
    points_free(&d);

    /* No points at all. */
    measured_match(&s, &a, NULL, false, &m);
    ck_assert_int_eq(m.n_ops_measured, 0);
    ck_assert(m.efficiency == 0);
    ck_assert(!measured_mfu(&m, &mfu, why, sizeof why));
    ck_assert_str_eq(why, "no shape points match this scenario's GEMMs");
    measured_describe(&m, &s, line, sizeof line);
    ck_assert_str_eq(line, "");
}
END_TEST

/* The report of s with d's points, in format fmt, into a string (caller frees). */
static char *report_text(const struct scenario *s, const struct points_doc *d, bool mfu,
                         enum report_format fmt)
{
    struct scenario sc = *s;
    if (mfu)
        sc.mfu_mode = MFU_MEASURED;
    static struct evaluation ev;
    struct eval_input in = {.points = d};
    evaluation_run(&sc, &in, &ev);
    ck_assert(!mfu || ev.mfu_from == MFU_MEASURED);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert(report_write(f, &ev, fmt));
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

START_TEST(test_report_formats)
{
    struct scenario s;
    struct analysis a;
    struct points_doc d;
    llama_setup(&s, &a, &d);
    double F, S;
    double eff = llama_expected(&a, 6, &F, &S);
    int qk;
    const struct op *qkv = op_named(&a, "qkv", &qk);
    char qsec[32];
    units_duration(qkv->flops / 600e12, qsec, sizeof qsec);

    /* text: a measured column, "-" where nothing was measured, the efficiency line */
    char *t = report_text(&s, &d, false, REPORT_TEXT);
    ck_assert_msg(strstr(t, "time   measured\n"), "%s", t);
    char row[160];
    snprintf(row, sizeof row, " %10s\n", qsec);
    ck_assert_msg(strstr(strstr(t, "  qkv "), row) != NULL, "%s", t);
    ck_assert_msg(strstr(strstr(t, "  norm "), "          -\n") != NULL, "%s", t);
    char line[256];
    snprintf(line, sizeof line, "  measured GEMM efficiency %.3g of the bf16 peak (6 of 6 GEMM ops) "
                                "on NVIDIA H200\n", eff);
    ck_assert_msg(strstr(t, line), "%s", t);
    ck_assert(strstr(t, "MFU 0.5, FLOPs detailed"));
    free(t);

    /* with --mfu measured: the MFU is the efficiency, and the report says so */
    t = report_text(&s, &d, true, REPORT_TEXT);
    snprintf(line, sizeof line, "MFU %.3g (measured GEMM efficiency), FLOPs detailed", eff);
    ck_assert_msg(strstr(t, line), "%s", t);
    ck_assert(strstr(t, "; the training time uses it as the MFU\n"));
    free(t);

    /* JSON: ops[].measured_seconds (null when not measured), "measured" */
    t = report_text(&s, &d, true, REPORT_JSON);
    cJSON *root = cJSON_Parse(t);
    ck_assert_ptr_nonnull(root);
    cJSON *ops = cJSON_GetObjectItem(root, "ops");
    cJSON *o = cJSON_GetArrayItem(ops, qk);
    ck_assert_str_eq(cJSON_GetObjectItem(o, "name")->valuestring, "qkv");
    ck_assert_rel(cJSON_GetObjectItem(o, "measured_seconds")->valuedouble, qkv->flops / 600e12,
                  1e-12);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(ops, 0), "measured_seconds")));
    cJSON *me = cJSON_GetObjectItem(root, "measured");
    ck_assert_rel(cJSON_GetObjectItem(me, "efficiency")->valuedouble, eff, 1e-12);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(me, "used_as_mfu")));
    ck_assert_int_eq(cJSON_GetObjectItem(me, "ops_measured")->valueint, 6);
    cJSON *sq = cJSON_GetObjectItem(cJSON_GetObjectItem(me, "shapes"), "qkv");
    ck_assert_int_eq(cJSON_GetObjectItem(sq, "n")->valueint, 6144);
    ck_assert_rel(cJSON_GetObjectItem(sq, "flops_per_s")->valuedouble, 600e12, 1e-12);
    ck_assert_rel(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "time"), "hfu")->valuedouble, eff,
                  1e-9);
    cJSON_Delete(root);
    free(t);

    /* CSV and Markdown */
    t = report_text(&s, &d, false, REPORT_CSV);
    ck_assert_msg(strstr(t, "\nops,qkv.measured_seconds,"), "%s", t);
    /* An op without a measured point: JSON's null, an empty value. */
    ck_assert(strstr(t, "\nops,norm.measured_seconds,,\n"));
    ck_assert(strstr(t, "\nmeasured,efficiency,0.") && strstr(t, ",fraction\n"));
    ck_assert(strstr(t, "\nmeasured,shapes.qkv.n,6144,\n"));
    free(t);
    t = report_text(&s, &d, false, REPORT_MD);
    ck_assert(strstr(t, "| op | FLOPs | bytes | FLOP/B | bound | time | measured |\n"
                        "|---|---:|---:|---:|---|---:|---:|\n"));
    snprintf(row, sizeof row, " %s |\n", qsec);
    ck_assert(strstr(strstr(t, "| qkv |"), row));
    ck_assert(strstr(t, "\n- measured GEMM efficiency "));
    free(t);

    /* Points without this scenario's shapes: the column is all "-", and the line says what
     * to measure. */
    struct points_doc none;
    points_init(&none);
    add_point(&none, "bw.copy", DTYPE_FP32, 1, 1e12, true);
    t = report_text(&s, &none, false, REPORT_TEXT);
    ck_assert_msg(strstr(t, "  measured: the points hold no shape points for this scenario's GEMMs "
                            "(measure them with rooftop probe --shapes 'qkv=4096,6144,4096;"),
                  "%s", t);
    free(t);
    points_free(&none);
    points_free(&d);
}
END_TEST

/* ---- through the binary -------------------------------------------------------------------- */

static char tmpdir[256];

static void setup(void)
{
    check_tmpdir(tmpdir, sizeof tmpdir, "measured");
}

static void teardown(void)
{
    check_rmtree(tmpdir);
}

/* Runs the binary with args; stdout into *out (caller frees), stderr into err. */
static int run_bin(const char *args, char **out, char *err, size_t errn)
{
    struct check_run r;
    check_run_bin(&r, args);
    *out = r.out;
    snprintf(err, errn, "%s", r.err);
    free(r.err);
    return r.status;
}

START_TEST(test_bin_report_points)
{
    struct scenario s;
    struct analysis a;
    struct points_doc d;
    llama_setup(&s, &a, &d);
    char path[512], err[4096];
    snprintf(path, sizeof path, "%s/points.json", tmpdir);
    ck_assert_msg(points_save_file(path, &d, err, sizeof err), "%s", err);
    points_free(&d);
    double F, S;
    double eff = llama_expected(&a, 6, &F, &S);

    char args[2048];
    char *out;
    snprintf(args, sizeof args, "report %s --points '%s' --mfu measured --format json", LLAMA_ARGS,
             path);
    ck_assert_msg(run_bin(args, &out, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(err, "");
    cJSON *root = cJSON_Parse(out);
    ck_assert_ptr_nonnull(root);
    /* The written points keep 9 digits: the efficiency agrees to that. */
    double got = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "measured"), "efficiency")->valuedouble;
    ck_assert_rel(got, eff, 1e-8);
    ck_assert_rel(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "scenario"), "mfu")->valuedouble,
                  eff, 1e-8);
    /* time = executed FLOPs / (GPUs x peak x measured efficiency) */
    ck_assert_rel(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "time"), "seconds")->valuedouble,
                  a.flops.total / (2 * 989.4e12 * eff), 1e-8);
    cJSON_Delete(root);
    free(out);

    /* the text report, and the dashboard's report when stdout is not a terminal */
    snprintf(args, sizeof args, "report %s --points '%s'", LLAMA_ARGS, path);
    ck_assert_msg(run_bin(args, &out, err, sizeof err) == 0, "%s", err);
    ck_assert(strstr(out, "time   measured\n") && strstr(out, "measured GEMM efficiency 0.6"));
    free(out);
    snprintf(args, sizeof args, "%s --points '%s'", LLAMA_ARGS, path);
    ck_assert_msg(run_bin(args, &out, err, sizeof err) == 0, "%s", err);
    ck_assert(strstr(out, "time   measured\n") && strstr(out, "measured GEMM efficiency 0.6"));
    free(out);
    /* the headless dashboard with its M key */
    snprintf(args, sizeof args, "snapshot --size 140x45 %s --points '%s' --keys M", LLAMA_ARGS,
             path);
    ck_assert_msg(run_bin(args, &out, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(strstr(out, "MFU = measured GEMM efficiency 0.6") && strstr(out, " measured"),
                  "%s", out);
    free(out);

    /* Errors: one line naming the flag. */
    snprintf(args, sizeof args, "report %s --mfu measured", LLAMA_ARGS);
    ck_assert_int_eq(run_bin(args, &out, err, sizeof err), 2);
    ck_assert_str_eq(err, "rooftop report: --mfu: 'measured' needs --points FILE with shape points "
                          "for this scenario\n");
    free(out);
    char empty[512];
    snprintf(empty, sizeof empty, "%s/empty.json", tmpdir);
    struct points_doc e;
    points_init(&e);
    snprintf(e.device.kind, sizeof e.device.kind, "cuda");
    snprintf(e.device.name, sizeof e.device.name, "NVIDIA H200");
    add_point(&e, "bw.copy", DTYPE_FP32, 1, 1e12, true);
    ck_assert(points_save_file(empty, &e, err, sizeof err));
    points_free(&e);
    snprintf(args, sizeof args, "report %s --points '%s' --mfu=measured", LLAMA_ARGS, empty);
    ck_assert_int_eq(run_bin(args, &out, err, sizeof err), 2);
    char want[1024];
    snprintf(want, sizeof want, "rooftop report: --mfu: 'measured' needs --points FILE with shape "
                                "points for this scenario (%s has none; rooftop probe --shapes "
                                "measures them)\n", empty);
    ck_assert_str_eq(err, want);
    free(out);
    /* Points from a CPU against the H200 scenario: one line, exit 2; the flag that says the
     * user knows lets them through. */
    char cpu[512];
    snprintf(cpu, sizeof cpu, "%s/cpu.json", tmpdir);
    points_init(&e);
    snprintf(e.device.kind, sizeof e.device.kind, "cpu");
    snprintf(e.device.name, sizeof e.device.name, "AMD EPYC 9454");
    static const double slow[6] = {1e11, 1e11, 1e11, 1e11, 1e11, 1e11};
    add_shapes(&e, &s, slow);
    ck_assert(points_save_file(cpu, &e, err, sizeof err));
    points_free(&e);
    static const char *const tails[] = {"--mfu measured", ""};
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "report %s --points '%s' %s", LLAMA_ARGS, cpu, tails[k]);
        ck_assert_int_eq(run_bin(args, &out, err, sizeof err), 2);
        ck_assert_str_eq(err, "rooftop report: --points: the points were measured on AMD EPYC "
                              "9454 (a CPU), not on the scenario's H200 SXM (--gpu to match "
                              "them, or --points-any-device)\n");
        ck_assert_str_eq(out, "");
        free(out);
    }
    snprintf(args, sizeof args, "report %s --points '%s' --points-any-device --format json",
             LLAMA_ARGS, cpu);
    ck_assert_msg(run_bin(args, &out, err, sizeof err) == 0, "%s", err);
    root = cJSON_Parse(out);
    ck_assert_ptr_nonnull(root);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "measured"),
                                               "other_device")));
    cJSON_Delete(root);
    free(out);
    /* The dashboard's report without a terminal refuses the same way. */
    snprintf(args, sizeof args, "%s --points '%s'", LLAMA_ARGS, cpu);
    ck_assert_int_eq(run_bin(args, &out, err, sizeof err), 2);
    ck_assert_msg(strstr(err, "AMD EPYC 9454 (a CPU), not on the scenario's H200 SXM"), "%s", err);
    free(out);

    snprintf(args, sizeof args, "report --points '%s/missing.json'", tmpdir);
    ck_assert_int_eq(run_bin(args, &out, err, sizeof err), 2);
    ck_assert_msg(strncmp(err, "rooftop report: --points: ", 26) == 0 && strstr(err, "missing.json") &&
                      strchr(err, '\n') == err + strlen(err) - 1,
                  "%s", err);
    free(out);
    ck_assert_int_eq(run_bin("report --points", &out, err, sizeof err), 2);
    ck_assert_str_eq(err, "rooftop report: --points: needs a value\n");
    free(out);
    /* A later numeric --mfu wins over an earlier "measured". */
    snprintf(args, sizeof args, "report %s --points '%s' --mfu measured --mfu 0.3 --format json",
             LLAMA_ARGS, path);
    ck_assert_msg(run_bin(args, &out, err, sizeof err) == 0, "%s", err);
    root = cJSON_Parse(out);
    ck_assert(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "scenario"), "mfu")->valuedouble == 0.3);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "measured"), "used_as_mfu")));
    cJSON_Delete(root);
    free(out);
}
END_TEST

/* ---- the dashboard ------------------------------------------------------------------------- */

START_TEST(test_dashboard_measured)
{
    struct harness h;
    harness_start(&h, 140, 45, true, true);
    /* Every GEMM of the lecture's scenario measured at 40% of the H100's bf16 peak. */
    double rate = 0.4 * gpu_peak(&h.d.sc.gpu, h.d.sc.dtype);
    double rates[MEASURED_MAX_GEMMS];
    for (int i = 0; i < MEASURED_MAX_GEMMS; i++)
        rates[i] = rate;
    struct points_doc d;
    points_init(&d);
    snprintf(d.device.kind, sizeof d.device.kind, "cuda");
    snprintf(d.device.name, sizeof d.device.name, "NVIDIA H100 80GB HBM3");
    add_shapes(&d, &h.d.sc, rates);
    dash_set_points(&h.d, &d, "test.json");
    points_free(&d);
    ck_assert_int_eq(h.d.ev.meas.n_ops_measured, 6);
    ck_assert_rel(h.d.ev.meas.efficiency, 0.4, 1e-12);
    harness_draw(&h);
    ck_assert_screen_has(&h, "time measured");
    char want[32];
    units_duration(op_named(&h.d.ev.an, "qkv", NULL)->flops / rate, want, sizeof want);
    ck_assert_screen_has(&h, want);
    ck_assert_int_eq(h.s.cut, 0);

    /* M: the MFU is the measured efficiency; 143.9 days at 0.5 become 179.9 at 0.4 */
    harness_keys(&h, "M");
    ck_assert((h.d.ev.mfu_from == MFU_MEASURED));
    ck_assert_rel(h.d.ev.mfu, 0.4, 1e-12);
    ck_assert(h.d.sc.mfu == 0.5); /* the user's MFU is kept, never overwritten */
    ck_assert_rel(h.d.ev.an.time.days, 143.93 * 0.5 / 0.4, 1e-3);
    ck_assert_screen_has(&h, "179.9 days");
    ck_assert_screen_has(&h, "MFU = measured GEMM efficiency 0.4 on NVIDIA H100 80GB HBM3 (M: back to 0.5)");
    harness_focus(&h, slider_id("mfu"));
    ck_assert_screen_has(&h, ", MFU measured");
    ck_assert_screen_has(&h, "MFU measured = GEMM FLOPs / measured s / peak = ");
    ck_assert_int_eq(h.s.cut, 0);
    /* the ops panel's line */
    harness_focus(&h, FOCUS_OPS);
    ck_assert_screen_has(&h, "measured: 6 of 6 GEMM ops");

    /* Another sequence length: other shapes, matched by label, the MFU follows (still 0.4) */
    harness_focus(&h, slider_id("seq"));
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.sc.seq, 4096);
    ck_assert((h.d.ev.mfu_from == MFU_MEASURED) && h.d.ev.meas.shape_differs);
    ck_assert_rel(h.d.ev.mfu, 0.4, 1e-12);

    /* M again: back to the guess */
    harness_keys(&h, "M");
    ck_assert(!(h.d.ev.mfu_from == MFU_MEASURED));
    ck_assert(h.d.sc.mfu == 0.5);
    ck_assert_screen_has(&h, "MFU back to 0.5");

    /* Moving the MFU slider ends the measured MFU */
    harness_keys(&h, "M");
    harness_focus(&h, slider_id("mfu"));
    harness_keys(&h, "<Left>");
    ck_assert(!(h.d.ev.mfu_from == MFU_MEASURED));
    ck_assert_rel(h.d.sc.mfu, 0.45, 1e-12); /* a step below the user's 0.5 */
    ck_assert(h.d.ev.mfu == h.d.sc.mfu);

    /* A smaller terminal: the column stays, nothing is cut */
    harness_keys(&h, "<Resize 100x30>");
    ck_assert_int_eq(h.s.cut, 0);
    harness_keys(&h, "t<Resize 80x24>");
    ck_assert_int_eq(h.s.cut, 0);
    harness_stop(&h);

    /* Refused: no points, points without shapes, a faster device */
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "M");
    ck_assert(!(h.d.ev.mfu_from == MFU_MEASURED) && h.d.sc.mfu == 0.5 && h.d.status_error);
    ck_assert_screen_has(&h, "M: no measured points: P measures this scenario's GEMM shapes");
    points_init(&d);
    snprintf(d.device.kind, sizeof d.device.kind, "cuda");
    snprintf(d.device.name, sizeof d.device.name, "NVIDIA H100 80GB HBM3");
    add_point(&d, "bw.copy", DTYPE_FP32, 1, 1e12, true);
    dash_set_points(&h.d, &d, "bw.json");
    harness_keys(&h, "M");
    ck_assert(!(h.d.ev.mfu_from == MFU_MEASURED) && h.d.sc.mfu == 0.5);
    ck_assert_screen_has(&h, "M: no shape points match this scenario's GEMMs (P measures them)");
    for (int i = 0; i < MEASURED_MAX_GEMMS; i++)
        rates[i] = 2 * h.d.ev.meas.peak;
    snprintf(d.device.kind, sizeof d.device.kind, "cuda");
    snprintf(d.device.name, sizeof d.device.name, "NVIDIA H100 80GB HBM3");
    add_shapes(&d, &h.d.sc, rates);
    dash_set_points(&h.d, &d, "fast.json");
    points_free(&d);
    harness_keys(&h, "M");
    ck_assert(!(h.d.ev.mfu_from == MFU_MEASURED) && h.d.sc.mfu == 0.5);
    ck_assert_screen_has(&h, "M: measured efficiency 2 is not in (0, 1]");
    /* Points from this machine's CPU (P without a GPU): plotted, but the status line says
     * they do not apply, no measured column, and M refuses (issue 8: MFU 0.000109). */
    struct points_doc cpu;
    points_init(&cpu);
    snprintf(cpu.device.kind, sizeof cpu.device.kind, "cpu");
    snprintf(cpu.device.name, sizeof cpu.device.name, "AMD EPYC 9454");
    for (int i = 0; i < MEASURED_MAX_GEMMS; i++)
        rates[i] = 1e11;
    add_shapes(&cpu, &h.d.sc, rates);
    dash_set_points(&h.d, &cpu, "cpu.json");
    points_free(&cpu);
    harness_draw(&h);
    ck_assert_screen_has(&h, "measured on AMD EPYC 9454 (a CPU), not on the scenario's H100");
    ck_assert_int_eq(h.d.ev.meas.n_ops_measured, 0);
    ck_assert(!screen_contains(&h.s, "time measured"));
    harness_keys(&h, "M");
    ck_assert(!(h.d.ev.mfu_from == MFU_MEASURED) && h.d.sc.mfu == 0.5 && h.d.status_error);
    ck_assert_rel(h.d.ev.an.time.days, 143.93, 1e-3);
    ck_assert_screen_has(&h, "M: the points were measured on AMD EPYC 9454");
    ck_assert_screen_has(&h, "H100 SXM5 (pick that GPU, or start with -");
    harness_stop(&h);
}
END_TEST

/* A device as CUDA (or the CPU probe) names it. */
static struct probe_device device(const char *kind, const char *name, double memory)
{
    struct probe_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.kind, sizeof d.kind, "%s", kind);
    snprintf(d.name, sizeof d.name, "%s", name);
    d.memory_bytes = memory;
    return d;
}

static bool applies(const char *kind, const char *name, double memory, const char *gpu_id)
{
    struct gpu_spec g;
    char err[512];
    ck_assert_msg(spec_find_gpu(gpu_id, &g, err, sizeof err), "%s", err);
    struct probe_device d = device(kind, name, memory);
    return measured_device_matches(&d, &g);
}

START_TEST(test_device_match)
{
    /* The names cudaGetDeviceProperties gives, with the memory it reports. */
    ck_assert(applies("cuda", "NVIDIA H100 80GB HBM3", 85.0e9, "h100-sxm"));
    ck_assert(applies("cuda", "NVIDIA H200", 143.8e9, "h200"));
    ck_assert(applies("cuda", "NVIDIA A100-SXM4-80GB", 85.1e9, "a100-80gb"));
    ck_assert(applies("cuda", "NVIDIA A100-SXM4-40GB", 42.5e9, "a100-40gb"));
    ck_assert(applies("cuda", "NVIDIA GeForce RTX 4090", 25.3e9, "rtx-4090"));
    ck_assert(applies("cuda", "Tesla V100-SXM2-32GB", 34.1e9, "v100"));
    ck_assert(applies("cuda", "NVIDIA H100 PCIe", 85.0e9, "h100-pcie"));
    ck_assert(applies("cuda", "NVIDIA H100 NVL", 100.0e9, "h100-nvl"));
    /* Another GPU, another variant, another memory size, a CPU, no name. */
    ck_assert(!applies("cuda", "NVIDIA H200", 143.8e9, "h100-sxm"));
    ck_assert(!applies("cuda", "NVIDIA H100 PCIe", 85.0e9, "h100-sxm"));
    ck_assert(!applies("cuda", "NVIDIA H100 80GB HBM3", 85.0e9, "h100-pcie"));
    ck_assert(!applies("cuda", "NVIDIA A100-SXM4-40GB", 42.5e9, "a100-80gb"));
    ck_assert(!applies("cuda", "NVIDIA GH200 480GB", 102e9, "h200"));
    ck_assert(!applies("cuda", "NVIDIA L40", 48.3e9, "l40s"));
    ck_assert(!applies("cpu", "AMD EPYC 9454 48-Core Processor", 400e9, "h100-sxm"));
    ck_assert(!applies("cuda", "", 85.0e9, "h100-sxm"));
    /* A spec saved from the points (--save-spec) is the device itself, CPU or GPU. */
    struct gpu_spec g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "AMD EPYC 9454 48-Core Processor (measured)");
    struct probe_device d = device("cpu", "AMD EPYC 9454 48-Core Processor", 400e9);
    ck_assert(measured_device_matches(&d, &g));
    d = device("cpu", "Intel Xeon", 400e9);
    ck_assert(!measured_device_matches(&d, &g));
}
END_TEST

static Suite *measured_suite(void)
{
    Suite *s = suite_create("measured");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_shapes_llama2_7b);
    tcase_add_test(tc, test_shapes_moe);
    tcase_add_test(tc, test_parse_name);
    tcase_add_test(tc, test_match_efficiency);
    tcase_add_test(tc, test_device_match);
    tcase_add_test(tc, test_report_formats);
    tcase_add_test(tc, test_dashboard_measured);
    suite_add_tcase(s, tc);
    TCase *bin = tcase_create("bin");
    tcase_add_checked_fixture(bin, setup, teardown);
    tcase_set_timeout(bin, 60);
    tcase_add_test(bin, test_bin_report_points);
    suite_add_tcase(s, bin);
    return s;
}

int main(void)
{
    return check_run_suite(measured_suite());
}
