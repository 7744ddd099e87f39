/* dash_infer.c - the inference view's keys (i): its sliders, and back to training. */
#include "dash_infer.h"

#include "dash_demo.h"

/* Keys of the inference view: its sliders, i back to training, and the keys that do not
 * depend on the view. */
void dash_infer_key(struct dash *d, uint32_t k)
{
    struct infer_ui *u = &d->inf;
    char err[DASH_STATUS_MAX];
    err[0] = '\0';
    int delta = 0;
    bool end = false;
    switch (k) {
    case 'q':
    case 'Q':
        d->quit = true;
        return;
    case 'i':
        u->on = false;
        dash_status(d, false, "training view (i: inference)");
        return;
    /* The demo steps on from here too: a demo may show inference (specs/scenarios/
     * inference.json). */
    case 'n':
    case 'p':
        dash_demo_step(d, k == 'n' ? 1 : -1);
        return;
    case 'c':
        dash_demo_caption_next(d);
        return;
    case '?':
    case UK_F1:
        d->mode = DM_HELP;
        return;
    case 't':
        d->show_ops = !d->show_ops;
        return;
    case UK_UP:
    case 'k':
    case UK_BTAB:
        u->focus = (u->focus + IS_COUNT - 1) % IS_COUNT;
        return;
    case UK_DOWN:
    case 'j':
    case UK_TAB:
        u->focus = (u->focus + 1) % IS_COUNT;
        return;
    case UK_LEFT:
    case UK_SLEFT:
    case 'h':
        delta = -1;
        break;
    case UK_RIGHT:
    case UK_SRIGHT:
    case 'l':
        delta = 1;
        break;
    case UK_PGUP:
    case UK_PGDN:
        delta = k == UK_PGUP ? 3 : -3;
        break;
    case UK_HOME:
    case UK_END:
        delta = k == UK_END ? 1 : -1;
        end = true;
        break;
    default:
        dash_status(d, false, "inference view: arrows change the inputs, i goes back to training");
        return;
    }
    if (!infer_ui_move(u, &d->presets, u->focus, delta, end, err, sizeof err) && err[0])
        dash_status(d, true, "%s", err);
}
