/* evaluation.c - the one evaluation of a scenario (evaluation.h), in its fixed order. */
#include "evaluation.h"

#include <stdio.h>

/* The MFU the mode asks for, or the typed one with the reason it could not be had. */
static void resolve_mfu(struct evaluation *ev)
{
    const struct scenario *s = &ev->sc;
    ev->mfu = s->mfu;
    ev->mfu_from = MFU_TYPED;
    ev->mfu_why[0] = '\0';
    if (s->mfu_mode == MFU_MEASURED) {
        double mfu;
        if (!ev->have_points)
            snprintf(ev->mfu_why, sizeof ev->mfu_why, "no measured points are loaded");
        else if (measured_mfu(&ev->meas, &mfu, ev->mfu_why, sizeof ev->mfu_why)) {
            ev->mfu = mfu;
            ev->mfu_from = MFU_MEASURED;
        }
    } else if (s->mfu_mode == MFU_PREDICTED) {
        double hfu = ev->pred.hfu;
        if (hfu > 0 && hfu <= 1) {
            ev->mfu = hfu;
            ev->mfu_from = MFU_PREDICTED;
        } else {
            snprintf(ev->mfu_why, sizeof ev->mfu_why,
                     "the predicted utilisation %.3g is not in (0, 1]", hfu);
        }
    }
}

void evaluation_run(const struct scenario *s, const struct eval_input *in, struct evaluation *out)
{
    out->sc = *s;
    analysis_run(s, &out->an);
    out->have_points = in != NULL && in->points != NULL;
    /* Only points are matched (a key press without them pays for no shape labels); without
     * them no op is measured (meas.n_ops 0) and the prediction uses its own GEMM model. */
    if (out->have_points)
        measured_match(s, &out->an, in->points, in->any_device, &out->meas);
    else
        measured_clear(&out->meas);
    predict_run(s, &out->an, out->have_points ? &out->meas : NULL, &out->pred);
    resolve_mfu(out);
    if (out->mfu != s->mfu)
        analysis_retime(s, out->mfu, &out->an);
    warnings_collect(s, &out->an, &out->warn);
    cost_compute(s, out->an.time.seconds, &out->cost);
    out->have_serving = in != NULL && in->serve;
    if (out->have_serving)
        infer_run(s, &out->serving);
}

void evaluation_memory(const struct scenario *s, struct evaluation *ev)
{
    analysis_memory(s, &ev->an);
    ev->have_points = false;
    ev->warn.n = 0;
    ev->have_serving = false;
}

void evaluation_step(const struct scenario *s, struct evaluation *ev)
{
    analysis_finish(s, &ev->an);
    predict_run(s, &ev->an, NULL, &ev->pred);
    ev->mfu = s->mfu;
    ev->mfu_from = MFU_TYPED;
    ev->mfu_why[0] = '\0';
}

void evaluation_serve(const struct scenario *s, struct evaluation *ev)
{
    ev->sc = *s;
    ev->have_points = false;
    ev->warn.n = 0;
    ev->have_serving = true;
    infer_run(s, &ev->serving);
}

const struct measured *evaluation_measured(const struct evaluation *ev)
{
    return ev->have_points ? &ev->meas : NULL;
}

void evaluation_mfu_line(const struct evaluation *ev, char *buf, size_t n)
{
    switch (ev->mfu_from) {
    case MFU_PREDICTED:
        snprintf(buf, n, "MFU in use %.3g, predicted (the step-time model's HFU)", ev->mfu);
        return;
    case MFU_MEASURED:
        snprintf(buf, n, "MFU in use %.3g, measured (the matched GEMMs' efficiency)", ev->mfu);
        return;
    case MFU_TYPED:
    case MFU_MODE_COUNT:
        break;
    }
    if (ev->sc.mfu_mode != MFU_TYPED)
        snprintf(buf, n, "MFU in use %.3g, typed: %s MFU unavailable (%s)", ev->mfu,
                 mfu_mode_name(ev->sc.mfu_mode), ev->mfu_why);
    else
        snprintf(buf, n, "MFU in use %.3g, typed", ev->mfu);
}
