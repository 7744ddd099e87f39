/* dash_demo.c - the lecture demo on the dashboard: a step shown, the demo opened, n/p and c. */
#include "dash_demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

static int focus_from_name(const char *name)
{
    /* The panels after the sliders, in their focus order. */
    static const char *const panels[FOCUS_COUNT - FOCUS_MEMORY] = {"memory", "compute",
                                                                   "roofline", "ops"};
    int s = slider_find(name);
    if (s >= 0)
        return s;
    for (int i = 0; i < FOCUS_COUNT - FOCUS_MEMORY; i++)
        if (strcmp(name, panels[i]) == 0)
            return FOCUS_MEMORY + i;
    return -1;
}

void dash_demo_show(struct dash *d, int k)
{
    if (d->demo.n == 0)
        return;
    if (k < 0)
        k = 0;
    if (k >= d->demo.n)
        k = d->demo.n - 1;
    d->step = k;
    d->caption_line = 0;
    d->answer_shown = false;
    const struct demo_step *st = &d->demo.steps[k];
    if (dash_try(d, &st->scenario, -1))
        d->status[0] = '\0';
    int f = focus_from_name(st->focus);
    if (f >= 0)
        d->focus = f;
    d->lecture_ops = st->lecture_ops;
    if (f == FOCUS_OPS)
        d->show_ops = true;
    else if (f == FOCUS_ROOFLINE)
        d->show_ops = false;
    /* An inference step shows the serving view on its own scenario (checked when the demo
     * loaded); any other step the training view. */
    d->inf.on = false;
    if (st->inference) {
        char err[DASH_STATUS_MAX];
        if (!infer_ui_show(&d->inf, &st->infer, err, sizeof err)) {
            dash_status(d, true, "%s", err);
            return;
        }
        d->inf.on = true;
        int g = infer_ui_find(st->focus);
        if (g >= 0)
            d->inf.focus = g;
    }
}

bool dash_demo_open(struct dash *d, const char *path, int step, char *err, size_t errlen)
{
    if (!path) {
        char *found = files_find("scenarios", "lecture.json");
        if (!found) {
            char where[256];
            files_dirs_describe("scenarios", where, sizeof where);
            snprintf(err, errlen, "lecture demo: lecture.json not found in %s (set ROOFTOP_SPECS "
                                  "or run from the source tree)", where);
            return false;
        }
        free(found);
        path = "lecture";
    }
    struct demo l;
    if (!demo_load(path, &l, err, errlen))
        return false;
    demo_free(&d->demo);
    d->demo = l;
    dash_demo_show(d, step);
    return true;
}

void dash_demo_step(struct dash *d, int dir)
{
    char err[DASH_STATUS_MAX];
    if (d->demo.n == 0) {
        if (!dash_demo_open(d, NULL, 0, err, sizeof err))
            dash_status(d, true, "%s", err);
        return;
    }
    int k = d->step + dir;
    if (k < 0 || k >= d->demo.n) {
        dash_status(d, false, "%s step of %d (%s)", k < 0 ? "first" : "last", d->demo.n,
                    k < 0 ? "n goes forward" : "p goes back");
        return;
    }
    dash_demo_show(d, k);
}

/* The lecture caption: its lines, and the rows it has on screen (0 when not shown). */
static int caption_lines(const struct dash *d, int *rows)
{
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    *rows = L.too_small ? 0 : L.r[P_CAPTION].h;
    struct rect text;
    return *rows ? dash_caption_area(d, L.r[P_CAPTION], &text) : 0;
}

/* c: the caption's next lines where it has more than fit, back to its start after the last. */
void dash_demo_caption_next(struct dash *d)
{
    int rows, lines = caption_lines(d, &rows);
    if (lines == 0) {
        dash_status(d, false, "c: no lecture caption on screen (n starts the demo)");
        return;
    }
    if (lines <= rows) {
        dash_status(d, false, "c: the whole caption is on screen");
        return;
    }
    d->caption_line += rows;
    if (d->caption_line >= lines)
        d->caption_line = 0;
}
