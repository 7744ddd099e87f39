/* sweep_report.c - a sweep's table in text, JSON, CSV and Markdown (sweep_report.h). */
#include "sweep_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cost.h"
#include "infer_report.h"
#include "sweep_plot.h"
#include "units.h"

/* A number or boolean figure of root; false when absent or null. */
static bool json_figure(const cJSON *root, const char *key, double *v, bool *is_bool)
{
    const cJSON *o = report_json_at(root, key);
    *is_bool = cJSON_IsBool(o);
    if (cJSON_IsNumber(o))
        *v = o->valuedouble;
    else if (*is_bool)
        *v = cJSON_IsTrue(o) ? 1 : 0;
    else
        return false;
    return true;
}

/* The JSON of a valid point: report's, or rooftop infer's for a serving sweep. */
static cJSON *point_json(const struct sweep *sw, const struct sweep_point *p)
{
    return sw->serving ? infer_report_json(&p->ev.sc, &p->ev.serving) : report_json_of(&p->ev);
}

bool sweep_figure(const struct sweep *sw, const struct sweep_point *p, const char *key,
                  double *v, bool *is_bool)
{
    *is_bool = false;
    if (!p->valid)
        return false;
    cJSON *root = point_json(sw, p);
    bool ok = root != NULL && json_figure(root, key, v, is_bool);
    cJSON_Delete(root);
    return ok;
}

/* The JSON of every valid point (NULL for an invalid one); false when out of memory. */
static bool point_jsons(const struct sweep *sw, cJSON **out)
{
    for (int i = 0; i < sw->n; i++) {
        out[i] = NULL;
        if (sw->pts[i].valid && (out[i] = point_json(sw, &sw->pts[i])) == NULL) {
            for (int k = 0; k < i; k++)
                cJSON_Delete(out[k]);
            return false;
        }
    }
    return true;
}

static void free_jsons(cJSON **j, int n)
{
    for (int i = 0; i < n; i++)
        cJSON_Delete(j[i]);
}

/* A figure as a table cell ("-" for none). */
static void cell(const cJSON *root, const struct sweep_column *c, char *buf, size_t n)
{
    double v;
    bool b;
    if (root == NULL || !json_figure(root, c->key, &v, &b)) {
        snprintf(buf, n, "-");
        return;
    }
    switch (c->kind) {
    case SWEEP_BYTES: units_bytes(v, buf, n); break;
    case SWEEP_BOOL: snprintf(buf, n, "%s", v != 0 ? "yes" : "no"); break;
    case SWEEP_SECONDS: units_duration(v, buf, n); break;
    case SWEEP_FRACTION: snprintf(buf, n, "%.3g", v); break;
    case SWEEP_DAYS: snprintf(buf, n, "%.1f", v); break;
    case SWEEP_RATE:
    case SWEEP_COUNT_OF: units_count(v, buf, n); break;
    case SWEEP_KWH: cost_energy_text(v, buf, n); break;
    case SWEEP_USD: cost_usd_text(v, buf, n); break;
    }
}

/* Columns worth a text table's width: the memory rows that are non-zero somewhere. */
static bool column_shown(const cJSON *const *j, int n, const struct sweep_column *c)
{
    if (c->kind != SWEEP_BYTES && c->kind != SWEEP_USD && c->kind != SWEEP_KWH)
        return true;
    for (int i = 0; i < n; i++) {
        double v;
        bool b;
        if (j[i] != NULL && json_figure(j[i], c->key, &v, &b) && v != 0)
            return true;
    }
    return false;
}

static bool write_table(FILE *f, const struct sweep *sw, cJSON **j, bool md)
{
    const struct sweep_column *cols;
    int nc = sweep_columns(sw, &cols);
    bool shown[32];
    for (int c = 0; c < nc && c < 32; c++)
        shown[c] = column_shown((const cJSON *const *)j, sw->n, &cols[c]);
    const char *sep = md ? " | " : " ";
    fprintf(f, md ? "| %s" : "  %-10s", sw->knob->key);
    for (int c = 0; c < nc; c++)
        if (shown[c])
            fprintf(f, md ? "%s%s" : "%s%10s", sep, cols[c].label);
    fputs(md ? " |\n|---" : "\n", f);
    for (int c = 0; md && c < nc; c++)
        if (shown[c])
            fputs("|---:", f);
    if (md)
        fputs("|\n", f);
    for (int i = 0; i < sw->n; i++) {
        const struct sweep_point *p = &sw->pts[i];
        fprintf(f, md ? "| %s" : "  %-10s", p->text);
        if (!p->valid) {
            fprintf(f, md ? " | invalid: %s |\n" : "  invalid: %s\n", p->why);
            continue;
        }
        for (int c = 0; c < nc; c++) {
            if (!shown[c])
                continue;
            char b[48];
            cell(j[i], &cols[c], b, sizeof b);
            fprintf(f, md ? "%s%s" : "%s%10s", sep, b);
        }
        fputs(md ? " |\n" : "\n", f);
    }
    return !ferror(f);
}

