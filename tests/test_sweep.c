/* test_sweep.c - a knob swept: each column against a single evaluation at that value, the
 * values a knob steps through, invalid values kept with their reason, the crossing point,
 * and the command's formats. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "cli.h"
#include "evaluation.h"
#include "inputs.h"
#include "report.h"
#include "sweep.h"
#include "sweep_plot.h"
#include "sweep_report.h"

/* Llama 3.1 8B on one H100 SXM, 8 sequences a step, 8-bit Adam (full AdamW state alone is
 * 64 GB): the README's sweep. */
static void base_8b(struct scenario *s)
{
    scenario_default(s);
    char err[512];
    char *argv[] = {"sweep", "--model", "llama3.1-8b", "--gpus", "1", "--batch", "8",
                    "--zero", "0", "--optimizer", "adam8bit", "--mfu", "predicted", NULL};
    ck_assert_msg(cli_parse_scenario(s, 13, argv, 1, err, sizeof err), "%s", err);
}

/* Every column of every point equals the figure report's JSON gives for one evaluation of
 * the scenario with that value typed on the command line. */
START_TEST(columns_equal_single_evaluations)
{
    struct scenario s;
    base_8b(&s);
    const struct input *seq = inputs_find("seq");
    double vals[SWEEP_MAX];
    char err[256];
    int n = sweep_values(seq, 1024, 65536, 0, vals, SWEEP_MAX, err, sizeof err);
    ck_assert_int_eq(n, 7);
    struct sweep sw;
    ck_assert(sweep_run(&sw, &s, seq, vals, n, NULL, NULL, NULL));
    ck_assert_int_eq(sw.n, 7);
    const struct sweep_column *cols;
    int nc = sweep_columns(&cols);
    struct evaluation *one = malloc(sizeof *one);
    ck_assert_ptr_nonnull(one);
    int compared = 0;
    for (int i = 0; i < sw.n; i++) {
        const struct sweep_point *p = &sw.pts[i];
        ck_assert_msg(p->valid, "seq %s: %s", p->text, p->why);
        struct scenario t;
        base_8b(&t);
        char text[64];
        snprintf(text, sizeof text, "%s", p->text);
        char *argv[] = {"report", "--seq", text, NULL};
        ck_assert_msg(cli_parse_scenario(&t, 3, argv, 1, err, sizeof err), "%s", err);
        ck_assert_msg(scenario_validate(&t, err, (int)sizeof err), "%s", err);
        evaluation_run(&t, NULL, one);
        cJSON *j = report_json_of(one);
        ck_assert_ptr_nonnull(j);
        for (int c = 0; c < nc; c++) {
            double got, want;
            bool b1, b2;
            bool have = sweep_figure(p, cols[c].key, &got, &b1);
            /* The single report's figure, read from its JSON directly. */
            const cJSON *o = report_json_at(j, cols[c].key);
            b2 = cJSON_IsBool(o);
            bool have_one = cJSON_IsNumber(o) || b2;
            want = b2 ? cJSON_IsTrue(o) : (cJSON_IsNumber(o) ? o->valuedouble : 0);
            ck_assert_msg(have == have_one, "seq %s %s: present %d vs %d", p->text,
                          cols[c].key, have, have_one);
            if (have) {
                ck_assert_msg(got == want && b1 == b2, "seq %s %s: %.17g vs %.17g", p->text,
                              cols[c].key, got, want);
                compared++;
            }
        }
        cJSON_Delete(j);
    }
    ck_assert_int_ge(compared, 7 * 10);
    /* Memory grows with the sequence: 8B on 80 GB stops fitting along the way, and the
     * crossing is the first point that does not fit, after one that does. */
    int x = sweep_crossing(&sw);
    ck_assert_int_gt(x, 0);
    ck_assert(!sw.pts[x].ev.an.memory.fits && sw.pts[x - 1].ev.an.memory.fits);
    char line[256];
    sweep_plot_crossing(&sw, line, sizeof line);
    char want[128];
    snprintf(want, sizeof want, "stops fitting at seq = %s: ", sw.pts[x].text);
    ck_assert_msg(strncmp(line, want, strlen(want)) == 0, "%s", line);
    free(one);
    sweep_free(&sw);
}
END_TEST

