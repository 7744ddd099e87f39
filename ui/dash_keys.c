/* dash_keys.c - what a key does: the training view's keys, and each mode's handler. */
#include "dash_keys.h"

#include <stdio.h>

#include "dash_demo.h"
#include "dash_files.h"
#include "dash_infer.h"
#include "dash_mouse.h"
#include "dash_ops.h"
#include "dash_pick.h"
#include "dash_plans.h"
#include "dash_points.h"
#include "dash_prompt.h"
#include "dash_slider.h"
#include "dash_views.h"
#include "dtypes_input.h"
#include "lecture_screen.h"

/* The focused slider's or panel's keys: move the focus, change the value, type it. */
static bool focus_key(struct dash *d, uint32_t k)
{
    switch (k) {
    case UK_UP:
    case 'k':
    case UK_BTAB:
    case UK_DOWN:
    case 'j':
    case UK_TAB: {
        /* On to the next (previous) slider or panel the screen shows. */
        int dir = k == UK_UP || k == 'k' || k == UK_BTAB ? FOCUS_COUNT - 1 : 1;
        int f = d->focus;
        for (int tries = 0; tries < FOCUS_COUNT; tries++) {
            f = (f + dir) % FOCUS_COUNT;
            if (lecture_focusable(lecture_step_of(&d->demo, d->step, d->inf.on), f))
                break;
        }
        d->focus = f;
        return true;
    }
    case UK_LEFT:
    case UK_SLEFT:
    case 'h':
        dash_slider_move(d, d->focus, -1, 0, 0);
        return true;
    case UK_RIGHT:
    case UK_SRIGHT:
    case 'l':
        dash_slider_move(d, d->focus, 1, 0, 0);
        return true;
    case UK_PGUP:
    case UK_PGDN:
        if (d->focus < slider_count()) {
            /* A big step: a fifth of the track, at least two steps. */
            int big = dash_slider_steps(d, d->focus) / 5;
            if (big < 2)
                big = 2;
            dash_slider_move(d, d->focus, k == UK_PGUP ? big : -big, 0, 0);
        }
        return true;
    case UK_HOME:
        dash_slider_move(d, d->focus, -1, 1, 0);
        return true;
    case UK_END:
        dash_slider_move(d, d->focus, 1, 1, 0);
        return true;
    case UK_ENTER:
    case '\n':
    case '\r':
        if (d->focus < slider_count()) {
            /* The exact text, which typed back gives the same value. */
            char v[DASH_INPUT_MAX];
            inputs_format(slider_input(d->focus), &d->sc, v, sizeof v);
            dash_prompt_start(d, DM_EDIT, v);
        }
        return true;
    default:
        return false;
    }
}

/* The keys that open a picker, a prompt, a panel or a view. */
static bool open_key(struct dash *d, uint32_t k)
{
    switch (k) {
    case 'd':
        d->mode = DM_DTYPES;
        snprintf(d->dtype_input, sizeof d->dtype_input, "%.9g", d->dtype_value);
        return true;
    case 'm':
        if (d->presets.n_models == 0) {
            dash_status(d, true, "m: no model presets found (set ROOFTOP_SPECS to the specs directory)");
        } else {
            d->mode = DM_PICK_MODEL;
            d->pick_query[0] = '\0';
            d->pick = presets_model_index(&d->presets, d->sc.model.id);
            if (d->pick < 0)
                d->pick = (int)(slider_value(&d->presets, &d->sc, slider_id("model")) + 0.5);
        }
        return true;
    case 'g':
        d->mode = DM_PICK_GPU;
        d->pick_query[0] = '\0';
        d->pick = presets_gpu_index(&d->presets, d->sc.gpu.id);
        if (d->pick < 0)
            d->pick = 0;
        return true;
    case 's':
        dash_prompt_start(d, DM_SAVE, d->path[0] ? d->path : "rooftop-scenario.json");
        return true;
    case 'o':
        dash_prompt_start(d, DM_OPEN, d->path);
        return true;
    case 'e':
        dash_prompt_start(d, DM_EXPORT, "rooftop-report.md");
        return true;
    case '?':
    case UK_F1:
        d->mode = DM_HELP;
        return true;
    case 'i': {
        char err[DASH_STATUS_MAX] = "";
        if (!d->inf.ready && !infer_ui_open(&d->inf, &d->presets, &d->sc, err, sizeof err)) {
            dash_status(d, true, "i: %s", err);
            return true;
        }
        d->inf.on = true;
        if (err[0] != '\0')
            dash_status(d, false, "inference view: %s", err);
        else
            dash_status(d, false, "inference view (i: back to training)");
        return true;
    }
    default:
        return false;
    }
}

