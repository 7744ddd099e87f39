/* toy_panel.c - the lecture's toy examples: gradient accumulation and the optimizer's bytes. */
#include "toy_panel.h"

#include <stdio.h>
#include <string.h>

#include "memory.h"
#include "widgets.h"

int toy_panel_rows(const struct demo_step *st)
{
    return st->toy == DEMO_TOY_OPTIMIZER ? 7 : 6;
}

/* A whole number with thousands separators, as the lecture writes its bytes: 2,097,152. */
static void grouped(double v, char *buf, size_t n)
{
    char digits[40];
    snprintf(digits, sizeof digits, "%.0f", v);
    size_t len = strlen(digits), o = 0;
    for (size_t i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0 && digits[0] != '-')
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

static void accumulation(const struct demo_step *st, struct screen *s, struct rect r)
{
    struct memory whole, micro;
    memory_toy_mlp(st->toy_B, st->toy_D, st->toy_L, DTYPE_BF16, 1, &whole);
    memory_toy_mlp(st->toy_micro, st->toy_D, st->toy_L, DTYPE_BF16, 1, &micro);
    char line[4][200], wb[40], mb[40];
    grouped(whole.row[MEM_ACTIVATIONS].bytes, wb, sizeof wb);
    grouped(micro.row[MEM_ACTIVATIONS].bytes, mb, sizeof mb);
    snprintf(line[0], sizeof line[0], "activations, batch %.0f:  2 B D L = 2 x %.0f x %.0f x %.0f = %s bytes",
             st->toy_B, st->toy_B, st->toy_D, st->toy_L, wb);
    snprintf(line[1], sizeof line[1], "micro-batch %.0f:          2 x %.0f x %.0f x %.0f = %s bytes",
             st->toy_micro, st->toy_micro, st->toy_D, st->toy_L, mb);
    double steps = st->toy_B / st->toy_micro;
    snprintf(line[2], sizeof line[2], "%.4g accumulation steps of %.0f: activations / %.4g", steps,
             st->toy_micro, steps);
    /* Each example passes forward and backward once either way: 6 x params x examples. */
    double params = whole.row[MEM_PARAMS].elements;
    snprintf(line[3], sizeof line[3], "FLOPs of the batch, either way: 6 x %.0f params x %.0f = %.4g",
             params, st->toy_B, 6.0 * params * st->toy_B);
    for (int i = 0; i < 4 && i + 1 < r.h; i++)
        screen_label(s, r.x + 1, r.y + 1 + i, r.w - 2, line[i], i < 2 ? E_VALUE : E_NORMAL);
}

static void optimizer(const struct demo_step *st, struct screen *s, struct rect r)
{
    struct memory m;
    memory_toy_mlp(st->toy_B, st->toy_D, st->toy_L, DTYPE_BF16, 1, &m);
    static const struct {
        int row;
        const char *name, *count;
    } rows[] = {{MEM_PARAMS, "parameters", "D x D x L"},
                {MEM_GRADS, "gradients", "one per parameter"},
                {MEM_OPTIMIZER, "optimizer", "one state each"},
                {MEM_ACTIVATIONS, "activations", "B x D x L"}};
    int y = r.y + 1;
    for (int i = 0; i < 4 && y < r.y + r.h; i++, y++) {
        const struct mem_row *w = &m.row[rows[i].row];
        char line[160];
        snprintf(line, sizeof line, "%-12s %-16s %6.0f  %-5s %6.0f B", rows[i].name, rows[i].count,
                 w->elements, dtype_name(w->dtype), w->bytes);
        screen_label(s, r.x + 1, y, r.w - 2, line, E_NORMAL);
    }
    char line[160];
    snprintf(line, sizeof line, "%-12s %-16s %6s  %-5s %6.0f B", "total", "", "", "", m.total);
    if (y < r.y + r.h)
        screen_label(s, r.x + 1, y, r.w - 2, line, E_VALUE);
}

void toy_panel_draw(const struct dash *d, struct screen *s, struct rect r)
{
    const struct demo_step *st = &d->demo.steps[d->step];
    char title[160];
    snprintf(title, sizeof title, "The lecture's toy: %.0f linear layers of %.0f x %.0f, batch %.0f",
             st->toy_L, st->toy_D, st->toy_D, st->toy_B);
    widget_header(s, &d->cs, r, title, NULL, false);
    if (st->toy == DEMO_TOY_ACCUMULATION)
        accumulation(st, s, r);
    else
        optimizer(st, s, r);
}
