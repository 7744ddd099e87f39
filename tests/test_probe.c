/* test_probe.c - `rooftop probe`: the CPU backend end to end (points valid, the sweep rises then
 * flattens), --backend cuda failing cleanly, bad usage, the child-process runner, and the CUDA
 * probe's build when nvcc exists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_util.h"
#include "inputs.h"
#include "measured.h"
#include "points.h"
#include "probe.h"
#include "probe_child.h"
#include "spec.h"

static char tmpdir[256];
static char rooftop_bin[1024];

static void setup(void)
{
    check_tmpdir(tmpdir, sizeof tmpdir, "probe");
    snprintf(rooftop_bin, sizeof rooftop_bin, "%s", check_bin());
}

static void teardown(void)
{
    check_rmtree(tmpdir);
}


static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static const struct probe_point *find_point(const struct points_doc *d, const char *name)
{
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->points[i].name, name) == 0)
            return &d->points[i];
    return NULL;
}

START_TEST(test_shapes)
{
    struct probe_options o;
    probe_options_default(&o);
    char err[256];
    ck_assert(probe_parse_shapes("4096,12288,4096;mlp=4096,16384,4096;", &o, err, sizeof err));
    ck_assert_uint_eq(o.n_shapes, 2);
    ck_assert_str_eq(o.shapes[0].label, "");
    ck_assert_int_eq(o.shapes[0].m, 4096);
    ck_assert_int_eq(o.shapes[0].n, 12288);
    ck_assert_int_eq(o.shapes[0].k, 4096);
    ck_assert_str_eq(o.shapes[1].label, "mlp");
    ck_assert_int_eq(o.shapes[1].n, 16384);
    static const struct {
        const char *in, *err;
    } bad[] = {
        {"1,2", "--shapes: '1,2' is not M,N,K with whole numbers 1..1048576"},
        {"1,2,x", "--shapes: '1,2,x' is not M,N,K with whole numbers 1..1048576"},
        {"0,2,3", "--shapes: '0,2,3' is not M,N,K with whole numbers 1..1048576"},
        {"1,2,3,4", "--shapes: '1,2,3,4' is not M,N,K with whole numbers 1..1048576"},
        {"a b=1,2,3", "--shapes: label 'a b': letters, digits, '_' and '-' only"},
        {"=1,2,3", "--shapes: label '' must be 1 to 23 characters"},
        {"1048576,1048576,1048576", "--shapes: '1048576,1048576,1048576' is too large"},
        {";", "--shapes: no shapes in ';'"},
        {"", "--shapes: empty; want M,N,K;M,N,K or LABEL=M,N,K"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(!probe_parse_shapes(bad[i].in, &o, err, sizeof err), "accepted %s",
                      bad[i].in);
        ck_assert_str_eq(err, bad[i].err);
    }
}
END_TEST

START_TEST(test_best)
{
    /* The fastest pass, whatever the order; a pass that never ran (0) or a broken clock
     * (NaN, infinity, negative) is no pass. */
    const double t[] = {5, 1.5, 4, 2, 3};
    ck_assert_double_eq(probe_best(t, 5), 1.5);
    const double odd[] = {0, -1, NAN, INFINITY, 2.5, 7};
    ck_assert_double_eq(probe_best(odd, 6), 2.5);
    ck_assert_double_eq(probe_best(odd, 4), 0);
    ck_assert_double_eq(probe_best(t, 0), 0);
}
END_TEST

/* Drives a child to its end, collecting events; returns the number of events. */
static int drain(struct probe_child *c, struct points_line *evs, int max)
{
    int n = 0;
    double t0 = probe_now();
    for (;;) {
        struct points_line ev;
        int r = probe_child_poll(c, &ev);
        if (r == PCHILD_EXITED)
            break;
        if (r == PCHILD_EVENT) {
            if (n < max)
                evs[n] = ev;
            n++;
        } else {
            usleep(2000);
        }
        ck_assert_msg(probe_now() - t0 < 20, "child did not end");
    }
    return n;
}

