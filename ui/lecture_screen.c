/* lecture_screen.c - a lecture step's screen: its panels, sliders and caption box. */
#include "lecture_screen.h"

#include <stdio.h>
#include <string.h>

#include "numfmt.h"
#include "widgets.h"

static const char *const extra_names[LP_COUNT] = {"dtypes", "checkpoint", "toy", "contracts"};
static const char *const std_names[LECTURE_FOCUS_PANELS] = {"memory", "compute", "roofline",
                                                            "ops"};

const struct demo_step *lecture_step_of(const struct demo *demo, int step, bool inference)
{
    if (step < 0 || step >= demo->n || inference)
        return NULL;
    const struct demo_step *st = &demo->steps[step];
    return st->n_panels > 0 || st->have_sliders ? st : NULL;
}

bool lecture_shows(const struct demo_step *st, const char *name)
{
    return st == NULL || demo_step_has_panel(st, name);
}

int lecture_sliders(const struct demo_step *st, int ids[SLIDER_MAX])
{
    int n = 0;
    if (st == NULL || !st->have_sliders) {
        for (int i = 0; i < slider_count(); i++)
            ids[n++] = i;
        return n;
    }
    for (int k = 0; k < st->n_sliders && n < SLIDER_MAX; k++) {
        int id = slider_find(st->sliders[k]);
        if (id >= 0)
            ids[n++] = id;
    }
    return n;
}

int lecture_slider_geom(const struct demo_step *st, int focus, struct rect r,
                        struct slider_geom *g, int ids[SLIDER_MAX], int *pos)
{
    int n = lecture_sliders(st, ids);
    *pos = n;
    for (int i = 0; i < n; i++)
        if (ids[i] == focus)
            *pos = i;
    /* A panel's focus (or a slider not listed) scrolls the list to its end, as layout_sliders
     * does for the panels after the sliders. */
    layout_sliders(r, *pos, n, g);
    return n;
}

bool lecture_focusable(const struct demo_step *st, int f)
{
    if (f >= slider_count() && f < SLIDER_MAX)
        return false; /* no slider: the ids past the last one up to the panels' */
    if (st == NULL)
        return true;
    if (f >= SLIDER_MAX)
        return f < SLIDER_MAX + LECTURE_FOCUS_PANELS && lecture_shows(st, std_names[f - SLIDER_MAX]);
    int ids[SLIDER_MAX], n = lecture_sliders(st, ids);
    for (int i = 0; i < n; i++)
        if (ids[i] == f)
            return true;
    return false;
}

int lecture_caption(const struct demo *demo, int step, bool answer_shown, char *head,
                    size_t head_n, char *ans, size_t ans_n, const char *texts[2])
{
    if (step < 0 || step >= demo->n)
        return 0;
    const struct demo_step *st = &demo->steps[step];
    snprintf(head, head_n, "Step %d/%d%s%s", step + 1, demo->n, st->title[0] ? " " : "",
             st->title);
    texts[0] = st->caption;
    if (!st->answer[0])
        return 1;
    if (answer_shown)
        snprintf(ans, ans_n, "Answer: %s", st->answer);
    else
        snprintf(ans, ans_n, "(a shows the answer)");
    texts[1] = ans;
    return 2;
}

/* Rows a panel wants at width w (0: what is left). */
static int panel_rows(const struct demo_step *st, const char *name, int w, int n_ops)
{
    if (strcmp(name, "memory") == 0)
        return LAYOUT_MEMORY_ROWS;
    if (strcmp(name, "compute") == 0) {
        int per_row = (w - 1) / LAYOUT_ITEM_WIDTH;
        per_row = per_row < 1 ? 1 : per_row;
        return 1 + (LAYOUT_COMPUTE_FIGURES + per_row - 1) / per_row;
    }
    if (strcmp(name, "dtypes") == 0)
        return 3 + NF_COUNT; /* header, column heads, a row a format, the nvfp4 note */
    if (strcmp(name, "toy") == 0)
        return st->toy == DEMO_TOY_OPTIMIZER ? 7 : 6;
    if (strcmp(name, "ops") == 0)
        return LAYOUT_OPS_HEAD_ROWS + n_ops;
    if (strcmp(name, "contracts") == 0)
        return 3 + n_ops; /* header, column heads, an operation a row, the letters' key */
    return 0;
}

