/* test_plot.c - the roofline plot's labels: never over or against each other, the marks or
 * the axes, never outside the plot, each ceiling's label near its own line with its rate,
 * every ceiling, the ridge and every group of operations labelled where there is room; for
 * every GPU preset, dtype, the model's or the lecture's operations, with and without
 * measured points, at terminal sizes from 80x24 to 300x100. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_util.h"
#include "dash_harness.h"
#include "layout.h"
#include "plot.h"
#include "units.h"

/* Check records every passing assertion; these loops make millions, so only a failure goes
 * through Check. */
#define PLOT_REQUIRE(cond, ...)                                                               \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            harness_dump(h);                                                                  \
            ck_abort_msg(__VA_ARGS__);                                                        \
        }                                                                                     \
    } while (0)

/* The plot area below which not everything is expected to find room: 9 rows for up to 7
 * decades of FLOP/s and 44 columns for the ceilings' labels side by side. Every frame of
 * every size is still checked for overlaps and bounds. */
#define ROOM_ROWS 9
#define ROOM_COLS 44

struct tally {
    int plots, roomy;
};

static bool same_cells(const struct screen *a, const struct screen *b, struct rect r)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            const struct cell *p = screen_cell(a, x, y), *q = screen_cell(b, x, y);
            if (!p || !q || p->ch != q->ch || p->elem != q->elem)
                return false;
        }
    return true;
}

/* A word of letters only that reads nan or inf, in any case. */
static bool has_nan_word(const char *row)
{
    for (const char *p = row; *p; p++) {
        if (p != row && ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'))
            continue;
        if ((strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "inf", 3) == 0) &&
            !(((p[3] | 32) >= 'a' && (p[3] | 32) <= 'z')))
            return true;
    }
    return false;
}

