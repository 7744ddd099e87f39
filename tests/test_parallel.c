/* test_parallel.c - context and expert parallelism (issue 9): the layout rules Megatron-LM
 * enforces, the give-way rules, and the inputs through every front end. */
#include <check.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check_util.h"
#include "model.h"
#include "scenario.h"
#include "scenario_file.h"
#include "spec.h"

static struct scenario with_model(const char *id)
{
    struct scenario s;
    scenario_default(&s);
    char err[256];
    ck_assert_msg(spec_find_model(id, &s.model, err, sizeof err), "%s", err);
    return s;
}

static void valid(const struct scenario *s)
{
    char err[512];
    ck_assert_msg(scenario_validate(s, err, (int)sizeof err), "%s", err);
}

/* Fails, naming the flag. */
static void invalid(const struct scenario *s, const char *flag)
{
    char err[512];
    ck_assert_msg(!scenario_validate(s, err, (int)sizeof err), "%s accepted", flag);
    ck_assert_msg(strncmp(err, flag, strlen(flag)) == 0, "want %s, got: %s", flag, err);
}

START_TEST(defaults_are_one)
{
    struct scenario s;
    scenario_default(&s);
    ck_assert_int_eq(s.cp, 1);
    ck_assert_int_eq(s.ep, 1);
    /* The lecture's layout is unchanged: 1024 data-parallel ranks. */
    ck_assert_int_eq(scenario_dp(&s), 1024);
    ck_assert_int_eq(scenario_dp_cp(&s), 1024);
}
END_TEST

START_TEST(dp_counts_context_ranks)
{
    /* Megatron-LM, parallel_state.initialize_model_parallel: data_parallel_size = world_size
     * // (tensor_model_parallel_size * pipeline_model_parallel_size * context_parallel_size).
     * 1024 GPUs at tp 8, pp 4, cp 2: 1024 / 64 = 16 data-parallel ranks, 32 with cp. */
    struct scenario s = with_model("llama3.1-70b");
    s.gpus = 1024;
    s.tp = 8;
    s.pp = 4;
    s.cp = 2;
    s.seq = 8192;
    s.batch = 512;
    s.micro_batch = 1;
    valid(&s);
    ck_assert_int_eq(scenario_dp(&s), 16);
    ck_assert_int_eq(scenario_dp_cp(&s), 32);
    /* world_size must be a multiple of tp x pp x cp: 1000 is not of 64. */
    s.gpus = 1000;
    invalid(&s, "--gpus");
    ck_assert_int_eq(scenario_dp(&s), 0);
}
END_TEST

START_TEST(cp_needs_2cp_chunks)
{
    /* Megatron-LM's get_batch_on_this_cp_rank views each sequence as 2 x cp equal chunks and
     * gives rank r chunks r and 2cp-1-r (causal load balance): seq must be a multiple of 2cp.
     * 8192 tokens split for cp 8 (16 chunks of 512) but not for cp 3 (8192 / 6 is not whole),
     * and 4096 not for cp 4096 (8192 chunks). */
    struct scenario s = with_model("llama3.1-8b");
    s.gpus = 64;
    s.tp = 1;
    s.cp = 8;
    s.seq = 8192;
    s.batch = 64;
    s.micro_batch = 1;
    valid(&s);
    ck_assert_int_eq(scenario_dp(&s), 8);
    s.cp = 3;
    s.gpus = 48;
    s.batch = 48;
    invalid(&s, "--cp");
    s = with_model("llama3.1-8b");
    s.gpus = 4096;
    s.cp = 4096;
    s.seq = 4096;
    s.batch = 1;
    invalid(&s, "--cp");
    s.seq = 8192;
    valid(&s);
}
END_TEST

START_TEST(ep_rules)
{
    /* Mixtral 8x7B: 8 routed experts. Megatron-LM (parallel_state) raises unless
     * data_parallel_size x context_parallel_size is divisible by expert_model_parallel_size,
     * and the experts must split evenly over ep (num_moe_experts % ep == 0). */
    struct scenario s = with_model("mixtral-8x7b");
    ck_assert_int_eq(s.model.experts, 8);
    s.gpus = 64;
    s.tp = 8;
    s.batch = 64;
    s.micro_batch = 1;
    s.ep = 8; /* dp 8 */
    valid(&s);
    s.ep = 16; /* 16 does not divide 8 experts */
    s.gpus = 128;
    invalid(&s, "--ep");
    s.gpus = 16; /* dp 2: ep 4 does not divide dp x cp = 2 */
    s.ep = 4;
    s.batch = 16;
    invalid(&s, "--ep");
    s.gpus = 32; /* dp 2 x cp 2 = 4: ep 4 does */
    s.cp = 2;
    valid(&s);
    ck_assert_int_eq(scenario_dp(&s), 2);
    /* A dense model has no experts to split. */
    s = with_model("llama3.1-8b");
    s.ep = 2;
    invalid(&s, "--ep");
}
END_TEST

