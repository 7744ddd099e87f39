/* dash_mouse.c - the mouse: clicks, drags and the wheel on sliders, panels and lists. */
#include "dash_mouse.h"

#include "dash_demo.h"
#include "dash_ops.h"
#include "dash_pick.h"
#include "dash_plans.h"
#include "dash_slider.h"
#include "lecture_screen.h"

static bool in_rect(struct rect r, int x, int y)
{
    return !rect_empty(r) && x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

void dash_mouse_event(struct dash *d, const struct event *ev)
{
    if (d->mode == DM_HELP) {
        if (ev->mouse == MOUSE_PRESS)
            d->mode = DM_NORMAL;
        return;
    }
    if (d->mode == DM_PLANS) {
        if (ev->mouse == MOUSE_WHEEL_UP)
            dash_plans_key(d, UK_UP);
        else if (ev->mouse == MOUSE_WHEEL_DOWN)
            dash_plans_key(d, UK_DOWN);
        return;
    }
    if (d->mode == DM_PICK_MODEL || d->mode == DM_PICK_GPU) {
        if (ev->mouse == MOUSE_WHEEL_UP)
            dash_pick_key(d, UK_UP);
        else if (ev->mouse == MOUSE_WHEEL_DOWN)
            dash_pick_key(d, UK_DOWN);
        return;
    }
    /* The inference view takes keys only. */
    if (d->mode != DM_NORMAL || d->inf.on)
        return;
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    if (L.too_small)
        return;
    struct rect sr = L.r[P_SLIDERS];
    struct slider_geom g;
    int ids[SLIDER_MAX], pos;
    lecture_slider_geom(lecture_step_of(&d->demo, d->step, d->inf.on), d->focus, sr, &g, ids,
                        &pos);
    int row = ev->y - g.y0;
    int id = in_rect(sr, ev->x, ev->y) && row >= 0 && row < g.count ? ids[g.first + row] : -1;
    double frac = g.track_w > 1 ? (double)(ev->x - g.track_x) / (g.track_w - 1) : 0;
    bool on_track = ev->x >= g.track_x && ev->x < g.track_x + g.track_w;

    switch (ev->mouse) {
    case MOUSE_PRESS:
        if (id >= 0) {
            d->focus = id;
            if (on_track) {
                d->drag = id;
                dash_slider_move(d, id, 0, 2, frac);
            }
            return;
        }
        for (int p = P_MEMORY; p <= P_OPS; p++)
            if (in_rect(L.r[p], ev->x, ev->y))
                d->focus = FOCUS_MEMORY + (p - P_MEMORY);
        break;
    case MOUSE_DRAG:
        if (d->drag >= 0)
            dash_slider_move(d, d->drag, 0, 2, frac);
        break;
    case MOUSE_RELEASE:
        d->drag = -1;
        break;
    case MOUSE_WHEEL_UP:
    case MOUSE_WHEEL_DOWN:
        if (id >= 0) {
            d->focus = id;
            dash_slider_move(d, id, ev->mouse == MOUSE_WHEEL_UP ? 1 : -1, 0, 0);
        } else if (in_rect(L.r[P_OPS], ev->x, ev->y)) {
            dash_ops_scroll(d, ev->mouse == MOUSE_WHEEL_UP ? -1 : 1, false);
        } else if (in_rect(L.r[P_CAPTION], ev->x, ev->y) && ev->mouse == MOUSE_WHEEL_DOWN) {
            dash_demo_caption_next(d);
        }
        break;
    }
}
