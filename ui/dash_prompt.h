/* dash_prompt.h - the line typed at the bottom: a slider's exact value (Enter), or the name of a
 * file to save, open (with the list of scenarios found) or export. */
#ifndef ROOFTOP_UI_DASH_PROMPT_H
#define ROOFTOP_UI_DASH_PROMPT_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* Starts typing in mode m (DM_EDIT, DM_SAVE, DM_OPEN, DM_EXPORT) from text, which the first
 * key typed replaces. */
void dash_prompt_start(struct dash *d, enum dash_mode m, const char *text);
/* A key while typing: edits the line, Esc leaves it, Enter applies the value or the file. */
void dash_prompt_key(struct dash *d, uint32_t k);

#endif
