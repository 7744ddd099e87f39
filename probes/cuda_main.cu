// cuda_main.cu - rooftop-probe-cuda: the CUDA probes as their own process, started by
// `rooftop probe --backend cuda`. Streams JSON lines (probe_json.h) on stdout.
//
//   rooftop-probe-cuda [--check] [--device N] [--quick] [--time-limit S] [--shapes S]
//
// --check prints only the device line (or an error line) and exits: 0 usable, 3 no CUDA
// driver, 4 no device, 1 any other failure. Every CUDA and cuBLAS call is checked; the first
// failure prints one error line and exits 1.
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "cuda_probe.cuh"

void probe_fail(const char *file, int line, const char *call, const char *what)
{
    char msg[512];
    const char *base = strrchr(file, '/');
    snprintf(msg, sizeof msg, "CUDA error at %s:%d: %s: %s", base ? base + 1 : file, line, call,
             what);
    pj_message(stdout, "error", msg);
    exit(1);
}

double probe_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void probe_status(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pj_message(stdout, "status", msg);
}

bool probe_verdict(unsigned long long unwritten, double worst, char *why, size_t n,
                   const char *fmt, ...)
{
    if (unwritten) {
        snprintf(why, n, "%llu outputs never written", unwritten);
    } else {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return unwritten == 0 && worst <= 1.0;
}

void probe_check_time(Probe &p, const char *next)
{
    if (p.limit_s > 0 && probe_wall() - p.t0 > p.limit_s) {
        char msg[256];
        snprintf(msg, sizeof msg, "time limit of %g s reached after %d of %d points (before %s)",
                 p.limit_s, p.done, p.total, next);
        pj_message(stdout, "error", msg);
        exit(1);
    }
}

void probe_emit(Probe &p, const char *name, const char *dtype, double flops, double bytes,
                double seconds, bool valid, const char *why_invalid)
{
    if (!valid) {
        p.invalid++;
        probe_status("%s (%s): %s: point marked invalid", name, dtype,
                     why_invalid ? why_invalid : "result check failed");
    }
    pj_point(stdout, name, dtype, flops, bytes, seconds, valid);
    p.done++;
    pj_progress(stdout, p.done, p.total, name);
}

#define TIMED_REPEATS 11
#define WARMUP_CALLS 2

double probe_time(Probe &p, const std::function<void(long)> &launch)
{
    long i = 0;
    for (int w = 0; w < WARMUP_CALLS; w++)
        launch(i++);
    CK(cudaStreamSynchronize(p.st));
    // One call timed alone sizes the batch.
    CK(cudaEventRecord(p.e0, p.st));
    launch(i++);
    CK(cudaEventRecord(p.e1, p.st));
    CK(cudaEventSynchronize(p.e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, p.e0, p.e1));
    long batch = ms > 0 ? (long)ceil(0.2 / ms) : 64;
    batch = std::max(1L, std::min(batch, 256L));
    std::vector<double> t;
    for (int r = 0; r < TIMED_REPEATS; r++) {
        CK(cudaEventRecord(p.e0, p.st));
        for (long b = 0; b < batch; b++)
            launch(i++);
        CK(cudaEventRecord(p.e1, p.st));
        CK(cudaEventSynchronize(p.e1));
        CK(cudaEventElapsedTime(&ms, p.e0, p.e1));
        t.push_back(1e-3 * ms / (double)batch);
    }
    // The fastest batch, as STREAM and mixbench report theirs: other work on the GPU or
    // the host only ever slows a batch down, where a median moves with it.
    return *std::min_element(t.begin(), t.end());
}

template <class T> __global__ void k_fill(T *dst, size_t n, uint64_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = probe_cvt<T>(probe_rand(i, seed));
}

template <class T> void probe_fill(Probe &p, T *dst, size_t n, uint64_t seed)
{
    int blocks = p.prop.multiProcessorCount * 8;
    k_fill<T><<<blocks, 256, 0, p.st>>>(dst, n, seed);
    CK_LAUNCH();
}

template void probe_fill<float>(Probe &, float *, size_t, uint64_t);
template void probe_fill<double>(Probe &, double *, size_t, uint64_t);
template void probe_fill<__half>(Probe &, __half *, size_t, uint64_t);
template void probe_fill<__nv_bfloat16>(Probe &, __nv_bfloat16 *, size_t, uint64_t);
template void probe_fill<__nv_fp8_e4m3>(Probe &, __nv_fp8_e4m3 *, size_t, uint64_t);

void probe_poison(Probe &p, void *dst, size_t bytes)
{
    CK(cudaMemsetAsync(dst, 0xff, bytes, p.st));
}

template <class W> __global__ void k_count_poison(const W *w, size_t n, unsigned long long *bad)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long local = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        local += w[i] == (W)~(W)0;
    if (local)
        atomicAdd(bad, local);
}

