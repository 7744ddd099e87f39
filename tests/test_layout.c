/* test_layout.c - panel placement for every terminal size from 80x24 to 300x100: inside the
 * screen, never overlapping, nothing cut mid-number; and the message below the minimum. */
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "dash_harness.h"
#include "lecture_view.h"
#include "layout.h"
#include "units.h"


static void check_layout(int cols, int rows, const struct layout_opts *o)
{
    struct layout L;
    layout_compute(cols, rows, o, &L);
    REQUIRE(!L.too_small, "%dx%d called too small", cols, rows);
    struct rect all[P_COUNT + 4];
    int n = 0;
    for (int p = 0; p < P_COUNT; p++) {
        REQUIRE(rect_inside(L.r[p], cols, rows), "%dx%d: %s at %d,%d %dx%d is off screen",
                      cols, rows, layout_panel_name((enum panel)p), L.r[p].x, L.r[p].y, L.r[p].w,
                      L.r[p].h);
        all[n++] = L.r[p];
    }
    for (int i = 0; i < L.n_vrules; i++) {
        REQUIRE(rect_inside(L.vrule[i], cols, rows), "%dx%d: rule %d off screen", cols, rows, i);
        all[n++] = L.vrule[i];
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            REQUIRE(!rect_overlap(all[i], all[j]), "%dx%d: rects %d and %d overlap", cols,
                          rows, i, j);
    /* What must always be there, and big enough to be read. */
    static const enum panel needed[] = {P_TITLE, P_SLIDERS, P_MEMORY, P_COMPUTE, P_EXPLAIN, P_STATUS};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        REQUIRE(!rect_empty(L.r[needed[i]]), "%dx%d: no %s", cols, rows,
                      layout_panel_name(needed[i]));
    REQUIRE(L.r[P_MEMORY].h >= LAYOUT_MEMORY_MIN_ROWS && L.r[P_MEMORY].w >= 44,
            "%dx%d: memory %dx%d", cols, rows, L.r[P_MEMORY].w, L.r[P_MEMORY].h);
    REQUIRE(L.r[P_SLIDERS].w >= 34, "%dx%d: sliders %d wide", cols, rows, L.r[P_SLIDERS].w);
    REQUIRE(L.r[P_COMPUTE].h >= 3, "%dx%d: compute %d rows", cols, rows, L.r[P_COMPUTE].h);
    bool roof = !rect_empty(L.r[P_ROOFLINE]), ops = !rect_empty(L.r[P_OPS]);
    if (L.shared)
        REQUIRE(roof != ops, "%dx%d: shared slot shows %d panels", cols, rows, roof + ops);
    else
        REQUIRE(roof && ops, "%dx%d: roofline %d ops %d", cols, rows, roof, ops);
    if (roof)
        REQUIRE(L.r[P_ROOFLINE].h >= 9 && L.r[P_ROOFLINE].w >= 40, "%dx%d: roofline %dx%d",
                      cols, rows, L.r[P_ROOFLINE].w, L.r[P_ROOFLINE].h);
    REQUIRE(!rect_empty(L.r[P_CAPTION]) == (o->caption_rows > 0), "%dx%d: caption", cols, rows);
    /* The body fills the screen: nothing between the last panel and the bottom lines. */
    REQUIRE(L.r[P_STATUS].y == rows - 1 && L.r[P_EXPLAIN].y == rows - 2,
            "%dx%d: bottom lines misplaced", cols, rows);
}

START_TEST(test_every_size)
{
    for (int cols = 80; cols <= 300; cols++)
        for (int rows = 24; rows <= 100; rows++)
            for (int caption = 0; caption <= 3; caption += 3)
                for (int ops = 0; ops <= 1; ops++) {
                    struct layout_opts o = {.caption_rows = caption, .show_ops = ops,
                                            .n_sliders = 19, .n_ops = 14};
                    check_layout(cols, rows, &o);
                }
}
END_TEST

START_TEST(test_below_minimum)
{
    static const int sizes[][2] = {{79, 24}, {80, 23}, {1, 1}, {500, 10}, {10, 500}, {0, 0}};
    struct layout_opts o = {0};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct layout L;
        layout_compute(sizes[i][0], sizes[i][1], &o, &L);
        ck_assert(L.too_small);
        for (int p = 0; p < P_COUNT; p++)
            ck_assert(rect_empty(L.r[p]));
    }
    struct harness h;
    harness_start(&h, 79, 24, true, true);
    harness_draw(&h);
    ck_assert_screen_has(&h, "rooftop needs at least 80x24 (this terminal is 79x24)");
    harness_keys(&h, "<Resize 30x5>");
    ck_assert_screen_has(&h, "needs at least");
    harness_keys(&h, "<Resize 1x1>");
    ck_assert_int_eq(h.s.cols * h.s.rows, 1);
    harness_stop(&h);
}
END_TEST

