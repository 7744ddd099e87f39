/* open_list.h - the scenario files the open prompt (o) offers: every scenario on the search
 * path, narrowed to the names holding what is typed. */
#ifndef ROOFTOP_UI_OPEN_LIST_H
#define ROOFTOP_UI_OPEN_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "spec.h"

struct open_list {
    struct spec_list names; /* scenario ids on the search path, sorted */
    int pick;               /* the highlighted entry among those shown, -1: none (the typed
                               text is what Enter opens) */
};

/* Lists the scenarios found (none when the search path has none or memory runs out). */
void open_list_load(struct open_list *l);
void open_list_free(struct open_list *l);

/* The entries shown for the typed text (every one when all, else those whose name holds it,
 * any case): writes up to max indices into names.ids to idx; returns how many match. */
int open_list_match(const struct open_list *l, const char *typed, bool all, int *idx, int max);

/* Moves the highlight by delta among n shown entries (-1 above the first: back to the text). */
void open_list_move(struct open_list *l, int delta, int n);

#endif
