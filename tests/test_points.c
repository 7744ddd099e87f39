/* test_points.c - the points document: round trip, refusal of malformed files, streamed lines,
 * ceilings and the spec written from points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "points.h"
#include "probe_json.h"
#include "spec.h"

static char tmpdir[256];

static void make_tmpdir(void)
{
    check_tmpdir(tmpdir, sizeof tmpdir, "points");
}

static void remove_tmpdir(void)
{
    check_rmtree(tmpdir);
}

static void path_in_tmp(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

static struct probe_point mkpoint(const char *name, enum dtype dt, double flops, double bytes,
                                  double seconds, bool valid)
{
    return points_make(name, dt, flops, bytes, seconds, valid);
}

/* A CPU document with computed peaks, as the CPU backend writes it. */
static void cpu_doc(struct points_doc *d)
{
    points_init(d);
    snprintf(d->device.kind, sizeof d->device.kind, "cpu");
    snprintf(d->device.name, sizeof d->device.name, "Test \"CPU\" \\ 9000");
    d->device.cores = 8;
    d->device.threads = 16;
    d->device.clock_hz = 3.0e9;
    d->device.memory_bytes = 64e9;
    d->device.l1d_bytes = 32768;
    d->device.l2_bytes = 1048576;
    d->device.l3_bytes = 33554432;
    snprintf(d->device.isa, sizeof d->device.isa, "avx2");
    d->device.vector_bits = 256;
    d->device.fma_bits = 256;
    d->device.fma_units = 2;
    snprintf(d->device.clock_source, sizeof d->device.clock_source, "measured");
    d->device.peak_flops[PEAK_FP32] = 8 * 3.0e9 * 32;
    d->device.peak_valid[PEAK_FP32] = true;
    d->device.peak_flops[PEAK_FP64] = 8 * 3.0e9 * 16;
    d->device.peak_valid[PEAK_FP64] = true;
    snprintf(d->time, sizeof d->time, "2026-05-01T12:00:00Z");
    struct probe_point pts[] = {
        mkpoint("bw.copy", DTYPE_FP32, 0, 2e9, 0.1, true),           /* 20 GB/s */
        mkpoint("bw.triad", DTYPE_FP64, 2.5e8, 3e9, 0.125, true),    /* 24 GB/s */
        mkpoint("sweep.fp32.0", DTYPE_FP32, 1e8, 1.2e9, 0.06, true),
        mkpoint("sweep.fp32.1024", DTYPE_FP32, 2.049e11, 1.2e9, 1.0, true), /* 204.9 GFLOP/s */
        mkpoint("sweep.fp64.2048", DTYPE_FP64, 1e11, 1e9, 1.0, true),
        mkpoint("op.matmul.1024", DTYPE_FP32, 2.147e9, 1.2582912e7, 0.01, false), /* invalid */
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        ck_assert(points_add(d, &pts[i]));
}

/* A CUDA document: measured peaks only. */
static void cuda_doc(struct points_doc *d)
{
    points_init(d);
    snprintf(d->device.kind, sizeof d->device.kind, "cuda");
    snprintf(d->device.name, sizeof d->device.name, "NVIDIA H200");
    d->device.cc_major = 9;
    d->device.cc_minor = 0;
    d->device.sms = 132;
    d->device.memory_bytes = 150e9;
    d->device.l2_bytes = 62914560;
    d->device.memory_bus_bits = 6144;
    snprintf(d->device.driver_version, sizeof d->device.driver_version, "13.0");
    snprintf(d->device.runtime_version, sizeof d->device.runtime_version, "13.0");
    struct probe_point pts[] = {
        mkpoint("bw.copy", DTYPE_FP32, 0, 4.3e9, 1e-3, true),
        mkpoint("bw.triad", DTYPE_FP64, 1e8, 6.6e9, 1.5e-3, true),
        mkpoint("bw.read", DTYPE_FP32, 1e9, 9e9, 1e-3, false),    /* invalid: must not count */
        mkpoint("sweep.fp32.8192", DTYPE_FP32, 6e13, 1e9, 1.0, true),
        mkpoint("gemm.bf16.8192", DTYPE_BF16, 1.1e12, 4e8, 1.4e-3, true),
        mkpoint("gemm.tf32.8192", DTYPE_TF32, 1.1e12, 8e8, 2.8e-3, true),
        mkpoint("gemm.fp8-e4m3.8192", DTYPE_FP8_E4M3, 1.1e12, 2.7e8, 0.8e-3, true),
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        ck_assert(points_add(d, &pts[i]));
}

START_TEST(test_round_trip)
{
    for (int which = 0; which < 2; which++) {
        struct points_doc a, b;
        if (which == 0)
            cpu_doc(&a);
        else
            cuda_doc(&a);
        char path[512], err[POINTS_ERR_MAX];
        path_in_tmp(path, sizeof path, "round.json");
        ck_assert_msg(points_save_file(path, &a, err, sizeof err), "%s", err);
        points_init(&b);
        ck_assert_msg(points_load_file(path, &b, err, sizeof err), "%s", err);
        ck_assert_str_eq(b.device.kind, a.device.kind);
        ck_assert_str_eq(b.device.name, a.device.name);
        ck_assert_str_eq(b.time, a.time);
        ck_assert_int_eq(b.device.cores, a.device.cores);
        ck_assert_int_eq(b.device.threads, a.device.threads);
        ck_assert_int_eq(b.device.sms, a.device.sms);
        ck_assert_int_eq(b.device.cc_major, a.device.cc_major);
        ck_assert_int_eq(b.device.cc_minor, a.device.cc_minor);
        ck_assert_int_eq(b.device.memory_bus_bits, a.device.memory_bus_bits);
        ck_assert_int_eq(b.device.fma_units, a.device.fma_units);
        ck_assert_str_eq(b.device.isa, a.device.isa);
        ck_assert_str_eq(b.device.driver_version, a.device.driver_version);
        ck_assert_double_eq(b.device.l3_bytes, a.device.l3_bytes);
        ck_assert_double_eq(b.device.l2_bytes, a.device.l2_bytes);
        ck_assert_rel(b.device.memory_bytes, a.device.memory_bytes, 1e-8);
        for (int k = 0; k < PEAK_COUNT; k++) {
            ck_assert_int_eq(b.device.peak_valid[k], a.device.peak_valid[k]);
            if (a.device.peak_valid[k])
                ck_assert_rel(b.device.peak_flops[k], a.device.peak_flops[k], 1e-8);
        }
        ck_assert_uint_eq(b.n, a.n);
        for (size_t i = 0; i < a.n; i++) {
            const struct probe_point *p = &a.points[i], *q = &b.points[i];
            ck_assert_str_eq(q->name, p->name);
            ck_assert_int_eq(q->dtype, p->dtype);
            ck_assert_int_eq(q->valid, p->valid);
            ck_assert_rel(q->flops, p->flops, 1e-8);
            ck_assert_rel(q->bytes, p->bytes, 1e-8);
            ck_assert_rel(q->seconds, p->seconds, 1e-8);
            ck_assert_rel(q->intensity, p->intensity, 1e-8);
            ck_assert_rel(q->flops_per_s, p->flops_per_s, 1e-8);
            ck_assert_rel(q->bytes_per_s, p->bytes_per_s, 1e-8);
        }
        points_free(&a);
        points_free(&b);
    }
}
END_TEST

/* Each malformed document and the exact line it must be refused with. */
static const struct {
    const char *json;
    const char *err;
} bad_docs[] = {
    {"", "f.json: not valid JSON (near byte 0)"},
    {"[1, 2]", "f.json: must be a JSON object with device, time and points"},
    {"{\"points\": []}", "f.json: device: missing"},
    {"{\"device\": {\"kind\": \"tpu\"}, \"points\": []}",
     "f.json: device.kind: 'tpu' is not \"cuda\" or \"cpu\""},
    {"{\"device\": {\"name\": \"x\"}, \"points\": []}",
     "f.json: device.kind: missing (\"cuda\" or \"cpu\")"},
    {"{\"device\": {\"kind\": \"cuda\", \"cc\": \"nine\"}, \"points\": []}",
     "f.json: device.cc: 'nine' is not a compute capability like \"9.0\""},
    {"{\"device\": {\"kind\": \"cuda\", \"sms\": 1.5}, \"points\": []}",
     "f.json: device.sms: must be a whole number up to 2147483647"},
    {"{\"device\": {\"kind\": \"cpu\", \"cores\": -2}, \"points\": []}",
     "f.json: device.cores: must not be negative"},
    {"{\"device\": {\"kind\": \"cpu\"}}", "f.json: points: missing"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": {}}", "f.json: points: must be an array"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [7]}", "f.json: points[0]: must be an object"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"dtype\": \"fp32\"}]}",
     "f.json: points[0].name: missing"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp33\", "
     "\"flops\": 1, \"bytes\": 1, \"seconds\": 1, \"valid\": true}]}",
     "f.json: points[0].dtype: unknown dtype 'fp33'"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"bytes\": 1, \"seconds\": 1, \"valid\": true}]}",
     "f.json: points[0].flops: missing"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"flops\": \"many\", \"bytes\": 1, \"seconds\": 1, \"valid\": true}]}",
     "f.json: points[0].flops: must be a number"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"flops\": 1e999, \"bytes\": 1, \"seconds\": 1, \"valid\": true}]}",
     "f.json: points[0].flops: must be finite"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"flops\": 1, \"bytes\": 0, \"seconds\": 1, \"valid\": true}]}",
     "f.json: points[0].bytes: must be positive"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"flops\": 1, \"bytes\": 1, \"seconds\": 1, \"valid\": \"yes\"}]}",
     "f.json: points[0].valid: must be true or false"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"flops\": 1, \"bytes\": 1, \"seconds\": 1}]}",
     "f.json: points[0].valid: missing"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"flops\": 10, \"bytes\": 4, \"seconds\": 2, \"intensity\": 3, \"valid\": true}]}",
     "f.json: points[0].intensity: 3 is not flops / bytes (2.5)"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\", \"dtype\": \"fp32\", "
     "\"flops\": 10, \"bytes\": 4, \"seconds\": 2, \"flops_per_s\": 6, \"valid\": true}]}",
     "f.json: points[0].flops_per_s: 6 is not flops / seconds (5)"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"points\": [{\"name\": \"a\\u0007\", \"dtype\": "
     "\"fp32\", \"flops\": 1, \"bytes\": 1, \"seconds\": 1, \"valid\": true}]}",
     "f.json: points[0].name: longer than 63 characters or has control characters"},
    {"{\"device\": {\"kind\": \"cpu\"}, \"time\": 5, \"points\": []}",
     "f.json: time: must be a short string (ISO 8601)"},
};

START_TEST(test_refuses_malformed)
{
    for (size_t i = 0; i < sizeof bad_docs / sizeof bad_docs[0]; i++) {
        struct points_doc d;
        points_init(&d);
        char err[POINTS_ERR_MAX] = "";
        bool ok = points_parse(bad_docs[i].json, strlen(bad_docs[i].json), "f.json", &d, err,
                               sizeof err);
        ck_assert_msg(!ok, "accepted: %s", bad_docs[i].json);
        ck_assert_str_eq(err, bad_docs[i].err);
        ck_assert_uint_eq(d.n, 0);
        ck_assert_ptr_null(d.points);
    }
}
END_TEST

/* The brief's example line, from a file on disk; and a missing file. */
START_TEST(test_load_errors_name_the_file)
{
    char path[512], err[POINTS_ERR_MAX];
    path_in_tmp(path, sizeof path, "bad.json");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"device\": {\"kind\": \"cpu\"}, \"time\": \"\", \"points\": [", f);
    for (int i = 0; i < 4; i++)
        fprintf(f, "%s{\"name\": \"p%d\", \"dtype\": \"fp32\", \"flops\": 1, \"bytes\": 1, "
                   "\"seconds\": %d, \"valid\": true}", i ? ", " : "", i, i == 3 ? 0 : 1);
    fputs("]}", f);
    ck_assert_int_eq(fclose(f), 0);
    struct points_doc d;
    points_init(&d);
    ck_assert(!points_load_file(path, &d, err, sizeof err));
    char want[600];
    snprintf(want, sizeof want, "%s: points[3].seconds: must be positive", path);
    ck_assert_str_eq(err, want);

    path_in_tmp(path, sizeof path, "missing.json");
    ck_assert(!points_load_file(path, &d, err, sizeof err));
    snprintf(want, sizeof want, "%s: cannot read: No such file or directory", path);
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_derived_fields_optional)
{
    const char *json = "{\"device\": {\"kind\": \"cpu\", \"name\": \"x\"}, \"points\": "
                       "[{\"name\": \"a\", \"dtype\": \"bf16\", \"flops\": 10, \"bytes\": 4, "
                       "\"seconds\": 2, \"valid\": false, \"extra\": [1, 2]}]}";
    struct points_doc d;
    points_init(&d);
    char err[POINTS_ERR_MAX] = "";
    ck_assert_msg(points_parse(json, strlen(json), "x", &d, err, sizeof err), "%s", err);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_int_eq(d.points[0].dtype, DTYPE_BF16);
    ck_assert_double_eq(d.points[0].intensity, 2.5);
    ck_assert_double_eq(d.points[0].flops_per_s, 5);
    ck_assert_double_eq(d.points[0].bytes_per_s, 2);
    ck_assert(!d.points[0].valid);
    ck_assert_str_eq(d.time, "");
    points_free(&d);
}
END_TEST

