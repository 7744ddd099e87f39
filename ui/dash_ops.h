/* dash_ops.h - the operations table on the dashboard: t shows it (or gives it the focus), its
 * arrows, pages and the wheel scroll it. */
#ifndef ROOFTOP_UI_DASH_OPS_H
#define ROOFTOP_UI_DASH_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* Scrolls the operations table by delta rows (whole pages with page); false when the table
 * is not on screen. */
bool dash_ops_scroll(struct dash *d, int delta, bool page);
/* t: the operations table in the roofline's slot, or back; the focus on it. */
void dash_ops_toggle(struct dash *d);
/* Keys of the operations table when it has the focus; false when k is not one of them. */
bool dash_ops_key(struct dash *d, uint32_t k);

#endif
