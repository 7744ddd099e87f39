// cuda_kernels.cu - bandwidth, the FMA intensity sweep on the CUDA cores, and the lecture's
// elementwise/reduction operations.
#include <math.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "cuda_probe.cuh"

// ---- bandwidth ------------------------------------------------------------------------------

// Bytes per bandwidth buffer: far beyond the L2 (50-60 MB on H100/H200), within memory.
static size_t big_bytes(const Probe &p)
{
    size_t want = p.quick ? ((size_t)512 << 20) : ((size_t)1 << 30);
    size_t cap = p.prop.totalGlobalMem / 8;
    want = std::min(want, cap);
    return want / 4096 * 4096;
}

static int grid_for(const Probe &p, int per_sm)
{
    return p.prop.multiProcessorCount * per_sm;
}

__global__ void k_triad(double2 *__restrict__ a, const double2 *__restrict__ b,
                        const double2 *__restrict__ c, size_t n2, double s)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + stride < n2; i += 2 * stride) { // two elements in flight per thread
        double2 x0 = b[i], y0 = c[i], x1 = b[i + stride], y1 = c[i + stride];
        a[i] = make_double2(fma(s, y0.x, x0.x), fma(s, y0.y, x0.y));
        a[i + stride] = make_double2(fma(s, y1.x, x1.x), fma(s, y1.y, x1.y));
    }
    for (; i < n2; i += stride) {
        double2 x = b[i], y = c[i];
        a[i] = make_double2(fma(s, y.x, x.x), fma(s, y.y, x.y));
    }
}

// STREAM's (and BabelStream's) copy a = b as a kernel, with the triad's loads in flight: the
// driver's cudaMemcpy picks its own copy engine or kernel, which is not the rate a kernel of
// the model's sees.
__global__ void k_copy(double2 *__restrict__ a, const double2 *__restrict__ b, size_t n2)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + stride < n2; i += 2 * stride) { // two elements in flight per thread
        double2 x0 = b[i], x1 = b[i + stride];
        a[i] = x0;
        a[i + stride] = x1;
    }
    for (; i < n2; i += stride)
        a[i] = b[i];
}

// Counts elements of a that differ from b + s*c (the same fma), or from b alone when c is NULL.
__global__ void k_count_bad(const double *a, const double *b, const double *c, size_t n, double s,
                            unsigned long long *bad)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long local = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double want = c ? fma(s, c[i], b[i]) : b[i];
        // compare bits: a NaN poison never equals anything
        local += __double_as_longlong(a[i]) != __double_as_longlong(want);
    }
    if (local)
        atomicAdd(bad, local);
}

// Read-only: every element summed (in fp64, so the sum is a check), one partial per block.
__global__ void k_read(const float4 *__restrict__ x, size_t n4, double *partial)
{
    __shared__ double sm[32];
    size_t stride = (size_t)gridDim.x * blockDim.x;
    double acc = 0;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    // Four independent 16-byte loads in flight per thread: HBM needs megabytes in flight
    // (bandwidth x latency), more than one load per thread gives.
    for (; i + 3 * stride < n4; i += 4 * stride) {
        float4 v0 = x[i], v1 = x[i + stride], v2 = x[i + 2 * stride], v3 = x[i + 3 * stride];
        acc += ((double)v0.x + (double)v0.y + (double)v0.z + (double)v0.w) +
               ((double)v1.x + (double)v1.y + (double)v1.z + (double)v1.w) +
               ((double)v2.x + (double)v2.y + (double)v2.z + (double)v2.w) +
               ((double)v3.x + (double)v3.y + (double)v3.z + (double)v3.w);
    }
    for (; i < n4; i += stride) {
        float4 v = x[i];
        acc += (double)v.x + (double)v.y + (double)v.z + (double)v.w;
    }
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        sm[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        double s = 0;
        for (int w = 0; w < (int)(blockDim.x >> 5); w++)
            s += sm[w];
        partial[blockIdx.x] = s;
    }
}

