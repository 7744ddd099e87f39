/* test_lecture_cli.c - the lecture's own numbers (reference.md section 1) through the commands
 * added for it: 8 H100s for 2 weeks (solve flops), the rectangular matmul's 2 B D K
 * (intensity matmul --b --d --k), the forward/backward split of 6ND (report). */
#include <check.h>

#include "check_util.h"
#include "roofline.h"

/* The number after `key` in text. */
static double number_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    ck_assert_msg(p != NULL, "no '%s' in:\n%s", key, text);
    return strtod(p + strlen(key), NULL);
}

START_TEST(eight_h100s_two_weeks)
{
    struct check_run r;
    /* 8 x 2 x 604800 s x 989.5e12 = 9.575e21 at the lecture's peak ... */
    check_run_bin(&r, "solve flops --gpus 8 --days 14 --gpu h100-sxm --peak 989.5e12 --format json");
    ck_assert_int_eq(r.status, 0);
    ck_assert_rel(number_after(r.out, "\"flops\":"), 8 * 2 * 604800 * 989.5e12, 1e-12);
    ck_assert_rel(number_after(r.out, "\"flops\":"), 9.575e21, 1e-4);
    check_run_free(&r);
    /* ... and at the whitepaper's 989.4e12, the GPU file's */
    check_run_bin(&r, "solve flops --gpus 8 --days 14 --gpu h100-sxm");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "flops: 9.574e+21 FLOPs from 8 x H100 SXM5 for 14 days") != NULL,
                  "%s", r.out);
    /* at MFU 0.5 half of it is done */
    ck_assert_msg(strstr(r.out, "at MFU 0.5: 4.787e+21 FLOPs done") != NULL, "%s", r.out);
    check_run_free(&r);
    check_run_bin(&r, "solve flops --gpus 8");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "rooftop solve: --days:") == r.err, "%s", r.err);
    check_run_free(&r);
}
END_TEST

START_TEST(rectangular_matmul)
{
    struct op_cost c;
    matmul_rect_cost(64, 1024, 4096, DTYPE_BF16, &c);
    ck_assert(c.flops == 2.0 * 64 * 1024 * 4096);
    ck_assert(c.bytes == 2.0 * (64 * 1024 + 1024 * 4096 + 64 * 4096));
    struct check_run r;
    check_run_bin(&r, "intensity matmul --b 64 --d 1024 --k 4096 --format json");
    ck_assert_int_eq(r.status, 0);
    ck_assert(number_after(r.out, "\"flops\":") == 536870912);
    ck_assert(number_after(r.out, "\"bytes\":") == 9043968);
    ck_assert_msg(strstr(r.out, "\"bound\":\t\"memory\"") != NULL, "%s", r.out);
    check_run_free(&r);
    /* a matrix-vector product is the B = 1 matmul: intensity about 1 */
    check_run_bin(&r, "intensity matmul --b 1 --d 8192 --k 8192 --format json");
    ck_assert_rel(number_after(r.out, "\"intensity\":"), 1.0, 1e-3);
    check_run_free(&r);
    check_run_bin(&r, "intensity relu --b 4");
    ck_assert_int_eq(r.status, 2);
    check_run_free(&r);
}
END_TEST

START_TEST(forward_backward_split)
{
    struct check_run r;
    check_run_bin(&r, "report --params 70B --tokens 15T --gpus 1024 --gpu h100-sxm --mfu 0.5 "
                      "--flops 6nd");
    ck_assert_int_eq(r.status, 0);
    /* 6ND = 6.3e24: forward 2ND = 2.1e24, backward 4ND = 4.2e24 */
    ck_assert(strstr(r.out, "\n  forward                2.10e24 (2ND)   "
                            "backward 4.20e24 (4ND: backward = 2 x forward)\n") != NULL);
    check_run_free(&r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("lecture_cli");
    TCase *tc = tcase_create("commands");
    tcase_add_test(tc, eight_h100s_two_weeks);
    tcase_add_test(tc, rectangular_matmul);
    tcase_add_test(tc, forward_backward_split);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite());
}
