/* test_files.c - the file layer: the bounded reader, the atomic writer, the search path, and
 * what uses them (scenario, spec and points files, snapshot --out, probe --out, the
 * dashboard's prompts). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_util.h"
#include "cli.h"
#include "dash_harness.h"
#include "files.h"
#include "inputs.h"
#include "json_read.h"
#include "points.h"
#include "probe_child.h"
#include "scenario.h"
#include "scenario_file.h"
#include "spec.h"

static char dir[256];

static void setup(void)
{
    check_tmpdir(dir, sizeof dir, "files");
}

static void teardown(void)
{
    check_rmtree(dir);
}

/* DIR/NAME into buf. */
static void in_dir(char *buf, size_t n, const char *name)
{
    int w = snprintf(buf, n, "%s/%s", dir, name);
    ck_assert(w > 0 && (size_t)w < n);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    ck_assert(fputs(text, f) >= 0);
    ck_assert(fclose(f) == 0);
}

/* The whole file as a string (caller frees); NULL when it cannot be read. */
static char *slurp(const char *path)
{
    char *data;
    size_t len;
    char err[FILES_ERR_MAX];
    return files_read(path, 1 << 20, &data, &len, err, sizeof err) ? data : NULL;
}

/* Entries of dir other than . and .. */
static int dir_entries(const char *d)
{
    DIR *dp = opendir(d);
    ck_assert(dp != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(dp);
    return n;
}

/* ---- the reader -------------------------------------------------------------------------- */

START_TEST(read_regular_file_whole)
{
    char path[512];
    in_dir(path, sizeof path, "a.json");
    write_text(path, "{\"x\": 1}\n");
    char *data;
    size_t len;
    char err[FILES_ERR_MAX];
    ck_assert_msg(files_read(path, 100, &data, &len, err, sizeof err), "%s", err);
    ck_assert_uint_eq(len, 9);
    ck_assert_str_eq(data, "{\"x\": 1}\n");
    free(data);
    /* One byte over the bound is refused, naming the file. */
    ck_assert(!files_read(path, 8, &data, &len, err, sizeof err));
    ck_assert_ptr_null(data);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0 && strstr(err, "too large"), "%s", err);
}
END_TEST

START_TEST(read_refuses_what_is_not_a_file)
{
    char *data;
    size_t len;
    char err[FILES_ERR_MAX];
    ck_assert(!files_read(dir, 1000, &data, &len, err, sizeof err));
    ck_assert_msg(strstr(err, "is a directory, not a regular file"), "%s", err);
    ck_assert(!files_read("/dev/null", 1000, &data, &len, err, sizeof err));
    ck_assert_msg(strstr(err, "/dev/null: is a terminal or character device"), "%s", err);
    ck_assert(!files_read("", 1000, &data, &len, err, sizeof err));
    ck_assert_msg(strstr(err, "empty file name"), "%s", err);
    char path[512];
    in_dir(path, sizeof path, "missing.json");
    ck_assert(!files_read(path, 1000, &data, &len, err, sizeof err));
    ck_assert_msg(strstr(err, "cannot read: No such file or directory"), "%s", err);
}
END_TEST

/* A FIFO nobody writes to: the old readers blocked in open() for ever; then it was refused
 * at once, and so was every pipe. Now a pipe is read, and a FIFO without a writer waits
 * only as long as the bound (the suite's timeout fails this test if it hangs). */
START_TEST(read_fifo_without_writer_bounded)
{
    char fifo[512];
    in_dir(fifo, sizeof fifo, "pipe.json");
    ck_assert(mkfifo(fifo, 0600) == 0);
    files_set_pipe_wait(100);
    char *data;
    size_t len;
    char err[FILES_ERR_MAX];
    ck_assert(!files_read(fifo, 1000, &data, &len, err, sizeof err));
    ck_assert_msg(strstr(err, "pipe (FIFO) that gave nothing within 100 ms"), "%s", err);
    struct model_arch m;
    ck_assert(!spec_find_model(fifo, &m, err, sizeof err));
    ck_assert_msg(strstr(err, fifo) && strstr(err, "pipe (FIFO)"), "%s", err);
    struct scenario s;
    inputs_defaults(&s);
    ck_assert(!scenario_load(fifo, &s, err, sizeof err));
    ck_assert_msg(strstr(err, "pipe (FIFO)"), "%s", err);
    struct points_doc d;
    points_init(&d);
    ck_assert(!points_load_file(fifo, &d, err, sizeof err));
    ck_assert_msg(strstr(err, "pipe (FIFO)"), "%s", err);
    files_set_pipe_wait(-1);
}
END_TEST

/* A child that opens path for writing, writes n bytes of text (repeated), and exits. */
static pid_t write_fifo(const char *path, const char *text, size_t n)
{
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        FILE *f = fopen(path, "w");
        size_t tl = strlen(text);
        for (size_t k = 0; f != NULL && k < n; k += tl)
            fwrite(text, 1, n - k < tl ? n - k : tl, f);
        _exit(f != NULL && fclose(f) == 0 ? 0 : 1);
    }
    return pid;
}

static void reap(pid_t pid)
{
    int st;
    ck_assert(waitpid(pid, &st, 0) == pid);
}

