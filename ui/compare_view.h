/* compare_view.h - the dashboard's comparison: x pins the scenario shown; from then on a
 * panel (the operations', or the roofline's where they share a place) shows each figure (the
 * memory rows, total, step, days, cost) of the scenario shown beside the pinned one's with the
 * difference, the memory and compute panels show each figure's change beside it
 * (compare_view_delta), and the inputs that differ from it are marked in the input list. x
 * again unpins. */
#ifndef ROOFTOP_UI_COMPARE_VIEW_H
#define ROOFTOP_UI_COMPARE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "charset.h"
#include "diff.h"
#include "evaluation.h"
#include "screen.h"

struct compare_view {
    bool on;
    struct evaluation pinned;    /* the evaluation when x was pressed */
    struct diff d;               /* pinned (A) against the scenario shown (B) */
};

/* Pins ev; false (unpinned) when out of memory. */
bool compare_view_pin(struct compare_view *v, const struct evaluation *ev);
/* After the scenario shown (now ev) changed: compares again; false when out of memory. */
bool compare_view_update(struct compare_view *v, const struct evaluation *ev);
/* Whether the input named key differs from the pinned scenario's. */
bool compare_view_marked(const struct compare_view *v, const char *key);
/* The change of the figure named key (report's JSON key, "memory.total") from the pinned
 * scenario's, as the panel writes it ("+4.22 GB", "-28.1 GB"; "=" when equal), into buf, with
 * the element to draw it in (E_OVER where it grew, E_OK where it shrank, E_DIM when equal:
 * for figures where more is worse: memory, time, energy, money). False when nothing is
 * pinned or either side lacks the figure (no price). */
bool compare_view_delta(const struct compare_view *v, const char *key, char *buf, size_t n,
                        int *elem);
/* The comparison panel in r. */
void compare_view_draw(const struct compare_view *v, const struct charset *cs,
                       struct screen *s, struct rect r);
void compare_view_free(struct compare_view *v);

#endif
