/* test_dashboard.c - the dashboard driven headlessly with keys and the mouse: the figures on
 * screen, what sliders do to them, the lecture demo, files, overlays, snapshots, and the real
 * binary in tmux. */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "checkpoint.h"
#include "checkpoint_panel.h"
#include "dash_harness.h"
#include "demo.h"
#include "explain.h"
#include "infer_frame.h"
#include "infer_report.h"
#include "memory.h"
#include "ops.h"
#include "predict.h"
#include "report.h"
#include "snapshot.h"
#include "units.h"

/* The lecture: 6 x 70e9 x 15e12 / (1024 x 989.4e12 x 0.5) seconds = 143.9 days. */
START_TEST(test_default_figures)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_draw(&h);
    ck_assert_rel(h.d.ev.an.time.days, 143.93, 1e-3);
    ck_assert_rel(h.d.ev.an.flops.six_nd, 6.3e24, 1e-9);
    ck_assert_screen_has(&h, "143.9 days");
    ck_assert_screen_has(&h, "6.30e24");
    ck_assert_screen_has(&h, "70B");
    ck_assert_screen_has(&h, "1024");
    ck_assert_screen_has(&h, "h100-sxm");
    /* The focus starts on the first input, the model; its line sums the parameters. */
    ck_assert_int_eq(h.d.focus, slider_id("model"));
    ck_assert_screen_has(&h, "N = 69999326208: 75 layers");
    ck_assert_int_eq(h.s.cut, 0);
    /* On the size, the explanation line fills the lecture's formula in. */
    harness_focus(&h, slider_id("params"));
    ck_assert_screen_has(&h, "6 × 7e10 × 1.5e13 = 6.3e24 FLOPs");
    ck_assert_int_eq(h.s.cut, 0);
    harness_stop(&h);
}
END_TEST

/* The panels show the report's figures as the report writes them: the compute panel's
 * GPU-hours and the operations table's qkv row (its FLOP/B 1459, not a rounded 1.46k), each
 * equal to the text of `rooftop report` for the same scenario. */
START_TEST(test_panels_are_the_report)
{
    struct harness h;
    harness_start(&h, 200, 60, true, true);
    harness_draw(&h);
    struct check_run run;
    ck_assert_int_eq(check_run_bin(&run, "report"), 0);
    ck_assert_msg(strstr(run.out, "GPU-hours          3.54M") != NULL, "%s", run.out);
    ck_assert_msg(strstr(run.out, "qkv               1.91e14     131 GB       1459 compute") !=
                      NULL,
                  "%s", run.out);
    check_run_free(&run);
    ck_assert_screen_has(&h, "GPU-hours       3.54M");
    ck_assert_screen_has(&h, "b qkv          1.91e14   131 GB    1459  compute  193 ms");
    /* The serving view's time to first token: the serving report's row, its brief label on
     * screen and the same value in `rooftop infer`'s text for the view's scenario. */
    harness_keys(&h, "i");
    ck_assert(h.d.inf.on);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert(f != NULL);
    ck_assert(infer_report_write(f, &h.d.inf.ev.sc, &h.d.inf.ev.serving, REPORT_TEXT));
    ck_assert_int_eq(fclose(f), 0);
    char ttft[32], line[96];
    units_duration(h.d.inf.ev.serving.ttft, ttft, sizeof ttft);
    snprintf(line, sizeof line, "time to first token    %s", ttft);
    ck_assert_msg(strstr(text, line) != NULL, "%s", text);
    free(text);
    snprintf(line, sizeof line, "TTFT %*s", 12 - (int)strlen(ttft), ttft);
    ck_assert_screen_has(&h, line);
    harness_stop(&h);
}
END_TEST

/* The number (or flag, as 0 or 1) at a dotted key of a report's JSON. */
static double json_num(const cJSON *j, const char *key)
{
    const cJSON *o = report_json_at(j, key);
    ck_assert_msg(cJSON_IsNumber(o) || cJSON_IsBool(o), "no number at %s", key);
    return cJSON_IsBool(o) ? (double)cJSON_IsTrue(o) : o->valuedouble;
}

/* The string at a dotted key of a report's JSON. */
static const char *json_str(const cJSON *j, const char *key)
{
    const cJSON *o = report_json_at(j, key);
    ck_assert_msg(cJSON_IsString(o), "no string at %s", key);
    return o->valuestring;
}

/* The number at key of j, also as fmt (a units_ writer) writes it into buf[32]. */
static double json_fmt(const cJSON *j, const char *key, void (*fmt)(double, char *, size_t),
                       char *buf)
{
    double x = json_num(j, key);
    fmt(x, buf, 32);
    return x;
}

/* The JSON of `rooftop report --format json ARGS`: the report of the CLI's own evaluation. */
static cJSON *cli_report_json(const char *args)
{
    struct check_run run;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "report --format json %s", args);
    ck_assert_int_eq(check_run_bin(&run, cmd), 0);
    cJSON *j = cJSON_Parse(run.out);
    ck_assert_msg(j != NULL, "%s", run.out);
    check_run_free(&run);
    return j;
}

/* The title's figures and the memory panel's, each the report's figure j for the scenario
 * on screen: its parameters, time at the MFU in use, memory total and whether it fits; the
 * total against the usable memory, how far over, the capacity, each row's share, the
 * pipeline stage. */
static void ck_title_and_verdict(struct harness *h, const cJSON *j)
{
    char tot[32], use[32], dur[32], n[32], over[32], line[256];
    double t = json_fmt(j, "memory.total", units_bytes, tot);
    double u = json_fmt(j, "memory.usable", units_bytes, use);
    bool fits = json_num(j, "memory.fits") != 0;
    json_fmt(j, "time.seconds", units_duration, dur);
    json_fmt(j, "params.total", units_count, n);
    snprintf(line, sizeof line, " %s params │", n);
    ck_assert_screen_has(h, line);
    snprintf(line, sizeof line, "│ %s at MFU %.3g │", dur, json_num(j, "scenario.mfu"));
    ck_assert_screen_has(h, line);
    snprintf(line, sizeof line, "│ %s/GPU %s ", tot, fits ? "fits" : "DOES NOT FIT");
    ck_assert_screen_has(h, line);
    units_bytes(t - u, over, sizeof over);
    if (fits)
        snprintf(line, sizeof line, "│ %s of %s usable (%.0f%%): fits", tot, use, 100 * t / u);
    else
        snprintf(line, sizeof line, "│ %s of %s usable: over by %s (%.1f×)", tot, use, over,
                 t / u);
    ck_assert_screen_has(h, line);
    /* The header's capacity, and each row's bytes with its share of the total after them. */
    json_fmt(j, "memory.capacity", units_bytes, use);
    snprintf(line, sizeof line, " h100-sxm %s ─", use);
    ck_assert_screen_has(h, line);
    const cJSON *row;
    cJSON_ArrayForEach(row, report_json_at(j, "memory.rows")) {
        double bytes = json_fmt(row, "bytes", units_bytes, use);
        snprintf(over, sizeof over, "%.0f%%", 100 * bytes / t);
        snprintf(line, sizeof line, " %s%6s", use, over);
        if (bytes > 0)
            ck_assert_screen_has(h, line);
    }
    double stage = json_num(j, "memory.stage.index"), stages = json_num(j, "memory.stage.stages");
    if (stages > 1) {
        snprintf(line, sizeof line, "): fits, stage %.0f/%.0f%s", stage + 1, stages,
                 stage == 0 ? " (first)" : stage == stages - 1 ? " (last)" : "");
        ck_assert_screen_has(h, line);
    }
}

/* The roofline's ridge and the operations table's header: the report's figures j (the
 * serving report's: the operations' sums of each phase). */
static void ck_ops_headers(struct harness *h, const cJSON *j, bool serving)
{
    char a[32], b[32], line[256];
    json_fmt(j, "roofline.ridge", units_plain, a);
    snprintf(line, sizeof line, " ridge %s FLOP/B ─", a);
    ck_assert_screen_has(h, line);
    if (serving) {
        double sum[2] = {0, 0};
        const cJSON *op;
        cJSON_ArrayForEach(op, report_json_at(j, "ops"))
            sum[strcmp(json_str(op, "phase"), "prefill") != 0] += json_num(op, "seconds");
        units_duration(sum[0], a, sizeof a);
        units_duration(sum[1], b, sizeof b);
        snprintf(line, sizeof line, " P %s, D %s ─", a, b);
    } else {
        json_fmt(j, "roofline.step_seconds", units_duration, a);
        snprintf(line, sizeof line, " sum %s ─", a);
    }
    ck_assert_screen_has(h, line);
    if (!serving && json_num(j, "memory.stage.stages") > 1) {
        snprintf(line, sizeof line, "─ Ops per step, one GPU: %.0f layers%s ─",
                 json_num(j, "roofline.stage_layers"),
                 json_num(j, "roofline.stage_lm_head") != 0 ? " + head" : "");
        ck_assert_screen_has(h, line);
    }
}

/* The compute panel's step bar headline: the report's predicted step, its MFU, the MFU
 * assumed, and each part of at least 0.5% of the step by its share of the breakdown. */
static void ck_step_bar(struct harness *h, const cJSON *j)
{
    double step = json_num(j, "time.predicted.step_seconds");
    const cJSON *br = report_json_at(j, "time.predicted.breakdown");
    ck_assert(cJSON_IsObject(br));
    char t[32], line[320];
    units_duration(step, t, sizeof t);
    int n = snprintf(line, sizeof line, "│ step %s  MFU %.2g (assumed %.2g):", t,
                     json_num(j, "time.predicted.mfu"), json_num(j, "time.mfu"));
    for (int k = 0; k < PART_COUNT; k++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(br, predict_part_name(k));
        ck_assert_msg(cJSON_IsNumber(p), "no breakdown.%s", predict_part_name(k));
        if (p->valuedouble > 0 && p->valuedouble >= 0.005 * step)
            n += snprintf(line + n, sizeof line - (size_t)n, " %s %.0f%%", predict_part_brief(k),
                          100 * p->valuedouble / step);
    }
    ck_assert_screen_has(h, line);
}

/* The serving view's title, memory bar's lines and efficiency header, each the serving
 * report's figure for the view's scenario. Returns whether it fits. */