/* Every slider's value on screen whole where its row is shown, and no text cut. */
static void check_frame(struct harness *h, const char *what)
{
    harness_draw(h);
    if (h->s.cut != 0)
        harness_dump(h);
    REQUIRE(h->s.cut == 0, "%s at %dx%d: %d texts cut", what, h->d.cols, h->d.rows, h->s.cut);
    struct layout L;
    dash_layout(&h->d, h->d.cols, h->d.rows, &L);
    /* The sliders shown: all of them, or those a lecture step lists. */
    struct slider_geom g;
    int ids[SLIDER_MAX], pos;
    lecture_view_slider_geom(&h->d, L.r[P_SLIDERS], &g, ids, &pos);
    for (int i = 0; i < g.count; i++) {
        char v[64], row[1024];
        slider_format(&h->d.presets, &h->d.sc, ids[g.first + i], v, sizeof v);
        screen_row_text(&h->s, g.y0 + i, row, sizeof row);
        REQUIRE(strstr(row, v) != NULL, "%s at %dx%d: slider row '%s' lacks '%s'", what,
                      h->d.cols, h->d.rows, row, v);
    }
    char days[32];
    units_duration(h->d.ev.an.time.seconds, days, sizeof days);
    /* The training time, wherever the screen shows the compute panel. */
    REQUIRE(!lecture_view_shows(&h->d, "compute") || screen_contains(&h->s, days),
            "%s at %dx%d: no '%s'", what, h->d.cols, h->d.rows, days);
}

START_TEST(test_frames_not_cut)
{
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    for (int cols = 80; cols <= 300; cols += 11)
        for (int rows = 24; rows <= 100; rows += 7) {
            char keys[64];
            snprintf(keys, sizeof keys, "<Resize %dx%d>", cols, rows);
            harness_keys(&h, keys);
            check_frame(&h, "default");
        }
    static const int sizes[][2] = {{80, 24}, {300, 100}, {120, 40}, {200, 60}, {81, 25}, {160, 48}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char keys[64];
        snprintf(keys, sizeof keys, "<Resize %dx%d>", sizes[i][0], sizes[i][1]);
        harness_keys(&h, keys);
        check_frame(&h, "default");
        /* Each lecture step, and the ops table in the shared slot. */
        harness_keys(&h, "n");
        ck_assert_int_gt(h.d.demo.n, 0);
        for (int k = 0; k < h.d.demo.n; k++) {
            dash_demo_show(&h.d, k);
            check_frame(&h, "lecture step");
        }
        harness_keys(&h, "rt");
        check_frame(&h, "ops view");
        /* A model far too big, with every figure large. */
        harness_keys(&h, "m<End><Enter>");
        check_frame(&h, "largest preset");
        harness_keys(&h, "rt");
    }
    harness_stop(&h);
}
END_TEST

