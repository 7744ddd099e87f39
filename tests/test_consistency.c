/* test_consistency.c - figures that must agree with each other (issue 8, "numbers that
 * contradict each other"): a dtype is timed at its own peak or refused, in the core and on
 * the dashboard. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check_util.h"
#include "inputs.h"
#include "report_harness.h"
#include "cli.h"
#include "report.h"
#include "scenario_check.h"
#include "warnings.h"
#include "dash_harness.h"
#include "gpu.h"
#include "demo.h"
#include "roofline.h"
#include "scenario_file.h"
#include "solve.h"
#include "units.h"
#include "scenario.h"
#include "spec.h"

static struct gpu_spec gpu(const char *id)
{
    struct gpu_spec g;
    char err[512];
    ck_assert_msg(spec_find_gpu(id, &g, err, sizeof err), "%s", err);
    return g;
}

/* Validates the lecture on gpu id in dtype d; returns the message (empty when valid). */
static const char *refusal(const char *id, enum dtype d)
{
    static char err[512];
    struct scenario s;
    inputs_defaults(&s);
    s.gpu = gpu(id);
    s.dtype = d;
    err[0] = '\0';
    if (scenario_validate(&s, err, (int)sizeof err))
        err[0] = '\0';
    return err;
}

START_TEST(test_dtype_without_peak_refused)
{
    /* reference.md section 3: the H100 has no fp4 rate, the A100 no fp8, the V100 no bf16.
     * Each was timed at another format's peak before; now one line names the GPU and what
     * it has. */
    ck_assert_str_eq(refusal("h100-sxm", DTYPE_FP4),
                     "--dtype: the H100 SXM5 has no fp4 peak; it has fp64, fp32, tf32, bf16, "
                     "fp16, fp8");
    ck_assert_str_eq(refusal("a100-80gb", DTYPE_FP8_E4M3),
                     "--dtype: the A100 SXM 80GB has no fp8 peak; it has fp64, fp32, tf32, "
                     "bf16, fp16");
    ck_assert_str_eq(refusal("v100", DTYPE_BF16),
                     "--dtype: the V100 SXM2 32GB has no bf16 peak; it has fp64, fp32, fp16");
    ck_assert_str_eq(refusal("v100", DTYPE_TF32),
                     "--dtype: the V100 SXM2 32GB has no tf32 peak; it has fp64, fp32, fp16");
    /* What each has is accepted, at its own rate. */
    ck_assert_str_eq(refusal("v100", DTYPE_FP16), "");
    ck_assert_str_eq(refusal("b200", DTYPE_FP4), "");
    ck_assert_str_eq(refusal("h100-sxm", DTYPE_FP8_E5M2), "");
    struct gpu_spec g = gpu("v100");
    ck_assert(gpu_peak(&g, DTYPE_BF16) == 0);
    ck_assert(gpu_peak(&g, DTYPE_FP16) == 125e12);
    g = gpu("h100-sxm");
    ck_assert(gpu_peak(&g, DTYPE_FP4) == 0);
    ck_assert(gpu_peak(&g, DTYPE_FP8_E4M3) == 1978.9e12);
}
END_TEST

START_TEST(test_dashboard_dtype_na)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    /* End on the dtype slider goes to the last dtype an H100 has (fp8-e5m2, not fp4); one step
     * past it, fp4 is refused and the numbers stay at fp8's. */
    harness_focus(&h, slider_id("dtype"));
    harness_keys(&h, "<End>");
    ck_assert_int_eq(h.d.sc.dtype, DTYPE_FP8_E5M2);
    ck_assert(!h.d.status_error);
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.sc.dtype, DTYPE_FP8_E5M2);
    ck_assert(h.d.ev.an.roofline.peak == gpu_peak(&h.d.sc.gpu, h.d.sc.dtype));
    ck_assert(h.d.status_error);
    ck_assert_screen_has(&h, "no fp4 peak");
    /* The GPU picker shows the scenario's dtype: "n/a" where a GPU has no rate for it. */
    harness_keys(&h, "<Home>");
    ck_assert_int_eq(h.d.sc.dtype, DTYPE_FP32);
    harness_keys(&h, "<Right><Right>");
    ck_assert_int_eq(h.d.sc.dtype, DTYPE_BF16);
    harness_keys(&h, "g");
    ck_assert_int_eq(h.d.mode, DM_PICK_GPU);
    char row[4096];
    bool v100 = false, h100 = false;
    for (int y = 0; y < h.s.rows; y++) {
        screen_row_text(&h.s, y, row, sizeof row);
        if (strstr(row, "V100 SXM2") != NULL) {
            v100 = true;
            ck_assert_msg(strstr(row, "n/a bf16") != NULL, "V100 row: %s", row);
        }
        if (strstr(row, "H100 SXM5") != NULL && strstr(row, "h100-sxm") != NULL) {
            h100 = true;
            ck_assert_msg(strstr(row, "989 TFLOP/s bf16") != NULL, "H100 row: %s", row);
        }
    }
    ck_assert(v100 && h100);
    harness_stop(&h);
}
END_TEST

