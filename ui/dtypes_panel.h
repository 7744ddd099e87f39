/* dtypes_panel.h - the number formats' table on the dashboard (key d, or a lecture step's
 * "dtypes" panel): bits, range and epsilon of fp32 .. nvfp4 and a typed value as each stores
 * it. The table is src/numfmt_table.c's, as `rooftop dtypes` prints it. */
#ifndef ROOFTOP_UI_DTYPES_PANEL_H
#define ROOFTOP_UI_DTYPES_PANEL_H

#include "dash.h"
#include "screen.h"

/* Rows the panel needs: its header, the column heads, one row per format, the nvfp4 note. */
int dtypes_panel_rows(void);
/* The panel in r. */
void dtypes_panel_draw(const struct dash *d, struct screen *s, struct rect r);
/* The d key's box over the screen, with the value being typed. */
void dtypes_panel_overlay(const struct dash *d, struct screen *s);

#endif
