/* figure_table.h - the short names a table of figures (src/figure.h) and its getters are
 * written with. Included only by the files that define such a table, after figure.h. */
#ifndef ROOFTOP_FIGURE_TABLE_H
#define ROOFTOP_FIGURE_TABLE_H

#include "figure.h"

#define VALUE .entry = FE_VALUE
#define DATA .out = FO_DATA
#define PROSE .out = FO_PROSE
#define PANEL .out = FO_PANEL
#define END {.entry = FE_END}
#define SECTION(l, w) {.entry = FE_SECTION, .label = l, .width = w}

/* A getter's parameters it does not read. */
#define UNUSED_ITEM (void)item
#define UNUSED_ARG (void)arg

#endif
