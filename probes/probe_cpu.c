/* probe_cpu.c - the CPU backend's kernels: bandwidth, FMA intensity sweep and the lecture's
 * operations, on all hardware threads (pool.c), vectorised for the ISA this file is compiled
 * for (the Makefile builds only this file with -march=native; the machine's description is
 * read in cpu_info.c). */
#include "probe.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_info.h"
#include "pool.h"
#include "roofline.h"

/* ---- the vector ISA, chosen at compile time (probes are built with -march=native) -------- */

#if defined(__AVX512F__)
#include <immintrin.h>
#define ISA_NAME "avx512"
#define VBITS 512
#define HAVE_FMA 1
typedef __m512 vf;
typedef __m512d vd;
#define VF_LOAD(p) _mm512_load_ps(p)
#define VF_STORE(p, x) _mm512_store_ps((p), (x))
#define VF_SET1(v) _mm512_set1_ps(v)
#define VF_ADD(a, b) _mm512_add_ps((a), (b))
#define VF_FMA(a, b, c) _mm512_fmadd_ps((a), (b), (c))
#define VF_ZERO() _mm512_setzero_ps()
#define VD_LOAD(p) _mm512_load_pd(p)
#define VD_STORE(p, x) _mm512_store_pd((p), (x))
#define VD_STREAM(p, x) _mm512_stream_pd((p), (x))
#define VD_SET1(v) _mm512_set1_pd(v)
#define VD_ADD(a, b) _mm512_add_pd((a), (b))
#define VD_FMA(a, b, c) _mm512_fmadd_pd((a), (b), (c))
#define STREAM_FENCE() _mm_sfence()
#elif defined(__AVX__) && defined(__FMA__)
#include <immintrin.h>
#if defined(__AVX2__)
#define ISA_NAME "avx2"
#else
#define ISA_NAME "avx"
#endif
#define VBITS 256
#define HAVE_FMA 1
typedef __m256 vf;
typedef __m256d vd;
#define VF_LOAD(p) _mm256_load_ps(p)
#define VF_STORE(p, x) _mm256_store_ps((p), (x))
#define VF_SET1(v) _mm256_set1_ps(v)
#define VF_ADD(a, b) _mm256_add_ps((a), (b))
#define VF_FMA(a, b, c) _mm256_fmadd_ps((a), (b), (c))
#define VF_ZERO() _mm256_setzero_ps()
#define VD_LOAD(p) _mm256_load_pd(p)
#define VD_STORE(p, x) _mm256_store_pd((p), (x))
#define VD_STREAM(p, x) _mm256_stream_pd((p), (x))
#define VD_SET1(v) _mm256_set1_pd(v)
#define VD_ADD(a, b) _mm256_add_pd((a), (b))
#define VD_FMA(a, b, c) _mm256_fmadd_pd((a), (b), (c))
#define STREAM_FENCE() _mm_sfence()
#elif defined(__SSE2__)
#include <emmintrin.h>
#define ISA_NAME "sse2"
#define VBITS 128
#define HAVE_FMA 0
typedef __m128 vf;
typedef __m128d vd;
#define VF_LOAD(p) _mm_load_ps(p)
#define VF_STORE(p, x) _mm_store_ps((p), (x))
#define VF_SET1(v) _mm_set1_ps(v)
#define VF_ADD(a, b) _mm_add_ps((a), (b))
/* No FMA unit: a multiply and an add, the same two FLOPs. */
#define VF_FMA(a, b, c) _mm_add_ps(_mm_mul_ps((a), (b)), (c))
#define VF_ZERO() _mm_setzero_ps()
#define VD_LOAD(p) _mm_load_pd(p)
#define VD_STORE(p, x) _mm_store_pd((p), (x))
#define VD_STREAM(p, x) _mm_stream_pd((p), (x))
#define VD_SET1(v) _mm_set1_pd(v)
#define VD_ADD(a, b) _mm_add_pd((a), (b))
#define VD_FMA(a, b, c) _mm_add_pd(_mm_mul_pd((a), (b)), (c))
#define STREAM_FENCE() _mm_sfence()
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define ISA_NAME "neon"
#define VBITS 128
#define HAVE_FMA 1
typedef float32x4_t vf;
typedef float64x2_t vd;
#define VF_LOAD(p) vld1q_f32(p)
#define VF_STORE(p, x) vst1q_f32((p), (x))
#define VF_SET1(v) vdupq_n_f32(v)
#define VF_ADD(a, b) vaddq_f32((a), (b))
#define VF_FMA(a, b, c) vfmaq_f32((c), (a), (b))
#define VF_ZERO() vdupq_n_f32(0)
#define VD_LOAD(p) vld1q_f64(p)
#define VD_STORE(p, x) vst1q_f64((p), (x))
#define VD_STREAM(p, x) vst1q_f64((p), (x))
#define VD_SET1(v) vdupq_n_f64(v)
#define VD_ADD(a, b) vaddq_f64((a), (b))
#define VD_FMA(a, b, c) vfmaq_f64((c), (a), (b))
#define STREAM_FENCE() ((void)0)
#else
#define ISA_NAME "scalar"
#define VBITS 64
#define HAVE_FMA 1
typedef float vf;
typedef double vd;
#define VF_LOAD(p) (*(p))
#define VF_STORE(p, x) (*(p) = (x))
#define VF_SET1(v) (v)
#define VF_ADD(a, b) ((a) + (b))
#define VF_FMA(a, b, c) fmaf((a), (b), (c))
#define VF_ZERO() 0.0f
#define VD_LOAD(p) (*(p))
#define VD_STORE(p, x) (*(p) = (x))
#define VD_STREAM(p, x) (*(p) = (x))
#define VD_SET1(v) (v)
#define VD_ADD(a, b) ((a) + (b))
#define VD_FMA(a, b, c) fma((a), (b), (c))
#define STREAM_FENCE() ((void)0)
#endif

#define VF_LANES ((int)(sizeof(vf) / sizeof(float)))
#define VD_LANES ((int)(sizeof(vd) / sizeof(double)))
/* Independent accumulators per thread: FMA latency (4-5 cycles) times FMA pipes (2) needs
 * 8-10 chains in flight; 12 leaves margin and fits 16 vector registers with s and t. */
#define NACC 12
#define ALIGN 64

/* Timed repeats per point and untimed warm-up runs before them. The fastest repeat is
 * reported, as STREAM and mixbench report theirs: other load on the machine only ever slows a
 * pass down, so the best of several is what the hardware does, where a median moves with the
 * load of the moment. */
#define REPEATS 11
#define WARMUP 2

/* ---- random data: never zeros, random sign, magnitude in [0.25, 1.25) --------------------- */

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: fast, good enough for test data */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static double rng_value(uint64_t *s)
{
    uint64_t r = rng_next(s);
    double mag = 0.25 + (double)(r >> 11) * (1.0 / 9007199254740992.0);
    return (r & 1) ? -mag : mag;
}

struct fill_job {
    void *buf;
    size_t n;       /* elements */
    bool dbl;
    uint64_t seed;
};

/* Each thread draws a block of random values and repeats it over its slice: the data is
 * random where it matters (no zeros, no pattern the cache or the ALUs could exploit within a
 * pass) and the fill runs at copy speed instead of generator speed. */
