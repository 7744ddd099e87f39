/* compare_view.c - the pinned scenario against the one shown (compare_view.h). */
#include "compare_view.h"

#include <stdio.h>
#include <string.h>

#include "theme.h"
#include "widgets.h"

bool compare_view_pin(struct compare_view *v, const struct evaluation *ev)
{
    v->pinned = *ev;
    v->on = true;
    return compare_view_update(v, ev);
}

bool compare_view_update(struct compare_view *v, const struct evaluation *ev)
{
    if (!v->on)
        return true;
    diff_free(&v->d);
    if (diff_run(&v->pinned, ev, &v->d))
        return true;
    compare_view_free(v);
    return false;
}

bool compare_view_marked(const struct compare_view *v, const char *key)
{
    return v->on && diff_input_differs(&v->d, key);
}

bool compare_view_delta(const struct compare_view *v, const char *key, char *buf, size_t n,
                        int *elem)
{
    const struct diff_figure *f = v->on ? diff_find(&v->d, key) : NULL;
    if (f == NULL || f->is_bool || !f->have_a || !f->have_b)
        return false;
    char pc[32];
    diff_delta_text(f, buf, n, pc, sizeof pc);
    if (f->a == f->b)
        snprintf(buf, n, "=");
    /* More memory, time, energy or money is worse. */
    *elem = f->b > f->a ? E_OVER : f->b < f->a ? E_OK : E_DIM;
    return true;
}

/* The figures the panel shows, by report's JSON keys: the headline ones first. */
static const struct {
    const char *key, *label;
} ROWS[] = {
    {"memory.total", "memory"},      {"memory.fits", "fits"},
    {"time.predicted.step_seconds", "pred step"}, {"time.days", "days"},
    {"cost.usd", "cost"},                  {"cost.energy_kwh", "energy"},
    {"cost.gpu_hours", "GPU-hours"},       {"time.step_seconds", "step at MFU"},
    {"memory.params", "parameters"},       {"memory.grads", "gradients"},
    {"memory.optimizer", "optimizer"},     {"memory.master_weights", "master"},
    {"memory.buffers", "buffers"},         {"memory.activations", "activations"},
};
#define N_ROWS ((int)(sizeof ROWS / sizeof ROWS[0]))

static bool moved(const struct diff_figure *f)
{
    return f->have_a != f->have_b || f->a != f->b;
}

/* One figure's row at y: its label, the pinned and present values, the change. */
static void draw_row(struct screen *s, struct rect r, int y, int lw, int cw, int nc,
                     const char *label, const struct diff_figure *f)
{
    char a[48], b[48], dl[48], pc[32];
    diff_figure_text(f->key, f->is_bool, f->have_a, f->a, a, sizeof a);
    diff_figure_text(f->key, f->is_bool, f->have_b, f->b, b, sizeof b);
    diff_delta_text(f, dl, sizeof dl, pc, sizeof pc);
    bool m = moved(f);
    if (!m)
        snprintf(dl, sizeof dl, "=");
    screen_label(s, r.x + 1, y, lw, label, E_LABEL);
    const char *cells[] = {a, b, dl, m ? pc : ""};
    /* More memory, time or money is worse; a fit lost too. */
    bool worse = f->is_bool ? f->b < f->a : f->b > f->a;
    for (int c = 0; c < nc; c++)
        screen_text_right(s, r.x + 1 + lw + (c + 1) * cw - 1, y, cw - 1, cells[c],
                          c >= 1 && m ? (worse ? E_OVER : E_OK) : c == 0 ? E_VALUE : E_DIM);
}

void compare_view_draw(const struct compare_view *v, const struct charset *cs,
                       struct screen *s, struct rect r)
{
    char right[48];
    snprintf(right, sizeof right, "%d input%s differ%s, x: unpin", v->d.n_inputs,
             v->d.n_inputs == 1 ? "" : "s", v->d.n_inputs == 1 ? "s" : "");
    widget_header(s, cs, r, "Against the pinned scenario", right, false);
    int y = r.y + 1;
    /* Four columns where they fit, else the relative change goes. */
    int lw = r.w >= 70 ? 15 : 12, nc = 4, cw = (r.w - 2 - lw) / nc;
    if (cw < 10) {
        nc = 3;
        cw = (r.w - 2 - lw) / nc;
    }
    if (cw < 8)
        return;
    static const char *const heads[] = {"pinned", "now", "now - pinned", "change"};
    screen_label(s, r.x + 1, y, lw, "figure", E_HEADER);
    for (int c = 0; c < nc; c++) {
        /* The difference's head in the room its column has (100 and 160 columns cut it). */
        const char *h = heads[c];
        if (c == 2 && nc == 3)
            h = "change";
        else if (c == 2 && screen_width(h) > cw - 1)
            h = cw - 1 >= 10 ? "difference" : "delta";
        screen_text_right(s, r.x + 1 + lw + (c + 1) * cw - 1, y, cw - 1, h, E_HEADER);
    }
    y++;
    /* The figures that moved first (in the table's order), then those that did not; rows
     * zero on both sides (no master weights, no buffers) are left out. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < N_ROWS && y < r.y + r.h; i++) {
            const struct diff_figure *f = diff_find(&v->d, ROWS[i].key);
            if (f == NULL || moved(f) != (pass == 0))
                continue;
            if (!f->is_bool && f->have_a && f->have_b && f->a == 0 && f->b == 0)
                continue;
            draw_row(s, r, y++, lw, cw, nc, ROWS[i].label, f);
        }
}

void compare_view_free(struct compare_view *v)
{
    diff_free(&v->d);
    v->on = false;
}
