// cuda_probe.cuh - shared by the CUDA probe's translation units: error checks, timing, random
// data, point emission. The executable streams the JSON lines of probe_json.h on stdout.
#ifndef ROOFTOP_CUDA_PROBE_CUH
#define ROOFTOP_CUDA_PROBE_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include <functional>

#include "probe_json.h"

#define PROBE_SHAPES_MAX 32

struct probe_shape_arg {
    char label[24];
    long m, n, k;
};

// The run: device, options, progress.
struct Probe {
    int dev;
    cudaDeviceProp prop;
    bool quick;
    double limit_s;
    double t0;
    int done, total;
    int invalid;
    cudaStream_t st;
    cudaEvent_t e0, e1;
    probe_shape_arg shapes[PROBE_SHAPES_MAX];
    int n_shapes;
};

// One error line on stdout, then exit 1: the parent (rooftop) reports it.
[[noreturn]] void probe_fail(const char *file, int line, const char *call, const char *what);

#define CK(call)                                                                             \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess)                                                               \
            probe_fail(__FILE__, __LINE__, #call, cudaGetErrorString(e_));                   \
    } while (0)

// After every kernel launch: launch errors now, execution errors at the next sync.
#define CK_LAUNCH() CK(cudaGetLastError())

double probe_wall(void);

// The best (fastest) seconds per call of launch(i) over 11 timed repeats after warm-up; each repeat
// runs a batch of calls between two events, sized so a batch lasts >= 0.2 ms (short kernels
// would otherwise time the launch and the event, not the work). i counts calls from 0, so
// callers rotate input sets with i % sets.
double probe_time(Probe &p, const std::function<void(long)> &launch);

// Stops with an error line when the time limit is spent.
void probe_check_time(Probe &p, const char *next);

void probe_emit(Probe &p, const char *name, const char *dtype, double flops, double bytes,
                double seconds, bool valid, const char *why_invalid);
void probe_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// The verdict of a checked run: valid when every output was written and the worst sampled
// error is within its tolerance (worst <= 1). Otherwise why says which: how many outputs
// were never written, or the detail about the worst sample (a printf format).
bool probe_verdict(unsigned long long unwritten, double worst, char *why, size_t n,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

// Random values in +-[0.25, 1.25): never zero, random sign; the same on host and device,
// so the host regenerates any input element to check a result without copying inputs back.
__host__ __device__ inline float probe_rand(uint64_t i, uint64_t seed)
{
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (seed * 0xD1B54A32D192ED03ull);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    float mag = 0.25f + (float)(x >> 40) * (1.0f / 16777216.0f);
    return (x & 1) ? -mag : mag;
}

template <class T> __host__ __device__ inline T probe_cvt(float v);
template <> __host__ __device__ inline float probe_cvt<float>(float v) { return v; }
template <> __host__ __device__ inline double probe_cvt<double>(float v) { return v; }
template <> __host__ __device__ inline __half probe_cvt<__half>(float v) { return __float2half_rn(v); }
template <> __host__ __device__ inline __nv_bfloat16 probe_cvt<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}
template <> __host__ __device__ inline __nv_fp8_e4m3 probe_cvt<__nv_fp8_e4m3>(float v)
{
    return __nv_fp8_e4m3(v);
}

// Fills n elements of T with probe_rand(i, seed).
template <class T> void probe_fill(Probe &p, T *dst, size_t n, uint64_t seed);
// Poison: all bits set is NaN in every float format used here (fp64, fp32, fp16, bf16, e4m3).
void probe_poison(Probe &p, void *dst, size_t bytes);
// Words of `width` bytes (4 or 8) in [dst, dst + bytes) still all ones: outputs a kernel
// failed to write (a real result is never NaN here). The width must be the element's for
// fp64: half of a written double can be all ones (about once in 2^32 words, so a few percent
// of 1 GiB outputs), while the whole double never is. 4 serves fp32 and pairs of 16-bit values.
unsigned long long probe_count_poison(Probe &p, const void *dst, size_t bytes, int width);

// Blocks for a grid-stride kernel: as many as are resident at once on every SM (the occupancy
// the compiler's register count allows), so no block waits for a second wave.
template <class K> int probe_grid(const Probe &p, K kernel, int block)
{
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    if (per_sm < 1)
        probe_fail(__FILE__, __LINE__, "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
                   "the kernel cannot run with this block size");
    return p.prop.multiProcessorCount * per_sm;
}

// Rotating input sets: how many copies of set_bytes make the working set >= 4x L2, capped.
int probe_sets(const Probe &p, double set_bytes, int cap);

// Parts of the probe, in the order they run.
void probe_bandwidth(Probe &p);
void probe_sweep(Probe &p);
void probe_ops(Probe &p);
void probe_gemms(Probe &p);
void probe_shapes(Probe &p);
// Point counts for the progress total.
int probe_count_bandwidth(const Probe &p);
int probe_count_sweep(const Probe &p);
int probe_count_ops(const Probe &p);
int probe_count_gemms(const Probe &p);

#endif
