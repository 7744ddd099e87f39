/* files.c - the one file layer: a bounded reader, an atomic writer, the data search path. */
#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef ROOFTOP_DATADIR
#define ROOFTOP_DATADIR "/usr/local/share/rooftop"
#endif

/* Symbolic links followed to the target before giving up (the kernel's own limit). */
#define LINKS_MAX 40
/* Longest piece of a path quoted in a message: the line stays one readable line. */
#define SHOW_MAX 200

/* ---- messages -------------------------------------------------------------------------- */

/* Writes "PATH: message" with the path made safe to print (control bytes as '?', long paths
 * shortened with "..."); returns false. */
__attribute__((format(printf, 4, 5))) static bool fail(char *err, size_t errlen,
                                                       const char *path, const char *fmt, ...)
{
    if (err == NULL || errlen == 0)
        return false;
    char shown[SHOW_MAX + 4];
    size_t n = 0;
    for (const char *p = path ? path : ""; *p && n < SHOW_MAX; p++)
        shown[n++] = ((unsigned char)*p < 0x20 || *p == 0x7f) ? '?' : *p;
    if (path && strlen(path) > SHOW_MAX) {
        memcpy(shown + n, "...", 3);
        n += 3;
    }
    shown[n] = '\0';
    char msg[FILES_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s: %s", shown, msg);
    return false;
}

/* What a file that is not a regular file is, for "is a directory, not a regular file". */
static const char *kind_name(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a pipe (FIFO)";
    if (S_ISCHR(m))
        return "a terminal or character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a plain file";
}

/* ---- paths ----------------------------------------------------------------------------- */

char *files_join(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *p = malloc(la + lb + 2);
    if (p == NULL)
        return NULL;
    memcpy(p, a, la);
    p[la] = '/';
    memcpy(p + la + 1, b, lb + 1);
    return p;
}

bool files_is_path(const char *s)
{
    size_t n = strlen(s);
    return strcmp(s, "-") == 0 || strchr(s, '/') != NULL ||
           (n >= 5 && strcmp(s + n - 5, ".json") == 0);
}

/* The directory part of path ("." when it has none), malloc'ed. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* ---- the reader ------------------------------------------------------------------------ */

/* How long a pipe may keep the reader waiting, in ms; -1: as long as it takes. */
static int pipe_wait_ms = -1;

/* The last pipe read, whole: a pipe gives its bytes once, and what reads a file twice (the
 * dashboard's o asks whether it is a model, a demo, then loads it) gets them again. */
static struct {
    bool set;
    dev_t dev;
    ino_t ino;
    char *data;
    size_t len;
} last_pipe;

void files_forget_pipes(void)
{
    free(last_pipe.data);
    memset(&last_pipe, 0, sizeof last_pipe);
}

/* Keeps a copy of what pipe st gave (nothing when out of memory: a second read then finds
 * the pipe drained, as before). */
static void remember_pipe(const struct stat *st, const char *data, size_t len)
{
    static bool registered;
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return;
    memcpy(copy, data, len + 1);
    files_forget_pipes();
    if (!registered)
        registered = atexit(files_forget_pipes) == 0;
    last_pipe.set = true;
    last_pipe.dev = st->st_dev;
    last_pipe.ino = st->st_ino;
    last_pipe.data = copy;
    last_pipe.len = len;
}

/* The remembered bytes of pipe st, if it is the last one read and fits max. */
static bool recall_pipe(const struct stat *st, size_t max, char **data, size_t *len)
{
    if (!last_pipe.set || last_pipe.dev != st->st_dev || last_pipe.ino != st->st_ino ||
        last_pipe.len > max)
        return false;
    char *copy = malloc(last_pipe.len + 1);
    if (copy == NULL)
        return false;
    memcpy(copy, last_pipe.data, last_pipe.len + 1);
    *data = copy;
    *len = last_pipe.len;
    return true;
}

const char *files_name_shown(const char *path)
{
    return path != NULL && strcmp(path, "-") == 0 ? "standard input" : path;
}

void files_set_pipe_wait(int ms)
{
    pipe_wait_ms = ms < 0 ? -1 : ms;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Reads fd to its end into a malloc'ed buffer of at most max bytes: a regular file of
 * st_size bytes (the size seen, plus room to notice one that grew past max), or a pipe, in
 * pieces as they come, each awaited with poll() so that pipe_wait_ms bounds the whole read
 * (a FIFO nobody opens for writing never answers). False with the error in err.
 */
static bool read_fd(int fd, const char *shown, bool pipe, size_t size, size_t max, char **data,
                    size_t *len, char *err, size_t errlen)
{
    size_t cap = pipe ? (max < 65536 ? max + 1 : 65536) : size + 1;
    char *buf = malloc(cap + 1);
    if (buf == NULL)
        return fail(err, errlen, shown, "out of memory");
    long long deadline = pipe_wait_ms >= 0 ? now_ms() + pipe_wait_ms : -1;
    size_t n = 0;
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                return fail(err, errlen, shown, "too large (%s %zu bytes)",
                            pipe ? "more than" : "grew past", max);
            }
            size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (nb == NULL) {
                free(buf);
                return fail(err, errlen, shown, "out of memory");
            }
            buf = nb;
            cap = ncap;
        }
        if (pipe) {
            int wait = -1;
            if (deadline >= 0) {
                long long left = deadline - now_ms();
                wait = left > 0 ? (int)left : 0;
            }
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            int pr = poll(&pfd, 1, wait);
            if (pr < 0 && errno == EINTR)
                continue;
            if (pr == 0) {
                free(buf);
                return fail(err, errlen, shown, "a pipe (FIFO) that %s within %d ms%s",
                            n ? "did not end" : "gave nothing", pipe_wait_ms,
                            n ? "" : " (does anything write to it?)");
            }
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            return fail(err, errlen, shown, "cannot read: %s", strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > max) {
        free(buf);
        return fail(err, errlen, shown, "too large (%s %zu bytes)",
                    pipe ? "more than" : "grew past", max);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return true;
}

bool files_read(const char *path, size_t max, char **data, size_t *len, char *err,
                size_t errlen)
{
    *data = NULL;
    *len = 0;
    if (path == NULL || path[0] == '\0')
        return fail(err, errlen, "", "empty file name");
    /* "-" is standard input, read where it stands and left open. */
    bool std_in = strcmp(path, "-") == 0;
    const char *shown = files_name_shown(path);
    /* O_NONBLOCK: opening a FIFO nobody writes to returns at once instead of waiting (the
     * read then waits, bounded, in poll). It changes nothing for a regular file. O_NOCTTY: a
     * terminal given as the file never becomes ours. */
    int fd = std_in ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return fail(err, errlen, shown, "cannot read: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        if (!std_in)
            close(fd);
        return fail(err, errlen, shown, "cannot read: %s", strerror(e));
    }
    /* A pipe is read once, to its end, as every Unix tool reads one: `cat config.json |
     * rooftop report --model -` (or /dev/stdin, or a FIFO). */
    bool pipe = S_ISFIFO(st.st_mode) || (std_in && S_ISSOCK(st.st_mode));
    if (!S_ISREG(st.st_mode) && !pipe) {
        if (!std_in)
            close(fd);
        if (std_in && isatty(fd))
            return fail(err, errlen, shown, "is a terminal: give a file, or pipe one in "
                                            "(cat config.json | rooftop report --model -)");
        return fail(err, errlen, shown, "is %s, not a regular file or pipe",
                    kind_name(st.st_mode));
    }
    if (!pipe && (st.st_size < 0 || (uintmax_t)st.st_size > max)) {
        if (!std_in)
            close(fd);
        return fail(err, errlen, shown, "too large (%lld bytes; at most %zu)",
                    (long long)st.st_size, max);
    }
    bool ok = pipe && recall_pipe(&st, max, data, len);
    if (!ok) {
        ok = read_fd(fd, shown, pipe, pipe ? 0 : (size_t)st.st_size, max, data, len, err,
                     errlen);
        if (ok && pipe)
            remember_pipe(&st, *data, *len);
    }
    if (!std_in)
        close(fd);
    return ok;
}

/* ---- the writer ------------------------------------------------------------------------ */

/*
 * The file a write to path lands on: path with symbolic links followed (relative link
 * targets taken from the link's directory). A target that does not exist yet is fine: it is
 * where the new file goes. Fills *st_out / *exists for the final target. Malloc'ed.
 */
static char *resolve_target(const char *path, struct stat *st_out, bool *exists, char *err,
                            size_t errlen)
{
    char *cur = strdup(path);
    if (cur == NULL) {
        fail(err, errlen, path, "out of memory");
        return NULL;
    }
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT) {
                *exists = false;
                return cur;
            }
            fail(err, errlen, path, "cannot write: %s", strerror(errno));
            free(cur);
            return NULL;
        }
        if (!S_ISLNK(st.st_mode)) {
            *exists = true;
            *st_out = st;
            return cur;
        }
        if (hops >= LINKS_MAX) {
            fail(err, errlen, path, "cannot write: %s", strerror(ELOOP));
            free(cur);
            return NULL;
        }
        /* st_size of a link is its target's length; a link changed meanwhile is read again
         * with a larger buffer. */
        size_t cap = (size_t)st.st_size + 2;
        char *to = NULL;
        for (;;) {
            char *nb = realloc(to, cap);
            if (nb == NULL) {
                free(to);
                free(cur);
                fail(err, errlen, path, "out of memory");
                return NULL;
            }
            to = nb;
            ssize_t r = readlink(cur, to, cap);
            if (r < 0) {
                int e = errno;
                free(to);
                free(cur);
                fail(err, errlen, path, "cannot write: %s", strerror(e));
                return NULL;
            }
            if ((size_t)r < cap) {
                to[r] = '\0';
                break;
            }
            cap *= 2;
        }
        char *next;
        if (to[0] == '/') {
            next = to;
        } else {
            char *dir = dir_of(cur);
            next = dir ? files_join(dir, to) : NULL;
            free(dir);
            free(to);
        }
        free(cur);
        if (next == NULL) {
            fail(err, errlen, path, "out of memory");
            return NULL;
        }
        cur = next;
    }
}

