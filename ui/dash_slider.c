/* dash_slider.c - moving a slider: by steps, to its valid Home/End, to a point on its track. */
#include "dash_slider.h"

#include <math.h>

int dash_slider_steps(const struct dash *d, int id)
{
    double vals[SLIDER_MAX_STEPS];
    return slider_steps(&d->presets, &d->sc, id, vals, SLIDER_MAX_STEPS);
}

/*
 * Home, End and the mouse: the step at index `target`, or, when its scenario is not valid,
 * the nearest valid step between it and the current value (the GPU count's End stops where
 * the batch no longer splits, the tensor degree's where it no longer divides the heads).
 */
static bool slider_to_valid(struct dash *d, int id, int target)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(&d->presets, &d->sc, id, vals, SLIDER_MAX_STEPS);
    double cur = slider_value(&d->presets, &d->sc, id);
    if (target < 0 || target >= n)
        return false;
    bool up = vals[target] > cur;
    for (int k = target; k >= 0 && k < n; k += up ? -1 : 1) {
        if (up ? !(vals[k] > cur) : !(vals[k] < cur))
            break;
        struct scenario cand = d->sc, c, want;
        char note[DASH_STATUS_MAX], msg[DASH_STATUS_MAX];
        const char *key;
        if (slider_apply(&d->presets, &cand, id, vals[k]) &&
            dash_settle(d, &cand, id, &c, &want, note, msg, sizeof msg, &key))
            return dash_try(d, &cand, id);
    }
    if (vals[target] != cur)
        dash_status(d, false, "%s: no valid value that way",
                    slider_input(id)->label);
    return false;
}

/* Moves a slider: by delta steps (how 0), to its valid Home/End (how 1), or to the valid step
 * nearest a position along the track (how 2, the mouse). */
bool dash_slider_move(struct dash *d, int id, int delta, int how, double frac)
{
    if (id < 0 || id >= slider_count())
        return false;
    if (how == 1)
        return slider_to_valid(d, id, delta > 0 ? dash_slider_steps(d, id) - 1 : 0);
    if (how == 2) {
        if (!(frac == frac))
            return false;
        frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
        return slider_to_valid(d, id, (int)lround(frac * (dash_slider_steps(d, id) - 1)));
    }
    struct scenario c = d->sc;
    if (!slider_step(&d->presets, &c, id, delta))
        return false;
    return dash_try(d, &c, id);
}
