/* evaluation.h - one scenario evaluated whole: the one function every front end calls.
 *
 * In a fixed order: the analysis (parameters, memory, FLOPs, ops, roofline), the measured
 * points matched to the scenario's GEMMs and device, the MFU in use (typed, measured or
 * predicted: scenario.mfu_mode), the predicted step, the training time at the MFU in use, the
 * warnings, and the serving figures when asked. `report`, `plan`, `solve`, `snapshot`,
 * export, the dashboard and the fuzzers read this struct; nothing else calls the prediction
 * or the warnings, so the figures shown in two places are the same figure.
 */
#ifndef ROOFTOP_EVALUATION_H
#define ROOFTOP_EVALUATION_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "cost.h"
#include "measured.h"
#include "points.h"
#include "predict.h"
#include "scenario.h"
#include "warnings.h"

struct evaluation {
    struct scenario sc;           /* the scenario as evaluated (its mfu is the typed one) */
    struct analysis an;           /* the accounting; an.time at the MFU in use */
    /* The points matched to the scenario (the ops table's measured column); have_points
     * says whether points were given at all. */
    struct measured meas;
    bool have_points;
    /* The MFU in use: the typed mfu, the measured GEMM efficiency or the predicted HFU. When
     * the mode asked for has no figure (no points match, no peak) the typed one is used,
     * mfu_from says so and mfu_why says why. */
    double mfu;
    enum mfu_mode mfu_from;
    char mfu_why[256];
    struct prediction pred;       /* the step-time model (src/predict.h) */
    struct warnings warn;         /* inputs that do nothing or make no sense together */
    struct cost cost;             /* GPU-hours, energy and money of an.time (src/cost.h) */
};

/* What an evaluation takes besides the scenario. */
struct eval_input {
    const struct points_doc *points; /* measured points, or NULL */
    bool any_device;                  /* match points measured on another device too */
};

/* Evaluates s, which must have passed scenario_validate; in may be NULL (no points). */
void evaluation_run(const struct scenario *s, const struct eval_input *in, struct evaluation *out);

/* For a search over many layouts (plan): the stages one at a time, so that a layout that does
 * not fit costs only its memory. evaluation_memory fills ev->an's parameter counts, memory
 * and data-parallel split; evaluation_step, on what evaluation_memory filled for the same
 * scenario, the rest of the analysis and the prediction, at the typed MFU, with no points
 * and no warnings (a search ranks by the predicted step, and warns of nothing). */
void evaluation_memory(const struct scenario *s, struct evaluation *ev);
void evaluation_step(const struct scenario *s, struct evaluation *ev);

/* The measured points of out to pass to the writers and panels: &out->meas, or NULL. */
const struct measured *evaluation_measured(const struct evaluation *ev);

/* One line saying where the MFU in use comes from: "typed 0.5", "predicted 0.412 (the
 * step-time model's HFU)", "measured 0.623 ...", or the fall-back and why. */
void evaluation_mfu_line(const struct evaluation *ev, char *buf, size_t n);

#endif
