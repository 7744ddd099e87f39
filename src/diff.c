/* diff.c - two evaluations compared input by input and figure by figure (diff.h). */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cost.h"
#include "inputs.h"
#include "units.h"

static const char *const SECTIONS[] = {"parallel", "params", "memory", "flops",
                                       "time",     "cost",   "roofline"};

/* The inputs whose text differs; a model's own fields only when the model is the same. */
static bool diff_inputs(const struct scenario *a, const struct scenario *b, struct diff *d)
{
    d->inputs = calloc((size_t)inputs_count(), sizeof *d->inputs);
    if (d->inputs == NULL)
        return false;
    char ma[DIFF_TEXT_MAX], mb[DIFF_TEXT_MAX];
    const struct input *model = inputs_find("model");
    inputs_format(model, a, ma, sizeof ma);
    inputs_format(model, b, mb, sizeof mb);
    bool same_model = strcmp(ma, mb) == 0;
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        if ((in->flags & INPUT_MODEL_FIELD) && !same_model)
            continue;
        if (strcmp(in->key, "name") == 0)
            continue;
        struct diff_input *di = &d->inputs[d->n_inputs];
        inputs_format(in, a, di->a, sizeof di->a);
        inputs_format(in, b, di->b, sizeof di->b);
        if (strcmp(di->a, di->b) != 0) {
            di->in = in;
            d->n_inputs++;
        }
    }
    return true;
}

/* Adds every number and boolean under node (prefix its key) from side a or b. */
static bool walk(const cJSON *node, const char *prefix, bool side_b, struct diff *d, int *cap)
{
    for (const cJSON *c = node->child; c != NULL; c = c->next) {
        if (c->string == NULL || cJSON_IsArray(c))
            continue;
        char key[DIFF_KEY_MAX];
        snprintf(key, sizeof key, "%s.%s", prefix, c->string);
        if (cJSON_IsObject(c)) {
            if (!walk(c, key, side_b, d, cap))
                return false;
            continue;
        }
        if (!cJSON_IsNumber(c) && !cJSON_IsBool(c) && !cJSON_IsNull(c))
            continue;
        struct diff_figure *f = NULL;
        for (int i = 0; side_b && i < d->n_figures && f == NULL; i++)
            if (strcmp(d->figures[i].key, key) == 0)
                f = &d->figures[i];
        if (f == NULL) {
            if (d->n_figures == *cap) {
                int nc = *cap > 0 ? *cap * 2 : 256;
                struct diff_figure *g = realloc(d->figures, (size_t)nc * sizeof *g);
                if (g == NULL)
                    return false;
                d->figures = g;
                *cap = nc;
            }
            f = &d->figures[d->n_figures++];
            memset(f, 0, sizeof *f);
            snprintf(f->key, sizeof f->key, "%s", key);
        }
        bool have = !cJSON_IsNull(c);
        double v = cJSON_IsBool(c) ? (cJSON_IsTrue(c) ? 1 : 0) : have ? c->valuedouble : 0;
        f->is_bool = f->is_bool || cJSON_IsBool(c);
        if (side_b) {
            f->have_b = have;
            f->b = v;
        } else {
            f->have_a = have;
            f->a = v;
        }
    }
    return true;
}

bool diff_run(const struct evaluation *a, const struct evaluation *b, struct diff *out)
{
    memset(out, 0, sizeof *out);
    cJSON *ja = report_json_of(a), *jb = report_json_of(b);
    int cap = 0;
    bool ok = ja != NULL && jb != NULL && diff_inputs(&a->sc, &b->sc, out);
    for (size_t s = 0; ok && s < sizeof SECTIONS / sizeof SECTIONS[0]; s++) {
        const cJSON *sa = cJSON_GetObjectItemCaseSensitive(ja, SECTIONS[s]);
        const cJSON *sb = cJSON_GetObjectItemCaseSensitive(jb, SECTIONS[s]);
        ok = (sa == NULL || walk(sa, SECTIONS[s], false, out, &cap)) &&
             (sb == NULL || walk(sb, SECTIONS[s], true, out, &cap));
    }
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    if (!ok)
        diff_free(out);
    return ok;
}

