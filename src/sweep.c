/* sweep.c - one knob swept over a range of its values, each fully evaluated (sweep.h). */
#include "sweep.h"
#include "scenario_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whole-valued inputs: counts, words, on/off, the parameter count. */
static bool whole(const struct input *in)
{
    return in->kind == INPUT_COUNT || in->kind == INPUT_ENUM || in->kind == INPUT_ONOFF ||
           (in->kind == INPUT_SIZE && strcmp(in->key, "params") == 0);
}

/* Appends v unless it repeats the last value; false when vals is full. */
static bool push(double *vals, int *n, int max, double v)
{
    if (*n > 0 && vals[*n - 1] == v)
        return true;
    if (*n >= max)
        return false;
    vals[(*n)++] = v;
    return true;
}

/* `steps` values from a to b, geometric when log is asked and both ends are positive. */
static int even_values(const struct input *in, double a, double b, int steps, double *vals,
                       int max)
{
    bool geo = (in->steps == STEPS_NICE || in->steps == STEPS_SIZES || in->steps == STEPS_POW2) &&
               a > 0 && b > 0;
    int n = 0;
    for (int k = 0; k < steps; k++) {
        double t = steps > 1 ? (double)k / (steps - 1) : 0;
        double v = geo ? a * pow(b / a, t) : a + (b - a) * t;
        if (k == steps - 1)
            v = b;
        if (whole(in))
            v = round(v);
        if (!push(vals, &n, max, v))
            break;
    }
    return n;
}

/* The input's own steps between lo and hi (lo <= hi). */
static int own_values(const struct input *in, double lo, double hi, double *vals, int max)
{
    int n = 0;
    switch (in->steps) {
    case STEPS_POW2: {
        /* Doubling from lo; "auto" (0) first where it is a value. */
        double v = lo;
        if (v <= 0) {
            push(vals, &n, max, 0);
            v = in->step_lo > 0 ? in->step_lo : 1;
        }
        for (; v <= hi * (1 + 1e-12) && push(vals, &n, max, v); v *= 2)
            ;
        break;
    }
    case STEPS_SIZES: /* a size's own steps (its family's are the dashboard's) */
    case STEPS_NICE: {
        static const double m[] = {1, 1.5, 2, 3, 5, 7};
        if (lo <= 0)
            push(vals, &n, max, 0);
        double decade = pow(10, floor(log10(lo > 0 ? lo : (hi > 0 ? hi : 1))));
        for (int guard = 0; guard < 40 && decade <= hi; guard++, decade *= 10)
            for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
                double v = m[i] * decade;
                if (v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12))
                    push(vals, &n, max, v);
            }
        break;
    }
    case STEPS_LINEAR:
    case STEPS_WORDS: {
        double step = in->steps == STEPS_WORDS || !(in->step > 0) ? 1 : in->step;
        /* A step of 1/m (0.05, 0.1, 0.25) gives (j + k) / m: 0.6, not the sum of tenths. */
        double inv = 1 / step, m = round(inv);
        bool frac = m >= 1 && fabs(inv - m) < 1e-9;
        for (int k = 0; n < max; k++) {
            double v = frac ? (round(lo * m) + k) / m : lo + k * step;
            if (v > hi + step * 1e-9)
                break;
            push(vals, &n, max, whole(in) ? round(v) : v);
        }
        break;
    }
    case STEPS_MODELS:
    case STEPS_GPUS:
    case STEPS_NONE:
        break;
    }
    return n;
}

int sweep_values(const struct input *in, double from, double to, int steps, double *vals,
                 int max, char *err, size_t errlen)
{
    if (!isfinite(from) || !isfinite(to)) {
        snprintf(err, errlen, "%s has no numbers to sweep", in->key);
        return 0;
    }
    if (steps > 0)
        return even_values(in, from, to, steps, vals, max);
    if (in->steps == STEPS_NONE || in->steps == STEPS_MODELS || in->steps == STEPS_GPUS) {
        snprintf(err, errlen, "%s has no steps of its own: give --steps N", in->key);
        return 0;
    }
    double lo = fmin(from, to), hi = fmax(from, to);
    int n = own_values(in, lo, hi, vals, max);
    if (from > to)
        for (int i = 0; i < n / 2; i++) {
            double t = vals[i];
            vals[i] = vals[n - 1 - i];
            vals[n - 1 - i] = t;
        }
    if (n == 0)
        snprintf(err, errlen, "no step of %s lies between the ends: give --steps N", in->key);
    return n;
}

bool sweep_set_input(void *ctx, const struct input *knob, struct scenario *s, double v,
                     char *why, size_t n)
{
    (void)ctx;
    if (inputs_set(knob, s, v))
        return true;
    snprintf(why, n, "%.6g is out of %s's range (%.6g to %.6g%s)", v, knob->key, knob->lo,
             knob->hi, (knob->flags & INPUT_AUTO_ZERO) ? ", or 0 for auto" : "");
    return false;
}

/* A valid point's plot figures, from its training evaluation or its serving result. */
static void point_summary(struct sweep_point *p, bool serving)
{
    memset(p->part, 0, sizeof p->part);
    if (serving) {
        const struct infer_result *r = &p->ev.serving;
        p->part[MEM_PARAMS] = r->memory.weights;
        p->part[MEM_GRADS] = r->memory.kv_cache;
        p->part[MEM_ACTIVATIONS] = r->memory.activations;
        p->total = r->memory.total;
        p->usable = r->memory.usable;
        p->fits = r->memory.fits;
        p->seconds = r->tpot;
        return;
    }
    const struct memory *m = &p->ev.an.memory;
    for (int k = 0; k < MEM_COUNT; k++)
        p->part[k] = m->row[k].bytes;
    p->total = m->total;
    p->usable = m->usable;
    p->fits = m->fits;
    p->seconds = p->ev.pred.step_seconds;
}

