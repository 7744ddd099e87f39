/* bench_sweep.c - a sweep's cost: a 64-value knob evaluated whole (what the dashboard's sweep
 * panel redoes when another input moves), which must fit in one frame (16 ms); and the same
 * sweep drawn as the panel's cell grid. Prints `name value unit` lines: sweep64_ms,
 * sweep64_valid (the values evaluated), sweep64_plot_us, sweep64_frame (ok under 16 ms). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "inputs.h"
#include "scenario.h"
#include "spec.h"
#include "sweep.h"
#include "sweep_plot.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    char err[SPEC_ERR_MAX];
    struct scenario s;
    inputs_defaults(&s);
    if (!spec_find_model("llama3.1-70b", &s.model, err, sizeof err)) {
        fprintf(stderr, "bench_sweep: %s\n", err);
        return 1;
    }
    s.gpus = 64;
    s.tp = 8;
    s.batch = 512;
    s.seq = 8192;
    s.flops_mode = FLOPS_DETAILED;
    s.mfu_mode = MFU_PREDICTED;
    /* 64 values of the sequence length, 1Ki to 128Ki: every one a full evaluation. */
    const struct input *knob = inputs_find("seq");
    double vals[64];
    int n = sweep_values(knob, 1024, 131072, 64, vals, 64, err, sizeof err);
    if (n != 64) {
        fprintf(stderr, "bench_sweep: %d values (%s)\n", n, err);
        return 1;
    }
    struct sweep sw;
    const int R = 7;
    double best = 1e9, sink = 0;
    for (int k = 0; k < R; k++) {
        double t0 = now_s();
        if (!sweep_run(&sw, &s, knob, vals, n, NULL, NULL, NULL)) {
            fprintf(stderr, "bench_sweep: out of memory\n");
            return 1;
        }
        double dt = now_s() - t0;
        best = dt < best ? dt : best;
        for (int i = 0; i < sw.n; i++)
            sink += sw.pts[i].valid ? sw.pts[i].ev.pred.step_seconds : 0;
        if (k < R - 1)
            sweep_free(&sw);
    }
    int valid = 0;
    for (int i = 0; i < sw.n; i++)
        valid += sw.pts[i].valid;
    printf("sweep64_ms %.2f ms\n", best * 1e3);
    printf("sweep64_valid %d values\n", valid);
    static struct sweep_cell cells[118 * 30];
    double pbest = 1e9;
    for (int k = 0; k < 50; k++) {
        double t0 = now_s();
        sweep_plot_draw(&sw, 10, true, 118, 30, cells);
        double dt = now_s() - t0;
        pbest = dt < pbest ? dt : pbest;
    }
    printf("sweep64_plot_us %.1f us\n", pbest * 1e6);
    printf("sweep64_frame %s (%.2f ms of 16)\n", best + pbest < 0.016 ? "ok" : "SLOW",
           (best + pbest) * 1e3);
    sweep_free(&sw);
    return sink > 0 ? 0 : 1;
}