/* A FIFO with a writer is read once to its end, with a file's size bound. */
START_TEST(read_fifo_with_writer)
{
    char fifo[512];
    in_dir(fifo, sizeof fifo, "m.json");
    ck_assert(mkfifo(fifo, 0600) == 0);
    static const char model[] =
        "{\"name\": \"piped\", \"layers\": 32, \"d_model\": 4096, \"heads\": 32,"
        " \"ffn\": 11008, \"vocab\": 32000, \"context\": 4096, \"mlp\": \"swiglu\","
        " \"norm\": \"rmsnorm\", \"tokens\": 2e12}";
    pid_t w = write_fifo(fifo, model, strlen(model));
    char *data;
    size_t len;
    char err[FILES_ERR_MAX];
    ck_assert_msg(files_read(fifo, 1000, &data, &len, err, sizeof err), "%s", err);
    ck_assert_uint_eq(len, strlen(model));
    ck_assert_str_eq(data, model);
    free(data);
    reap(w);
    /* Read once: a second read of the same pipe gets the same bytes, without a writer. */
    struct model_arch m;
    ck_assert_msg(spec_find_model(fifo, &m, err, sizeof err), "%s", err);
    ck_assert_str_eq(m.name, "piped");
    ck_assert_int_eq(m.layers, 32);
    /* Forgotten (as the dashboard does after each o), the FIFO is read again. */
    files_forget_pipes();
    w = write_fifo(fifo, "{\"name\": \"again\"}", 17);
    ck_assert_msg(files_read(fifo, 1000, &data, &len, err, sizeof err), "%s", err);
    ck_assert_str_eq(data, "{\"name\": \"again\"}");
    free(data);
    reap(w);
    files_forget_pipes();
    /* One byte over the bound: refused, as a file would be (the writer is not left blocked:
     * the reader closes its end). */
    w = write_fifo(fifo, "x", 1001);
    ck_assert(!files_read(fifo, 1000, &data, &len, err, sizeof err));
    ck_assert_ptr_null(data);
    ck_assert_msg(strstr(err, "too large (more than 1000 bytes)"), "%s", err);
    reap(w);
    files_forget_pipes();
    w = write_fifo(fifo, "x", 1000);
    ck_assert_msg(files_read(fifo, 1000, &data, &len, err, sizeof err), "%s", err);
    ck_assert_uint_eq(len, 1000);
    free(data);
    reap(w);
}
END_TEST
/* Opens of path while fn(arg) runs, counted with inotify. */
static int opens_during(const char *path, void (*fn)(const char *), const char *arg)
{
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    ck_assert(fd >= 0);
    /* Closes watched too: the kernel merges an event identical to the one queued before it,
     * so two opens in a row would count as one; open, close, open, close do not merge. */
    ck_assert(inotify_add_watch(fd, path, IN_OPEN | IN_CLOSE) >= 0);
    fn(arg);
    int opens = 0;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        for (char *p = buf; p < buf + n;) {
            struct inotify_event *ev = (struct inotify_event *)p;
            if (ev->mask & IN_OPEN)
                opens++;
            p += sizeof *ev + ev->len;
        }
    }
    close(fd);
    return opens;
}

static void parse_model_flag(const char *path)
{
    struct scenario s;
    inputs_defaults(&s);
    char *argv[] = {(char *)"report", (char *)"--model", (char *)path, NULL};
    char err[512];
    ck_assert_msg(cli_parse_scenario(&s, 3, argv, 1, err, sizeof err), "%s", err);
    /* The tokens it was trained on came with it. */
    ck_assert(s.tokens == 2e12);
    ck_assert_int_eq(s.model.layers, 32);
}

static void load_model_scenario(const char *path)
{
    char text[700];
    snprintf(text, sizeof text, "{\"model\": \"%s\"}", path);
    struct scenario s;
    inputs_defaults(&s);
    char err[512];
    ck_assert_msg(scenario_parse(text, strlen(text), "t.json", &s, err, sizeof err), "%s", err);
    ck_assert(s.tokens == 2e12);
}

/* The model file was opened twice (the model, then its "tokens"): --model on a pipe lost the
 * model's tokens, and a file could change between the two reads. */
START_TEST(model_file_read_once)
{
    char path[512];
    in_dir(path, sizeof path, "m.json");
    write_text(path, "{\"name\": \"m\", \"layers\": 32, \"d_model\": 4096, \"heads\": 32,"
                     " \"ffn\": 11008, \"vocab\": 32000, \"context\": 4096, \"mlp\": \"swiglu\","
                     " \"norm\": \"rmsnorm\", \"tokens\": 2e12}");
    ck_assert_int_eq(opens_during(path, parse_model_flag, path), 1);
    ck_assert_int_eq(opens_during(path, load_model_scenario, path), 1);
}
END_TEST

/* `cat config.json | rooftop report --model -` (or /dev/stdin) was refused ("is a pipe"):
 * now read once, the model's tokens with it. */
START_TEST(model_from_a_pipe)
{
    static const char *const forms[] = {"-", "/dev/stdin"};
    for (int i = 0; i < 2; i++) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd,
                 "{ cat '%s/models/llama2-7b.json' | '%s' report --model %s --format json; }",
                 getenv("ROOFTOP_SPECS"), check_bin(), forms[i]);
        struct check_run r;
        check_run_sh(&r, cmd);
        ck_assert_msg(r.status == 0, "--model %s: %d %s", forms[i], r.status, r.err);
        ck_assert_msg(strstr(r.out, "6738415616") != NULL, "not Llama 2 7B:\n%.600s", r.out);
        ck_assert_msg(strstr(r.out, "\"tokens\":\t2000000000000") != NULL,
                      "the model file's tokens were lost:\n%.600s", r.out);
        check_run_free(&r);
    }
    /* A Hugging Face config.json piped in: its model_type names it ("dev" of /dev/stdin
     * would not). */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "{ cat tests/data/hf/Qwen3-8B/config.json | '%s' report --model /dev/stdin "
             "--format json; }", check_bin());
    struct check_run h;
    check_run_sh(&h, cmd);
    ck_assert_msg(h.status == 0, "%s", h.err);
    ck_assert_msg(strstr(h.out, "8190735360") && strstr(h.out, "\"qwen3\""), "%.600s", h.out);
    check_run_free(&h);
    /* The size bound of a file (1 MiB for a spec), one line and exit 2 past it. */
    snprintf(cmd, sizeof cmd, "{ head -c 2000000 /dev/zero | '%s' report --model -; }",
             check_bin());
    struct check_run r;
    check_run_sh(&r, cmd);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "rooftop report: --model: standard input: too large (more than "
                            "1048576 bytes)\n");
    check_run_free(&r);
    /* Standard input that is no pipe nor file (here /dev/null): one line, no wait. */
    check_run_bin(&r, "report --model -");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--model: standard input: is a terminal or character device"),
                  "%s", r.err);
    check_run_free(&r);
}
END_TEST

