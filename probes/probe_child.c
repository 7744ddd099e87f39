/* probe_child.c - runs a probe as a child process and reads its JSON lines without blocking. */
#include "probe_child.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

/* A streamed line longer than this is not ours: it is dropped and counted as bad. */
#define LINE_MAX_BYTES 65536
/* After SIGTERM the child gets this long to exit before SIGKILL. */
#define KILL_GRACE_S 1.0

struct probe_child {
    pid_t pid;
    int out_fd, err_fd;
    char *buf;              /* stdout bytes not yet returned as lines */
    size_t len, cap;
    bool dropping;          /* inside an over-long line: discard to its newline */
    char errline[256];      /* stderr: the line being read */
    size_t errlen;
    char last_stderr[256];  /* the last complete non-empty stderr line */
    char last_error[POINTS_TEXT_MAX]; /* the last {"error": ...} line */
    double t_start, limit_s;
    double term_at;         /* when SIGTERM was sent; 0 never */
    bool killed;            /* SIGKILL sent */
    bool timed_out;
    bool reaped;
    int status;
    size_t bad_lines;
};

bool probe_self_path(char *buf, size_t n)
{
    if (n < 2)
        return false;
    ssize_t r = readlink("/proc/self/exe", buf, n - 1);
    if (r <= 0 || (size_t)r >= n - 1)
        return false;
    buf[r] = '\0';
    return true;
}

static void set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

struct probe_child *probe_child_start(char *const argv[], double time_limit_s, char *err,
                                      size_t n)
{
    if (!argv || !argv[0]) {
        snprintf(err, n, "no program to start");
        return NULL;
    }
    struct probe_child *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    c->out_fd = c->err_fd = -1;
    int out[2] = {-1, -1}, er[2] = {-1, -1};
    if (pipe(out) != 0 || pipe(er) != 0) {
        snprintf(err, n, "cannot create a pipe: %s", strerror(errno));
        goto fail;
    }
    for (int i = 0; i < 2; i++) {
        (void)fcntl(out[i], F_SETFD, FD_CLOEXEC);
        (void)fcntl(er[i], F_SETFD, FD_CLOEXEC);
    }
    /* Signals stay blocked across fork until the child has reset the parent's handlers: a
     * SIGTERM arriving in between would otherwise run the parent's handler in the child
     * (the dashboard's, or a test harness's that kills its whole process group). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        snprintf(err, n, "cannot start %s: %s", argv[0], strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        /* The child: only async-signal-safe calls until exec. */
        for (int sig = 1; sig < NSIG; sig++)
            signal(sig, SIG_DFL);
        /* The probe's life is tied to ours: if rooftop dies (even by SIGKILL, which runs no
         * cleanup) the kernel sends the child SIGKILL, so a hung kernel cannot outlive it.
         * A parent that died before the prctl took effect is seen by getppid(). */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(er[1], STDERR_FILENO);
        if (strchr(argv[0], '/'))
            execv(argv[0], argv);
        else
            execvp(argv[0], argv);
        static const char msg[] = "cannot run the probe program: exec failed\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        _exit(127);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(out[1]);
    close(er[1]);
    c->pid = pid;
    c->out_fd = out[0];
    c->err_fd = er[0];
    set_nonblock(c->out_fd);
    set_nonblock(c->err_fd);
    c->t_start = probe_now();
    c->limit_s = time_limit_s;
    return c;
fail:
    for (int i = 0; i < 2; i++) {
        if (out[i] >= 0)
            close(out[i]);
        if (er[i] >= 0)
            close(er[i]);
    }
    free(c);
    return NULL;
}

