/* test_sweep.c - a knob swept: each column against a single evaluation at that value, the
 * values a knob steps through, invalid values kept with their reason, the crossing point,
 * and the command's formats. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "cli.h"
#include "evaluation.h"
#include "infer_cli.h"
#include "infer_report.h"
#include "inputs.h"
#include "report.h"
#include "scenario_check.h"
#include "sweep.h"
#include "sweep_plot.h"
#include "sweep_report.h"

/* Llama 3.1 8B on one H100 SXM, 8 sequences a step, 8-bit Adam (full AdamW state alone is
 * 64 GB): the README's sweep. */
static void base_8b(struct scenario *s)
{
    inputs_defaults(s);
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
    int nc = sweep_columns(&sw, &cols);
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
            bool have = sweep_figure(&sw, p, cols[c].key, &got, &b1);
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
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob seq --from 1Ki --to 12x"), 2);
    ck_assert_str_eq(r.err, "rooftop sweep: --to: seq: '12x' is not a number\n");
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob gpu --from a100-80gb --to h200 --gpus 8 "
                                       "--model llama3.1-8b --format csv"), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "\n1,a100-80gb,true,"));
    check_run_free(&r);
}
END_TEST

/* rooftop infer's scenario: Llama 3.1 8B on one H100, 16 sequences, then `extra` flags. */
static void serve_8b(struct scenario *s, const char *flag, const char *value)
{
    char err[512];
    char *argv[] = {"infer", "--model", "llama3.1-8b", "--batch", "16", (char *)flag,
                    (char *)value, NULL};
    ck_assert_msg(infer_cli_scenario(s, flag != NULL ? 7 : 5, argv, 1, NULL, err, sizeof err),
                  "%s", err);
}

/* One serving knob swept: every column of every valid point equals the figure rooftop
 * infer's JSON gives for the scenario with that value typed as its flag; returns the
 * points compared. */
static int serving_knob_checked(const char *key, const char *flag, double from, double to,
                                struct sweep *sw)
{
    struct scenario s;
    serve_8b(&s, NULL, NULL);
    const struct input *in = inputs_find(key);
    ck_assert_ptr_nonnull(in);
    double vals[SWEEP_MAX];
    char err[512];
    int n = sweep_values(in, from, to, 0, vals, SWEEP_MAX, err, sizeof err);
    ck_assert_msg(n > 1, "%s: %s", key, err);
    ck_assert(sweep_serve(sw, &s, in, vals, n, NULL, NULL));
    ck_assert(sw->serving);
    const struct sweep_column *cols;
    int nc = sweep_columns(sw, &cols), valid = 0;
    struct infer_result *one = malloc(sizeof *one);
    ck_assert_ptr_nonnull(one);
    for (int i = 0; i < sw->n; i++) {
        const struct sweep_point *p = &sw->pts[i];
        struct scenario t;
        serve_8b(&t, flag, p->text);
        bool ok = infer_validate(&t, err, (int)sizeof err);
        ck_assert_msg(ok == p->valid, "%s %s: valid %d vs %d (%s)", key, p->text, p->valid, ok,
                      p->valid ? err : p->why);
        if (!ok) {
            ck_assert_str_eq(p->why, err);
            continue;
        }
        valid++;
        infer_run(&t, one);
        cJSON *j = infer_report_json(&t, one);
        ck_assert_ptr_nonnull(j);
        for (int c = 0; c < nc; c++) {
            double got;
            bool b;
            ck_assert_msg(sweep_figure(sw, p, cols[c].key, &got, &b), "%s", cols[c].key);
            const cJSON *o = report_json_at(j, cols[c].key);
            ck_assert_msg(cJSON_IsNumber(o) || cJSON_IsBool(o), "%s", cols[c].key);
            double want = cJSON_IsBool(o) ? cJSON_IsTrue(o) : o->valuedouble;
            ck_assert_msg(got == want, "%s %s %s: %.17g vs %.17g", key, p->text, cols[c].key,
                          got, want);
        }
        cJSON_Delete(j);
    }
    free(one);
    return valid;
}

/* A serving input swept: TTFT, TPOT, max batch, tokens/s and the memory rows of each value
 * are rooftop infer's at that value; the KV cache is the formula's (Llama 3.1 8B's
 * config.json: 32 layers, 8 KV heads of 128, bf16: 2 x 32 x 8 x 128 x 2 = 131072 bytes a
 * token, exact); the context bounds the prompt (invalid, with infer's reason). */