/* `--scenario DIR` said "Input/output error". */
START_TEST(scenario_directory_says_directory)
{
    struct scenario s;
    inputs_defaults(&s);
    char err[FILES_ERR_MAX];
    ck_assert(!scenario_load(dir, &s, err, sizeof err));
    ck_assert_msg(strstr(err, "is a directory") && !strstr(err, "Input/output"), "%s", err);
}
END_TEST

/* ---- the writer -------------------------------------------------------------------------- */

START_TEST(write_replaces_keeping_permissions)
{
    char path[512];
    in_dir(path, sizeof path, "s.json");
    write_text(path, "old");
    ck_assert(chmod(path, 0640) == 0);
    char err[FILES_ERR_MAX];
    ck_assert_msg(files_write(path, "new text", 8, err, sizeof err), "%s", err);
    char *got = slurp(path);
    ck_assert_str_eq(got, "new text");
    free(got);
    struct stat st;
    ck_assert(stat(path, &st) == 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
    /* No temporary file left beside it. */
    ck_assert_int_eq(dir_entries(dir), 1);
    /* A new file: 0666 less the umask, as any program's. */
    mode_t old = umask(027);
    in_dir(path, sizeof path, "new.json");
    bool ok = files_write(path, "x", 1, err, sizeof err);
    umask(old);
    ck_assert_msg(ok, "%s", err);
    ck_assert(stat(path, &st) == 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
}
END_TEST

START_TEST(write_goes_through_symlinks)
{
    char sub[512], real[512], link[512], dangling[512], made[512];
    in_dir(sub, sizeof sub, "data");
    ck_assert(mkdir(sub, 0755) == 0);
    in_dir(real, sizeof real, "data/real.json");
    write_text(real, "old");
    in_dir(link, sizeof link, "link.json");
    ck_assert(symlink("data/real.json", link) == 0); /* relative to the link's directory */
    char err[FILES_ERR_MAX];
    ck_assert_msg(files_write(link, "new", 3, err, sizeof err), "%s", err);
    struct stat st;
    ck_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    char *got = slurp(real);
    ck_assert_str_eq(got, "new");
    free(got);
    /* A link to a file not made yet makes it. */
    in_dir(dangling, sizeof dangling, "later.json");
    ck_assert(symlink("data/made.json", dangling) == 0);
    ck_assert_msg(files_write(dangling, "made", 4, err, sizeof err), "%s", err);
    in_dir(made, sizeof made, "data/made.json");
    got = slurp(made);
    ck_assert_str_eq(got, "made");
    free(got);
    ck_assert(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode));
}
END_TEST

/* The refusals of a child process run as the user nobody when we are root (root may write
 * anything, so the refusal is that of an ordinary user), as ourselves otherwise: exit 0 when
 * the writer refused the read-only file, left it whole, then replaced it under --force. */
static int read_only_child(const char *path)
{
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        return 10;
    char err[FILES_ERR_MAX];
    if (files_write(path, "new", 3, err, sizeof err))
        return 11;
    if (strstr(err, "read-only to you") == NULL || strstr(err, "--force") == NULL) {
        fprintf(stderr, "read_only_child: %s\n", err);
        return 12;
    }
    char *got = slurp(path);
    bool whole = got != NULL && strcmp(got, "old") == 0;
    free(got);
    if (!whole)
        return 13;
    files_set_force(true);
    bool forced = files_write(path, "new", 3, err, sizeof err);
    files_set_force(false);
    if (!forced) {
        fprintf(stderr, "read_only_child: forced: %s\n", err);
        return 14;
    }
    got = slurp(path);
    bool replaced = got != NULL && strcmp(got, "new") == 0;
    free(got);
    return replaced ? 0 : 15;
}

/* A file made read-only (chmod 444) is not replaced without --force, even in a directory
 * where the rename would be allowed (world-writable, no sticky bit: the audit's case of a
 * root-owned 0444 file that became the user's). */
START_TEST(write_refuses_read_only)
{
    ck_assert(chmod(dir, 0777) == 0);
    char path[512];
    in_dir(path, sizeof path, "mine.json");
    write_text(path, "old");
    ck_assert(chmod(path, 0444) == 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0)
        _exit(read_only_child(path));
    int st;
    ck_assert(waitpid(pid, &st, 0) == pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child ended with %d",
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}
END_TEST

/* A file with another hard link is not split silently: refused, both names kept; forced,
 * this name gets the new content and the other keeps the old. */
START_TEST(write_keeps_hard_links)
{
    char path[512], other[512];
    in_dir(path, sizeof path, "linked.json");
    in_dir(other, sizeof other, "other-name.json");
    write_text(path, "old");
    ck_assert(link(path, other) == 0);
    char err[FILES_ERR_MAX];
    ck_assert(!files_write(path, "new", 3, err, sizeof err));
    ck_assert_msg(strstr(err, "has 2 hard links") && strstr(err, "--force"), "%s", err);
    char *got = slurp(other);
    ck_assert_str_eq(got, "old");
    free(got);
    ck_assert_int_eq(dir_entries(dir), 2);
    files_set_force(true);
    bool ok = files_write(path, "new", 3, err, sizeof err);
    files_set_force(false);
    ck_assert_msg(ok, "%s", err);
    got = slurp(path);
    ck_assert_str_eq(got, "new");
    free(got);
    got = slurp(other);
    ck_assert_str_eq(got, "old");
    free(got);
    /* The CLI says so too, and takes --force. */
    struct check_run r;
    char cmd[2048];
    ck_assert(unlink(other) == 0);
    ck_assert(link(path, other) == 0);
    snprintf(cmd, sizeof cmd, "%s import tests/data/hf/Qwen3-8B/config.json --out '%s'",
             check_bin(), path);
    check_run_sh(&r, cmd);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "hard links"), "%s", r.err);
    check_run_free(&r);
    snprintf(cmd, sizeof cmd, "%s import tests/data/hf/Qwen3-8B/config.json --out '%s' --force",
             check_bin(), path);
    check_run_sh(&r, cmd);
    ck_assert_msg(r.status == 0, "%s", r.err);
    check_run_free(&r);
    got = slurp(other);
    ck_assert_str_eq(got, "new");
    free(got);
}
END_TEST

