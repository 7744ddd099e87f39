/* check_util.h - shared helpers for the Check suites. */
#ifndef ROOFTOP_CHECK_UTIL_H
#define ROOFTOP_CHECK_UTIL_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* |got - want| <= rel * |want|, reported with both values. */
#define ck_assert_rel(got, want, rel)                                                        \
    do {                                                                                     \
        double g_ = (double)(got), w_ = (double)(want);                                      \
        ck_assert_msg(fabs(g_ - w_) <= (rel) * fabs(w_), "%s = %.10g, want %.10g (rel %g)", \
                      #got, g_, w_, (double)(rel));                                          \
    } while (0)

/* Makes a fresh directory /tmp/rooftop-test-TAG-XXXXXX into dir (n bytes). */
static inline void check_tmpdir(char *dir, size_t n, const char *tag)
{
    snprintf(dir, n, "/tmp/rooftop-test-%s-XXXXXX", tag);
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s failed", dir);
}

/* Removes a directory made by check_tmpdir, and all in it. */
static inline void check_rmtree(const char *dir)
{
    char cmd[4200];
    ck_assert(strlen(dir) < 4096 && strchr(dir, '\'') == NULL);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Runs one suite; returns the process exit status. */
static inline int check_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