// A second, differently ordered sum of the same data: one element per thread, atomics.
__global__ void k_sum_check(const float *x, size_t n, double *sum, double *mag)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    double s = 0, m = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        s += x[i];
        m += fabs((double)x[i]);
    }
    atomicAdd(sum, s);
    atomicAdd(mag, m);
}

int probe_count_bandwidth(const Probe &p)
{
    (void)p;
    return 3;
}

void probe_bandwidth(Probe &p)
{
    size_t bytes = big_bytes(p);
    size_t nd = bytes / sizeof(double);
    double *a, *b, *c;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMalloc(&c, bytes));
    probe_fill(p, b, nd, 11);
    probe_fill(p, c, nd, 12);
    unsigned long long *bad;
    double *partial, *chk;
    // Grids of exactly the resident blocks: k_read's 512-thread blocks at 38 registers fit 3
    // to an SM, so a fixed 4 per SM would have run a quarter of the work as a second wave.
    const int read_blocks = probe_grid(p, k_read, 512);
    const int triad_blocks = probe_grid(p, k_triad, 256);
    const int copy_blocks = probe_grid(p, k_copy, 256);
    CK(cudaMalloc(&bad, sizeof *bad));
    CK(cudaMalloc(&partial, sizeof(double) * read_blocks));
    CK(cudaMalloc(&chk, 2 * sizeof(double)));
    unsigned long long nbad = 0;

    // Clocks up first: an idle H200 was seen at 345 MHz (SM), and the copy's 2 warm-up calls
    // last a millisecond. A quarter of a second of copies, untimed, before the first point.
    const double spin_until = probe_wall() + (p.quick ? 0.15 : 0.25);
    while (probe_wall() < spin_until) {
        for (int r = 0; r < 8; r++)
            CK(cudaMemcpyAsync(a, b, bytes, cudaMemcpyDeviceToDevice, p.st));
        CK(cudaStreamSynchronize(p.st));
    }

    // copy: a = b by k_copy, bytes read + bytes written
    probe_check_time(p, "bw.copy");
    probe_poison(p, a, bytes);
    double sec = probe_time(p, [&](long) {
        k_copy<<<copy_blocks, 256, 0, p.st>>>((double2 *)a, (const double2 *)b, nd / 2);
        CK_LAUNCH();
    });
    CK(cudaMemsetAsync(bad, 0, sizeof *bad, p.st));
    k_count_bad<<<grid_for(p, 8), 256, 0, p.st>>>(a, b, NULL, nd, 0, bad);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(&nbad, bad, sizeof nbad, cudaMemcpyDeviceToHost, p.st));
    CK(cudaStreamSynchronize(p.st));
    probe_emit(p, "bw.copy", "fp32", 0, 2.0 * (double)bytes, sec, nbad == 0,
               "the copy differs from its source");

    // triad: a = b + s*c, STREAM's count of 2 FLOPs and 3 arrays per element
    probe_check_time(p, "bw.triad");
    probe_poison(p, a, bytes);
    const double s = 0.75;
    sec = probe_time(p, [&](long) {
        k_triad<<<triad_blocks, 256, 0, p.st>>>((double2 *)a, (const double2 *)b,
                                                   (const double2 *)c, nd / 2, s);
        CK_LAUNCH();
    });
    CK(cudaMemsetAsync(bad, 0, sizeof *bad, p.st));
    k_count_bad<<<grid_for(p, 8), 256, 0, p.st>>>(a, b, c, nd, s, bad);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(&nbad, bad, sizeof nbad, cudaMemcpyDeviceToHost, p.st));
    CK(cudaStreamSynchronize(p.st));
    probe_emit(p, "bw.triad", "fp64", 2.0 * (double)nd, 3.0 * (double)bytes, sec, nbad == 0,
               "elements differ from b + s*c");

    // read: the whole buffer summed; checked against a differently ordered fp64 sum
    probe_check_time(p, "bw.read");
    const float *x = (const float *)b;
    size_t nf = bytes / sizeof(float);
    probe_fill(p, (float *)b, nf, 13); /* floats: doubles' bits read as floats may be NaN */
    probe_poison(p, partial, sizeof(double) * read_blocks);
    sec = probe_time(p, [&](long) {
        k_read<<<read_blocks, 512, 0, p.st>>>((const float4 *)x, nf / 4, partial);
        CK_LAUNCH();
    });
    std::vector<double> hp(read_blocks);
    double hchk[2] = {0, 0};
    CK(cudaMemsetAsync(chk, 0, 2 * sizeof(double), p.st));
    k_sum_check<<<grid_for(p, 8), 256, 0, p.st>>>(x, nf, chk, chk + 1);
    CK_LAUNCH();
    CK(cudaMemcpyAsync(hp.data(), partial, sizeof(double) * read_blocks, cudaMemcpyDeviceToHost,
                       p.st));
    CK(cudaMemcpyAsync(hchk, chk, sizeof hchk, cudaMemcpyDeviceToHost, p.st));
    CK(cudaStreamSynchronize(p.st));
    double total = 0;
    for (double v : hp)
        total += v;
    bool ok = isfinite(total) && fabs(total - hchk[0]) <= 1e-9 * hchk[1];
    probe_emit(p, "bw.read", "fp32", (double)nf, (double)bytes, sec, ok,
               "the sum differs from a second, differently ordered sum");

    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    CK(cudaFree(bad));
    CK(cudaFree(partial));
    CK(cudaFree(chk));
}