/* A save removes the temporary files that killed writers left (".NAME.PID.N.X.tmp" of a PID
 * that no longer runs), and nothing else: not a live writer's, not other names. */
START_TEST(write_cleans_stale_temporaries)
{
    pid_t dead = fork();
    ck_assert(dead >= 0);
    if (dead == 0)
        _exit(0);
    ck_assert(waitpid(dead, NULL, 0) == dead);
    ck_assert(kill(dead, 0) != 0 && errno == ESRCH);
    /* Names around the dead writer's pid that are not the writer's temporaries. */
    static const char *const keep[][2] = {{"keep.tmp", NULL},
                                          {"plain.json", NULL},
                                          {".x.", ".q.1a.tmp"},
                                          {".t.json.", ".0.1a.tmp.bak"},
                                          {".", ".0.1a.tmp"}};
    char name[256], path[512];
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        if (keep[i][1] != NULL)
            snprintf(name, sizeof name, "%s%ld%s", keep[i][0], (long)dead, keep[i][1]);
        else
            snprintf(name, sizeof name, "%s", keep[i][0]);
        in_dir(path, sizeof path, name);
        write_text(path, "x");
    }
    /* A live writer's (the test runner's): kept. */
    snprintf(name, sizeof name, ".t.json.%ld.3.ff.tmp", (long)getppid());
    in_dir(path, sizeof path, name);
    write_text(path, "x");
    /* Two dead writers' (of this target and of another one): removed. */
    snprintf(name, sizeof name, ".t.json.%ld.0.1a2b3c.tmp", (long)dead);
    in_dir(path, sizeof path, name);
    write_text(path, "half");
    char stale2[512];
    snprintf(name, sizeof name, ".other.json.%ld.7.0.tmp", (long)dead);
    in_dir(stale2, sizeof stale2, name);
    write_text(stale2, "half");
    ck_assert_int_eq(dir_entries(dir), 8);
    char target[512], err[FILES_ERR_MAX];
    in_dir(target, sizeof target, "t.json");
    ck_assert_msg(files_write(target, "new", 3, err, sizeof err), "%s", err);
    ck_assert_msg(access(path, F_OK) != 0, "%s is still there", path);
    ck_assert_msg(access(stale2, F_OK) != 0, "%s is still there", stale2);
    ck_assert_int_eq(dir_entries(dir), 7); /* the 6 kept and t.json */
}
END_TEST