static bool ck_serving_lines(struct harness *h)
{
    cJSON *j = infer_report_json(&h->d.inf.ev.sc, &h->d.inf.ev.serving);
    ck_assert(j != NULL);
    char tot[32], cap[32], a[32], b[32], line[256];
    double t = json_fmt(j, "memory.total", units_bytes, tot);
    double c = json_fmt(j, "memory.capacity", units_bytes, cap);
    bool fits = json_num(j, "memory.fits") != 0;
    json_fmt(j, "latency.ttft", units_duration, a);
    json_fmt(j, "latency.tpot", units_duration, b);
    snprintf(line, sizeof line, "│ TTFT %s TPOT %s │ %s/GPU %s ", a, b, tot,
             fits ? "fits" : "DOES NOT FIT");
    ck_assert_screen_has(h, line);
    if (fits)
        snprintf(line, sizeof line, "│ %s of %s (%.0f%%): fits; max batch %.0f", tot, cap,
                 100 * t / c, json_num(j, "max_batch"));
    else
        snprintf(line, sizeof line, "│ %s of %s: DOES NOT FIT; max batch %.0f", tot, cap,
                 json_num(j, "max_batch"));
    ck_assert_screen_has(h, line);
    static const char *const part[] = {"memory.weights", "memory.kv_cache",
                                       "memory.activations"};
    for (int i = 0; i < 3; i++) {
        snprintf(b, sizeof b, "%.0f%%", 100 * json_fmt(j, part[i], units_bytes, a) / t);
        snprintf(line, sizeof line, " %s%*s", a, 6, b);
        ck_assert_screen_has(h, line);
    }
    json_fmt(j, "kv.bytes_per_token", units_bytes, a);
    snprintf(line, sizeof line, "KV %s per token;", a);
    ck_assert_screen_has(h, line);
    snprintf(line, sizeof line, " efficiency %.2g / %.2g ─", json_num(j, "scenario.compute_eff"),
             json_num(j, "scenario.memory_eff"));
    ck_assert_screen_has(h, line);
    ck_ops_headers(h, j, true);
    cJSON_Delete(j);
    return fits;
}

/* The lines the panels write around their figures (the title bar, the memory verdict, the
 * step bar's headline, the roofline's and the operations' headers, the serving view's
 * memory lines and efficiency header) each take
 * their figures from the report's rows: equal to `rooftop report`'s JSON for the same
 * scenario, where it fits, where it does not, and on a pipeline's first stage. */
START_TEST(test_panel_lines_are_the_report)
{
    struct harness h;
    harness_start(&h, 200, 60, true, true);
    harness_draw(&h);
    cJSON *j = cli_report_json("");
    ck_title_and_verdict(&h, j);
    ck_step_bar(&h, j);
    ck_ops_headers(&h, j, false);
    cJSON_Delete(j);
    /* ZeRO 0: every rank holds the whole optimizer state, over the usable memory. */
    harness_focus(&h, slider_id("zero"));
    harness_keys(&h, "<Home>");
    ck_assert_int_eq(h.d.sc.zero, 0);
    ck_assert(!h.d.ev.an.memory.fits);
    j = cli_report_json("--zero 0");
    ck_title_and_verdict(&h, j);
    ck_step_bar(&h, j);
    cJSON_Delete(j);
    /* ZeRO 3 again, on four pipeline stages of eight-way tensor parallelism: the rows are
     * the first stage's. */
    harness_keys(&h, "<End>");
    h.d.sc.pp = 4;
    h.d.sc.tp = 8;
    dash_recompute(&h.d);
    harness_draw(&h);
    ck_assert(h.d.ev.an.memory.stages == 4 && h.d.ev.an.memory.fits);
    j = cli_report_json("--pp 4 --tp 8");
    ck_title_and_verdict(&h, j);
    ck_ops_headers(&h, j, false);
    cJSON_Delete(j);
    harness_stop(&h);
    /* The serving view, where it fits and at a batch over the memory. */
    harness_start(&h, 200, 60, true, true);
    harness_keys(&h, "i");
    ck_assert(h.d.inf.on);
    ck_assert(ck_serving_lines(&h));
    while (h.d.inf.focus != IS_BATCH)
        harness_keys(&h, "<Down>");
    harness_keys(&h, "<End>");
    ck_assert(!ck_serving_lines(&h));
    /* Tensor parallel 2 at batch 1: all-reduces in each phase beside its operations. */
    harness_keys(&h, "<Home><Up><Right>");
    ck_assert_int_eq(h.d.inf.ev.sc.tp, 2);
    ck_assert(h.d.inf.ev.serving.decode.comm_seconds > 0);
    ck_assert(ck_serving_lines(&h));
    harness_stop(&h);
}
END_TEST

/* The explain line's arithmetic for the focused slider, each number the report's figure j
 * for the scenario on screen, in the line's own display (explain_number): the FLOPs (6ND's N,
 * the tokens, 6ND, the detailed count and their difference), the time (executed FLOPs, GPUs,
 * peak, the MFU in use, the seconds) and the model state's bytes per parameter (each memory
 * row's bytes over the parameters' elements, the optimizer's states and dtype). */
static void ck_explain_is_report(struct harness *h, const cJSON *j)
{
    char a[32], b[32], c[32], e[32], f[32], line[400];
    harness_focus(h, slider_id("tokens"));
    explain_number(json_num(j, "params.six_nd_n"), a, sizeof a);
    explain_number(json_num(j, "scenario.tokens"), b, sizeof b);
    explain_number(json_num(j, "flops.six_nd"), c, sizeof c);
    explain_number(json_num(j, "flops.detailed"), e, sizeof e);
    snprintf(line, sizeof line, "= 6 × %s × %s = %s FLOPs   (counted per operation: %s, %+.1f%%)",
             a, b, c, e, json_num(j, "flops.detailed_vs_six_nd_percent"));
    ck_assert_screen_has(h, line);
    harness_focus(h, slider_id("gpus"));
    explain_number(json_num(j, "flops.total"), a, sizeof a);
    explain_number(json_num(j, "parallel.gpus"), b, sizeof b);
    explain_number(json_num(j, "roofline.peak"), c, sizeof c);
    explain_number(json_num(j, "time.seconds"), e, sizeof e);
    units_duration(json_num(j, "time.seconds"), f, sizeof f);
    snprintf(line, sizeof line, "= %s / (%s × %s × %.3g) = %s s = %s", a, b, c,
             json_num(j, "scenario.mfu"), e, f);
    ck_assert_screen_has(h, line);
    harness_focus(h, slider_id("optimizer"));
    const cJSON *rows = report_json_at(j, "memory.rows");
    double n = json_num(cJSON_GetArrayItem(rows, MEM_PARAMS), "elements"), per[MEM_MASTER + 1];
    for (int i = MEM_PARAMS; i <= MEM_MASTER; i++)
        per[i] = json_num(cJSON_GetArrayItem(rows, i), "bytes") / n;
    double states = json_num(cJSON_GetArrayItem(rows, MEM_OPTIMIZER), "elements") / n;
    char master[48] = "";
    if (per[MEM_MASTER] > 0)
        snprintf(master, sizeof master, " + %.3g master (fp32)", per[MEM_MASTER]);
    snprintf(line, sizeof line,
             "bytes/param = %.3g params (%s) + %.3g grads (%s) + %.3g %s state (%.0f × %s)%s = "
             "%.3g B",
             per[MEM_PARAMS], json_str(j, "memory.weights_dtype"), per[MEM_GRADS],
             json_str(j, "memory.grad_dtype"), per[MEM_OPTIMIZER], json_str(j, "scenario.optimizer"),
             states, json_str(cJSON_GetArrayItem(rows, MEM_OPTIMIZER), "dtype"), master,
             per[MEM_PARAMS] + per[MEM_GRADS] + per[MEM_OPTIMIZER] + per[MEM_MASTER]);
    ck_assert_screen_has(h, line);
}

/* The explain line takes its figures from the report's rows (issue 15): for the FLOPs, the
 * time and the bytes per parameter, equal to `rooftop report`'s JSON for the same scenario,
 * as it starts and with master weights, 8-bit Adam, 512 GPUs and 2T tokens. */
START_TEST(test_explain_line_is_the_report)
{
    struct harness h;
    harness_start(&h, 200, 60, true, true);
    cJSON *j = cli_report_json("");
    ck_explain_is_report(&h, j);
    cJSON_Delete(j);
    h.d.sc.master_weights = true;
    h.d.sc.optimizer = OPT_ADAM8BIT;
    h.d.sc.gpus = 512;
    h.d.sc.tokens = 2e12;
    dash_recompute(&h.d);
    harness_draw(&h);
    j = cli_report_json("--master-weights on --optimizer adam8bit --gpus 512 --tokens 2e12");
    ck_explain_is_report(&h, j);
    cJSON_Delete(j);
    harness_stop(&h);
}
END_TEST

/* The checkpoint panel's figures are the report's rows memory.checkpoint.*: A and I equal
 * what memory_compute gives the scenario without and with full recomputation (as the panel
 * once computed them), and the curve is checkpoint_curve's of them, row by row; under
 * selective recomputation without FlashAttention too, where A differs from the layers'
 * own figure. */
static void ck_checkpoint_panel_is_core(struct harness *h)
{
    struct scenario s = h->d.sc;
    struct memory m;
    s.recompute = RECOMPUTE_NONE;
    memory_compute(&s, &h->d.ev.an.params, &m);
    double A = m.activations_per_layer;
    s.recompute = RECOMPUTE_FULL;
    memory_compute(&s, &h->d.ev.an.params, &m);
    double I = m.activations_per_layer, L = (double)s.model.layers;
    struct checkpoint_sizes z;
    ck_assert(checkpoint_panel_sizes(&h->d, &z));
    ck_assert(A > 0 && I > 0 && A != I);
    ck_assert(z.x[CS_STORED] == A && z.x[CS_INPUT] == I && z.x[CS_LAYERS] == L);
    ck_assert(z.x[CS_RATIO] == A / I && z.x[CS_BEST_K] == checkpoint_best_k(L, A, I));
    ck_assert(z.x[CS_OUTSIDE] == h->d.ev.an.memory.activations_outside);
    struct ckpt_row want[24], toy[24];
    struct checkpoint_line got[24];
    int n = checkpoint_curve(L, A, I, want, 24);
    checkpoint_curve(L, 1, 1, toy, 24);
    ck_assert_int_gt(n, 3);
    ck_assert_int_eq(checkpoint_panel_curve(&h->d, got, 24), n);
    static const char *const kinds[] = {"all", "every", "none"};
    int current = 0;
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(got[i].kind, kinds[want[i].kind]);
        ck_assert(got[i].x[CC_K] == want[i].k && got[i].sqrt_l == want[i].sqrt_l);
        ck_assert(got[i].x[CC_MEMORY] == want[i].memory);
        ck_assert(got[i].x[CC_RECOMPUTE] == want[i].recompute);
        ck_assert(got[i].x[CC_TOY_MEMORY] == toy[i].memory);
        ck_assert(got[i].x[CC_TOY_RECOMPUTE] == toy[i].recompute);
        current += got[i].current;
    }
    ck_assert_int_eq(current, 1);
}

