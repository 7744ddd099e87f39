/* slider.c - every visible registry input as a slider: its steps (log-spaced where values span
 * orders of magnitude, valid multiples only for GPU counts), range, value and text. Ranges,
 * grammar and text come from the registry (src/inputs.c); only the stepping is the slider's. */
#include "slider.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "units.h"

/* The registry's visible rows in order, found once: a key press asks for them hundreds of
 * times (issue 15: 528 linear scans per tp key). Found again only when the table grows (a
 * test's row: inputs_test_insert). */
static const struct input *visible[SLIDER_MAX];
static int n_visible = -1, n_rows = -1;

static void find_visible(void)
{
    if (n_rows == inputs_count())
        return;
    int k = 0;
    for (int i = 0; i < inputs_count() && k < SLIDER_MAX; i++)
        if (!(inputs_at(i)->flags & INPUT_HIDDEN))
            visible[k++] = inputs_at(i);
    n_visible = k;
    n_rows = inputs_count();
}

int slider_count(void)
{
    find_visible();
    return n_visible;
}

const struct input *slider_input(int id)
{
    find_visible();
    return id >= 0 && id < n_visible ? visible[id] : inputs_at(0);
}

int slider_id(const char *key)
{
    find_visible();
    const struct input *in = inputs_find(key);
    for (int i = 0; in != NULL && i < n_visible; i++)
        if (visible[i] == in)
            return i;
    return -1;
}

int slider_find(const char *s)
{
    for (int i = 0; s && i < slider_count(); i++) {
        const struct input *in = slider_input(i);
        char flag[64];
        inputs_flag(in, flag, sizeof flag);
        if (!strcasecmp(s, in->key) || !strcasecmp(s, in->label) || !strcasecmp(s, flag))
            return i;
    }
    return -1;
}

/* 1, 1.5, 2, 3, 5, 7 per decade: round figures that still land on the lecture's 15T, 70B. */
static int nice_steps(double lo, double hi, double *vals, int max)
{
    static const double m[] = {1, 1.5, 2, 3, 5, 7};
    int n = 0;
    for (double dec = lo; dec <= hi * 1.0001 && n < max; dec *= 10)
        for (int i = 0; i < 6 && n < max; i++) {
            double v = dec * m[i];
            if (v <= hi * 1.0001)
                vals[n++] = v;
        }
    return n;
}

static int pow2_steps(double lo, double hi, double unit, double *vals, int max)
{
    int n = 0;
    for (double v = unit; v <= hi && n < max; v *= 2)
        if (v >= lo)
            vals[n++] = v;
    return n;
}

static int linear_steps(double lo, double hi, double step, double *vals, int max)
{
    int n = 0;
    for (int i = 0; n < max; i++) {
        double v = lo + step * i;
        if (v > hi + step * 1e-6)
            break;
        vals[n++] = v;
    }
    return n;
}

static int word_count(const struct input *in)
{
    return in->words != NULL ? in->n_words : 0;
}

/* The presets a slider steps over (none: 0). */
static int preset_count(const struct presets *p, const struct input *in)
{
    return in->steps == STEPS_MODELS ? p->n_models : in->steps == STEPS_GPUS ? p->n_gpus : 0;
}

/* The row's range and steps, narrowed by the scenario where the row says so (src/rules.h). */
static struct step_bounds bounds_of(const struct input *in, const struct scenario *s)
{
    struct step_bounds b = {in->lo, in->hi, in->step_lo, in->step_hi, 1};
    if (in->flags & INPUT_AUTO_ZERO)
        b.lo = 0; /* auto */
    if (in->step_bounds != NULL)
        in->step_bounds(s, &b);
    return b;
}

/*
 * The helpers below take the row and its bounds, which the public functions find once: a
 * step found the row four times and its bounds (for the GPU count, rules_steps_gpus) twice,
 * once for its steps and again for the range slider_apply clamps to, on the same scenario.
 */
static void range_in(const struct presets *p, const struct input *in,
                     const struct step_bounds *b, double *lo, double *hi)
{
    *lo = b->lo;
    *hi = b->hi;
    switch (in->steps) {
    case STEPS_MODELS:
    case STEPS_GPUS:
        *lo = 0;
        *hi = preset_count(p, in) > 0 ? preset_count(p, in) - 1 : 0;
        break;
    case STEPS_WORDS:
        *lo = 0;
        *hi = word_count(in) > 0 ? word_count(in) - 1 : 0;
        break;
    default:
        break;
    }
}

void slider_range(const struct presets *p, const struct scenario *s, int id,
                  double *lo, double *hi)
{
    const struct input *in = slider_input(id);
    struct step_bounds b = bounds_of(in, s);
    range_in(p, in, &b, lo, hi);
}

/* Sorts vals ascending and drops repeats (the params ladder merges two lists). */
static int sort_unique(double *vals, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && vals[j - 1] > vals[j]; j--) {
            double t = vals[j];
            vals[j] = vals[j - 1];
            vals[j - 1] = t;
        }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || vals[i] != vals[k - 1])
            vals[k++] = vals[i];
    return k;
}

