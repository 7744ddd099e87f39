/* bench_frame.c - time from a key to a finished frame at 200x60: the key handler (which
 * recomputes the analysis), drawing into the cell grid, and the ncurses update (into a
 * newterm on /dev/null), over 10,000 frames; beside it, in the same run, a bare ncurses
 * full-screen redraw of the same size (every cell rewritten with new content, one update).
 * Prints `name value unit` lines: frame_p50_ms, frame_p99_ms, frame_ratio_vs_bare, ... */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dash.h"
#include "dash_keys.h"
#include "frame.h"
#include "inputs.h"
#include "keys.h"
#include "screen.h"
#include "term.h"

#define COLS_B 200
#define ROWS_B 60
/* ROOFTOP_BENCH_FRAMES overrides the count (make bench runs a few hundred under callgrind
 * to count the instructions of one frame). */
#define FRAMES_DEFAULT 10000
#define WARMUP 200
static int n_frames = FRAMES_DEFAULT;
/* Every dash_handle call (the set-up's too), for bench-ir.sh's instructions per key. */
static int n_keys;

static void handle(struct dash *d, const struct event *ev)
{
    n_keys++;
    dash_handle(d, ev);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(p * (n - 1) + 0.5);
    return v[i];
}

int main(void)
{
    char err[512];
    const char *nf = getenv("ROOFTOP_BENCH_FRAMES");
    if (nf != NULL && atoi(nf) > 0)
        n_frames = atoi(nf);
    /* ncurses takes the size from these when they are set. */
    setenv("LINES", "60", 1);
    setenv("COLUMNS", "200", 1);
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    if (!out || !in) {
        fprintf(stderr, "bench_frame: cannot open /dev/null\n");
        return 1;
    }
    struct scenario sc;
    inputs_defaults(&sc);
    struct dash d;
    if (!dash_init(&d, &sc, true, true, err, sizeof err)) {
        fprintf(stderr, "bench_frame: %s\n", err);
        return 1;
    }
    bool color = false;
    struct term *t = term_open("xterm-256color", out, in, true, &color, err, sizeof err);
    if (!t) {
        fprintf(stderr, "bench_frame: %s\n", err);
        return 1;
    }
    int cols, rows;
    term_size(t, &cols, &rows);
    if (cols != COLS_B || rows != ROWS_B) {
        fprintf(stderr, "bench_frame: the terminal is %dx%d, not %dx%d\n", cols, rows, COLS_B, ROWS_B);
        return 1;
    }
    struct event ev = {.type = EV_RESIZE, .x = cols, .y = rows};
    handle(&d, &ev);
    /* The GPU-count slider: each key doubles or halves the count, so every frame changes
     * the figures, the bars' text and the formula line. */
    while (d.focus != slider_id("gpus")) {
        ev = (struct event){.type = EV_KEY, .key = UK_DOWN};
        handle(&d, &ev);
    }
    struct screen s = {0};
    double *frame = malloc(n_frames * sizeof *frame), *bare = malloc(n_frames * sizeof *bare);
    double *t_key = malloc(n_frames * sizeof *t_key), *t_draw = malloc(n_frames * sizeof *t_draw);
    if (!frame || !bare || !t_key || !t_draw || !screen_resize(&s, cols, rows)) {
        fprintf(stderr, "bench_frame: out of memory\n");
        return 1;
    }
    for (int i = -WARMUP; i < n_frames; i++) {
        ev = (struct event){.type = EV_KEY, .key = (i & 1) ? UK_LEFT : UK_RIGHT};
        double t0 = now_ms();
        handle(&d, &ev);
        double t1 = now_ms();
        frame_draw(&d, &s);
        double t2 = now_ms();
        term_draw(t, &s, &d.theme);
        double t3 = now_ms();
        if (i >= 0) {
            frame[i] = t3 - t0;
            t_key[i] = t1 - t0;
            t_draw[i] = t2 - t1;
        }
    }
    /* The same frames with the whole screen repainted each time (as after a resize), to
     * show what sending only the changed cells saves. */
    double *full = malloc(n_frames * sizeof *full);
    if (!full) {
        fprintf(stderr, "bench_frame: out of memory\n");
        return 1;
    }
    for (int i = -WARMUP; i < n_frames; i++) {
        ev = (struct event){.type = EV_KEY, .key = (i & 1) ? UK_LEFT : UK_RIGHT};
        double t0 = now_ms();
        handle(&d, &ev);
        frame_draw(&d, &s);
        term_invalidate(t);
        term_draw(t, &s, &d.theme);
        double t1 = now_ms();
        if (i >= 0)
            full[i] = t1 - t0;
    }
    /* The bare redraw: every cell rewritten with new content (alternating, so all of it is
     * sent), one update. */
    for (int i = -WARMUP; i < n_frames; i++) {
        wchar_t wc[2] = {(i & 1) ? L':' : L'.', 0};
        cchar_t cc;
        setcchar(&cc, wc, A_NORMAL, 0, NULL);
        double t0 = now_ms();
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < cols; x++)
                mvwadd_wch(stdscr, y, x, &cc);
        wnoutrefresh(stdscr);
        doupdate();
        double t1 = now_ms();
        if (i >= 0)
            bare[i] = t1 - t0;
    }
    term_close(t);
    screen_free(&s);
    dash_free(&d);
    fclose(out);
    fclose(in);

    double f50 = pct(frame, n_frames, 0.50), f99 = pct(frame, n_frames, 0.99);
    double b50 = pct(bare, n_frames, 0.50), b99 = pct(bare, n_frames, 0.99);
    printf("frame_size %dx%d cells\n", COLS_B, ROWS_B);
    printf("frames %d count\n", n_frames);
    /* frame_draw runs in the key loop and in the full-repaint loop, warm-up included. */
    printf("frame_draw_calls %d count\n", 2 * (n_frames + WARMUP));
    printf("dash_handle_calls %d count\n", n_keys);
    printf("frame_p50_ms %.4f ms\n", f50);
    printf("frame_p99_ms %.4f ms\n", f99);
    printf("frame_key_recompute_p50_ms %.4f ms\n", pct(t_key, n_frames, 0.50));
    printf("frame_draw_grid_p50_ms %.4f ms\n", pct(t_draw, n_frames, 0.50));
    printf("frame_full_repaint_p50_ms %.4f ms\n", pct(full, n_frames, 0.50));
    printf("frame_full_repaint_p99_ms %.4f ms\n", pct(full, n_frames, 0.99));
    printf("bare_redraw_p50_ms %.4f ms\n", b50);
    printf("bare_redraw_p99_ms %.4f ms\n", b99);
    printf("frame_ratio_vs_bare %.3f ratio\n", b50 > 0 ? f50 / b50 : 0);
    free(frame);
    free(full);
    free(bare);
    free(t_key);
    free(t_draw);
    return 0;
}