START_TEST(settle_gives_way)
{
    char note[256];
    /* cp 3 at 4096 tokens: 4096 is not a multiple of 6; the largest below that splits is 2. */
    struct scenario s = with_model("llama3.1-8b");
    s.seq = 4096;
    s.gpus = 64;
    struct scenario want = s;
    want.cp = 3;
    struct scenario c = want;
    scenario_settle(&c, &want, "seq", note, sizeof note);
    ck_assert_int_eq(c.cp, 2);
    ck_assert_msg(strstr(note, "context degree 2") != NULL, "%s", note);
    /* The GPU count follows tp x pp x cp when not held: 100 GPUs at cp 8 round up to 104. */
    want = s;
    want.cp = 8;
    want.gpus = 100;
    c = want;
    scenario_settle(&c, &want, "cp", note, sizeof note);
    ck_assert_int_eq(c.cp, 8);
    ck_assert_int_eq(c.gpus, 104);
    /* With the GPU count held, cp gives way to a divisor of it: 96 GPUs, cp 64 wanted; 32
     * splits 4096 tokens into 64 chunks and divides 96. */
    want = s;
    want.gpus = 96;
    want.cp = 64;
    c = want;
    scenario_settle(&c, &want, "gpus", note, sizeof note);
    ck_assert_int_eq(c.cp, 32);
    ck_assert_int_eq(c.gpus, 96);
    /* ep on a dense model: 1. */
    want = s;
    want.ep = 8;
    c = want;
    scenario_settle(&c, &want, "model", note, sizeof note);
    ck_assert_int_eq(c.ep, 1);
    ck_assert_msg(strstr(note, "no routed experts") != NULL, "%s", note);
    /* Mixtral on 16 GPUs at tp 8: dp 2, so ep 8 gives way to 2; moving back to 64 GPUs
     * restores 8 (want is kept). */
    s = with_model("mixtral-8x7b");
    s.tp = 8;
    s.gpus = 16;
    s.batch = 64;
    want = s;
    want.ep = 8;
    c = want;
    scenario_settle(&c, &want, "gpus", note, sizeof note);
    ck_assert_int_eq(c.ep, 2);
    valid(&c);
    c.gpus = 64;
    scenario_settle(&c, &want, "gpus", note, sizeof note);
    ck_assert_int_eq(c.ep, 8);
    valid(&c);
}
END_TEST

START_TEST(file_round_trip)
{
    struct scenario s = with_model("mixtral-8x7b");
    s.gpus = 128;
    s.tp = 4;
    s.cp = 2;
    s.ep = 8;
    s.seq = 4096;
    s.batch = 64;
    s.micro_batch = 1;
    valid(&s);
    cJSON *o = scenario_to_json(&s);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq((int)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "cp")), 2);
    ck_assert_int_eq((int)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "ep")), 8);
    struct scenario t;
    scenario_default(&t);
    char err[256];
    ck_assert_msg(scenario_apply_json(&t, o, "test", err, sizeof err), "%s", err);
    cJSON_Delete(o);
    ck_assert_int_eq(t.cp, 2);
    ck_assert_int_eq(t.ep, 8);
    ck_assert_int_eq(t.tp, 4);
    valid(&t);
}
END_TEST

START_TEST(cli_flags)
{
    struct check_run r;
    /* 8192 / (2 x 3) is not whole: one line naming --cp, usage exit. */
    check_run_bin(&r, "report --model llama3.1-8b --gpus 48 --cp 3 --seq 8192 --batch 48");
    ck_assert_int_ne(r.status, 0);
    ck_assert_msg(strstr(r.err, "--cp:") != NULL, "%s", r.err);
    ck_assert_msg(strchr(r.err, '\n') == strrchr(r.err, '\n'), "one line: %s", r.err);
    check_run_free(&r);
    check_run_bin(&r, "report --model llama3.1-8b --ep 2");
    ck_assert_int_ne(r.status, 0);
    ck_assert_msg(strstr(r.err, "--ep:") != NULL, "%s", r.err);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "report --model mixtral-8x7b --gpus 64 --tp 8 --ep 8 "
                                       "--cp 2 --seq 4096 --batch 64 --format json"),
                     0);
    ck_assert_msg(strstr(r.out, "\"cp\"") != NULL, "%s", r.out);
    check_run_free(&r);
}
END_TEST

static Suite *parallel_suite(void)
{
    Suite *s = suite_create("parallel");
    TCase *tc = tcase_create("parallel");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, defaults_are_one);
    tcase_add_test(tc, dp_counts_context_ranks);
    tcase_add_test(tc, cp_needs_2cp_chunks);
    tcase_add_test(tc, ep_rules);
    tcase_add_test(tc, settle_gives_way);
    tcase_add_test(tc, file_round_trip);
    tcase_add_test(tc, cli_flags);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(parallel_suite());
}
