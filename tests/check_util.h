/* check_util.h - shared helpers for the Check suites. */
#ifndef ROOFTOP_CHECK_UTIL_H
#define ROOFTOP_CHECK_UTIL_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* |got - want| <= rel * |want|, reported with both values. */
#define ck_assert_rel(got, want, rel)                                                        \
    do {                                                                                     \
        double g_ = (double)(got), w_ = (double)(want);                                      \
        ck_assert_msg(fabs(g_ - w_) <= (rel) * fabs(w_), "%s = %.10g, want %.10g (rel %g)", \
                      #got, g_, w_, (double)(rel));                                          \
    } while (0)

/* Makes a fresh directory /tmp/rooftop-test-TAG-XXXXXX into dir (n bytes). */
static inline void check_tmpdir(char *dir, size_t n, const char *tag)
{
    snprintf(dir, n, "/tmp/rooftop-test-%s-XXXXXX", tag);
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s failed", dir);
}

/* Removes a directory made by check_tmpdir, and all in it. */
static inline void check_rmtree(const char *dir)
{
    char cmd[4200];
    ck_assert(strlen(dir) < 4096 && strchr(dir, '\'') == NULL);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* The binary under test: $ROOFTOP_BIN (make test sets it), else $B/rooftop-bin, else
 * build/rooftop-bin. */
static inline const char *check_bin(void)
{
    static char path[1024];
    const char *bin = getenv("ROOFTOP_BIN"), *b = getenv("B");
    if (bin && *bin)
        snprintf(path, sizeof path, "%s", bin);
    else
        snprintf(path, sizeof path, "%s/rooftop-bin", b && *b ? b : "build");
    return path;
}

/* What one run of the binary printed, in full, and how it ended. */
struct check_run {
    int status;      /* exit status; -1 when a signal ended it */
    char *out, *err; /* stdout, stderr (NUL-terminated; freed by check_run_free) */
};

static inline char *check_read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* ui/rooftop.1 holds exactly what print writes between its .\" BEGIN mark and .\" END mark
 * lines (make man writes them there); tests run from the source tree. */
static inline void check_man_section(const char *mark, void (*print)(FILE *f))
{
    char *gen = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&gen, &len);
    ck_assert(f != NULL);
    print(f);
    ck_assert_int_eq(fclose(f), 0);
    char *page = check_read_all("ui/rooftop.1");
    char begin[64], end[64];
    snprintf(begin, sizeof begin, ".\\\" BEGIN %s\n", mark);
    snprintf(end, sizeof end, ".\\\" END %s\n", mark);
    const char *b = strstr(page, begin), *e = strstr(page, end);
    ck_assert_msg(b != NULL && e != NULL && e > b, "ui/rooftop.1 lacks the %s marks", mark);
    b += strlen(begin);
    ck_assert_msg((size_t)(e - b) == len && memcmp(b, gen, len) == 0,
                  "ui/rooftop.1's %s section differs from its table: run make man", mark);
    free(page);
    free(gen);
}

/* Runs the shell command line cmd with stdin from /dev/null, stdout and stderr captured
 * whole. Returns r->status. */
static inline int check_run_sh(struct check_run *r, const char *cmd)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/rooftop-run-XXXXXX");
    ck_assert(mkdtemp(dir) != NULL);
    size_t len = strlen(cmd) + 2 * sizeof dir + 64;
    char *full = malloc(len);
    ck_assert_ptr_nonnull(full);
    snprintf(full, len, "%s >'%s/out' 2>'%s/err' </dev/null", cmd, dir, dir);
    int st = system(full);
    free(full);
    ck_assert_msg(st != -1, "could not run %s", cmd);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    char path[96];
    snprintf(path, sizeof path, "%s/out", dir);
    r->out = check_read_all(path);
    unlink(path);
    snprintf(path, sizeof path, "%s/err", dir);
    r->err = check_read_all(path);
    unlink(path);
    rmdir(dir);
    return r->status;
}

/* The one way the suites run the binary: "BIN args" through check_run_sh. */
static inline int check_run_bin(struct check_run *r, const char *args)
{
    const char *bin = check_bin();
    ck_assert_msg(access(bin, X_OK) == 0, "no rooftop binary at %s (set ROOFTOP_BIN)", bin);
    size_t len = strlen(bin) + strlen(args) + 8;
    char *cmd = malloc(len);
    ck_assert_ptr_nonnull(cmd);
    snprintf(cmd, len, "'%s' %s", bin, args);
    check_run_sh(r, cmd);
    free(cmd);
    return r->status;
}

static inline void check_run_free(struct check_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/* Check records every passing assertion (a write to its parent each); loops that make
 * hundreds of thousands of them assert through this, which calls Check on failure only. */
#define REQUIRE(cond, ...)                                                                    \
    do {                                                                                      \
        if (!(cond))                                                                          \
            ck_abort_msg(__VA_ARGS__);                                                        \
    } while (0)

/* Runs one suite; returns the process exit status. */
static inline int check_run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
