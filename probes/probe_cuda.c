/* probe_cuda.c - the CUDA backend: runs the nvcc-built rooftop-probe-cuda as a child process
 * and relays its JSON lines, so a crashed or hung kernel never takes rooftop down. */
#include "probe.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe_child.h"

#define CUDA_EXE "rooftop-probe-cuda"
/* Device query only: creating a context takes a second or two, never this long. */
#define CHECK_LIMIT_S 30.0

static bool is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* $ROOFTOP_PROBE_CUDA, else next to this program, else on PATH. */
static bool find_exe(char *out, size_t n)
{
    const char *env = getenv("ROOFTOP_PROBE_CUDA");
    if (env && *env) {
        /* A path cut to fit would run some other program: refuse it instead. */
        if (!is_executable(env) || (size_t)snprintf(out, n, "%s", env) >= n)
            return false;
        return true;
    }
    char self[PATH_MAX];
    if (probe_self_path(self, sizeof self)) {
        char *slash = strrchr(self, '/');
        if (slash) {
            slash[1] = '\0';
            if ((size_t)snprintf(out, n, "%s%s", self, CUDA_EXE) < n && is_executable(out))
                return true;
        }
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (len > 0 && (size_t)snprintf(out, n, "%.*s/%s", (int)len, path, CUDA_EXE) < n &&
            is_executable(out))
            return true;
        path = colon ? colon + 1 : NULL;
    }
    return false;
}

static void no_exe_reason(char *why, size_t n)
{
    const char *env = getenv("ROOFTOP_PROBE_CUDA");
    if (env && *env)
        snprintf(why, n, "built without CUDA: ROOFTOP_PROBE_CUDA=%s is not an executable", env);
    else
        snprintf(why, n, "built without CUDA (" CUDA_EXE " not found next to rooftop or on PATH)");
}

/* Relays a child's lines to the sink until it ends; blocking, with poll() so the time limit
 * is enforced even when the child is silent. Returns the child's verdict. */
static bool relay(struct probe_child *c, const struct probe_sink *sink, struct probe_device *dev,
                  bool *got_device, char *err, size_t n)
{
    struct points_line ev;
    for (;;) {
        int r = probe_child_poll(c, &ev);
        if (r == PCHILD_EXITED)
            break;
        if (r == PCHILD_NONE) {
            struct pollfd pfd = {probe_child_fd(c), POLLIN, 0};
            if (pfd.fd >= 0)
                (void)poll(&pfd, 1, 100);
            else
                (void)poll(NULL, 0, 20);
            continue;
        }
        switch (ev.kind) {
        case PLINE_DEVICE:
            if (dev)
                *dev = ev.device;
            if (got_device)
                *got_device = true;
            if (sink && sink->device)
                sink->device(sink->ctx, &ev.device);
            break;
        case PLINE_POINT:
            if (sink && sink->point)
                sink->point(sink->ctx, &ev.point);
            break;
        case PLINE_PROGRESS:
            if (sink && sink->progress)
                sink->progress(sink->ctx, ev.done, ev.total, ev.text);
            break;
        case PLINE_STATUS:
            if (sink && sink->status)
                sink->status(sink->ctx, ev.text);
            break;
        case PLINE_ERROR:
        case PLINE_DONE:
            break;
        }
    }
    bool ok;
    probe_child_result(c, &ok, err, n);
    return ok;
}

/* `rooftop-probe-cuda --check --device N`: one device line, or an error line saying why. */
static bool cuda_query(const struct probe_options *o, struct probe_device *dev, char *why,
                       size_t n)
{
    char exe[PATH_MAX];
    if (!find_exe(exe, sizeof exe)) {
        no_exe_reason(why, n);
        return false;
    }
    char devarg[16];
    snprintf(devarg, sizeof devarg, "%d", o ? o->device : 0);
    char *argv[] = {exe, (char *)"--check", (char *)"--device", devarg, NULL};
    struct probe_child *c = probe_child_start(argv, CHECK_LIMIT_S, why, n);
    if (!c)
        return false;
    struct probe_device tmp;
    bool got = false;
    bool ok = relay(c, NULL, dev ? dev : &tmp, &got, why, n);
    probe_child_free(c);
    if (ok && !got) {
        snprintf(why, n, CUDA_EXE " --check printed no device");
        return false;
    }
    return ok;
}

static bool cuda_available(const struct probe_options *o, char *why, size_t n)
{
    return cuda_query(o, NULL, why, n);
}

static bool cuda_describe(const struct probe_options *o, struct probe_device *dev, char *err,
                          size_t n)
{
    return cuda_query(o, dev, err, n);
}

static bool cuda_run(const struct probe_options *o, const struct probe_sink *sink, char *err,
                     size_t n)
{
    char exe[PATH_MAX];
    if (!find_exe(exe, sizeof exe)) {
        no_exe_reason(err, n);
        return false;
    }
    char devarg[16], limit[32];
    snprintf(devarg, sizeof devarg, "%d", o->device);
    /* The child stops itself a little before we kill it, so it can say how far it got. */
    double inner = o->time_limit_s > 10 ? o->time_limit_s - 5 : o->time_limit_s;
    snprintf(limit, sizeof limit, "%g", inner);
    char shapes[PROBE_SHAPES_MAX * 64] = "";
    size_t used = 0;
    for (size_t i = 0; i < o->n_shapes; i++) {
        const struct probe_shape *s = &o->shapes[i];
        int w = snprintf(shapes + used, sizeof shapes - used, "%s%s%s%ld,%ld,%ld", i ? ";" : "",
                         s->label, s->label[0] ? "=" : "", s->m, s->n, s->k);
        if (w < 0 || (size_t)w >= sizeof shapes - used)
            break;
        used += (size_t)w;
    }
    char *argv[12];
    int a = 0;
    argv[a++] = exe;
    argv[a++] = (char *)"--device";
    argv[a++] = devarg;
    argv[a++] = (char *)"--time-limit";
    argv[a++] = limit;
    if (o->quick)
        argv[a++] = (char *)"--quick";
    if (used) {
        argv[a++] = (char *)"--shapes";
        argv[a++] = shapes;
    }
    argv[a] = NULL;
    struct probe_child *c = probe_child_start(argv, o->time_limit_s, err, n);
    if (!c)
        return false;
    bool ok = relay(c, sink, NULL, NULL, err, n);
    probe_child_free(c);
    return ok;
}

static void cuda_cleanup(void)
{
    /* Each call starts and reaps its own child: nothing outlives it. */
}

const struct probe_backend probe_backend_cuda = {
    .name = "cuda",
    .available = cuda_available,
    .describe = cuda_describe,
    .run = cuda_run,
    .cleanup = cuda_cleanup,
};