START_TEST(test_checkpoint_panel_is_core)
{
    struct harness h;
    harness_start(&h, 200, 60, true, true);
    h.d.sc.recompute = RECOMPUTE_SQRT;
    dash_recompute(&h.d);
    ck_checkpoint_panel_is_core(&h);
    h.d.sc.recompute = RECOMPUTE_SELECTIVE;
    h.d.sc.flash = false;
    dash_recompute(&h.d);
    ck_checkpoint_panel_is_core(&h);
    ck_assert(h.d.ev.an.memory.layer_stored > h.d.ev.an.memory.activations_per_layer);
    harness_stop(&h);
}
END_TEST

/* The layouts list (b): its first row's cells are `rooftop plan`'s first layout's figures,
 * as its JSON gives them, in the list's columns. */
START_TEST(test_plans_list_is_plan)
{
    struct harness h;
    harness_start(&h, 200, 60, true, true);
    harness_keys(&h, "b");
    ck_assert_int_eq(h.d.mode, DM_PLANS);
    struct check_run run;
    ck_assert_int_eq(check_run_bin(&run, "plan --format json"), 0);
    cJSON *j = cJSON_Parse(run.out);
    ck_assert_msg(j != NULL, "%s", run.out);
    check_run_free(&run);
    const cJSON *p = cJSON_GetArrayItem(report_json_at(j, "plans"), 0);
    ck_assert(p != NULL);
    char step[32], mem[32], train[32], hours[32], line[256];
    units_duration(json_num(p, "step_seconds"), step, sizeof step);
    units_bytes(json_num(p, "memory_total"), mem, sizeof mem);
    units_duration(json_num(p, "days") * 86400, train, sizeof train);
    units_count(json_num(p, "gpu_hours"), hours, sizeof hours);
    snprintf(line, sizeof line,
             "1  %4.0f %3.0f %3.0f %3.0f %3.0f %3.0f %3s %4.0f %3.0f %-9s %8s %5.3f %8s %11s %9s",
             json_num(p, "dp"), json_num(p, "options.tp"), json_num(p, "options.pp"),
             json_num(p, "options.vpp"), json_num(p, "options.cp"), json_num(p, "options.ep"),
             json_str(p, "options.sp"), json_num(p, "options.zero"),
             json_num(p, "options.micro-batch"), json_str(p, "options.recompute"), step,
             json_num(p, "mfu"), mem, train, hours);
    ck_assert_screen_has(&h, line);
    ck_assert_screen_has(&h, "    dp  tp  pp vpp  cp  ep  sp zero  mb recompute     step   MFU");
    cJSON_Delete(j);
    harness_stop(&h);
}
END_TEST

START_TEST(test_gpus_slider_halves_time)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("gpus"));
    double before = h.d.ev.an.time.seconds;
    ck_assert_int_eq(h.d.sc.gpus, 1024);
    ck_assert_screen_has(&h, "time = FLOPs / (GPUs × peak × MFU) = 6.3e24 / (1024 × 9.894e14 × 0.5)");
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.sc.gpus, 2048);
    ck_assert_rel(h.d.ev.an.time.seconds, before / 2, 1e-12);
    ck_assert_screen_has(&h, "72.0 days");
    ck_assert_screen_has(&h, "2048");
    /* And back: Left undoes it exactly. */
    harness_keys(&h, "<Left>");
    ck_assert_int_eq(h.d.sc.gpus, 1024);
    ck_assert_rel(h.d.ev.an.time.seconds, before, 1e-12);
    harness_stop(&h);
}
END_TEST

/* Activation cells on the memory bar (its first row under the header). */
static int activation_cells(struct harness *h)
{
    struct layout L;
    dash_layout(&h->d, h->d.cols, h->d.rows, &L);
    struct rect bar = L.r[P_MEMORY];
    bar.y += 1;
    bar.h = 1;
    return screen_count_elem(&h->s, bar, E_ACTIVATIONS);
}

START_TEST(test_batch_grows_activation_bar)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    /* Micro-batch "auto" (batch / data-parallel ranks): the batch then sets what each GPU
     * holds. */
    harness_focus(&h, slider_id("micro_batch"));
    harness_keys(&h, "<Home>");
    ck_assert_int_eq(h.d.sc.micro_batch, 0);
    harness_focus(&h, slider_id("batch"));
    harness_keys(&h, "<Left>"); /* 1024 sequences: one per GPU, 41 GB of activations */
    ck_assert_int_eq(h.d.sc.batch, 1024);
    ck_assert(h.d.ev.an.memory.fits);
    double bytes = h.d.ev.an.memory.row[MEM_ACTIVATIONS].bytes;
    int cells = activation_cells(&h);
    int64_t batch = h.d.sc.batch;
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.sc.batch, 2 * batch);
    ck_assert_rel(h.d.ev.an.memory.row[MEM_ACTIVATIONS].bytes, 2 * bytes, 0.05);
    int grown = activation_cells(&h);
    ck_assert_msg(grown > cells, "activation cells %d -> %d", cells, grown);
    harness_stop(&h);
}
END_TEST

/* The decode step's QKV operation in the inference view. */
static const struct op *decode_qkv(const struct harness *h)
{
    const struct infer_phase *p = &h->d.inf.ev.serving.decode;
    for (int i = 0; i < p->n_ops; i++)
        if (p->ops[i].kind == OP_QKV)
            return &p->ops[i];
    ck_abort_msg("no decode qkv");
    return NULL;
}

/* Cells of the inference memory bar in element e. */
static int infer_bar_cells(const struct harness *h, int e)
{
    struct layout L;
    infer_frame_layout(&h->d, h->d.cols, h->d.rows, &L);
    struct rect bar = L.r[P_MEMORY];
    bar.y += 1;
    bar.h = 1;
    return screen_count_elem(&h->s, bar, e);
}

/* A figure of step k's caption, also on screen: the caption says what the screen shows. */
static void ck_step_figure(struct harness *h, const char *shown)
{
    const struct demo_step *st = &h->d.demo.steps[h->d.step];
    ck_assert_msg(strstr(st->caption, shown) != NULL, "step %d's caption lacks \"%s\": %s",
                  h->d.step + 1, shown, st->caption);
    ck_assert_screen_has(h, shown);
}

START_TEST(test_inference_demo)
{
    /* specs/scenarios/inference.json (issue 11): decode at batch 1, then batch 256, in the
     * inference view; each caption's figures against the computed serving scenario. */
    struct harness h;
    char err[512], shown[64];
    harness_start(&h, 120, 40, true, true);
    ck_assert_msg(dash_demo_open(&h.d, "inference", 0, err, sizeof err), "%s", err);
    ck_assert_int_eq(h.d.demo.n, 3);
    harness_draw(&h);
    ck_assert(h.d.inf.on);
    ck_assert_str_eq(h.d.inf.ev.sc.model.id, "llama2-7b");
    ck_assert_int_eq(h.d.inf.focus, IS_BATCH);
    ck_assert_screen_has(&h, "Step 1/3");
    ck_assert_int_eq(h.s.cut, 0);
    const struct infer_result *r = &h.d.inf.ev.serving;
    /* Batch 1: the weight GEMMs are matrix-vector products, 2 FLOPs per 2-byte weight. */
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 1);
    ck_assert_rel(decode_qkv(&h)->intensity, 1.0, 0.001);
    ck_assert(!decode_qkv(&h)->compute_bound);
    units_duration(r->tpot, shown, sizeof shown);
    ck_step_figure(&h, shown);
    ck_assert_str_eq(shown, "4.46 ms");
    units_count(r->tokens_per_s, shown, sizeof shown);
    ck_step_figure(&h, shown);
    units_bandwidth(h.d.inf.ev.sc.gpu.bandwidth * r->memory_eff, shown, sizeof shown);
    ck_step_figure(&h, shown);
    units_bytes(r->decode.bytes, shown, sizeof shown);
    ck_step_figure(&h, shown);
    /* The batch's line: the bytes over the bandwidth, the floor, beside what the step's
     * operations take (a short GEMM and its math are slower than the stream alone). */
    char floor_t[32], ops_t[32], line[128];
    units_duration(r->decode.bytes / (h.d.inf.ev.sc.gpu.bandwidth * r->memory_eff), floor_t,
                   sizeof floor_t);
    units_duration(r->decode.compute_seconds, ops_t, sizeof ops_t);
    snprintf(line, sizeof line, "= %s; its ops take %s", floor_t, ops_t);
    ck_assert_screen_has(&h, line);
    ck_assert(r->decode.compute_seconds >= r->decode.bytes / (h.d.inf.ev.sc.gpu.bandwidth *
                                                              r->memory_eff));
    /* The decode step reads the weights (13.5 GB, reference.md: Llama-2-7B bf16) once. */
    ck_assert_rel(r->memory.weights, 13.5e9, 0.01);
    double tpot1 = r->tpot, tps1 = r->tokens_per_s;

    harness_keys(&h, "n");
    ck_assert_int_eq(h.d.step, 1);
    ck_assert(h.d.inf.on);
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 256);
    ck_assert_int_eq(h.s.cut, 0);
    /* 256 x 2 x 4096 x 12288 FLOPs over 2 x (256 x 4096 + 4096 x 12288 + 256 x 12288) bytes. */
    double want = 256.0 * 4096 * 12288 / (256.0 * 4096 + 4096.0 * 12288 + 256.0 * 12288);
    ck_assert_rel(decode_qkv(&h)->intensity, want, 1e-9);
    snprintf(shown, sizeof shown, "intensity %.0f", decode_qkv(&h)->intensity);
    ck_assert_msg(strstr(h.d.demo.steps[1].caption, shown), "caption lacks %s", shown);
    ck_assert(!decode_qkv(&h)->compute_bound);
    snprintf(shown, sizeof shown, "ridge at %.0f", r->ridge);
    ck_assert_msg(strstr(h.d.demo.steps[1].caption, shown), "caption lacks %s", shown);
    ck_assert(r->memory.fits);
    units_duration(r->tpot, shown, sizeof shown);
    ck_step_figure(&h, shown);
    units_count(r->tokens_per_s, shown, sizeof shown);
    ck_step_figure(&h, shown);
    snprintf(shown, sizeof shown, "%.0f-fold", r->tokens_per_s / tps1);
    ck_assert_msg(strstr(h.d.demo.steps[1].caption, shown), "caption lacks %s", shown);
    units_bytes(r->memory.kv_cache, shown, sizeof shown);
    ck_step_figure(&h, shown);
    ck_assert(r->memory.kv_cache > r->memory.weights);
    ck_assert(r->tpot > tpot1);

    harness_keys(&h, "n");
    ck_assert_int_eq(h.d.step, 2);
    ck_assert_int_eq(h.d.inf.focus, IS_PROMPT);
    ck_assert_int_eq(h.d.inf.ev.sc.prompt, 2048);
    /* MHA: 2 x 32 layers x 32 KV heads x 128 x 2 bytes per token (reference.md section 8). */
    ck_assert(r->kv_bytes_per_token == 2.0 * 32 * 32 * 128 * 2);
    units_bytes(r->kv_bytes_per_token, shown, sizeof shown);
    ck_step_figure(&h, shown);
    units_bytes(r->memory.kv_cache, shown, sizeof shown);
    ck_step_figure(&h, shown);
    ck_assert(!r->memory.fits);
    ck_assert_screen_has(&h, "DOES NOT FIT");
    snprintf(shown, sizeof shown, "max batch %lld", (long long)r->max_batch);
    ck_assert_screen_has(&h, shown);
    snprintf(shown, sizeof shown, "largest batch that fits is %lld", (long long)r->max_batch);
    ck_assert_msg(strstr(h.d.demo.steps[2].caption, shown), "caption lacks %s", shown);

    /* The view's keys step back; i leaves for training, n comes back to serving. */
    harness_keys(&h, "pp");
    ck_assert_int_eq(h.d.step, 0);
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 1);
    harness_keys(&h, "i");
    ck_assert(!h.d.inf.on);
    harness_keys(&h, "n");
    ck_assert(h.d.inf.on);
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 256);
    harness_stop(&h);
}
END_TEST