static struct rect *panel_rect(struct layout *L, struct rect *extra, const char *name)
{
    for (int i = 0; i < LECTURE_FOCUS_PANELS; i++)
        if (strcmp(name, std_names[i]) == 0)
            return &L->r[P_MEMORY + i];
    for (int i = 0; i < LP_COUNT; i++)
        if (strcmp(name, extra_names[i]) == 0)
            return &extra[i];
    return NULL;
}

/* The step's panels stacked in [x, x + w) x [y, y + h): each fixed one its rows (as far as
 * they go), the others (roofline, checkpointing) share what is left. */
static void stack_panels(const struct demo_step *st, int n_ops, struct layout *L,
                         struct rect *extra, int x, int y, int w, int h)
{
    int want[DEMO_LIST_MAX], fixed = 0, flex = 0;
    for (int i = 0; i < st->n_panels; i++) {
        want[i] = panel_rows(st, st->panels[i], w, n_ops);
        if (want[i] > 0)
            fixed += want[i];
        else
            flex++;
    }
    int spare = h - fixed, at = y;
    for (int i = 0; i < st->n_panels && at < y + h; i++) {
        int ph = want[i];
        if (ph <= 0)
            ph = spare > 0 ? spare / flex : 0;
        if (at + ph > y + h || (i == st->n_panels - 1 && want[i] <= 0))
            ph = y + h - at;
        struct rect *r = panel_rect(L, extra, st->panels[i]);
        if (r != NULL && ph > 0)
            *r = (struct rect){x, at, w, ph};
        at += ph;
    }
}

void lecture_layout(const struct demo *demo, int step, bool answer_shown, int n_ops, int cols,
                    int rows, struct layout *L, struct rect extra[LP_COUNT])
{
    struct rect scratch[LP_COUNT];
    if (extra == NULL)
        extra = scratch;
    memset(L, 0, sizeof *L);
    memset(extra, 0, sizeof scratch);
    if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
        L->too_small = true;
        return;
    }
    const struct demo_step *st = lecture_step_of(demo, step, false);
    if (st == NULL)
        return;
    L->r[P_TITLE] = (struct rect){0, 0, cols, 1};
    L->r[P_STATUS] = (struct rect){0, rows - 1, cols, 1};
    L->r[P_EXPLAIN] = (struct rect){0, rows - 2, cols, 1};
    char head[200], ans[DEMO_TEXT_MAX + 16];
    const char *texts[2];
    int nt = lecture_caption(demo, step, answer_shown, head, sizeof head, ans, sizeof ans, texts);
    /* The text area: the box (a cell in from the screen's sides) less its rules and a
     * margin; widget_wrap writes from r.x + 1 in r.w - 2 cells. */
    struct rect tr = {2, 0, cols - 4, 1};
    int lines = nt ? widget_wrap(NULL, tr, texts, nt, 0, 0) : 0;
    int ch = lines < DEMO_CAPTION_ROWS ? lines : DEMO_CAPTION_ROWS;
    int bottom = rows - 2;
    if (ch > 0) {
        L->r[P_CAPTION] = (struct rect){2, bottom - ch - 1, cols - 4, ch};
        bottom -= ch + 2;
    }
    int body_y = 1, body_h = bottom - body_y;
    int ids[SLIDER_MAX], ns = lecture_sliders(st, ids), rx = 0;
    if (ns > 0) {
        int sw = cols / 4 < 34 ? 34 : cols / 4 > 46 ? 46 : cols / 4;
        L->r[P_SLIDERS] = (struct rect){0, body_y, sw, ns + 1 < body_h ? ns + 1 : body_h};
        if (st->n_panels > 0) {
            L->vrule_x[0] = sw;
            L->vrule[0] = (struct rect){sw, body_y, 1, body_h};
            L->n_vrules = 1;
            rx = sw + 1;
        }
    }
    int w = cols - rx;
    if (st->n_panels == 2 && w >= 2 * 50 + 1) {
        /* Two panels on a wide screen: side by side, each the body's height. */
        int lw = (w - 1) / 2;
        struct rect *a = panel_rect(L, extra, st->panels[0]);
        struct rect *b = panel_rect(L, extra, st->panels[1]);
        if (a != NULL && b != NULL) {
            *a = (struct rect){rx, body_y, lw, body_h};
            *b = (struct rect){rx + lw + 1, body_y, w - lw - 1, body_h};
            L->vrule_x[L->n_vrules] = rx + lw;
            L->vrule[L->n_vrules] = (struct rect){rx + lw, body_y, 1, body_h};
            L->n_vrules++;
            return;
        }
    }
    if (st->n_panels > 0)
        stack_panels(st, n_ops, L, extra, rx, body_y, w, body_h);
}
