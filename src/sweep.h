/* sweep.h - one knob swept: the scenario evaluated whole at each of a range of its values.
 *
 * The knob is any input of the registry (src/inputs.h); each value is set on a copy of the
 * scenario and, when the scenario is then valid, evaluated (src/evaluation.h) as `report`
 * would at that value. A value that makes the scenario invalid stays in the sweep with the
 * validator's reason. The figures of a point are read from report's JSON by their keys
 * ("memory.total"), so a column is the figure report prints at that value.
 */
#ifndef ROOFTOP_SWEEP_H
#define ROOFTOP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "evaluation.h"
#include "inputs.h"
#include "scenario.h"

/* Most values one sweep takes. */
#define SWEEP_MAX 256
#define SWEEP_WHY_MAX 256

struct sweep_point {
    double value;                 /* the knob's number (an enumeration's index, on = 1) */
    char text[64];                /* the value as the registry writes it ("16Ki", "full") */
    bool valid;
    char why[SWEEP_WHY_MAX];      /* !valid: what is wrong at this value */
    struct evaluation ev;         /* valid: the evaluation at this value (serving: its
                                     scenario and serving figures, evaluation_serve) */
    /* What the plot draws, either way: memory per GPU by its parts in the memory rows'
     * places (serving: weights in the parameters', the KV cache in the gradients', the
     * activations in theirs), its total, the usable capacity, whether it fits, and the time
     * on the second axis (the predicted step; serving: the time per output token). */
    double part[MEM_COUNT];
    double total, usable;
    bool fits;
    double seconds;
};

struct sweep {
    const struct input *knob;
    bool serving;                 /* the figures are rooftop infer's (sweep_serve) */
    int n;
    struct sweep_point *pts;      /* n points, in the order of the values (allocated) */
};

/*
 * The values of in from `from` to `to` (numbers as inputs_get gives them): `steps` values
 * evenly spaced (geometrically for an input whose slider steps by powers of two or 1-2-5,
 * when both ends are positive; whole numbers for counts, repeats dropped), or with steps 0 the
 * input's own steps (its slider's: powers of two, 1-1.5-2-3-5-7 per decade, its linear step,
 * each word) that lie between the ends. Returns how many (at most max), or 0 with one line in
 * err ("seq has no steps of its own: give --steps N").
 */
int sweep_values(const struct input *in, double from, double to, int steps, double *vals,
                 int max, char *err, size_t errlen);

/* Sets v on s for the knob; false with why (SWEEP_WHY_MAX) when v cannot be set. */
typedef bool (*sweep_set_fn)(void *ctx, const struct input *knob, struct scenario *s, double v,
                             char *why, size_t n);

/* The registry's setter: inputs_set, its range named when v is outside it. */
bool sweep_set_input(void *ctx, const struct input *knob, struct scenario *s, double v,
                     char *why, size_t n);

/*
 * Evaluates base at each of the n values of knob (set with set(ctx, ...); NULL: the
 * registry's). in as evaluation_run takes it. sw's points are allocated (sweep_free); false
 * when out of memory (sw then empty).
 */
bool sweep_run(struct sweep *sw, const struct scenario *base, const struct input *knob,
               const double *vals, int n, const struct eval_input *in, sweep_set_fn set,
               void *ctx);
/* The same for serving: each valid value (infer_validate) computed as `rooftop infer` would
 * (evaluation_serve); sw->serving is set. */
bool sweep_serve(struct sweep *sw, const struct scenario *base, const struct input *knob,
                 const double *vals, int n, sweep_set_fn set, void *ctx);
void sweep_free(struct sweep *sw);

/* The point where the scenario stops fitting: the first valid point that does not fit after
 * a valid one that does; -1 when there is none (it fits everywhere, nowhere, or fits again). */
int sweep_crossing(const struct sweep *sw);

/* The columns of a sweep: report's JSON keys (serving: rooftop infer's), with how to write
 * each. */
enum sweep_kind { SWEEP_BYTES, SWEEP_BOOL, SWEEP_SECONDS, SWEEP_FRACTION, SWEEP_DAYS,
                  SWEEP_RATE, SWEEP_COUNT_OF, SWEEP_KWH, SWEEP_USD };
struct sweep_column {
    const char *key;              /* "memory.total" */
    const char *label;            /* "total" */
    enum sweep_kind kind;
};
int sweep_columns(const struct sweep *sw, const struct sweep_column **cols);

#endif