/* ---- the writer's refusals and its clean-up --------------------------------------------- */

/* --force: replace what the writer otherwise refuses (see files.h). */
static bool force_replace;

void files_set_force(bool on)
{
    force_replace = on;
}

/*
 * What the writer refuses to replace unless forced, as cp and editors do: an existing target
 * the user may not write (access W_OK: a read-only file, or one of another user; replacing it
 * by a rename would only need the directory), and one with more hard links, which a rename
 * would split (the other names keeping the old content). False with one line in err.
 */
static bool may_replace(const char *path, const char *target, const struct stat *st, char *err,
                        size_t errlen)
{
    if (force_replace)
        return true;
    if (access(target, W_OK) != 0 && (errno == EACCES || errno == EPERM || errno == EROFS)) {
        int e = errno;
        return fail(err, errlen, path, "cannot write: %s (the file is %s; --force replaces it)",
                    strerror(e), e == EROFS ? "on a read-only file system" : "read-only to you");
    }
    if (st->st_nlink > 1)
        return fail(err, errlen, path,
                    "has %ju hard links: replacing it would leave the other names with the old "
                    "content (--force replaces this name only)",
                    (uintmax_t)st->st_nlink);
    return true;
}

/* Whether name is a temporary file of the writer (".HEAD.PID.N.HEX.tmp") and whose pid. */
static bool temp_name_pid(const char *name, long *pid)
{
    size_t len = strlen(name);
    if (name[0] != '.' || len < 12 || strcmp(name + len - 4, ".tmp") != 0)
        return false;
    /* Back from ".tmp": the hex tail, the counter, the pid, each after a '.'. */
    const char *end = name + len - 4;
    const char *sets[3] = {"0123456789abcdef", "0123456789", "0123456789"};
    const char *field = end;
    for (int k = 0; k < 3; k++) {
        const char *p = field;
        while (p > name && strchr(sets[k], p[-1]) != NULL && p[-1] != '\0')
            p--;
        if (p == field || p - 1 <= name || p[-1] != '.')
            return false;
        if (k == 2) {
            char *stop;
            errno = 0;
            long v = strtol(p, &stop, 10);
            if (errno != 0 || stop != field || v <= 0)
                return false;
            *pid = v;
        }
        field = p - 1;
    }
    /* A head of the target's name before the pid, after the leading '.'. */
    return field > name;
}

