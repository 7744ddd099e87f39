/* sweep_view.h - the dashboard's sweep panel: a slider's whole range evaluated, drawn in
 * place of the roofline (src/sweep_plot.h), the current value marked. w opens it on the
 * focused slider and closes it; moving that slider moves the mark, moving another one sweeps
 * again. */
#ifndef ROOFTOP_UI_SWEEP_VIEW_H
#define ROOFTOP_UI_SWEEP_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "charset.h"
#include "evaluation.h"
#include "presets.h"
#include "scenario.h"
#include "screen.h"
#include "sweep.h"

struct sweep_view {
    bool on;
    int slider;                  /* the slider swept */
    struct sweep sw;             /* its steps, evaluated on the scenario shown */
    int mark;                    /* the point of the value shown */
};

/* What a sweep is made of: the presets, the scenario shown, what the user asked of each input
 * (the inputs that give way settle toward it, as moving the slider would), the points. */
struct sweep_view_of {
    const struct presets *p;
    const struct scenario *sc, *want;
    struct eval_input in;
};

/* Opens the panel on slider `slider`; false (panel closed) when out of memory. */
bool sweep_view_open(struct sweep_view *v, const struct sweep_view_of *of, int slider);
/* After the scenario shown changed (slider `moved`, -1 for a new scenario): the mark moves,
 * or the sweep is redone. False when out of memory (the panel closes). */
bool sweep_view_update(struct sweep_view *v, const struct sweep_view_of *of, int moved);
/* The panel in r. */
void sweep_view_draw(const struct sweep_view *v, const struct charset *cs, struct screen *s,
                     struct rect r, bool focused);
void sweep_view_free(struct sweep_view *v);

#endif
