/* check_util.h - shared helpers for the Check suites. */
#ifndef ROOFTOP_CHECK_UTIL_H
#define ROOFTOP_CHECK_UTIL_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

/* |got - want| <= rel * |want|, reported with both values. */
#define ck_assert_rel(got, want, rel)                                                        \
    do {                                                                                     \
        double g_ = (double)(got), w_ = (double)(want);                                      \
        ck_assert_msg(fabs(g_ - w_) <= (rel) * fabs(w_), "%s = %.10g, want %.10g (rel %g)", \
                      #got, g_, w_, (double)(rel));                                          \
    } while (0)

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