/* Lines as rooftop-probe-cuda writes them (probe_json.h) parse back into the same values. */
START_TEST(test_stream_lines)
{
    char path[512];
    path_in_tmp(path, sizeof path, "lines.jsonl");
    FILE *f = fopen(path, "w+");
    ck_assert_ptr_nonnull(f);
    pj_point(f, "gemm.bf16.4096", "bf16", 1.37438953472e11, 1.00663296e8, 1.8e-4, 1);
    struct pj_line l = pj_begin(f);
    struct pj_line dv = pj_object(&l, "device");
    pj_str(&dv, "kind", "cuda");
    pj_str(&dv, "name", "NVIDIA \"H100\"");
    pj_str(&dv, "cc", "9.0");
    pj_int(&dv, "sms", 132);
    pj_num(&dv, "l2_bytes", 52428800);
    pj_close(&dv);
    pj_end(&l);
    pj_progress(f, 3, 40, "sweep.fp32.64");
    pj_message(f, "status", "op.gelu: check failed\twith a tab");
    pj_message(f, "error", "no CUDA driver");
    pj_done(f, 40, 12.5);
    rewind(f);
    char line[1024], err[POINTS_ERR_MAX];
    struct points_line ev;
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_msg(points_parse_line(line, strlen(line), &ev, err, sizeof err), "%s", err);
    ck_assert_int_eq(ev.kind, PLINE_POINT);
    ck_assert_str_eq(ev.point.name, "gemm.bf16.4096");
    ck_assert_int_eq(ev.point.dtype, DTYPE_BF16);
    ck_assert_rel(ev.point.flops_per_s, 1.37438953472e11 / 1.8e-4, 1e-8);
    ck_assert(ev.point.valid);

    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_msg(points_parse_line(line, strlen(line), &ev, err, sizeof err), "%s", err);
    ck_assert_int_eq(ev.kind, PLINE_DEVICE);
    ck_assert_str_eq(ev.device.name, "NVIDIA \"H100\"");
    ck_assert_int_eq(ev.device.cc_major, 9);
    ck_assert_int_eq(ev.device.sms, 132);
    ck_assert_double_eq(ev.device.l2_bytes, 52428800);

    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert(points_parse_line(line, strlen(line), &ev, err, sizeof err));
    ck_assert_int_eq(ev.kind, PLINE_PROGRESS);
    ck_assert_int_eq(ev.done, 3);
    ck_assert_int_eq(ev.total, 40);
    ck_assert_str_eq(ev.text, "sweep.fp32.64");

    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert(points_parse_line(line, strlen(line), &ev, err, sizeof err));
    ck_assert_int_eq(ev.kind, PLINE_STATUS);
    ck_assert_str_eq(ev.text, "op.gelu: check failed with a tab"); /* control chars blanked */

    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert(points_parse_line(line, strlen(line), &ev, err, sizeof err));
    ck_assert_int_eq(ev.kind, PLINE_ERROR);
    ck_assert_str_eq(ev.text, "no CUDA driver");

    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert(points_parse_line(line, strlen(line), &ev, err, sizeof err));
    ck_assert_int_eq(ev.kind, PLINE_DONE);
    ck_assert_int_eq(ev.done, 40);
    ck_assert_double_eq(ev.seconds, 12.5);
    fclose(f);

    /* and what the C side formats */
    struct probe_point p = mkpoint("op.relu", DTYPE_FP32, 1048576, 8388608, 4e-4, true);
    ck_assert(points_format_point(&p, line, sizeof line));
    ck_assert(points_parse_line(line, strlen(line), &ev, err, sizeof err));
    ck_assert_str_eq(ev.point.name, "op.relu");
    ck_assert_rel(ev.point.bytes_per_s, 8388608 / 4e-4, 1e-8);
    ck_assert(!points_format_point(&p, line, 20)); /* too small a buffer: refused */

    static const char *const junk[] = {"", "{", "[]", "{\"what\": 1}", "{\"status\": 5}",
                                       "{\"progress\": {\"done\": 1}}", "{\"device\": []}",
                                       "{\"name\": \"x\"}"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        err[0] = '\0';
        ck_assert_msg(!points_parse_line(junk[i], strlen(junk[i]), &ev, err, sizeof err),
                      "accepted %s", junk[i]);
        ck_assert_msg(strncmp(err, "line: ", 6) == 0, "error '%s' for %s", err, junk[i]);
    }
}
END_TEST