#define FILL_BLOCK 16384

static void fill_fn(void *arg, int tid, int nt)
{
    struct fill_job *j = arg;
    size_t lo, hi;
    pool_slice(j->n, FILL_BLOCK, tid, nt, &lo, &hi);
    uint64_t s = j->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)tid * 0xD1B54A32D192ED03ULL + 1;
    size_t esz = j->dbl ? sizeof(double) : sizeof(float);
    size_t first = hi - lo < FILL_BLOCK ? hi - lo : FILL_BLOCK;
    char *base = (char *)j->buf + lo * esz;
    if (j->dbl) {
        double *d = (double *)base;
        for (size_t i = 0; i < first; i++)
            d[i] = rng_value(&s);
    } else {
        float *f = (float *)base;
        for (size_t i = 0; i < first; i++)
            f[i] = (float)rng_value(&s);
    }
    for (size_t at = lo + first; at < hi; at += FILL_BLOCK) {
        size_t len = hi - at < FILL_BLOCK ? hi - at : FILL_BLOCK;
        memcpy((char *)j->buf + at * esz, base, len * esz);
    }
}

/* Poison: a quiet NaN with a payload no computation produces. */
struct poison_job {
    void *buf;
    size_t n;
    bool dbl;
};

static const uint32_t POISON_F = 0x7fc0deadu;
static const uint64_t POISON_D = 0x7ff8deaddeaddeadULL;

static void poison_fn(void *arg, int tid, int nt)
{
    struct poison_job *j = arg;
    size_t lo, hi;
    pool_slice(j->n, 1024, tid, nt, &lo, &hi);
    if (j->dbl) {
        uint64_t *d = j->buf;
        for (size_t i = lo; i < hi; i++)
            d[i] = POISON_D;
    } else {
        uint32_t *f = j->buf;
        for (size_t i = lo; i < hi; i++)
            f[i] = POISON_F;
    }
}

/* Index of the first element that is not finite (poison left unwritten, or a NaN computed);
 * n when all are finite. */
static size_t first_nonfinite_f(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return i;
    return n;
}

static size_t first_nonfinite_d(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return i;
    return n;
}

/* ---- the machine ------------------------------------------------------------------------- */

/* Width of the FMA datapath and FMA pipes per core. AMD before Zen 5 executes 512-bit
 * operations as two 256-bit halves (Zen 4), and Zen 1 splits 256-bit ones into 128-bit
 * halves; recent Intel and Zen 5 server cores have two full-width FMA pipes. Some Xeon
 * Silver/Bronze parts have only one 512-bit FMA: the peak is then twice too high. */
static void fma_shape(const struct cpuid_info *ci, int *bits, int *units)
{
    *bits = VBITS;
    *units = 2;
    if (strcmp(ci->vendor, "AuthenticAMD") == 0 || strcmp(ci->vendor, "HygonGenuine") == 0) {
        if (ci->family < 0x17 || (ci->family == 0x17 && ci->model < 0x30))
            *bits = VBITS < 128 ? VBITS : 128;
        else if (ci->family <= 0x19)
            *bits = VBITS < 256 ? VBITS : 256;
    }
    if (VBITS == 64) /* scalar build: one FMA per pipe */
        *bits = 64;
}

/* Core clock from a chain of dependent integer adds of a register (one cycle each on every
 * x86 and Arm core): what the cores really run at, which in a VM or with turbo differs from
 * the nominal "cpu MHz". Not adds of an immediate: Golden Cove and later fold chains of those
 * at rename (a Sapphire Rapids VM measured 10-11 "GHz" that way, 2.85 GHz with a register). */
struct clock_job {
    double hz[256];
    long iters;
};

