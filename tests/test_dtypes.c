/* test_dtypes.c - the number formats of the lecture (src/numfmt.c) and `rooftop dtypes`:
 * figures that follow from each format's bits (IEEE 754 binary16/32, bfloat16, the OCP FP8
 * formats E4M3 with max 448 and E5M2 with max 57344, NVFP4's E2M1 with values up to 6), and a
 * value stored as a cast stores it. */
#include <check.h>
#include <math.h>

#include "check_util.h"
#include "numfmt.h"
#include "numfmt_table.h"

static struct numfmt fmt(enum numfmt_id id)
{
    struct numfmt f;
    ck_assert(numfmt_get(id, &f));
    return f;
}

START_TEST(figures_from_bits)
{
    struct numfmt f = fmt(NF_FP32);
    ck_assert_int_eq(numfmt_bits(&f), 32);
    ck_assert(f.max == ldexp(2 - ldexp(1, -23), 127)); /* 3.4028235e38 */
    ck_assert(f.min_normal == ldexp(1, -126));
    ck_assert(f.min_subnormal == ldexp(1, -149));
    ck_assert(f.epsilon == ldexp(1, -23));
    f = fmt(NF_FP16);
    ck_assert_int_eq(numfmt_bits(&f), 16);
    ck_assert(f.max == 65504);
    ck_assert(f.min_normal == ldexp(1, -14));    /* 6.10e-5 */
    ck_assert(f.min_subnormal == ldexp(1, -24)); /* 5.96e-8 */
    ck_assert(f.epsilon == ldexp(1, -10));
    f = fmt(NF_BF16);
    ck_assert_int_eq(f.exp_bits, 8);
    ck_assert_int_eq(f.man_bits, 7);
    ck_assert_rel(f.max, 3.3895e38, 1e-4);       /* fp32's range ... */
    ck_assert(f.min_normal == ldexp(1, -126));
    ck_assert(f.epsilon == ldexp(1, -7));        /* ... with fewer digits: 0.0078125 */
    f = fmt(NF_FP8_E4M3);
    ck_assert_int_eq(numfmt_bits(&f), 8);
    ck_assert(f.max == 448);
    ck_assert(f.min_normal == ldexp(1, -6));
    ck_assert(f.min_subnormal == ldexp(1, -9));
    ck_assert(f.epsilon == 0.125);
    f = fmt(NF_FP8_E5M2);
    ck_assert(f.max == 57344);
    ck_assert(f.min_normal == ldexp(1, -14));
    ck_assert(f.min_subnormal == ldexp(1, -16));
    ck_assert(f.epsilon == 0.25);
    f = fmt(NF_NVFP4);
    ck_assert_int_eq(numfmt_bits(&f), 4);
    ck_assert(f.max == 6);
    ck_assert(f.min_normal == 1);
    ck_assert(f.min_subnormal == 0.5);
}
END_TEST