START_TEST(test_ceilings)
{
    struct points_doc d;
    cuda_doc(&d);
    struct points_ceilings c;
    points_ceilings(&d, &c);
    /* bw.triad 6.6e9 / 1.5e-3 = 4.4 TB/s beats the copy's 4.3; the invalid read is ignored */
    ck_assert_rel(c.bandwidth, 4.4e12, 1e-12);
    ck_assert_str_eq(c.bandwidth_from, "bw.triad");
    ck_assert(c.peak_valid[PEAK_BF16]);
    ck_assert_rel(c.peak[PEAK_BF16], 1.1e12 / 1.4e-3, 1e-12);
    ck_assert_str_eq(c.peak_from[PEAK_BF16], "gemm.bf16.8192");
    ck_assert_rel(c.peak[PEAK_TF32], 1.1e12 / 2.8e-3, 1e-12);
    ck_assert_rel(c.peak[PEAK_FP8], 1.1e12 / 0.8e-3, 1e-12);
    ck_assert_rel(c.peak[PEAK_FP32], 6e13, 1e-12);
    ck_assert_rel(c.peak[PEAK_FP64], 1e8 / 1.5e-3, 1e-12); /* the triad's 2 FLOPs/element */
    ck_assert(!c.peak_valid[PEAK_FP16]);
    ck_assert(!c.peak_valid[PEAK_FP4]);
    points_free(&d);
}
END_TEST