START_TEST(write_refuses_directory_and_device)
{
    char err[FILES_ERR_MAX];
    ck_assert(!files_write(dir, "x", 1, err, sizeof err));
    ck_assert_msg(strstr(err, "is a directory"), "%s", err);
    ck_assert(!files_write("/dev/null", "x", 1, err, sizeof err));
    ck_assert_msg(strstr(err, "character device"), "%s", err);
    struct stat st;
    ck_assert(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    char path[512];
    in_dir(path, sizeof path, "no/such/dir.json");
    ck_assert(!files_check_writable(path, err, sizeof err));
    ck_assert_msg(strstr(err, "No such file or directory"), "%s", err);
    in_dir(path, sizeof path, "ok.json");
    ck_assert_msg(files_check_writable(path, err, sizeof err), "%s", err);
    ck_assert_int_eq(dir_entries(dir), 0); /* the check leaves nothing behind */
}
END_TEST

/* A full disk, as a file-size limit: the write fails, the old file is whole, nothing is left
 * beside it. Runs in a child, whose limit then goes with it. */
START_TEST(write_on_full_disk_keeps_old_file)
{
    char path[512];
    in_dir(path, sizeof path, "keep.json");
    write_text(path, "the old content");
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {4096, 4096};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(3);
        static char big[65536];
        memset(big, 'x', sizeof big);
        char err[FILES_ERR_MAX];
        if (files_write(path, big, sizeof big, err, sizeof err))
            _exit(1);
        _exit(strstr(err, "File too large") && strstr(err, path) ? 0 : 2);
    }
    int st;
    ck_assert(waitpid(pid, &st, 0) == pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
    char *got = slurp(path);
    ck_assert_str_eq(got, "the old content");
    free(got);
    ck_assert_int_eq(dir_entries(dir), 1);
}
END_TEST

/* `snapshot --out` opened the target with "w": a full disk left it truncated. */
START_TEST(snapshot_out_on_full_disk_keeps_old_file)
{
    char path[512];
    in_dir(path, sizeof path, "screen.txt");
    write_text(path, "the old screenshot");
    char cmd[2048];
    /* ulimit -f counts 512-byte blocks in POSIX sh: 2 blocks, far under a 120x40 frame. An
     * ignored SIGXFSZ stays ignored across exec, so the write fails with EFBIG as on a full
     * disk (ENOSPC) rather than killing the process. */
    snprintf(cmd, sizeof cmd, "trap '' XFSZ; ulimit -f 2; '%s' snapshot --size 120x40 --out '%s'",
             check_bin(), path);
    struct check_run run, *r = &run;
    check_run_sh(r, cmd);
    ck_assert_msg(r->status == 1, "status %d: %s", r->status, r->err);
    ck_assert_msg(strstr(r->err, "File too large"), "%s", r->err);
    char *got = slurp(path);
    ck_assert_str_eq(got, "the old screenshot");
    free(got);
    ck_assert_int_eq(dir_entries(dir), 1);
    check_run_free(r);
    /* And without the limit it writes the frame there. */
    snprintf(cmd, sizeof cmd, "'%s' snapshot --size 80x24 --out '%s'", check_bin(), path);
    check_run_sh(r, cmd);
    ck_assert_msg(r->status == 0, "status %d: %s", r->status, r->err);
    got = slurp(path);
    ck_assert(got != NULL && strstr(got, "Memory per GPU"));
    free(got);
    check_run_free(r);
}
END_TEST

/* Makes DIR/aaa.../bbb.../ccc...json, total exactly want bytes; returns it (caller frees). */
static char *long_path(size_t want)
{
    char *p = malloc(want + 1);
    ck_assert(p != NULL);
    int w = snprintf(p, want + 1, "%s/", dir);
    ck_assert(w > 0);
    size_t at = (size_t)w;
    /* Directories of 200 bytes (a name is at most 255) until the rest fits in one name. */
    while (want - at > 200) {
        memset(p + at, 'd', 200);
        p[at + 200] = '\0';
        ck_assert_msg(mkdir(p, 0755) == 0, "%s", strerror(errno));
        p[at + 200] = '/';
        at += 201;
    }
    size_t rest = want - at;
    ck_assert(rest > 5);
    memset(p + at, 'f', rest - 5);
    memcpy(p + at + rest - 5, ".json", 6);
    ck_assert_uint_eq(strlen(p), want);
    return p;
}

/* A 525-byte path saved to another file (the first 511 bytes). */
START_TEST(long_path_saves_where_named)
{
    char *p = long_path(525);
    struct scenario s;
    inputs_defaults(&s);
    char err[FILES_ERR_MAX];
    ck_assert_msg(scenario_save(p, &s, err, sizeof err), "%s", err);
    struct scenario back;
    inputs_defaults(&back);
    snprintf(back.name, sizeof back.name, "other");
    ck_assert_msg(scenario_load(p, &back, err, sizeof err), "%s", err);
    ck_assert_str_eq(back.name, s.name);

    /* The dashboard's save prompt holds 511 characters: typing more is refused, and Enter
     * writes nothing rather than saving to the cut name. */
    char *cut = strndup(p, DASH_INPUT_MAX - 1);
    ck_assert(cut != NULL);
    struct harness h;
    harness_start(&h, 120, 40, false, true);
    struct event ev = {.type = EV_KEY, .key = 's'};
    dash_handle(&h.d, &ev);
    ck_assert_int_eq(h.d.mode, DM_SAVE);
    for (size_t i = strlen(h.d.input); i > 0; i--) {
        ev.key = UK_BS;
        dash_handle(&h.d, &ev);
    }
    for (size_t i = 0; p[i]; i++) {
        ev.key = (unsigned char)p[i];
        dash_handle(&h.d, &ev);
    }
    ev.key = UK_ENTER;
    dash_handle(&h.d, &ev);
    struct stat st;
    ck_assert_msg(stat(cut, &st) != 0, "saved to the cut name %s", cut);
    ck_assert(h.d.status_error);
    ck_assert_msg(strstr(h.d.status, "longer than"), "%s", h.d.status);
    harness_stop(&h);
    free(cut);
    free(p);
}
END_TEST

/* `o` on a FIFO froze the dashboard (fopen waited for a writer): it waits 2 s at most. */
START_TEST(dashboard_open_refuses_fifo)
{
    char fifo[512];
    in_dir(fifo, sizeof fifo, "demo.json");
    ck_assert(mkfifo(fifo, 0600) == 0);
    struct harness h;
    harness_start(&h, 120, 40, false, true);
    struct event ev = {.type = EV_KEY, .key = 'o'};
    dash_handle(&h.d, &ev);
    ck_assert_int_eq(h.d.mode, DM_OPEN);
    for (size_t i = 0; fifo[i]; i++) {
        ev.key = (unsigned char)fifo[i];
        dash_handle(&h.d, &ev);
    }
    ev.key = UK_ENTER;
    dash_handle(&h.d, &ev);
    ck_assert(h.d.status_error);
    ck_assert_msg(strstr(h.d.status, "pipe (FIFO) that gave nothing within 2000 ms"), "%s",
                  h.d.status);
    /* With a writer, the FIFO is read as a file would be. */
    static const char scenario[] = "{\"model\": \"llama2-7b\", \"gpus\": 64}";
    pid_t w = write_fifo(fifo, scenario, strlen(scenario));
    ev.key = 'o';
    dash_handle(&h.d, &ev);
    for (size_t i = 0; fifo[i]; i++) {
        ev.key = (unsigned char)fifo[i];
        dash_handle(&h.d, &ev);
    }
    ev.key = UK_ENTER;
    dash_handle(&h.d, &ev);
    ck_assert_msg(!h.d.status_error, "%s", h.d.status);
    ck_assert_int_eq(h.d.sc.gpus, 64);
    reap(w);
    harness_stop(&h);
}
END_TEST

/* ---- the search path --------------------------------------------------------------------- */

/* A user's own h100-sxm.json was ignored by the default scenario (built-in figures). */
START_TEST(user_preset_overrides_default_gpu)
{
    char gdir[512], path[512];
    in_dir(gdir, sizeof gdir, "rooftop");
    ck_assert(mkdir(gdir, 0755) == 0);
    in_dir(gdir, sizeof gdir, "rooftop/gpus");
    ck_assert(mkdir(gdir, 0755) == 0);
    in_dir(path, sizeof path, "rooftop/gpus/h100-sxm.json");
    write_text(path, "{\"name\": \"my H100\", \"memory_bytes\": 80e9, \"bandwidth\": 3e12,"
                     " \"peak_flops\": {\"bf16\": 900e12}}");
    char *old = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME")) : NULL;
    ck_assert(setenv("XDG_CONFIG_HOME", dir, 1) == 0);
    struct scenario s;
    inputs_defaults(&s);
    struct gpu_spec g;
    char err[FILES_ERR_MAX];
    bool found = spec_find_gpu("h100-sxm", &g, err, sizeof err);
    if (old) {
        setenv("XDG_CONFIG_HOME", old, 1);
        free(old);
    } else {
        unsetenv("XDG_CONFIG_HOME");
    }
    ck_assert_msg(found, "%s", err);
    ck_assert(g.bandwidth == 3e12);
    ck_assert_str_eq(s.gpu.name, "my H100");
    ck_assert(s.gpu.bandwidth == 3e12);
    ck_assert(s.gpu.peak_flops[PEAK_BF16] == 900e12);
    /* Without it, the shipped file's figures (the whitepaper's 3.35 TB/s). */
    inputs_defaults(&s);
    ck_assert(s.gpu.bandwidth == 3.35e12);
}
END_TEST

START_TEST(search_path_order_and_resolve)
{
    char *old = getenv("ROOFTOP_SPECS") ? strdup(getenv("ROOFTOP_SPECS")) : NULL;
    ck_assert(setenv("ROOFTOP_SPECS", "/opt/x", 1) == 0);
    ck_assert(setenv("XDG_CONFIG_HOME", "/cfg", 1) == 0);
    struct files_dirs d;
    ck_assert(files_dirs("scenarios", &d));
    ck_assert_uint_eq(d.n, 5);
    ck_assert_str_eq(d.dir[0], "/cfg/rooftop/scenarios");
    ck_assert_str_eq(d.dir[1], "/opt/x/scenarios");
    ck_assert_str_eq(d.dir[2], "specs/scenarios");
    /* Beside the executable: this test's own directory. */
    char exe[4096], want[4200];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    ck_assert(n > 0);
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';
    snprintf(want, sizeof want, "%s/specs/scenarios", exe);
    ck_assert_str_eq(d.dir[3], want);
    ck_assert_str_eq(d.dir[4], ROOFTOP_DATADIR "/specs/scenarios");
    files_dirs_free(&d);
    unsetenv("XDG_CONFIG_HOME");
    if (old) {
        setenv("ROOFTOP_SPECS", old, 1);
        free(old);
    } else {
        unsetenv("ROOFTOP_SPECS");
    }
    ck_assert(files_is_path("a/b") && files_is_path("x.json") && !files_is_path("lecture"));
    char *p = files_resolve("scenarios", "./here.json");
    ck_assert_str_eq(p, "./here.json");
    free(p);
    p = files_resolve("scenarios", "no-such-scenario");
    ck_assert_str_eq(p, "no-such-scenario"); /* the reader then names what was typed */
    free(p);
    /* Points by name, as the other kinds: the shipped CPU run in specs/points. */
    struct points_doc pd;
    points_init(&pd);
    char err[POINTS_ERR_MAX];
    ck_assert_msg(points_load_file("cpu-amd-epyc-2vcpu", &pd, err, sizeof err), "%s", err);
    ck_assert_str_eq(pd.device.kind, "cpu");
    ck_assert_uint_ge(pd.n, 10);
    points_free(&pd);
}
END_TEST

/* Runs the binary in an empty directory with env (a shell assignment prefix). */
static void run_elsewhere(struct check_run *r, const char *env, const char *args)
{
    char cmd[4096];
    /* check_bin() may be relative to the test's directory: make it absolute first. */
    char *bin = realpath(check_bin(), NULL);
    ck_assert(bin != NULL);
    snprintf(cmd, sizeof cmd, "cd '%s' && env -u XDG_CONFIG_HOME %s HOME='%s' '%s' %s", dir, env,
             dir, bin, args);
    free(bin);
    check_run_sh(r, cmd);
}

/* `cd /tmp && rooftop list gpus` printed an empty list with exit 0. */
START_TEST(list_without_data_is_an_error)
{
    struct check_run run, *r = &run;
    run_elsewhere(r, "-u ROOFTOP_SPECS", "list gpus");
    char installed[512];
    snprintf(installed, sizeof installed, "%s/specs/gpus/h100-sxm.json", ROOFTOP_DATADIR);
    if (access(installed, R_OK) == 0) {
        /* Installed on this machine: the installed presets are found from anywhere. */
        ck_assert_msg(r->status == 0 && strstr(r->out, "h100-sxm"), "%d: %s", r->status, r->err);
    } else {
        ck_assert_msg(r->status == 1, "status %d: %s", r->status, r->out);
        ck_assert_msg(strstr(r->err, "no GPU presets found; looked in") &&
                          strstr(r->err, ROOFTOP_DATADIR "/specs/gpus") &&
                          strstr(r->err, "/.config/rooftop/gpus"),
                      "%s", r->err);
        ck_assert_str_eq(r->out, "");
    }
    check_run_free(r);
}
END_TEST

/* `cd /tmp && ~/src/rooftop/rooftop list gpus` said "no GPU presets found": a built,
 * uninstalled rooftop finds the specs beside it (here a copy of the binary beside a specs
 * directory of one made-up GPU, run from another directory with no other specs found). */
START_TEST(specs_beside_the_executable)
{
    char bin[512], cmd[4096];
    in_dir(bin, sizeof bin, "tree");
    ck_assert(mkdir(bin, 0755) == 0);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/specs/gpus' && cp '%s' '%s/rooftop' && mkdir '%s/run'",
             bin, check_bin(), bin, dir);
    ck_assert_int_eq(system(cmd), 0);
    char gpu[600];
    snprintf(gpu, sizeof gpu, "%s/specs/gpus/testgpu-beside.json", bin);
    write_text(gpu, "{\"name\": \"Beside GPU\", \"memory_bytes\": 80e9, \"bandwidth\": 3e12,"
                    " \"peak_flops\": {\"bf16\": 900e12}}");
    snprintf(cmd, sizeof cmd,
             "cd '%s/run' && env -u XDG_CONFIG_HOME -u ROOFTOP_SPECS HOME='%s' '%s/rooftop' list gpus",
             dir, dir, bin);
    struct check_run r;
    check_run_sh(&r, cmd);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "testgpu-beside") && strstr(r.out, "Beside GPU"), "%s", r.out);
    check_run_free(&r);
    /* And by name, as any preset. */
    snprintf(cmd, sizeof cmd,
             "cd '%s/run' && env -u XDG_CONFIG_HOME -u ROOFTOP_SPECS HOME='%s' '%s/rooftop' "
             "intensity matmul --gpu testgpu-beside --format json",
             dir, dir, bin);
    check_run_sh(&r, cmd);
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"gpu\":\t\"testgpu-beside\""), "%d %s %s",
                  r.status, r.err, r.out);
    check_run_free(&r);
}
END_TEST

