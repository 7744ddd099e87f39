/* widgets.c - a panel's title row, word-wrapped text, framed boxes, segment rows and stacked
 * bars' cells. */
#include "widgets.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "theme.h"

void widget_header(struct screen *s, const struct charset *cs, struct rect r, const char *title,
                   const char *right, bool focused)
{
    if (rect_empty(r))
        return;
    int el = focused ? E_FOCUS : E_HEADER;
    for (int x = r.x; x < r.x + r.w; x++)
        screen_put(s, x, r.y, cs->hline, E_HEADER);
    int x = r.x + 1;
    x += screen_label(s, x, r.y, r.w - 2, " ", el);
    x += screen_label(s, x, r.y, r.x + r.w - 1 - x, title, el);
    x += screen_label(s, x, r.y, r.x + r.w - 1 - x, " ", el);
    if (right) {
        int w = screen_width(right) + 2;
        int rx = r.x + r.w - 1 - w;
        if (rx > x + 1) {
            screen_put(s, rx, r.y, ' ', E_HEADER);
            screen_text(s, rx + 1, r.y, w - 2, right, E_HEADER);
            screen_put(s, rx + w - 1, r.y, ' ', E_HEADER);
        }
    }
}

int widget_wrap(struct screen *s, struct rect r, const char *const *texts, int n, int skip,
                int elem)
{
    if (r.w < 4 || n <= 0)
        return 0;
    int x0 = r.x + 1, end = r.x + r.w - 1, x = x0, line = 0;
    bool any = false;
    for (int t = 0; t < n; t++) {
        const char *p = texts[t] ? texts[t] : "";
        for (;;) {
            while (*p == ' ')
                p++;
            if (!*p)
                break;
            const char *sp = strchr(p, ' ');
            size_t wl = sp ? (size_t)(sp - p) : strlen(p);
            char word[512];
            snprintf(word, sizeof word, "%.*s", (int)(wl < sizeof word ? wl : sizeof word - 1), p);
            int w = screen_width(word);
            if (x + w > end && x > x0) {
                line++;
                x = x0;
            }
            int row = line - skip;
            /* A word longer than a line is shortened on its own line (a label, not a figure). */
            if (s && row >= 0 && row < r.h)
                screen_label(s, x, r.y + row, end - x, word, elem);
            x += w + 1;
            p += wl;
            any = true;
        }
    }
    return any ? line + 1 : 0;
}

struct rect widget_box(struct screen *s, const struct charset *cs, int x, int y, int w, int h,
                       const char *title)
{
    if (w > s->cols - 2)
        w = s->cols - 2;
    if (h > s->rows - 2)
        h = s->rows - 2;
    if (w < 4 || h < 3)
        return (struct rect){0, 0, 0, 0};
    if (x + w > s->cols - 1)
        x = s->cols - 1 - w;
    if (y + h > s->rows - 1)
        y = s->rows - 1 - h;
    if (x < 1)
        x = 1;
    if (y < 1)
        y = 1;
    struct rect r = {x, y, w, h};
    screen_fill(s, r, ' ', E_OVERLAY);
    for (int c = r.x; c < r.x + r.w; c++) {
        screen_put(s, c, r.y, cs->hline, E_OVERLAY);
        screen_put(s, c, r.y + r.h - 1, cs->hline, E_OVERLAY);
    }
    for (int row = r.y; row < r.y + r.h; row++) {
        screen_put(s, r.x, row, cs->vline, E_OVERLAY);
        screen_put(s, r.x + r.w - 1, row, cs->vline, E_OVERLAY);
    }
    screen_put(s, r.x, r.y, cs->tl, E_OVERLAY);
    screen_put(s, r.x + r.w - 1, r.y, cs->tr, E_OVERLAY);
    screen_put(s, r.x, r.y + r.h - 1, cs->bl, E_OVERLAY);
    screen_put(s, r.x + r.w - 1, r.y + r.h - 1, cs->br, E_OVERLAY);
    char t[96];
    snprintf(t, sizeof t, " %s ", title);
    screen_label(s, r.x + 2, r.y, r.w - 4, t, E_OVERLAY);
    return (struct rect){r.x + 2, r.y + 1, r.w - 4, r.h - 2};
}