static const struct op *find_op(const struct analysis *a, const char *name)
{
    for (int i = 0; i < a->n_ops; i++)
        if (strcmp(a->ops[i].name, name) == 0)
            return &a->ops[i];
    return NULL;
}

START_TEST(test_pipeline_busiest_stage)
{
    /* Llama 2 70B (reference.md: L 80, h 8192, 64 heads, 8 KV heads, V 32000) over 3 stages
     * of 27, 27 and 26 layers. The LM head (6 h V = 1.6 GFLOP a token) is less than a layer
     * (about 5 GFLOP), so the first stage is the busiest: 27 layers, no head. Before, the
     * table added the last stage's head to the first stage's 27 layers. */
    struct scenario s;
    struct analysis a;
    check_scenario(&s, &a, "--model llama2-70b --gpus 24 --tp 8 --pp 3 --batch 8 --micro-batch 1 --seq 4096");
    ck_assert(a.roofline.stage_layers == 27);
    ck_assert(!a.roofline.stage_head);
    ck_assert_ptr_null(find_op(&a, "lm_head"));
    ck_assert_ptr_null(find_op(&a, "loss"));
    /* qkv: 2 T h (h + 2 k d) / t per layer and micro-batch, 3 passes, 27 layers, 8 micro. */
    const double T = 4096, h = 8192, kd = 8 * 128, t = 8, m = 8;
    ck_assert_rel(find_op(&a, "qkv")->flops, 27 * m * 3 * 2 * T * h * (h + 2 * kd) / t, 1e-12);
    /* 4 stages of 20: the last, with the head, is the busiest. */
    check_scenario(&s, &a, "--model llama2-70b --gpus 32 --tp 8 --pp 4 --batch 8 --micro-batch 1 --seq 4096");
    ck_assert(a.roofline.stage_layers == 20);
    ck_assert(a.roofline.stage_head);
    ck_assert_ptr_nonnull(find_op(&a, "lm_head"));
    ck_assert_rel(find_op(&a, "qkv")->flops, 20 * m * 3 * 2 * T * h * (h + 2 * kd) / t, 1e-12);
    ck_assert_rel(find_op(&a, "lm_head")->flops, m * 3 * 2 * T * h * 32000 / t, 1e-12);
    /* Whatever the stage, the roofline step is the sum of the shown ops' times. */
    double sum = 0;
    for (int i = 0; i < a.n_ops; i++)
        sum += a.ops[i].seconds;
    ck_assert_rel(a.roofline.step_seconds, sum, 1e-12);
}
END_TEST

/* The warnings of a line of options, joined by newlines. */
static const char *warnings_of(const char *line)
{
    static char all[WARNINGS_MAX * (WARNING_LEN + 1)];
    struct scenario s;
    struct analysis a;
    check_scenario(&s, &a, line);
    struct warnings w;
    warnings_collect(&s, &a, &w);
    all[0] = '\0';
    for (int k = 0; k < w.n; k++) {
        strcat(all, w.line[k]);
        strcat(all, "\n");
    }
    return all;
}

#define ck_warns(line, text)                                                                  \
    do {                                                                                      \
        const char *w_ = warnings_of(line);                                                   \
        ck_assert_msg(strstr(w_, (text)) != NULL, "%s: no \"%s\" in:\n%s", (line), (text), w_); \
    } while (0)