/*
 * Removes the temporary files that writers killed mid-save (kill -9, a crash) left in dir:
 * those of our naming whose process is gone (kill(pid, 0) says ESRCH; a live process, ours
 * or another user's, keeps its file). Best effort: a file that cannot be removed stays.
 */
static void clean_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = 0;
        if (!temp_name_pid(e->d_name, &pid) || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            (void)unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

/* Opens a new temporary file beside target, with mode (less the umask); malloc'ed name. */
static int open_temp(const char *target, mode_t mode, char **tmp_out)
{
    char *dir = dir_of(target);
    if (dir == NULL) {
        errno = ENOMEM;
        return -1;
    }
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    /* A file name is at most 255 bytes: the temporary name keeps a part of the target's for
     * whoever finds one left by a crash, and its own unique tail. */
    char head[101];
    snprintf(head, sizeof head, "%s", base);
    static unsigned counter;
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        char name[160];
        snprintf(name, sizeof name, ".%s.%ld.%u.%lx.tmp", head, (long)getpid(), counter++,
                 (unsigned long)ts.tv_nsec);
        char *tmp = files_join(dir, name);
        if (tmp == NULL) {
            errno = ENOMEM;
            break;
        }
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode);
        if (fd >= 0) {
            *tmp_out = tmp;
        } else {
            free(tmp);
            if (errno != EEXIST)
                break;
        }
    }
    int e = errno;
    free(dir);
    errno = e;
    return fd;
}