void widget_segments(struct screen *s, int x, int y, int end, const char *const *seg,
                     const int *elems, const int *prio, int n, const char *sep, int sep_elem)
{
    bool keep[16];
    if (n > 16)
        n = 16;
    int sw = screen_width(sep), total = 0, kept = 0;
    for (int i = 0; i < n; i++) {
        keep[i] = seg[i] && seg[i][0];
        if (keep[i]) {
            total += screen_width(seg[i]);
            kept++;
        }
    }
    while (kept > 0 && total + (kept - 1) * sw > end - x) {
        int worst = -1;
        for (int i = 0; i < n; i++)
            if (keep[i] && (worst < 0 || prio[i] > prio[worst]))
                worst = i;
        keep[worst] = false;
        total -= screen_width(seg[worst]);
        kept--;
    }
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        if (!first)
            x += screen_label(s, x, y, sw, sep, sep_elem);
        x += screen_text(s, x, y, end - x, seg[i], elems[i]);
        first = false;
    }
}

void widget_title_bar(struct screen *s, const struct charset *cs, struct rect r,
                      const char *const seg[6], bool fits)
{
    screen_fill(s, r, ' ', E_TITLE);
    /* The over-capacity verdict stays red on the blue bar. */
    const int el[] = {E_TITLE, E_TITLE, E_TITLE, E_TITLE, E_TITLE, fits ? E_TITLE : E_OVER};
    static const int prio[] = {5, 2, 3, 4, 0, 1};
    char sep[16];
    snprintf(sep, sizeof sep, " %s ", cs->utf8 ? "\xE2\x94\x82" : "|");
    widget_segments(s, r.x + 1, r.y, r.x + r.w - 8, seg, el, prio, 6, sep, E_TITLE);
    screen_text_right(s, r.x + r.w - 1, r.y, 6, "? help", E_TITLE);
}

void widget_slider_row(struct screen *s, const struct charset *cs, struct rect r, int y,
                       const char *name, int name_w, int track_x, int track_w, double pos,
                       const char *value, int value_w, bool focused)
{
    if (focused)
        screen_fill(s, (struct rect){r.x, y, r.w, 1}, ' ', E_FOCUS);
    screen_label(s, r.x + 1, y, name_w, name, focused ? E_FOCUS : E_LABEL);
    if (track_w >= 3) {
        int k = (int)lround(pos * (track_w - 1));
        for (int t = 0; t < track_w; t++) {
            uint32_t ch = t < k ? cs->track_fill : t == k ? cs->knob : cs->track;
            screen_put(s, track_x + t, y, ch, t == k ? E_KNOB : t < k ? E_TRACK : E_DIM);
        }
    }
    screen_text_right(s, r.x + r.w - 1, y, value_w, value, focused ? E_FOCUS : E_VALUE);
}

void widget_vrules(struct screen *s, const struct charset *cs, const struct layout *L)
{
    for (int i = 0; i < L->n_vrules; i++)
        for (int y = L->vrule[i].y; y < L->vrule[i].y + L->vrule[i].h; y++)
            screen_put(s, L->vrule[i].x, y, cs->vline, E_HEADER);
}

/* The parts' cells (widgets.h); the largest remainders get the cells rounding left. */
void widget_bar_split(const double *value, int n, double total, double scale, int w, int *cells)
{
    double want[WIDGET_BAR_PARTS];
    if (n > WIDGET_BAR_PARTS)
        n = WIDGET_BAR_PARTS;
    int used = 0;
    for (int i = 0; i < n; i++) {
        want[i] = scale > 0 ? value[i] / scale * w : 0;
        cells[i] = (int)floor(want[i]);
        if (value[i] > 0 && cells[i] == 0)
            cells[i] = 1;
        used += cells[i];
    }
    int target = (int)lround(scale > 0 ? total / scale * w : 0);
    if (target > w)
        target = w;
    while (used < target) {
        int best = 0;
        for (int i = 1; i < n; i++)
            if (want[i] - cells[i] > want[best] - cells[best])
                best = i;
        cells[best]++;
        used++;
    }
    while (used > w) {
        int big = 0;
        for (int i = 1; i < n; i++)
            if (cells[i] > cells[big])
                big = i;
        cells[big]--;
        used--;
    }
}