START_TEST(test_inference_demo_errors)
{
    /* Each bad step is refused with one line naming the file, the step and the key. */
    static const struct {
        const char *json, *want;
    } cases[] = {
        {"{\"model\":\"llama2-7b\",\"steps\":[{\"_view\":\"inference\",\"_infer\":{\"batch\":\"x\"}}]}",
         "d.json: step 1: _infer: --batch:"},
        {"{\"model\":\"llama2-7b\",\"steps\":[{},{\"_view\":\"inference\",\"_infer\":{\"batch\":0}}]}",
         "d.json: step 2: _infer: --batch:"},
        {"{\"model\":\"llama2-7b\",\"steps\":[{\"_infer\":{\"batch\":2}}]}",
         "d.json: step 1: _infer: only with"},
        {"{\"steps\":[{\"_view\":\"serving\"}]}", "d.json: step 1: _view: 'serving'"},
        {"{\"model\":\"llama2-7b\",\"steps\":[{\"_view\":\"inference\",\"_infer\":{\"seq\":2}}]}",
         "d.json: step 1: _infer: 'seq' is not a serving input"},
        {"{\"model\":\"llama2-7b\",\"steps\":[{\"_view\":\"inference\",\"_infer\":{\"tp\":true}}]}",
         "d.json: step 1: _infer: tp: want a number or a string"},
        {"{\"model\":\"llama2-7b\",\"_infer\":[1],\"steps\":[{\"_view\":\"inference\"}]}",
         "d.json: step 1: _infer: want an object"},
        {"{\"model\":\"llama2-7b\",\"steps\":[{\"_view\":\"inference\",\"_infer\":{\"prompt\":\"4Ki\"}}]}",
         "d.json: step 1: _infer: --"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct demo l;
        char err[512] = "";
        ck_assert_msg(!demo_parse(cases[i].json, strlen(cases[i].json), "d.json", &l, err,
                                  sizeof err), "accepted %s", cases[i].json);
        ck_assert_msg(strncmp(err, cases[i].want, strlen(cases[i].want)) == 0, "%s -> %s",
                      cases[i].json, err);
        ck_assert(strchr(err, '\n') == NULL);
    }
    /* The same inputs in the one grammar: 2Ki is 2048; --dtype leaves a KV dtype given before. */
    const char *ok = "{\"model\":\"llama2-7b\",\"steps\":[{\"_view\":\"inference\",\"_infer\":"
                     "{\"prompt\":\"2Ki\",\"kv_dtype\":\"fp8\",\"dtype\":\"fp16\",\"batch\":4}}]}";
    struct demo l;
    char err[512];
    ck_assert_msg(demo_parse(ok, strlen(ok), "d.json", &l, err, sizeof err), "%s", err);
    ck_assert(l.steps[0].inference);
    ck_assert_int_eq(l.steps[0].infer.prompt, 2048);
    ck_assert_int_eq(l.steps[0].infer.batch, 4);
    ck_assert_int_eq(infer_kv_dtype(&l.steps[0].infer), DTYPE_FP8_E4M3);
    ck_assert_int_eq(infer_weights_dtype(&l.steps[0].infer), DTYPE_FP16);
    demo_free(&l);
}
END_TEST

/* A serving step takes the registry's keys directly, as any step does ("prompt" beside
 * "title"), and still reads the old "_infer" object, which comes after them. */
START_TEST(test_inference_demo_top_level_keys)
{
    const char *text =
        "{\"model\":\"llama2-7b\",\"_infer\":{\"generate\":96},\"steps\":["
        "{\"_view\":\"inference\",\"prompt\":\"1Ki\",\"generate\":64,\"kv_dtype\":\"fp8\"},"
        "{\"_view\":\"inference\",\"_infer\":{\"prompt\":300,\"batch\":4}},"
        "{\"_view\":\"inference\",\"prompt\":512,\"_infer\":{\"prompt\":1024}}]}";
    struct demo l;
    char err[512];
    ck_assert_msg(demo_parse(text, strlen(text), "d.json", &l, err, sizeof err), "%s", err);
    ck_assert_int_eq(l.n, 3);
    /* Top-level keys: 1Ki = 1024 tokens, 64 generated over the file's 96, an fp8 cache. */
    ck_assert_int_eq(l.steps[0].infer.prompt, 1024);
    ck_assert_int_eq(l.steps[0].infer.generate, 64);
    ck_assert_int_eq(infer_kv_dtype(&l.steps[0].infer), DTYPE_FP8_E4M3);
    /* The old spelling, with the file's generate. */
    ck_assert_int_eq(l.steps[1].infer.prompt, 300);
    ck_assert_int_eq(l.steps[1].infer.batch, 4);
    ck_assert_int_eq(l.steps[1].infer.generate, 96);
    /* Both: the step's "_infer" is the more specific. */
    ck_assert_int_eq(l.steps[2].infer.prompt, 1024);
    demo_free(&l);
    /* A bad value at the top level is named as the flag. */
    const char *bad = "{\"model\":\"llama2-7b\",\"steps\":[{\"_view\":\"inference\","
                      "\"generate\":\"lots\"}]}";
    ck_assert(!demo_parse(bad, strlen(bad), "d.json", &l, err, sizeof err));
    ck_assert_msg(strncmp(err, "d.json: step 1: generate: ", 26) == 0, "%s", err);
}
END_TEST

/* The inference view starts from the serving inputs typed with the training ones (issue 15:
 * `rooftop --prompt 8192 --generate 64`, then i, showed 2048 and 256). The lecture's 70B is no
 * preset and Llama-2-7B's 4,096-token context cannot hold 8,256 tokens, so the view serves
 * the preset nearest it in size that can, at what was typed, and says so. */
START_TEST(test_inference_view_starts_from_typed)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    h.d.sc.prompt = 8192; /* as --prompt 8192 --generate 64 set them */
    h.d.sc.generate = 64;
    dash_recompute(&h.d);
    harness_keys(&h, "i");
    ck_assert(h.d.inf.on);
    ck_assert_int_eq(h.d.inf.ev.sc.prompt, 8192);
    ck_assert_int_eq(h.d.inf.ev.sc.generate, 64);
    ck_assert_int_ge(h.d.inf.ev.sc.model.context, 8192 + 64);
    ck_assert_str_ne(h.d.inf.ev.sc.model.id, "llama2-7b");
    ck_assert_msg(strstr(h.d.status, "nearest llama2-7b") != NULL, "%s", h.d.status);
    ck_assert(!h.d.status_error);
    /* The figures are of the typed tokens: the KV cache holds 8,256 per sequence. */
    ck_assert_screen_has(&h, "1 x 8256 tokens");
    harness_stop(&h);

    /* A typed preset whose context is too short keeps the model and the generate: the
     * prompt is shortened to fit 4,096 tokens, and the status line says so. */
    harness_start(&h, 120, 40, true, true);
    int m = presets_model_index(&h.d.presets, "llama2-7b");
    ck_assert_int_ge(m, 0);
    h.d.sc.model = h.d.presets.models[m].arch;
    h.d.sc.prompt = 8192;
    h.d.sc.generate = 64;
    dash_recompute(&h.d);
    harness_keys(&h, "i");
    ck_assert(h.d.inf.on);
    ck_assert_str_eq(h.d.inf.ev.sc.model.id, "llama2-7b");
    ck_assert_int_eq(h.d.inf.ev.sc.generate, 64);
    ck_assert_int_eq(h.d.inf.ev.sc.prompt, 4096 - 64);
    ck_assert_msg(strstr(h.d.status, "exceed llama2-7b's context of 4096: prompt 4032") != NULL,
                  "%s", h.d.status);
    harness_stop(&h);
}
END_TEST

