/* checkpoint_panel.c - memory and recompute against the checkpoint interval: the report's
 * rows memory.checkpoint.* (src/report.c), laid out; the panel computes none of its own. */
#include "checkpoint_panel.h"

#include <stdio.h>
#include <string.h>

#include "figure.h"
#include "report.h"
#include "units.h"
#include "widgets.h"

static const char *const SIZE_KEYS[] = {
    "memory.checkpoint.layers",      "memory.checkpoint.layer_stored",
    "memory.checkpoint.layer_input", "memory.checkpoint.stored_times_input",
    "memory.checkpoint.best_k",      "memory.checkpoint.sqrt_layers",
    "memory.activations_outside"};

bool checkpoint_panel_sizes(const struct dash *d, struct checkpoint_sizes *o)
{
    static const struct figure *rows[CS_COUNT];
    struct figure_value v[CS_COUNT];
    _Static_assert(sizeof SIZE_KEYS / sizeof SIZE_KEYS[0] == CS_COUNT, "a key per size");
    bool ok = report_figures_by_key(&d->ev, SIZE_KEYS, CS_COUNT, rows, v);
    for (int i = 0; i < CS_COUNT; i++)
        o->x[i] = ok && v[i].kind == FK_NUM ? v[i].num : 0;
    return ok;
}

static const char *const CURVE_COLS[CC_COLS] = {"kind",    "k",          "sqrt_l",
                                                "checkpoints", "memory", "recompute",
                                                "current", "toy_memory", "toy_recompute"};

int checkpoint_panel_curve(const struct dash *d, struct checkpoint_line *out, int max)
{
    static const struct figure *col[CC_COLS];
    enum { MAXR = 24 };
    struct figure_pick pick[MAXR * CC_COLS];
    struct figure_value v[MAXR * CC_COLS];
    bool shown[MAXR * CC_COLS];
    if (max > MAXR)
        max = MAXR;
    for (int c = 0; c < CC_COLS; c++) {
        char key[64];
        snprintf(key, sizeof key, "memory.checkpoint.curve[].%s", CURVE_COLS[c]);
        if (figure_find_once(report_table(), key, &col[c]) == NULL)
            return 0;
    }
    for (int i = 0; i < max; i++)
        for (int c = 0; c < CC_COLS; c++)
            pick[i * CC_COLS + c] = (struct figure_pick){col[c], i};
    report_figures(&d->ev, pick, max * CC_COLS, v, shown);
    int n = 0;
    for (; n < max && v[n * CC_COLS].kind == FK_STR; n++) {
        const struct figure_value *r = &v[n * CC_COLS];
        struct checkpoint_line *w = &out[n];
        snprintf(w->kind, sizeof w->kind, "%s", r[CC_KIND].str);
        w->sqrt_l = r[CC_SQRT_L].b;
        w->current = r[CC_CURRENT].b;
        for (int c = CC_K; c < CC_COLS; c++)
            w->x[c] = r[c].kind == FK_NUM ? r[c].num : 0;
    }
    return n;
}

/* A row's name in the panel: "store all", "none", "k=4", "k=6 sqrtL". */
static void line_name(const struct checkpoint_line *w, char *buf, size_t n)
{
    if (strcmp(w->kind, "all") == 0)
        snprintf(buf, n, "store all");
    else if (strcmp(w->kind, "none") == 0)
        snprintf(buf, n, "none");
    else
        snprintf(buf, n, "k=%.0f%s", w->x[CC_K], w->sqrt_l ? " sqrtL" : "");
}

void checkpoint_panel_draw(const struct dash *d, struct screen *s, struct rect r)
{
    struct checkpoint_sizes z;
    checkpoint_panel_sizes(d, &z);
    char title[128];
    snprintf(title, sizeof title, "Checkpointing %.0f layers: A = %.1f%s I", z.x[CS_LAYERS],
             z.x[CS_RATIO], d->cs.times);
    widget_header(s, &d->cs, r, title, "layers' activations", false);
    struct checkpoint_line rows[24];
    int n = checkpoint_panel_curve(d, rows, 24);
    int y = r.y + 1, end = r.y + r.h;
    if (y < end)
        screen_label(s, r.x + 1, y++, r.w - 2, "interval   memory re-run | toy: mem re-run", E_DIM);
    for (int i = 0; i < n && y < end - 2; i++, y++) {
        const struct checkpoint_line *w = &rows[i];
        char name[24], mem[24], line[160];
        line_name(w, name, sizeof name);
        units_bytes(w->x[CC_MEMORY], mem, sizeof mem);
        bool none = strcmp(w->kind, "none") == 0;
        snprintf(line, sizeof line, "%-9s %8s %5.0f | %4.0f I %4.0f%s", name, mem,
                 w->x[CC_RECOMPUTE], w->x[CC_TOY_MEMORY], w->x[CC_TOY_RECOMPUTE],
                 none ? " L^2" : w->current ? " <-" : "");
        screen_label(s, r.x + 1, y, r.w - 2, line, w->current ? E_VALUE : E_NORMAL);
    }
    /* "none" holds less than any interval (at O(L^2) re-runs): the least is of the k rows.
     * The memory panel's activations add the part outside the layers to each row. */
    char note[3][160], out[24];
    snprintf(note[0], sizeof note[0], "least of the k rows at sqrt(L I / A) = %.1f",
             z.x[CS_BEST_K]);
    snprintf(note[1], sizeof note[1], "sqrt(L) = %.1f: the best k when A = I (toy)",
             z.x[CS_SQRT_L]);
    units_bytes(z.x[CS_OUTSIDE], out, sizeof out);
    snprintf(note[2], sizeof note[2], "each memory + %s outside the layers", out);
    for (int i = 0; i < 3 && y < end; i++, y++)
        screen_label(s, r.x + 1, y, r.w - 2, note[i], E_DIM);
}
