/* dash_infer.h - the keys of the inference view (i): its own sliders, and the keys that do not
 * depend on the view. */
#ifndef ROOFTOP_UI_DASH_INFER_H
#define ROOFTOP_UI_DASH_INFER_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* A key in the inference view. */
void dash_infer_key(struct dash *d, uint32_t k);

#endif
