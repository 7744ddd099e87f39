/* test_screenshots.c - the committed screenshots are what `make screenshots` makes today: the
 * script writes every picture into a scratch directory, and each file there must equal the
 * committed one byte for byte, with no committed picture left over. Fails when a change to
 * the drawing, the figures or the script is not followed by `make screenshots`. Run from the
 * source tree (make test does). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"

/* Whether the files a and b hold the same bytes. */
static bool same_file(const char *a, const char *b)
{
    char *x = check_read_all(a), *y = check_read_all(b);
    bool same = x != NULL && y != NULL && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* Compares every regular file of dir `from` with the file of that name in `to`; the names
 * of those that differ or are missing go into bad (one per line). Returns the count seen. */
static int compare_dir(const char *from, const char *to, char *bad, size_t n)
{
    DIR *d = opendir(from);
    ck_assert_msg(d != NULL, "cannot open %s", from);
    int seen = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0)
            continue;
        char a[1024], b[1024];
        snprintf(a, sizeof a, "%s/%s", from, e->d_name);
        snprintf(b, sizeof b, "%s/%s", to, e->d_name);
        seen++;
        if (access(b, R_OK) != 0 || !same_file(a, b)) {
            size_t l = strlen(bad);
            snprintf(bad + l, n - l, "  %s\n", e->d_name);
        }
    }
    closedir(d);
    return seen;
}

START_TEST(test_screenshots_current)
{
    char dir[] = "/tmp/rooftop-shots-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "SCREENSHOTS_OUT=%s sh tests/screenshots.sh %s >/dev/null", dir,
             check_bin());
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
    static char bad[1 << 15];
    bad[0] = '\0';
    int made = compare_dir(dir, "screenshots", bad, sizeof bad);
    ck_assert_int_gt(made, 30);
    ck_assert_msg(bad[0] == '\0', "make screenshots would change (or add) these files:\n%s", bad);
    /* A committed picture the script no longer makes is stale too. */
    compare_dir("screenshots", dir, bad, sizeof bad);
    ck_assert_msg(bad[0] == '\0', "screenshots/ holds pictures the script no longer makes:\n%s",
                  bad);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert(system(cmd) == 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("screenshots");
    TCase *tc = tcase_create("current");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_screenshots_current);
    suite_add_tcase(s, tc);
    return check_run_suite(s);
}