/* After `make install` (here: the specs found through ROOFTOP_SPECS, outside the tree), the
 * lecture demo is found by name, and by the source tree's path as the README writes it. */
START_TEST(lecture_demo_found_by_name)
{
    const char *specs = getenv("ROOFTOP_SPECS");
    ck_assert_msg(specs && specs[0] == '/', "set ROOFTOP_SPECS to the absolute specs directory");
    char env[1024];
    snprintf(env, sizeof env, "ROOFTOP_SPECS='%s'", specs);
    struct check_run run, *r = &run;
    static const char *const forms[] = {"lecture", "specs/scenarios/lecture.json"};
    for (int i = 0; i < 2; i++) {
        char args[256];
        snprintf(args, sizeof args, "snapshot --size 100x30 --scenario %s", forms[i]);
        run_elsewhere(r, env, args);
        ck_assert_msg(r->status == 0, "%s: status %d: %s", forms[i], r->status, r->err);
        ck_assert_msg(strstr(r->out, "Step 1/13 The 144-day question"), "%s: not the demo:\n%s",
                      forms[i], r->out);
        check_run_free(r);
    }
}
END_TEST

/* `report --scenario` on the demo said "steps: not a string...". */
START_TEST(report_on_demo_says_how_to_run_it)
{
    struct check_run run, *r = &run;
    check_run_bin(r, "report --scenario lecture");
    ck_assert_int_eq(r->status, 2);
    ck_assert_msg(strstr(r->err, "a lecture demo for the dashboard") &&
                      strstr(r->err, "run `rooftop --scenario ") && !strstr(r->err, "steps:"),
                  "%s", r->err);
    check_run_free(r);
}
END_TEST