struct probe_child *probe_child_start_self(const char *backend, bool quick, const char *shapes,
                                           double time_limit_s, char *err, size_t n)
{
    char self[4096];
    if (!probe_self_path(self, sizeof self)) {
        snprintf(err, n, "cannot find this program's path (/proc/self/exe)");
        return NULL;
    }
    char limit[32];
    /* The child stops itself a little before we would kill it, so it can say why. */
    double inner = time_limit_s > 5 ? time_limit_s - 2 : time_limit_s;
    snprintf(limit, sizeof limit, "%g", inner > 0 ? inner : 300.0);
    char *argv[12];
    int a = 0;
    argv[a++] = self;
    argv[a++] = (char *)"probe";
    argv[a++] = (char *)"--backend";
    argv[a++] = (char *)(backend ? backend : "auto");
    if (quick)
        argv[a++] = (char *)"--quick";
    if (shapes && *shapes) {
        argv[a++] = (char *)"--shapes";
        argv[a++] = (char *)shapes;
    }
    argv[a++] = (char *)"--time-limit";
    argv[a++] = limit;
    argv[a] = NULL;
    return probe_child_start(argv, time_limit_s, err, n);
}

int probe_child_fd(const struct probe_child *c)
{
    return c ? c->out_fd : -1;
}

/* Reads whatever stderr has, keeping the last complete non-empty line. */
static void drain_stderr(struct probe_child *c)
{
    if (c->err_fd < 0)
        return;
    char tmp[1024];
    for (;;) {
        ssize_t r = read(c->err_fd, tmp, sizeof tmp);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                close(c->err_fd);
                c->err_fd = -1;
                if (c->errlen) {
                    c->errline[c->errlen] = '\0';
                    snprintf(c->last_stderr, sizeof c->last_stderr, "%s", c->errline);
                    c->errlen = 0;
                }
            }
            return;
        }
        for (ssize_t i = 0; i < r; i++) {
            char ch = tmp[i];
            if (ch == '\n') {
                if (c->errlen) {
                    c->errline[c->errlen] = '\0';
                    snprintf(c->last_stderr, sizeof c->last_stderr, "%s", c->errline);
                }
                c->errlen = 0;
            } else if (c->errlen < sizeof c->errline - 1) {
                c->errline[c->errlen++] = ((unsigned char)ch < 0x20) ? ' ' : ch;
            }
        }
    }
}

/* Reads stdout into the buffer until a complete line is there, nothing more is ready, or
 * EOF (then the fd is closed). A buffer filled without a newline holds an over-long line:
 * it is dropped up to its newline. */
static void fill_stdout(struct probe_child *c)
{
    while (c->out_fd >= 0) {
        if (c->len == c->cap) {
            if (c->cap >= LINE_MAX_BYTES) {
                c->len = 0;
                c->dropping = true;
                c->bad_lines++;
            } else {
                size_t cap = c->cap ? c->cap * 2 : 4096;
                char *nb = realloc(c->buf, cap);
                if (!nb)
                    return;
                c->buf = nb;
                c->cap = cap;
            }
        }
        ssize_t r = read(c->out_fd, c->buf + c->len, c->cap - c->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                close(c->out_fd);
                c->out_fd = -1;
            }
            return;
        }
        char *start = c->buf + c->len;
        c->len += (size_t)r;
        if (c->dropping) {
            char *nl = memchr(start, '\n', (size_t)r);
            if (!nl) {
                c->len = 0;
                continue;
            }
            size_t used = (size_t)(nl - c->buf) + 1;
            memmove(c->buf, c->buf + used, c->len - used);
            c->len -= used;
            c->dropping = false;
        }
        if (memchr(c->buf, '\n', c->len))
            return;
    }
}

/* Takes the next complete line (or, after EOF, the unterminated rest) out of the buffer into
 * a malloc'ed string. Returns its length, or -1 when there is none yet. */
static long take_line(struct probe_child *c, char **line)
{
    if (!c->buf || c->len == 0)
        return -1;
    char *nl = memchr(c->buf, '\n', c->len);
    if (!nl && c->out_fd >= 0)
        return -1;
    size_t ll = nl ? (size_t)(nl - c->buf) : c->len;
    char *copy = malloc(ll + 1);
    if (!copy)
        return -1;
    memcpy(copy, c->buf, ll);
    copy[ll] = '\0';
    size_t used = nl ? ll + 1 : ll;
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
    *line = copy;
    return (long)ll;
}

