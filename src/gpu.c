/* gpu.c - datasheet look-ups. */
#include "gpu.h"

#include <stdio.h>
#include <string.h>

static double peak_of(const struct gpu_spec *g, enum peak_kind p)
{
    return g->peak_valid[p] && g->peak_flops[p] > 0 ? g->peak_flops[p] : 0.0;
}

double gpu_peak(const struct gpu_spec *g, enum dtype d)
{
    return peak_of(g, dtype_peak(d));
}

bool gpu_has_dtype(const struct gpu_spec *g, enum dtype d)
{
    return gpu_peak(g, d) > 0;
}

void gpu_dtypes(const struct gpu_spec *g, char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    for (int k = 0; k < PEAK_COUNT; k++) {
        if (!(peak_of(g, (enum peak_kind)k) > 0))
            continue;
        int w = snprintf(buf + used, n - used, "%s%s", used > 0 ? ", " : "",
                         peak_name((enum peak_kind)k));
        if (w < 0 || (size_t)w >= n - used)
            break;
        used += (size_t)w;
    }
    if (used == 0)
        snprintf(buf, n, "none");
}

double gpu_ridge(const struct gpu_spec *g, enum dtype d)
{
    double p = gpu_peak(g, d);
    return g->bandwidth > 0 && p > 0 ? p / g->bandwidth : 0.0;
}

void gpu_builtin_h100(struct gpu_spec *g)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "h100-sxm");
    snprintf(g->name, sizeof g->name, "H100 SXM5");
    snprintf(g->source, sizeof g->source,
             "NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.04, Tables 1 and 3 (dense); "
             "NVLink 4 900 GB/s");
    g->memory_bytes = 80e9;
    g->bandwidth = 3.35e12;
    static const double peaks[PEAK_COUNT] = {
        [PEAK_FP64] = 34e12, [PEAK_FP32] = 67e12,    [PEAK_TF32] = 494.7e12, [PEAK_BF16] = 989.4e12,
        [PEAK_FP16] = 989.4e12, [PEAK_FP8] = 1978.9e12, [PEAK_FP4] = 0,
    };
    for (int i = 0; i < PEAK_COUNT; i++) {
        g->peak_flops[i] = peaks[i];
        g->peak_valid[i] = peaks[i] > 0;
    }
    g->sms = 132;
    g->l2_bytes = 52428800; /* 50 MiB, as the driver reports it */
    g->interconnect_bandwidth = 900e9;
    /* DGX/HGX H100 (reference.md section 7): 8 GPUs on NVLink 4 (900 GB/s both ways), one
     * NDR 400 Gb/s port per GPU; latencies per ring step of NCCL's tuning model
     * (src/graph/tuning.cc hwLat, Ring Simple: NVLink 3.4 us, network 14 us). */
    g->node.domain = 8;
    g->node.nvlink_bandwidth = 450e9;
    g->node.network_bandwidth = 50e9;
    g->node.nvlink_latency = 3.4e-6;
    g->node.network_latency = 14e-6;
    /* Bekman, ml-engineering, "Maximum Achievable Matmul FLOPS" table: H100 SXM 792.1 of 989
     * TFLOP/s bf16; the copy fraction measured on an H200 (reference.md section 3). */
    g->gemm_efficiency = 0.801;
    /* NVIDIA H100 datasheet: SXM max TDP up to 700 W (configurable). */
    g->board_power = 700;
    g->memory_efficiency = 0.9;
}