static void check_plot(struct harness *h, const char *what, struct tally *t)
{
    harness_draw(h);
    struct layout L;
    dash_layout(&h->d, h->d.cols, h->d.rows, &L);
    struct rect r = L.r[P_ROOFLINE];
    if (rect_empty(r))
        return;
    /* The same drawing on its own, with what went where. */
    struct screen s2 = {0};
    ck_assert(screen_resize(&s2, h->d.cols, h->d.rows));
    s2.ellipsis = h->s.ellipsis;
    struct plot_info info;
    plot_draw(&h->d, &s2, r, h->d.focus == FOCUS_ROOFLINE, &info);
    int cols = h->d.cols, rows = h->d.rows;
    PLOT_REQUIRE(same_cells(&h->s, &s2, r), "%s %dx%d: the frame's roofline differs from plot_draw's",
            what, cols, rows);
    screen_free(&s2);
    PLOT_REQUIRE(info.drawn, "%s %dx%d: no plot in %dx%d", what, cols, rows, r.w, r.h);
    t->plots++;
    struct rect a = info.area;
    PLOT_REQUIRE(a.x > r.x && a.y > r.y && a.x + a.w <= r.x + r.w && a.y + a.h < r.y + r.h,
            "%s %dx%d: plot area outside its panel", what, cols, rows);
    const struct charset *cs = &h->d.cs;
    const struct screen *s = &h->s;

    /* Every label inside the plot, whole and as placed: nothing drew over it afterwards. */
    for (int i = 0; i < info.n_labels; i++) {
        const struct plot_label *l = &info.labels[i];
        PLOT_REQUIRE(l->y >= a.y && l->y < a.y + a.h && l->x >= a.x && l->x + l->w <= a.x + a.w,
                "%s %dx%d: label '%s' at %d,%d outside the plot", what, cols, rows, l->text, l->x,
                l->y);
        PLOT_REQUIRE((int)strlen(l->text) == l->w && l->w > 0, "%s: label '%s' width %d", what,
                l->text, l->w);
        for (int k = 0; k < l->w; k++)
            PLOT_REQUIRE(screen_cell(s, l->x + k, l->y)->ch == (uint32_t)(unsigned char)l->text[k],
                    "%s %dx%d: label '%s' at %d,%d overwritten", what, cols, rows, l->text,
                    l->x, l->y);
        /* No two labels on one row touch or overlap: a blank between them at least. */
        for (int j = 0; j < i; j++) {
            const struct plot_label *m = &info.labels[j];
            PLOT_REQUIRE(m->y != l->y || m->x + m->w < l->x || l->x + l->w < m->x,
                    "%s %dx%d: labels '%s' and '%s' touch on row %d", what, cols, rows, l->text,
                    m->text, l->y);
        }
        for (int j = 0; j < info.n_marks; j++) {
            const struct plot_mark *m = &info.marks[j];
            PLOT_REQUIRE(m->y != l->y || m->x < l->x - 1 || m->x > l->x + l->w,
                    "%s %dx%d: label '%s' against a mark at %d,%d", what, cols, rows, l->text,
                    m->x, m->y);
        }
    }
    for (int j = 0; j < info.n_marks; j++) {
        const struct plot_mark *m = &info.marks[j];
        PLOT_REQUIRE(m->x >= a.x && m->x < a.x + a.w && m->y >= a.y && m->y < a.y + a.h,
                "%s %dx%d: mark outside the plot", what, cols, rows);
        PLOT_REQUIRE(screen_cell(s, m->x, m->y)->ch == m->ch, "%s %dx%d: mark at %d,%d overwritten",
                what, cols, rows, m->x, m->y);
        PLOT_REQUIRE((m->n_ops > 1) == (m->ch == cs->group), "%s: a group's mark", what);
    }
    /* The axes whole. */
    for (int y = a.y; y < a.y + a.h; y++) {
        uint32_t c = screen_cell(s, a.x - 1, y)->ch;
        PLOT_REQUIRE(c == cs->axis_v || c == cs->tick, "%s %dx%d: y axis broken at row %d", what,
                cols, rows, y);
    }
    for (int x = a.x; x < a.x + a.w; x++) {
        uint32_t c = screen_cell(s, x, a.y + a.h)->ch;
        PLOT_REQUIRE(c == cs->axis_h || c == cs->tick, "%s %dx%d: x axis broken at column %d", what,
                cols, rows, x);
    }
    /* No NaN or infinity anywhere in the panel. */
    for (int y = r.y; y < r.y + r.h; y++) {
        char row[4096];
        screen_row_text(s, y, row, sizeof row);
        PLOT_REQUIRE(!has_nan_word(row), "%s %dx%d: NaN on row %d: %s", what, cols, rows, y, row);
    }
    /* Each ceiling's label: its rate, its colour, and its own line the nearest. */
    for (int c = 0; c < info.ceilings; c++) {
        const struct plot_ceiling *ce = &info.ceiling[c];
        if (ce->label < 0)
            continue;
        const struct plot_label *l = &info.labels[ce->label];
        char rate[32];
        units_flops_rate(ce->peak, rate, sizeof rate);
        char num[32];
        snprintf(num, sizeof num, " %.*s", (int)strcspn(rate, " "), rate);
        PLOT_REQUIRE(l->kind == PL_CEILING && strstr(l->text, num),
                "%s %dx%d: ceiling %s labelled '%s'", what, cols, rows, rate, l->text);
        PLOT_REQUIRE(abs(l->y - ce->row) <= 2, "%s %dx%d: '%s' on row %d, its line on row %d", what,
                cols, rows, l->text, l->y, ce->row);
        PLOT_REQUIRE(screen_cell(s, l->x, l->y)->elem == (ce->roof ? E_ROOF : E_CEILING),
                "%s %dx%d: '%s' in the wrong colour", what, cols, rows, l->text);
        for (int o = 0; o < info.ceilings; o++)
            PLOT_REQUIRE(o == c || info.ceiling[o].row == ce->row ||
                        abs(info.ceiling[o].row - l->y) >= abs(ce->row - l->y),
                    "%s %dx%d: '%s' nearer another ceiling's row", what, cols, rows, l->text);
        /* Labels stack in their lines' order: a higher ceiling's label is never below. */
        for (int o = 0; o < info.ceilings; o++) {
            const struct plot_ceiling *co = &info.ceiling[o];
            if (co->label < 0 || co->peak <= ce->peak)
                continue;
            PLOT_REQUIRE(info.labels[co->label].y <= l->y, "%s %dx%d: '%s' below '%s'", what, cols,
                    rows, info.labels[co->label].text, l->text);
        }
    }
    PLOT_REQUIRE(info.ops_marked == info.ops, "%s %dx%d: %d of %d operations marked", what, cols,
            rows, info.ops_marked, info.ops);
    if (a.h < ROOM_ROWS || a.w < ROOM_COLS)
        return;
    t->roomy++;
    PLOT_REQUIRE(info.ceilings_labelled == info.ceilings, "%s %dx%d: %d of %d ceilings labelled",
            what, cols, rows, info.ceilings_labelled, info.ceilings);
    PLOT_REQUIRE(info.ridge_labelled == info.ridge_shown, "%s %dx%d: ridge not labelled", what,
            cols, rows);
    PLOT_REQUIRE(info.groups_labelled == info.groups, "%s %dx%d: %d of %d groups' letters", what,
            cols, rows, info.groups_labelled, info.groups);
    bool bw = false;
    for (int i = 0; i < info.n_labels; i++)
        bw = bw || info.labels[i].kind == PL_BANDWIDTH;
    PLOT_REQUIRE(bw, "%s %dx%d: no bandwidth on the slope", what, cols, rows);
}