START_TEST(test_child_lines)
{
    char err[256], reason[256];
    /* good lines, a junk line, a blank line and a last line without a newline */
    char *argv[] = {(char *)"/bin/sh", (char *)"-c",
                    (char *)"printf '%s\\n' '{\"status\": \"hello\"}' 'junk' '' "
                            "'{\"name\": \"bw.copy\", \"dtype\": \"fp32\", \"flops\": 0, "
                            "\"bytes\": 8, \"seconds\": 2, \"valid\": true}'; "
                            "printf '{\"done\": {\"points\": 1, \"seconds\": 0.5}}'",
                    NULL};
    struct probe_child *c = probe_child_start(argv, 10, err, sizeof err);
    ck_assert_msg(c != NULL, "%s", err);
    struct points_line ev[8];
    int n = drain(c, ev, 8);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(ev[0].kind, PLINE_STATUS);
    ck_assert_str_eq(ev[0].text, "hello");
    ck_assert_int_eq(ev[1].kind, PLINE_POINT);
    ck_assert_double_eq(ev[1].point.bytes_per_s, 4);
    ck_assert_int_eq(ev[2].kind, PLINE_DONE);
    ck_assert_uint_eq(probe_child_bad_lines(c), 1);
    bool ok = false;
    probe_child_result(c, &ok, reason, sizeof reason);
    ck_assert(ok);
    probe_child_free(c);
}
END_TEST

