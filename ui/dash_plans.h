/* dash_plans.h - the fastest layouts of this model, GPU count, batch and sequence that fit (b). */
#ifndef ROOFTOP_UI_DASH_PLANS_H
#define ROOFTOP_UI_DASH_PLANS_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* b: searches the layouts and lists those that fit (DM_PLANS), or says none does. */
void dash_plans_open(struct dash *d);
/* A key in the list: moves, Enter or 1-5 apply a layout, Esc, q or b leave. */
void dash_plans_key(struct dash *d, uint32_t k);

#endif
