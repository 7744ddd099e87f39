/* test_keyfuzz.c - 100,000 random keys, mouse events and resizes (1x1 and 500x200 among
 * them) through the dashboard's key handler: no crash (run it under `make asan`), every
 * slider within its range, the scenario always valid, and never "nan" or "inf" on screen.
 * ROOFTOP_FUZZ_SEED and ROOFTOP_FUZZ_EVENTS change the run. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "check_util.h"
#include "dash_harness.h"
#include "scenario_check.h"


static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64*: deterministic for a seed, so a failure can be replayed. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

static int rnd_below(int n)
{
    return (int)(rnd() % (uint64_t)n);
}

static const uint32_t special[] = {
    UK_UP, UK_DOWN, UK_LEFT, UK_RIGHT, UK_PGUP, UK_PGDN, UK_HOME, UK_END, UK_ENTER, UK_TAB,
    UK_BTAB, UK_ESC, UK_BS, UK_DEL, UK_F1, UK_SLEFT, UK_SRIGHT,
};
/* The dashboard's own keys, often; letters and digits for typed values. No '/' so a typed
 * file name stays inside the scratch directory. */
static const char keychars[] = "qhjklmgsoernptLP?0123456789.kMBGTeE-+ abcxyz_";

static struct event random_event(int cols, int rows)
{
    struct event ev = {.type = EV_KEY};
    int r = rnd_below(1000);
    if (r < 6) {
        ev.type = EV_RESIZE;
        int k = rnd_below(10);
        if (k == 0) {
            ev.x = 1;
            ev.y = 1;
        } else if (k == 1) {
            ev.x = 500;
            ev.y = 200;
        } else {
            ev.x = 1 + rnd_below(320);
            ev.y = 1 + rnd_below(110);
        }
    } else if (r < 200) {
        ev.type = EV_MOUSE;
        ev.mouse = (enum mouse_kind)rnd_below(5);
        /* Mostly on screen, sometimes past its edges. */
        ev.x = rnd_below(cols + 10) - 5;
        ev.y = rnd_below(rows + 10) - 5;
    } else if (r < 550) {
        ev.key = special[rnd_below((int)(sizeof special / sizeof special[0]))];
    } else if (r < 560) {
        ev.key = (uint32_t)rnd_below(0x110000); /* any code point at all */
    } else {
        ev.key = (uint32_t)(unsigned char)keychars[rnd_below((int)sizeof keychars - 1)];
    }
    return ev;
}

static bool finite_analysis(const struct analysis *a)
{
    double v[] = {a->time.seconds, a->time.days, a->time.gpu_hours, a->time.mfu, a->time.hfu,
                  a->time.tokens_per_s, a->time.step_seconds, a->memory.total,
                  a->memory.capacity, a->flops.total, a->flops.six_nd, a->flops.detailed,
                  a->roofline.peak, a->roofline.ridge, a->roofline.step_seconds,
                  a->roofline.mfu_bound};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]))
            return false;
    for (int i = 0; i < MEM_COUNT; i++)
        if (!isfinite(a->memory.row[i].bytes))
            return false;
    for (int i = 0; i < a->n_ops; i++)
        if (!isfinite(a->ops[i].seconds) || !isfinite(a->ops[i].intensity))
            return false;
    return true;
}

/* "nan" or "inf" standing as a word (not inside "infinite", "financial"...). */
static const char *bad_number(const char *row)
{
    for (const char *p = row; *p; p++) {
        if (strncasecmp(p, "nan", 3) != 0 && strncasecmp(p, "inf", 3) != 0)
            continue;
        bool before = p > row && isalpha((unsigned char)p[-1]);
        bool after = isalpha((unsigned char)p[3]) && strncasecmp(p + 3, "inity", 5) != 0;
        if (!before && !after)
            return p;
    }
    return NULL;
}

/* The figures on screen are the core's one evaluation of the scenario on screen: no event
 * leaves them stale or computed another way. Field by field (padding is not compared). */
