/* contracts_panel.h - the operations table's operations as einsum contracts (src/
 * op_contract.c), a lecture step's "contracts" panel: each one's named-dimension contract and
 * how its FLOPs follow (2 x the product of its dimensions for a matmul). */
#ifndef ROOFTOP_UI_CONTRACTS_PANEL_H
#define ROOFTOP_UI_CONTRACTS_PANEL_H

#include "dash.h"
#include "screen.h"

void contracts_panel_draw(const struct dash *d, struct screen *s, struct rect r);

#endif