/* Every number in text written as 6.85e23, never 685.4e21: one digit before the point. */
static void check_one_notation(const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p != 'e' || p == text || !(p[-1] >= '0' && p[-1] <= '9') ||
            !((p[1] >= '0' && p[1] <= '9') || p[1] == '-'))
            continue;
        const char *q = p;
        while (q > text && ((q[-1] >= '0' && q[-1] <= '9') || q[-1] == '.'))
            q--;
        const char *dot = memchr(q, '.', (size_t)(p - q));
        size_t whole = (size_t)((dot ? dot : p) - q);
        ck_assert_msg(whole == 1, "'%.*s' in '%s': not the panels' notation", (int)(p - q + 3), q,
                      text);
    }
}

/* Issue 17 at 80x24: the layouts list's memory column whole, the GPU count in the header,
 * no scroll mark against a slider's name ("vflash"), the formula line in the panels'
 * notation ("685.4e21 FLOPs" beside "6.85e23"). */
START_TEST(test_80x24_whole)
{
    struct harness h;
    harness_start(&h, 80, 24, true, true);
    harness_keys(&h, "<Enter><C-u>llama3.1-70b<Enter>");
    harness_focus(&h, slider_id("tokens"));
    harness_keys(&h, "<Enter>1.63T<Enter>");
    harness_focus(&h, slider_id("seq"));
    harness_keys(&h, "<Enter>8192<Enter>");
    harness_focus(&h, slider_id("gpus"));
    harness_keys(&h, "<Enter>64<Enter>");
    ck_assert_int_eq(h.d.sc.gpus, 64);
    char row[1024];
    screen_row_text(&h.s, 0, row, sizeof row);
    ck_assert_msg(strstr(row, "64 × h100-sxm") != NULL, "header: %s", row);
    ck_assert_int_eq(h.s.cut, 0);
    /* The sliders' margin column holds no mark. */
    struct layout L;
    dash_layout(&h.d, 80, 24, &L);
    struct slider_geom g;
    layout_sliders(L.r[P_SLIDERS], h.d.focus, slider_count(), &g);
    ck_assert(g.first + g.count < slider_count());
    for (int i = 0; i < slider_count(); i++)
        ck_assert_msg(screen_width(slider_input(i)->label) <= LAYOUT_NAME_W,
                      "slider name '%s' is cut", slider_input(i)->label);
    for (int i = 0; i < g.count; i++)
        ck_assert_msg(screen_cell(&h.s, L.r[P_SLIDERS].x, g.y0 + i)->ch == ' ',
                      "a mark beside slider row %d", i);
    /* The formula lines of the size, the tokens and the time. */
    const int focus[] = {slider_id("params"), slider_id("tokens"), slider_id("gpus"), slider_id("mfu")};
    for (size_t i = 0; i < sizeof focus / sizeof focus[0]; i++) {
        h.d.focus = focus[i];
        harness_draw(&h);
        screen_row_text(&h.s, 22, row, sizeof row);
        check_one_notation(row);
    }
    harness_keys(&h, "b");
    ck_assert_int_eq(h.d.mode, DM_PLANS);
    ck_assert_int_gt(h.d.n_plans, 0);
    char mem[32];
    units_bytes(h.d.plans[0].memory_total, mem, sizeof mem);
    ck_assert_screen_has(&h, mem);
    ck_assert_screen_has(&h, "memory");
    ck_assert_int_eq(h.s.cut, 0);
    /* The lecture's operations (the plot's title was cut) and the GPU picker (a name was). */
    harness_keys(&h, "<Esc>L");
    ck_assert(h.d.lecture_ops);
    ck_assert_int_eq(h.s.cut, 0);
    harness_keys(&h, "Lg");
    ck_assert_int_eq(h.d.mode, DM_PICK_GPU);
    ck_assert_int_eq(h.s.cut, 0);
    harness_stop(&h);
}
END_TEST

static Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("layout");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_size);
    tcase_add_test(tc, test_below_minimum);
    tcase_add_test(tc, test_frames_not_cut);
    tcase_add_test(tc, test_80x24_whole);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(layout_suite());
}