static void enforce_limit(struct probe_child *c)
{
    if (c->reaped || c->limit_s <= 0)
        return;
    double now = probe_now();
    if (c->term_at == 0 && now - c->t_start > c->limit_s) {
        c->timed_out = true;
        c->term_at = now;
        kill(c->pid, SIGTERM);
    } else if (c->term_at > 0 && !c->killed && now - c->term_at > KILL_GRACE_S) {
        c->killed = true;
        kill(c->pid, SIGKILL);
    }
}

static bool try_reap(struct probe_child *c)
{
    if (c->reaped)
        return true;
    int st;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == c->pid) {
        c->reaped = true;
        c->status = st;
        return true;
    }
    if (r < 0 && errno == ECHILD) { /* reaped elsewhere (a SIGCHLD handler): treat as gone */
        c->reaped = true;
        c->status = 0;
        return true;
    }
    return false;
}

int probe_child_poll(struct probe_child *c, struct points_line *ev)
{
    if (!c)
        return PCHILD_EXITED;
    drain_stderr(c);
    for (;;) {
        char *line = NULL;
        long ll = take_line(c, &line);
        if (ll < 0) {
            if (c->out_fd < 0)
                break;
            size_t before = c->len;
            fill_stdout(c);
            if (c->len == before && c->out_fd >= 0)
                break; /* nothing new yet */
            continue;
        }
        char perr[POINTS_ERR_MAX];
        bool blank = strspn(line, " \t\r") == (size_t)ll;
        bool ok = !blank && points_parse_line(line, (size_t)ll, ev, perr, sizeof perr);
        free(line);
        if (blank)
            continue;
        if (!ok) {
            c->bad_lines++;
            continue;
        }
        if (ev->kind == PLINE_ERROR)
            snprintf(c->last_error, sizeof c->last_error, "%s", ev->text);
        return PCHILD_EVENT;
    }
    enforce_limit(c);
    if (c->out_fd < 0 && c->len == 0 && try_reap(c)) {
        drain_stderr(c);
        return PCHILD_EXITED;
    }
    return PCHILD_NONE;
}

void probe_child_result(const struct probe_child *c, bool *ok, char *reason, size_t n)
{
    *ok = false;
    if (!c) {
        snprintf(reason, n, "no probe running");
        return;
    }
    if (c->timed_out) {
        snprintf(reason, n, "time limit of %g s reached: the probe was stopped", c->limit_s);
        return;
    }
    if (c->last_error[0]) {
        snprintf(reason, n, "%s", c->last_error);
        return;
    }
    if (!c->reaped) {
        snprintf(reason, n, "still running");
        return;
    }
    if (WIFEXITED(c->status)) {
        int code = WEXITSTATUS(c->status);
        if (code == 0) {
            *ok = true;
            snprintf(reason, n, "finished");
        } else if (c->last_stderr[0]) {
            snprintf(reason, n, "%s", c->last_stderr);
        } else {
            snprintf(reason, n, "the probe exited with status %d", code);
        }
        return;
    }
    if (WIFSIGNALED(c->status)) {
        int sig = WTERMSIG(c->status);
        snprintf(reason, n, "the probe was killed by signal %d (%s)%s%s", sig, strsignal(sig),
                 c->last_stderr[0] ? ": " : "", c->last_stderr);
        return;
    }
    snprintf(reason, n, "the probe ended abnormally");
}

size_t probe_child_bad_lines(const struct probe_child *c)
{
    return c ? c->bad_lines : 0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

void probe_child_free(struct probe_child *c)
{
    if (!c)
        return;
    if (!try_reap(c)) {
        kill(c->pid, SIGTERM);
        double t0 = probe_now();
        while (!try_reap(c) && probe_now() - t0 < KILL_GRACE_S)
            sleep_ms(10);
        if (!c->reaped) {
            kill(c->pid, SIGKILL);
            int st;
            while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
                ;
            c->reaped = true;
        }
    }
    if (c->out_fd >= 0)
        close(c->out_fd);
    if (c->err_fd >= 0)
        close(c->err_fd);
    free(c->buf);
    free(c);
}
