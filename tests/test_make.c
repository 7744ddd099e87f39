/* test_make.c - the Makefile's way to the first frame (issue 17): a fresh clone's `make run`
 * took 53 s on two cores, building one file at a time and then compiling the CUDA probe with
 * nvcc on a machine without a GPU driver before the dashboard opened. Now the build is
 * parallel by default, and nvcc is off the way to the dashboard where no driver is loaded.
 * Dry runs (make -n) of the source tree's Makefile into a scratch build directory. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"

static char dir[256];

static void setup(void)
{
    check_tmpdir(dir, sizeof dir, "make");
}

static void teardown(void)
{
    check_rmtree(dir);
}

/* `make ARGS` from the source tree, outside any make that runs the tests (its MAKEFLAGS would
 * carry its own -j), into the scratch build directory; what it printed. */
static void make_dry(struct check_run *r, const char *args)
{
    ck_assert_msg(access("Makefile", R_OK) == 0, "tests run from the source tree");
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory B='%s' %s 2>&1",
             dir, args);
    check_run_sh(r, cmd);
}

/* The -j of the MAKEFLAGS line of `make -p` (the database make ran with), or -1. */
static long jobs_of(const char *db)
{
    for (const char *p = db; (p = strstr(p, "\nMAKEFLAGS = ")) != NULL; p++) {
        const char *eol = strchr(p + 1, '\n');
        const char *j = strstr(p, " -j");
        if (j != NULL && (eol == NULL || j < eol))
            return strtol(j + 3, NULL, 10);
    }
    return -1;
}

START_TEST(parallel_by_default)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ck_assert(cpus >= 1);
    struct check_run r;
    make_dry(&r, "-pn rooftop");
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(jobs_of(r.out) == cpus, "make without -j runs %ld jobs, want %ld (one per CPU)",
                  jobs_of(r.out), cpus);
    check_run_free(&r);
    /* A -j given wins. */
    make_dry(&r, "-pn -j1 rooftop");
    ck_assert_int_eq(r.status, 0);
    ck_assert_int_eq(jobs_of(r.out), 1);
    check_run_free(&r);
}
END_TEST

/* nvcc found, no driver loaded: `make` and `make run` do not run it; the targets that need the
 * probe (cuda-probe, test's build) do. With a driver, `make` builds it as before. */
START_TEST(cuda_probe_off_the_way)
{
    static const char *const nvcc = "/nonexistent/cuda/bin/nvcc";
    static const struct {
        const char *args;
        bool runs_nvcc;
    } cases[] = {
        {"-n all GPU_DRIVER=", false},
        {"-n run GPU_DRIVER=", false},
        {"-n cuda-probe GPU_DRIVER=", true},
        {"-n all GPU_DRIVER=/proc/driver/nvidia/version", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, "NVCC=%s %s", nvcc, cases[i].args);
        struct check_run r;
        make_dry(&r, args);
        ck_assert_msg(r.status == 0, "make %s: exit %d\n%.1500s", args, r.status, r.out);
        /* nvcc's command line, as make prints it (not the variable in MAKEFLAGS). */
        char line[128];
        snprintf(line, sizeof line, "\n%s -O3 ", nvcc);
        bool ran = strstr(r.out, line) != NULL;
        ck_assert_msg(ran == cases[i].runs_nvcc, "make %s %s nvcc:\n%.1500s", args,
                      ran ? "runs" : "does not run", r.out);
        if (strstr(args, " run ") != NULL)
            ck_assert_msg(strstr(r.out, "./rooftop"), "make %s does not open the dashboard:\n%.1500s",
                          args, r.out);
        check_run_free(&r);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("make");
    TCase *tc = tcase_create("defaults");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, parallel_by_default);
    tcase_add_test(tc, cuda_probe_off_the_way);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(make_suite());
}
