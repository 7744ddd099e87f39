/* dash_pick.h - the model (m) and GPU (g) pickers: their entries, the cursor, typing to search. */
#ifndef ROOFTOP_UI_DASH_PICK_H
#define ROOFTOP_UI_DASH_PICK_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* The preset entries of picker mode m (DM_PICK_MODEL or DM_PICK_GPU). */
int dash_pick_count(const struct dash *d, enum dash_mode m);
/* The picker line of entry k, as the picker shows it and its search matches it. */
void dash_pick_line(const struct dash *d, enum dash_mode m, int k, char *buf, size_t n);
/* A key in a picker: moves the cursor or searches; Enter picks, Esc leaves. */
void dash_pick_key(struct dash *d, uint32_t k);

#endif