START_TEST(test_inference_view)
{
    struct harness h;
    harness_start(&h, 160, 50, true, true);
    /* The lecture's 70B is no preset: the view starts on Llama-2-7B, batch 1, on its H100. */
    harness_keys(&h, "i");
    ck_assert(h.d.inf.on);
    ck_assert_str_eq(h.d.inf.ev.sc.model.id, "llama2-7b");
    ck_assert_screen_has(&h, "Serving");
    ck_assert_screen_has(&h, "Latency and throughput");
    ck_assert_screen_has(&h, "KV cache");
    ck_assert_screen_has(&h, "D qkv");
    ck_assert_screen_has(&h, "P qkv");
    /* Batch 1 decode: the weight GEMMs at intensity ~1 (reference.md section 8), memory-bound;
     * prefill of the 2k prompt compute-bound. */
    ck_assert_rel(decode_qkv(&h)->intensity, 1.0, 0.01);
    ck_assert(!decode_qkv(&h)->compute_bound);
    ck_assert(h.d.inf.ev.serving.prefill.intensity > h.d.inf.ev.serving.ridge);
    /* The batch slider walks decode up the bandwidth slope: batch 16, then 256. */
    while (h.d.inf.focus != IS_BATCH)
        harness_keys(&h, "<Down>");
    int kv_cells = infer_bar_cells(&h, E_GRADS);
    harness_keys(&h, "<Repeat 4 Right>");
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 16);
    ck_assert_rel(decode_qkv(&h)->intensity, 16.0, 0.02);
    ck_assert_msg(infer_bar_cells(&h, E_GRADS) > kv_cells, "the KV cache's bar did not grow");
    harness_keys(&h, "<Repeat 4 Right>");
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 256);
    /* 256 x 2 x 4096 x 12288 FLOPs over 2 x (256 x 4096 + 4096 x 12288 + 256 x 12288) bytes. */
    ck_assert_rel(decode_qkv(&h)->intensity, 236.3, 0.01);
    ck_assert(!decode_qkv(&h)->compute_bound);
    /* 256 sequences of 2304 tokens of Llama-2-7B's MHA cache do not fit in 80 GB. */
    ck_assert(!h.d.inf.ev.serving.memory.fits);
    ck_assert_screen_has(&h, "DOES NOT FIT");
    /* fp8 KV halves the cache. */
    double kv = h.d.inf.ev.serving.memory.kv_cache;
    while (h.d.inf.focus != IS_KV)
        harness_keys(&h, "<Down>");
    harness_keys(&h, "<Right>");
    ck_assert_str_eq(dtype_name(infer_kv_dtype(&h.d.inf.ev.sc)), "fp8-e4m3");
    ck_assert_rel(h.d.inf.ev.serving.memory.kv_cache, kv / 2, 1e-12);
    /* i goes back to training, unchanged, and again to the same serving scenario. */
    harness_keys(&h, "i");
    ck_assert(!h.d.inf.on);
    ck_assert_screen_has(&h, "Inputs");
    harness_keys(&h, "i");
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 256);
    /* 80 x 24 still draws it. */
    harness_keys(&h, "<Resize 80x24>");
    ck_assert_screen_has(&h, "Serving");
    harness_stop(&h);
}
END_TEST

/* The key of the operation named name in the view shown, or 0 when it is not listed. */
static char view_key_of(const struct harness *h, const char *name)
{
    struct view_op ops[OPS_MAX];
    int n = ops_list(&h->d, ops, OPS_MAX);
    for (int i = 0; i < n; i++)
        if (strcmp(ops[i].name, name) == 0)
            return ops[i].key;
    return 0;
}

/* Issue 17: a decode operation keeps its letter as the batch grows (18 operations were listed
 * at batch 1, 16 at 256, and the letters moved), prefill's the same letter capitalised; the
 * panel names the whole step's intensity apart from the QKV GEMM's and gives prefill's
 * all-reduce beside decode's. */
START_TEST(test_inference_letters_and_panel)
{
    struct harness h;
    harness_start(&h, 160, 50, true, true);
    harness_keys(&h, "i");
    while (h.d.inf.focus != IS_TP)
        harness_keys(&h, "<Down>");
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.inf.ev.sc.tp, 2);
    ck_assert(h.d.inf.ev.serving.prefill.comm_seconds > 0);
    char want[32];
    units_duration(h.d.inf.ev.serving.prefill.comm_seconds, want, sizeof want);
    ck_assert_screen_has(&h, "P all-reduce");
    ck_assert_screen_has(&h, want);
    ck_assert_screen_has(&h, "D all-reduce");
    ck_assert_screen_has(&h, "D step I");
    ck_assert_screen_has(&h, "D qkv I");
    struct view_op at1[OPS_MAX];
    int n1 = ops_list(&h.d, at1, OPS_MAX);
    ck_assert_int_eq(view_key_of(&h, "D qkv"), 'a' + OP_QKV);
    ck_assert_int_eq(view_key_of(&h, "P qkv"), 'A' + OP_QKV);
    while (h.d.inf.focus != IS_BATCH)
        harness_keys(&h, "<Down>");
    harness_keys(&h, "<Repeat 8 Right>");
    ck_assert_int_eq(h.d.inf.ev.sc.batch, 256);
    int common = 0;
    for (int i = 0; i < n1; i++) {
        char k = view_key_of(&h, at1[i].name);
        if (k == 0)
            continue;
        common++;
        ck_assert_msg(k == at1[i].key, "%s: '%c' at batch 1, '%c' at 256", at1[i].name,
                      at1[i].key, k);
    }
    ck_assert_int_ge(common, 10);
    ck_assert_int_eq(view_key_of(&h, "D qkv"), 'a' + OP_QKV);
    char qkv[32];
    units_plain(decode_qkv(&h)->intensity, qkv, sizeof qkv);
    ck_assert_screen_has(&h, qkv);
    harness_stop(&h);
}
END_TEST

/* The training view's letters are the kinds' too: qkv is b as in the serving view, and
 * mlp_down keeps its letter when FlashAttention off lists scores, softmax and attn_v. */
START_TEST(test_training_letters_stable)
{
    struct harness h;
    harness_start(&h, 160, 50, true, true);
    ck_assert_int_eq(view_key_of(&h, "qkv"), 'a' + OP_QKV);
    char down = view_key_of(&h, "mlp_down");
    ck_assert_int_eq(down, 'a' + OP_MLP_DOWN);
    ck_assert(h.d.sc.flash);
    harness_focus(&h, slider_id("flash"));
    harness_keys(&h, "<Left>");
    ck_assert(!h.d.sc.flash);
    ck_assert_int_eq(view_key_of(&h, "attn_scores"), 'a' + OP_SCORES);
    ck_assert_int_eq(view_key_of(&h, "mlp_down"), down);
    harness_stop(&h);
}
END_TEST

START_TEST(test_too_big_model_overflows)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    ck_assert(h.d.ev.an.memory.fits);
    ck_assert_int_eq(screen_count_elem(&h.s, (struct rect){0, 0, 120, 40}, E_OVER), 0);
    /* 70B on 8 GPUs: 70e9 x 12 / 8 = 105 GB of model state alone. */
    harness_focus(&h, slider_id("gpus"));
    harness_keys(&h, "<Enter><BS><BS><BS><BS>8<Enter>");
    ck_assert_int_eq(h.d.sc.gpus, 8);
    ck_assert(!h.d.ev.an.memory.fits);
    ck_assert_screen_has(&h, "over by");
    ck_assert_screen_has(&h, "DOES NOT FIT");
    ck_assert_int_gt(screen_count_elem(&h.s, (struct rect){0, 0, 120, 40}, E_OVER), 10);
    harness_stop(&h);
}
END_TEST

/* The memory panel as frameworks lay memory out (issue 9): the buffers row of ZeRO-3's
 * gathered module, the verdict against the usable memory (80 GB less the 2 GB reserve), the
 * busiest pipeline stage, and the gradient dtype's slider with its reason. */
START_TEST(test_memory_panel_frameworks)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_draw(&h);
    ck_assert_screen_has(&h, "buffers");
    ck_assert_screen_has(&h, "of 78 GB usable");
    /* Master weights on: gradients auto become fp32, as Megatron-LM and DeepSpeed keep them. */
    harness_focus(&h, slider_id("master_weights"));
    harness_keys(&h, "<Right>");
    ck_assert(h.d.sc.master_weights);
    ck_assert_int_eq(h.d.ev.an.memory.grad_dtype, DTYPE_FP32);
    harness_focus(&h, slider_id("grad_dtype"));
    ck_assert_screen_has(&h, "gradients fp32 (auto: fp32, as Megatron/DeepSpeed with master weights)");
    /* Stepping it: auto -> fp32 -> bf16 (the ZeRO paper's 16 bytes). */
    harness_keys(&h, "<Right><Right>");
    ck_assert_int_eq(h.d.sc.grad_dtype, DTYPE_BF16);
    ck_assert_int_eq(h.d.ev.an.memory.grad_dtype, DTYPE_BF16);
    ck_assert_screen_has(&h, "as set by --grad-dtype");
    /* Four pipeline stages: the first, with the embedding and 4 micro-batches, is the busiest. */
    harness_focus(&h, slider_id("pp"));
    harness_keys(&h, "<Right><Right>");
    ck_assert_int_eq(h.d.sc.pp, 4);
    ck_assert_int_eq(h.d.ev.an.memory.busiest.index, 0);
    ck_assert_screen_has(&h, "stage 1/4 (first)");
    ck_assert_int_eq(h.s.cut, 0);
    harness_stop(&h);
}
END_TEST

START_TEST(test_typed_value)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("params"));
    harness_keys(&h, "<Enter>");
    ck_assert_int_eq(h.d.mode, DM_EDIT);
    ck_assert_str_eq(h.d.input, "70B");
    harness_keys(&h, "<BS><BS><BS>53B<Enter>");
    ck_assert_int_eq(h.d.mode, DM_NORMAL);
    /* N as typed for 6ND; the parts of the fitted shape sum to within 0.01% of it. */
    ck_assert_int_eq(h.d.ev.an.params.typed, 53000000000LL);
    ck_assert_rel(h.d.ev.an.params.total, 53e9, 1e-4);
    ck_assert_screen_has(&h, "53B");
    /* Nonsense is refused with a message; the numbers stay. */
    harness_keys(&h, "<Enter><BS><BS><BS>12x<Enter>");
    ck_assert_int_eq(h.d.ev.an.params.typed, 53000000000LL);
    ck_assert(h.d.status_error);
    ck_assert_screen_has(&h, "'12x' is not a number");
    /* A character past ASCII is not dropped without a word (it was): the line says so and
     * what was typed stays as it was. */
    harness_keys(&h, "<Enter><BS><BS><BS>6\xc3\xa9");
    ck_assert_int_eq(h.d.mode, DM_EDIT);
    ck_assert_str_eq(h.d.input, "6");
    ck_assert(h.d.status_error);
    ck_assert_msg(strstr(h.d.status, "'\xc3\xa9' (U+00E9) not taken: values are typed in ASCII"),
                  "%s", h.d.status);
    harness_keys(&h, "<Esc>");
    harness_stop(&h);
}
END_TEST