// ---- the intensity sweep ----------------------------------------------------------------------

// Arithmetic for each element type; the pairs do two lanes per instruction.
__device__ inline float s_add(float a, float b) { return a + b; }
__device__ inline double s_add(double a, double b) { return a + b; }
__device__ inline __half2 s_add(__half2 a, __half2 b) { return __hadd2(a, b); }
__device__ inline __nv_bfloat162 s_add(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
__device__ inline float s_fma(float x, float s, float t) { return fmaf(x, s, t); }
__device__ inline double s_fma(double x, double s, double t) { return fma(x, s, t); }
__device__ inline __half2 s_fma(__half2 x, __half2 s, __half2 t) { return __hfma2(x, s, t); }
__device__ inline __nv_bfloat162 s_fma(__nv_bfloat162 x, __nv_bfloat162 s, __nv_bfloat162 t)
{
    return __hfma2(x, s, t);
}

// Independent elements per thread: with full occupancy (2048 threads per SM) that is 8192 FMA
// chains per SM, far more than the 4-cycle latency x 128 lanes an SM needs, so the high-
// intensity end is limited by the FMA rate and not by latency (mixbench's weak spot).
#define SWEEP_ILP 4
#define SWEEP_BLOCK 256
// Blocks per SM the sweep is launched with: __launch_bounds__ holds the kernel to the 32
// registers that lets all 8 (2048 threads) be resident at once, so the grid is one full wave.
#define SWEEP_BLOCKS_PER_SM 8
// The dependent-FMA loop unrolled this far: the loop's counter, compare and branch are 3 issue
// slots per 64 x SWEEP_ILP FMAs (1.2%; at 16 they were 3 in 67, 4.5% of the fp32 roof). See
// probes/NOTES.md for the SASS counts.
// (A constant, not a macro: nvcc does not expand macros inside #pragma unroll.)
constexpr int SWEEP_UNROLL = 64;

// c = a + b, then IT dependent x = x*s + t on each element; elements ILP at a time, each
// thread's ILP elements a grid-stride apart so every load is coalesced. s and t are kernel
// arguments, so the compiler cannot fold the chain: IT x SWEEP_ILP FMA instructions run.
template <class T, int IT>
__global__ void __launch_bounds__(SWEEP_BLOCK, SWEEP_BLOCKS_PER_SM)
    k_sweep(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, size_t n, T s, T t)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t base = (size_t)blockIdx.x * blockDim.x + threadIdx.x; base < n;
         base += stride * SWEEP_ILP) {
        T x[SWEEP_ILP];
#pragma unroll
        for (int j = 0; j < SWEEP_ILP; j++) {
            size_t i = base + (size_t)j * stride;
            x[j] = i < n ? s_add(a[i], b[i]) : s;
        }
#pragma unroll SWEEP_UNROLL
        for (int k = 0; k < IT; k++) {
#pragma unroll
            for (int j = 0; j < SWEEP_ILP; j++)
                x[j] = s_fma(x[j], s, t);
        }
#pragma unroll
        for (int j = 0; j < SWEEP_ILP; j++) {
            size_t i = base + (size_t)j * stride;
            if (i < n)
                c[i] = x[j];
        }
    }
}

