/* bench_cpu_probe.c - the CPU probe's quality: triad bandwidth against memcpy of the same size
 * in the same run (target >= 0.9), and the FMA plateau against the computed peak (target
 * >= 0.7). Prints "NAME VALUE" lines; the notes on stderr say what the numbers rest on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "points.h"
#include "probe.h"

static void on_point(void *ctx, const struct probe_point *p)
{
    if (!points_add(ctx, p)) {
        fprintf(stderr, "bench_cpu_probe: out of memory\n");
        exit(1);
    }
}

static void on_device(void *ctx, const struct probe_device *dev)
{
    ((struct points_doc *)ctx)->device = *dev;
}

static void on_status(void *ctx, const char *text)
{
    (void)ctx;
    fprintf(stderr, "bench_cpu_probe: %s\n", text);
}

/* Runs the CPU backend; exits on failure. */
static void run_cpu(struct points_doc *d, bool quick, int threads)
{
    struct probe_options o;
    probe_options_default(&o);
    o.quick = quick;
    o.threads = threads;
    points_init(d);
    struct probe_sink sink = {d, on_device, on_point, NULL, on_status};
    char err[256];
    if (!probe_backend_cpu.run(&o, &sink, err, sizeof err)) {
        fprintf(stderr, "bench_cpu_probe: the CPU probe failed: %s\n", err);
        exit(1);
    }
}

static double best(const struct points_doc *d, const char *prefix)
{
    double v = 0;
    for (size_t i = 0; i < d->n; i++)
        if (d->points[i].valid && strncmp(d->points[i].name, prefix, strlen(prefix)) == 0 &&
            d->points[i].flops_per_s > v)
            v = d->points[i].flops_per_s;
    return v;
}

static const struct probe_point *get(const struct points_doc *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->points[i].name, name) == 0)
            return &d->points[i];
    return NULL;
}

int main(void)
{
    struct points_doc all, one;
    double t0 = probe_now();
    run_cpu(&all, false, 0);
    double t_full = probe_now() - t0;
    const struct probe_point *copy = get(&all, "bw.copy"), *triad = get(&all, "bw.triad");
    if (!copy || !triad || !copy->valid || !triad->valid) {
        fprintf(stderr, "bench_cpu_probe: no valid bandwidth points\n");
        return 1;
    }
    const struct probe_device *dev = &all.device;
    if (!dev->peak_valid[PEAK_FP32] || !dev->peak_valid[PEAK_FP64]) {
        fprintf(stderr, "bench_cpu_probe: no computed peak (%s)\n", dev->clock_source);
        return 1;
    }
    double f32 = best(&all, "sweep.fp32.") / dev->peak_flops[PEAK_FP32];
    double f64 = best(&all, "sweep.fp64.") / dev->peak_flops[PEAK_FP64];

    /* One thread: whether the kernel reaches one core's peak, which separates the kernel's
     * quality from cores that share FMA units (SMT siblings, or vCPUs of one host core). */
    run_cpu(&one, true, 1);
    double f32_one = best(&one, "sweep.fp32.") / one.device.peak_flops[PEAK_FP32];

    printf("cpu_triad_vs_memcpy %.3f\n", triad->bytes_per_s / copy->bytes_per_s);
    printf("cpu_fma_fraction_of_peak %.3f\n", f32);
    printf("cpu_fma_fp64_fraction_of_peak %.3f\n", f64);
    printf("cpu_fma_fraction_of_peak_1thread %.3f\n", f32_one);
    printf("cpu_probe_full_seconds %.1f\n", t_full);
    fprintf(stderr,
            "bench_cpu_probe: %s, %d cores / %d threads, %s (%d-bit vectors, %d-bit FMA x %d), "
            "clock %.3g GHz (%s); peak fp32 %.4g GFLOP/s; triad %.3g GB/s, memcpy %.3g GB/s\n",
            dev->name, dev->cores, dev->threads, dev->isa, dev->vector_bits, dev->fma_bits,
            dev->fma_units, dev->clock_hz / 1e9, dev->clock_source,
            dev->peak_flops[PEAK_FP32] / 1e9, triad->bytes_per_s / 1e9, copy->bytes_per_s / 1e9);
    points_free(&all);
    points_free(&one);
    return 0;
}