/* ---- small bad-file items ---------------------------------------------------------------- */

/* "\u0000" in a name cut it there without a word. */
START_TEST(nul_in_scenario_name_refused)
{
    struct scenario s;
    inputs_defaults(&s);
    char err[FILES_ERR_MAX];
    static const char bad[] = "{\"name\": \"abc\\u0000def\"}";
    ck_assert(!scenario_parse(bad, strlen(bad), "t.json", &s, err, sizeof err));
    ck_assert_msg(strstr(err, "t.json: a string holds \\u0000"), "%s", err);
    /* An escaped backslash before "u0000" is six ordinary characters. */
    static const char ok[] = "{\"name\": \"abc\\\\u0000def\"}";
    ck_assert_msg(scenario_parse(ok, strlen(ok), "t.json", &s, err, sizeof err), "%s", err);
    ck_assert_str_eq(s.name, "abc\\u0000def");
    ck_assert_uint_eq(json_read_nul_at(bad, strlen(bad)), 13);
    /* The other readers refuse it too: a GPU's name, a points file's device name. */
    static const char gpu[] = "{\"name\": \"H\\u0000X\", \"memory_bytes\": 80e9,"
                              " \"bandwidth\": 3e12, \"peak_flops\": {\"bf16\": 1e15}}";
    struct gpu_spec g;
    ck_assert(!spec_parse_gpu(gpu, strlen(gpu), "g.json", &g, err, sizeof err));
    ck_assert_msg(strstr(err, "g.json: a string holds \\u0000"), "%s", err);
    static const char pts[] = "{\"device\": {\"kind\": \"cpu\", \"name\": \"a\\u0000b\"},"
                              " \"time\": \"\", \"points\": []}";
    struct points_doc d;
    points_init(&d);
    ck_assert(!points_parse(pts, strlen(pts), "p.json", &d, err, sizeof err));
    ck_assert_msg(strstr(err, "p.json: a string holds \\u0000"), "%s", err);
}
END_TEST

/* Points files took the first of two equal keys; spec files refuse them. */
START_TEST(points_refuse_duplicate_keys)
{
    static const char dup[] =
        "{\"device\": {\"kind\": \"cpu\", \"name\": \"x\"}, \"time\": \"\", \"points\": ["
        "{\"name\": \"bw.copy\", \"dtype\": \"fp32\", \"flops\": 0, \"bytes\": 1e9,"
        " \"seconds\": 0.1, \"seconds\": 0.2, \"valid\": true}]}";
    struct points_doc d;
    points_init(&d);
    char err[POINTS_ERR_MAX];
    ck_assert(!points_parse(dup, strlen(dup), "p.json", &d, err, sizeof err));
    ck_assert_msg(strstr(err, "p.json: \"seconds\": given twice"), "%s", err);
    ck_assert_uint_eq(d.n, 0);
}
END_TEST

/* ---- the probe --------------------------------------------------------------------------- */

/* `probe --out` wrote nothing when the time limit stopped the run. */
START_TEST(probe_out_keeps_points_of_a_stopped_run)
{
    char path[512];
    in_dir(path, sizeof path, "points.json");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "timeout 60 '%s' probe --backend cpu --quick --threads 1 "
                              "--time-limit 1.5 --out '%s'", check_bin(), path);
    struct check_run run, *r = &run;
    check_run_sh(r, cmd);
    ck_assert_msg(r->status == 1, "status %d: %s", r->status, r->err);
    ck_assert_msg(strstr(r->err, "marked incomplete"), "%s", r->err);
    /* As many points in the file as were streamed on stdout. */
    size_t streamed = 0;
    for (const char *c = r->out; (c = strstr(c, "{\"name\": ")) != NULL; c++)
        streamed++;
    struct points_doc d;
    points_init(&d);
    char err[POINTS_ERR_MAX];
    ck_assert_msg(points_load_file(path, &d, err, sizeof err), "%s", err);
    ck_assert_uint_ge(d.n, 1);
    ck_assert_uint_eq(d.n, streamed);
    ck_assert_msg(strstr(d.incomplete, "time limit of 1.5 s reached"), "%s", d.incomplete);
    /* Whoever uses the file is told: the dashboard's legend, report's note. */
    struct harness h;
    harness_start(&h, 120, 40, false, true);
    dash_set_points(&h.d, &d, path);
    ck_assert_msg(strstr(h.d.points_from, "(incomplete run)"), "%s", h.d.points_from);
    harness_stop(&h);
    check_run_free(r);
    char args[1024];
    snprintf(args, sizeof args, "report --points '%s' --points-any-device", path);
    check_run_bin(r, args);
    ck_assert_msg(r->status == 0, "%s", r->err);
    ck_assert_msg(strstr(r->err, "holds what was measured before the run stopped (time limit"),
                  "%s", r->err);
    points_free(&d);
    check_run_free(r);
}
END_TEST

