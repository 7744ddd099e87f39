/* dash_harness.h - drives the dashboard headlessly for the Check suites: the same key
 * handler and drawing as the terminal, into a cell grid. */
#ifndef ROOFTOP_DASH_HARNESS_H
#define ROOFTOP_DASH_HARNESS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dash.h"
#include "dash_demo.h"
#include "dash_keys.h"
#include "dash_points.h"
#include "frame.h"
#include "inputs.h"
#include "keys.h"
#include "screen.h"

struct harness {
    struct dash d;
    struct screen s;
};

/* Starts on the lecture's default scenario at cols x rows. */
static inline void harness_start(struct harness *h, int cols, int rows, bool color, bool utf8)
{
    struct scenario sc;
    char err[512];
    memset(h, 0, sizeof *h);
    inputs_defaults(&sc);
    ck_assert_msg(dash_init(&h->d, &sc, color, utf8, err, sizeof err), "dash_init: %s", err);
    struct event ev = {.type = EV_RESIZE, .x = cols, .y = rows};
    dash_handle(&h->d, &ev);
}

static inline void harness_draw(struct harness *h)
{
    ck_assert(screen_resize(&h->s, h->d.cols, h->d.rows));
    frame_draw(&h->d, &h->s);
}

/* Feeds keys in the snapshot syntax, then draws. */
static inline void harness_keys(struct harness *h, const char *keys)
{
    struct event ev[512];
    char err[256];
    int n = keys_parse(keys, ev, 512, err, sizeof err);
    ck_assert_msg(n >= 0, "keys_parse(%s): %s", keys, err);
    for (int i = 0; i < n; i++)
        dash_handle(&h->d, &ev[i]);
    harness_draw(h);
}

/* Moves the focus down (the way a user does) until it is on slider or panel id. */
static inline void harness_focus(struct harness *h, int id)
{
    for (int i = 0; i < FOCUS_COUNT && h->d.focus != id; i++)
        harness_keys(h, "<Down>");
    ck_assert_int_eq(h->d.focus, id);
}

static inline void harness_stop(struct harness *h)
{
    screen_free(&h->s);
    dash_free(&h->d);
}

/* Dumps the grid when a check on it fails, so the failure shows what was on screen. */
static inline void harness_dump(const struct harness *h)
{
    char buf[4096];
    for (int y = 0; y < h->s.rows; y++) {
        screen_row_text(&h->s, y, buf, sizeof buf);
        fprintf(stderr, "|%s\n", buf);
    }
}

#define ck_assert_screen_has(h, text)                                                       \
    do {                                                                                    \
        if (!screen_contains(&(h)->s, (text)))                                              \
            harness_dump(h);                                                                \
        ck_assert_msg(screen_contains(&(h)->s, (text)), "screen lacks \"%s\"", (text));     \
    } while (0)

#endif
