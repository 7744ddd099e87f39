/* dash_views.c - the sweep (w) and the comparison (x) opened and closed from the keys. */
#include "dash_views.h"

#include "sweep_plot.h"

/* w: the focused slider's range in place of the roofline, or back. */
void dash_views_sweep(struct dash *d)
{
    if (d->swv.on) {
        sweep_view_free(&d->swv);
        return;
    }
    if (d->focus >= slider_count()) {
        dash_status(d, true, "w: select an input first; w sweeps its range");
        return;
    }
    struct sweep_view_of of = dash_sweep_of(d);
    if (!sweep_view_open(&d->swv, &of, d->focus)) {
        dash_status(d, true, "w: out of memory");
        return;
    }
    char line[256];
    sweep_plot_crossing(&d->swv.sw, line, sizeof line);
    dash_status(d, false, "%s (w: the roofline again)", line);
}

/* x: pins the scenario shown, or unpins. */
void dash_views_pin(struct dash *d)
{
    if (d->cmp.on) {
        compare_view_free(&d->cmp);
        dash_status(d, false, "unpinned");
    } else if (compare_view_pin(&d->cmp, &d->ev)) {
        dash_status(d, false, "pinned: the figures now show their change from it (x unpins)");
    } else {
        dash_status(d, true, "x: out of memory");
    }
}
