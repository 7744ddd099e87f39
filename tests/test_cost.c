/* test_cost.c - what a run costs: GPU-hours, energy and money against their formulas, the
 * board powers of the shipped GPU specs, and plan ranked by cost. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "cli.h"
#include "cost.h"
#include "evaluation.h"
#include "inputs.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"
#include "scenario_check.h"
#include "spec.h"

/* Llama 3.1 8B (8,030,261,248 parameters, Meta's release) on 8 H100 SXM at a typed MFU of
 * 0.5, 6ND over 1T tokens: the time is 6ND / (8 x 989.4 TFLOP/s x 0.5), and the cost figures
 * follow from it by the formulas alone. */
START_TEST(energy_and_cost_follow_the_formula)
{
    struct scenario s;
    inputs_defaults(&s);
    char err[512];
    char *argv[] = {"report", "--model", "llama3.1-8b", "--gpus", "8", "--batch", "8",
                    "--tokens", "1T", "--mfu", "0.5", "--flops", "6nd", "--price", "2.49",
                    "--pue", "1.3", NULL};
    ck_assert_msg(cli_parse_scenario(&s, 17, argv, 1, err, sizeof err), "%s", err);
    ck_assert_msg(scenario_validate(&s, err, (int)sizeof err), "%s", err);
    struct evaluation *ev = malloc(sizeof *ev);
    ck_assert_ptr_nonnull(ev);
    evaluation_run(&s, NULL, ev);
    const double seconds = 6.0 * 8030261248.0 * 1e12 / (8 * 989.4e12 * 0.5);
    ck_assert_rel(ev->an.time.seconds, seconds, 1e-9);
    const double gpu_hours = 8 * seconds / 3600.0;
    const double kwh = 8 * 700.0 * 1.3 * seconds / 3.6e6;
    const double usd = gpu_hours * 2.49;
    ck_assert_rel(ev->cost.gpu_hours, gpu_hours, 1e-9);
    ck_assert_rel(ev->cost.energy_kwh, kwh, 1e-9);
    ck_assert_rel(ev->cost.usd, usd, 1e-9);

    /* The report's JSON carries the same figures under cost.*. */
    cJSON *j = report_json_of(ev);
    ck_assert_ptr_nonnull(j);
    ck_assert_rel(report_json_at(j, "cost.gpu_hours")->valuedouble, gpu_hours, 1e-9);
    ck_assert_rel(report_json_at(j, "cost.energy_kwh")->valuedouble, kwh, 1e-9);
    ck_assert_rel(report_json_at(j, "cost.usd")->valuedouble, usd, 1e-9);
    ck_assert_rel(report_json_at(j, "cost.pue")->valuedouble, 1.3, 1e-12);
    cJSON_Delete(j);

    /* Without a price there is no cost: null, not 0. */
    s.price = 0;
    evaluation_run(&s, NULL, ev);
    ck_assert(!ev->cost.has_price);
    j = report_json_of(ev);
    ck_assert(cJSON_IsNull(report_json_at(j, "cost.usd")));
    ck_assert_rel(report_json_at(j, "cost.energy_kwh")->valuedouble, kwh, 1e-9);
    cJSON_Delete(j);
    /* A GPU without a board power has no energy. */
    s.gpu.board_power = 0;
    evaluation_run(&s, NULL, ev);
    j = report_json_of(ev);
    ck_assert(cJSON_IsNull(report_json_at(j, "cost.energy_kwh")));
    cJSON_Delete(j);
    free(ev);
}
END_TEST

/* Every shipped GPU has its board power with the datasheet it comes from. */
START_TEST(shipped_gpus_have_board_power)
{
    struct spec_list l;
    ck_assert(spec_list_gpus(&l));
    ck_assert_int_gt((int)l.count, 10);
    for (size_t i = 0; i < l.count; i++) {
        struct gpu_spec g;
        char err[512];
        ck_assert_msg(spec_find_gpu(l.ids[i], &g, err, sizeof err), "%s", err);
        ck_assert_msg(g.board_power >= 250 && g.board_power <= 1500, "%s: %g W", g.id,
                      g.board_power);
        char path[1024];
        snprintf(path, sizeof path, "specs/gpus/%s.json", l.ids[i]);
        char *text = check_read_all(path);
        cJSON *o = cJSON_Parse(text);
        free(text);
        const cJSON *src = report_json_at(o, "power.source");
        ck_assert_msg(cJSON_IsString(src) && strlen(src->valuestring) > 20, "%s: no source",
                      g.id);
        cJSON_Delete(o);
    }
    spec_list_free(&l);
    /* Datasheet figures: H100 SXM 700 W, A100 SXM 400 W, MI300X 750 W. */
    struct gpu_spec g;
    char err[256];
    ck_assert(spec_find_gpu("h100-sxm", &g, err, sizeof err));
    ck_assert_double_eq(g.board_power, 700);
    ck_assert(spec_find_gpu("a100-80gb", &g, err, sizeof err));
    ck_assert_double_eq(g.board_power, 400);
    ck_assert(spec_find_gpu("mi300x", &g, err, sizeof err));
    ck_assert_double_eq(g.board_power, 750);
}
END_TEST