static void out_clear(struct files_out *o)
{
    free(o->target);
    free(o->tmp);
    free(o->shown);
    memset(o, 0, sizeof *o);
}

bool files_out_open(struct files_out *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (path == NULL || path[0] == '\0')
        return fail(err, errlen, "", "empty file name");
    struct stat st;
    bool exists = false;
    char *target = resolve_target(path, &st, &exists, err, errlen);
    if (target == NULL)
        return false;
    if (exists && !S_ISREG(st.st_mode)) {
        free(target);
        return fail(err, errlen, path, "is %s, not a regular file to write", kind_name(st.st_mode));
    }
    if (exists && !may_replace(path, target, &st, err, errlen)) {
        free(target);
        return false;
    }
    char *tdir = dir_of(target);
    if (tdir != NULL)
        clean_stale(tdir);
    free(tdir);
    char *tmp = NULL;
    int fd = open_temp(target, exists ? (st.st_mode & 07777) : 0666, &tmp);
    if (fd < 0) {
        int e = errno;
        free(target);
        return fail(err, errlen, path, "cannot write: %s", strerror(e));
    }
    if (exists) {
        /* The umask applied at open: give the replacement exactly the old file's bits, and
         * (where we may: root) its owner. */
        if (fchmod(fd, st.st_mode & 07777) != 0) {
            int e = errno;
            close(fd);
            unlink(tmp);
            free(tmp);
            free(target);
            return fail(err, errlen, path, "cannot write: %s", strerror(e));
        }
        if (fchown(fd, st.st_uid, st.st_gid) != 0) {
            /* Not ours to give away: the new file is the writer's, as with any editor. */
        }
    }
    o->f = fdopen(fd, "w");
    o->target = target;
    o->tmp = tmp;
    o->shown = strdup(path);
    if (o->f == NULL || o->shown == NULL) {
        if (o->f)
            fclose(o->f);
        else
            close(fd);
        unlink(tmp);
        out_clear(o);
        return fail(err, errlen, path, "out of memory");
    }
    return true;
}

void files_out_abort(struct files_out *o)
{
    if (o->f != NULL) {
        fclose(o->f);
        unlink(o->tmp);
    }
    out_clear(o);
}

bool files_out_commit(struct files_out *o, char *err, size_t errlen)
{
    if (o->f == NULL) {
        out_clear(o);
        return fail(err, errlen, "", "no file open to write");
    }
    int e = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    if (e == 0 && fsync(fileno(o->f)) != 0)
        e = errno;
    if (fclose(o->f) != 0 && e == 0)
        e = errno;
    o->f = NULL;
    if (e == 0 && rename(o->tmp, o->target) != 0)
        e = errno;
    if (e != 0) {
        unlink(o->tmp);
        fail(err, errlen, o->shown, "cannot write: %s", strerror(e));
        out_clear(o);
        return false;
    }
    /* Make the rename itself durable. Failing here loses nothing already written. */
    char *dir = dir_of(o->target);
    int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
    out_clear(o);
    return true;
}

bool files_write(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    struct files_out o;
    if (!files_out_open(&o, path, err, errlen))
        return false;
    if (len > 0 && fwrite(data, 1, len, o.f) != len) {
        int e = errno ? errno : EIO;
        files_out_abort(&o);
        return fail(err, errlen, path, "cannot write: %s", strerror(e));
    }
    return files_out_commit(&o, err, errlen);
}

bool files_check_writable(const char *path, char *err, size_t errlen)
{
    struct files_out o;
    if (!files_out_open(&o, path, err, errlen))
        return false;
    files_out_abort(&o);
    return true;
}

