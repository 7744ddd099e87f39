/* test_views.c - the dashboard's sweep panel (w) and comparison (x): what they show, that
 * the mark follows the slider, that their figures are the evaluation's, and that the key
 * goes back. */
#include "check_util.h"
#include "dash_harness.h"
#include "sweep_plot.h"

#include <math.h>

#include "layout.h"
#include "units.h"

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

/* Row y of panel p as text (the harness runs in ASCII: one byte a cell), without the
 * trailing blanks. */
static void panel_row(struct harness *h, enum panel p, int y, char *buf, size_t n)
{
    struct layout L;
    dash_layout(&h->d, h->d.cols, h->d.rows, &L);
    struct rect r = L.r[p];
    size_t k = 0;
    for (int x = r.x; x < r.x + r.w && k + 1 < n; x++) {
        const struct cell *c = screen_cell(&h->s, x, y);
        buf[k++] = c != NULL && c->ch < 128 ? (char)c->ch : '?';
    }
    while (k > 0 && buf[k - 1] == ' ')
        k--;
    buf[k] = '\0';
}

/* The row of panel p that has label in it (its first), into buf; false when none. */
static bool panel_row_with(struct harness *h, enum panel p, const char *label, char *buf,
                           size_t n)
{
    for (int y = 0; y < h->s.rows; y++) {
        panel_row(h, p, y, buf, n);
        if (strstr(buf, label) != NULL)
            return true;
    }
    return false;
}

/* Moves the slider of input key with dir until the scenario's field is v. */
#define MOVE_TO(h, key, dir, field, v)                                                      \
    do {                                                                                    \
        harness_focus((h), slider_id(key));                                                 \
        for (int i_ = 0; i_ < 16 && (long long)(h)->d.sc.field != (v); i_++)                \
            harness_keys((h), (dir));                                                       \
        ck_assert_int_eq((long long)(h)->d.sc.field, (v));                                  \
    } while (0)

/* A change b - a of bytes as the panels write it: "+4.22 GB", "-24.4 GB", "=" when equal. */
static void bytes_delta(double a, double b, char *buf, size_t n)
{
    char t[32];
    units_bytes(fabs(b - a), t, sizeof t);
    if (a == b)
        snprintf(buf, n, "=");
    else
        snprintf(buf, n, "%c%s", b < a ? '-' : '+', t);
}

/* Pinned, every figure of the memory and compute panels shows its change beside it, from the
 * same two evaluations the comparison panel compares: the lecture's default against tp 8,
 * pp 4, ZeRO-1 (README's `rooftop diff default --tp 8 --pp 4 --zero 1`: total 48.1 GB ->
 * 23.7 GB, -24.4 GB; parameters 137 MB -> 4.35 GB, +4.22 GB), at 120x40 and at 80x24 (and
 * 100x30, 160x50, 200x60), nothing cut. */
START_TEST(compare_every_figure)
{
    static const int sizes[][2] = {{120, 40}, {80, 24}, {100, 30}, {160, 50}, {200, 60}};
    for (int z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++) {
        struct harness h;
        harness_start(&h, sizes[z][0], sizes[z][1], false, false);
        harness_keys(&h, "x");
        const struct memory m0 = h.d.ev.an.memory;
        const double step0 = h.d.ev.pred.step_seconds;
        MOVE_TO(&h, "tp", "<Right>", tp, 8);
        MOVE_TO(&h, "pp", "<Right>", pp, 4);
        MOVE_TO(&h, "zero", "<Left>", zero, 1);
        const struct memory *m = &h.d.ev.an.memory;
        ck_assert_msg(h.s.cut == 0, "%dx%d: %d cut", sizes[z][0], sizes[z][1], h.s.cut);
        char want[96], row[256];
        /* The total: the verdict line ends with its change. */
        bytes_delta(m0.total, m->total, want, sizeof want);
        ck_assert_str_eq(want, "-24.4 GB");
        ck_assert(panel_row_with(&h, P_MEMORY, "of 78 GB", row, sizeof row));
        ck_assert_msg(strstr(row, "  -24.4 GB") != NULL, "verdict: %s", row);
        /* Each row ends with its own change (the buffers listed at 0 B now: ZeRO-3 had some). */
        for (int i = 0; i < MEM_COUNT; i++) {
            static const char *const names[MEM_COUNT] = {"parameters", "gradients", "optimizer",
                                                         "master", "buffers", "activations"};
            if (!panel_row_with(&h, P_MEMORY, names[i], row, sizeof row)) {
                /* Only master weights, off on both sides, may give way in a short panel. */
                ck_assert_int_eq(i, MEM_MASTER);
                continue;
            }
            bytes_delta(m0.row[i].bytes, m->row[i].bytes, want, sizeof want);
            size_t rl = strlen(row), wl = strlen(want);
            ck_assert_msg(rl > wl && strcmp(row + rl - wl, want) == 0 && row[rl - wl - 1] == ' ',
                          "%s: '%s' does not end with '%s'", names[i], row, want);
        }
        ck_assert(panel_row_with(&h, P_MEMORY, "parameters", row, sizeof row));
        ck_assert_msg(strstr(row, "+4.22 GB") != NULL, "parameters: %s", row);
        if (z == 0) {
            /* 120x40: the predicted step's change on the step bar's line, the figures' in
             * the compute panel (the typed MFU keeps the days: "="). */
            char t[32], now[32];
            units_duration(fabs(h.d.ev.pred.step_seconds - step0), t, sizeof t);
            units_duration(h.d.ev.pred.step_seconds, now, sizeof now);
            snprintf(want, sizeof want, "step %s (%c%s", now,
                     h.d.ev.pred.step_seconds < step0 ? '-' : '+', t);
            ck_assert_str_eq(want, "step 6.11 s (+540 ms"); /* README's diff: 5.57 -> 6.11 s */
            ck_assert_screen_has(&h, want);
            ck_assert(panel_row_with(&h, P_COMPUTE, " time      ", row, sizeof row));
            ck_assert_msg(strstr(row, "days           =") != NULL, "time: %s", row);
        }
        harness_keys(&h, "x");
        ck_assert(!panel_row_with(&h, P_MEMORY, "  -24.4 GB", row, sizeof row));
        harness_stop(&h);
    }
}
END_TEST

static Suite *views_suite(void)
{
    Suite *s = suite_create("views");
    TCase *tc = tcase_create("views");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sweep_panel);
    tcase_add_test(tc, compare_pinned);
    tcase_add_test(tc, compare_every_figure);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(views_suite());
}
