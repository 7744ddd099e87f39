/* dash_keys.h - the one entry for events: what keys, the mouse and resizes do to the dashboard.
 * The same handler serves the live terminal, snapshots, the tests and the benchmark. */
#ifndef ROOFTOP_UI_DASH_KEYS_H
#define ROOFTOP_UI_DASH_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#include "dash.h"

/* Handles one event. Returns true when the screen may have changed. */
bool dash_handle(struct dash *d, const struct event *ev);

#endif
