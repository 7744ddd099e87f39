/* contracts_panel.c - the operations as einsum contracts. */
#include "contracts_panel.h"

#include <stdio.h>
#include <string.h>

#include "op_contract.h"
#include "units.h"
#include "widgets.h"

/* One row of the panel: the operations (by index in the table) sharing one contract. */
struct crow {
    int first, n;
    char names[64];
};

/* The rows, one per operation; when they do not fit in `room` rows, the operations whose
 * contracts are the same share one (norm and final_norm, mlp_up and mlp_gate), so that every
 * operation stays on screen at 80 x 24. Returns the rows. */
static int contract_rows(const struct analysis *a, bool gated, int room, struct crow *rows)
{
    bool merge = a->n_ops > room;
    int n = 0;
    for (int k = 0; k < a->n_ops; k++) {
        bool mm;
        const char *c = op_contract(a->ops[k].kind, gated, &mm);
        const char *name = a->ops[k].name ? a->ops[k].name : "?";
        int j = 0;
        while (merge && j < n && strcmp(op_contract(a->ops[rows[j].first].kind, gated, &mm), c) != 0)
            j++;
        if (merge && j < n && strlen(rows[j].names) + strlen(name) + 3 < sizeof rows[j].names) {
            strcat(rows[j].names, ", ");
            strcat(rows[j].names, name);
            rows[j].n++;
            continue;
        }
        rows[n].first = k;
        rows[n].n = 1;
        snprintf(rows[n].names, sizeof rows[n].names, "%s", name);
        n++;
    }
    return n;
}

void contracts_panel_draw(const struct dash *d, struct screen *s, struct rect r)
{
    const struct analysis *a = &d->ev.an;
    widget_header(s, &d->cs, r, "Operations as einsum contracts", "forward, one layer", false);
    int y = r.y + 1, end = r.y + r.h;
    bool gated = model_mlp_gated(d->sc.model.mlp);
    struct crow rows[ANALYSIS_MAX_OPS];
    int n = contract_rows(a, gated, r.h - 3, rows), wide = 12;
    for (int k = 0; k < n; k++)
        if ((int)strlen(rows[k].names) > wide)
            wide = (int)strlen(rows[k].names);
    char line[200];
    if (y < end) {
        snprintf(line, sizeof line, "%-*s %-37s %s", wide, "op", "contract", "FLOPs");
        screen_label(s, r.x + 1, y++, r.w - 2, line, E_DIM);
    }
    for (int k = 0; k < n && y < end - 1; k++, y++) {
        bool mm;
        enum op_kind kind = a->ops[rows[k].first].kind;
        const char *c = op_contract(kind, gated, &mm);
        snprintf(line, sizeof line, "%-*s %-37s %s", wide, rows[k].names, c,
                 mm ? "2 x all dims" : kind == OP_FLASH_ATTN ? "fused" : "per element");
        screen_label(s, r.x + 1, y, r.w - 2, line, mm ? E_VALUE : E_NORMAL);
    }
    /* The names' key, shorter where the full one does not fit (80 x 24). */
    const char *key = "b seqs s tokens t keys h d_model a heads d head e qkv c a*d f mlp v vocab p params";
    if (screen_width(key) > r.w - 2)
        key = "b seq s token t key h d_model a head d size e qkv c a*d f mlp v vocab p param";
    if (y < end)
        screen_label(s, r.x + 1, y, r.w - 2, key, E_DIM);
}
