/* contracts_panel.c - the operations as einsum contracts. */
#include "contracts_panel.h"

#include <stdio.h>

#include "op_contract.h"
#include "units.h"
#include "widgets.h"

void contracts_panel_draw(const struct dash *d, struct screen *s, struct rect r)
{
    const struct analysis *a = &d->ev.an;
    widget_header(s, &d->cs, r, "Operations as einsum contracts", "forward, one layer", false);
    int y = r.y + 1, end = r.y + r.h;
    if (y < end)
        screen_label(s, r.x + 1, y++, r.w - 2, "op           contract                              FLOPs",
                     E_DIM);
    bool gated = model_mlp_gated(d->sc.model.mlp);
    for (int k = 0; k < a->n_ops && y < end - 1; k++, y++) {
        bool mm;
        const char *c = op_contract(a->ops[k].kind, gated, &mm);
        char line[160];
        snprintf(line, sizeof line, "%-12s %-37s %s", a->ops[k].name ? a->ops[k].name : "?", c,
                 mm ? "2 x all dims" : a->ops[k].kind == OP_FLASH_ATTN ? "fused" : "per element");
        screen_label(s, r.x + 1, y, r.w - 2, line, mm ? E_VALUE : E_NORMAL);
    }
    if (y < end)
        screen_label(s, r.x + 1, y, r.w - 2,
                     "b seqs s tokens t keys h d_model a heads d head e q/k/v c a*d f mlp v vocab",
                     E_DIM);
}
