/* dash_demo.h - the lecture demo on the dashboard: its steps shown (scenario, focus, view), the
 * demo file opened, and its keys (n/p step, c pages the caption). */
#ifndef ROOFTOP_UI_DASH_DEMO_H
#define ROOFTOP_UI_DASH_DEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* Loads a demo (from path, or the installed lecture.json when path is NULL) and shows
 * its step `step` (0-based). */
bool dash_demo_open(struct dash *d, const char *path, int step, char *err, size_t errlen);
/* Shows step k of the loaded demo. */
void dash_demo_show(struct dash *d, int k);
/* n and p (dir 1, -1): the next or previous step, the demo opened at its first. */
void dash_demo_step(struct dash *d, int dir);
/* c: the caption's next lines where it has more than fit, back to its start after the last. */
void dash_demo_caption_next(struct dash *d);

#endif