/* A bad power is refused with the file and field named. */
START_TEST(bad_power_refused)
{
    static const char *const bad =
        "{\"name\": \"X\", \"memory_bytes\": 8e10, \"bandwidth\": 3e12, \"peak_flops\": "
        "{\"bf16\": 1e15}, \"power\": {\"board\": -5}}";
    struct gpu_spec g;
    char err[512];
    ck_assert(!spec_parse_gpu(bad, strlen(bad), "x.json", &g, err, sizeof err));
    ck_assert_msg(strstr(err, "x.json") != NULL && strstr(err, "power.board") != NULL, "%s",
                  err);
}
END_TEST

/* plan --by cost: the fitting plans in order of GPUs x step time (what the cost is made
 * of), and cost asked without a price is refused. */
START_TEST(plan_by_cost_ranks_gpu_seconds)
{
    struct scenario s;
    inputs_defaults(&s);
    char err[512];
    char *argv[] = {"plan", "--model", "llama3.1-8b", "--gpus", "64", "--batch", "512",
                    "--seq", "4096", "--price", "2", NULL};
    ck_assert_msg(cli_parse_scenario(&s, 11, argv, 1, err, sizeof err), "%s", err);
    struct plan_result *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    plan_search_by(&s, NULL, 10, PLAN_BY_COST, r);
    ck_assert_int_eq(r->n, 10);
    for (int i = 0; i < r->n; i++) {
        const struct plan *p = &r->plans[i];
        ck_assert(p->fits);
        ck_assert_rel(p->cost.usd, (double)p->s.gpus * p->pred.days * 24 * 2, 1e-9);
        if (i > 0)
            ck_assert(p->cost.usd >= r->plans[i - 1].cost.usd * (1 - 1e-12));
    }
    /* At least one of them on fewer GPUs than --gpus: the search went down. */
    bool fewer = false;
    for (int i = 0; i < r->n; i++)
        fewer = fewer || r->plans[i].s.gpus < 64;
    ck_assert(fewer);
    free(r);

    struct check_run run;
    ck_assert_int_eq(check_run_bin(&run, "plan --model llama3.1-8b --gpus 8 --by cost"), 2);
    ck_assert_str_eq(run.err, "rooftop plan: --by cost: needs --price (USD per GPU-hour; "
                              "presets carry none)\n");
    check_run_free(&run);
    ck_assert_int_eq(check_run_bin(&run, "plan --model llama3.1-8b --gpus 8 --by money"), 2);
    ck_assert_str_eq(run.err, "rooftop plan: --by: 'money' is not one of time, cost, energy\n");
    check_run_free(&run);
}
END_TEST

/* The text report's cost section and the CSV's units. */
START_TEST(report_shows_cost)
{
    struct check_run run;
    ck_assert_int_eq(check_run_bin(&run, "report --model llama3.1-8b --gpus 8 --batch 8 "
                                         "--price 2.49"),
                     0);
    ck_assert_ptr_nonnull(strstr(run.out, "\nCost\n  GPU-hours "));
    ck_assert_ptr_nonnull(strstr(run.out, "(8 GPUs x 700 W x PUE 1.2)"));
    ck_assert_ptr_nonnull(strstr(run.out, "at $2.49 per GPU-hour"));
    check_run_free(&run);
    ck_assert_int_eq(check_run_bin(&run, "report --model llama3.1-8b --gpus 8 --batch 8 "
                                         "--format csv"),
                     0);
    ck_assert_ptr_nonnull(strstr(run.out, "\ncost,usd,,\n"));
    ck_assert_ptr_nonnull(strstr(run.out, "\ncost,pue,1.2,fraction\n"));
    check_run_free(&run);
}
END_TEST

static Suite *cost_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("cost");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, energy_and_cost_follow_the_formula);
    tcase_add_test(tc, shipped_gpus_have_board_power);
    tcase_add_test(tc, bad_power_refused);
    tcase_add_test(tc, plan_by_cost_ranks_gpu_seconds);
    tcase_add_test(tc, report_shows_cost);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(cost_suite());
}