/* One value: set, validated as the command it stands for would, evaluated. */
static void run_point(struct sweep_point *p, const struct scenario *base,
                      const struct input *knob, double v, const struct eval_input *in,
                      sweep_set_fn set, void *ctx, bool serving)
{
    struct scenario s = *base;
    p->value = v;
    p->valid = set(ctx, knob, &s, v, p->why, sizeof p->why);
    inputs_format(knob, &s, p->text, sizeof p->text);
    if (!p->valid)
        return;
    p->valid = serving ? infer_validate(&s, p->why, (int)sizeof p->why)
                       : scenario_validate(&s, p->why, (int)sizeof p->why);
    if (!p->valid)
        return;
    if (serving)
        evaluation_serve(&s, &p->ev);
    else
        evaluation_run(&s, in, &p->ev);
    point_summary(p, serving);
}

static bool run_all(struct sweep *sw, const struct scenario *base, const struct input *knob,
                    const double *vals, int n, const struct eval_input *in, sweep_set_fn set,
                    void *ctx, bool serving)
{
    memset(sw, 0, sizeof *sw);
    sw->knob = knob;
    sw->serving = serving;
    if (n <= 0)
        return true;
    sw->pts = calloc((size_t)n, sizeof *sw->pts);
    if (sw->pts == NULL)
        return false;
    sw->n = n;
    for (int i = 0; i < n; i++)
        run_point(&sw->pts[i], base, knob, vals[i], in, set != NULL ? set : sweep_set_input, ctx,
                  serving);
    return true;
}

bool sweep_run(struct sweep *sw, const struct scenario *base, const struct input *knob,
               const double *vals, int n, const struct eval_input *in, sweep_set_fn set,
               void *ctx)
{
    return run_all(sw, base, knob, vals, n, in, set, ctx, false);
}

bool sweep_serve(struct sweep *sw, const struct scenario *base, const struct input *knob,
                 const double *vals, int n, sweep_set_fn set, void *ctx)
{
    return run_all(sw, base, knob, vals, n, NULL, set, ctx, true);
}

void sweep_free(struct sweep *sw)
{
    free(sw->pts);
    sw->pts = NULL;
    sw->n = 0;
}

int sweep_crossing(const struct sweep *sw)
{
    int last_fit = -1, cross = -1;
    for (int i = 0; i < sw->n; i++) {
        const struct sweep_point *p = &sw->pts[i];
        if (!p->valid)
            continue;
        if (p->fits) {
            last_fit = i;
            if (cross >= 0)
                return -1; /* it fits again: no one crossing */
        } else if (last_fit >= 0 && cross < 0) {
            cross = i;
        }
    }
    return cross;
}

static const struct sweep_column COLUMNS[] = {
    {"memory.params", "params", SWEEP_BYTES},
    {"memory.grads", "grads", SWEEP_BYTES},
    {"memory.optimizer", "optimizer", SWEEP_BYTES},
    {"memory.master_weights", "master", SWEEP_BYTES},
    {"memory.buffers", "buffers", SWEEP_BYTES},
    {"memory.activations", "activations", SWEEP_BYTES},
    {"memory.total", "total", SWEEP_BYTES},
    {"memory.fits", "fits", SWEEP_BOOL},
    {"time.predicted.step_seconds", "step", SWEEP_SECONDS},
    {"time.mfu", "MFU", SWEEP_FRACTION},
    {"time.days", "days", SWEEP_DAYS},
    {"time.tokens_per_s", "tokens/s", SWEEP_RATE},
    {"cost.gpu_hours", "GPU-hours", SWEEP_COUNT_OF},
    {"cost.energy_kwh", "energy", SWEEP_KWH},
    {"cost.usd", "cost", SWEEP_USD},
};

/* Serving's: rooftop infer's JSON keys (src/infer_report.h). */
static const struct sweep_column SERVE_COLUMNS[] = {
    {"memory.weights", "weights", SWEEP_BYTES},
    {"memory.kv_cache", "KV cache", SWEEP_BYTES},
    {"memory.activations", "activations", SWEEP_BYTES},
    {"memory.total", "total", SWEEP_BYTES},
    {"memory.fits", "fits", SWEEP_BOOL},
    {"latency.ttft", "TTFT", SWEEP_SECONDS},
    {"latency.tpot", "TPOT", SWEEP_SECONDS},
    {"latency.end_to_end", "end to end", SWEEP_SECONDS},
    {"max_batch", "max batch", SWEEP_COUNT_OF},
    {"throughput.tokens_per_s", "tokens/s", SWEEP_RATE},
};

int sweep_columns(const struct sweep *sw, const struct sweep_column **cols)
{
    if (sw != NULL && sw->serving) {
        *cols = SERVE_COLUMNS;
        return (int)(sizeof SERVE_COLUMNS / sizeof SERVE_COLUMNS[0]);
    }
    *cols = COLUMNS;
    return (int)(sizeof COLUMNS / sizeof COLUMNS[0]);
}