static void clock_fn(void *arg, int tid, int nt)
{
    struct clock_job *j = arg;
    (void)nt;
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
    unsigned long x = (unsigned long)tid, one = 1;
    double t0 = probe_now();
    for (long i = 0; i < j->iters; i++) {
#if defined(__aarch64__)
        __asm__ volatile(".rept 100\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(one));
#else
        __asm__ volatile(".rept 100\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
#endif
    }
    double t = probe_now() - t0;
    if (tid < 256)
        j->hz[tid] = t > 0 && x != 0 ? 100.0 * (double)j->iters / t : 0;
#else
    if (tid < 256)
        j->hz[tid] = 0;
#endif
}

static double measure_clock(struct pool *pl)
{
    struct clock_job j;
    memset(&j, 0, sizeof j);
    j.iters = 20000; /* 2M adds: about a millisecond per try */
    /* Each thread's fastest try: a try another process preempted reads slow, and on a loaded
     * machine all threads seldom run a whole try together. 40 tries: 40 ms. */
    double best[256] = {0};
    for (int rep = 0; rep < 40; rep++) {
        pool_run(pl, clock_fn, &j);
        for (int t = 0; t < pl->n && t < 256; t++)
            if (j.hz[t] > best[t])
                best[t] = j.hz[t];
    }
    /* The slowest thread sets the pace of an all-core kernel. */
    double lo = 0;
    for (int t = 0; t < pl->n && t < 256; t++)
        if (best[t] > 0 && (lo == 0 || best[t] < lo))
            lo = best[t];
    return lo;
}

/* Everything except the clock, which needs the threads running; the ISA is this file's. */
static void describe_static(struct probe_device *d, struct cpuid_info *ci, int want_threads)
{
    cpu_info_describe(d, ci, want_threads);
    snprintf(d->isa, sizeof d->isa, "%s", ISA_NAME);
    d->vector_bits = VBITS;
    fma_shape(ci, &d->fma_bits, &d->fma_units);
}

static void set_peaks(struct probe_device *d)
{
    if (d->clock_hz <= 0)
        return;
    /* An FMA is 2 FLOPs; lanes per pipe from the datapath width. */
    double per_cycle32 = (double)d->fma_bits / 32.0 * d->fma_units * 2.0;
    double per_cycle64 = (double)d->fma_bits / 64.0 * d->fma_units * 2.0;
    if (d->fma_bits < 64) /* scalar: one element per pipe */
        per_cycle32 = per_cycle64 = d->fma_units * 2.0;
    d->peak_flops[PEAK_FP32] = d->cores * d->clock_hz * per_cycle32;
    d->peak_valid[PEAK_FP32] = true;
    d->peak_flops[PEAK_FP64] = d->cores * d->clock_hz * per_cycle64;
    d->peak_valid[PEAK_FP64] = true;
}

/* Clock: measured when possible, else /proc/cpuinfo; the source says which. */
static void set_clock(struct probe_device *d, const struct cpuid_info *ci, struct pool *pl)
{
    double hz = pl ? measure_clock(pl) : 0;
    if (hz > 0) {
        d->clock_hz = hz;
        snprintf(d->clock_source, sizeof d->clock_source,
                 "measured: dependent integer adds on all threads (cpuinfo says %.0f MHz)",
                 ci->mhz);
    } else if (ci->mhz > 0) {
        d->clock_hz = ci->mhz * 1e6;
        snprintf(d->clock_source, sizeof d->clock_source,
                 "/proc/cpuinfo cpu MHz (not measured; turbo not counted)");
    } else {
        snprintf(d->clock_source, sizeof d->clock_source, "unknown: no peak computed");
    }
    set_peaks(d);
}

/* ---- kernels ------------------------------------------------------------------------------ */

struct bw_job {
    char *dst;
    const char *src;
    double *a;
    const double *b, *c;
    size_t bytes;   /* copy: bytes; triad: doubles per array */
    double s;
};

/* STREAM's copy c = a, streamed as the triad is: vector loads and non-temporal stores, four
 * vectors in flight (memcpy chooses its own strategy by size and CPU, and read 0.54 of
 * STREAM's copy where the triad read 0.96 of STREAM's triad). j->bytes: bytes, a multiple of
 * ALIGN in each thread's slice. */
static void copy_fn(void *arg, int tid, int nt)
{
    struct bw_job *j = arg;
    size_t lo, hi;
    pool_slice(j->bytes / sizeof(double), (size_t)ALIGN / sizeof(double), tid, nt, &lo, &hi);
    const double *src = (const double *)(const void *)j->src;
    double *dst = (double *)(void *)j->dst;
    size_t i = lo;
    size_t vec_hi = lo + (hi - lo) / (size_t)(4 * VD_LANES) * (size_t)(4 * VD_LANES);
    for (; i < vec_hi; i += (size_t)(4 * VD_LANES)) {
        vd x0 = VD_LOAD(src + i), x1 = VD_LOAD(src + i + VD_LANES);
        vd x2 = VD_LOAD(src + i + 2 * VD_LANES), x3 = VD_LOAD(src + i + 3 * VD_LANES);
        VD_STREAM(dst + i, x0);
        VD_STREAM(dst + i + VD_LANES, x1);
        VD_STREAM(dst + i + 2 * VD_LANES, x2);
        VD_STREAM(dst + i + 3 * VD_LANES, x3);
    }
    for (; i < hi; i++)
        dst[i] = src[i];
    STREAM_FENCE();
}

/* STREAM triad a = b + s*c with non-temporal stores: the output bypasses the cache, as the
 * copy's does, so both move the bytes they count (no write-allocate read). */
static void triad_fn(void *arg, int tid, int nt)
{
    struct bw_job *j = arg;
    size_t lo, hi;
    pool_slice(j->bytes, (size_t)ALIGN / sizeof(double), tid, nt, &lo, &hi);
    const vd s = VD_SET1(j->s);
    size_t i = lo;
    size_t vec_hi = lo + (hi - lo) / (size_t)(4 * VD_LANES) * (size_t)(4 * VD_LANES);
    for (; i < vec_hi; i += (size_t)(4 * VD_LANES)) {
        vd x0 = VD_FMA(s, VD_LOAD(j->c + i), VD_LOAD(j->b + i));
        vd x1 = VD_FMA(s, VD_LOAD(j->c + i + VD_LANES), VD_LOAD(j->b + i + VD_LANES));
        vd x2 = VD_FMA(s, VD_LOAD(j->c + i + 2 * VD_LANES), VD_LOAD(j->b + i + 2 * VD_LANES));
        vd x3 = VD_FMA(s, VD_LOAD(j->c + i + 3 * VD_LANES), VD_LOAD(j->b + i + 3 * VD_LANES));
        VD_STREAM(j->a + i, x0);
        VD_STREAM(j->a + i + VD_LANES, x1);
        VD_STREAM(j->a + i + 2 * VD_LANES, x2);
        VD_STREAM(j->a + i + 3 * VD_LANES, x3);
    }
    for (; i < hi; i++)
        j->a[i] = fma(j->s, j->c[i], j->b[i]);
    STREAM_FENCE();
}

/* The sweep: c = a + b, then IT dependent x = x*S + T per element, on NACC independent
 * vectors at once. S < 1 keeps x bounded (it contracts towards T / (1 - S)). */
#define SWEEP_S 0.9990234375
#define SWEEP_T 0.0009765625

#define SWEEP_BODY(T, V, LANES, LOAD, STORE, SET1, ADD, FMA, IT)                              \
    const V s = SET1((T)SWEEP_S), t = SET1((T)SWEEP_T);                                       \
    for (size_t i = lo; i < hi; i += (size_t)(NACC * LANES)) {                                \
        V x[NACC];                                                                            \
        for (int q = 0; q < NACC; q++)                                                        \
            x[q] = ADD(LOAD(a + i + (size_t)(q * LANES)), LOAD(b + i + (size_t)(q * LANES))); \
        for (int k = 0; k < (IT); k++)                                                        \
            for (int q = 0; q < NACC; q++)                                                    \
                x[q] = FMA(x[q], s, t);                                                       \
        for (int q = 0; q < NACC; q++)                                                        \
            STORE(c + i + (size_t)(q * LANES), x[q]);                                         \
    }

#define DEFINE_SWEEP(IT)                                                                      \
    static void sweep32_##IT(const float *a, const float *b, float *c, size_t lo, size_t hi)  \
    {                                                                                         \
        SWEEP_BODY(float, vf, VF_LANES, VF_LOAD, VF_STORE, VF_SET1, VF_ADD, VF_FMA, IT)       \
    }                                                                                         \
    static void sweep64_##IT(const double *a, const double *b, double *c, size_t lo,          \
                             size_t hi)                                                       \
    {                                                                                         \
        SWEEP_BODY(double, vd, VD_LANES, VD_LOAD, VD_STORE, VD_SET1, VD_ADD, VD_FMA, IT)      \
    }

/* Compile-time FMA counts: each gets its own fully known inner loop. */
DEFINE_SWEEP(0)
DEFINE_SWEEP(1)
DEFINE_SWEEP(2)
DEFINE_SWEEP(4)
DEFINE_SWEEP(8)
DEFINE_SWEEP(16)
DEFINE_SWEEP(32)
DEFINE_SWEEP(64)
DEFINE_SWEEP(128)
DEFINE_SWEEP(256)
DEFINE_SWEEP(512)
DEFINE_SWEEP(1024)
DEFINE_SWEEP(2048)

typedef void (*sweep32_fn)(const float *, const float *, float *, size_t, size_t);
typedef void (*sweep64_fn)(const double *, const double *, double *, size_t, size_t);

static const struct {
    int iters;
    sweep32_fn f32;
    sweep64_fn f64;
} sweeps[] = {
#define SW(IT) {IT, sweep32_##IT, sweep64_##IT}
    SW(0),  SW(1),   SW(2),   SW(4),   SW(8),    SW(16),   SW(32),
    SW(64), SW(128), SW(256), SW(512), SW(1024), SW(2048),
#undef SW
};
#define N_SWEEPS (sizeof sweeps / sizeof sweeps[0])

struct sweep_job {
    const void *a, *b;
    void *c;
    size_t n;
    size_t k; /* index into sweeps */
    bool dbl;
};

static void sweep_cut(const void *whole, void *piece, size_t lo, size_t n)
{
    const struct sweep_job *w = whole;
    struct sweep_job *p = piece;
    size_t esz = w->dbl ? sizeof(double) : sizeof(float);
    *p = *w;
    p->a = (const char *)w->a + lo * esz;
    p->b = (const char *)w->b + lo * esz;
    p->c = (char *)w->c + lo * esz;
    p->n = n;
}

static void sweep_fn(void *arg, int tid, int nt)
{
    struct sweep_job *j = arg;
    size_t unit = (size_t)NACC * (size_t)(j->dbl ? VD_LANES : VF_LANES);
    size_t lo, hi;
    pool_slice(j->n, unit, tid, nt, &lo, &hi);
    if (j->dbl)
        sweeps[j->k].f64(j->a, j->b, j->c, lo, hi);
    else
        sweeps[j->k].f32(j->a, j->b, j->c, lo, hi);
}

/* The reference for one element, in the same operations and order (fma is exact-rounded,
 * so the vector result must match bit for bit; without FMA, a rounded multiply then add). */
static double sweep_ref(double a, double b, int iters, bool dbl)
{
    if (dbl) {
        double x = a + b;
        for (int k = 0; k < iters; k++) {
#if HAVE_FMA
            x = fma(x, SWEEP_S, SWEEP_T);
#else
            double m = x * SWEEP_S;
            x = m + SWEEP_T;
#endif
        }
        return x;
    }
    float x = (float)a + (float)b;
    for (int k = 0; k < iters; k++) {
#if HAVE_FMA
        x = fmaf(x, (float)SWEEP_S, (float)SWEEP_T);
#else
        float m = x * (float)SWEEP_S;
        x = m + (float)SWEEP_T;
#endif
    }
    return x;
}

/* Lecture ops, fp32. */
struct op_job {
    const float *x, *y;    /* inputs of the current set */
    float *out;
    size_t n;              /* elements (relu, gelu, dot) or matrix side (matvec) */
    double partial[256];   /* dot: per-thread sums */
};

static void relu_fn(void *arg, int tid, int nt)
{
    struct op_job *j = arg;
    size_t lo, hi;
    pool_slice(j->n, 64, tid, nt, &lo, &hi);
    const float *restrict x = j->x;
    float *restrict y = j->out;
    for (size_t i = lo; i < hi; i++)
        y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

/* tanh by a [7/6] Pade approximant, clamped where it meets +-1: a plain expression the
 * compiler vectorises (libm's tanhf would not be), relative error under 1e-6 on the range. */
static inline float tanh_approx(float u)
{
    u = u > 4.97f ? 4.97f : (u < -4.97f ? -4.97f : u);
    float u2 = u * u;
    float num = u * (135135.0f + u2 * (17325.0f + u2 * (378.0f + u2)));
    float den = 135135.0f + u2 * (62370.0f + u2 * (3150.0f + u2 * 28.0f));
    return num / den;
}

static void gelu_fn(void *arg, int tid, int nt)
{
    struct op_job *j = arg;
    size_t lo, hi;
    pool_slice(j->n, 64, tid, nt, &lo, &hi);
    const float *restrict x = j->x;
    float *restrict y = j->out;
    const float c = 0.7978845608f; /* sqrt(2/pi) */
    for (size_t i = lo; i < hi; i++) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanh_approx(c * (v + 0.044715f * v * v * v)));
    }
}