/* An invalid combination keeps the last valid numbers and says why. */
START_TEST(test_invalid_combination_refused)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("tp"));
    /* End goes to the largest valid degree on the slider's powers of two: 8, since the
     * 70B custom shape has 72 heads (not 256, which does not divide them). */
    harness_keys(&h, "<End>");
    ck_assert_int_eq(h.d.sc.tp, 8);
    ck_assert(!h.d.status_error);
    harness_keys(&h, "<Home>");
    ck_assert_int_eq(h.d.sc.tp, 1);
    /* A typed degree that does not divide the heads is refused, naming what fixes it. */
    harness_keys(&h, "<Enter><BS>256<Enter>");
    ck_assert_int_eq(h.d.sc.tp, 1);
    ck_assert(h.d.status_error);
    ck_assert_screen_has(&h, "does not divide");
    ck_assert_screen_has(&h, "(change tensor, GPUs or model)");
    ck_assert_rel(h.d.ev.an.time.days, 143.93, 1e-3);
    ck_assert(!screen_contains(&h.s, "nan"));
    /* A dependent slider gives way: 8-way TP on 1024 GPUs is fine as it is. */
    harness_keys(&h, "<Home><Right><Right><Right>");
    ck_assert_int_eq(h.d.sc.tp, 8);
    ck_assert_int_eq(h.d.ev.an.dp, 128);
    harness_stop(&h);
}
END_TEST

/* No slider moves another input behind the user's back (issue 7): End on the GPU count stops
 * at the largest count the batch splits over instead of raising the batch to 16M sequences;
 * a dependent that must give way comes back when its cause is moved back. */
START_TEST(test_no_input_moved_behind_the_back)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("gpus"));
    harness_keys(&h, "<End>");
    ck_assert_int_eq(h.d.sc.batch, 2048);
    ck_assert_int_eq(h.d.sc.gpus, 2048); /* 2048 sequences, micro-batch 1: 2048 ranks at most */
    harness_keys(&h, "<Home>");
    ck_assert_int_eq(h.d.sc.gpus, 1);
    ck_assert_int_eq(h.d.sc.batch, 2048);
    harness_keys(&h, "<End>");

    /* tp 8 on llama2-7b (32 heads), then gpt2-small (12 heads): tp gives way to 4; back on
     * llama2-7b it is 8 again. */
    harness_focus(&h, slider_id("model"));
    harness_keys(&h, "<Enter><C-u>llama2-7b<Enter>");
    ck_assert_str_eq(h.d.sc.model.id, "llama2-7b");
    harness_focus(&h, slider_id("tp"));
    harness_keys(&h, "<Right><Right><Right>");
    ck_assert_int_eq(h.d.sc.tp, 8);
    harness_focus(&h, slider_id("model"));
    harness_keys(&h, "<Enter><C-u>gpt2-small<Enter>");
    ck_assert_str_eq(h.d.sc.model.id, "gpt2-small");
    ck_assert_int_eq(h.d.sc.tp, 4);
    ck_assert_screen_has(&h, "tensor degree 4 (not 8)");
    harness_keys(&h, "<Enter><C-u>llama2-7b<Enter>");
    ck_assert_int_eq(h.d.sc.tp, 8);

    /* The size slider away from a preset and back returns to the preset. */
    harness_focus(&h, slider_id("params"));
    harness_keys(&h, "<Right>");
    ck_assert_str_ne(h.d.sc.model.id, "llama2-7b");
    harness_keys(&h, "<Left>");
    ck_assert_str_eq(h.d.sc.model.id, "llama2-7b");
    ck_assert_int_eq(h.d.ev.an.params.total, 6738415616LL);

    /* Messages name inputs as the dashboard does, never as flags. */
    harness_focus(&h, slider_id("tp"));
    harness_keys(&h, "<Enter><C-u>3<Enter>");
    ck_assert(h.d.status_error);
    ck_assert_screen_has(&h, "tensor: 3 does not divide the 32 attention heads");
    ck_assert(!screen_contains(&h.s, "--tp"));
    harness_stop(&h);
}
END_TEST

/* The focus starts on the model; a preset's size slider stays in its family (issue 17: the
 * first Right on llama3.1-70b's size made it qwen2.5-72b) and shows the size as 70.6B. */
START_TEST(test_size_keeps_family)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    ck_assert_int_eq(h.d.focus, slider_id("model"));
    harness_keys(&h, "<Enter><C-u>llama3.1-70b<Enter>");
    ck_assert_str_eq(h.d.sc.model.id, "llama3.1-70b");
    harness_focus(&h, slider_id("params"));
    char v[64];
    slider_format(&h.d.presets, &h.d.sc, slider_id("params"), v, sizeof v);
    ck_assert_str_eq(v, "70.6B");
    ck_assert(!screen_contains(&h.s, "70553706496"));
    harness_keys(&h, "<Right>");
    ck_assert_str_eq(h.d.sc.model.id, "llama3.1-405b");
    /* The family's largest: Right stays; End and Home are its ends. */
    harness_keys(&h, "<Right>");
    ck_assert_str_eq(h.d.sc.model.id, "llama3.1-405b");
    harness_keys(&h, "<Home>");
    ck_assert_str_eq(h.d.sc.model.id, "llama3.1-8b");
    ck_assert_int_eq(h.d.ev.an.params.total, 8030261248LL);
    harness_keys(&h, "<Right>");
    ck_assert_str_eq(h.d.sc.model.id, "llama3.1-70b");
    ck_assert_int_eq(h.d.ev.an.params.total, 70553706496LL);
    /* A custom size steps through round sizes and stays custom (not onto a preset's count). */
    harness_keys(&h, "<Enter><C-u>50B<Enter>");
    ck_assert_str_eq(h.d.sc.model.id, "custom");
    harness_keys(&h, "<Right>");
    ck_assert_str_eq(h.d.sc.model.id, "custom");
    ck_assert_int_eq(h.d.ev.an.params.typed, 70000000000LL);
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.ev.an.params.typed, 100000000000LL);
    harness_stop(&h);
}
END_TEST

START_TEST(test_gpu_steps_are_valid)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("tp"));
    harness_keys(&h, "<Right><Right><Right>"); /* tp 8 */
    ck_assert_int_eq(h.d.sc.tp, 8);
    harness_focus(&h, slider_id("gpus"));
    harness_keys(&h, "<Home>");
    ck_assert_int_eq(h.d.sc.gpus, 8); /* the smallest valid count is tp x pp */
    for (int i = 0; i < 30; i++) {
        harness_keys(&h, "<Right>");
        ck_assert_int_eq(h.d.sc.gpus % (h.d.sc.tp * h.d.sc.pp), 0);
        ck_assert(slider_in_range(&h.d.presets, &h.d.sc, slider_id("gpus")));
    }
    harness_stop(&h);
}
END_TEST

START_TEST(test_lecture_demo)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "n");
    ck_assert_msg(h.d.demo.n >= 7, "lecture steps: %d (%s)", h.d.demo.n, h.d.status);
    ck_assert_int_eq(h.d.step, 0);
    ck_assert_screen_has(&h, "Step 1/");
    ck_assert_screen_has(&h, "143.9 days");
    harness_keys(&h, "nn"); /* past the number formats, to the largest model on 8 H100s */
    ck_assert_int_eq(h.d.step, 2);
    ck_assert_int_eq(h.d.sc.gpus, 8);
    ck_assert_int_eq(h.d.ev.an.params.typed, 53300000000LL);
    /* 12 bytes per parameter of model state fill the 8 x 80 GB: exactly for the fitted
     * shape's own count, which is within 0.01% of the 53.3B typed. */
    double state = 0;
    for (int i = MEM_PARAMS; i <= MEM_MASTER; i++)
        state += h.d.ev.an.memory.row[i].bytes;
    ck_assert_rel(state, (double)h.d.ev.an.params.total * 12 / 8, 1e-9);
    ck_assert_rel(state, 53.3e9 * 12 / 8, 1e-4);
    ck_assert_screen_has(&h, "Step 3/");
    ck_assert_screen_has(&h, "= 12 B");
    harness_keys(&h, "n");
    ck_assert_screen_has(&h, "= 16 B");
    harness_keys(&h, "p<lt>pp"); /* '<' is not a key of the demo: nothing happens */
    ck_assert_int_eq(h.d.step, 0);
    ck_assert_rel(h.d.ev.an.time.days, 143.93, 1e-3);
    harness_keys(&h, "p");
    ck_assert_int_eq(h.d.step, 0);
    ck_assert_screen_has(&h, "first step");
    /* Every step shows, with its caption, and nothing cut. */
    for (int k = 0; k < h.d.demo.n; k++) {
        dash_demo_show(&h.d, k);
        harness_draw(&h);
        char want[32];
        snprintf(want, sizeof want, "Step %d/%d", k + 1, h.d.demo.n);
        ck_assert_screen_has(&h, want);
        ck_assert_int_eq(h.s.cut, 0);
    }
    harness_stop(&h);
}
END_TEST

static char tmpdir[PATH_MAX];

static void make_tmpdir(void)
{
    check_tmpdir(tmpdir, sizeof tmpdir, "dashboard");
}

static void remove_tmpdir(void)
{
    check_rmtree(tmpdir);
}

/* Keys that replace the prompt's text with `text` and press Enter. */
static void type_path(struct harness *h, const char *text)
{
    char keys[PATH_MAX + 600] = "";
    for (size_t i = 0; i < strlen(h->d.input) + 1; i++)
        strcat(keys, "<BS>");
    strcat(keys, text);
    strcat(keys, "<Enter>");
    harness_keys(h, keys);
}


/* The context, expert and attention-convention sliders (issue 9). Megatron-LM's layout:
 * dp = GPUs / (tp x pp x cp); seq a multiple of 2 x cp; ep divides the routed experts and
 * dp x cp, 1 for a dense model. */