START_TEST(test_child_failures)
{
    char err[256], reason[256];
    bool ok = true;
    struct points_line ev[4];

    /* an error line wins */
    char *a1[] = {(char *)"/bin/sh", (char *)"-c",
                  (char *)"echo '{\"error\": \"no device\"}'; exit 4", NULL};
    struct probe_child *c = probe_child_start(a1, 10, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(drain(c, ev, 4), 1);
    probe_child_result(c, &ok, reason, sizeof reason);
    ck_assert(!ok);
    ck_assert_str_eq(reason, "no device");
    probe_child_free(c);

    /* a non-zero exit: its last stderr line */
    char *a2[] = {(char *)"/bin/sh", (char *)"-c",
                  (char *)"echo first >&2; echo 'cannot load libcublasLt.so.13' >&2; exit 127",
                  NULL};
    c = probe_child_start(a2, 10, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(drain(c, ev, 4), 0);
    probe_child_result(c, &ok, reason, sizeof reason);
    ck_assert(!ok);
    ck_assert_str_eq(reason, "cannot load libcublasLt.so.13");
    probe_child_free(c);

    /* a crash */
    char *a3[] = {(char *)"/bin/sh", (char *)"-c", (char *)"kill -SEGV $$", NULL};
    c = probe_child_start(a3, 10, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    drain(c, ev, 4);
    probe_child_result(c, &ok, reason, sizeof reason);
    ck_assert(!ok);
    ck_assert_msg(strstr(reason, "killed by signal 11") != NULL, "%s", reason);
    probe_child_free(c);

    /* a hang: stopped at the time limit, even though it ignores SIGTERM */
    char *a4[] = {(char *)"/bin/sh", (char *)"-c", (char *)"trap '' TERM; while :; do sleep 1; done",
                  NULL};
    double t0 = probe_now();
    c = probe_child_start(a4, 0.3, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    drain(c, ev, 4);
    probe_child_result(c, &ok, reason, sizeof reason);
    ck_assert(!ok);
    ck_assert_str_eq(reason, "time limit of 0.3 s reached: the probe was stopped");
    ck_assert(probe_now() - t0 < 5);
    probe_child_free(c);

    /* freeing a running child kills and reaps it */
    char *a5[] = {(char *)"/bin/sh", (char *)"-c", (char *)"sleep 30", NULL};
    c = probe_child_start(a5, 0, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    t0 = probe_now();
    probe_child_free(c);
    ck_assert(probe_now() - t0 < 3);

    /* a program that does not exist */
    char *a6[] = {(char *)"/nonexistent/rooftop-probe-cuda", NULL};
    c = probe_child_start(a6, 10, err, sizeof err);
    ck_assert_ptr_nonnull(c); /* fork succeeds; exec fails in the child */
    drain(c, ev, 4);
    probe_child_result(c, &ok, reason, sizeof reason);
    ck_assert(!ok);
    ck_assert_str_eq(reason, "cannot run the probe program: exec failed");
    probe_child_free(c);
}
END_TEST

/* The CPU backend end to end, once, through the binary: streamed lines and the --out file, and
 * the lecture scenario's GEMM shapes as the dashboard's P passes them (plus an odd small one). */
START_TEST(test_cpu_quick)
{
    struct scenario sc;
    inputs_defaults(&sc);
    char shapes[512];
    ck_assert(measured_shapes_arg(&sc, shapes, sizeof shapes));
    char args[2048];
    snprintf(args, sizeof args, "probe --backend cpu --quick --out '%s/q.json' --save-spec '%s/q-spec.json' "
             "--shapes '%s;odd=37,45,91'", tmpdir, tmpdir, shapes);
    struct check_run run;
    int rc = check_run_bin(&run, args);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, run.err);
    char *out = run.out;

    /* every stdout line parses; one device line first, a done line last */
    int points = 0, devices = 0, dones = 0;
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        struct points_line ev;
        char perr[POINTS_ERR_MAX];
        ck_assert_msg(points_parse_line(line, strlen(line), &ev, perr, sizeof perr), "%s: %s",
                      perr, line);
        if (ev.kind == PLINE_DEVICE) {
            ck_assert_int_eq(points + dones, 0);
            devices++;
        }
        points += ev.kind == PLINE_POINT;
        dones += ev.kind == PLINE_DONE;
        ck_assert(ev.kind != PLINE_ERROR);
    }
    ck_assert_int_eq(devices, 1);
    ck_assert_int_eq(dones, 1);

    struct points_doc d;
    points_init(&d);
    char path[512], perr[POINTS_ERR_MAX];
    snprintf(path, sizeof path, "%s/q.json", tmpdir);
    ck_assert_msg(points_load_file(path, &d, perr, sizeof perr), "%s", perr);
    ck_assert_int_eq((int)d.n, points);
    ck_assert_str_eq(d.device.kind, "cpu");
    ck_assert_int_ge(d.device.cores, 1);
    ck_assert(d.device.peak_valid[PEAK_FP32]);
    ck_assert_int_eq(strlen(d.time), 20);
    for (size_t i = 0; i < d.n; i++)
        ck_assert_msg(d.points[i].valid, "%s failed its check", d.points[i].name);
    static const char *const must[] = {"bw.copy", "bw.triad", "op.relu", "op.gelu", "op.dot",
                                       "op.matvec", "op.matmul.256", "sweep.fp32.0",
                                       "sweep.fp64.0"};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        ck_assert_msg(find_point(&d, must[i]) != NULL, "no %s point", must[i]);

    /* the fp32 sweep in order of intensity: from < 0.1 to > 100 FLOP/byte, rising then flat */
    const struct probe_point *sw[16];
    int n = 0;
    for (size_t i = 0; i < d.n && n < 16; i++)
        if (strncmp(d.points[i].name, "sweep.fp32.", 11) == 0)
            sw[n++] = &d.points[i];
    ck_assert_int_ge(n, 5);
    ck_assert(sw[0]->intensity < 0.1);
    ck_assert(sw[n - 1]->intensity > 100);
    for (int i = 1; i < n; i++) {
        ck_assert(sw[i]->intensity > sw[i - 1]->intensity);
        /* monotone-ish: timing noise on a shared machine allowed, a collapse is not */
        ck_assert_msg(sw[i]->flops_per_s > 0.5 * sw[i - 1]->flops_per_s, "%s %g after %s %g",
                      sw[i]->name, sw[i]->flops_per_s, sw[i - 1]->name, sw[i - 1]->flops_per_s);
    }
    /* the slope: the roof is far above the memory-bound start */
    ck_assert_msg(sw[n - 1]->flops_per_s > 10 * sw[0]->flops_per_s, "%g vs %g",
                  sw[n - 1]->flops_per_s, sw[0]->flops_per_s);
    /* the plateau: the last two (both compute-bound) agree within 2x */
    double r = sw[n - 1]->flops_per_s / sw[n - 2]->flops_per_s;
    ck_assert_msg(r > 0.5 && r < 2.0, "plateau ratio %g", r);
    /* the low end moves bytes at about the measured bandwidth, the top at about the peak */
    struct points_ceilings c;
    points_ceilings(&d, &c);
    ck_assert_msg(sw[0]->bytes_per_s > 0.25 * c.bandwidth, "%g vs %g", sw[0]->bytes_per_s,
                  c.bandwidth);
    ck_assert(sw[n - 1]->flops_per_s < 1.2 * d.device.peak_flops[PEAK_FP32]);
    ck_assert(sw[n - 1]->flops_per_s > 0.1 * d.device.peak_flops[PEAK_FP32]);

    /* The shapes: an odd small one exactly as asked (the kernel pads it), the scenario's
     * scaled down to at most 0.5 GFLOP a run and named as they ran, each valid. */
    const struct probe_point *odd = find_point(&d, "shape.odd.37x45x91");
    ck_assert_ptr_nonnull(odd);
    ck_assert(odd->flops == 2.0 * 37 * 45 * 91);
    struct analysis an;
    analysis_run(&sc, &an);
    struct measured m;
    measured_match(&sc, &an, &d, true, &m); /* the CPU's points, on purpose */
    ck_assert_int_eq(m.n_gemms, 6);
    ck_assert_int_eq(m.n_found, 6);
    ck_assert_int_eq(m.n_ops_measured, 6);
    ck_assert(m.shape_differs && m.dtype_differs); /* smaller, and fp32 */
    for (int i = 0; i < m.n_gemms; i++) {
        const struct measured_gemm *g = &m.gemm[i];
        char name[POINTS_NAME_MAX];
        snprintf(name, sizeof name, "shape.%s.%ldx%ldx%ld", g->label, g->pm, g->pn, g->pk);
        const struct probe_point *p = find_point(&d, name);
        ck_assert_msg(p && p->valid, "%s", name);
        ck_assert(p->flops == 2.0 * g->pm * g->pn * g->pk);
        ck_assert_msg(p->flops <= 0.5e9 && p->flops > 0.1e9, "%s: %g FLOPs", name, p->flops);
        ck_assert(g->pm >= 64 && g->pm <= g->m && g->pn <= g->n && g->pk <= g->k);
        /* a timing that beats the computed peak would be a wrong one (how fast it runs is
         * for the benchmarks) */
        ck_assert_msg(p->flops_per_s > 0 && p->flops_per_s < 1.2 * d.device.peak_flops[PEAK_FP32],
                      "%s at %g FLOP/s", name, p->flops_per_s);
    }
    ck_assert(m.efficiency > 0 && m.efficiency < 0.05); /* a CPU against an H100's bf16 peak */

    /* the CPU spec written by --save-spec: computed peak, measured bandwidth */
    struct gpu_spec g;
    snprintf(path, sizeof path, "%s/q-spec.json", tmpdir);
    ck_assert_msg(spec_load_gpu_file(path, &g, perr, sizeof perr), "%s", perr);
    ck_assert_rel(g.bandwidth, c.bandwidth, 1e-6);
    ck_assert_rel(g.peak_flops[PEAK_FP32], d.device.peak_flops[PEAK_FP32], 1e-6);
    points_free(&d);
    check_run_free(&run);
}
END_TEST

START_TEST(test_cuda_backend_here)
{
    struct check_run run;
    int rc = check_run_bin(&run, "probe --backend cuda --quick --time-limit 60");
    const char *errs = run.err;
    if (rc == 0) {
        /* A machine with a GPU: then it must have run and said so in what it wrote: the
         * device line of the CUDA backend, and at least one valid point with a rate. */
        printf("test_probe: a CUDA device is present: --backend cuda ran\n");
        ck_assert_msg(strstr(run.out, "\"kind\": \"cuda\"") != NULL, "%s", run.out);
        ck_assert_msg(strstr(run.out, "\"valid\": true") != NULL, "%s", run.out);
        ck_assert_msg(strstr(errs, " points (0 failed their check)") != NULL, "%s", errs);
        check_run_free(&run);
        return;
    }
    ck_assert_int_eq(rc, 1);
    ck_assert_int_eq(count_lines(errs), 1);
    ck_assert_msg(strncmp(errs, "rooftop probe: --backend cuda: cannot run: ", 43) == 0, "%s", errs);
    ck_assert_msg(strstr(errs, "built without CUDA") || strstr(errs, "no CUDA driver") ||
                      strstr(errs, "no device"),
                  "%s", errs);
    check_run_free(&run);
}
END_TEST

START_TEST(test_bad_usage)
{
    static const struct {
        const char *args, *line;
    } cases[] = {
        {"probe --device x", "rooftop probe: --device: 'x' is not a device index (0, 1, ...)\n"},
        {"probe --backend tpu", "rooftop probe: --backend: 'tpu' is not auto, cuda or cpu\n"},
        {"probe --time-limit -3",
         "rooftop probe: --time-limit: '-3' is not a positive number of seconds\n"},
        {"probe --shapes 1,2",
         "rooftop probe: --shapes: '1,2' is not M,N,K with whole numbers 1..1048576\n"},
        {"probe --out", "rooftop probe: --out: needs a value\n"},
        {"probe --frobnicate", "rooftop probe: unknown option '--frobnicate' (see rooftop probe --help)\n"},
        {"probe --thread 2", "rooftop probe: unknown option '--thread' (did you mean --threads? "
                             "rooftop probe --help lists them)\n"},
        {"probe --threads 0", "rooftop probe: --threads: '0' is not a thread count (1..1024)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct check_run run;
        int rc = check_run_bin(&run, cases[i].args);
        ck_assert_msg(rc == 2, "%s: exit %d", cases[i].args, rc);
        ck_assert_str_eq(run.err, cases[i].line);
        ck_assert_str_eq(run.out, "");
        check_run_free(&run);
    }
}
END_TEST

/* When nvcc exists, `make` built rooftop-probe-cuda beside rooftop: it must run its device
 * query and answer with one line rooftop understands. */
START_TEST(test_cuda_probe_built)
{
    bool nvcc = system("command -v nvcc >/dev/null 2>&1") == 0 ||
                access("/usr/local/cuda/bin/nvcc", X_OK) == 0;
    /* `make test NVCC=` builds without CUDA on purpose (make sets ROOFTOP_NVCC to what it used). */
    const char *made_with = getenv("ROOFTOP_NVCC");
    if (nvcc && made_with && !made_with[0]) {
        printf("test_probe: make was run with NVCC= (no CUDA build): the CUDA probe's build is not checked here\n");
        return;
    }
    if (!nvcc) {
        printf("test_probe: nvcc not found: the CUDA probe's build is not checked here\n");
        return;
    }
    char exe[1100];
    snprintf(exe, sizeof exe, "%s", rooftop_bin);
    char *slash = strrchr(exe, '/');
    if (slash)
        slash[1] = '\0';
    else
        exe[0] = '\0';
    strncat(exe, "rooftop-probe-cuda", sizeof exe - strlen(exe) - 1);
    ck_assert_msg(access(exe, X_OK) == 0, "nvcc exists but %s was not built", exe);
    char *argv[] = {exe, (char *)"--check", NULL};
    char err[256], reason[256];
    struct probe_child *c = probe_child_start(argv, 30, err, sizeof err);
    ck_assert_ptr_nonnull(c);
    struct points_line ev[4];
    int n = drain(c, ev, 4);
    ck_assert_int_eq(n, 1);
    bool ok;
    probe_child_result(c, &ok, reason, sizeof reason);
    probe_child_free(c);
    if (ok) {
        ck_assert_int_eq(ev[0].kind, PLINE_DEVICE);
        ck_assert_str_eq(ev[0].device.kind, "cuda");
    } else {
        ck_assert_int_eq(ev[0].kind, PLINE_ERROR);
        ck_assert_msg(strncmp(reason, "no CUDA driver", 14) == 0 || strncmp(reason, "no device", 9) == 0,
                      "%s", reason);
        printf("test_probe: rooftop-probe-cuda built and linked; here it says: %s\n", reason);
        /* A whole run (not --check) on this machine stops the same way, in one line. */
        char *run_argv[] = {exe, (char *)"--quick", (char *)"--time-limit", (char *)"20", NULL};
        c = probe_child_start(run_argv, 30, err, sizeof err);
        ck_assert_ptr_nonnull(c);
        ck_assert_int_eq(drain(c, ev, 4), 1);
        ck_assert_int_eq(ev[0].kind, PLINE_ERROR);
        char again[256];
        probe_child_result(c, &ok, again, sizeof again);
        probe_child_free(c);
        ck_assert(!ok);
        ck_assert_str_eq(again, reason);
    }

    /* Bad options: exit 2 with one error line rooftop understands, before any CUDA call (so
     * the same on a machine with or without a GPU). */
    static const struct {
        const char *opt, *val, *line;
    } bad[] = {
        {"--shapes", "1,2", "--shapes: want [LABEL=]M,N,K;... (1..1048576)"},
        {"--shapes", "qkv=8,8,0", "--shapes: want [LABEL=]M,N,K;... (1..1048576)"},
        {"--time-limit", "-3", "--time-limit: not a positive number of seconds"},
        {"--device", "x", "--device: not a device index"},
        {"--frobnicate", NULL, "--frobnicate: unknown option"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *bargv[] = {exe, (char *)bad[i].opt, (char *)bad[i].val, NULL};
        c = probe_child_start(bargv, 30, err, sizeof err);
        ck_assert_ptr_nonnull(c);
        ck_assert_int_eq(drain(c, ev, 4), 1);
        ck_assert_int_eq(ev[0].kind, PLINE_ERROR);
        ck_assert_str_eq(ev[0].text, bad[i].line);
        probe_child_free(c);
        char cmd[1400];
        snprintf(cmd, sizeof cmd, "'%s' %s %s >/dev/null 2>&1", exe, bad[i].opt,
                 bad[i].val ? bad[i].val : "");
        int st = system(cmd);
        ck_assert_msg(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: status %d", cmd, st);
    }
}
END_TEST

static Suite *probe_suite(void)
{
    Suite *s = suite_create("probe");
    TCase *tc = tcase_create("unit");
    tcase_add_test(tc, test_shapes);
    tcase_add_test(tc, test_best);
    tcase_add_test(tc, test_child_lines);
    tcase_add_test(tc, test_child_failures);
    suite_add_tcase(s, tc);
    TCase *cli = tcase_create("cli");
    tcase_add_checked_fixture(cli, setup, teardown);
    /* The quick CPU probe takes a few seconds on two cores; more when the machine is busy. */
    tcase_set_timeout(cli, 120);
    tcase_add_test(cli, test_cpu_quick);
    tcase_add_test(cli, test_cuda_backend_here);
    tcase_add_test(cli, test_bad_usage);
    tcase_add_test(cli, test_cuda_probe_built);
    suite_add_tcase(s, cli);
    return s;
}

int main(void)
{
    return check_run_suite(probe_suite());
}
