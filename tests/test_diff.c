/* test_diff.c - rooftop diff against two reports: every figure's a and b are the two
 * reports' figures at that key, delta their difference; the inputs that differ and only
 * those; the flags form equals the two-file form. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "diff.h"
#include "report.h"

static bool near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert(fputs(text, f) >= 0);
    ck_assert_int_eq(fclose(f), 0);
}

static cJSON *run_json(const char *args)
{
    struct check_run r;
    ck_assert_msg(check_run_bin(&r, args) == 0, "%s: %s", args, r.err);
    cJSON *j = cJSON_Parse(r.out);
    ck_assert_msg(j != NULL, "%s: not JSON", args);
    check_run_free(&r);
    return j;
}

/* Two layouts of Llama 3.1 8B on 8 H100: tp 1 against tp 2 with sequence parallelism. */
START_TEST(diff_against_two_reports)
{
    char dir[128], a[192], b[192], cmd[800];
    check_tmpdir(dir, sizeof dir, "diff");
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    write_file(a, "{\"model\": \"llama3.1-8b\", \"gpus\": 8, \"batch\": 64, \"seq\": 8192, "
                  "\"zero\": 1, \"mfu\": \"predicted\", \"price\": 2.49}\n");
    write_file(b, "{\"model\": \"llama3.1-8b\", \"gpus\": 8, \"batch\": 64, \"seq\": 8192, "
                  "\"zero\": 1, \"mfu\": \"predicted\", \"price\": 2.49, \"tp\": 2, "
                  "\"sp\": true}\n");
    snprintf(cmd, sizeof cmd, "diff '%s' '%s' --format json", a, b);
    cJSON *d = run_json(cmd);
    snprintf(cmd, sizeof cmd, "report --scenario '%s' --format json", a);
    cJSON *ra = run_json(cmd);
    snprintf(cmd, sizeof cmd, "report --scenario '%s' --format json", b);
    cJSON *rb = run_json(cmd);

    /* The inputs that differ: tp and sp, nothing else. */
    const cJSON *ins = cJSON_GetObjectItem(d, "inputs");
    ck_assert_int_eq(cJSON_GetArraySize(ins), 2);
    ck_assert_str_eq(report_json_at(cJSON_GetArrayItem(ins, 0), "key")->valuestring, "tp");
    ck_assert_str_eq(report_json_at(cJSON_GetArrayItem(ins, 0), "a")->valuestring, "1");
    ck_assert_str_eq(report_json_at(cJSON_GetArrayItem(ins, 0), "b")->valuestring, "2");
    ck_assert_str_eq(report_json_at(cJSON_GetArrayItem(ins, 1), "key")->valuestring, "sp");

    /* Every figure: a and b are the reports', delta b - a. */
    const cJSON *figs = cJSON_GetObjectItem(d, "figures");
    int n = 0, moved = 0;
    for (const cJSON *f = figs->child; f != NULL; f = f->next, n++) {
        const char *key = report_json_at(f, "key")->valuestring;
        const cJSON *fa = report_json_at(ra, key), *fb = report_json_at(rb, key);
        const cJSON *ga = report_json_at(f, "a"), *gb = report_json_at(f, "b");
        const cJSON *dl = report_json_at(f, "delta");
        ck_assert_msg(fa != NULL && fb != NULL, "%s not in the reports", key);
        if (cJSON_IsNumber(fa)) {
            /* cJSON prints 15 digits where they read back within its epsilon: exact to
             * 1e-14 relative. */
            const double tol = 1e-14;
            ck_assert_msg(cJSON_IsNumber(ga) && near(ga->valuedouble, fa->valuedouble, tol),
                          "%s a", key);
            ck_assert_msg(cJSON_IsNumber(gb) && near(gb->valuedouble, fb->valuedouble, tol),
                          "%s b", key);
            double want = fb->valuedouble - fa->valuedouble;
            ck_assert_msg(cJSON_IsNumber(dl) &&
                              fabs(dl->valuedouble - want) <=
                                  tol * fmax(fabs(fa->valuedouble), fabs(fb->valuedouble)),
                          "%s delta %.17g, want %.17g", key, dl->valuedouble, want);
            moved += fa->valuedouble != fb->valuedouble;
        } else if (cJSON_IsBool(fa)) {
            ck_assert_msg(cJSON_IsBool(ga) && cJSON_IsTrue(ga) == cJSON_IsTrue(fa), "%s a", key);
            ck_assert(cJSON_IsNull(dl));
        } else {
            ck_assert_msg(cJSON_IsNull(fa) && cJSON_IsNull(ga), "%s", key);
        }
    }
    ck_assert_int_gt(n, 80);
    ck_assert_int_gt(moved, 10);
    /* The figures the issue names are there. */
    const char *named[] = {"memory.total", "memory.activations", "time.predicted.step_seconds",
                           "time.days", "cost.usd", "cost.energy_kwh"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        bool found = false;
        for (const cJSON *f = figs->child; f != NULL && !found; f = f->next)
            found = strcmp(report_json_at(f, "key")->valuestring, named[i]) == 0;
        ck_assert_msg(found, "%s missing", named[i]);
    }
    /* B as A with flags is the same comparison. */
    snprintf(cmd, sizeof cmd, "diff '%s' --tp 2 --sp on --format json", a);
    cJSON *d2 = run_json(cmd);
    ck_assert(cJSON_Compare(report_json_at(d, "figures"), report_json_at(d2, "figures"), true));
    ck_assert(cJSON_Compare(report_json_at(d, "inputs"), report_json_at(d2, "inputs"), true));
    cJSON_Delete(d2);
    cJSON_Delete(d);
    cJSON_Delete(ra);
    cJSON_Delete(rb);

    /* Text, Markdown and CSV. */
    struct check_run r;
    snprintf(cmd, sizeof cmd, "diff '%s' '%s'", a, b);
    ck_assert_int_eq(check_run_bin(&r, cmd), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Inputs that differ\n  tp "));
    ck_assert_ptr_nonnull(strstr(r.out, "\n  memory.total "));
    check_run_free(&r);
    snprintf(cmd, sizeof cmd, "diff '%s' '%s' --format csv", a, b);
    ck_assert_int_eq(check_run_bin(&r, cmd), 0);
    const char *head = "kind,key,a,b,delta\ninput,tp,\"1\",\"2\",\n";
    ck_assert_msg(strncmp(r.out, head, strlen(head)) == 0, "%.200s", r.out);
    check_run_free(&r);
    snprintf(cmd, sizeof cmd, "diff '%s' '%s' --format md", a, b);
    ck_assert_int_eq(check_run_bin(&r, cmd), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "| tp | 1 | 2 |"));
    check_run_free(&r);
    /* Bad usage: one line, status 2. */
    ck_assert_int_eq(check_run_bin(&r, "diff"), 2);
    ck_assert_str_eq(r.err, "rooftop diff: needs A.json, then B.json or options for B (rooftop "
                            "diff --help)\n");
    check_run_free(&r);
    snprintf(cmd, sizeof cmd, "diff '%s' --tp 3", a);
    ck_assert_int_eq(check_run_bin(&r, cmd), 2);
    ck_assert_msg(strncmp(r.err, "rooftop diff: B: --tp: 3 ", 25) == 0, "%s", r.err);
    check_run_free(&r);
    check_rmtree(dir);
}
END_TEST

static Suite *diff_suite(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("diff");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, diff_against_two_reports);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(diff_suite());
}