/* The values: an input's own steps, N spaced values, whole numbers for counts. */
START_TEST(values_of_a_knob)
{
    double v[SWEEP_MAX];
    char err[256];
    ck_assert_int_eq(sweep_values(inputs_find("zero"), 0, 3, 0, v, SWEEP_MAX, err, sizeof err), 4);
    ck_assert(v[0] == 0 && v[1] == 1 && v[2] == 2 && v[3] == 3);
    ck_assert_int_eq(sweep_values(inputs_find("tp"), 1, 16, 5, v, SWEEP_MAX, err, sizeof err), 5);
    ck_assert(v[0] == 1 && v[1] == 2 && v[2] == 4 && v[3] == 8 && v[4] == 16);
    ck_assert_int_eq(sweep_values(inputs_find("micro_batch"), 1, 8, 0, v, SWEEP_MAX, err,
                                  sizeof err), 4);
    ck_assert(v[0] == 1 && v[3] == 8);
    /* Descending ends sweep downwards. */
    ck_assert_int_eq(sweep_values(inputs_find("seq"), 8192, 2048, 0, v, SWEEP_MAX, err,
                                  sizeof err), 3);
    ck_assert(v[0] == 8192 && v[2] == 2048);
    /* Counts round, and repeats go: 1..3 in 5 steps is 1, 2, 3. */
    ck_assert_int_eq(sweep_values(inputs_find("gpus"), 1, 3, 5, v, SWEEP_MAX, err, sizeof err), 3);
    /* The MFU's linear steps are tenths exactly, not sums of them. */
    ck_assert_int_eq(sweep_values(inputs_find("mfu"), 0.3, 0.6, 0, v, SWEEP_MAX, err, sizeof err),
                     7);
    ck_assert(v[6] == 0.6 && v[2] == 0.4);
    /* An input without steps of its own needs --steps. */
    ck_assert_int_eq(sweep_values(inputs_find("layers"), 8, 32, 0, v, SWEEP_MAX, err,
                                  sizeof err), 0);
    ck_assert_str_eq(err, "layers has no steps of its own: give --steps N");
}
END_TEST

/* Values that make the scenario invalid stay, named: tp 2 and up need more than one GPU. */
START_TEST(invalid_values_reported)
{
    struct scenario s;
    base_8b(&s);
    double v[] = {1, 2, 4};
    struct sweep sw;
    ck_assert(sweep_run(&sw, &s, inputs_find("tp"), v, 3, NULL, NULL, NULL));
    ck_assert(sw.pts[0].valid);
    ck_assert(!sw.pts[1].valid && !sw.pts[2].valid);
    ck_assert_msg(strstr(sw.pts[1].why, "--tp") != NULL, "%s", sw.pts[1].why);
    sweep_free(&sw);

    struct check_run r;
    ck_assert_int_eq(check_run_bin(&r, "sweep --model llama3.1-8b --gpus 1 --knob tp --from 1 "
                                       "--to 4 --format json"), 0);
    cJSON *j = cJSON_Parse(r.out);
    ck_assert_ptr_nonnull(j);
    const cJSON *rows = cJSON_GetObjectItem(j, "rows");
    ck_assert_int_eq(cJSON_GetArraySize(rows), 3);
    const cJSON *r1 = cJSON_GetArrayItem(rows, 1);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(r1, "valid")));
    ck_assert(cJSON_IsString(cJSON_GetObjectItem(r1, "error")));
    ck_assert_ptr_null(cJSON_GetObjectItem(r1, "memory"));
    ck_assert_str_eq(cJSON_GetObjectItem(j, "knob")->valuestring, "tp");
    cJSON_Delete(j);
    check_run_free(&r);
}
END_TEST

