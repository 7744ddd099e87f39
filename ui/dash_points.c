/* dash_points.c - measured points on the dashboard: a file's, the probe's (P), and M. */
#include "dash_points.h"

#include <stdio.h>
#include <string.h>

#include "probe_child.h"

void dash_set_points(struct dash *d, struct points_doc *doc, const char *from)
{
    points_free(&d->points);
    d->points = *doc;
    points_init(doc);
    d->have_points = true;
    /* A run the time limit or the backend stopped says so wherever its name is shown. */
    snprintf(d->points_from, sizeof d->points_from, "%.100s%s",
             d->points.device.name[0] ? d->points.device.name : from,
             d->points.incomplete[0] ? " (incomplete run)" : "");
    dash_recompute(d);
    /* They still plot on the roofline, named; the ops table and M use them only on their
     * own device. */
    if (d->ev.meas.other_device && !d->points_any_device)
        dash_status(d, false, "%s: plotted, but no measured column or M", d->ev.meas.device_why);
}

void dash_toggle_measured_mfu(struct dash *d)
{
    if (d->sc.mfu_mode == MFU_MEASURED) {
        dash_set_mfu_mode(d, MFU_TYPED);
        dash_recompute(d);
        dash_status(d, false, "MFU back to %.3g (M uses the measured GEMM efficiency again)",
                    d->sc.mfu);
        return;
    }
    if (!d->have_points || d->points.n == 0) {
        dash_status(d, true, "M: no measured points: P measures this scenario's GEMM shapes "
                             "(or start with --points FILE)");
        return;
    }
    double mfu;
    char why[256];
    if (!measured_mfu(&d->ev.meas, &mfu, why, sizeof why)) {
        /* P measures this machine: no help when the points are from another device. */
        dash_status(d, true, "M: %s%s", why,
                    d->ev.meas.other_device ? " (pick that GPU, or start with --points-any-device)"
                                         : " (P measures them)");
        return;
    }
    dash_set_mfu_mode(d, MFU_MEASURED);
    dash_recompute(d);
    dash_status(d, false, "MFU = measured GEMM efficiency %.3g on %s (M: back to %.3g)",
                d->ev.mfu, d->ev.meas.device[0] ? d->ev.meas.device : d->points_from, d->sc.mfu);
}

bool dash_probe_poll(struct dash *d)
{
    if (!d->probe)
        return false;
    struct points_line ev;
    int r;
    bool changed = false, shapes = false;
    /* Points appear on the roofline as they arrive. */
    while ((r = probe_child_poll(d->probe, &ev)) == PCHILD_EVENT) {
        changed = true;
        switch (ev.kind) {
        case PLINE_POINT:
            if (!points_add(&d->points, &ev.point))
                dash_status(d, true, "probe: out of memory for points");
            shapes = shapes || strncmp(ev.point.name, "shape.", 6) == 0;
            break;
        case PLINE_DEVICE:
            d->points.device = ev.device;
            snprintf(d->points_from, sizeof d->points_from, "%.100s", ev.device.name);
            break;
        case PLINE_PROGRESS:
            d->probe_done = ev.done;
            d->probe_total = ev.total;
            snprintf(d->probe_what, sizeof d->probe_what, "%.60s", ev.text);
            break;
        case PLINE_STATUS:
            dash_status(d, false, "probe: %s", ev.text);
            break;
        case PLINE_ERROR:
            dash_status(d, true, "probe: %s", ev.text);
            break;
        case PLINE_DONE:
            dash_status(d, false, "probe: %d points in %.1f s from %s", ev.done, ev.seconds,
                        d->points_from);
            break;
        }
    }
    if (r == PCHILD_EXITED) {
        bool ok;
        char reason[256];
        probe_child_result(d->probe, &ok, reason, sizeof reason);
        probe_child_free(d->probe);
        d->probe = NULL;
        if (!ok)
            dash_status(d, true, "probe failed: %s", reason);
        changed = true;
    }
    /* The scenario's own GEMMs fill the ops table's measured column as they arrive. */
    if (shapes)
        dash_recompute(d);
    return changed;
}

void dash_probe_key(struct dash *d)
{
    if (!d->allow_probe) {
        dash_status(d, true, "P: the probe runs in the live dashboard only "
                             "(or run `rooftop probe --out FILE`, then --points FILE)");
        return;
    }
    if (d->probe) {
        probe_child_free(d->probe);
        d->probe = NULL;
        dash_status(d, false, "probe cancelled; the points so far stay");
        return;
    }
    char err[256];
    bool was_measured = d->sc.mfu_mode == MFU_MEASURED;
    /* The quick probe (a few seconds), CUDA when a device is usable, else the CPU, with the
     * scenario's own GEMM shapes (their measured time goes into the ops table; M uses it). */
    char shapes[512];
    if (!measured_shapes_arg(&d->sc, shapes, sizeof shapes))
        shapes[0] = '\0';
    d->probe = probe_child_start_self("auto", true, shapes, 300, err, sizeof err);
    if (!d->probe) {
        dash_status(d, true, "probe: %s", err);
        return;
    }
    points_free(&d->points);
    points_init(&d->points);
    d->have_points = true;
    snprintf(d->points_from, sizeof d->points_from, "this machine");
    dash_recompute(d);
    d->probe_done = d->probe_total = 0;
    d->probe_what[0] = '\0';
    if (was_measured && d->sc.mfu_mode != MFU_MEASURED)
        dash_status(d, false, "probe started; the measured MFU is off until its GEMMs are in "
                              "(then M) - P cancels");
    else
        dash_status(d, false, "probe started: points appear as they are measured (P cancels)");
}