START_TEST(test_spec_from_points)
{
    char path[512], err[SPEC_ERR_MAX];
    /* CUDA: measured ceilings; N/A where nothing was measured; the spec loader reads it. */
    struct points_doc d;
    cuda_doc(&d);
    struct gpu_spec g, back;
    ck_assert_msg(points_to_gpu_spec(&d, &g, err, sizeof err), "%s", err);
    ck_assert_rel(g.bandwidth, 4.4e12, 1e-12);
    ck_assert_rel(g.peak_flops[PEAK_BF16], 1.1e12 / 1.4e-3, 1e-12);
    ck_assert(!g.peak_valid[PEAK_FP16]);
    ck_assert_int_eq(g.sms, 132);
    ck_assert_double_eq(g.l2_bytes, 62914560);
    path_in_tmp(path, sizeof path, "probe-spec.json");
    ck_assert_msg(spec_save_gpu(path, &g, err, sizeof err), "%s", err);
    ck_assert_msg(spec_load_gpu_file(path, &back, err, sizeof err), "%s", err);
    ck_assert_rel(back.bandwidth, g.bandwidth, 1e-8);
    ck_assert_rel(back.memory_bytes, 150e9, 1e-8);
    for (int k = 0; k < PEAK_COUNT; k++) {
        ck_assert_int_eq(back.peak_valid[k], g.peak_valid[k]);
        if (g.peak_valid[k])
            ck_assert_rel(back.peak_flops[k], g.peak_flops[k], 1e-8);
    }
    ck_assert_str_eq(back.name, "NVIDIA H200 (measured)");
    points_free(&d);

    /* CPU: peaks from the device's computed figures, bandwidth measured, LLC as the L2 */
    cpu_doc(&d);
    ck_assert(points_to_gpu_spec(&d, &g, err, sizeof err));
    ck_assert_rel(g.peak_flops[PEAK_FP32], 8 * 3.0e9 * 32, 1e-12);
    ck_assert_rel(g.peak_flops[PEAK_FP64], 8 * 3.0e9 * 16, 1e-12);
    ck_assert(!g.peak_valid[PEAK_BF16]);
    ck_assert_rel(g.bandwidth, 24e9, 1e-12);
    ck_assert_int_eq(g.sms, 8);
    ck_assert_double_eq(g.l2_bytes, 33554432);
    ck_assert_ptr_nonnull(strstr(g.source, "computed from cores"));
    points_free(&d);

    /* no valid bandwidth point: refused with a reason */
    points_init(&d);
    snprintf(d.device.kind, sizeof d.device.kind, "cpu");
    struct probe_point p = mkpoint("bw.copy", DTYPE_FP32, 0, 1e9, 0.1, false);
    ck_assert(points_add(&d, &p));
    ck_assert(!points_to_gpu_spec(&d, &g, err, sizeof err));
    ck_assert_str_eq(err, "no valid bandwidth point (bw.copy or bw.triad) to build a spec from");
    points_free(&d);
}
END_TEST

static Suite *points_suite(void)
{
    Suite *s = suite_create("points");
    TCase *tc = tcase_create("core");
    tcase_add_unchecked_fixture(tc, make_tmpdir, remove_tmpdir);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_refuses_malformed);
    tcase_add_test(tc, test_load_errors_name_the_file);
    tcase_add_test(tc, test_derived_fields_optional);
    tcase_add_test(tc, test_stream_lines);
    tcase_add_test(tc, test_ceilings);
    tcase_add_test(tc, test_spec_from_points);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(points_suite());
}