unsigned long long probe_count_poison(Probe &p, const void *dst, size_t bytes, int width)
{
    unsigned long long *d, h = 0;
    CK(cudaMalloc(&d, sizeof *d));
    CK(cudaMemsetAsync(d, 0, sizeof *d, p.st));
    const int blocks = p.prop.multiProcessorCount * 8;
    if (width == 8)
        k_count_poison<unsigned long long><<<blocks, 256, 0, p.st>>>(
            (const unsigned long long *)dst, bytes / 8, d);
    else
        k_count_poison<uint32_t><<<blocks, 256, 0, p.st>>>((const uint32_t *)dst, bytes / 4, d);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, p.st));
    CK(cudaStreamSynchronize(p.st));
    CK(cudaFree(d));
    return h;
}

int probe_sets(const Probe &p, double set_bytes, int cap)
{
    double l2 = p.prop.l2CacheSize > 0 ? p.prop.l2CacheSize : 64e6;
    int s = (int)ceil(4.0 * l2 / set_bytes);
    return std::max(1, std::min(s, cap));
}

static void usage(void)
{
    fprintf(stderr, "usage: rooftop-probe-cuda [--check] [--device N] [--quick] "
                    "[--time-limit S] [--shapes [LABEL=]M,N,K;...]\n");
}

static bool parse_shapes(const char *s, Probe &p)
{
    p.n_shapes = 0;
    while (*s) {
        const char *end = strchr(s, ';');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len > 0) {
            if (p.n_shapes == PROBE_SHAPES_MAX)
                return false;
            char item[128];
            if (len >= sizeof item)
                return false;
            memcpy(item, s, len);
            item[len] = '\0';
            probe_shape_arg &sh = p.shapes[p.n_shapes];
            memset(&sh, 0, sizeof sh);
            char *dims = item;
            char *eq = strchr(item, '=');
            if (eq) {
                *eq = '\0';
                if (strlen(item) >= sizeof sh.label)
                    return false;
                strcpy(sh.label, item);
                dims = eq + 1;
            }
            int used = 0;
            if (sscanf(dims, "%ld,%ld,%ld%n", &sh.m, &sh.n, &sh.k, &used) != 3 ||
                dims[used] != '\0' || sh.m < 1 || sh.n < 1 || sh.k < 1 || sh.m > (1L << 20) ||
                sh.n > (1L << 20) || sh.k > (1L << 20))
                return false;
            p.n_shapes++;
        }
        s += len;
        if (*s == ';')
            s++;
    }
    return true;
}