static float dot_range(const float *x, const float *y, size_t lo, size_t hi)
{
    vf acc[8];
    for (int q = 0; q < 8; q++)
        acc[q] = VF_ZERO();
    size_t i = lo;
    size_t step = (size_t)(8 * VF_LANES);
    for (; i + step <= hi; i += step)
        for (int q = 0; q < 8; q++)
            acc[q] = VF_FMA(VF_LOAD(x + i + (size_t)(q * VF_LANES)),
                            VF_LOAD(y + i + (size_t)(q * VF_LANES)), acc[q]);
    float lanes[8 * 16] __attribute__((aligned(64)));
    float sum = 0;
    for (int q = 0; q < 8; q++) {
        VF_STORE(lanes + q * VF_LANES, acc[q]);
    }
    for (int q = 0; q < 8 * VF_LANES; q++)
        sum += lanes[q];
    for (; i < hi; i++)
        sum = fmaf(x[i], y[i], sum);
    return sum;
}

static void dot_fn(void *arg, int tid, int nt)
{
    struct op_job *j = arg;
    size_t lo, hi;
    pool_slice(j->n, (size_t)(8 * VF_LANES), tid, nt, &lo, &hi);
    j->partial[tid] = dot_range(j->x, j->y, lo, hi);
}

static void matvec_fn(void *arg, int tid, int nt)
{
    struct op_job *j = arg;
    size_t lo, hi;
    pool_slice(j->n, 1, tid, nt, &lo, &hi);
    for (size_t r = lo; r < hi; r++)
        j->out[r] = dot_range(j->x + r * j->n, j->y, 0, j->n);
}

/* Blocked matmul C = A B with A m x k, B k x n, C m x n (row-major, packed rows; m a multiple
 * of MM_MR, n of 2 * VF_LANES): 4 x 2 vector register tiles of C, the k loop blocked so a
 * panel of B stays in L1. */
#define MM_MR 4
#define MM_NR 2
#define MM_KC 128

struct mm_job {
    const float *a, *b;
    float *c;
    size_t m, n, k;
};

static void matmul_fn(void *arg, int tid, int nt)
{
    struct mm_job *j = arg;
    const size_t n = j->n, kk = j->k, w = (size_t)(MM_NR * VF_LANES);
    size_t lo, hi;
    pool_slice(j->m, MM_MR, tid, nt, &lo, &hi);
    for (size_t jb = 0; jb < n; jb += w) {
        for (size_t kb = 0; kb < kk; kb += MM_KC) {
            size_t ke = kb + MM_KC < kk ? kb + MM_KC : kk;
            for (size_t i = lo; i < hi; i += MM_MR) {
                vf acc[MM_MR][MM_NR];
                for (int r = 0; r < MM_MR; r++)
                    for (int q = 0; q < MM_NR; q++)
                        acc[r][q] = kb == 0 ? VF_ZERO()
                                            : VF_LOAD(j->c + (i + (size_t)r) * n + jb +
                                                      (size_t)(q * VF_LANES));
                for (size_t k = kb; k < ke; k++) {
                    vf bv[MM_NR];
                    for (int q = 0; q < MM_NR; q++)
                        bv[q] = VF_LOAD(j->b + k * n + jb + (size_t)(q * VF_LANES));
                    for (int r = 0; r < MM_MR; r++) {
                        vf av = VF_SET1(j->a[(i + (size_t)r) * kk + k]);
                        for (int q = 0; q < MM_NR; q++)
                            acc[r][q] = VF_FMA(av, bv[q], acc[r][q]);
                    }
                }
                for (int r = 0; r < MM_MR; r++)
                    for (int q = 0; q < MM_NR; q++)
                        VF_STORE(j->c + (i + (size_t)r) * n + jb + (size_t)(q * VF_LANES),
                                 acc[r][q]);
            }
        }
    }
}

/* ---- the run ------------------------------------------------------------------------------ */

struct cpu_run {
    const struct probe_options *o;
    const struct probe_sink *sink;
    struct pool pool;
    struct probe_device dev;
    double t_start;
    int done, total;
    size_t big;          /* bytes per big buffer */
    void *buf[3];        /* three big buffers, ALIGN-aligned */
    char *err;
    size_t errn;
};