static void normal_key(struct dash *d, uint32_t k)
{
    if (d->focus == FOCUS_OPS && dash_ops_key(d, k))
        return;
    if (focus_key(d, k) || open_key(d, k))
        return;
    switch (k) {
    case 'q':
    case 'Q':
        d->quit = true;
        break;
    case 'a':
        if (d->step >= 0 && d->step < d->demo.n && d->demo.steps[d->step].answer[0])
            d->answer_shown = !d->answer_shown;
        else
            dash_status(d, false, "a: this step has no answer to show (specs/scenarios/exercises.json has)");
        break;
    case 'r':
        if (dash_try(d, &d->start, -1))
            dash_status(d, false, "reset to the starting scenario");
        d->step = -1;
        d->lecture_ops = false;
        break;
    case 'n':
        dash_demo_step(d, 1);
        break;
    case 'p':
        dash_demo_step(d, -1);
        break;
    case 't':
        dash_ops_toggle(d);
        break;
    case 'c':
        dash_demo_caption_next(d);
        break;
    case 'L':
        d->lecture_ops = !d->lecture_ops;
        d->ops_top = 0;
        break;
    case 'P':
        dash_probe_key(d);
        break;
    case 'M':
        dash_toggle_measured_mfu(d);
        break;
    case 'b':
        dash_plans_open(d);
        break;
    case 'w':
        dash_views_sweep(d);
        break;
    case 'x':
        dash_views_pin(d);
        break;
    default:
        break;
    }
}

bool dash_handle(struct dash *d, const struct event *ev)
{
    switch (ev->type) {
    case EV_RESIZE:
        d->cols = ev->x > 0 ? ev->x : 1;
        d->rows = ev->y > 0 ? ev->y : 1;
        return true;
    case EV_MOUSE:
        dash_mouse_event(d, ev);
        return true;
    case EV_KEY:
        break;
    }
    uint32_t k = ev->key;
    /* A message stays until the next key, so it can be read. */
    if (d->mode == DM_NORMAL)
        d->status[0] = '\0';
    switch (d->mode) {
    case DM_NORMAL:
        if (d->inf.on)
            dash_infer_key(d, k);
        else
            normal_key(d, k);
        break;
    case DM_HELP:
        d->mode = DM_NORMAL;
        if (k == 'q')
            d->quit = false; /* q closes the help, it does not quit */
        break;
    case DM_DTYPES: {
        char err[DASH_STATUS_MAX];
        double v;
        enum dtypes_input_result r =
            dtypes_input_key(d->dtype_input, sizeof d->dtype_input, k, &v, err, sizeof err);
        if (r == DTI_CLOSED)
            d->mode = DM_NORMAL;
        else if (r == DTI_REFUSED)
            dash_status(d, true, "%s", err);
        else if (r == DTI_APPLIED) {
            d->dtype_value = v;
            dash_status(d, false, "d: %.9g as each format stores it", v);
        }
        break;
    }
    case DM_EDIT:
    case DM_SAVE:
    case DM_OPEN:
    case DM_EXPORT:
        dash_prompt_key(d, k);
        break;
    case DM_CONFIRM:
        dash_files_confirm(d, k);
        break;
    case DM_PICK_MODEL:
    case DM_PICK_GPU:
        dash_pick_key(d, k);
        break;
    case DM_PLANS:
        dash_plans_key(d, k);
        break;
    }
    return true;
}