template <class T> struct SweepType;
template <> struct SweepType<float> {
    static constexpr const char *name = "fp32";
    static constexpr int lanes = 1;
    static float make(float v) { return v; }
};
template <> struct SweepType<double> {
    static constexpr const char *name = "fp64";
    static constexpr int lanes = 1;
    static double make(float v) { return v; }
};
template <> struct SweepType<__half2> {
    static constexpr const char *name = "fp16";
    static constexpr int lanes = 2;
    static __half2 make(float v) { return __floats2half2_rn(v, v); }
};
template <> struct SweepType<__nv_bfloat162> {
    static constexpr const char *name = "bf16";
    static constexpr int lanes = 2;
    static __nv_bfloat162 make(float v) { return __floats2bfloat162_rn(v, v); }
};

// Host recompute of one lane, rounding to the element format after every operation as the
// device does (fp32/fp64 fused multiply-add is exact-rounded; the 16-bit formats are emulated
// through float, which can differ in the last bit: the check allows for it).
template <class T> static double sweep_host(uint64_t idx, int iters);
template <> double sweep_host<float>(uint64_t i, int iters)
{
    float x = probe_rand(i, 21) + probe_rand(i, 22);
    for (int k = 0; k < iters; k++)
        x = fmaf(x, 0.75f, 0.25f);
    return x;
}
template <> double sweep_host<double>(uint64_t i, int iters)
{
    double x = (double)probe_rand(i, 21) + (double)probe_rand(i, 22);
    for (int k = 0; k < iters; k++)
        x = fma(x, 0.75, 0.25);
    return x;
}
template <class H> static double sweep_host16(uint64_t lane_idx, int iters)
{
    float a = (float)probe_cvt<H>(probe_rand(lane_idx, 21));
    float b = (float)probe_cvt<H>(probe_rand(lane_idx, 22));
    float x = (float)probe_cvt<H>(a + b);
    for (int k = 0; k < iters; k++)
        x = (float)probe_cvt<H>(fmaf(x, 0.75f, 0.25f));
    return x;
}
template <> double sweep_host<__half2>(uint64_t i, int iters) { return sweep_host16<__half>(i, iters); }
template <> double sweep_host<__nv_bfloat162>(uint64_t i, int iters)
{
    return sweep_host16<__nv_bfloat16>(i, iters);
}

static double lane_of(float v, int) { return v; }
static double lane_of(double v, int) { return v; }
static double lane_of(__half2 v, int l) { return __half2float(l ? v.y : v.x); }
static double lane_of(__nv_bfloat162 v, int l) { return __bfloat162float(l ? v.y : v.x); }

// The FMA counts: compile-time, one kernel each.
#define SWEEP_LIST(X) X(0) X(1) X(2) X(4) X(8) X(16) X(32) X(64) X(128) X(256) X(512) X(1024) \
    X(2048) X(4096) X(8192) X(16384)

template <class T> static void launch_sweep(int it, int blocks, const T *a, const T *b, T *c,
                                            size_t n, T s, T t, cudaStream_t st)
{
    switch (it) {
#define CASE(I)                                                                              \
    case I:                                                                                  \
        k_sweep<T, I><<<blocks, SWEEP_BLOCK, 0, st>>>(a, b, c, n, s, t);                     \
        break;
        SWEEP_LIST(CASE)
#undef CASE
    default:
        probe_fail(__FILE__, __LINE__, "launch_sweep", "no kernel for this FMA count");
    }
    CK_LAUNCH();
}