static bool write_csv(FILE *f, const struct sweep *sw, cJSON **j)
{
    const struct sweep_column *cols;
    int nc = sweep_columns(sw, &cols);
    fputs("value,text,valid", f);
    for (int c = 0; c < nc; c++)
        fprintf(f, ",%s", cols[c].key);
    fputs(",error\n", f);
    for (int i = 0; i < sw->n; i++) {
        const struct sweep_point *p = &sw->pts[i];
        fprintf(f, "%.17g,%s,%s", p->value, p->text, p->valid ? "true" : "false");
        for (int c = 0; c < nc; c++) {
            double v;
            bool b;
            if (j[i] != NULL && json_figure(j[i], cols[c].key, &v, &b)) {
                if (b)
                    fprintf(f, ",%s", v != 0 ? "true" : "false");
                else
                    fprintf(f, ",%.17g", v);
            } else {
                fputc(',', f);
            }
        }
        /* The refusal, quoted (it may hold commas), its quotes doubled. */
        fputs(",\"", f);
        for (const char *c = p->valid ? "" : p->why; *c; c++) {
            if (*c == '"')
                fputc('"', f);
            fputc(*c, f);
        }
        fputs("\"\n", f);
    }
    return !ferror(f);
}

/* One row's object: its value, and report's sections but the scenario and ops. */
static cJSON *json_row(const struct sweep_point *p, cJSON *rep)
{
    cJSON *r = cJSON_CreateObject();
    if (r == NULL)
        return NULL;
    bool ok = cJSON_AddNumberToObject(r, "value", p->value) != NULL &&
              cJSON_AddStringToObject(r, "text", p->text) != NULL &&
              cJSON_AddBoolToObject(r, "valid", p->valid) != NULL;
    if (ok && !p->valid)
        ok = cJSON_AddStringToObject(r, "error", p->why) != NULL;
    if (ok && rep != NULL) {
        cJSON_DeleteItemFromObjectCaseSensitive(rep, "scenario");
        cJSON_DeleteItemFromObjectCaseSensitive(rep, "ops");
        cJSON_DeleteItemFromObjectCaseSensitive(rep, "measured");
        while (ok && rep->child != NULL) {
            cJSON *sec = cJSON_DetachItemViaPointer(rep, rep->child);
            ok = cJSON_AddItemToObject(r, sec->string, sec);
            if (!ok)
                cJSON_Delete(sec);
        }
    }
    if (!ok) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

static bool write_json(FILE *f, const struct sweep *sw, cJSON **j)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *rows = root != NULL ? cJSON_AddArrayToObject(root, "rows") : NULL;
    bool ok = rows != NULL && cJSON_AddStringToObject(root, "knob", sw->knob->key) != NULL;
    int cross = sweep_crossing(sw);
    if (ok && cross >= 0) {
        cJSON *c = cJSON_AddObjectToObject(root, "crossing");
        ok = c != NULL && cJSON_AddNumberToObject(c, "value", sw->pts[cross].value) != NULL &&
             cJSON_AddStringToObject(c, "text", sw->pts[cross].text) != NULL &&
             cJSON_AddNumberToObject(c, "index", cross) != NULL;
    } else if (ok) {
        ok = cJSON_AddNullToObject(root, "crossing") != NULL;
    }
    for (int i = 0; ok && i < sw->n; i++) {
        cJSON *r = json_row(&sw->pts[i], j[i]);
        ok = r != NULL && cJSON_AddItemToArray(rows, r);
        if (!ok)
            cJSON_Delete(r);
    }
    if (!ok) {
        cJSON_Delete(root);
        return false;
    }
    return report_print_json(f, root);
}

bool sweep_report_write(FILE *f, const struct sweep *sw, const char *title,
                        enum report_format fmt, int w, int h, bool utf8)
{
    cJSON **j = calloc((size_t)(sw->n > 0 ? sw->n : 1), sizeof *j);
    if (j == NULL || !point_jsons(sw, j)) {
        free(j);
        return false;
    }
    bool ok = false;
    char line[256];
    switch (fmt) {
    case REPORT_TEXT:
        fprintf(f, "%s\n", title);
        ok = sweep_plot_write_text(f, sw, w, h, utf8);
        fputc('\n', f);
        ok = ok && write_table(f, sw, j, false);
        break;
    case REPORT_MD:
        fputs("# ", f);
        fputs(title, f);
        sweep_plot_crossing(sw, line, sizeof line);
        fprintf(f, "\n\n%s.\n\n", line);
        ok = write_table(f, sw, j, true);
        break;
    case REPORT_CSV:
        ok = write_csv(f, sw, j);
        break;
    case REPORT_JSON:
        ok = write_json(f, sw, j);
        break;
    }
    free_jsons(j, sw->n);
    free(j);
    return ok && !ferror(f);
}