/* --out and --save-spec were checked after the run: minutes of measuring, then nothing. */
START_TEST(probe_checks_paths_before_running)
{
    char cmd[2048];
    struct check_run run, *r = &run;
    static const char *const flags[] = {"--out", "--save-spec"};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "timeout 20 '%s' probe --backend cpu --time-limit 600 %s '%s/no/x.json'",
                 check_bin(), flags[i], dir);
        check_run_sh(r, cmd);
        ck_assert_msg(r->status == 1, "%s: status %d", flags[i], r->status);
        ck_assert_msg(strstr(r->err, flags[i]) && strstr(r->err, "No such file or directory"),
                      "%s", r->err);
        ck_assert_str_eq(r->out, ""); /* nothing measured */
        check_run_free(r);
    }
}
END_TEST

/* The probe child outlived a SIGKILLed parent. */
START_TEST(probe_child_dies_with_parent)
{
    char pidfile[512];
    in_dir(pidfile, sizeof pidfile, "child.pid");
    char script[2048];
    snprintf(script, sizeof script, "echo $$ > '%s.tmp' && mv '%s.tmp' '%s' && exec sleep 30",
             pidfile, pidfile, pidfile);
    pid_t mid = fork();
    ck_assert(mid >= 0);
    if (mid == 0) {
        char *argv[] = {(char *)"/bin/sh", (char *)"-c", script, NULL};
        char err[256];
        struct probe_child *c = probe_child_start(argv, 0, err, sizeof err);
        if (c == NULL)
            _exit(2);
        for (;;)
            pause();
    }
    /* Wait for the grandchild to say who it is, then kill the middle process outright. */
    pid_t child = 0;
    for (int i = 0; i < 500 && child == 0; i++) {
        FILE *f = fopen(pidfile, "r");
        if (f) {
            long v;
            if (fscanf(f, "%ld", &v) == 1)
                child = (pid_t)v;
            fclose(f);
        }
        if (child == 0)
            usleep(10000);
    }
    ck_assert_msg(child > 0, "the probe child never started");
    ck_assert(kill(mid, SIGKILL) == 0);
    ck_assert(waitpid(mid, NULL, 0) == mid);
    /* Gone, or a zombie waiting for whoever adopted it: either way no longer running. */
    bool running = true;
    for (int i = 0; i < 200 && running; i++) {
        char stat_path[64], buf[512] = "";
        snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", (long)child);
        FILE *f = fopen(stat_path, "r");
        if (!f) {
            running = false;
            break;
        }
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        const char *close_paren = strrchr(buf, ')');
        running = !(close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
        if (running)
            usleep(10000);
    }
    if (running)
        kill(child, SIGKILL);
    ck_assert_msg(!running, "the probe child %ld still runs after its parent died", (long)child);
}
END_TEST

/* A test case with the temporary-directory fixture and a timeout (seconds). */
static TCase *files_case(Suite *s, const char *name, double timeout)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, timeout);
    suite_add_tcase(s, tc);
    return tc;
}

static Suite *files_suite(void)
{
    Suite *s = suite_create("files");
    TCase *tc = files_case(s, "reader", 10);
    tcase_add_test(tc, read_regular_file_whole);
    tcase_add_test(tc, read_refuses_what_is_not_a_file);
    tcase_add_test(tc, read_fifo_without_writer_bounded);
    tcase_add_test(tc, read_fifo_with_writer);
    tcase_add_test(tc, scenario_directory_says_directory);
    tcase_add_test(tc, model_file_read_once);
    tcase_add_test(tc, model_from_a_pipe);

    tc = files_case(s, "writer", 30);
    tcase_add_test(tc, write_replaces_keeping_permissions);
    tcase_add_test(tc, write_goes_through_symlinks);
    tcase_add_test(tc, write_refuses_directory_and_device);
    tcase_add_test(tc, write_refuses_read_only);
    tcase_add_test(tc, write_keeps_hard_links);
    tcase_add_test(tc, write_cleans_stale_temporaries);
    tcase_add_test(tc, write_on_full_disk_keeps_old_file);
    tcase_add_test(tc, snapshot_out_on_full_disk_keeps_old_file);
    tcase_add_test(tc, long_path_saves_where_named);
    tcase_add_test(tc, dashboard_open_refuses_fifo);

    tc = files_case(s, "search", 30);
    tcase_add_test(tc, user_preset_overrides_default_gpu);
    tcase_add_test(tc, search_path_order_and_resolve);
    tcase_add_test(tc, list_without_data_is_an_error);
    tcase_add_test(tc, specs_beside_the_executable);
    tcase_add_test(tc, lecture_demo_found_by_name);
    tcase_add_test(tc, report_on_demo_says_how_to_run_it);

    tc = files_case(s, "bad files", 10);
    tcase_add_test(tc, nul_in_scenario_name_refused);
    tcase_add_test(tc, points_refuse_duplicate_keys);

    tc = files_case(s, "probe", 90);
    tcase_add_test(tc, probe_out_keeps_points_of_a_stopped_run);
    tcase_add_test(tc, probe_checks_paths_before_running);
    tcase_add_test(tc, probe_child_dies_with_parent);
    return s;
}

int main(void)
{
    return check_run_suite(files_suite());
}