static void version_string(int v, char *buf, size_t n)
{
    // CUDA encodes 13.0 as 13000.
    snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

// The device line; returns the process exit code for --check when the device is unusable.
static int open_device(Probe &p)
{
    int drv = 0, rt = 0;
    cudaError_t e = cudaDriverGetVersion(&drv);
    if (e != cudaSuccess || drv == 0) {
        pj_message(stdout, "error", "no CUDA driver");
        return 3;
    }
    CK(cudaRuntimeGetVersion(&rt));
    int count = 0;
    e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
        pj_message(stdout, "error", "no device");
        return 4;
    }
    if (e == cudaErrorInsufficientDriver) {
        char msg[160], dv[16], rv[16];
        version_string(drv, dv, sizeof dv);
        version_string(rt, rv, sizeof rv);
        snprintf(msg, sizeof msg, "no CUDA driver: the driver supports CUDA %s, the probe needs %s",
                 dv, rv);
        pj_message(stdout, "error", msg);
        return 3;
    }
    if (e != cudaSuccess) {
        char msg[256];
        snprintf(msg, sizeof msg, "no device: cudaGetDeviceCount: %s", cudaGetErrorString(e));
        pj_message(stdout, "error", msg);
        return 4;
    }
    if (p.dev >= count) {
        char msg[128];
        snprintf(msg, sizeof msg, "no device %d (%d CUDA device%s)", p.dev, count,
                 count == 1 ? "" : "s");
        pj_message(stdout, "error", msg);
        return 4;
    }
    CK(cudaSetDevice(p.dev));
    CK(cudaGetDeviceProperties(&p.prop, p.dev));
    int clock_khz = 0, mem_khz = 0, bus = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, p.dev));
    CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, p.dev));
    CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, p.dev));
    char dv[16], rv[16], cc[16];
    version_string(drv, dv, sizeof dv);
    version_string(rt, rv, sizeof rv);
    snprintf(cc, sizeof cc, "%d.%d", p.prop.major, p.prop.minor);
    struct pj_line l = pj_begin(stdout);
    struct pj_line d = pj_object(&l, "device");
    pj_str(&d, "kind", "cuda");
    pj_str(&d, "name", p.prop.name);
    pj_int(&d, "index", p.dev);
    pj_str(&d, "driver_version", dv);
    pj_str(&d, "runtime_version", rv);
    pj_str(&d, "cc", cc);
    pj_num(&d, "memory_bytes", (double)p.prop.totalGlobalMem);
    if (clock_khz > 0)
        pj_num(&d, "clock_hz", clock_khz * 1e3);
    if (p.prop.l2CacheSize > 0)
        pj_num(&d, "l2_bytes", (double)p.prop.l2CacheSize);
    if (mem_khz > 0)
        pj_num(&d, "memory_clock_hz", mem_khz * 1e3);
    pj_int(&d, "sms", p.prop.multiProcessorCount);
    if (bus > 0)
        pj_int(&d, "memory_bus_bits", bus);
    pj_close(&d);
    pj_end(&l);
    return 0;
}

int main(int argc, char **argv)
{
    Probe p;
    memset(&p, 0, sizeof p);
    p.limit_s = 240;
    bool check = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--check") == 0) {
            check = true;
        } else if (strcmp(a, "--quick") == 0) {
            p.quick = true;
        } else if (strcmp(a, "--device") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 1024) {
                pj_message(stdout, "error", "--device: not a device index");
                return 2;
            }
            p.dev = (int)v;
        } else if (strcmp(a, "--time-limit") == 0 && i + 1 < argc) {
            char *end;
            double v = strtod(argv[++i], &end);
            if (*end || !(v > 0) || !isfinite(v)) {
                pj_message(stdout, "error", "--time-limit: not a positive number of seconds");
                return 2;
            }
            p.limit_s = v;
        } else if (strcmp(a, "--shapes") == 0 && i + 1 < argc) {
            if (!parse_shapes(argv[++i], p)) {
                pj_message(stdout, "error", "--shapes: want [LABEL=]M,N,K;... (1..1048576)");
                return 2;
            }
        } else {
            usage();
            char msg[160];
            snprintf(msg, sizeof msg, "%.100s: unknown option", a);
            pj_message(stdout, "error", msg);
            return 2;
        }
    }
    p.t0 = probe_wall();
    int rc = open_device(p);
    if (rc != 0 || check)
        return rc;

    CK(cudaStreamCreateWithFlags(&p.st, cudaStreamNonBlocking));
    CK(cudaEventCreate(&p.e0));
    CK(cudaEventCreate(&p.e1));
    p.total = probe_count_bandwidth(p) + probe_count_sweep(p) + probe_count_ops(p) +
              probe_count_gemms(p) + p.n_shapes;
    // Each part's wall time as a status line, to set against the estimate in probes/NOTES.md.
    const struct {
        const char *name;
        void (*run)(Probe &);
    } parts[] = {{"bandwidth", probe_bandwidth}, {"sweep", probe_sweep}, {"ops", probe_ops},
                 {"gemms", probe_gemms},         {"shapes", probe_shapes}};
    probe_status("started in %.2f s (driver, context, options)", probe_wall() - p.t0);
    for (const auto &part : parts) {
        if (part.run == probe_shapes && p.n_shapes == 0)
            continue;
        double t = probe_wall();
        part.run(p);
        probe_status("part %s: %.2f s", part.name, probe_wall() - t);
    }
    CK(cudaEventDestroy(p.e0));
    CK(cudaEventDestroy(p.e1));
    CK(cudaStreamDestroy(p.st));
    pj_done(stdout, p.done, probe_wall() - p.t0);
    return 0;
}
