/* warnings.h - inputs that do nothing or make no sense together, as lines to show. */
#ifndef ROOFTOP_WARNINGS_H
#define ROOFTOP_WARNINGS_H

#include "analysis.h"
#include "scenario.h"

#define WARNINGS_MAX 8
#define WARNING_LEN 256

struct warnings {
    int n;
    char line[WARNINGS_MAX][WARNING_LEN];   /* one sentence each, no "warning:" prefix */
};

/*
 * What a valid scenario asks that does nothing or cannot be (issue 8): sequence parallelism
 * with tp 1, selective recomputation with FlashAttention on, a sequence longer than a model's
 * learned positions, tp above the KV-head count, fewer training tokens than one step, and a
 * step time faster than the roofline allows. a = analysis_run(s). Fills w (w->n = 0 when
 * nothing is wrong).
 */
void warnings_collect(const struct scenario *s, const struct analysis *a, struct warnings *w);

#endif
