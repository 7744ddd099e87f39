/* pool.h - a small thread pool for the CPU probe: every run is one barrier-to-barrier pass of
 * one job on all threads. Built without -march=native: it holds no kernel. */
#ifndef ROOFTOP_PROBES_POOL_H
#define ROOFTOP_PROBES_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef void (*job_fn)(void *arg, int tid, int nt);

/* Workers wait for a new generation, run the job, and count themselves done. A mutex and
 * condition variables rather than barriers, so a pool whose thread creation failed halfway
 * still runs (with fewer threads) and shuts down cleanly. */
struct pool {
    int n;                 /* threads including the caller */
    pthread_t *threads;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long gen;
    int finished;
    job_fn fn;
    void *arg;
    bool quit;
    bool init;
};

/* Starts n threads (the caller counts as one); on a thread that fails to start it runs with
 * those that did (pl->n says how many). False, with one line in err, when nothing could. */
bool pool_create(struct pool *pl, int n, char *err, size_t errn);
void pool_destroy(struct pool *pl);
/* Runs fn on every thread (the caller is thread 0); returns the wall time of the pass. */
double pool_run(struct pool *pl, job_fn fn, void *arg);
/* [lo, hi) of thread tid's share of n items, cut at multiples of unit. */
void pool_slice(size_t n, size_t unit, int tid, int nt, size_t *lo, size_t *hi);

#endif