template <class T>
static void sweep_type(Probe &p, const std::vector<int> &iters, void *buf[3], size_t bytes)
{
    typedef SweepType<T> ST;
    const size_t nbig = bytes / sizeof(T);
    T *a = (T *)buf[0], *b = (T *)buf[1], *c = (T *)buf[2];
    // Inputs: lane values probe_rand(lane index, 21 / 22) in the element format.
    if (ST::lanes == 1) {
        probe_fill(p, (T *)a, nbig, 21);
        probe_fill(p, (T *)b, nbig, 22);
    } else if (strcmp(ST::name, "fp16") == 0) {
        probe_fill(p, (__half *)a, nbig * 2, 21);
        probe_fill(p, (__half *)b, nbig * 2, 22);
    } else {
        probe_fill(p, (__nv_bfloat16 *)a, nbig * 2, 21);
        probe_fill(p, (__nv_bfloat16 *)b, nbig * 2, 22);
    }
    const T s = ST::make(0.75f), t = ST::make(0.25f);
    const int sms = p.prop.multiProcessorCount;
    // One pass of the whole grid over SWEEP_ILP elements per thread. Compute-bound sizes are
    // whole passes: a last partial pass costs a full pass's time (its idle lanes run the same
    // FMAs on a dummy value) for part of the FLOPs, up to 5% of the roof at ~4 passes.
    const int blocks_full = sms * SWEEP_BLOCKS_PER_SM;
    const size_t pass = (size_t)blocks_full * SWEEP_BLOCK * SWEEP_ILP;
    // Enough elements to fill the GPU with SWEEP_ILP per thread at full occupancy, twice.
    const size_t n_fill = 2 * pass;
    // A rough datasheet-class rate to size compute-bound runs to ~2 ms (H100 fp32 ~ 6.7e13).
    const double rate = ST::lanes == 2 ? 1.3e14 : (strcmp(ST::name, "fp64") == 0 ? 3.4e13 : 6.7e13);
    for (int it : iters) {
        char name[64];
        snprintf(name, sizeof name, "sweep.%s.%d", ST::name, it);
        probe_check_time(p, name);
        double fpe = (double)ST::lanes * (1.0 + 2.0 * it); // FLOPs per element
        size_t n = nbig;
        double want = 2e-3 * rate / fpe;
        if (want < (double)n) {
            n = std::max(n_fill, (size_t)want);
            n = (n + pass - 1) / pass * pass;
        }
        n = std::min(n, nbig);
        int blocks = (int)std::min<size_t>((n + SWEEP_BLOCK * SWEEP_ILP - 1) / (SWEEP_BLOCK * SWEEP_ILP),
                                           (size_t)blocks_full);
        probe_poison(p, c, n * sizeof(T));
        double sec = probe_time(p, [&](long) { launch_sweep<T>(it, blocks, a, b, c, n, s, t, p.st); });
        // Check 128 elements spread over the output, and that none is left poisoned.
        const int samples = 128;
        size_t step = n / samples;
        std::vector<T> got(samples);
        CK(cudaMemcpy2DAsync(got.data(), sizeof(T), c, step * sizeof(T), sizeof(T), samples,
                             cudaMemcpyDeviceToHost, p.st));
        CK(cudaStreamSynchronize(p.st));
        unsigned long long unwritten = probe_count_poison(p, c, n * sizeof(T), sizeof(T) == 8 ? 8 : 4);
        double tol = ST::lanes == 2 ? 2e-2 : 1e-6;
        // All samples checked, the worst kept, so a failure says by how much.
        double worst = -1, w_got = 0, w_want = 0;
        uint64_t w_idx = 0;
        for (int q = 0; q < samples; q++) {
            for (int l = 0; l < ST::lanes; l++) {
                uint64_t idx = (uint64_t)q * step * ST::lanes + (uint64_t)l;
                double want = sweep_host<T>(idx, it);
                double v = lane_of(got[q], l);
                double e = isfinite(v) ? fabs(v - want) / (tol * (1.0 + fabs(want))) : INFINITY;
                if (e > worst) {
                    worst = e;
                    w_got = v, w_want = want, w_idx = idx;
                }
            }
        }
        char why[256];
        bool ok = probe_verdict(unwritten, worst, why, sizeof why,
                                "sampled outputs differ from the host recompute: worst lane %llu = "
                                "%.9g, want %.9g",
                                (unsigned long long)w_idx, w_got, w_want);
        probe_emit(p, name, ST::name, fpe * (double)n, 3.0 * sizeof(T) * (double)n, sec, ok, why);
    }
}

