/* bench_predict.c - the step-time model's cost: one prediction (analysis_run + predict_run,
 * what the dashboard redoes on every key) and a 1024-GPU `rooftop plan` search.
 * Prints `name value unit` lines: predict_us, plan_ms, plan_layouts. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis.h"
#include "inputs.h"
#include "plan.h"
#include "predict.h"
#include "scenario.h"
#include "scenario_check.h"
#include "spec.h"

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
    if (!spec_find_model("llama2-70b", &s.model, err, sizeof err) ||
        !spec_find_gpu("h100-sxm", &s.gpu, err, sizeof err)) {
        fprintf(stderr, "bench_predict: %s\n", err);
        return 1;
    }
    s.gpus = 1024;
    s.tp = 8;
    s.pp = 4;
    s.zero = 1;
    s.batch = 1024;
    s.seq = 4096;
    s.flops_mode = FLOPS_DETAILED;
    if (!scenario_validate(&s, err, (int)sizeof err)) {
        fprintf(stderr, "bench_predict: %s\n", err);
        return 1;
    }
    struct analysis *a = malloc(sizeof *a);
    struct plan_result *r = malloc(sizeof *r);
    if (a == NULL || r == NULL) {
        fprintf(stderr, "bench_predict: out of memory\n");
        return 1;
    }
    const int N = 20000;
    double sink = 0, t0 = now_s();
    for (int i = 0; i < N; i++) {
        s.micro_batch = 1 + (i & 1); /* something changes, as a key would */
        analysis_run(&s, a);
        struct prediction p;
        predict_run(&s, a, NULL, &p);
        sink += p.step_seconds;
    }
    double per = (now_s() - t0) / N;
    printf("predict_us %.2f us\n", per * 1e6);

    s.tp = 1;
    s.pp = 1;
    s.micro_batch = 1;
    const int R = 5;
    double best = 1e9;
    for (int k = 0; k < R; k++) {
        t0 = now_s();
        plan_search(&s, 5, r);
        double dt = now_s() - t0;
        best = dt < best ? dt : best;
    }
    printf("plan_ms %.1f ms\n", best * 1e3);
    printf("plan_layouts %ld layouts\n", r->searched);
    free(a);
    free(r);
    return sink > 0 ? 0 : 1;
}
