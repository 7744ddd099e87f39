/* test_views.c - the dashboard's sweep panel (w) and comparison (x): what they show, that
 * the mark follows the slider, that their figures are the evaluation's, and that the key
 * goes back. */
#include "check_util.h"
#include "dash_harness.h"
#include "sweep_plot.h"

/* w on the sequence slider: the sweep in the roofline's place, a point per step, the point
 * marked is the value shown, Right moves the mark, another slider sweeps again, w goes back. */
START_TEST(sweep_panel)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_focus(&h, slider_id("seq"));
    harness_keys(&h, "w");
    ck_assert(h.d.swv.on);
    ck_assert_screen_has(&h, "Sweep of seq len: memory and step");
    ck_assert_screen_has(&h, "usable");
    ck_assert(!screen_contains(&h.s, "Roofline:"));
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(&h.d.presets, &h.d.sc, slider_id("seq"), vals, SLIDER_MAX_STEPS);
    ck_assert_int_eq(h.d.swv.sw.n, n);
    int mark = h.d.swv.mark;
    ck_assert(h.d.swv.sw.pts[mark].value == (double)h.d.sc.seq);
    /* The marked point's figures are the dashboard's own evaluation. */
    ck_assert(h.d.swv.sw.pts[mark].ev.an.memory.total == h.d.ev.an.memory.total);
    ck_assert(h.d.swv.sw.pts[mark].ev.pred.step_seconds == h.d.ev.pred.step_seconds);
    /* The default 70B at seq 2048 fits and at 4096 does not (its comment in scenario.c). */
    char line[256];
    sweep_plot_crossing(&h.d.swv.sw, line, sizeof line);
    ck_assert_str_eq(line, "stops fitting at seq = 4096: 90.7 GB > 78 GB usable");
    ck_assert_screen_has(&h, "stops fitting at seq = 4096");
    harness_keys(&h, "<Right>");
    ck_assert_int_eq(h.d.swv.mark, mark + 1);
    ck_assert(h.d.swv.sw.pts[mark + 1].value == (double)h.d.sc.seq);
    /* Another input moved: the sweep is of the new scenario (fewer GPUs, more memory). */
    double before = h.d.swv.sw.pts[0].ev.an.memory.total;
    harness_focus(&h, slider_id("zero"));
    harness_keys(&h, "<Left>");
    ck_assert(h.d.swv.sw.pts[0].ev.an.memory.total > before);
    ck_assert_int_eq(h.d.swv.slider, slider_id("seq"));
    harness_keys(&h, "w");
    ck_assert(!h.d.swv.on);
    ck_assert_screen_has(&h, "Roofline:");
    /* On a panel there is no range: a status line says so. */
    harness_focus(&h, FOCUS_MEMORY);
    harness_keys(&h, "w");
    ck_assert(!h.d.swv.on);
    ck_assert_screen_has(&h, "w: select an input first");
    harness_stop(&h);

    /* At 80x24 too. */
    harness_start(&h, 80, 24, false, false);
    harness_focus(&h, slider_id("micro_batch"));
    harness_keys(&h, "w");
    ck_assert_screen_has(&h, "Sweep of microbatch");
    /* The plot itself, not a "too small" line: its step axis and its verdict. */
    ck_assert(!screen_contains(&h.s, "too small for the sweep"));
    ck_assert_screen_has(&h, "0 s");
    sweep_plot_crossing(&h.d.swv.sw, line, sizeof line);
    line[30] = '\0'; /* the panel's width may cut the end */
    ck_assert_screen_has(&h, line);
    harness_stop(&h);
}
END_TEST

/* x pins; a change then shows the pinned and present figures and their difference, marks the
 * input that differs, and x unpins. */
START_TEST(compare_pinned)
{
    struct harness h;
    harness_start(&h, 120, 40, true, true);
    harness_keys(&h, "x");
    ck_assert(h.d.cmp.on);
    ck_assert_screen_has(&h, "Against the pinned scenario");
    ck_assert_screen_has(&h, "0 inputs differ");
    double total0 = h.d.ev.an.memory.total;
    harness_focus(&h, slider_id("seq"));
    harness_keys(&h, "<Right>");
    ck_assert_screen_has(&h, "1 input differs");
    ck_assert(compare_view_marked(&h.d.cmp, "seq"));
    ck_assert(!compare_view_marked(&h.d.cmp, "batch"));
    ck_assert_screen_has(&h, "\xE2\x89\xA0seq len"); /* ≠ before the slider's name */
    const struct diff_figure *f = diff_find(&h.d.cmp.d, "memory.total");
    ck_assert_ptr_nonnull(f);
    ck_assert(f->a == total0 && f->b == h.d.ev.an.memory.total);
    ck_assert_screen_has(&h, "48.1 GB");
    ck_assert_screen_has(&h, "90.7 GB");
    ck_assert_screen_has(&h, "+42.6 GB");
    /* The memory panel's verdict carries the change too. */
    ck_assert_screen_has(&h, "90.7 GB of 78 GB usable: over by 12.7 GB (1.2\xC3\x97)  +42.6 GB vs pinned");
    harness_keys(&h, "x");
    ck_assert(!h.d.cmp.on);
    ck_assert(!screen_contains(&h.s, "Against the pinned"));
    harness_stop(&h);

    /* At 80x24 the comparison takes the roofline's place. */
    harness_start(&h, 80, 24, false, false);
    harness_keys(&h, "x");
    harness_focus(&h, slider_id("seq"));
    harness_keys(&h, "<Right>");
    ck_assert_screen_has(&h, "Against the pinned scenario");
    ck_assert_screen_has(&h, "+42.6 GB");
    ck_assert_screen_has(&h, "*seq len");
    harness_stop(&h);
}
END_TEST

static Suite *views_suite(void)
{
    Suite *s = suite_create("views");
    TCase *tc = tcase_create("views");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sweep_panel);
    tcase_add_test(tc, compare_pinned);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(views_suite());
}
