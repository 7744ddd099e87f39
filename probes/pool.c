/* pool.c - the CPU probe's thread pool. */
#include "pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

struct worker_arg {
    struct pool *pool;
    int tid;
};

static void *worker_main(void *p)
{
    struct worker_arg *w = p;
    struct pool *pl = w->pool;
    int tid = w->tid;
    free(w);
    unsigned long seen = 0;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        while (pl->gen == seen && !pl->quit)
            pthread_cond_wait(&pl->go, &pl->mu);
        if (pl->quit)
            break;
        seen = pl->gen;
        job_fn fn = pl->fn;
        void *arg = pl->arg;
        int n = pl->n;
        pthread_mutex_unlock(&pl->mu);
        fn(arg, tid, n);
        pthread_mutex_lock(&pl->mu);
        if (++pl->finished == pl->n - 1)
            pthread_cond_signal(&pl->done);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

void pool_destroy(struct pool *pl)
{
    if (!pl->init)
        return;
    pthread_mutex_lock(&pl->mu);
    pl->quit = true;
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    for (int i = 1; i < pl->n; i++)
        pthread_join(pl->threads[i], NULL);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->go);
    pthread_cond_destroy(&pl->done);
    free(pl->threads);
    memset(pl, 0, sizeof *pl);
}

bool pool_create(struct pool *pl, int n, char *err, size_t errn)
{
    memset(pl, 0, sizeof *pl);
    pl->threads = calloc((size_t)n, sizeof *pl->threads);
    if (!pl->threads) {
        snprintf(err, errn, "out of memory");
        return false;
    }
    if (pthread_mutex_init(&pl->mu, NULL) != 0 || pthread_cond_init(&pl->go, NULL) != 0 ||
        pthread_cond_init(&pl->done, NULL) != 0) {
        free(pl->threads);
        snprintf(err, errn, "cannot create thread synchronisation");
        return false;
    }
    pl->init = true;
    pl->n = 1;
    for (int i = 1; i < n; i++) {
        struct worker_arg *w = malloc(sizeof *w);
        if (!w)
            break;
        *w = (struct worker_arg){pl, i};
        if (pthread_create(&pl->threads[i], NULL, worker_main, w) != 0) {
            /* Run on the threads that did start; the points say how many in the device. */
            free(w);
            break;
        }
        pl->n = i + 1;
    }
    return true;
}

double pool_run(struct pool *pl, job_fn fn, void *arg)
{
    double t0 = probe_now();
    pthread_mutex_lock(&pl->mu);
    pl->fn = fn;
    pl->arg = arg;
    pl->finished = 0;
    pl->gen++;
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    fn(arg, 0, pl->n);
    pthread_mutex_lock(&pl->mu);
    while (pl->finished < pl->n - 1)
        pthread_cond_wait(&pl->done, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
    return probe_now() - t0;
}

void pool_slice(size_t n, size_t unit, int tid, int nt, size_t *lo, size_t *hi)
{
    size_t units = n / unit;
    size_t a = units * (size_t)tid / (size_t)nt, b = units * (size_t)(tid + 1) / (size_t)nt;
    *lo = a * unit;
    *hi = tid == nt - 1 ? n : b * unit;
}

