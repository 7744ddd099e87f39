/* checkpoint_panel.c - memory and recompute against the checkpoint interval. */
#include "checkpoint_panel.h"

#include <math.h>
#include <stdio.h>

#include "checkpoint.h"
#include "memory.h"
#include "units.h"
#include "widgets.h"

void checkpoint_panel_sizes(const struct dash *d, double *A, double *I)
{
    struct scenario s = d->sc;
    struct memory m;
    s.recompute = RECOMPUTE_NONE;
    memory_compute(&s, &d->ev.an.params, &m);
    *A = m.activations_per_layer;
    s.recompute = RECOMPUTE_FULL;
    memory_compute(&s, &d->ev.an.params, &m);
    *I = m.activations_per_layer;
}

/* The row the scenario's recompute setting is (none: store all; full: every layer). */
static bool is_current(const struct dash *d, const struct ckpt_row *row)
{
    if (d->sc.recompute == RECOMPUTE_NONE || d->sc.recompute == RECOMPUTE_SELECTIVE)
        return row->kind == CKPT_ALL;
    if (d->sc.recompute == RECOMPUTE_FULL)
        return row->kind == CKPT_EVERY && row->k == 1;
    return row->kind == CKPT_EVERY && row->sqrt_l;
}

void checkpoint_panel_draw(const struct dash *d, struct screen *s, struct rect r)
{
    double A, I;
    checkpoint_panel_sizes(d, &A, &I);
    const double L = (double)d->sc.model.layers;
    char title[128];
    snprintf(title, sizeof title, "Checkpointing %.0f layers: A = %.1f%s I", L, I > 0 ? A / I : 0,
             d->cs.times);
    widget_header(s, &d->cs, r, title, "layers' activations", false);
    struct ckpt_row rows[24], toy[24];
    int n = checkpoint_curve(L, A, I, rows, 24);
    checkpoint_curve(L, 1, 1, toy, 24); /* the toy: a layer stores its output only */
    int y = r.y + 1, end = r.y + r.h;
    if (y < end)
        screen_label(s, r.x + 1, y++, r.w - 2, "interval   memory re-run | toy: mem re-run", E_DIM);
    for (int i = 0; i < n && y < end - 2; i++, y++) {
        const struct ckpt_row *w = &rows[i];
        char name[24], mem[24], line[160];
        if (w->kind == CKPT_ALL)
            snprintf(name, sizeof name, "store all");
        else if (w->kind == CKPT_NONE)
            snprintf(name, sizeof name, "none");
        else
            snprintf(name, sizeof name, "k=%.0f%s", w->k, w->sqrt_l ? " sqrtL" : "");
        units_bytes(w->memory, mem, sizeof mem);
        bool now = is_current(d, w);
        snprintf(line, sizeof line, "%-9s %8s %5.0f | %4.0f I %4.0f%s", name, mem, w->recompute,
                 toy[i].memory, toy[i].recompute,
                 w->kind == CKPT_NONE ? " L^2" : now ? " <-" : "");
        screen_label(s, r.x + 1, y, r.w - 2, line, now ? E_VALUE : E_NORMAL);
    }
    /* "none" holds less than any interval (at O(L^2) re-runs): the least is of the k rows.
     * The memory panel's activations add the part outside the layers to each row. */
    char note[3][160], out[24];
    snprintf(note[0], sizeof note[0], "least of the k rows at sqrt(L I / A) = %.1f",
             checkpoint_best_k(L, A, I));
    snprintf(note[1], sizeof note[1], "sqrt(L) = %.1f: the best k when A = I (toy)", sqrt(L));
    units_bytes(d->ev.an.memory.activations_outside, out, sizeof out);
    snprintf(note[2], sizeof note[2], "each memory + %s outside the layers", out);
    for (int i = 0; i < 3 && y < end; i++, y++)
        screen_label(s, r.x + 1, y, r.w - 2, note[i], E_DIM);
}