/* Points like a GPU probe's: a sweep along 70% of the roof, dense around the ridge. */
static void synthetic_points(struct harness *h)
{
    struct points_doc doc;
    points_init(&doc);
    double peak = h->d.ev.an.roofline.peak, bw = h->d.ev.an.roofline.bandwidth;
    for (int k = 0; k <= 60; k++) {
        struct probe_point p;
        memset(&p, 0, sizeof p);
        double I = pow(10, -1.5 + k * 0.1);
        snprintf(p.name, sizeof p.name, "sweep.bf16.%d", k);
        p.dtype = DTYPE_BF16;
        p.bytes = 1e9;
        p.flops = I * p.bytes;
        p.seconds = p.flops / (0.7 * (bw * I < peak ? bw * I : peak));
        p.valid = true;
        points_derive(&p);
        ck_assert(points_add(&doc, &p));
    }
    dash_set_points(&h->d, &doc, "synthetic");
}

static void resize(struct harness *h, int cols, int rows)
{
    char keys[64];
    snprintf(keys, sizeof keys, "<Resize %dx%d>", cols, rows);
    harness_keys(h, keys);
}

static void sweep_sizes(struct harness *h, const char *what, struct tally *t, int step)
{
    for (int cols = 80; cols <= 300; cols += 22 * step)
        for (int rows = 24; rows <= 100; rows += 11 * step) {
            resize(h, cols, rows);
            check_plot(h, what, t);
        }
    static const int sizes[][2] = {{80, 24}, {300, 100}, {120, 40}, {160, 50}, {200, 60}, {81, 25}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        resize(h, sizes[i][0], sizes[i][1]);
        check_plot(h, what, t);
    }
}