START_TEST(test_warnings)
{
    /* Nothing to say about the lecture, nor about Llama 2 7B on 8 GPUs. */
    ck_assert_str_eq(warnings_of(""), "");
    ck_assert_str_eq(warnings_of("--model llama2-7b --gpus 8 --tp 8 --sp on"), "");
    /* Each input that does nothing or makes no sense, on its own. */
    ck_warns("--sp on", "sequence parallelism (sp) does nothing with tp 1");
    ck_warns("--recompute selective", "selective recomputation does nothing with flash on");
    ck_assert_str_eq(warnings_of("--recompute selective --flash off"), "");
    ck_warns("--model gpt2-small --gpus 8 --batch 8 --seq 8192",
             "seq 8192 is longer than GPT-2 small's 1024 learned positions");
    ck_assert_str_eq(warnings_of("--model llama2-7b --gpus 8 --batch 8 --seq 8192"), "");
    ck_warns("--model llama2-70b --gpus 1024 --tp 16",
             "tp 16 is above Llama 2 70B's 8 KV heads");
    ck_warns("--tokens 1M", "1M training tokens are fewer than one step's 4.19M (batch 2048 x "
                            "seq 2048): the run is 0.238 of a step");
    /* Issue 9's inputs (found by review). Context parallelism on a short sequence: plan's
     * bound of 4096 tokens a rank (Megatron Core places CP at 8K+ sequences); 8192 / 2 is
     * at the bound and says nothing. */
    ck_warns("--model llama3.1-8b --gpus 8 --batch 8 --cp 2",
             "cp 2 leaves 1024 tokens of each sequence per GPU (under 4096)");
    ck_assert_str_eq(warnings_of("--model llama3.1-8b --gpus 8 --batch 8 --seq 8192 --cp 2"), "");
    /* 16-bit gradients typed under fp32 master weights: Megatron-LM forces fp32 gradient
     * accumulation for bf16 (arguments.py: accumulate_allreduce_grads_in_fp32), DeepSpeed's
     * bf16 optimizer keeps fp32 gradients; without the master copy, bf16 is what auto does. */
    ck_warns("--master-weights on --grad-dtype bf16",
             "gradients in bf16 with fp32 master weights: Megatron-LM and DeepSpeed keep them in fp32");
    ck_assert_str_eq(warnings_of("--master-weights on --grad-dtype fp32"), "");
    ck_assert_str_eq(warnings_of("--master-weights off --grad-dtype bf16"), "");
    /* --vocab-pad on Llama 2's 32000 = 250 x 128: nothing to pad; GPT-2's 50257 pads. */
    ck_warns("--model llama2-7b --gpus 8 --vocab-pad 128",
             "--vocab-pad 128 does nothing here: Llama 2 7B's vocabulary of 32000 is already a "
             "multiple of 128 x tp 1");
    ck_assert_str_eq(warnings_of("--model llama2-7b --gpus 8 --vocab-pad 128 --tp 8 --sp on"),
                     "");
    /* --mfu 1: 1.74 s a step under the roofline's bound (issue 8). */
    ck_warns("--mfu 1", "step time 1.74 s at MFU 1 is faster than the roofline allows");
    /* The report says them: text "warning:" lines, JSON "warnings", the step time marked. */
    struct scenario s;
    struct analysis a;
    check_scenario(&s, &a, "--mfu 1 --sp on");
    char *t = check_render(&s, &a, REPORT_TEXT);
    ck_assert_msg(strstr(t, "\n  warning: sequence parallelism (sp) does nothing") != NULL, "%s", t);
    ck_assert_msg(strstr(t, "\n  warning: step time 1.74 s at MFU 1") != NULL, "%s", t);
    ck_assert_msg(strstr(t, "steps; under the roofline's") != NULL, "%s", t);
    free(t);
    t = check_render(&s, &a, REPORT_JSON);
    cJSON *j = cJSON_Parse(t);
    const cJSON *wa = cJSON_GetObjectItemCaseSensitive(j, "warnings");
    ck_assert(cJSON_IsArray(wa));
    ck_assert_int_eq(cJSON_GetArraySize(wa), 2);
    cJSON_Delete(j);
    free(t);
    t = check_render(&s, &a, REPORT_CSV);
    ck_assert_msg(strstr(t, "\nwarnings,1,sequence parallelism") != NULL, "%s", t);
    free(t);
    check_scenario(&s, &a, "");
    t = check_render(&s, &a, REPORT_JSON);
    j = cJSON_Parse(t);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "warnings")), 0);
    cJSON_Delete(j);
    free(t);
}
END_TEST