START_TEST(test_cp_ep_attention_sliders)
{
    struct harness h;
    harness_start(&h, 160, 50, true, true);
    /* The lecture's 1024 GPUs: cp 2 leaves 1024 / (1 x 1 x 2) = 512 data-parallel ranks. */
    harness_focus(&h, slider_id("cp"));
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.sc.cp, 2);
    ck_assert_int_eq(h.d.sc.gpus, 1024);
    ck_assert_int_eq(h.d.ev.an.dp, 512);
    /* End: 256, the slider's top (2048 tokens would allow 1024): 1024 / 256 = 4 ranks. */
    harness_keys(&h, "<End>");
    ck_assert_int_eq(h.d.sc.cp, 256);
    ck_assert_int_eq(h.d.ev.an.dp, 4);
    /* 3 does not split 2048 tokens into 6 equal chunks: refused, named as the dashboard
     * names it. */
    harness_keys(&h, "<Enter><C-u>3<Enter>");
    ck_assert(h.d.status_error);
    ck_assert_screen_has(&h, "ctx par: the 2048-token sequence does not split into 2 x cp = 6");
    ck_assert_int_eq(h.d.sc.cp, 256);
    harness_keys(&h, "<Home>");
    ck_assert_int_eq(h.d.sc.cp, 1);
    ck_assert_int_eq(h.d.ev.an.dp, 1024);

    /* The default model is dense: ep has the one step 1. */
    harness_focus(&h, slider_id("ep"));
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.sc.ep, 1);
    /* Mixtral 8x7B's 8 experts: 1, 2, 4, 8. */
    harness_focus(&h, slider_id("model"));
    harness_keys(&h, "<Enter><C-u>mixtral-8x7b<Enter>");
    ck_assert_str_eq(h.d.sc.model.id, "mixtral-8x7b");
    harness_focus(&h, slider_id("ep"));
    harness_keys(&h, "<End>");
    ck_assert_int_eq(h.d.sc.ep, 8);
    /* Back to a dense model: ep gives way to 1 and says why. */
    harness_focus(&h, slider_id("model"));
    harness_keys(&h, "<Enter><C-u>llama2-7b<Enter>");
    ck_assert_int_eq(h.d.sc.ep, 1);
    ck_assert_screen_has(&h, "no routed experts");

    /* The attention convention: full (the default) to causal halves the s x s work, which
     * the detailed count holds; 6ND stays. */
    harness_focus(&h, slider_id("attention_flops"));
    ck_assert_int_eq(h.d.sc.attention_flops, ATTN_FLOPS_FULL);
    double det = h.d.ev.an.flops.detailed, six = h.d.ev.an.flops.six_nd;
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.sc.attention_flops, ATTN_FLOPS_CAUSAL);
    ck_assert(h.d.ev.an.flops.detailed < det);
    ck_assert(h.d.ev.an.flops.six_nd == six);
    ck_assert_screen_has(&h, "attention causal");
    harness_stop(&h);
}
END_TEST

/* The parallel sliders' explain line: params/GPU is the memory table's row, stated beside the
 * model's total; the lecture's 70B model under ZeRO-3 over 1024 ranks holds 68.4M a GPU, which
 * is no "70B / 1" (found by review: the line printed "params/GPU = 70B / 1 = 68.4M"). */
START_TEST(test_parallel_explain_params)
{
    struct harness h;
    harness_start(&h, 200, 50, true, true);
    harness_focus(&h, slider_id("tp"));
    ck_assert_int_eq(h.d.sc.zero, 3);
    char per[32], want[96];
    units_count(h.d.ev.an.memory.row[MEM_PARAMS].elements, per, sizeof per);
    snprintf(want, sizeof want, "params/GPU %s of 70B; ZeRO-3", per);
    ck_assert_screen_has(&h, want);
    ck_assert(!screen_contains(&h.s, "params/GPU = "));
    harness_stop(&h);
}
END_TEST

START_TEST(test_save_open_export)
{
    struct harness h;
    char path[PATH_MAX + 32], rep[PATH_MAX + 32];
    make_tmpdir();
    snprintf(path, sizeof path, "%s/s.json", tmpdir);
    snprintf(rep, sizeof rep, "%s/r.json", tmpdir);
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("gpus"));
    harness_keys(&h, "<Right>"); /* 2048 GPUs */
    harness_keys(&h, "s");
    ck_assert_int_eq(h.d.mode, DM_SAVE);
    type_path(&h, path);
    ck_assert_msg(!h.d.status_error, "%s", h.d.status);
    ck_assert_screen_has(&h, "saved the scenario");
    harness_keys(&h, "r");
    ck_assert_int_eq(h.d.sc.gpus, 1024);
    harness_keys(&h, "o");
    type_path(&h, path);
    ck_assert_msg(!h.d.status_error, "%s", h.d.status);
    ck_assert_int_eq(h.d.sc.gpus, 2048);
    ck_assert_screen_has(&h, "72.0 days");
    /* A file that is not a scenario: one line, the numbers stay. */
    harness_keys(&h, "o");
    type_path(&h, "/nonexistent/x.json");
    ck_assert(h.d.status_error);
    ck_assert_int_eq(h.d.sc.gpus, 2048);
    /* Export as JSON: the report's figures. */
    harness_keys(&h, "e");
    type_path(&h, rep);
    ck_assert_msg(!h.d.status_error, "%s", h.d.status);
    FILE *f = fopen(rep, "r");
    ck_assert(f != NULL);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    cJSON *j = cJSON_Parse(buf);
    ck_assert(j != NULL);
    const cJSON *days = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "time"), "days");
    ck_assert(cJSON_IsNumber(days));
    ck_assert_rel(days->valuedouble, 143.93 / 2, 1e-3);
    cJSON_Delete(j);
    harness_stop(&h);
    remove_tmpdir();
}
END_TEST

START_TEST(test_help_and_pickers)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "?");
    ck_assert_screen_has(&h, "any key closes");
    harness_keys(&h, "q"); /* closes the help; does not quit */
    ck_assert(!h.d.quit);
    ck_assert(!screen_contains(&h.s, "any key closes"));
    ck_assert_int_gt(h.d.presets.n_models, 5);
    harness_keys(&h, "m<End><Enter>");
    const struct preset_model *big = &h.d.presets.models[h.d.presets.n_models - 1];
    ck_assert_str_eq(h.d.sc.model.id, big->arch.id);
    ck_assert_screen_has(&h, big->arch.id);
    harness_keys(&h, "m<Home><Enter>");
    ck_assert_str_eq(h.d.sc.model.id, h.d.presets.models[0].arch.id);
    harness_keys(&h, "g");
    ck_assert_int_eq(h.d.mode, DM_PICK_GPU);
    harness_keys(&h, "<Esc>");
    ck_assert_int_eq(h.d.mode, DM_NORMAL);
    ck_assert_str_eq(h.d.sc.gpu.id, "h100-sxm");
    harness_keys(&h, "q");
    ck_assert(h.d.quit);
    harness_stop(&h);
}
END_TEST

START_TEST(test_too_small_and_back)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "<Resize 79x24>");
    ck_assert_screen_has(&h, "needs at least 80x24");
    harness_keys(&h, "<Resize 1x1>");
    ck_assert_int_eq(h.s.cols, 1);
    harness_keys(&h, "<Resize 80x24>");
    ck_assert(!screen_contains(&h.s, "needs at least"));
    ck_assert_screen_has(&h, "143.9 days");
    harness_stop(&h);
}
END_TEST

START_TEST(test_mouse)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_draw(&h);
    struct layout L;
    dash_layout(&h.d, 120, 40, &L);
    struct slider_geom g;
    layout_sliders(L.r[P_SLIDERS], h.d.focus, slider_count(), &g);
    int y = g.y0 + slider_id("gpus") - g.first;
    char keys[128];
    /* Click at the left end of the GPU-count track: the fewest GPUs. */
    snprintf(keys, sizeof keys, "<Click %d,%d><Release %d,%d>", g.track_x, y, g.track_x, y);
    harness_keys(&h, keys);
    ck_assert_int_eq(h.d.focus, slider_id("gpus"));
    ck_assert_int_eq(h.d.sc.gpus, 1);
    /* Drag to the right end: the most. */
    snprintf(keys, sizeof keys, "<Click %d,%d><Drag %d,%d><Release %d,%d>", g.track_x, y,
             g.track_x + g.track_w + 5, y + 3, g.track_x + g.track_w + 5, y + 3);
    harness_keys(&h, keys);
    /* The end of the track is as far as the batch splits: 2048 sequences, micro-batch 1. */
    ck_assert_int_eq(h.d.sc.gpus, 2048);
    ck_assert(h.d.drag < 0);
    /* The wheel steps the slider under the pointer. */
    int ty = g.y0 + slider_id("tokens") - g.first;
    snprintf(keys, sizeof keys, "<WheelDown %d,%d>", g.track_x + 2, ty);
    harness_keys(&h, keys);
    ck_assert_int_eq(h.d.focus, slider_id("tokens"));
    ck_assert_rel(h.d.sc.tokens, 10e12, 1e-12);
    harness_stop(&h);
}
END_TEST