START_TEST(serving_columns_equal_single_infer)
{
    struct sweep sw;
    ck_assert_int_eq(serving_knob_checked("prompt", "--prompt", 1024, 131072, &sw), 7);
    ck_assert(!sw.pts[sw.n - 1].valid);
    ck_assert_msg(strstr(sw.pts[sw.n - 1].why, "context") != NULL, "%s", sw.pts[sw.n - 1].why);
    for (int i = 0; i < sw.n; i++)
        if (sw.pts[i].valid) {
            double kv = 16.0 * (sw.pts[i].value + 256) * 131072;
            double got = sw.pts[i].ev.serving.memory.kv_cache;
            ck_assert_msg(got == kv, "%.17g", got);
            ck_assert(sw.pts[i].part[MEM_GRADS] == kv);
        }
    /* 16 x (P + 256) tokens of cache outgrow 80 GB between prompts 8Ki and 16Ki. */
    int x = sweep_crossing(&sw);
    ck_assert_int_gt(x, 0);
    ck_assert(!sw.pts[x].ev.serving.memory.fits && sw.pts[x - 1].ev.serving.memory.fits);
    ck_assert(sw.pts[x].seconds == sw.pts[x].ev.serving.tpot);
    /* Longer prompts: the first token later. */
    ck_assert(sw.pts[1].ev.serving.ttft > sw.pts[0].ev.serving.ttft);
    sweep_free(&sw);
    ck_assert_int_ge(serving_knob_checked("generate", "--generate", 16, 4096, &sw), 9);
    sweep_free(&sw);
    ck_assert_int_eq(serving_knob_checked("kv_dtype", "--kv-dtype", 0, 8, &sw), 9);
    sweep_free(&sw);
    ck_assert_int_ge(serving_knob_checked("batch", "--batch", 1, 512, &sw), 10);
    /* Decode at batch 1 reads the weights for one token; at 512 the same read serves 512
     * (the caches' reads grow with the batch: well over 20 times the rate, under 512). */
    double r = sw.pts[sw.n - 1].ev.serving.decode_tokens_per_s /
               sw.pts[0].ev.serving.decode_tokens_per_s;
    ck_assert_msg(r > 20 && r < 512, "%g", r);
    sweep_free(&sw);
}
END_TEST

/* The command on a serving input: its JSON rows are `rooftop infer`'s (one value run apart),
 * its table names TTFT, TPOT, max batch and tokens/s, and what infer does not read is
 * refused in one line. */
START_TEST(serving_command)
{
    struct check_run r, one;
    ck_assert_int_eq(check_run_bin(&r, "sweep --model llama3.1-8b --batch 16 --knob prompt "
                                       "--from 2Ki --to 32Ki --format json"), 0);
    ck_assert_int_eq(check_run_bin(&one, "infer --model llama3.1-8b --batch 16 --prompt 8192 "
                                         "--format json"), 0);
    cJSON *j = cJSON_Parse(r.out), *k = cJSON_Parse(one.out);
    ck_assert(j != NULL && k != NULL);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "knob")->valuestring, "prompt");
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 2);
    ck_assert_str_eq(cJSON_GetObjectItem(row, "text")->valuestring, "8192");
    const char *keys[] = {"latency.ttft", "latency.tpot", "max_batch", "throughput.tokens_per_s",
                          "memory.total", "memory.kv_cache", "memory.fits"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *a = report_json_at(row, keys[i]), *b = report_json_at(k, keys[i]);
        ck_assert_msg(a != NULL && b != NULL && cJSON_Compare(a, b, true), "%s", keys[i]);
    }
    ck_assert_ptr_null(cJSON_GetObjectItem(row, "scenario"));
    ck_assert_ptr_null(cJSON_GetObjectItem(row, "ops"));
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "crossing"), "text")->valuestring,
                     "32768"); /* one step's activations (chunked prefill): 16 x 16Ki fits */
    cJSON_Delete(j);
    cJSON_Delete(k);
    check_run_free(&r);
    check_run_free(&one);
    ck_assert_int_eq(check_run_bin(&r, "sweep --serve --model llama3.1-8b --knob batch --from 1 "
                                       "--to 64"), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "TTFT"));
    ck_assert_ptr_nonnull(strstr(r.out, "max batch"));
    ck_assert_ptr_nonnull(strstr(r.out, "TPOT"));
    ck_assert_ptr_nonnull(strstr(r.out, "fits at every value of batch"));
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --serve --knob zero --from 0 --to 3"), 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--knob: zero is not a serving input"));
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob prompt --from 1Ki --to 8Ki --seq 4096"), 2);
    ck_assert_ptr_nonnull(strstr(r.err, "did you mean --prompt?"));
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "sweep --knob generate --from 16 --to 1Ki --format svg"),
                     0);
    ck_assert_ptr_nonnull(strstr(r.out, "time per output token"));
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
    tcase_add_test(tc, serving_columns_equal_single_infer);
    tcase_add_test(tc, serving_command);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(sweep_suite());
}
