/* dash_files.h - the scenario's files: what a file prompt does with the name typed (save, open a
 * scenario, model or demo, export a report), asking before it replaces a file. */
#ifndef ROOFTOP_UI_DASH_FILES_H
#define ROOFTOP_UI_DASH_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* Remembers path as the scenario's file (s saves there), or none when it does not fit. */
void dash_remember_path(struct dash *d, const char *path);

/* Enter on a file prompt (DM_SAVE, DM_OPEN, DM_EXPORT): carries it out on d->input, or asks
 * first (DM_CONFIRM) when it would replace another file. */
void dash_files_finish(struct dash *d);
/* DM_CONFIRM: y carries the prompt out, any other key leaves the file as it was. */
void dash_files_confirm(struct dash *d, uint32_t k);

#endif