static std::vector<int> sweep_iters(const Probe &p, const char *type)
{
    bool f64 = strcmp(type, "fp64") == 0;
    if (p.quick)
        return f64 ? std::vector<int>{0, 32, 1024, 16384}
                   : std::vector<int>{0, 4, 32, 256, 2048, 8192};
    std::vector<int> v = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
    if (f64)
        v.push_back(16384); // (1 + 2*16384) / 24 B > 1000 FLOP/byte
    return v;
}

int probe_count_sweep(const Probe &p)
{
    return (int)(sweep_iters(p, "fp32").size() * 3 + sweep_iters(p, "fp64").size());
}

void probe_sweep(Probe &p)
{
    size_t bytes = big_bytes(p);
    void *buf[3];
    for (int i = 0; i < 3; i++)
        CK(cudaMalloc(&buf[i], bytes));
    sweep_type<float>(p, sweep_iters(p, "fp32"), buf, bytes);
    sweep_type<double>(p, sweep_iters(p, "fp64"), buf, bytes);
    sweep_type<__half2>(p, sweep_iters(p, "fp16"), buf, bytes);
    sweep_type<__nv_bfloat162>(p, sweep_iters(p, "bf16"), buf, bytes);
    for (int i = 0; i < 3; i++)
        CK(cudaFree(buf[i]));
}

// ---- the lecture's operations -----------------------------------------------------------------
// Counts as the lecture (and src/roofline.c lecture_op_cost): ReLU n FLOPs, GELU 20n, dot 2n-1,
// matvec n(2n-1); bytes: every input read once and every output written once.

__device__ inline float op_relu(float v) { return v > 0.f ? v : 0.f; }
__device__ inline float op_gelu(float v)
{
    return 0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

template <class T> __device__ inline float to_f(T v) { return (float)v; }
template <> __device__ inline float to_f<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ inline T from_f(float v);
template <> __device__ inline float from_f<float>(float v) { return v; }
template <> __device__ inline __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// 16 bytes per thread per step: 4 fp32 or 8 bf16 elements.
template <class T, int OP> __global__ void k_unary(const uint4 *__restrict__ x, uint4 *__restrict__ y, size_t n16)
{
    const int per = 16 / sizeof(T);
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += stride) {
        uint4 v = x[i];
        T *e = (T *)&v;
#pragma unroll
        for (int j = 0; j < per; j++) {
            float f = to_f<T>(e[j]);
            e[j] = from_f<T>(OP == 0 ? op_relu(f) : op_gelu(f));
        }
        y[i] = v;
    }
}

template <class T> static double host_val(uint64_t i, uint64_t seed)
{
    return (double)(float)probe_cvt<T>(probe_rand(i, seed));
}
template <> double host_val<__nv_bfloat16>(uint64_t i, uint64_t seed)
{
    return (double)__bfloat162float(probe_cvt<__nv_bfloat16>(probe_rand(i, seed)));
}

static double read_elem(const void *p, bool bf16, size_t i)
{
    return bf16 ? (double)__bfloat162float(((const __nv_bfloat16 *)p)[i]) : ((const float *)p)[i];
}

