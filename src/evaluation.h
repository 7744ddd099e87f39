/* evaluation.h - one scenario evaluated whole: the one function every front end calls.
 *
 * In a fixed order: the analysis (parameters, memory, FLOPs, ops, roofline), the measured
 * points matched to the scenario's GEMMs and device, the MFU in use (typed, measured or
 * predicted: scenario.mfu_mode), the predicted step, the training time at the MFU in use, the
 * warnings, the cost, and the serving figures when asked (eval_input.serve). `report`,
 * `plan` (by stages: evaluation_memory, evaluation_step), `solve`, `diff`, `sweep`,
 * `snapshot`, export, the dashboard and the fuzzers read this struct, and `infer`, the
 * dashboard's inference view and a sweep of a serving input read its serving figures
 * (evaluation_serve: that stage alone, for a scenario that is only served). Nothing else
 * calls the prediction, the warnings or the serving model (infer_run), so the figures shown
 * in two places are the same figure.
 */
#ifndef ROOFTOP_EVALUATION_H
#define ROOFTOP_EVALUATION_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "cost.h"
#include "infer.h"
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
    /* The serving figures of sc, `rooftop infer`'s (src/infer.h), when asked for
     * (eval_input.serve, evaluation_serve); have_serving says whether they were computed. */
    bool have_serving;
    struct infer_result serving;
};

/* What an evaluation takes besides the scenario. */
struct eval_input {
    const struct points_doc *points; /* measured points, or NULL */
    bool any_device;                  /* match points measured on another device too */
    bool serve;                       /* the serving figures too (s passed infer_validate) */
};

/* Evaluates s, which must have passed scenario_validate (and infer_validate when in->serve);
 * in may be NULL (no points, no serving figures). */
void evaluation_run(const struct scenario *s, const struct eval_input *in, struct evaluation *out);

/* For a search over many layouts (plan): the stages one at a time, so that a layout that does
 * not fit costs only its memory. evaluation_memory fills ev->an's parameter counts, memory
 * and data-parallel split; evaluation_step, on what evaluation_memory filled for the same
 * scenario, the rest of the analysis and the prediction, at the typed MFU, with no points
 * and no warnings (a search ranks by the predicted step, and warns of nothing). */
void evaluation_memory(const struct scenario *s, struct evaluation *ev);
void evaluation_step(const struct scenario *s, struct evaluation *ev);

/* For a scenario that is only served (`rooftop infer`, the inference view, a sweep of a
 * serving input): the serving stage alone. s must have passed infer_validate; its training
 * inputs are not read and need not pass scenario_validate, so the training stages are not
 * run: ev->sc and ev->serving are set (have_serving true), there are no points and no
 * warnings (the training warnings speak of inputs serving does not read), and the analysis,
 * prediction and cost are left as they were. */
void evaluation_serve(const struct scenario *s, struct evaluation *ev);

/* The measured points of out to pass to the writers and panels: &out->meas, or NULL. */
const struct measured *evaluation_measured(const struct evaluation *ev);

/* One line saying where the MFU in use comes from: "typed 0.5", "predicted 0.412 (the
 * step-time model's HFU)", "measured 0.623 ...", or the fall-back and why. */
void evaluation_mfu_line(const struct evaluation *ev, char *buf, size_t n);

#endif