/* The command: its JSON rows are report's figures (one value checked against `rooftop
 * report` run apart), text names the crossing, svg is an image, and bad usage is one line. */
START_TEST(command_formats)
{
    struct check_run r, one;
    ck_assert_int_eq(check_run_bin(&r, "sweep --model llama3.1-8b --gpus 1 --batch 8 --zero 0 "
                                       "--knob seq --from 2Ki --to 32Ki --format json"), 0);
    ck_assert_int_eq(check_run_bin(&one, "report --model llama3.1-8b --gpus 1 --batch 8 "
                                         "--zero 0 --seq 8192 --mfu predicted --format json"), 0);
    cJSON *j = cJSON_Parse(r.out), *k = cJSON_Parse(one.out);
    ck_assert(j != NULL && k != NULL);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 2);
    ck_assert_str_eq(cJSON_GetObjectItem(row, "text")->valuestring, "8192");
    const char *keys[][2] = {{"memory", "total"}, {"memory", "activations"}, {"time", "days"},
                             {"cost", "gpu_hours"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "%s.%s", keys[i][0], keys[i][1]);
        double a = report_json_at(row, key)->valuedouble;
        double b = report_json_at(k, key)->valuedouble;
        ck_assert_msg(a == b, "%s.%s: %.17g vs %.17g", keys[i][0], keys[i][1], a, b);
    }
    double sa = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(row, "time"),
                                                        "predicted"), "step_seconds")->valuedouble;
    double sb = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(k, "time"),
                                                        "predicted"), "step_seconds")->valuedouble;
    ck_assert(sa == sb);
    cJSON_Delete(j);
    cJSON_Delete(k);
    check_run_free(&r);
    check_run_free(&one);

    ck_assert_int_eq(check_run_bin(&r, "sweep --model llama3.1-8b --gpus 1 --batch 8 --zero 0 "
                                       "--optimizer adam8bit --knob seq --from 1Ki --to 64Ki"),
                     0);
    ck_assert_ptr_nonnull(strstr(r.out, "stops fitting at seq = "));
    ck_assert_ptr_nonnull(strstr(r.out, "usable"));
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --model llama3.1-8b --gpus 1 --knob seq --from 1Ki "
                                       "--to 8Ki --format svg"), 0);
    ck_assert(strncmp(r.out, "<svg ", 5) == 0 && strstr(r.out, "</svg>\n") != NULL);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --model llama3.1-8b --gpus 1 --knob seq --from 1Ki "
                                       "--to 8Ki --format csv"), 0);
    ck_assert(strncmp(r.out, "value,text,valid,memory.params,", 31) == 0);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob sequence --from 1 --to 2"), 2);
    ck_assert_str_eq(r.err, "rooftop sweep: --knob: 'sequence' is not an input (rooftop sweep "
                            "--help lists them)\n");
    check_run_free(&r);
    /* A serving input moves only rooftop infer's figures: refused, not a flat sweep. */
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob prompt --from 1Ki --to 8Ki"), 2);
    ck_assert_str_eq(r.err, "rooftop sweep: --knob: prompt is a serving input (rooftop infer); "
                            "sweeping the serving figures is not done yet\n");
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob seq --from 1Ki --to 12x"), 2);
    ck_assert_str_eq(r.err, "rooftop sweep: --to: seq: '12x' is not a number\n");
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob gpu --from a100-80gb --to h200 --gpus 8 "
                                       "--model llama3.1-8b --format csv"), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "\n1,a100-80gb,true,"));
    check_run_free(&r);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, columns_equal_single_evaluations);
    tcase_add_test(tc, values_of_a_knob);
    tcase_add_test(tc, invalid_values_reported);
    tcase_add_test(tc, command_formats);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(sweep_suite());
}