START_TEST(test_every_gpu_and_dtype)
{
    static const enum dtype dts[] = {DTYPE_FP32, DTYPE_TF32, DTYPE_BF16, DTYPE_FP16,
                                     DTYPE_FP8_E4M3, DTYPE_FP4};
    struct harness hh, *h = &hh;
    harness_start(h, 120, 40, _i == 0, _i == 0);
    ck_assert_int_gt(h->d.presets.n_gpus, 5);
    struct tally t = {0, 0};
    for (int g = 0; g < h->d.presets.n_gpus; g++)
        for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
            struct scenario sc = h->d.sc;
            sc.gpu = h->d.presets.gpus[g];
            sc.dtype = dts[k];
            if (!dash_try(&h->d, &sc, -1))
                continue;
            for (int lec = 0; lec <= 1; lec++) {
                h->d.lecture_ops = lec;
                h->d.have_points = false;
                char what[160];
                snprintf(what, sizeof what, "%s %s%s", sc.gpu.id, dtype_name(sc.dtype),
                         lec ? " lecture ops" : "");
                /* Every size for the common case, every other for the rest. */
                sweep_sizes(h, what, &t, g % 3 == 0 && !lec ? 1 : 2);
                if (k == 2) {
                    synthetic_points(h);
                    strncat(what, " with points", sizeof what - strlen(what) - 1);
                    sweep_sizes(h, what, &t, 2);
                }
            }
        }
    /* The thresholds must leave real work: most plots have room. */
    ck_assert_int_gt(t.plots, 1000);
    ck_assert_int_gt(t.roomy, t.plots / 2);
    harness_stop(h);
}
END_TEST

START_TEST(test_models_and_measured_file)
{
    struct harness hh, *h = &hh;
    harness_start(h, 120, 40, true, true);
    struct tally t = {0, 0};
    struct points_doc doc;
    char err[512], path[1024];
    const char *specs = getenv("ROOFTOP_SPECS");
    snprintf(path, sizeof path, "%s/points/cpu-amd-epyc-2vcpu.json", specs ? specs : "specs");
    points_init(&doc);
    ck_assert_msg(points_load_file(path, &doc, err, sizeof err), "%s", err);
    dash_set_points(&h->d, &doc, "file");
    for (int m = 0; m < h->d.presets.n_models; m += 2) {
        struct scenario sc = h->d.sc;
        sc.model = h->d.presets.models[m].arch;
        if (!dash_try(&h->d, &sc, -1))
            continue;
        for (int pts = 0; pts <= 1; pts++) {
            h->d.have_points = pts;
            char what[160];
            snprintf(what, sizeof what, "model %d%s", m, pts ? " with the CPU's points" : "");
            sweep_sizes(h, what, &t, 2);
        }
    }
    ck_assert_int_gt(t.roomy, 50);
    harness_stop(h);
}
END_TEST

/* Every measured point inside the axes: the CPU probe's (1 to 220 GFLOP/s, far under the
 * H100's ceilings) were in the legend but off the plot (issue 17). */
START_TEST(test_axes_hold_every_point)
{
    static const int dims[][2] = {{80, 24}, {100, 30}, {120, 40}, {160, 50}, {200, 60}};
    const char *specs = getenv("ROOFTOP_SPECS");
    char err[512], path[1024];
    snprintf(path, sizeof path, "%s/points/cpu-amd-epyc-2vcpu.json", specs ? specs : "specs");
    for (size_t z = 0; z < sizeof dims / sizeof dims[0]; z++) {
        struct harness hh, *h = &hh;
        harness_start(h, dims[z][0], dims[z][1], true, true);
        struct points_doc doc;
        points_init(&doc);
        ck_assert_msg(points_load_file(path, &doc, err, sizeof err), "%s", err);
        dash_set_points(&h->d, &doc, "file");
        harness_draw(h);
        struct layout L;
        dash_layout(&h->d, dims[z][0], dims[z][1], &L);
        struct plot_info info;
        plot_draw(&h->d, &h->s, L.r[P_ROOFLINE], false, &info);
        ck_assert(info.drawn);
        int plotted = 0;
        for (size_t i = 0; i < h->d.points.n; i++)
            plotted += h->d.points.points[i].valid && h->d.points.points[i].intensity > 0 &&
                       h->d.points.points[i].flops_per_s > 0;
        ck_assert_int_ge(plotted, 30);
        ck_assert_int_eq(info.points, plotted);
        ck_assert_msg(info.points_inside == plotted, "%dx%d: %d of %d points inside the axes",
                      dims[z][0], dims[z][1], info.points_inside, plotted);
        harness_stop(h);
    }
}
END_TEST