template <class T> static void unary_op(Probe &p, int op)
{
    const bool bf16 = sizeof(T) == 2;
    const char *dt = bf16 ? "bf16" : "fp32";
    const char *name = op == 0 ? "op.relu" : "op.gelu";
    probe_check_time(p, name);
    const size_t n = 1 << 20; // the lecture's 1024^2
    const size_t set_bytes = n * sizeof(T);
    const int sets = probe_sets(p, 2.0 * set_bytes, 256);
    T *x, *y;
    CK(cudaMalloc(&x, set_bytes * sets));
    CK(cudaMalloc(&y, set_bytes * sets));
    probe_fill(p, x, n * sets, 31);
    probe_poison(p, y, set_bytes * sets);
    const size_t n16 = set_bytes / 16;
    const int blocks = (int)std::min<size_t>((n16 + 255) / 256, (size_t)p.prop.multiProcessorCount * 8);
    double sec = probe_time(p, [&](long i) {
        long s = i % sets;
        const uint4 *xs = (const uint4 *)(x + (size_t)s * n);
        uint4 *ys = (uint4 *)(y + (size_t)s * n);
        if (op == 0)
            k_unary<T, 0><<<blocks, 256, 0, p.st>>>(xs, ys, n16);
        else
            k_unary<T, 1><<<blocks, 256, 0, p.st>>>(xs, ys, n16);
        CK_LAUNCH();
    });
    // Check set 0 (always run) at 1024 spread elements against a double reference.
    std::vector<T> out(n);
    CK(cudaMemcpyAsync(out.data(), y, set_bytes, cudaMemcpyDeviceToHost, p.st));
    CK(cudaStreamSynchronize(p.st));
    bool ok = probe_count_poison(p, y, set_bytes, 4) == 0;
    for (size_t i = 0; i < n && ok; i += 1023) {
        double v = host_val<T>(i, 31), want;
        want = op == 0 ? (v > 0 ? v : 0)
                       : 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
        double got = read_elem(out.data(), bf16, i);
        double tol = bf16 ? 1e-2 : 1e-5;
        ok = isfinite(got) && fabs(got - want) <= tol * (1 + fabs(want));
    }
    double flops = op == 0 ? (double)n : 20.0 * n;
    probe_emit(p, name, dt, flops, 2.0 * set_bytes, sec, ok, "outputs differ from the fp64 reference");
    CK(cudaFree(x));
    CK(cudaFree(y));
}

// dot: per-block partial sums, then one block adds them (both in the timed region).
__global__ void k_dot_partial(const float4 *__restrict__ x, const float4 *__restrict__ y, size_t n4,
                              float *partial)
{
    __shared__ float sm[32];
    size_t stride = (size_t)gridDim.x * blockDim.x;
    float acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 a = x[i], b = y[i];
        acc = fmaf(a.x, b.x, acc);
        acc = fmaf(a.y, b.y, acc);
        acc = fmaf(a.z, b.z, acc);
        acc = fmaf(a.w, b.w, acc);
    }
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0)
        sm[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        float v = threadIdx.x < (blockDim.x >> 5) ? sm[threadIdx.x] : 0.f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0)
            partial[blockIdx.x] = v;
    }
}