static void emit_status(struct cpu_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit_status(struct cpu_run *r, const char *fmt, ...)
{
    char text[POINTS_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (r->sink->status)
        r->sink->status(r->sink->ctx, text);
}

static void emit_point(struct cpu_run *r, const char *name, enum dtype dt, double flops,
                       double bytes, double seconds, bool valid)
{
    struct probe_point p = points_make(name, dt, flops, bytes, seconds, valid);
    r->done++;
    if (r->sink->point)
        r->sink->point(r->sink->ctx, &p);
    if (r->sink->progress)
        r->sink->progress(r->sink->ctx, r->done, r->total, name);
}

static bool over_time(struct cpu_run *r)
{
    if (r->o->time_limit_s > 0 && probe_now() - r->t_start > r->o->time_limit_s) {
        snprintf(r->err, r->errn, "time limit of %g s reached after %d of %d points",
                 r->o->time_limit_s, r->done, r->total);
        return true;
    }
    return false;
}

/* The fastest of REPEATS passes after WARMUP, in seconds; *set (when given) rotates over
 * nsets input sets so a pass never finds its inputs in the cache. */
static double time_job(struct cpu_run *r, job_fn fn, void *arg, void (*select)(void *, size_t),
                       size_t nsets)
{
    double t[REPEATS];
    size_t set = 0;
    for (int i = 0; i < WARMUP + REPEATS; i++) {
        if (select)
            select(arg, set);
        set = nsets ? (set + 1) % nsets : 0;
        double dt = pool_run(&r->pool, fn, arg);
        if (i >= WARMUP)
            t[i - WARMUP] = dt;
    }
    return probe_best(t, REPEATS);
}

static void fill(struct cpu_run *r, void *buf, size_t n, bool dbl, uint64_t seed)
{
    struct fill_job j = {buf, n, dbl, seed};
    pool_run(&r->pool, fill_fn, &j);
}

static void poison(struct cpu_run *r, void *buf, size_t n, bool dbl)
{
    struct poison_job j = {buf, n, dbl};
    pool_run(&r->pool, poison_fn, &j);
}

/* Memory-bound passes are timed in pieces: a pass over a gigabyte lasts longer than a thread
 * runs unpreempted on a loaded machine, so no whole pass escapes the other processes, where a
 * piece of a few milliseconds often does. Each piece was last touched a whole buffer ago (the
 * buffers are several times the last-level cache), so it streams from memory as the whole
 * pass does. */
#define PIECE_BYTES ((size_t)8 << 20)

/* A piece lasts at most this long, and a point's repeats span at least MIN_WINDOW_S: a
 * compute-bound sweep point's 8 MiB is 4-9 ms of FMAs, longer than a thread's slice on two
 * cores shared with other processes, so under a load average of 7 every pass of it was
 * preempted (the fp32 sweep read 30-66 GFLOP/s at 512 FMAs after 94-157 at 128, whose pieces
 * last 2 ms); pieces of 2 ms over 0.3 s leave a quiet slice to find, and the best of the
 * window is what the hardware does. */
#define PIECE_S 0.002
#define MIN_WINDOW_S 0.3

/* cut(whole, piece, lo, n): piece = whole restricted to elements [lo, lo + n). */
typedef void (*cut_fn)(const void *whole, void *piece, size_t lo, size_t n);

/* Seconds for the whole job of total elements (elem_bytes per array, cut at multiples of unit)
 * at its fastest piece's rate: WARMUP whole passes, then passes piece by piece (REPEATS, and
 * for at least MIN_WINDOW_S), each piece timed on all threads; a piece is at most PIECE_BYTES
 * of each array and PIECE_S of the last warm-up pass's time. */
static double time_pieces(struct cpu_run *r, job_fn fn, void *whole, void *piece, cut_fn cut,
                          size_t total, size_t elem_bytes, size_t unit)
{
    double whole_s = 0;
    for (int i = 0; i < WARMUP; i++)
        whole_s = pool_run(&r->pool, fn, whole);
    size_t len = PIECE_BYTES / elem_bytes;
    if (whole_s > PIECE_S && (double)total * PIECE_S / whole_s < (double)len)
        len = (size_t)((double)total * PIECE_S / whole_s);
    len = len / unit * unit;
    if (len < unit)
        len = unit;
    if (len > total)
        len = total;
    double best = 0; /* elements per second */
    const double t0 = probe_now();
    for (int rep = 0; rep < REPEATS || (probe_now() - t0 < MIN_WINDOW_S && rep < 64 * REPEATS);
         rep++)
        for (size_t lo = 0; lo < total; lo += len) {
            size_t n = total - lo < len ? total - lo : len;
            cut(whole, piece, lo, n);
            double dt = pool_run(&r->pool, fn, piece);
            if (dt > 0 && (double)n / dt > best)
                best = (double)n / dt;
        }
    return best > 0 ? (double)total / best : 0;
}

/* Copy pieces in doubles (the job counts bytes), triad pieces in doubles. */
static void copy_cut(const void *whole, void *piece, size_t lo, size_t n)
{
    const struct bw_job *w = whole;
    struct bw_job *p = piece;
    *p = *w;
    p->dst = w->dst + lo * sizeof(double);
    p->src = w->src + lo * sizeof(double);
    p->bytes = n * sizeof(double);
}

static void triad_cut(const void *whole, void *piece, size_t lo, size_t n)
{
    const struct bw_job *w = whole;
    struct bw_job *p = piece;
    *p = *w;
    p->a = w->a + lo;
    p->b = w->b + lo;
    p->c = w->c + lo;
    p->bytes = n;
}

static void run_bandwidth(struct cpu_run *r)
{
    size_t bytes = r->big;
    /* copy: counted as bytes read + bytes written */
    struct bw_job j = {.dst = r->buf[2], .src = r->buf[0], .bytes = bytes};
    poison(r, r->buf[2], bytes / sizeof(double), true);
    struct bw_job piece;
    const size_t unit = (size_t)ALIGN / sizeof(double) * (size_t)r->pool.n;
    double sec = time_pieces(r, copy_fn, &j, &piece, copy_cut, bytes / sizeof(double),
                             sizeof(double), unit);
    bool ok = memcmp(r->buf[2], r->buf[0], bytes) == 0;
    if (!ok)
        emit_status(r, "bw.copy: the copy differs from its source: point marked invalid");
    emit_point(r, "bw.copy", DTYPE_FP32, 0, 2.0 * (double)bytes, sec, ok);

    size_t nd = bytes / sizeof(double);
    struct bw_job t = {.a = r->buf[2], .b = r->buf[0], .c = r->buf[1], .bytes = nd, .s = 0.75};
    poison(r, r->buf[2], nd, true);
    sec = time_pieces(r, triad_fn, &t, &piece, triad_cut, nd, sizeof(double), unit);
    size_t bad = first_nonfinite_d(t.a, nd);
    ok = bad == nd;
    for (size_t i = 0; ok && i < nd; i += 4093)
        ok = fabs(t.a[i] - fma(t.s, t.c[i], t.b[i])) <= 1e-15 * (fabs(t.b[i]) + fabs(t.c[i]));
    if (!ok)
        emit_status(r, "bw.triad: result check failed%s: point marked invalid",
                    bad < nd ? " (unwritten output)" : "");
    /* STREAM counts 2 FLOPs per element (a multiply and an add). */
    emit_point(r, "bw.triad", DTYPE_FP64, 2.0 * (double)nd, 3.0 * (double)bytes, sec, ok);
}

static void run_sweep(struct cpu_run *r, bool dbl, const int *iters, size_t n_iters)
{
    const size_t esz = dbl ? sizeof(double) : sizeof(float);
    const size_t unit = (size_t)NACC * (size_t)(dbl ? VD_LANES : VF_LANES) * (size_t)r->pool.n;
    const size_t nbig = r->big / esz / unit * unit;
    const enum dtype dt = dbl ? DTYPE_FP64 : DTYPE_FP32;
    const double peak = r->dev.peak_valid[dbl ? PEAK_FP64 : PEAK_FP32]
                            ? r->dev.peak_flops[dbl ? PEAK_FP64 : PEAK_FP32]
                            : 1e11;
    /* Per timed pass: long enough to time well, short enough for the whole probe to stay
     * well under a minute; compute-bound points shrink their buffers to fit. */
    const double target_s = r->o->quick ? 0.004 : 0.015;
    for (size_t q = 0; q < n_iters; q++) {
        size_t k = 0;
        while (k < N_SWEEPS && sweeps[k].iters != iters[q])
            k++;
        if (k == N_SWEEPS || over_time(r))
            continue;
        double fpe = 1.0 + 2.0 * sweeps[k].iters; /* the add, then 2 per FMA */
        double want = target_s * peak / fpe;
        size_t n = want >= (double)nbig ? nbig : (size_t)want / unit * unit;
        if (n < unit * 4)
            n = unit * 4;
        struct sweep_job j = {r->buf[0], r->buf[1], r->buf[2], n, k, dbl};
        poison(r, r->buf[2], n, dbl);
        /* In pieces as the bandwidth is, so that its memory-bound end and the bandwidth are
         * timed alike. */
        struct sweep_job piece;
        double sec = time_pieces(r, sweep_fn, &j, &piece, sweep_cut, n, esz, unit);
        size_t bad = dbl ? first_nonfinite_d(j.c, n) : first_nonfinite_f(j.c, n);
        bool ok = bad == n;
        size_t step = n / 97 + 1;
        for (size_t i = 0; ok && i < n; i += step) {
            double a = dbl ? ((const double *)j.a)[i] : ((const float *)j.a)[i];
            double b = dbl ? ((const double *)j.b)[i] : ((const float *)j.b)[i];
            double got = dbl ? ((double *)j.c)[i] : ((float *)j.c)[i];
            ok = got == sweep_ref(a, b, sweeps[k].iters, dbl);
        }
        char name[POINTS_NAME_MAX];
        snprintf(name, sizeof name, "sweep.%s.%d", dbl ? "fp64" : "fp32", sweeps[k].iters);
        if (!ok)
            emit_status(r, "%s: result differs from the scalar recompute%s: point marked invalid",
                        name, bad < n ? " (unwritten output)" : "");
        emit_point(r, name, dt, fpe * (double)n, 3.0 * (double)esz * (double)n, sec, ok);
    }
}

/* Rotating input sets for the lecture ops: enough sets to span 4x the last-level cache. */
struct rot_job {
    struct op_job op;
    float *base_x, *base_y, *base_out;
    size_t stride_x, stride_y, stride_out; /* floats per set */
};

static void rot_select(void *arg, size_t set)
{
    struct rot_job *j = arg;
    j->op.x = j->base_x + set * j->stride_x;
    j->op.y = j->base_y ? j->base_y + set * j->stride_y : NULL;
    j->op.out = j->base_out + set * j->stride_out;
}

static size_t n_sets(struct cpu_run *r, size_t set_bytes, size_t avail_bytes)
{
    double llc = r->dev.l3_bytes > 0 ? r->dev.l3_bytes : 32.0 * 1024 * 1024;
    size_t want = (size_t)(4.0 * llc / (double)set_bytes) + 1;
    size_t fit = avail_bytes / set_bytes;
    if (want > fit)
        want = fit;
    return want < 1 ? 1 : want;
}

static size_t round_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* The lecture's elementwise ops (relu, gelu), by kind. */
static const struct {
    enum lecture_op op;
    job_fn fn;
} elementwise[] = {{LOP_RELU, relu_fn}, {LOP_GELU, gelu_fn}};

/* Every set elementwise op e ran on (sets of set_floats floats, n used): each output element
 * against a double reference, the last pass's set in full, the others sampled. */
static bool elementwise_check(const struct rot_job *j, size_t e, size_t n, size_t set_floats,
                              size_t sets)
{
    bool ok = true;
    size_t used = sets < WARMUP + REPEATS ? sets : WARMUP + REPEATS;
    size_t last = (size_t)(WARMUP + REPEATS - 1) % sets;
    for (size_t s = 0; s < used && ok; s++) {
        const float *x = j->base_x + s * set_floats, *y = j->base_out + s * set_floats;
        size_t step = s == last ? 1 : 101;
        for (size_t i = 0; i < n && ok; i += step) {
            double v = x[i], want;
            if (elementwise[e].op == LOP_RELU)
                want = v > 0 ? v : 0;
            else
                want = 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
            ok = isfinite(y[i]) && fabs(y[i] - want) <= 1e-5 * (1 + fabs(want));
        }
    }
    return ok;
}

/* relu and gelu: x in buf0, out in buf2, sets of n floats (n = 1024^2, the lecture's) */
static void run_elementwise(struct cpu_run *r)
{
    struct op_cost cost;
    char name[POINTS_NAME_MAX];
    const size_t n = (size_t)lecture_op_default_n(LOP_RELU);
    const size_t set_floats = round_up(n, ALIGN / sizeof(float));
    size_t sets = n_sets(r, 2 * set_floats * sizeof(float), 2 * r->big);
    if (set_floats * sizeof(float) * sets > r->big)
        sets = r->big / (set_floats * sizeof(float));
    struct rot_job j;
    memset(&j, 0, sizeof j);
    j.base_x = r->buf[0];
    j.base_out = r->buf[2];
    j.stride_x = j.stride_out = set_floats;
    j.op.n = n;
    for (size_t e = 0; e < 2 && !over_time(r); e++) {
        poison(r, r->buf[2], set_floats * sets, false);
        double sec = time_job(r, elementwise[e].fn, &j, rot_select, sets);
        bool ok = elementwise_check(&j, e, n, set_floats, sets);
        lecture_op_cost(elementwise[e].op, (double)n, DTYPE_FP32, &cost);
        snprintf(name, sizeof name, "op.%s", lecture_op_name(elementwise[e].op));
        if (!ok)
            emit_status(r, "%s: result check failed: point marked invalid", name);
        emit_point(r, name, DTYPE_FP32, cost.flops, cost.bytes, sec, ok);
    }
}

/* dot: x in buf0, y in buf1 */
static void run_dot(struct cpu_run *r)
{
    struct op_cost cost;
    struct rot_job j;
    size_t nd = (size_t)lecture_op_default_n(LOP_DOT);
    size_t sf = round_up(nd, ALIGN / sizeof(float));
    size_t ds = n_sets(r, 2 * sf * sizeof(float), 2 * r->big);
    if (sf * sizeof(float) * ds > r->big)
        ds = r->big / (sf * sizeof(float));
    memset(&j, 0, sizeof j);
    j.base_x = r->buf[0];
    j.base_y = r->buf[1];
    j.base_out = r->buf[2]; /* unused by dot; kept valid */
    j.stride_x = j.stride_y = sf;
    j.op.n = nd;
    double sec = time_job(r, dot_fn, &j, rot_select, ds);
    /* The last pass's set: (WARMUP + REPEATS - 1) % ds. */
    size_t last = (size_t)(WARMUP + REPEATS - 1) % ds;
    double got = 0, want = 0, mag = 0;
    for (int t = 0; t < r->pool.n; t++)
        got += j.op.partial[t];
    const float *x = j.base_x + last * sf, *y = j.base_y + last * sf;
    for (size_t i = 0; i < nd; i++) {
        want += (double)x[i] * y[i];
        mag += fabs((double)x[i] * y[i]);
    }
    bool ok = isfinite(got) && fabs(got - want) <= 1e-5 * mag;
    lecture_op_cost(LOP_DOT, (double)nd, DTYPE_FP32, &cost);
    if (!ok)
        emit_status(r, "op.dot: %.9g differs from the fp64 reference %.9g: point marked invalid",
                    got, want);
    emit_point(r, "op.dot", DTYPE_FP32, cost.flops, cost.bytes, sec, ok);
}

/* matvec: A (n x n) in buf0, x in buf1, y in buf2 */
static void run_matvec(struct cpu_run *r)
{
    struct op_cost cost;
    struct rot_job j;
    size_t nm = (size_t)lecture_op_default_n(LOP_MATVEC);
    size_t sa = round_up(nm * nm, ALIGN / sizeof(float));
    size_t sv = round_up(nm, ALIGN / sizeof(float));
    size_t ms = n_sets(r, sa * sizeof(float), r->big);
    if (sa * sizeof(float) * ms > r->big)
        ms = r->big / (sa * sizeof(float));
    memset(&j, 0, sizeof j);
    j.base_x = r->buf[0];
    j.base_y = r->buf[1];
    j.base_out = r->buf[2];
    j.stride_x = sa;
    j.stride_y = sv;
    j.stride_out = sv;
    j.op.n = nm;
    poison(r, r->buf[2], sv * ms, false);
    double sec = time_job(r, matvec_fn, &j, rot_select, ms);
    size_t last = (size_t)(WARMUP + REPEATS - 1) % ms;
    const float *a = j.base_x + last * sa, *x = j.base_y + last * sv;
    const float *y = j.base_out + last * sv;
    bool ok = true;
    for (size_t row = 0; row < nm && ok; row += 7) {
        double want = 0, mag = 0;
        for (size_t c = 0; c < nm; c++) {
            want += (double)a[row * nm + c] * x[c];
            mag += fabs((double)a[row * nm + c] * x[c]);
        }
        ok = isfinite(y[row]) && fabs(y[row] - want) <= 1e-5 * mag;
    }
    ok = ok && first_nonfinite_f(y, nm) == nm;
    lecture_op_cost(LOP_MATVEC, (double)nm, DTYPE_FP32, &cost);
    if (!ok)
        emit_status(r, "op.matvec: result check failed: point marked invalid");
    emit_point(r, "op.matvec", DTYPE_FP32, cost.flops, cost.bytes, sec, ok);
}

/* The lecture's operations, each while time is left. */
static void run_ops(struct cpu_run *r)
{
    run_elementwise(r);
    if (!over_time(r))
        run_dot(r);
    if (!over_time(r))
        run_matvec(r);
}

/* The result of j (no non-finite value; 64 sampled entries of its first rows x cols against
 * an fp64 dot, within the fp32 accumulation bound k*eps*sum|ab|). */
static bool mm_check(const struct mm_job *j, size_t rows, size_t cols, uint64_t seed)
{
    bool ok = first_nonfinite_f(j->c, j->m * j->n) == j->m * j->n;
    for (int t = 0; t < 64 && ok; t++) {
        size_t row = rng_next(&seed) % rows, col = rng_next(&seed) % cols;
        double want = 0, mag = 0;
        for (size_t k = 0; k < j->k; k++) {
            double p = (double)j->a[row * j->k + k] * j->b[k * j->n + col];
            want += p;
            mag += fabs(p);
        }
        ok = fabs(j->c[row * j->n + col] - want) <= 2.0 * (double)j->k * 5.96e-8 * mag + 1e-30;
    }
    return ok;
}

static void run_matmul(struct cpu_run *r, const size_t *sizes, size_t n_sizes)
{
    for (size_t s = 0; s < n_sizes && !over_time(r); s++) {
        size_t n = sizes[s];
        size_t e = n * n;
        if (e * sizeof(float) > r->big)
            continue;
        struct mm_job j = {r->buf[0], r->buf[1], r->buf[2], n, n, n};
        poison(r, r->buf[2], e, false);
        double sec = time_job(r, matmul_fn, &j, NULL, 0);
        bool ok = mm_check(&j, n, n, 12345 + n);
        struct op_cost cost;
        lecture_op_cost(LOP_MATMUL, (double)n, DTYPE_FP32, &cost);
        char name[POINTS_NAME_MAX];
        snprintf(name, sizeof name, "op.matmul.%zu", n);
        if (!ok)
            emit_status(r, "%s: result check failed: point marked invalid", name);
        emit_point(r, name, DTYPE_FP32, cost.flops, cost.bytes, sec, ok);
    }
}

/* The largest v' <= v, at least lo (or v when smaller), with v' * per_unit <= limit. */
static long fit_dim(long v, long lo, double limit, double per_unit)
{
    if (lo > v)
        lo = v;
    if ((double)v * per_unit <= limit)
        return v;
    double f = floor(limit / per_unit);
    return f < (double)lo ? lo : (long)f;
}

/*
 * Scales a GEMM shape down to what one run on the CPU should cost: at most flops_max FLOPs,
 * and each operand (padded to the kernel's tiles: rows to MM_MR, columns to w) at most
 * floats_max. The rows (the tokens: micro-batch x sequence) give way first, down to 64; then
 * the columns, then the inner dimension.
 */
static void fit_shape(long *m, long *n, long *k, double flops_max, size_t floats_max, long w)
{
    *m = fit_dim(*m, 64, flops_max, 2.0 * (double)*n * (double)*k);
    *n = fit_dim(*n, w, flops_max, 2.0 * (double)*m * (double)*k);
    *k = fit_dim(*k, 1, flops_max, 2.0 * (double)*m * (double)*n);
    /* B (k x n padded): whole tiles of columns within the buffer, else fewer inner rows. */
    long n_ok = (long)(floats_max / (size_t)*k) / w * w;
    if (n_ok < w) {
        *n = *n < w ? *n : w;
        *k = (long)(floats_max / (size_t)w);
    } else if (*n > n_ok) {
        *n = n_ok;
    }
    long np = (*n + w - 1) / w * w;
    /* A (m x k) and C (m x n padded): whole tiles of rows. */
    long m_ok = (long)(floats_max / (size_t)*k) / MM_MR * MM_MR;
    long m_ok2 = (long)(floats_max / (size_t)np) / MM_MR * MM_MR;
    if (m_ok2 < m_ok)
        m_ok = m_ok2;
    if (*m > m_ok)
        *m = m_ok;
}

/*
 * The scenario's own GEMM shapes (--shapes) in fp32 through the blocked matmul, each scaled
 * down to at most 0.5 GFLOP per run with --quick (5 GFLOP otherwise): a CPU runs a training
 * step's GEMMs hundreds of times slower than a GPU. The point's name gives the shape that ran,
 * so a reader can match it to its label and see that it differs.
 */
static void run_shapes(struct cpu_run *r)
{
    const double budget = r->o->quick ? 0.5e9 : 5e9;
    const size_t cap = r->big / sizeof(float);
    const long w = MM_NR * VF_LANES;
    for (size_t s = 0; s < r->o->n_shapes && !over_time(r); s++) {
        const struct probe_shape *sh = &r->o->shapes[s];
        long m = sh->m, n = sh->n, k = sh->k;
        fit_shape(&m, &n, &k, budget, cap, w);
        size_t mp = round_up((size_t)m, MM_MR), np = round_up((size_t)n, (size_t)w);
        struct mm_job j = {r->buf[0], r->buf[1], r->buf[2], mp, np, (size_t)k};
        poison(r, r->buf[2], mp * np, false);
        double sec = time_job(r, matmul_fn, &j, NULL, 0);
        bool ok = mm_check(&j, (size_t)m, (size_t)n, 777 + s);
        char name[POINTS_NAME_MAX];
        snprintf(name, sizeof name, "shape.%s%s%ldx%ldx%ld", sh->label, sh->label[0] ? "." : "",
                 m, n, k);
        if (!ok)
            emit_status(r, "%s: result check failed: point marked invalid", name);
        if (m != sh->m || n != sh->n || k != sh->k)
            emit_status(r, "%s: measured as %ldx%ldx%ld (scaled down for the CPU)",
                        sh->label[0] ? sh->label : "shape", m, n, k);
        /* The real shape's work; the padding the kernel also computes is not counted. */
        double mm = (double)m, nn = (double)n, kk = (double)k;
        emit_point(r, name, DTYPE_FP32, 2.0 * mm * nn * kk, 4.0 * (mm * kk + kk * nn + mm * nn),
                   sec, ok);
    }
}

static bool cpu_available(const struct probe_options *o, char *why, size_t n)
{
    (void)o;
    (void)why;
    (void)n;
    return true;
}

static bool cpu_describe(const struct probe_options *o, struct probe_device *dev, char *err,
                         size_t n)
{
    struct cpuid_info ci;
    describe_static(dev, &ci, o ? o->threads : 0);
    struct pool pl;
    if (!pool_create(&pl, dev->threads, err, n))
        return false;
    set_clock(dev, &ci, &pl);
    pool_destroy(&pl);
    return true;
}

static bool cpu_run(const struct probe_options *o, const struct probe_sink *sink, char *err,
                    size_t errn)
{
    struct cpu_run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.sink = sink;
    r.err = err;
    r.errn = errn;
    r.t_start = probe_now();
    struct cpuid_info ci;
    describe_static(&r.dev, &ci, o->threads);
    if (!pool_create(&r.pool, r.dev.threads, err, errn))
        return false;
    r.dev.threads = r.pool.n;
    set_clock(&r.dev, &ci, &r.pool);
    if (sink->device)
        sink->device(sink->ctx, &r.dev);

    /* Big buffers: 8x the last-level cache each (2x for --quick, so a triad still spans 6x),
     * at least 32 MiB, at most 1/16 of the RAM each. */
    double llc = r.dev.l3_bytes > 0 ? r.dev.l3_bytes : 32.0 * 1024 * 1024;
    double want = (o->quick ? 2.0 : 8.0) * llc;
    if (want < 32.0 * 1024 * 1024)
        want = 32.0 * 1024 * 1024;
    if (r.dev.memory_bytes > 0 && want > r.dev.memory_bytes / 16)
        want = r.dev.memory_bytes / 16;
    r.big = (size_t)want / (1 << 20) * (1 << 20);
    bool ok = true;
    for (int i = 0; i < 3 && ok; i++) {
        r.buf[i] = aligned_alloc(ALIGN, r.big);
        if (!r.buf[i]) {
            snprintf(err, errn, "cannot allocate %zu MiB for the buffers", r.big >> 20);
            ok = false;
        }
    }

    static const int full32[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
    static const int full64[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};
    static const int quick32[] = {0, 2, 8, 32, 128, 512, 1024};
    static const int quick64[] = {0, 8, 64, 512, 2048};
    static const size_t mm_full[] = {256, 512, 1024};
    static const size_t mm_quick[] = {256, 512};
    const int *s32 = o->quick ? quick32 : full32, *s64 = o->quick ? quick64 : full64;
    size_t n32 = o->quick ? sizeof quick32 / sizeof(int) : sizeof full32 / sizeof(int);
    size_t n64 = o->quick ? sizeof quick64 / sizeof(int) : sizeof full64 / sizeof(int);
    const size_t *mm = o->quick ? mm_quick : mm_full;
    size_t nmm = o->quick ? 2 : 3;
    r.total = 2 + (int)n32 + (int)n64 + 4 + (int)nmm + (int)o->n_shapes;

    if (ok) {
        /* Random inputs, first touched by the threads that use them. */
        fill(&r, r.buf[0], r.big / sizeof(double), true, 1);
        fill(&r, r.buf[1], r.big / sizeof(double), true, 2);
        fill(&r, r.buf[2], r.big / sizeof(double), true, 3);
        run_bandwidth(&r);
        /* The sweep and the ops read floats: refill the inputs as such. */
        fill(&r, r.buf[0], r.big / sizeof(float), false, 4);
        fill(&r, r.buf[1], r.big / sizeof(float), false, 5);
        if (!over_time(&r))
            run_sweep(&r, false, s32, n32);
        fill(&r, r.buf[0], r.big / sizeof(double), true, 6);
        fill(&r, r.buf[1], r.big / sizeof(double), true, 7);
        if (!over_time(&r))
            run_sweep(&r, true, s64, n64);
        fill(&r, r.buf[0], r.big / sizeof(float), false, 8);
        fill(&r, r.buf[1], r.big / sizeof(float), false, 9);
        if (!over_time(&r))
            run_ops(&r);
        if (!over_time(&r))
            run_matmul(&r, mm, nmm);
        if (!over_time(&r) && o->n_shapes)
            run_shapes(&r);
        ok = !over_time(&r);
    }
    for (int i = 0; i < 3; i++)
        free(r.buf[i]);
    pool_destroy(&r.pool);
    return ok;
}

static void cpu_cleanup(void)
{
    /* Everything the CPU backend holds lives inside one cpu_run call. */
}

const struct probe_backend probe_backend_cpu = {
    .name = "cpu",
    .available = cpu_available,
    .describe = cpu_describe,
    .run = cpu_run,
    .cleanup = cpu_cleanup,
};