START_TEST(test_dashboard_warning_line)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_draw(&h);
    ck_assert(!screen_contains(&h.s, "warning:"));
    /* MFU to its largest: faster than the roofline, said on the bottom line. */
    harness_focus(&h, slider_id("mfu"));
    harness_keys(&h, "<End>");
    ck_assert(h.d.sc.mfu == 1);
    harness_draw(&h);
    ck_assert_screen_has(&h, "warning: step time 1.74 s at MFU 1 is faster than the roofline");
    harness_stop(&h);
}
END_TEST

/* The lecture demo's captions are checked claim by claim in test_lecture.c. */

START_TEST(test_names_follow_the_scenario)
{
    char title[256], err[512];
    /* A scenario file without "name": titled after what it is, not the lecture's question
     * ("lecture: 70B on 15T tokens, 1024 H100s" over a 7B model before). */
    static const char file[] = "{\"model\": \"llama2-7b\", \"gpus\": 8}";
    struct scenario s;
    inputs_defaults(&s);
    ck_assert_msg(scenario_parse(file, strlen(file), "t.json", &s, err, sizeof err), "%s", err);
    scenario_title(&s, title, sizeof title);
    ck_assert_str_eq(title, "Llama 2 7B on 8 x H100 SXM5");
    struct analysis a;
    analysis_run(&s, &a);
    char *t = check_render(&s, &a, REPORT_TEXT);
    ck_assert_msg(strncmp(t, "Scenario: Llama 2 7B on 8 x H100 SXM5\n", 38) == 0, "%s", t);
    free(t);
    /* A named file keeps its name. */
    static const char named[] = "{\"name\": \"my run\", \"model\": \"llama2-7b\", \"gpus\": 8}";
    inputs_defaults(&s);
    ck_assert_msg(scenario_parse(named, strlen(named), "t.json", &s, err, sizeof err), "%s", err);
    scenario_title(&s, title, sizeof title);
    ck_assert_str_eq(title, "my run");

    /* JSON names it as the text does (it said "custom" before). */
    check_scenario(&s, &a, "--model llama2-7b --gpus 8");
    t = check_render(&s, &a, REPORT_JSON);
    cJSON *j = cJSON_Parse(t);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "scenario"), "name");
    ck_assert(cJSON_IsString(name));
    ck_assert_str_eq(name->valuestring, "Llama 2 7B on 8 x H100 SXM5");
    cJSON_Delete(j);
    free(t);

    /* The dashboard on a named scenario: another model picked, the title (status line and
     * what an export writes) names the new model. */
    struct harness h;
    memset(&h, 0, sizeof h);
    inputs_defaults(&s);
    ck_assert_msg(scenario_parse(named, strlen(named), "t.json", &s, err, sizeof err), "%s", err);
    ck_assert_msg(dash_init(&h.d, &s, true, true, err, sizeof err), "%s", err);
    struct event ev = {.type = EV_RESIZE, .x = 120, .y = 40};
    dash_handle(&h.d, &ev);
    harness_draw(&h);
    ck_assert_screen_has(&h, "my run");
    harness_focus(&h, slider_id("model"));
    harness_keys(&h, "<Right>");
    ck_assert_str_ne(h.d.sc.model.id, "llama2-7b");
    harness_keys(&h, "<Down><Up>"); /* a key without a message: the status shows the title */
    scenario_title(&h.d.sc, title, sizeof title);
    ck_assert_msg(strstr(title, h.d.sc.model.name) == title, "%s", title);
    ck_assert_screen_has(&h, title);
    ck_assert(!screen_contains(&h.s, "my run"));
    t = check_render(&h.d.sc, &h.d.ev.an, REPORT_MD);
    char want[300];
    snprintf(want, sizeof want, "# %s\n", title);
    ck_assert_msg(strncmp(t, want, strlen(want)) == 0, "%s", t);
    free(t);
    harness_stop(&h);
}
END_TEST

static Suite *consistency_suite(void)
{
    Suite *s = suite_create("consistency");
    TCase *tc = tcase_create("consistency");
    tcase_add_test(tc, test_dtype_without_peak_refused);
    tcase_add_test(tc, test_dashboard_dtype_na);
    tcase_add_test(tc, test_pipeline_busiest_stage);
    tcase_add_test(tc, test_warnings);
    tcase_add_test(tc, test_dashboard_warning_line);
    tcase_add_test(tc, test_names_follow_the_scenario);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(consistency_suite());
}
