/* snapshot.c - renders the dashboard headlessly: the same state, key handler and drawing as
 * the terminal, written as text, ANSI or SVG. */
#include "snapshot.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "dash.h"
#include "dash_keys.h"
#include "files.h"
#include "frame.h"
#include "keys.h"
#include "options.h"
#include "screen.h"

#define MAX_KEYS 200000

int cmd_snapshot(int argc, char **argv)
{
    char err[1024];
    struct ui_options o;
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    if (!ui_options_parse(argc, argv, 1, true, &o, err, sizeof err)) {
        fprintf(stderr, "rooftop snapshot: %s\n", err);
        return 2;
    }
    if (o.help) {
        ui_options_help(stdout, true);
        return 0;
    }
    files_set_force(o.force);
    enum capture_format fmt;
    if (!capture_format_parse(o.format, &fmt)) {
        fprintf(stderr, "rooftop snapshot: --format: '%s' is not txt, ansi or svg\n", o.format);
        return 2;
    }
    struct event *evs = NULL;
    int n = 0;
    if (o.keys) {
        evs = malloc(MAX_KEYS * sizeof *evs);
        if (!evs) {
            fprintf(stderr, "rooftop snapshot: out of memory\n");
            return 1;
        }
        n = keys_parse(o.keys, evs, MAX_KEYS, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "rooftop snapshot: %s\n", err);
            free(evs);
            return 2;
        }
    }
    /* Colour unless asked not to: a screenshot does not depend on the terminal it is taken
     * from. UTF-8 unless --ascii. */
    bool color = theme_want_color(o.no_color);
    struct dash d;
    if (!ui_dash_from_options(&d, &o, color, !o.ascii, err, sizeof err)) {
        fprintf(stderr, "rooftop snapshot: %s\n", err);
        free(evs);
        return 2;
    }
    struct event rs = {.type = EV_RESIZE, .x = o.cols, .y = o.rows};
    dash_handle(&d, &rs);
    for (int i = 0; i < n && !d.quit; i++)
        dash_handle(&d, &evs[i]);
    free(evs);

    struct screen s = {0};
    int rc = 0;
    if (!screen_resize(&s, d.cols, d.rows)) {
        fprintf(stderr, "rooftop snapshot: out of memory\n");
        rc = 1;
    } else {
        frame_draw(&d, &s);
        /* --out goes through the atomic writer: a full disk or a failed render leaves the
         * old file whole, never a truncated one. */
        struct files_out out;
        FILE *f = stdout;
        if (o.out) {
            if (!files_out_open(&out, o.out, err, sizeof err)) {
                fprintf(stderr, "rooftop snapshot: --out %s\n", err);
                rc = 1;
                f = NULL;
            } else {
                f = out.f;
            }
        }
        if (f != NULL) {
            bool ok = capture_write(f, &s, &d.theme, fmt);
            if (o.out && !ok) {
                int e = errno ? errno : EIO;
                files_out_abort(&out);
                fprintf(stderr, "rooftop snapshot: --out %s: cannot write: %s\n", o.out,
                        strerror(e));
                rc = 1;
            } else if (o.out && !files_out_commit(&out, err, sizeof err)) {
                fprintf(stderr, "rooftop snapshot: --out %s\n", err);
                rc = 1;
            } else if (!o.out && (fflush(f) != 0 || ferror(f))) {
                fprintf(stderr, "rooftop snapshot: stdout: write failed\n");
                rc = 1;
            }
        }
    }
    screen_free(&s);
    dash_free(&d);
    return rc;
}
