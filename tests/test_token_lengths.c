/* test_token_lengths.c - "8k" as a token length (issue 17): read as 8000 as the grammar says
 * everywhere, and never silently: the command line warns and the slider editor's status
 * names both readings (8k = 8000; 8Ki = 8192). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "dash_harness.h"
#include "inputs.h"

START_TEST(note_names_both_readings)
{
    char note[256];
    ck_assert(inputs_reading_note(inputs_find("seq"), "8k", note, sizeof note));
    ck_assert_str_eq(note, "8k = 8000 tokens (k = 1000); 8Ki = 8192 (Ki = 1024)");
    ck_assert(inputs_reading_note(inputs_find("prompt"), "1.5K", note, sizeof note));
    ck_assert_str_eq(note, "1.5K = 1500 tokens (K = 1000); 1.5Ki = 1536 (Ki = 1024)");
    ck_assert(inputs_reading_note(inputs_find("context"), "1M", note, sizeof note));
    ck_assert_str_eq(note, "1M = 1000000 tokens (M = 1000000); 1Mi = 1048576 (Mi = 1048576)");
    ck_assert(inputs_reading_note(inputs_find("vocab"), "32k", note, sizeof note));
    /* No second reading: binary suffixes, plain digits, a mantissa whose binary reading is no
     * whole token, and inputs that are no token length (15T training tokens, 70B params). */
    static const struct {
        const char *key, *text;
    } none[] = {{"seq", "8Ki"}, {"seq", "8192"}, {"seq", "1.3k"}, {"seq", "k"},
                {"tokens", "15T"}, {"tokens", "8k"}, {"params", "70B"}, {"gpus", "8k"},
                {"batch", "4k"}};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        ck_assert_msg(!inputs_reading_note(inputs_find(none[i].key), none[i].text, note,
                                           sizeof note),
                      "%s %s: %s", none[i].key, none[i].text, note);
        ck_assert_str_eq(note, "");
    }
}
END_TEST

/* `--seq 8k` meant 8000 without a word. */
START_TEST(command_line_warns)
{
    struct check_run r;
    ck_assert_int_eq(check_run_bin(&r, "report --model llama3.1-8b --gpus 8 --seq 8k --format json"),
                     0);
    ck_assert_str_eq(r.err, "rooftop report: warning: --seq: 8k = 8000 tokens (k = 1000); 8Ki = "
                            "8192 (Ki = 1024)\n");
    ck_assert_msg(strstr(r.out, "\"seq\":\t8000") != NULL, "the value is still 8000:\n%.400s",
                  r.out);
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "report --model llama3.1-8b --gpus 8 --seq 8Ki"), 0);
    ck_assert_str_eq(r.err, "");
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "infer --prompt 2k --generate 128"), 0);
    ck_assert_str_eq(r.err, "rooftop infer: warning: --prompt: 2k = 2000 tokens (k = 1000); 2Ki "
                            "= 2048 (Ki = 1024)\n");
    check_run_free(&r);
    ck_assert_int_eq(check_run_bin(&r, "snapshot --size 80x24 --seq=4k"), 0);
    ck_assert_str_eq(r.err, "rooftop snapshot: warning: --seq: 4k = 4000 tokens (k = 1000); 4Ki "
                            "= 4096 (Ki = 1024)\n");
    check_run_free(&r);
}
END_TEST

/* "8k" typed into the sequence slider: 8000, and the status line says so. */
START_TEST(slider_editor_says_so)
{
    struct harness h;
    harness_start(&h, 120, 40, false, true);
    harness_focus(&h, slider_id("seq"));
    harness_keys(&h, "<Enter>8k<Enter>");
    ck_assert_int_eq(h.d.sc.seq, 8000);
    ck_assert(!h.d.status_error);
    ck_assert_msg(strstr(h.d.status, "8k = 8000 tokens (k = 1000); 8Ki = 8192 (Ki = 1024)"),
                  "%s", h.d.status);
    harness_keys(&h, "<Enter>8Ki<Enter>");
    ck_assert_int_eq(h.d.sc.seq, 8192);
    ck_assert_msg(strstr(h.d.status, "8Ki = ") == NULL, "%s", h.d.status);
    harness_stop(&h);
}
END_TEST

/* tests/screenshots.sh passed --seq 4k, so the plans picture showed seq 4000 where the README
 * says 4096: no token length in it is written with a decimal suffix. */
START_TEST(screenshots_script_means_4096)
{
    FILE *f = fopen("tests/screenshots.sh", "r");
    ck_assert_msg(f != NULL, "tests/screenshots.sh (tests run from the source tree)");
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        for (const char *p = line; (p = strstr(p, " --")) != NULL; p += 3) {
            char flag[32] = "", value[64] = "";
            if (sscanf(p + 3, "%31[a-z-] %63s", flag, value) != 2)
                continue;
            const struct input *in = inputs_find(flag);
            char note[256];
            if (in == NULL)
                continue;
            found += strcmp(flag, "seq") == 0;
            ck_assert_msg(!inputs_reading_note(in, value, note, sizeof note),
                          "screenshots.sh: --%s %s: %s", flag, value, note);
        }
    }
    fclose(f);
    ck_assert_int_ge(found, 1);
}
END_TEST

static Suite *token_suite(void)
{
    Suite *s = suite_create("token_lengths");
    TCase *tc = tcase_create("reading");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, note_names_both_readings);
    tcase_add_test(tc, command_line_warns);
    tcase_add_test(tc, slider_editor_says_so);
    tcase_add_test(tc, screenshots_script_means_4096);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(token_suite());
}