/* A preset or a model file, not a custom size. */
static bool model_named(const struct scenario *s)
{
    return s->model.id[0] && strcmp(s->model.id, "custom") != 0 && s->model.exact_params == 0;
}

/*
 * The size slider of a named model steps through its family's presets (llama3.1-8b, -70b,
 * -405b), never into another family's (llama3.1-70b's next size up by count is qwen2.5-72b)
 * nor into a custom shape (which is another architecture too): a family's sizes are
 * published configurations, where scaling one would invent a model (how many experts, which
 * latent ranks). Typing a size gives a custom model of that size.
 */
static int family_steps(const struct presets *p, const struct input *in,
                        const struct scenario *s, double *vals, int max)
{
    int n = 0;
    for (int k = 0; k < p->n_models && n < max; k++)
        if (presets_same_family(p->models[k].arch.id, s->model.id))
            vals[n++] = p->models[k].params;
    if (n == 0 && max > 0)
        vals[n++] = inputs_get(in, s);
    return sort_unique(vals, n);
}

static int steps_in(const struct presets *p, const struct input *in, const struct scenario *s,
                    const struct step_bounds *bounds, double *vals, int max)
{
    const struct step_bounds b = *bounds;
    int n = 0;
    switch (in->steps) {
    case STEPS_MODELS:
    case STEPS_GPUS:
        n = linear_steps(0, preset_count(p, in) > 0 ? preset_count(p, in) - 1 : 0, 1, vals, max);
        break;
    case STEPS_WORDS:
        n = linear_steps(0, word_count(in) > 0 ? word_count(in) - 1 : 0, 1, vals, max);
        break;
    case STEPS_LINEAR:
        n = linear_steps(b.step_lo, b.step_hi, in->step, vals, max);
        break;
    case STEPS_SIZES:
        if (model_named(s)) {
            n = family_steps(p, in, s, vals, max);
            break;
        }
        /* A custom size steps as any large quantity. */
        /* fall through */
    case STEPS_NICE:
        n = nice_steps(b.step_lo, b.step_hi, vals, max);
        break;
    case STEPS_POW2:
        if (in->flags & INPUT_AUTO_ZERO)
            vals[n++] = 0; /* auto first (the micro-batch: batch / data-parallel ranks) */
        n += pow2_steps(b.step_lo, b.step_hi, b.unit, vals + n, max - n);
        break;
    case STEPS_NONE:
        break;
    }
    if (n == 0)
        vals[n++] = 0;
    return n;
}

int slider_steps(const struct presets *p, const struct scenario *s, int id, double *vals,
                 int max)
{
    const struct input *in = slider_input(id);
    struct step_bounds b = bounds_of(in, s);
    return steps_in(p, in, s, &b, vals, max);
}

static double value_in(const struct presets *p, const struct input *in, const struct scenario *s)
{
    if (in->steps == STEPS_GPUS) {
        int i = presets_gpu_index(p, s->gpu.id);
        return i < 0 ? 0 : i;
    }
    if (in->steps != STEPS_MODELS)
        return inputs_get(in, s);
    int i = presets_model_index(p, s->model.id);
    if (i >= 0 || p->n_models == 0)
        return i < 0 ? 0 : i;
    /* A custom size sits between the presets around it, on a log scale. */
    struct param_counts pc;
    model_params(&s->model, &pc);
    double n = (double)pc.total;
    if (n <= p->models[0].params)
        return 0;
    for (int k = 1; k < p->n_models; k++) {
        double a = p->models[k - 1].params, b = p->models[k].params;
        if (n <= b) {
            double f = b > a ? log(n / a) / log(b / a) : 0;
            return (k - 1) + (f < 0 ? 0 : f > 1 ? 1 : f);
        }
    }
    return p->n_models - 1;
}

double slider_value(const struct presets *p, const struct scenario *s, int id)
{
    return value_in(p, slider_input(id), s);
}

static bool is_log(const struct input *in)
{
    return in->steps == STEPS_NICE || in->steps == STEPS_POW2 || in->steps == STEPS_SIZES;
}