static bool analysis_is_fresh(const struct dash *d)
{
    static struct evaluation e;
    struct eval_input in = {.points = d->have_points ? &d->points : NULL,
                            .any_device = d->points_any_device};
    evaluation_run(&d->sc, &in, &e);
    const struct analysis *a = &e.an, *b = &d->ev.an;
    if (e.mfu != d->ev.mfu || e.mfu_from != d->ev.mfu_from || a->n_ops != b->n_ops ||
        a->params.total != b->params.total || a->memory.total != b->memory.total ||
        a->flops.total != b->flops.total || a->flops.per_step != b->flops.per_step ||
        a->time.seconds != b->time.seconds || a->time.mfu != b->time.mfu ||
        a->roofline.step_seconds != b->roofline.step_seconds || a->dp != b->dp ||
        a->micro_batch != b->micro_batch || a->accum_steps != b->accum_steps ||
        e.pred.step_seconds != d->ev.pred.step_seconds || e.warn.n != d->ev.warn.n)
        return false;
    for (int k = 0; k < MEM_COUNT; k++)
        if (a->memory.row[k].bytes != b->memory.row[k].bytes)
            return false;
    for (int k = 0; k < a->n_ops; k++)
        if (a->ops[k].kind != b->ops[k].kind || a->ops[k].flops != b->ops[k].flops ||
            a->ops[k].bytes != b->ops[k].bytes || a->ops[k].seconds != b->ops[k].seconds)
            return false;
    for (int k = 0; k < PART_COUNT; k++)
        if (e.pred.part[k] != d->ev.pred.part[k])
            return false;
    return e.meas.n_ops_measured == d->ev.meas.n_ops_measured &&
           e.meas.efficiency == d->ev.meas.efficiency;
}

START_TEST(test_key_fuzz)
{
    const char *seed_env = getenv("ROOFTOP_FUZZ_SEED");
    const char *n_env = getenv("ROOFTOP_FUZZ_EVENTS");
    uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : 0x726f6f66746f70ULL;
    long events = n_env ? strtol(n_env, NULL, 10) : 100000;
    rng_state = seed ? seed : 1;

    /* Typed file names land in a scratch directory; specs are found by absolute path. */
    char cwd[PATH_MAX], specs[PATH_MAX + 16], dir[] = "/tmp/rooftop-fuzz-XXXXXX";
    ck_assert(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(specs, sizeof specs, "%s/specs", cwd);
    ck_assert_int_eq(setenv("ROOFTOP_SPECS", specs, 1), 0);
    ck_assert(mkdtemp(dir) != NULL);
    ck_assert_int_eq(chdir(dir), 0);

    struct harness h;
    harness_start(&h, 120, 40, true, true);
    char *row = malloc(4 * 600 + 1);
    ck_assert(row != NULL);
    long frames = 0, resizes = 0, mouse = 0;
    for (long i = 0; i < events; i++) {
        struct event ev = random_event(h.d.cols, h.d.rows);
        resizes += ev.type == EV_RESIZE;
        mouse += ev.type == EV_MOUSE;
        dash_handle(&h.d, &ev);
        h.d.quit = false; /* q: carry on as if restarted */
        char err[512];
        REQUIRE(scenario_validate(&h.d.sc, err, (int)sizeof err), "event %ld (seed %llu): %s", i,
                (unsigned long long)seed, err);
        for (int k = 0; k < slider_count(); k++)
            REQUIRE(slider_in_range(&h.d.presets, &h.d.sc, k),
                    "event %ld (seed %llu): slider %s out of range", i, (unsigned long long)seed,
                    slider_input(k)->label);
        REQUIRE(finite_analysis(&h.d.ev.an), "event %ld (seed %llu): NaN or infinity computed", i,
                (unsigned long long)seed);
        REQUIRE(analysis_is_fresh(&h.d),
                "event %ld (seed %llu): the analysis on screen is not the scenario's", i,
                (unsigned long long)seed);
        if (ev.type == EV_RESIZE || i % 8 == 0) {
            REQUIRE(screen_resize(&h.s, h.d.cols, h.d.rows), "out of memory");
            frame_draw(&h.d, &h.s);
            frames++;
            for (int y = 0; y < h.s.rows; y++) {
                screen_row_text(&h.s, y, row, 4 * 600 + 1);
                const char *bad = bad_number(row);
                REQUIRE(!bad, "event %ld (seed %llu): '%.12s' on screen: %s", i,
                        (unsigned long long)seed, bad, row);
            }
        }
    }
    printf("key fuzz: %ld events (%ld mouse, %ld resizes), %ld frames, seed %llu\n", events, mouse,
           resizes, frames, (unsigned long long)seed);
    free(row);
    harness_stop(&h);
    ck_assert_int_eq(chdir(cwd), 0);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *fuzz_suite(void)
{
    Suite *s = suite_create("keyfuzz");
    TCase *tc = tcase_create("keyfuzz");
    /* ASan makes it a few times slower; the limit leaves room for that on two cores. */
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_key_fuzz);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(fuzz_suite());
}
