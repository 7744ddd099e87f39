/* test_pp_layout.c - Megatron-core's --pipeline-model-parallel-layout: its grammar, its
 * rules against the model and the pipeline, and the stages it makes in the step time. */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include "check_util.h"
#include "inputs.h"
#include "pp_layout.h"
#include "rules.h"
#include "scenario.h"
#include "scenario_check.h"
#include "spec.h"

/* NVIDIA's DeepSeek-V3 layout (Megatron-MoE-ModelZoo best_practice/DeepSeekV3/readme.md):
 * the embedding and one layer, thirty chunks of two layers, the MTP layer and the loss. */
static const char DSV3[] = "Et|(tt|)*30mL";

START_TEST(grammar)
{
    struct pp_layout l;
    char err[160];
    ck_assert_msg(pp_layout_parse(DSV3, &l, err, sizeof err), "%s", err);
    ck_assert_int_eq(l.chunks, 32);
    ck_assert_int_eq(l.decoder, 61);
    ck_assert_int_eq(l.mtp, 1);
    ck_assert_int_eq(l.mtp_outside_last, 0);
    ck_assert_int_eq(l.embeddings, 1);
    ck_assert_int_eq(l.embedding_chunk, 0);
    ck_assert_int_eq(l.losses, 1);
    ck_assert_int_eq(l.loss_chunk, 31);
    ck_assert_int_eq(l.layers[0], 1);
    for (int c = 1; c <= 30; c++)
        ck_assert_int_eq(l.layers[c], 2);
    ck_assert_int_eq(l.layers[31], 0);
    /* Over pp 16 (vpp 2): stage i holds chunks i and i + 16. */
    ck_assert_int_eq(pp_layout_stage_layers(&l, 16, 0), 1 + 2);
    ck_assert_int_eq(pp_layout_stage_layers(&l, 16, 7), 4);
    ck_assert_int_eq(pp_layout_stage_layers(&l, 16, 15), 2 + 0);
    ck_assert_int_eq(pp_layout_stage_layers(&l, 16, 16), 0);
    /* Repeats of one symbol and of groups, nested; commas and spaces are cosmetic. */
    ck_assert(pp_layout_parse("E t*3 | ((t|)*2)*2, tL", &l, err, sizeof err));
    ck_assert_int_eq(l.chunks, 6);
    ck_assert_int_eq(l.decoder, 8);
    ck_assert_int_eq(l.layers[0], 3);
    ck_assert_int_eq(l.layers[5], 1);
    ck_assert(pp_layout_parse("E||tL", &l, err, sizeof err)); /* an empty chunk */
    ck_assert_int_eq(l.chunks, 3);
    ck_assert_int_eq(l.layers[1], 0);
    /* Malformed: one line each. */
    static const struct {
        const char *text, *err;
    } bad[] = {
        {"Et|(tt|*30mL", "a '(' is not closed"},
        {"Et)L", "a ')' has no '('"},
        {"Ex|L", "'x' is none of E, t, m, L, | and (...)*N"},
        {"Et*", "'*' needs a count after it"},
        {"Et*0L", "a repeat count must be between 1 and 10000"},
        {"E(t|)*9000L", "expands past 8192 symbols"},
        {"E(((((((((((((((((t)))))))))))))))))L", "nests deeper than 16 parentheses"},
        {"E(|)*600L", "names more than 512 stages"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(!pp_layout_parse(bad[i].text, &l, err, sizeof err), "%s", bad[i].text);
        ck_assert_str_eq(err, bad[i].err);
    }
}
END_TEST

/* DeepSeek-V3 (61 layers, one MTP layer) on 256 B200s at pp 16 with the layout. */
static void dsv3(struct scenario *s)
{
    char err[SPEC_ERR_MAX];
    inputs_defaults(s);
    ck_assert_msg(spec_find_model("deepseek-v3", &s->model, err, sizeof err), "%s", err);
    ck_assert_msg(spec_find_gpu("b200", &s->gpu, err, sizeof err), "%s", err);
    s->gpus = 256;
    s->tp = 1;
    s->pp = 16;
    s->vpp = 2;
    s->ep = 8;
    s->zero = 1;
    s->seq = 4096;
    s->batch = 2048;
    s->micro_batch = 1;
    snprintf(s->pp_layout, sizeof s->pp_layout, "%s", DSV3);
}

static void refused(const struct scenario *s, const char *want)
{
    char err[512];
    ck_assert_msg(!scenario_validate(s, err, (int)sizeof err), "accepted: %s", want);
    ck_assert_str_eq(err, want);
}

START_TEST(rules)
{
    struct scenario s;
    char err[512];
    dsv3(&s);
    ck_assert_msg(scenario_validate(&s, err, (int)sizeof err), "%s", err);
    ck_assert(scenario_uneven_stages(&s));
    ck_assert_int_eq(scenario_stage_layers(&s, 0), 3);
    ck_assert_int_eq(scenario_stage_layers(&s, 1), 4);
    ck_assert_int_eq(scenario_stage_layers(&s, 15), 2);
    struct scenario t = s;
    t.vpp = 1;
    refused(&t, "--vpp: the pipeline layout's 32 stages are pp 16 x vpp 2, not vpp 1");
    t = s;
    t.pp = 12;
    t.gpus = 192;
    refused(&t, "--pipeline-model-parallel-layout: its 32 stages do not split over pp 12");
    t = s;
    snprintf(t.pp_layout, sizeof t.pp_layout, "E|(tt|)*30mL");
    refused(&t, "--pipeline-model-parallel-layout: it builds 60 decoder layers (t), the model has "
                "61");
    t = s;
    snprintf(t.pp_layout, sizeof t.pp_layout, "Et|(tt|)*30L");
    refused(&t, "--pipeline-model-parallel-layout: it names 0 MTP layers (m) where the model has 1");
    t = s;
    snprintf(t.pp_layout, sizeof t.pp_layout, "Et|m(tt|)*30L");
    refused(&t, "--pipeline-model-parallel-layout: its MTP layers (m) must be in the last stage");
    t = s;
    snprintf(t.pp_layout, sizeof t.pp_layout, "EtL|(tt|)*30m");
    refused(&t, "--pipeline-model-parallel-layout: the loss (L) must be named once, in the last "
                "stage");
    t = s;
    t.first_stage_layers = 3;
    refused(&t, "--pipeline-model-parallel-layout: cannot be used with the first or last stage's "
                "layers given or the embedding or loss counted in (Megatron-LM takes one of them)");
    /* A pipeline the layout does not split: the dashboard's give-way drops it. */
    t = s;
    t.pp = 12;
    char note[128] = "";
    struct give_way gw = {&t, offsetof(struct scenario, pp), note, sizeof note};
    rules_give_way_stages(&t, &gw);
    ck_assert_str_eq(t.pp_layout, "");
    ck_assert_str_eq(note, "pipeline layout off: its stages do not split over pp 12");
    /* One that does: the interleaving follows it (32 chunks over pp 8: vpp 4). */
    t = s;
    t.pp = 8;
    t.vpp = 2;
    struct give_way gv = {&t, offsetof(struct scenario, pp), note, sizeof note};
    rules_give_way_vpp(&t, &gv);
    ck_assert_int_eq(t.vpp, 4);
}
END_TEST

/* The flag, the file key and "none". */
START_TEST(front_ends)
{
    struct check_run r;
    ck_assert_int_eq(check_run_bin(&r, "report --model deepseek-v3 --gpu b200 --gpus 256 --pp 16 "
                                       "--vpp 2 --ep 8 --zero 1 --seq 4096 --batch 2048 "
                                       "--pipeline-model-parallel-layout 'Et|(tt|)*30mL' "
                                       "--format json"),
                     0);
    ck_assert(strstr(r.out, "\"pipeline_model_parallel_layout\":\t\"Et|(tt|)*30mL\"") != NULL);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "report --pipeline-model-parallel-layout 'Et|(tt'"), 2);
    ck_assert_str_eq(r.err, "rooftop report: --pipeline-model-parallel-layout: \"Et|(tt\": a '(' is "
                            "not closed\n");
    check_run_free(&r);
    struct scenario s;
    inputs_defaults(&s);
    char err[256];
    const struct input *in = inputs_find("pipeline_model_parallel_layout");
    ck_assert_ptr_nonnull(in);
    ck_assert(inputs_parse(in, &s, "Et|tL", err, sizeof err));
    ck_assert_str_eq(s.pp_layout, "Et|tL");
    ck_assert(inputs_parse(in, &s, "none", err, sizeof err));
    ck_assert_str_eq(s.pp_layout, "");
}
END_TEST

static Suite *pp_layout_suite(void)
{
    Suite *s = suite_create("pp_layout");
    TCase *tc = tcase_create("layout");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, grammar);
    tcase_add_test(tc, rules);
    tcase_add_test(tc, front_ends);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(pp_layout_suite());
}