/* Without colour each memory part is told apart by its own character. */
START_TEST(test_monochrome_and_ascii)
{
    struct harness h;
    harness_start(&h, 100, 30, false, false);
    harness_draw(&h);
    struct layout L;
    dash_layout(&h.d, 100, 30, &L);
    struct rect bar = L.r[P_MEMORY];
    bar.y += 1;
    bar.h = 1;
    for (int i = 0; i < MEM_COUNT; i++) {
        if (h.d.ev.an.memory.row[i].bytes <= 0)
            continue;
        int n = 0;
        for (int x = bar.x; x < bar.x + bar.w; x++)
            n += screen_cell(&h.s, x, bar.y)->ch == h.d.cs.part[i];
        ck_assert_msg(n > 0, "part %d has no '%c' on the bar", i, (char)h.d.cs.part[i]);
    }
    for (int y = 0; y < h.s.rows; y++)
        for (int x = 0; x < h.s.cols; x++)
            ck_assert_msg(screen_cell(&h.s, x, y)->ch < 0x80, "non-ASCII at %d,%d", x, y);
    ck_assert_screen_has(&h, "143.9 days");
    harness_focus(&h, slider_id("params"));
    ck_assert_screen_has(&h, "6 x 7e10 x 1.5e13 = 6.3e24 FLOPs");
    harness_stop(&h);
}
END_TEST

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s", path);
    char *buf = calloc(1, 1 << 20);
    ck_assert(buf != NULL);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(test_snapshot_command)
{
    char out[PATH_MAX + 32];
    make_tmpdir();
    snprintf(out, sizeof out, "%s/shot.svg", tmpdir);
    char *argv[] = {"snapshot", "--size", "100x30", "--keys", "<Down><Down><Right>", "--format", "svg",
                    "--out", out, NULL};
    ck_assert_int_eq(cmd_snapshot(9, argv), 0);
    char *svg = slurp(out);
    ck_assert(strncmp(svg, "<svg", 4) == 0);
    ck_assert(strstr(svg, "</svg>") != NULL);
    /* Tokens 15T -> 20T: 6 x 70e9 x 20e12 FLOPs take 191.9 days. */
    ck_assert_msg(strstr(svg, "191.9 days") != NULL, "no 191.9 days in the SVG");
    free(svg);
    snprintf(out, sizeof out, "%s/shot.txt", tmpdir);
    char *argv2[] = {"snapshot", "--size", "80x24", "--gpus", "2048", "--out", out, NULL};
    ck_assert_int_eq(cmd_snapshot(7, argv2), 0);
    char *txt = slurp(out);
    ck_assert(strstr(txt, "72.0 days") != NULL);
    free(txt);
    char *bad[] = {"snapshot", "--size", "0x5", NULL};
    ck_assert_int_eq(cmd_snapshot(3, bad), 2);
    char *badkeys[] = {"snapshot", "--keys", "<Nope>", NULL};
    ck_assert_int_eq(cmd_snapshot(3, badkeys), 2);
    remove_tmpdir();
}
END_TEST

START_TEST(test_key_names)
{
    struct event ev[16];
    char err[256];
    int n = keys_parse("a <Tab><S-Tab><Resize 80x24><Click 3,4><Repeat 3 Right><lt>", ev, 16, err,
                       sizeof err);
    ck_assert_int_eq(n, 9);
    ck_assert_uint_eq(ev[0].key, 'a');
    ck_assert_uint_eq(ev[1].key, UK_TAB);
    ck_assert_uint_eq(ev[2].key, UK_BTAB);
    ck_assert_int_eq(ev[3].type, EV_RESIZE);
    ck_assert_int_eq(ev[3].x, 80);
    ck_assert_int_eq(ev[3].y, 24);
    ck_assert_int_eq(ev[4].type, EV_MOUSE);
    ck_assert_int_eq(ev[4].mouse, MOUSE_PRESS);
    ck_assert_int_eq(ev[4].x, 3);
    ck_assert_uint_eq(ev[5].key, UK_RIGHT);
    ck_assert_uint_eq(ev[7].key, UK_RIGHT);
    ck_assert_uint_eq(ev[8].key, '<');
    ck_assert_int_eq(keys_parse("<Resize 0x5>", ev, 16, err, sizeof err), -1);
    ck_assert(strstr(err, "Resize") != NULL);
    ck_assert_int_eq(keys_parse("<Tab", ev, 16, err, sizeof err), -1);
    ck_assert_int_eq(keys_parse("<Repeat 20 a>", ev, 16, err, sizeof err), -1);
    /* Past the repeat cap, the cap is named. */
    ck_assert_int_eq(keys_parse("<Repeat 1000000 Right>", ev, 16, err, sizeof err), -1);
    ck_assert_str_eq(err, "--keys: <Repeat 1000000 Right>: repeats a key at most 100000 times");
}
END_TEST

/* The real binary in a real terminal (tmux): sliders, resize, quit, terminal restored. */
START_TEST(test_tmux)
{
    char exe[PATH_MAX], bin[PATH_MAX + 32], cmd[3 * PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert(n > 0);
    exe[n] = '\0';
    /* The binary of the same build: BUILD/tests/test_dashboard -> BUILD/rooftop-bin. */
    char *slash = strrchr(exe, '/');
    ck_assert(slash != NULL);
    *slash = '\0';
    slash = strrchr(exe, '/');
    ck_assert(slash != NULL);
    *slash = '\0';
    snprintf(bin, sizeof bin, "%s/rooftop-bin", exe);
    ck_assert_msg(access(bin, X_OK) == 0, "%s is not there", bin);
    ck_assert_msg(system("command -v tmux >/dev/null 2>&1") == 0,
                  "tmux is not installed (make deps-test installs it)");
    snprintf(cmd, sizeof cmd, "sh tests/tmux-test.sh '%s'", bin);
    ck_assert_msg(system(cmd) == 0, "tests/tmux-test.sh failed (its output is above)");
}
END_TEST

/* o on a model file: a Hugging Face config.json (tests/data/hf, read by src/hfconfig.c) or a
 * rooftop model file goes on as the scenario's model; a bad one is one line, the model stays. */
START_TEST(test_open_model)
{
    const char *specs = getenv("ROOFTOP_SPECS");
    char cfg[PATH_MAX + 64], preset[PATH_MAX + 64], bad[PATH_MAX + 32];
    snprintf(cfg, sizeof cfg, "%s/../tests/data/hf/Qwen3-8B/config.json", specs ? specs : "specs");
    snprintf(preset, sizeof preset, "%s/models/llama2-7b.json", specs ? specs : "specs");
    make_tmpdir();
    snprintf(bad, sizeof bad, "%s/config.json", tmpdir);
    FILE *f = fopen(bad, "w");
    ck_assert_ptr_nonnull(f);
    /* LlamaConfig defaults an absent key (issue 20); null is missing. */
    fputs("{\"model_type\": \"llama\", \"hidden_size\": 4096, \"num_hidden_layers\": null}\n", f);
    ck_assert_int_eq(fclose(f), 0);
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "o");
    ck_assert_screen_has(&h, "config.json");
    type_path(&h, cfg);
    ck_assert_msg(!h.d.status_error, "%s", h.d.status);
    struct param_counts pc;
    model_params(&h.d.sc.model, &pc);
    ck_assert_int_eq(pc.total, 8190735360LL); /* Qwen3-8B's released total */
    ck_assert_str_eq(h.d.sc.model.name, "Qwen3-8B");
    ck_assert_screen_has(&h, "opened the model Qwen3-8B");
    /* The rest of the scenario stays: the lecture's 1024 GPUs. */
    ck_assert_int_eq(h.d.sc.gpus, 1024);
    /* A config that lacks a key: the line names the file and the key; the model stays. */
    harness_keys(&h, "o");
    type_path(&h, bad);
    ck_assert(h.d.status_error);
    ck_assert_msg(strstr(h.d.status, "config.json: num_hidden_layers: missing") != NULL, "%s",
                  h.d.status);
    ck_assert_str_eq(h.d.sc.model.name, "Qwen3-8B");
    /* rooftop's own model schema opens the same way. */
    harness_keys(&h, "o");
    type_path(&h, preset);
    ck_assert_msg(!h.d.status_error, "%s", h.d.status);
    ck_assert_str_eq(h.d.sc.model.id, "llama2-7b");
    model_params(&h.d.sc.model, &pc);
    ck_assert_int_eq(pc.total, 6738415616LL); /* docs/reference.md section 4 */
    harness_stop(&h);
    remove_tmpdir();
}
END_TEST

/* o on a valid GPU spec says what it is and how to use it ("memory_bytes: unknown key", the
 * scenario reader's word on its first key, said neither). */
START_TEST(test_open_gpu_spec)
{
    const char *specs = getenv("ROOFTOP_SPECS");
    char gpu[PATH_MAX + 64];
    snprintf(gpu, sizeof gpu, "%s/gpus/h100-sxm.json", specs ? specs : "specs");
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "o");
    type_path(&h, gpu);
    ck_assert(h.d.status_error);
    ck_assert_msg(strstr(h.d.status, "a GPU spec (H100 SXM5), not a model or scenario") &&
                      strstr(h.d.status, "--gpu") && !strstr(h.d.status, "unknown key"),
                  "%s", h.d.status);
    harness_stop(&h);
}
END_TEST

static Suite *dashboard_suite(void)
{
    Suite *s = suite_create("dashboard");
    TCase *tc = tcase_create("headless");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_default_figures);
    tcase_add_test(tc, test_panels_are_the_report);
    tcase_add_test(tc, test_panel_lines_are_the_report);
    tcase_add_test(tc, test_explain_line_is_the_report);
    tcase_add_test(tc, test_checkpoint_panel_is_core);
    tcase_add_test(tc, test_plans_list_is_plan);
    tcase_add_test(tc, test_gpus_slider_halves_time);
    tcase_add_test(tc, test_batch_grows_activation_bar);
    tcase_add_test(tc, test_too_big_model_overflows);
    tcase_add_test(tc, test_memory_panel_frameworks);
    tcase_add_test(tc, test_typed_value);
    tcase_add_test(tc, test_open_gpu_spec);
    tcase_add_test(tc, test_invalid_combination_refused);
    tcase_add_test(tc, test_gpu_steps_are_valid);
    tcase_add_test(tc, test_size_keeps_family);
    tcase_add_test(tc, test_cp_ep_attention_sliders);
    tcase_add_test(tc, test_no_input_moved_behind_the_back);
    tcase_add_test(tc, test_lecture_demo);
    tcase_add_test(tc, test_save_open_export);
    tcase_add_test(tc, test_open_model);
    tcase_add_test(tc, test_help_and_pickers);
    tcase_add_test(tc, test_too_small_and_back);
    tcase_add_test(tc, test_mouse);
    tcase_add_test(tc, test_monochrome_and_ascii);
    tcase_add_test(tc, test_snapshot_command);
    tcase_add_test(tc, test_key_names);
    tcase_add_test(tc, test_inference_view);
    tcase_add_test(tc, test_inference_letters_and_panel);
    tcase_add_test(tc, test_training_letters_stable);
    tcase_add_test(tc, test_inference_demo);
    tcase_add_test(tc, test_parallel_explain_params);
    tcase_add_test(tc, test_inference_demo_errors);
    tcase_add_test(tc, test_inference_demo_top_level_keys);
    tcase_add_test(tc, test_inference_view_starts_from_typed);
    suite_add_tcase(s, tc);
    TCase *tt = tcase_create("tmux");
    /* A loaded 2-core machine took 127 s; each of tmux-test's waits may take 4 times its limit. */
    tcase_set_timeout(tt, 600);
    tcase_add_test(tt, test_tmux);
    suite_add_tcase(s, tt);
    return s;
}

int main(void)
{
    return check_run_suite(dashboard_suite());
}