double slider_position(const struct presets *p, const struct scenario *s, int id)
{
    const struct input *in = slider_input(id);
    const struct step_bounds bounds = bounds_of(in, s);
    double vals[SLIDER_MAX_STEPS];
    int n = steps_in(p, in, s, &bounds, vals, SLIDER_MAX_STEPS);
    double v = value_in(p, in, s);
    if (n < 2 || !(v > vals[0]))
        return 0;
    if (v >= vals[n - 1])
        return 1;
    int k = 1;
    while (k < n - 1 && vals[k] < v)
        k++;
    double a = vals[k - 1], b = vals[k], f;
    if (is_log(in) && a > 0)
        f = log(v / a) / log(b / a);
    else
        f = (v - a) / (b - a);
    return ((k - 1) + f) / (n - 1);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* v, clamped to [lo, hi] (the row's range on s), applied to s. */
static bool apply_in(const struct presets *p, struct scenario *s, const struct input *in,
                     double v, double lo, double hi)
{
    if (!(v == v))
        return false;
    v = clampd(v, lo, hi);
    if (in->steps == STEPS_MODELS || in->steps == STEPS_GPUS) {
        if (preset_count(p, in) == 0)
            return false;
        int i = (int)llround(v);
        if (in->steps == STEPS_MODELS)
            s->model = p->models[i].arch;
        else
            s->gpu = p->gpus[i];
        return true;
    }
    if (in->steps == STEPS_SIZES && model_named(s)) {
        /* A family's size is that preset (the current one when two share it). */
        v = round(v);
        if (inputs_get(in, s) == v)
            return true;
        for (int k = 0; k < p->n_models; k++) {
            if (p->models[k].params == v && presets_same_family(p->models[k].arch.id, s->model.id)) {
                s->model = p->models[k].arch;
                return true;
            }
        }
    }
    if (in->kind == INPUT_COUNT || in->kind == INPUT_ENUM || in->kind == INPUT_ONOFF)
        v = (double)llround(v);
    return inputs_set(in, s, v);
}

bool slider_apply(const struct presets *p, struct scenario *s, int id, double v)
{
    const struct input *in = slider_input(id);
    struct step_bounds b = bounds_of(in, s);
    double lo = 0, hi = 0;
    range_in(p, in, &b, &lo, &hi);
    return apply_in(p, s, in, v, lo, hi);
}

bool slider_step(const struct presets *p, struct scenario *s, int id, int delta)
{
    const struct input *in = slider_input(id);
    const struct step_bounds b = bounds_of(in, s);
    double vals[SLIDER_MAX_STEPS];
    int n = steps_in(p, in, s, &b, vals, SLIDER_MAX_STEPS);
    double v = value_in(p, in, s);
    /* Off-grid values (typed, or a custom model size) move to the next step past them. */
    double eps = fabs(v) * 1e-9 + 1e-12;
    int k;
    if (delta > 0) {
        int i = 0;
        while (i < n && vals[i] <= v + eps)
            i++;
        if (i == n)
            return false;
        k = i + delta - 1 < n - 1 ? i + delta - 1 : n - 1;
    } else if (delta < 0) {
        int i = n - 1;
        while (i >= 0 && vals[i] >= v - eps)
            i--;
        if (i < 0)
            return false;
        k = i + delta + 1 > 0 ? i + delta + 1 : 0;
    } else {
        return false;
    }
    double lo = 0, hi = 0;
    range_in(p, in, &b, &lo, &hi);
    return apply_in(p, s, in, vals[k], lo, hi);
}

bool slider_set_position(const struct presets *p, struct scenario *s, int id,
                         double frac)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(p, s, id, vals, SLIDER_MAX_STEPS);
    if (!(frac == frac))
        return false;
    frac = clampd(frac, 0, 1);
    int k = (int)lround(frac * (n - 1));
    return slider_apply(p, s, id, vals[k]);
}

bool slider_set_end(const struct presets *p, struct scenario *s, int id, bool top)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(p, s, id, vals, SLIDER_MAX_STEPS);
    return slider_apply(p, s, id, top ? vals[n - 1] : vals[0]);
}

bool slider_parse(const struct presets *p, struct scenario *s, int id,
                  const char *text, char *err, size_t errlen)
{
    (void)p;
    const struct input *in = slider_input(id);
    char t[512];
    /* Trim blanks around the text. */
    while (isspace((unsigned char)*text))
        text++;
    snprintf(t, sizeof t, "%s", text);
    for (size_t l = strlen(t); l > 0 && isspace((unsigned char)t[l - 1]); l--)
        t[l - 1] = '\0';
    err[0] = '\0';
    if (!t[0]) {
        snprintf(err, errlen, "%s: no value typed", in->label);
        return false;
    }
    char sub[256];
    if (!inputs_parse(in, s, t, sub, sizeof sub)) {
        snprintf(err, errlen, "%s: %s", in->label, sub);
        return false;
    }
    return true;
}

void slider_format(const struct presets *p, const struct scenario *s, int id,
                   char *buf, size_t n)
{
    (void)p;
    /* A named model's size as every other place gives it (70.6B), not its exact count. */
    if (slider_input(id)->steps == STEPS_SIZES && model_named(s)) {
        units_count(inputs_get(slider_input(id), s), buf, n);
        return;
    }
    inputs_display(slider_input(id), s, buf, n, SLIDER_VALUE_W);
}

bool slider_in_range(const struct presets *p, const struct scenario *s, int id)
{
    const struct input *in = slider_input(id);
    const struct step_bounds b = bounds_of(in, s);
    double lo = 0, hi = 0;
    range_in(p, in, &b, &lo, &hi);
    double v = value_in(p, in, s);
    return v == v && v >= lo - 1e-9 && v <= hi + 1e-9;
}