void diff_free(struct diff *d)
{
    free(d->inputs);
    free(d->figures);
    memset(d, 0, sizeof *d);
}

bool diff_input_differs(const struct diff *d, const char *key)
{
    for (int i = 0; i < d->n_inputs; i++)
        if (strcmp(d->inputs[i].in->key, key) == 0)
            return true;
    return false;
}

const struct diff_figure *diff_find(const struct diff *d, const char *key)
{
    for (int i = 0; i < d->n_figures; i++)
        if (strcmp(d->figures[i].key, key) == 0)
            return &d->figures[i];
    return NULL;
}

static bool differs(const struct diff_figure *f)
{
    return f->have_a != f->have_b || (f->have_a && f->a != f->b);
}

/* A figure in the units its key names. */
void diff_figure_text(const char *key, bool is_bool, bool have, double v, char *buf, size_t n)
{
    if (!have)
        snprintf(buf, n, "-");
    else if (is_bool)
        snprintf(buf, n, "%s", v != 0 ? "yes" : "no");
    else if (strncmp(key, "memory.", 7) == 0 && strstr(key, "in_flight") == NULL &&
             strstr(key, ".index") == NULL && strstr(key, ".stages") == NULL &&
             strstr(key, ".layers") == NULL)
        units_bytes(v, buf, n);
    else if (strstr(key, "seconds") != NULL || strstr(key, ".breakdown.") != NULL)
        units_duration(fabs(v), buf, n);
    else if (strcmp(key, "cost.usd") == 0)
        cost_usd_text(fabs(v), buf, n);
    else if (strcmp(key, "cost.energy_kwh") == 0)
        cost_energy_text(fabs(v), buf, n);
    else if (fabs(v) < 1000 && floor(v) != v)
        snprintf(buf, n, "%.4g", fabs(v));
    else
        units_count(fabs(v), buf, n);
    if (have && !is_bool && v < 0 && n > 1 && strstr(key, "memory.") != key) {
        char t[64];
        snprintf(t, sizeof t, "-%s", buf);
        snprintf(buf, n, "%s", t);
    }
}

void diff_delta_text(const struct diff_figure *g, char *delta, size_t n, char *pct, size_t pn)
{
    delta[0] = pct[0] = '\0';
    if (g->is_bool || !g->have_a || !g->have_b)
        return;
    double dl = g->b - g->a;
    char m[48];
    diff_figure_text(g->key, false, true, fabs(dl), m, sizeof m);
    snprintf(delta, n, "%c%s", dl < 0 ? '-' : '+', m);
    if (g->a != 0)
        snprintf(pct, pn, "%+.1f%%", 100.0 * dl / fabs(g->a));
}

static bool write_text(FILE *f, const struct diff *d, const char *ta, const char *tb, bool md)
{
    if (md)
        fprintf(f, "# A: %s\n\n# B: %s\n\n## Inputs that differ\n\n| input | A | B |\n"
                   "|---|---|---|\n",
                ta, tb);
    else
        fprintf(f, "A: %s\nB: %s\n\nInputs that differ\n", ta, tb);
    for (int i = 0; i < d->n_inputs; i++)
        fprintf(f, md ? "| %s | %s | %s |\n" : "  %-18s %14s -> %s\n", d->inputs[i].in->key,
                d->inputs[i].a, d->inputs[i].b);
    if (d->n_inputs == 0)
        fputs(md ? "| (none) | | |\n" : "  none\n", f);
    fputs(md ? "\n## Figures that differ (B - A)\n\n| figure | A | B | B - A | change |\n"
               "|---|---:|---:|---:|---:|\n"
             : "\nFigures that differ (B - A)\n",
          f);
    int shown = 0;
    for (int i = 0; i < d->n_figures; i++) {
        const struct diff_figure *g = &d->figures[i];
        if (!differs(g))
            continue;
        char a[48], b[48], dl[48], pc[32];
        diff_figure_text(g->key, g->is_bool, g->have_a, g->a, a, sizeof a);
        diff_figure_text(g->key, g->is_bool, g->have_b, g->b, b, sizeof b);
        diff_delta_text(g, dl, sizeof dl, pc, sizeof pc);
        fprintf(f, md ? "| %s | %s | %s | %s | %s |\n" : "  %-36s %12s %12s %12s %9s\n", g->key,
                a, b, dl, pc);
        shown++;
    }
    fprintf(f, md ? "\n%d of %d figures differ.\n" : "  (%d of %d figures differ)\n", shown,
            d->n_figures);
    return !ferror(f);
}