/* The lecture's H100 at a projector's size: the datasheet's figures (reference.md: bf16
 * 989 TFLOP/s dense, fp16 the same, fp8 1979, tf32 495, fp32 67, 3.35 TB/s; ridge 989.4 /
 * 3.35 = 295 FLOP/byte), each once, in the plot. */
START_TEST(test_h100_labels)
{
    struct harness hh, *h = &hh;
    harness_start(h, 160, 50, true, true);
    struct layout L;
    dash_layout(&h->d, 160, 50, &L);
    struct plot_info info;
    plot_draw(&h->d, &h->s, L.r[P_ROOFLINE], false, &info);
    /* In full, or short where the full one does not fit. */
    static const char *const want[][2] = {{"bf16/fp16 989 TFLOP/s", "bf16/fp16 989T"},
                                          {"fp8 1.98 PFLOP/s", "fp8 1.98P"},
                                          {"tf32 495 TFLOP/s", "tf32 495T"},
                                          {"fp32 67 TFLOP/s", "fp32 67T"},
                                          {"3.35 TB/s", "3.35 TB/s"},
                                          {"ridge 295 FLOP/B", "ridge 295"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int found = 0;
        for (int k = 0; k < info.n_labels; k++)
            found += strcmp(info.labels[k].text, want[i][0]) == 0 ||
                     strcmp(info.labels[k].text, want[i][1]) == 0;
        if (found != 1)
            harness_dump(h);
        ck_assert_msg(found == 1, "'%s' labelled %d times", want[i][0], found);
    }
    ck_assert_int_eq(info.ceilings, 4);
    ck_assert_int_eq(info.ceilings_labelled, 4);
    /* The roof is bf16's, highlighted; the others are not. */
    for (int c = 0; c < info.ceilings; c++)
        ck_assert(info.ceiling[c].roof == (info.ceiling[c].peak == h->d.sc.gpu.peak_flops[PEAK_BF16]));
    /* The seven compute-bound operations sit within 0.12 decades of each other on the flat
     * roof: one mark, their letters listed once. */
    bool group = false;
    for (int k = 0; k < info.n_labels; k++)
        group = group || (info.labels[k].kind == PL_OP_GROUP &&
                          strcmp(info.labels[k].text, "b,g,h,k,l,n,p") == 0);
    ck_assert_msg(group, "no group b,g,h,k,l,n,p");
    ck_assert_int_eq(info.ops, 14);
    ck_assert_int_eq(info.ops_marked, 14);
    harness_stop(h);
}
END_TEST

/* The lecture's five operations: far enough apart to each keep a letter and a name. */
START_TEST(test_lecture_ops_named)
{
    struct harness hh, *h = &hh;
    harness_start(h, 200, 60, true, true);
    harness_keys(h, "L");
    ck_assert(h->d.lecture_ops);
    struct layout L;
    dash_layout(&h->d, 200, 60, &L);
    struct plot_info info;
    plot_draw(&h->d, &h->s, L.r[P_ROOFLINE], false, &info);
    ck_assert_int_eq(info.ops, 5);
    ck_assert_int_eq(info.n_marks, 5);
    static const char *const names[] = {"relu", "gelu", "dot", "matvec", "matmul"};
    for (size_t i = 0; i < 5; i++) {
        bool found = false;
        for (int k = 0; k < info.n_labels; k++)
            found = found || (info.labels[k].kind == PL_OP_NAME && strcmp(info.labels[k].text, names[i]) == 0);
        if (!found)
            harness_dump(h);
        ck_assert_msg(found, "no name for %s", names[i]);
    }
    harness_stop(h);
}
END_TEST

static Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("plot");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, test_every_gpu_and_dtype, 0, 2);
    tcase_add_test(tc, test_models_and_measured_file);
    tcase_add_test(tc, test_h100_labels);
    tcase_add_test(tc, test_axes_hold_every_point);
    tcase_add_test(tc, test_lecture_ops_named);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(plot_suite());
}