START_TEST(e2m1_values)
{
    double v[16];
    const double want[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
    ck_assert_int_eq(numfmt_e2m1_values(v, 16), 8);
    for (int i = 0; i < 8; i++)
        ck_assert(v[i] == want[i]);
}
END_TEST

/* The lecture's example: fp16 loses 1e-8 altogether, bf16 keeps it (to 3 digits). */
START_TEST(fp16_underflows_bf16_does_not)
{
    struct numfmt h = fmt(NF_FP16), b = fmt(NF_BF16), s = fmt(NF_FP32);
    ck_assert(numfmt_round(&h, 1e-8) == 0);
    /* 1e-8 lies in [2^-27, 2^-26): bf16's step there is 2^-34, and 1e-8 / 2^-34 = 171.8. */
    ck_assert(numfmt_round(&b, 1e-8) == ldexp(172, -34));
    ck_assert_rel(numfmt_round(&s, 1e-8), 1e-8, ldexp(1, -24));
    /* fp16's smallest subnormal survives; half of it ties to even (0), a little more does not. */
    ck_assert(numfmt_round(&h, ldexp(1, -24)) == ldexp(1, -24));
    ck_assert(numfmt_round(&h, ldexp(1, -25)) == 0);
    ck_assert(numfmt_round(&h, ldexp(1.0001, -25)) == ldexp(1, -24));
}
END_TEST

START_TEST(round_ties_even_and_overflow)
{
    struct numfmt h = fmt(NF_FP16), e4 = fmt(NF_FP8_E4M3), e5 = fmt(NF_FP8_E5M2),
                  f4 = fmt(NF_NVFP4), b = fmt(NF_BF16);
    ck_assert(numfmt_round(&h, 2049) == 2048); /* step 2 above 2048: the tie goes to even */
    ck_assert(numfmt_round(&h, 2051) == 2052);
    ck_assert(numfmt_round(&h, 65519) == 65504);
    ck_assert(isinf(numfmt_round(&h, 65520)));
    ck_assert(numfmt_round(&b, 1.00390625) == 1); /* 1 + 2^-8: half of bf16's epsilon */
    ck_assert(numfmt_round(&e4, 464) == 448);
    ck_assert(isnan(numfmt_round(&e4, 465)));     /* E4M3 has no infinity */
    ck_assert(isinf(numfmt_round(&e5, 61440)));
    ck_assert(numfmt_round(&e5, 61439) == 57344);
    ck_assert(numfmt_round(&f4, 100) == 6);       /* E2M1 saturates */
    ck_assert(numfmt_round(&f4, 2.5) == 2);       /* between 2 and 3: even mantissa */
    ck_assert(numfmt_round(&f4, 0.25) == 0);
    ck_assert(numfmt_round(&f4, -0.3) == -0.5);
}
END_TEST

START_TEST(nvfp4_block_scale)
{
    double scale;
    /* The block's largest (1) maps to 6: scale 1/6, and 0.3 x 6 = 1.8 is stored as 2. */
    ck_assert_rel(numfmt_nvfp4(0.3, 1, 1, &scale), 2.0 / 6, 1e-15);
    ck_assert_rel(scale, 1.0 / 6, 1e-15);
    /* A block of largest 1 in a tensor of largest 10: the block's scale, 448 x 1 / 10 = 44.8
     * on E4M3's grid, is 44 (steps of 4 in [32, 64)), so scale 44 / 268.8. */
    double got = numfmt_nvfp4(0.3, 1, 10, &scale);
    ck_assert_rel(scale, 44 / 268.8, 1e-12);
    ck_assert_rel(got, 2 * 44 / 268.8, 1e-12);
    /* Scale 1 (block max 6) is the bare E2M1 grid. */
    ck_assert(numfmt_nvfp4(1e-8, 6, 6, &scale) == 0);
    ck_assert(scale == 1);
    ck_assert(numfmt_nvfp4(5.1, 6, 6, &scale) == 6);
}
END_TEST

START_TEST(cli_dtypes)
{
    struct check_run r;
    check_run_bin(&r, "dtypes --value 1e-8");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "fp16        16 1/5/10       65504") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "fp8-e4m3     8 1/4/3          448") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "fp16      0               underflow to 0") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "bf16      1.00117177e-08") != NULL, "%s", r.out);
    check_run_free(&r);
    check_run_bin(&r, "dtypes --value 1e-8 --format json");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\"stored\":\t0") != NULL, "%s", r.out);
    check_run_free(&r);
    check_run_bin(&r, "dtypes --value 1000");
    ck_assert_msg(strstr(r.out, "fp8-e4m3  nan             overflow") != NULL, "%s", r.out);
    check_run_free(&r);
    check_run_bin(&r, "dtypes --value nan");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "rooftop dtypes: --value:") != NULL, "%s", r.err);
    check_run_free(&r);
    check_run_bin(&r, "dtypes --format xml");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "rooftop dtypes: --format: ") == r.err, "%s", r.err);
    check_run_free(&r);
    check_run_bin(&r, "dtypes --block-max 0");
    ck_assert_int_eq(r.status, 2);
    check_run_free(&r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dtypes");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, figures_from_bits);
    tcase_add_test(tc, e2m1_values);
    tcase_add_test(tc, fp16_underflows_bf16_does_not);
    tcase_add_test(tc, round_ties_even_and_overflow);
    tcase_add_test(tc, nvfp4_block_scale);
    tcase_add_test(tc, cli_dtypes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite());
}