/* One side of a figure as CSV: the number, true/false, or nothing for null. */
static void csv_value(FILE *f, const struct diff_figure *g, bool have, double v)
{
    if (!have)
        return;
    if (g->is_bool)
        fputs(v != 0 ? "true" : "false", f);
    else
        fprintf(f, "%.17g", v);
}

static bool write_csv(FILE *f, const struct diff *d)
{
    fputs("kind,key,a,b,delta\n", f);
    for (int i = 0; i < d->n_inputs; i++)
        fprintf(f, "input,%s,\"%s\",\"%s\",\n", d->inputs[i].in->key, d->inputs[i].a,
                d->inputs[i].b);
    for (int i = 0; i < d->n_figures; i++) {
        const struct diff_figure *g = &d->figures[i];
        fprintf(f, "figure,%s,", g->key);
        csv_value(f, g, g->have_a, g->a);
        fputc(',', f);
        csv_value(f, g, g->have_b, g->b);
        fputc(',', f);
        if (!g->is_bool && g->have_a && g->have_b)
            fprintf(f, "%.17g", g->b - g->a);
        fputc('\n', f);
    }
    return !ferror(f);
}

/* One side of a figure as JSON: a number, a boolean or null. */
static cJSON *json_value(const struct diff_figure *g, bool have, double v)
{
    if (!have)
        return cJSON_CreateNull();
    return g->is_bool ? cJSON_CreateBool(v != 0) : cJSON_CreateNumber(v);
}

static bool add(cJSON *o, const char *k, cJSON *v)
{
    if (v == NULL || !cJSON_AddItemToObject(o, k, v)) {
        cJSON_Delete(v);
        return false;
    }
    return true;
}

static bool write_json(FILE *f, const struct diff *d, const char *ta, const char *tb)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *ins = root != NULL ? cJSON_AddArrayToObject(root, "inputs") : NULL;
    cJSON *figs = ins != NULL ? cJSON_AddArrayToObject(root, "figures") : NULL;
    bool ok = figs != NULL && cJSON_AddStringToObject(root, "a", ta) != NULL &&
              cJSON_AddStringToObject(root, "b", tb) != NULL;
    for (int i = 0; ok && i < d->n_inputs; i++) {
        cJSON *o = cJSON_CreateObject();
        ok = o != NULL && cJSON_AddItemToArray(ins, o) &&
             cJSON_AddStringToObject(o, "key", d->inputs[i].in->key) != NULL &&
             cJSON_AddStringToObject(o, "a", d->inputs[i].a) != NULL &&
             cJSON_AddStringToObject(o, "b", d->inputs[i].b) != NULL;
    }
    for (int i = 0; ok && i < d->n_figures; i++) {
        const struct diff_figure *g = &d->figures[i];
        cJSON *o = cJSON_CreateObject();
        bool delta = !g->is_bool && g->have_a && g->have_b;
        ok = o != NULL && cJSON_AddItemToArray(figs, o) &&
             cJSON_AddStringToObject(o, "key", g->key) != NULL &&
             add(o, "a", json_value(g, g->have_a, g->a)) &&
             add(o, "b", json_value(g, g->have_b, g->b)) &&
             add(o, "delta", delta ? cJSON_CreateNumber(g->b - g->a) : cJSON_CreateNull());
    }
    if (!ok) {
        cJSON_Delete(root);
        return false;
    }
    return report_print_json(f, root);
}

bool diff_write(FILE *f, const struct diff *d, const char *title_a, const char *title_b,
                enum report_format fmt)
{
    switch (fmt) {
    case REPORT_TEXT:
        return write_text(f, d, title_a, title_b, false);
    case REPORT_MD:
        return write_text(f, d, title_a, title_b, true);
    case REPORT_CSV:
        return write_csv(f, d);
    case REPORT_JSON:
        return write_json(f, d, title_a, title_b);
    }
    return false;
}
