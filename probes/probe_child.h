/* probe_child.h - a probe running as a child process, read line by line without blocking. */
#ifndef ROOFTOP_PROBE_CHILD_H
#define ROOFTOP_PROBE_CHILD_H

#include <stdbool.h>
#include <stddef.h>

#include "points.h"

/*
 * For an event loop (the dashboard's P key) and for the CUDA backend:
 *
 *   struct probe_child *c = probe_child_start_self("auto", true, NULL, 120, err, sizeof err);
 *   // in the loop (poll(probe_child_fd(c), POLLIN) or a timeout):
 *   struct points_line ev;
 *   int r;
 *   while ((r = probe_child_poll(c, &ev)) == PCHILD_EVENT)
 *       ... ev.kind: PLINE_POINT (ev.point), PLINE_DEVICE, PLINE_PROGRESS, PLINE_STATUS,
 *           PLINE_ERROR, PLINE_DONE ...
 *   if (r == PCHILD_EXITED) { probe_child_result(c, ok, reason); probe_child_free(c); }
 *   // to cancel: probe_child_free(c) (kills and reaps).
 *
 * The child's stdout is a pipe read by probe_child_poll; its stderr goes to a second pipe whose
 * last line becomes the failure reason (so it never writes on the dashboard's terminal);
 * stdin is /dev/null. Lines that do not parse are skipped (counted in probe_child_bad_lines).
 * Past the time limit the child gets SIGTERM, then SIGKILL a second later. Nothing here
 * blocks, except probe_child_free which waits at most about a second for the kill.
 */
struct probe_child;

enum {
    PCHILD_EVENT = 1,   /* *ev holds the next line */
    PCHILD_NONE = 0,    /* nothing new yet; still running */
    PCHILD_EXITED = -1  /* the child has ended and every line has been read */
};

/*
 * Starts argv[0] (a path; searched on PATH when it has no '/') with argv (NULL-terminated).
 * time_limit_s <= 0: no limit. Returns NULL with one line in err when it cannot start.
 */
struct probe_child *probe_child_start(char *const argv[], double time_limit_s, char *err,
                                      size_t n);
/*
 * Starts this program (/proc/self/exe) as `rooftop probe --backend BACKEND [--quick]
 * [--shapes SHAPES] --time-limit T`. shapes may be NULL.
 */
struct probe_child *probe_child_start_self(const char *backend, bool quick, const char *shapes,
                                           double time_limit_s, char *err, size_t n);
/* The fd to poll for readability (the stdout pipe); -1 once it is closed. */
int probe_child_fd(const struct probe_child *c);
/* Never blocks. Also enforces the time limit. */
int probe_child_poll(struct probe_child *c, struct points_line *ev);
/*
 * After PCHILD_EXITED: *ok is true when the child exited 0 and did not report an error;
 * otherwise reason holds one line (its last error line, last stderr line, exit status or
 * signal, or "time limit of 60 s reached").
 */
void probe_child_result(const struct probe_child *c, bool *ok, char *reason, size_t n);
size_t probe_child_bad_lines(const struct probe_child *c);
/* Kills the child if it still runs (SIGTERM, then SIGKILL), reaps it, closes, frees. NULL ok. */
void probe_child_free(struct probe_child *c);

/* Path of the running executable (/proc/self/exe); false when unknown. */
bool probe_self_path(char *buf, size_t n);

#endif
