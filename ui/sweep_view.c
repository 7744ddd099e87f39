/* sweep_view.c - the dashboard's sweep panel (sweep_view.h). */
#include "sweep_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_check.h"
#include "slider.h"
#include "sweep_plot.h"
#include "theme.h"
#include "widgets.h"

/* A step of the slider as moving the slider there would make it: the value applied, then the
 * inputs that must give way settled toward what the user asked of them. */
static bool view_set(void *ctx, const struct input *knob, struct scenario *s, double v,
                     char *why, size_t n)
{
    const struct sweep_view_of *of = ctx;
    int id = slider_find(knob->key);
    struct scenario want = *of->want;
    if (id < 0 || !slider_apply(of->p, s, id, v) ||
        !slider_apply(of->p, &want, id, v)) {
        snprintf(why, n, "%s cannot take this step", knob->label);
        return false;
    }
    char note[256];
    scenario_settle(s, &want, knob, note, sizeof note);
    return true;
}

/* The point nearest the value shown. */
static int mark_of(const struct sweep_view *v, const struct sweep_view_of *of)
{
    double now = slider_value(of->p, of->sc, v->slider);
    int best = -1;
    double gap = INFINITY;
    for (int i = 0; i < v->sw.n; i++)
        if (fabs(v->sw.pts[i].value - now) < gap) {
            gap = fabs(v->sw.pts[i].value - now);
            best = i;
        }
    return best;
}

/* Sweeps the slider's steps on the scenario shown. */
static bool sweep_again(struct sweep_view *v, const struct sweep_view_of *of)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(of->p, of->sc, v->slider, vals, SLIDER_MAX_STEPS);
    if (n > SWEEP_MAX)
        n = SWEEP_MAX;
    sweep_free(&v->sw);
    if (!sweep_run(&v->sw, of->sc, slider_input(v->slider), vals, n, &of->in,
                   view_set, (void *)of)) {
        sweep_view_free(v);
        return false;
    }
    v->mark = mark_of(v, of);
    return true;
}

bool sweep_view_open(struct sweep_view *v, const struct sweep_view_of *of, int slider)
{
    sweep_view_free(v);
    v->slider = slider;
    v->on = true;
    return sweep_again(v, of);
}

bool sweep_view_update(struct sweep_view *v, const struct sweep_view_of *of, int moved)
{
    if (!v->on)
        return true;
    if (moved == v->slider) {
        v->mark = mark_of(v, of);
        return true;
    }
    return sweep_again(v, of);
}

/* The plot's cells as the theme draws them. */
static int elem_of(unsigned char e)
{
    if (e >= SP_MEM_FIRST && e < SP_MEM_FIRST + MEM_COUNT)
        return E_PARAMS + (e - SP_MEM_FIRST);
    switch (e) {
    case SP_CAPACITY: return E_CAPACITY;
    case SP_STEP: return E_VALUE;
    case SP_CROSS:
    case SP_OVER:
    case SP_INVALID: return E_OVER;
    case SP_MARK: return E_KNOB;
    case SP_AXIS: return E_AXIS;
    case SP_LABEL: return E_LABEL;
    default: return E_NORMAL;
    }
}

void sweep_view_draw(const struct sweep_view *v, const struct charset *cs, struct screen *s,
                     struct rect r, bool focused)
{
    const struct input *in = slider_input(v->slider);
    char title[96], right[64];
    snprintf(title, sizeof title, "Sweep of %s: memory and step", in->label);
    snprintf(right, sizeof right, "%d values, w: roofline", v->sw.n);
    widget_header(s, cs, r, title, right, focused);
    int w = r.w - 2, h = r.h - 2;
    struct sweep_cell *cells = w > 0 && h > 0 ? malloc((size_t)w * (size_t)h * sizeof *cells)
                                              : NULL;
    if (cells == NULL)
        return;
    if (sweep_plot_draw(&v->sw, v->mark, cs->utf8, w, h, cells)) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (cells[y * w + x].ch != ' ')
                    screen_put(s, r.x + 1 + x, r.y + 1 + y, cells[y * w + x].ch,
                               elem_of(cells[y * w + x].elem));
        char line[256];
        sweep_plot_crossing(&v->sw, line, sizeof line);
        screen_text(s, r.x + 1, r.y + r.h - 1, r.w - 2, line, E_OVER);
    } else {
        screen_text(s, r.x + 1, r.y + 1, r.w - 2, "too small for the sweep", E_DIM);
    }
    free(cells);
}

void sweep_view_free(struct sweep_view *v)
{
    sweep_free(&v->sw);
    v->on = false;
    v->mark = -1;
}