/* ---- the search path ------------------------------------------------------------------- */

static bool dirs_add(struct files_dirs *d, const char *a, const char *b, const char *kind)
{
    char *ab = b ? files_join(a, b) : strdup(a);
    char *p = ab ? files_join(ab, kind) : NULL;
    free(ab);
    if (p == NULL)
        return false;
    d->dir[d->n++] = p;
    return true;
}

/* The directory of the running executable (/proc/self/exe), malloc'ed; NULL where it is not
 * known. */
static char *exe_dir(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0 || (size_t)n >= sizeof buf - 1)
        return NULL;
    buf[n] = '\0';
    return dir_of(buf);
}

bool files_dirs(const char *kind, struct files_dirs *out)
{
    memset(out, 0, sizeof *out);
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    bool ok = true;
    /* The XDG spec says to ignore a relative XDG_CONFIG_HOME. */
    if (xdg && xdg[0] == '/')
        ok = dirs_add(out, xdg, "rooftop", kind);
    else if (home && home[0])
        ok = dirs_add(out, home, ".config/rooftop", kind);
    const char *env = getenv("ROOFTOP_SPECS");
    if (ok && env && env[0])
        ok = dirs_add(out, env, NULL, kind);
    if (ok)
        ok = dirs_add(out, "specs", NULL, kind);
    /* A built, uninstalled rooftop run from elsewhere (cd /tmp && ~/src/rooftop/rooftop):
     * the specs of the tree it was built in, beside it. */
    char *beside = ok ? exe_dir() : NULL;
    if (beside != NULL) {
        ok = dirs_add(out, beside, "specs", kind);
        free(beside);
    }
    if (ok)
        ok = dirs_add(out, ROOFTOP_DATADIR "/specs", NULL, kind);
    if (!ok)
        files_dirs_free(out);
    return ok;
}

void files_dirs_free(struct files_dirs *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->dir[i]);
    memset(d, 0, sizeof *d);
}

void files_dirs_describe(const char *kind, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    struct files_dirs d;
    if (!files_dirs(kind, &d)) {
        snprintf(buf, n, "(out of memory)");
        return;
    }
    size_t at = 0;
    for (size_t i = 0; i < d.n; i++) {
        int w = snprintf(buf + at, n - at, "%s%s", i ? ", " : "", d.dir[i]);
        if (w < 0 || (size_t)w >= n - at) {
            /* Cut: end with "..." so the reader knows there was more. */
            if (n >= 4)
                memcpy(buf + n - 4, "...", 4);
            break;
        }
        at += (size_t)w;
    }
    files_dirs_free(&d);
}

char *files_find(const char *kind, const char *name)
{
    struct files_dirs d;
    if (!files_dirs(kind, &d))
        return NULL;
    char *found = NULL;
    for (size_t i = 0; i < d.n && found == NULL; i++) {
        char *p = files_join(d.dir[i], name);
        struct stat st;
        if (p && stat(p, &st) == 0 && S_ISREG(st.st_mode))
            found = p;
        else
            free(p);
    }
    files_dirs_free(&d);
    return found;
}

char *files_resolve(const char *kind, const char *name_or_file)
{
    if (name_or_file[0] == '\0')
        return strdup(name_or_file);
    if (files_is_path(name_or_file)) {
        /* The source tree's "specs/KIND/NAME.json", as the README writes it, names the same
         * file when run elsewhere after `make install`: found by its name on the path. */
        size_t kl = strlen(kind);
        struct stat st;
        if (strncmp(name_or_file, "specs/", 6) == 0 && strncmp(name_or_file + 6, kind, kl) == 0 &&
            name_or_file[6 + kl] == '/') {
            const char *base = name_or_file + 6 + kl + 1;
            if (base[0] != '\0' && strchr(base, '/') == NULL && stat(name_or_file, &st) != 0 &&
                errno == ENOENT) {
                char *found = files_find(kind, base);
                if (found != NULL)
                    return found;
            }
        }
        return strdup(name_or_file);
    }
    char *path = files_find_json(kind, name_or_file);
    return path != NULL ? path : strdup(name_or_file);
}

char *files_find_json(const char *kind, const char *name)
{
    size_t n = strlen(name);
    char *file = malloc(n + 6);
    if (file == NULL)
        return NULL;
    memcpy(file, name, n);
    memcpy(file + n, ".json", 6);
    char *path = files_find(kind, file);
    free(file);
    return path;
}