__global__ void k_dot_final(const float *partial, int n, float *out)
{
    __shared__ float sm[32];
    float v = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        v += partial[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        sm[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0;
        for (int w = 0; w < (int)(blockDim.x >> 5); w++)
            s += sm[w];
        *out = s;
    }
}

// matvec: one warp per row.
__global__ void k_matvec(const float *__restrict__ a, const float *__restrict__ x, float *__restrict__ y, int n)
{
    int row = (int)((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
    int lane = threadIdx.x & 31;
    if (row >= n)
        return;
    const float4 *r = (const float4 *)(a + (size_t)row * n);
    const float4 *v = (const float4 *)x;
    float acc = 0;
    for (int i = lane; i < n / 4; i += 32) {
        float4 p = r[i], q = v[i];
        acc = fmaf(p.x, q.x, acc);
        acc = fmaf(p.y, q.y, acc);
        acc = fmaf(p.z, q.z, acc);
        acc = fmaf(p.w, q.w, acc);
    }
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0)
        y[row] = acc;
}

static void dot_op(Probe &p)
{
    probe_check_time(p, "op.dot");
    const size_t n = 1 << 20;
    const int sets = probe_sets(p, 2.0 * n * sizeof(float), 256);
    float *x, *y, *partial, *out;
    const int blocks = p.prop.multiProcessorCount * 2;
    CK(cudaMalloc(&x, n * sizeof(float) * sets));
    CK(cudaMalloc(&y, n * sizeof(float) * sets));
    CK(cudaMalloc(&partial, sizeof(float) * blocks));
    CK(cudaMalloc(&out, sizeof(float) * sets));
    probe_fill(p, x, n * sets, 41);
    probe_fill(p, y, n * sets, 42);
    probe_poison(p, out, sizeof(float) * sets);
    double sec = probe_time(p, [&](long i) {
        long s = i % sets;
        k_dot_partial<<<blocks, 256, 0, p.st>>>((const float4 *)(x + s * n), (const float4 *)(y + s * n),
                                               n / 4, partial);
        CK_LAUNCH();
        k_dot_final<<<1, 256, 0, p.st>>>(partial, blocks, out + s);
        CK_LAUNCH();
    });
    float got = 0;
    CK(cudaMemcpyAsync(&got, out, sizeof got, cudaMemcpyDeviceToHost, p.st));
    CK(cudaStreamSynchronize(p.st));
    double want = 0, mag = 0;
    for (size_t i = 0; i < n; i++) {
        double v = (double)probe_rand(i, 41) * (double)probe_rand(i, 42);
        want += v;
        mag += fabs(v);
    }
    bool ok = isfinite(got) && fabs(got - want) <= 1e-5 * mag;
    probe_emit(p, "op.dot", "fp32", 2.0 * n - 1, 4.0 * (2.0 * n + 1), sec, ok,
               "the result differs from the fp64 reference");
    CK(cudaFree(x));
    CK(cudaFree(y));
    CK(cudaFree(partial));
    CK(cudaFree(out));
}

static void matvec_op(Probe &p)
{
    probe_check_time(p, "op.matvec");
    const int n = 1024;
    const size_t na = (size_t)n * n;
    const int sets = probe_sets(p, 4.0 * (na + 2 * n), 256);
    float *a, *x, *y;
    CK(cudaMalloc(&a, na * sizeof(float) * sets));
    CK(cudaMalloc(&x, (size_t)n * sizeof(float) * sets));
    CK(cudaMalloc(&y, (size_t)n * sizeof(float) * sets));
    probe_fill(p, a, na * sets, 51);
    probe_fill(p, x, (size_t)n * sets, 52);
    probe_poison(p, y, (size_t)n * sizeof(float) * sets);
    double sec = probe_time(p, [&](long i) {
        long s = i % sets;
        k_matvec<<<n * 32 / 256, 256, 0, p.st>>>(a + s * na, x + (size_t)s * n, y + (size_t)s * n, n);
        CK_LAUNCH();
    });
    std::vector<float> got(n);
    CK(cudaMemcpyAsync(got.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost, p.st));
    CK(cudaStreamSynchronize(p.st));
    bool ok = true;
    for (int r = 0; r < n && ok; r += 37) {
        double want = 0, mag = 0;
        for (int c = 0; c < n; c++) {
            double v = (double)probe_rand((uint64_t)r * n + c, 51) * (double)probe_rand(c, 52);
            want += v;
            mag += fabs(v);
        }
        ok = isfinite(got[r]) && fabs(got[r] - want) <= 1e-5 * mag;
    }
    for (int r = 0; r < n && ok; r++)
        ok = isfinite(got[r]);
    probe_emit(p, "op.matvec", "fp32", (double)n * (2.0 * n - 1), 4.0 * ((double)na + 2.0 * n), sec,
               ok, "rows differ from the fp64 reference");
    CK(cudaFree(a));
    CK(cudaFree(x));
    CK(cudaFree(y));
}

int probe_count_ops(const Probe &p)
{
    (void)p;
    return 4 + 2 + 3 * 2; // relu, gelu x fp32/bf16; dot, matvec; matmul 3 sizes x fp32/bf16
}

void probe_matmul_ops(Probe &p); // cuda_gemm.cu

void probe_ops(Probe &p)
{
    unary_op<float>(p, 0);
    unary_op<__nv_bfloat16>(p, 0);
    unary_op<float>(p, 1);
    unary_op<__nv_bfloat16>(p, 1);
    dot_op(p);
    matvec_op(p);
    probe_matmul_ops(p);
}
