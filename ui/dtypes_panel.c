/* dtypes_panel.c - the number formats' table as a panel and as the d key's box. */
#include "dtypes_panel.h"

#include <math.h>
#include <stdio.h>

#include "numfmt_table.h"
#include "widgets.h"

int dtypes_panel_rows(void)
{
    return 3 + NF_COUNT;
}

/* The rows into r from its top: column heads, formats with the value stored, the note. */
static void draw_rows(const struct dash *d, struct screen *s, struct rect r)
{
    char line[256], head[160], v[32];
    numfmt_table_head(head, sizeof head);
    numfmt_table_figure(d->dtype_value, v, sizeof v);
    snprintf(line, sizeof line, "%s  %s ->", head, v);
    int y = r.y;
    screen_label(s, r.x, y++, r.w, line, E_DIM);
    for (int i = 0; i < NF_COUNT && y < r.y + r.h; i++, y++) {
        char row[160], note[256], st[32];
        numfmt_table_row((enum numfmt_id)i, row, sizeof row);
        double got = numfmt_table_store((enum numfmt_id)i, d->dtype_value, 6, note, sizeof note);
        if (isfinite(got) && got != 0 && fabs(got) < 1e6 && fabs(got) >= 1e-3)
            snprintf(st, sizeof st, "%.6g", got);
        else if (isfinite(got) && got != 0)
            snprintf(st, sizeof st, "%.4g", got);
        else
            numfmt_table_figure(got, st, sizeof st);
        snprintf(line, sizeof line, "%s  %s", row, st);
        screen_label(s, r.x, y, r.w, line, got == d->dtype_value ? E_NORMAL : E_VALUE);
    }
    if (y < r.y + r.h)
        screen_label(s, r.x, y, r.w,
                     "nvfp4: E2M1 values +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}, one E4M3 scale per 16",
                     E_DIM);
}

void dtypes_panel_draw(const struct dash *d, struct screen *s, struct rect r)
{
    widget_header(s, &d->cs, r, "Number formats", "d: type a value", false);
    if (r.h > 1)
        draw_rows(d, s, (struct rect){r.x + 1, r.y + 1, r.w - 2, r.h - 1});
}

void dtypes_panel_overlay(const struct dash *d, struct screen *s)
{
    int w = 84, h = dtypes_panel_rows() + 3;
    struct rect in = widget_box(s, &d->cs, (s->cols - w) / 2, (s->rows - h) / 2, w, h,
                                "number formats (type a value, Enter applies, Esc closes)");
    if (rect_empty(in))
        return;
    screen_fill(s, in, ' ', E_OVERLAY);
    char line[96];
    snprintf(line, sizeof line, "value: %s", d->dtype_input);
    screen_label(s, in.x, in.y, in.w, line, E_INPUT);
    draw_rows(d, s, (struct rect){in.x, in.y + 1, in.w, in.h - 1});
}
