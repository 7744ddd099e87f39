// cuda_gemm.cu - GEMMs through cuBLASLt: the tensor-core roof (bf16, fp16, tf32, fp8 E4M3),
// the lecture's matmul (fp32 on the CUDA cores and bf16), and the scenario's own shapes.
#include <cublasLt.h>
#include <math.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "cuda_probe.cuh"

#define CKB(call)                                                                            \
    do {                                                                                     \
        cublasStatus_t s_ = (call);                                                          \
        if (s_ != CUBLAS_STATUS_SUCCESS)                                                     \
            probe_fail(__FILE__, __LINE__, #call, cublasLtGetStatusString(s_));              \
    } while (0)

enum GemmKind { G_FP32, G_TF32, G_BF16, G_FP16, G_FP8 };

struct GemmType {
    const char *dtype;          // the point's dtype
    cudaDataType_t ab, cd;      // operand and output formats
    cublasComputeType_t compute;
    size_t ab_size, cd_size;
};

static GemmType gemm_type(GemmKind k)
{
    switch (k) {
    case G_FP32:
        return {"fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4};
    case G_TF32:
        return {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4};
    case G_BF16:
        return {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2};
    case G_FP16:
        return {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2};
    case G_FP8:
    default:
        // fp8 needs the "TN" layout used for every GEMM here, and a 16-bit output.
        return {"fp8-e4m3", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2};
    }
}

static cublasLtHandle_t lt_handle(void)
{
    static cublasLtHandle_t h = NULL;
    if (!h)
        CKB(cublasLtCreate(&h));
    return h;
}

#define WORKSPACE_BYTES ((size_t)64 << 20)

static void fill_kind(Probe &p, GemmKind k, void *dst, size_t n, uint64_t seed)
{
    switch (k) {
    case G_FP32:
    case G_TF32:
        probe_fill(p, (float *)dst, n, seed);
        break;
    case G_BF16:
        probe_fill(p, (__nv_bfloat16 *)dst, n, seed);
        break;
    case G_FP16:
        probe_fill(p, (__half *)dst, n, seed);
        break;
    case G_FP8:
        probe_fill(p, (__nv_fp8_e4m3 *)dst, n, seed);
        break;
    }
}

// The input value the device holds at index i, as the host sees it.
static double host_in(GemmKind k, uint64_t i, uint64_t seed)
{
    float v = probe_rand(i, seed);
    switch (k) {
    case G_BF16:
        return __bfloat162float(probe_cvt<__nv_bfloat16>(v));
    case G_FP16:
        return __half2float(probe_cvt<__half>(v));
    case G_FP8:
        return (float)probe_cvt<__nv_fp8_e4m3>(v);
    default:
        return v;
    }
}

static double read_out(GemmKind k, const void *p)
{
    GemmType t = gemm_type(k);
    if (t.cd == CUDA_R_32F)
        return *(const float *)p;
    if (t.cd == CUDA_R_16F)
        return __half2float(*(const __half *)p);
    return __bfloat162float(*(const __nv_bfloat16 *)p);
}

// Bytes rounded up to 256: each rotated set's matrices start 256-byte aligned, as cuBLASLt's
// heuristic assumes of every pointer (odd scenario shapes would otherwise misalign sets >= 1).
static size_t align256(size_t bytes)
{
    return (bytes + 255) / 256 * 256;
}

// Allowed |got - want| for a sampled entry: the output's rounding, plus the accumulation's
// error relative to sum |a b| ("mag"). fp32 on the CUDA cores is plain IEEE FMA; the tensor
// cores' fp32 accumulation truncates and aligns with few guard bits (Fasi et al. 2021, and
// ~14 bits kept within fp8 MMA chains on Hopper, DeepSeek-V3 report): 2^-14 of mag for bf16/
// fp16, 2^-10 for fp8 and for tf32 (whose operands lose 13 mantissa bits). A wrong layout or
// missing output is off by the size of the result itself, sqrt(k)/k of mag, far above these.
static double gemm_tol(GemmKind k, double want, double mag)
{
    double out = k == G_FP32 || k == G_TF32 ? 1.0 / (1 << 22) : 1.0 / 128;
    double acc = k == G_FP32 ? 1e-5 : (k == G_TF32 || k == G_FP8) ? 1.0 / 1024 : 1.0 / 16384;
    return out * fabs(want) + acc * mag;
}

// Rotated input sets for one GEMM of set_bytes, in *out; false, with a status line (and the
// point out of the progress total), when even one set does not fit in free memory.
static bool gemm_sets(Probe &p, const GemmType &t, double set_bytes, const char *name, int *out)
{
    // Enough sets to span 4x the L2 (hundreds for the small sizes), at most ~3 GB of them.
    int sets = probe_sets(p, set_bytes, 2048);
    while (sets > 1 && set_bytes * sets > 3e9)
        sets--;
    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    // Fewer sets where memory is short (a smaller or shared GPU): a failed cudaMalloc would end
    // the whole probe, a skipped point does not.
    while (sets > 1 && set_bytes * sets + WORKSPACE_BYTES > 0.5 * (double)free_b)
        sets--;
    if (set_bytes + WORKSPACE_BYTES > 0.8 * (double)free_b) {
        probe_status("%s (%s): %.3g GB of operands do not fit in %.3g GB free; skipped", name,
                     t.dtype, set_bytes / 1e9, (double)free_b / 1e9);
        p.total--;
        return false;
    }
    *out = sets;
    return true;
}

// One GEMM's device memory: `sets` sets of A, B and D, each 256-byte aligned (strides in
// bytes), and the cuBLASLt workspace.
struct GemmBuffers {
    void *A, *B, *D, *ws;
    size_t a_stride, b_stride, d_stride;
    int sets;
};

// The inputs' seeds: set s of A from GEMM_SEED_A + s, of B from GEMM_SEED_B + s.
static const uint64_t GEMM_SEED_A = 1000, GEMM_SEED_B = 2000;

// Allocates g for an m x n x k GEMM of kind: the inputs filled, D poisoned.
static void gemm_alloc(Probe &p, GemmKind kind, const GemmType &t, long m, long n, long k,
                       int sets, GemmBuffers &g)
{
    g.a_stride = align256((size_t)(m * k) * t.ab_size);
    g.b_stride = align256((size_t)(k * n) * t.ab_size);
    g.d_stride = align256((size_t)(m * n) * t.cd_size);
    g.sets = sets;
    CK(cudaMalloc(&g.A, g.a_stride * sets));
    CK(cudaMalloc(&g.B, g.b_stride * sets));
    CK(cudaMalloc(&g.D, g.d_stride * sets));
    CK(cudaMalloc(&g.ws, WORKSPACE_BYTES));
    for (int s = 0; s < sets; s++) {
        fill_kind(p, kind, (char *)g.A + (size_t)s * g.a_stride, (size_t)(m * k), GEMM_SEED_A + s);
        fill_kind(p, kind, (char *)g.B + (size_t)s * g.b_stride, (size_t)(k * n), GEMM_SEED_B + s);
    }
    probe_poison(p, g.D, g.d_stride * sets);
}

static void gemm_free(GemmBuffers &g)
{
    CK(cudaFree(g.A));
    CK(cudaFree(g.B));
    CK(cudaFree(g.D));
    CK(cudaFree(g.ws));
}

// cuBLASLt's description of D[M x N] = A^T B ("TN", column-major) and the algorithm its
// heuristic picked.
struct GemmPlan {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, ld;
    cublasLtMatmulPreference_t pref;
    size_t wsb; // the workspace the algorithm may use
    cublasLtMatmulHeuristicResult_t heur;
};

// Creates g's descriptors and asks for an algorithm: returns the heuristic's status, *have
// when it found one.
static cublasStatus_t gemm_plan(cublasLtHandle_t h, const GemmType &t, long m, long n, long k,
                                GemmPlan &g, bool *have)
{
    CKB(cublasLtMatmulDescCreate(&g.op, t.compute, CUDA_R_32F));
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    CKB(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CKB(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    CKB(cublasLtMatrixLayoutCreate(&g.la, t.ab, k, m, k));
    CKB(cublasLtMatrixLayoutCreate(&g.lb, t.ab, k, n, k));
    CKB(cublasLtMatrixLayoutCreate(&g.ld, t.cd, m, n, m));
    CKB(cublasLtMatmulPreferenceCreate(&g.pref));
    g.wsb = WORKSPACE_BYTES;
    CKB(cublasLtMatmulPreferenceSetAttribute(g.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                             &g.wsb, sizeof g.wsb));
    int found = 0;
    cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(h, g.op, g.la, g.lb, g.ld, g.ld, g.pref, 1,
                                                       &g.heur, &found);
    *have = hs == CUBLAS_STATUS_SUCCESS && found > 0 && g.heur.state == CUBLAS_STATUS_SUCCESS;
    return hs;
}

static void gemm_plan_destroy(GemmPlan &g)
{
    CKB(cublasLtMatmulPreferenceDestroy(g.pref));
    CKB(cublasLtMatrixLayoutDestroy(g.la));
    CKB(cublasLtMatrixLayoutDestroy(g.lb));
    CKB(cublasLtMatrixLayoutDestroy(g.ld));
    CKB(cublasLtMatmulDescDestroy(g.op));
}

// The result in set 0 of D: every output written, and 48 sampled entries against an fp64 dot
// of the same inputs, within gemm_tol. All 48 are checked and the worst kept, so a failure
// says by how much (in why).
static bool gemm_check(Probe &p, GemmKind kind, const GemmType &t, const void *D, long m,
                       long n, long k, char *why, size_t why_n)
{
    unsigned long long unwritten = probe_count_poison(p, D, (size_t)(m * n) * t.cd_size, 4);
    uint64_t r = 12345;
    std::vector<unsigned char> out(4);
    double worst = 0, w_got = 0, w_want = 0, w_tol = 0;
    long w_i = 0, w_j = 0;
    for (int q = 0; q < 48; q++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        long i = (long)((r >> 33) % (uint64_t)m);
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        long j = (long)((r >> 33) % (uint64_t)n);
        CK(cudaMemcpy(out.data(), (const char *)D + ((size_t)j * m + i) * t.cd_size, t.cd_size,
                      cudaMemcpyDeviceToHost));
        double got = read_out(kind, out.data());
        double want = 0, mag = 0;
        for (long kk = 0; kk < k; kk++) {
            double v = host_in(kind, (uint64_t)(i * k + kk), GEMM_SEED_A) *
                       host_in(kind, (uint64_t)(j * k + kk), GEMM_SEED_B);
            want += v;
            mag += fabs(v);
        }
        double tol = gemm_tol(kind, want, mag);
        double e = isfinite(got) ? fabs(got - want) / tol : INFINITY;
        if (q == 0 || e > worst) {
            worst = e;
            w_got = got, w_want = want, w_tol = tol, w_i = i, w_j = j;
        }
    }
    return probe_verdict(unwritten, worst, why, why_n,
                         "sampled entries differ from the fp64 reference: worst D[%ld,%ld] = "
                         "%.6g, want %.6g, allowed +-%.3g",
                         w_i, w_j, w_got, w_want, w_tol);
}

// One GEMM D[M x N] = A^T B with A stored K x M and B stored K x N (column-major, "TN"),
// rotated over enough input sets that small sizes are not served from the L2. Emits a point,
// or a status line and no point when cuBLASLt has no algorithm for it.
static void run_gemm(Probe &p, GemmKind kind, long m, long n, long k, const char *name)
{
    probe_check_time(p, name);
    GemmType t = gemm_type(kind);
    // Bytes moved by one GEMM: A and B read once, D written once (beta = 0: C is not read).
    const double set_bytes =
        (double)(m * k + k * n) * t.ab_size + (double)m * n * t.cd_size;
    int sets;
    if (!gemm_sets(p, t, set_bytes, name, &sets))
        return;
    GemmBuffers g;
    gemm_alloc(p, kind, t, m, n, k, sets, g);

    cublasLtHandle_t h = lt_handle();
    GemmPlan pl;
    bool have;
    cublasStatus_t hs = gemm_plan(h, t, m, n, k, pl, &have);
    if (!have) {
        probe_status("%s (%s): cuBLASLt has no algorithm for %ldx%ldx%ld: %s; skipped", name,
                     t.dtype, m, n, k, cublasLtGetStatusString(hs));
        p.total--;
    } else {
        const float alpha = 1.0f, beta = 0.0f;
        double sec = probe_time(p, [&](long i) {
            int s = (int)(i % sets);
            char *d = (char *)g.D + (size_t)s * g.d_stride;
            CKB(cublasLtMatmul(h, pl.op, &alpha, (char *)g.A + (size_t)s * g.a_stride, pl.la,
                               (char *)g.B + (size_t)s * g.b_stride, pl.lb, &beta, d, pl.ld, d,
                               pl.ld, &pl.heur.algo, g.ws, pl.wsb, p.st));
        });
        CK(cudaStreamSynchronize(p.st));
        char why[256];
        bool ok = gemm_check(p, kind, t, g.D, m, n, k, why, sizeof why);
        double flops = 2.0 * m * n * k;
        double bytes = set_bytes;
        if (strncmp(name, "op.matmul.", 10) == 0) {
            // the lecture's count for a square matmul: n^2 (2n - 1) FLOPs
            flops = (double)m * n * (2.0 * k - 1);
        }
        probe_emit(p, name, t.dtype, flops, bytes, sec, ok, why);
    }
    gemm_plan_destroy(pl);
    gemm_free(g);
}

static const long lecture_sizes[] = {256, 1024, 4096};

void probe_matmul_ops(Probe &p)
{
    for (long n : lecture_sizes) {
        char name[64];
        snprintf(name, sizeof name, "op.matmul.%ld", n);
        run_gemm(p, G_FP32, n, n, n, name);
        run_gemm(p, G_BF16, n, n, n, name);
    }
}

static std::vector<long> gemm_sizes(const Probe &p)
{
    if (p.quick)
        return {512, 2048, 8192};
    return {256, 512, 1024, 2048, 4096, 8192};
}

static bool has_fp8(const Probe &p)
{
    return p.prop.major > 8 || (p.prop.major == 8 && p.prop.minor >= 9);
}

int probe_count_gemms(const Probe &p)
{
    return (int)gemm_sizes(p).size() * (has_fp8(p) ? 4 : 3);
}

void probe_gemms(Probe &p)
{
    const GemmKind kinds[] = {G_BF16, G_FP16, G_TF32, G_FP8};
    if (!has_fp8(p))
        probe_status("fp8 GEMMs skipped: compute capability %d.%d < 8.9", p.prop.major,
                     p.prop.minor);
    for (GemmKind kind : kinds) {
        if (kind == G_FP8 && !has_fp8(p))
            continue;
        for (long n : gemm_sizes(p)) {
            char name[64];
            snprintf(name, sizeof name, "gemm.%s.%ld", gemm_type(kind).dtype, n);
            run_gemm(p, kind, n, n, n, name);
        }
    }
}

void probe_shapes(Probe &p)
{
    for (int i = 0; i < p.n_shapes; i++) {
        const probe_shape_arg &s = p.shapes[i];
        char name[96];
        snprintf(name, sizeof name, "shape.%s%s%ldx%ldx%ld", s.label, s.label[0] ? "." : "", s.m,
                 s.n, s.k);
        run_gemm(p, G_BF16, s.m, s.n, s.k, name);
    }
}
