/* lecture_view.c - a lecture step's screen drawn: the caption box and the lecture panels. */
#include "lecture_view.h"

#include <stdio.h>
#include <string.h>

#include "checkpoint_panel.h"
#include "contracts_panel.h"
#include "dtypes_panel.h"
#include "toy_panel.h"
#include "widgets.h"

const struct demo_step *lecture_view_step(const struct dash *d)
{
    return lecture_step_of(&d->demo, d->step, d->inf.on);
}

bool lecture_view_shows(const struct dash *d, const char *name)
{
    return lecture_shows(lecture_view_step(d), name);
}

int lecture_view_sliders(const struct dash *d, int ids[SLIDER_MAX])
{
    return lecture_sliders(lecture_view_step(d), ids);
}

int lecture_view_slider_geom(const struct dash *d, struct rect r, struct slider_geom *g,
                             int ids[SLIDER_MAX], int *pos)
{
    return lecture_slider_geom(lecture_view_step(d), d->focus, r, g, ids, pos);
}

void lecture_view_layout(const struct dash *d, int cols, int rows, struct layout *L,
                         struct rect extra[LP_COUNT])
{
    lecture_layout(&d->demo, d->step, d->answer_shown, d->ev.an.n_ops, cols, rows, L, extra);
}

void lecture_view_draw_caption(const struct dash *d, struct screen *s, struct rect r)
{
    char head[200], ans[DEMO_TEXT_MAX + 16];
    const char *texts[2];
    int nt = lecture_caption(&d->demo, d->step, d->answer_shown, head, sizeof head, ans,
                             sizeof ans, texts);
    if (rect_empty(r) || nt == 0)
        return;
    struct rect in = widget_box(s, &d->cs, r.x - 1, r.y - 1, r.w + 2, r.h + 2, head);
    if (rect_empty(in))
        return;
    screen_fill(s, in, ' ', E_CAPTION);
    int lines = widget_wrap(NULL, r, texts, nt, 0, 0);
    int skip = lines > r.h && d->caption_line < lines ? d->caption_line : 0;
    widget_wrap(s, r, texts, nt, skip, E_CAPTION);
    /* The keys on the bottom rule, at its right end. */
    char keys[64];
    if (lines > r.h)
        snprintf(keys, sizeof keys, " c more %d/%d  n next  p back ", skip / r.h + 1,
                 (lines + r.h - 1) / r.h);
    else
        snprintf(keys, sizeof keys, " n next  p back ");
    int kw = screen_width(keys);
    screen_text(s, r.x + r.w - kw - 1, r.y + r.h, kw, keys, E_OVERLAY);
}

void lecture_view_draw_extras(const struct dash *d, struct screen *s)
{
    if (lecture_view_step(d) == NULL)
        return;
    struct layout L;
    struct rect extra[LP_COUNT];
    lecture_view_layout(d, s->cols, s->rows, &L, extra);
    if (L.too_small)
        return;
    if (!rect_empty(extra[LP_DTYPES]))
        dtypes_panel_draw(d, s, extra[LP_DTYPES]);
    if (!rect_empty(extra[LP_CHECKPOINT]))
        checkpoint_panel_draw(d, s, extra[LP_CHECKPOINT]);
    if (!rect_empty(extra[LP_TOY]))
        toy_panel_draw(d, s, extra[LP_TOY]);
    if (!rect_empty(extra[LP_CONTRACTS]))
        contracts_panel_draw(d, s, extra[LP_CONTRACTS]);
}
