/* test_consistency.c - figures that must agree with each other (issue 8, "numbers that
 * contradict each other"): a dtype is timed at its own peak or refused, in the core and on
 * the dashboard. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "dash_harness.h"
#include "gpu.h"
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
    scenario_default(&s);
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
    /* The dtype slider past fp8 on an H100: fp4 is refused, the numbers stay at fp8's. */
    harness_focus(&h, SL_DTYPE);
    harness_keys(&h, "<End>");
    ck_assert_int_ne(h.d.sc.dtype, DTYPE_FP4);
    ck_assert(h.d.an.roofline.peak == gpu_peak(&h.d.sc.gpu, h.d.sc.dtype));
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

static Suite *consistency_suite(void)
{
    Suite *s = suite_create("consistency");
    TCase *tc = tcase_create("consistency");
    tcase_add_test(tc, test_dtype_without_peak_refused);
    tcase_add_test(tc, test_dashboard_dtype_na);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(consistency_suite());
}
