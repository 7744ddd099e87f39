/* dash_points.h - measured points on the dashboard: replaced by a file's, measured by the probe
 * run as a child process (P, live terminal only), and used as the MFU (M). */
#ifndef ROOFTOP_UI_DASH_POINTS_H
#define ROOFTOP_UI_DASH_POINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* Replaces the measured points (takes ownership of doc's contents). */
void dash_set_points(struct dash *d, struct points_doc *doc, const char *from);

/* M: uses the measured GEMM efficiency as the MFU, or goes back to the MFU set before. A
 * status message says why when no shape point matches. */
void dash_toggle_measured_mfu(struct dash *d);

/* P: starts the quick probe on this machine, or cancels the one running. */
void dash_probe_key(struct dash *d);
/* Polls a running probe (non-blocking); returns true when something changed. */
bool dash_probe_poll(struct dash *d);

#endif
