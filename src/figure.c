/* figure.c - the four writers that walk a table of figures (figure.h). */
#include "figure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cost.h"
#include "units.h"

/* ---- values ----------------------------------------------------------------------------- */

void figure_num(struct figure_value *v, double x)
{
    v->kind = FK_NUM;
    v->num = x;
}

void figure_bool(struct figure_value *v, bool b)
{
    v->kind = FK_BOOL;
    v->b = b;
}

void figure_str(struct figure_value *v, const char *s)
{
    v->kind = FK_STR;
    v->str = s != NULL ? s : "";
}

void figure_null(struct figure_value *v)
{
    v->kind = FK_NULL;
}

double figure_double_at(const void *base, int off)
{
    double v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}

int64_t figure_i64_at(const void *base, int off)
{
    int64_t v;
    memcpy(&v, (const char *)base + off, sizeof v);
    return v;
}

void figure_get_double(const void *ctx, int item, int arg, struct figure_value *v)
{
    (void)item;
    figure_num(v, figure_double_at(ctx, arg));
}

static const char *const UNIT_NAMES[FU_COUNT_OF_UNITS] = {
    [FU_NONE] = "", [FU_BYTES] = "bytes", [FU_PARAMS] = "parameters", [FU_COUNT] = "",
    [FU_STEPS] = "steps", [FU_TOKENS] = "tokens", [FU_SEQUENCES] = "sequences",
    [FU_LAYERS] = "layers", [FU_FLOP] = "FLOP", [FU_SECONDS] = "s", [FU_DAYS] = "days",
    [FU_FRACTION] = "fraction", [FU_PERCENT] = "%", [FU_SHARE] = "%", [FU_FLOP_RATE] = "FLOP/s",
    [FU_BANDWIDTH] = "B/s", [FU_INTENSITY] = "FLOP/byte", [FU_TOKENS_S] = "tokens/s",
    [FU_GPU_HOURS] = "GPU-hours", [FU_KWH] = "kWh", [FU_USD] = "USD",
    [FU_USD_PER_GPU_HOUR] = "USD/GPU-hour", [FU_WATTS] = "W", [FU_INT] = "", [FU_TIMES] = "times"};

const char *figure_unit_name(enum figure_unit u)
{
    return (int)u >= 0 && u < FU_COUNT_OF_UNITS && UNIT_NAMES[u] != NULL ? UNIT_NAMES[u] : "";
}

static double fin(double v)
{
    return isfinite(v) ? v : 0.0;
}

/* A number in its unit, as text shows it; brief: as a panel's phrase does (figure.h). */
static void format_num(enum figure_unit u, double x, bool brief, char *buf, size_t n)
{
    x = fin(x);
    switch (u) {
    case FU_BYTES:
        units_bytes(x, buf, n);
        return;
    case FU_PARAMS: {
        char c[32];
        units_count(x, c, sizeof c);
        if (brief)
            snprintf(buf, n, "%s", c);
        else
            snprintf(buf, n, "%s (%.0f)", c, x);
        return;
    }
    case FU_COUNT:
    case FU_STEPS:
    case FU_TOKENS:
    case FU_TOKENS_S:
    case FU_GPU_HOURS:
        units_count(x, buf, n);
        return;
    case FU_FLOP:
        units_sci(x, buf, n);
        return;
    case FU_SECONDS:
        units_duration(x, buf, n);
        return;
    case FU_DAYS:
        snprintf(buf, n, "%.1f", x);
        return;
    case FU_PERCENT:
        snprintf(buf, n, "%+.1f%%", x);
        return;
    case FU_SHARE:
        snprintf(buf, n, brief ? "%.0f%%" : "%.1f%%", x);
        return;
    case FU_FLOP_RATE:
        units_flops_rate(x, buf, n);
        return;
    case FU_BANDWIDTH:
        units_bandwidth(x, buf, n);
        return;
    case FU_INTENSITY:
        units_plain(x, buf, n);
        return;
    case FU_KWH:
        cost_energy_text(x, buf, n);
        return;
    case FU_USD:
        cost_usd_text(x, buf, n);
        return;
    case FU_USD_PER_GPU_HOUR:
        snprintf(buf, n, "$%.4g", x);
        return;
    case FU_WATTS:
        snprintf(buf, n, "%.0f W", x);
        return;
    case FU_SEQUENCES:
    case FU_LAYERS:
    case FU_INT:
        snprintf(buf, n, "%.0f", x);
        return;
    case FU_TIMES:
        snprintf(buf, n, brief ? "%.1f" : "%.1fx", x);
        return;
    case FU_FRACTION:
        snprintf(buf, n, brief ? "%.2g" : "%.3g", x);
        return;
    case FU_NONE:
    case FU_COUNT_OF_UNITS:
        break;
    }
    snprintf(buf, n, "%.3g", x);
}

static void format_value(const struct figure *fig, const struct figure_value *v, bool brief,
                         char *buf, size_t n)
{
    if (v->text != NULL) {
        snprintf(buf, n, "%s", v->text);
        return;
    }
    switch (v->kind) {
    case FK_NUM:
        format_num(fig->unit, v->num, brief, buf, n);
        return;
    case FK_BOOL:
        snprintf(buf, n, "%s", v->b ? "yes" : "no");
        return;
    case FK_STR:
        snprintf(buf, n, "%s", v->str);
        return;
    case FK_NULL:
        break;
    }
    snprintf(buf, n, "-");
}

void figure_format(const struct figure *fig, const struct figure_value *v, char *buf, size_t n)
{
    format_value(fig, v, false, buf, n);
}

void figure_format_brief(const struct figure *fig, const struct figure_value *v, char *buf,
                         size_t n)
{
    format_value(fig, v, true, buf, n);
}

/* ---- walking ---------------------------------------------------------------------------- */

static unsigned outputs(const struct figure *f)
{
    return f->out != 0 ? f->out : FO_ALL;
}

static bool shown(const struct figure *f, const void *ctx, int item, unsigned out)
{
    if ((outputs(f) & out) == 0)
        return false;
    if (f->when != NULL && !f->when(ctx, item, f->arg))
        return false;
    if ((out & FO_PROSE) && f->prose_when != NULL && !f->prose_when(ctx, item, f->arg))
        return false;
    return true;
}

/* Whether an entry appears in out at all: a list's when and prose_when choose its items, and
 * asked of item -1 whether it is there at all (as a column's are, for the header). */
static bool entry_shown(const struct figure *f, const void *ctx, unsigned out)
{
    if (f->entry == FE_LIST)
        return shown(f, ctx, -1, out);
    return shown(f, ctx, 0, out);
}

static void get_value(const struct figure *f, const void *ctx, int item, struct figure_value *v)
{
    /* Not the whole struct: its buf is the getter's to write before it points at it. */
    v->kind = FK_NULL;
    v->num = 0;
    v->b = false;
    v->str = v->text = NULL;
    v->buf[0] = '\0';
    if (f->get != NULL)
        f->get(ctx, item, f->arg, v);
}

bool figure_get(const struct figure *fig, const void *ctx, int item, struct figure_value *v)
{
    if (fig->when != NULL && !fig->when(ctx, item, fig->arg)) {
        v->kind = FK_NULL;
        v->text = v->str = NULL;
        return false;
    }
    get_value(fig, ctx, item, v);
    return true;
}

void figure_get_picks(const void *ctx, const struct figure_pick *pick, int n,
                      struct figure_value *v, bool *shown)
{
    for (int i = 0; i < n; i++)
        shown[i] = figure_get(pick[i].row, ctx, pick[i].item, &v[i]);
}

const struct figure *figure_find_once(const struct figure *table, const char *key,
                                      const struct figure **slot)
{
    if (*slot == NULL)
        *slot = figure_find(table, key);
    return *slot;
}

bool figure_picks_once(const struct figure *table, const char *const *keys, int n,
                       const struct figure **rows, struct figure_pick *pick)
{
    bool all = true;
    for (int i = 0; i < n; i++) {
        pick[i] = (struct figure_pick){figure_find_once(table, keys[i], &rows[i]), 0};
        all = all && pick[i].row != NULL;
    }
    return all;
}

bool figure_get_keys(const struct figure *table, const void *ctx, const char *const *keys,
                     int n, const struct figure **rows, struct figure_value *v)
{
    bool all = true;
    for (int i = 0; i < n; i++) {
        if (figure_find_once(table, keys[i], &rows[i]) != NULL) {
            (void)figure_get(rows[i], ctx, 0, &v[i]);
        } else {
            figure_null(&v[i]);
            v[i].text = v[i].str = NULL;
            all = false;
        }
    }
    return all;
}

const char *figure_brief(const struct figure *fig)
{
    return fig->brief != NULL ? fig->brief : fig->label != NULL ? fig->label : fig->key;
}

static int count_of(const struct figure *f, const void *ctx)
{
    return f->count != NULL ? f->count(ctx) : 0;
}

const struct figure *figure_find(const struct figure *table, const char *key)
{
    for (const struct figure *f = table; f->entry != FE_END; f++) {
        if (f->key == NULL)
            continue;
        if (strcmp(f->key, key) == 0)
            return f;
        size_t len = strlen(f->key);
        if (f->entry == FE_LIST && strncmp(key, f->key, len) == 0 &&
            strncmp(key + len, "[].", 3) == 0) {
            const struct figure *c = figure_find(f->cols, key + len + 3);
            if (c != NULL)
                return c;
        }
    }
    return NULL;
}

/* ---- JSON ------------------------------------------------------------------------------- */

/* The object at the path before the last dot of key, made as needed; *leaf the last part. */
static cJSON *json_parent(cJSON *root, const char *key, const char **leaf)
{
    cJSON *o = root;
    const char *p = key;
    const char *dot;
    while (o != NULL && (dot = strchr(p, '.')) != NULL) {
        char part[64];
        size_t len = (size_t)(dot - p);
        if (len >= sizeof part)
            return NULL;
        memcpy(part, p, len);
        part[len] = '\0';
        cJSON *next = cJSON_GetObjectItemCaseSensitive(o, part);
        if (next == NULL)
            next = cJSON_AddObjectToObject(o, part);
        o = cJSON_IsObject(next) ? next : NULL;
        p = dot + 1;
    }
    *leaf = p;
    return o;
}

static cJSON *json_value(const struct figure_value *v)
{
    switch (v->kind) {
    case FK_NUM:
        return isfinite(v->num) ? cJSON_CreateNumber(v->num) : cJSON_CreateNull();
    case FK_BOOL:
        return cJSON_CreateBool(v->b);
    case FK_STR:
        return cJSON_CreateString(v->str);
    case FK_NULL:
        break;
    }
    return cJSON_CreateNull();
}

static bool json_add(cJSON *parent, const char *name, cJSON *item)
{
    if (item == NULL || parent == NULL || !cJSON_AddItemToObject(parent, name, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool json_list(cJSON *arr, const struct figure *f, const void *ctx)
{
    int n = count_of(f, ctx);
    for (int i = 0; i < n; i++) {
        if (f->when != NULL && !f->when(ctx, i, f->arg))
            continue;
        cJSON *o = cJSON_CreateObject();
        if (o == NULL || !cJSON_AddItemToArray(arr, o)) {
            cJSON_Delete(o);
            return false;
        }
        for (const struct figure *c = f->cols; c->entry != FE_END; c++) {
            if (!shown(c, ctx, i, FO_JSON))
                continue;
            struct figure_value v;
            get_value(c, ctx, i, &v);
            /* A dotted column key is a path in the item ("options.tp"). */
            const char *leaf = NULL;
            cJSON *parent = json_parent(o, c->key, &leaf);
            if (!json_add(parent, leaf, json_value(&v)))
                return false;
        }
    }
    return true;
}

/* A keyed list: item_name -> its first JSON column's value. */
static bool json_keyed(cJSON *obj, const struct figure *f, const void *ctx)
{
    int n = count_of(f, ctx);
    for (int i = 0; i < n; i++) {
        if (f->when != NULL && !f->when(ctx, i, f->arg))
            continue;
        for (const struct figure *c = f->cols; c->entry != FE_END; c++) {
            if (!shown(c, ctx, i, FO_JSON))
                continue;
            struct figure_value v;
            get_value(c, ctx, i, &v);
            if (!json_add(obj, f->item_name(ctx, i), json_value(&v)))
                return false;
            break;
        }
    }
    return true;
}

static bool json_lines(cJSON *arr, const struct figure *f, const void *ctx)
{
    int n = count_of(f, ctx);
    for (int i = 0; i < n; i++) {
        struct figure_value v;
        get_value(f, ctx, i, &v);
        cJSON *s = cJSON_CreateString(v.kind == FK_STR ? v.str : "");
        if (s == NULL || !cJSON_AddItemToArray(arr, s)) {
            cJSON_Delete(s);
            return false;
        }
    }
    return true;
}

static bool json_entry(cJSON *root, const struct figure *f, const void *ctx)
{
    const char *leaf = NULL;
    cJSON *parent = json_parent(root, f->key, &leaf);
    if (parent == NULL)
        return false;
    switch (f->entry) {
    case FE_VALUE: {
        struct figure_value v;
        get_value(f, ctx, 0, &v);
        return json_add(parent, leaf, json_value(&v));
    }
    case FE_LIST: {
        if (f->keyed) {
            cJSON *obj = cJSON_CreateObject();
            return json_add(parent, leaf, obj) && json_keyed(obj, f, ctx);
        }
        cJSON *arr = cJSON_CreateArray();
        return json_add(parent, leaf, arr) && json_list(arr, f, ctx);
    }
    case FE_LINES: {
        cJSON *arr = cJSON_CreateArray();
        return json_add(parent, leaf, arr) && json_lines(arr, f, ctx);
    }
    case FE_OBJECT:
        return f->object(ctx, parent, leaf);
    case FE_SECTION:
    case FE_END:
        break;
    }
    return true;
}

/* A list whose key is "": the document is its array. */
static bool root_list(const struct figure *f)
{
    return f->entry == FE_LIST && f->key != NULL && f->key[0] == '\0';
}

cJSON *figure_json(const struct figure *table, const void *ctx)
{
    for (const struct figure *f = table; f->entry != FE_END; f++) {
        if (!root_list(f) || !entry_shown(f, ctx, FO_JSON))
            continue;
        cJSON *arr = cJSON_CreateArray();
        if (arr != NULL && !json_list(arr, f, ctx)) {
            cJSON_Delete(arr);
            return NULL;
        }
        return arr;
    }
    cJSON *root = cJSON_CreateObject();
    for (const struct figure *f = table; root != NULL && f->entry != FE_END; f++) {
        if (f->entry == FE_SECTION || f->key == NULL || !entry_shown(f, ctx, FO_JSON))
            continue;
        if (!json_entry(root, f, ctx)) {
            cJSON_Delete(root);
            return NULL;
        }
    }
    return root;
}

static bool write_json(FILE *out, const struct figure *table, const void *ctx)
{
    cJSON *root = figure_json(table, ctx);
    char *text = root != NULL ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (text == NULL)
        return false;
    bool ok = fputs(text, out) >= 0 && fputc('\n', out) != EOF;
    free(text);
    return ok;
}

/* ---- CSV -------------------------------------------------------------------------------- */

/* A CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
static void csv_field(FILE *out, const char *v)
{
    if (strpbrk(v, ",\"\r\n") == NULL) {
        fputs(v, out);
        return;
    }
    fputc('"', out);
    for (const char *c = v; *c != '\0'; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* "section,key,value,unit": the section is the key's first part ("result" for a top-level
 * key), the key the rest. */
static void csv_row(FILE *out, const char *path, const struct figure_value *v, const char *unit)
{
    const char *dot = strchr(path, '.');
    if (dot != NULL) {
        fwrite(path, 1, (size_t)(dot - path), out);
        fputc(',', out);
        csv_field(out, dot + 1);
    } else {
        fputs("result,", out);
        csv_field(out, path);
    }
    fputc(',', out);
    char num[64];
    /* A number that is not finite is JSON's null: an empty value, no unit. */
    bool number = v->kind == FK_NUM && isfinite(v->num);
    switch (v->kind) {
    case FK_NUM:
        if (!number)
            break;
        snprintf(num, sizeof num, "%.17g", v->num);
        fputs(num, out);
        break;
    case FK_BOOL:
        fputs(v->b ? "true" : "false", out);
        break;
    case FK_STR:
        csv_field(out, v->str);
        break;
    case FK_NULL:
        break;
    }
    fputc(',', out);
    csv_field(out, number ? unit : "");
    fputc('\n', out);
}

/* A JSON object flattened (the scenario block, the measured shapes): "path.key" rows, an
 * array's items "path.1", "path.2" .. as a list's are. */
static void csv_walk(FILE *out, const cJSON *node, const char *path)
{
    int i = 0;
    for (const cJSON *c = node->child; c != NULL; c = c->next) {
        char key[320];
        if (c->string != NULL)
            snprintf(key, sizeof key, "%s.%s", path, c->string);
        else
            snprintf(key, sizeof key, "%s.%d", path, i + 1);
        i++;
        struct figure_value v = {.kind = FK_NULL};
        if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
            csv_walk(out, c, key);
            continue;
        }
        if (cJSON_IsNumber(c))
            figure_num(&v, c->valuedouble);
        else if (cJSON_IsBool(c))
            figure_bool(&v, cJSON_IsTrue(c));
        else if (cJSON_IsString(c))
            figure_str(&v, c->valuestring);
        csv_row(out, key, &v, "");
    }
}

static void csv_item_path(const struct figure *f, const void *ctx, int i, const char *col,
                          char *buf, size_t n)
{
    char num[16];
    const char *name = f->item_name != NULL ? f->item_name(ctx, i) : NULL;
    if (name == NULL) {
        snprintf(num, sizeof num, "%d", i + 1);
        name = num;
    }
    /* "ops.qkv.flops": a top-level list ("ops") is its own CSV section; the document's list
     * ("") has its items as sections ("h100-sxm.memory_bytes"). */
    bool root = f->key[0] == '\0';
    snprintf(buf, n, "%s%s%s%s%s", f->key, root ? "" : ".", name, col != NULL ? "." : "",
             col != NULL ? col : "");
}

static bool csv_entry(FILE *out, const struct figure *f, const void *ctx)
{
    char path[320];
    struct figure_value v;
    int n = count_of(f, ctx);
    switch (f->entry) {
    case FE_VALUE:
        get_value(f, ctx, 0, &v);
        csv_row(out, f->key, &v, figure_unit_name(f->unit));
        break;
    case FE_LIST:
        for (int i = 0; i < n; i++) {
            if (f->when != NULL && !f->when(ctx, i, f->arg))
                continue;
            for (const struct figure *c = f->cols; c->entry != FE_END; c++) {
                if (!shown(c, ctx, i, FO_CSV))
                    continue;
                get_value(c, ctx, i, &v);
                csv_item_path(f, ctx, i, f->keyed ? NULL : c->key, path, sizeof path);
                csv_row(out, path, &v, figure_unit_name(c->unit));
                if (f->keyed)
                    break;
            }
        }
        break;
    case FE_LINES:
        for (int i = 0; i < n; i++) {
            get_value(f, ctx, i, &v);
            csv_item_path(f, ctx, i, NULL, path, sizeof path);
            csv_row(out, path, &v, "");
        }
        break;
    case FE_OBJECT: {
        cJSON *tmp = cJSON_CreateObject();
        if (tmp == NULL || !f->object(ctx, tmp, "x")) {
            cJSON_Delete(tmp);
            return false;
        }
        csv_walk(out, cJSON_GetObjectItemCaseSensitive(tmp, "x"), f->key);
        cJSON_Delete(tmp);
        break;
    }
    case FE_SECTION:
    case FE_END:
        break;
    }
    return true;
}

static bool write_csv(FILE *out, const struct figure *table, const void *ctx)
{
    fputs("section,key,value,unit\n", out);
    for (const struct figure *f = table; f->entry != FE_END; f++)
        if (f->entry != FE_SECTION && f->key != NULL && entry_shown(f, ctx, FO_CSV) &&
            !csv_entry(out, f, ctx))
            return false;
    return !ferror(out);
}

/* ---- text and Markdown ------------------------------------------------------------------ */

/* Markdown table cells must not hold '|'; names from user files might. */
static void md_text(FILE *out, const char *v)
{
    for (const char *c = v; *c != '\0'; c++) {
        if (*c == '|')
            fputs("\\|", out);
        else if (*c == '\n' || *c == '\r')
            fputc(' ', out);
        else
            fputc(*c, out);
    }
}

/* A list's columns at most: their widths in text are worked out before its rows. */
#define LIST_COLS_MAX 64

struct prose {
    FILE *out;
    bool md;
    bool first;       /* no section written yet */
    bool wrote;       /* text: something is written (a section after it gets a blank line) */
    bool in_table;    /* Markdown: a figure table is open */
    int width;        /* the section's label width */
    bool line_open;   /* text: a value's line waits for its newline (a joined value may follow) */
    int col_width[LIST_COLS_MAX]; /* text: the widths of the list being written, by column */
};

/* Text: ends the line a value left open. */
static void prose_end_line(struct prose *p)
{
    if (p->line_open)
        fputc('\n', p->out);
    p->line_open = false;
}

static void prose_end_table(struct prose *p)
{
    if (p->md && p->in_table)
        fputc('\n', p->out);
    p->in_table = false;
}

static void prose_section(struct prose *p, const struct figure *f, const void *ctx)
{
    char title[512];
    /* A made title's label is a prefix the text shows before it ("Scenario: "). */
    if (f->title != NULL) {
        char made[480];
        f->title(ctx, 0, f->arg, made, sizeof made);
        snprintf(title, sizeof title, "%s%s", !p->md && f->label != NULL ? f->label : "", made);
    } else
        snprintf(title, sizeof title, "%s", f->label != NULL ? f->label : "");
    prose_end_table(p);
    p->width = f->width > 0 ? f->width : 20;
    if (p->md) {
        fputs(p->first ? "# " : "## ", p->out);
        md_text(p->out, title);
        fputs("\n\n", p->out);
    } else {
        if (p->wrote)
            fputc('\n', p->out);
        fprintf(p->out, "%s\n", title);
    }
    p->first = false;
    p->wrote = true;
}

static void prose_value(struct prose *p, const struct figure *f, const void *ctx)
{
    p->wrote = true;
    struct figure_value v;
    get_value(f, ctx, 0, &v);
    char val[600], aside[600] = "";
    figure_format(f, &v, val, sizeof val);
    /* A column's header names its unit ("FLOP/B"); a value alone says its own. */
    if (f->unit == FU_INTENSITY && v.text == NULL && v.kind == FK_NUM)
        snprintf(val + strlen(val), sizeof val - strlen(val), " FLOP/byte");
    if (f->aside != NULL)
        f->aside(ctx, 0, f->arg, aside, sizeof aside);
    char made[160];
    if (f->title != NULL)
        f->title(ctx, 0, f->arg, made, sizeof made);
    const char *label = f->title != NULL ? made : f->label != NULL ? f->label : f->key;
    if (!p->md && p->first) {
        /* Before any section a value is a sentence at the margin ("max params: 6.83T ..."). */
        prose_end_line(p);
        fprintf(p->out, "%s: %s%s%s", label, val, aside[0] ? " " : "", aside);
        p->line_open = true;
        return;
    }
    if (!p->md) {
        if (f->joined && p->line_open)
            fprintf(p->out, "   %s %s", label, val);
        else {
            prose_end_line(p);
            /* A width right-aligns the value (under a list's column above it). */
            fprintf(p->out, "  %-*s %*s", p->width, label, f->width > 0 ? f->width : 0, val);
        }
        fprintf(p->out, "%s%s", aside[0] ? " " : "", aside);
        p->line_open = true;
        return;
    }
    if (!p->in_table)
        fputs("| | |\n|---|---:|\n", p->out);
    p->in_table = true;
    fputs("| ", p->out);
    md_text(p->out, label);
    fputs(" | ", p->out);
    md_text(p->out, val);
    if (aside[0]) {
        fputc(' ', p->out);
        md_text(p->out, aside);
    }
    fputs(" |\n", p->out);
}

/* Whether a column is a word (left-aligned): its unit says no number. */
static bool col_left(const struct figure *c)
{
    return c->unit == FU_NONE && !c->right;
}

/* A cell; k its column's index in the list's columns, for its width. */
static void prose_cell(struct prose *p, const struct figure *c, int k, const char *text,
                       bool first)
{
    if (p->md) {
        fputs(first ? "| " : " | ", p->out);
        md_text(p->out, text);
        return;
    }
    int w = k < LIST_COLS_MAX ? p->col_width[k] : c->width > 0 ? c->width : 10;
    /* A list before any section (the whole of `list gpus`) starts at the margin. */
    fprintf(p->out, first ? (p->first ? "" : "  ") : " ");
    fprintf(p->out, col_left(c) ? "%-*s" : "%*s", w, text);
}

/* Whether a column is in the list's table at all: the header decides (item -1). */
static bool col_shown(const struct figure *c, const void *ctx, unsigned out)
{
    return shown(c, ctx, -1, out) && c->label != NULL;
}

/* The text widths of a list's columns: as given (10 when none), or the widest cell's. */
static void list_widths(struct prose *p, const struct figure *f, const void *ctx)
{
    int n = count_of(f, ctx), k = 0;
    for (const struct figure *c = f->cols; c->entry != FE_END && k < LIST_COLS_MAX; c++, k++) {
        p->col_width[k] = c->width > 0 ? c->width : 10;
        if (c->width != FIGURE_WIDTH_AUTO || p->md)
            continue;
        p->col_width[k] = c->label != NULL ? (int)strlen(c->label) : 0;
        for (int i = 0; i < n; i++) {
            if (!shown(f, ctx, i, FO_TEXT))
                continue;
            struct figure_value v;
            get_value(c, ctx, i, &v);
            char val[600];
            figure_format(c, &v, val, sizeof val);
            if ((int)strlen(val) > p->col_width[k])
                p->col_width[k] = (int)strlen(val);
        }
    }
}

static void prose_list_head(struct prose *p, const struct figure *f, const void *ctx)
{
    unsigned out = p->md ? FO_MD : FO_TEXT;
    bool first = true;
    int k = 0;
    for (const struct figure *c = f->cols; c->entry != FE_END; c++, k++) {
        if (!col_shown(c, ctx, out))
            continue;
        prose_cell(p, c, k, c->label, first);
        first = false;
    }
    fputs(p->md ? " |\n" : "\n", p->out);
    if (!p->md)
        return;
    first = true;
    for (const struct figure *c = f->cols; c->entry != FE_END; c++) {
        if (!col_shown(c, ctx, out))
            continue;
        fputs(first ? "|" : "", p->out);
        fputs(col_left(c) ? "---|" : "---:|", p->out);
        first = false;
    }
    fputc('\n', p->out);
}

static void prose_list(struct prose *p, const struct figure *f, const void *ctx)
{
    unsigned out = p->md ? FO_MD : FO_TEXT;
    prose_end_table(p);
    p->wrote = true;
    list_widths(p, f, ctx);
    prose_list_head(p, f, ctx);
    int n = count_of(f, ctx);
    for (int i = 0; i < n; i++) {
        if (!shown(f, ctx, i, out))
            continue;
        bool first = true;
        int k = 0;
        for (const struct figure *c = f->cols; c->entry != FE_END; c++, k++) {
            /* The header decides the columns; an item only fills them. */
            if (!col_shown(c, ctx, out))
                continue;
            struct figure_value v;
            get_value(c, ctx, i, &v);
            char val[600];
            figure_format(c, &v, val, sizeof val);
            prose_cell(p, c, k, val, first);
            first = false;
        }
        fputs(p->md ? " |\n" : "\n", p->out);
    }
    if (p->md)
        fputc('\n', p->out);
}

static void prose_lines(struct prose *p, const struct figure *f, const void *ctx)
{
    prose_end_table(p);
    int n = count_of(f, ctx);
    p->wrote = p->wrote || n > 0;
    for (int i = 0; i < n; i++) {
        struct figure_value v;
        get_value(f, ctx, i, &v);
        const char *line = v.kind == FK_STR ? v.str : "";
        if (p->md) {
            fputs("- ", p->out);
            if (f->label != NULL)
                fprintf(p->out, "**%s** ", f->label);
            md_text(p->out, line);
            fputc('\n', p->out);
        } else {
            fprintf(p->out, "%s%s%s%s\n", p->first ? "" : "  ", f->label != NULL ? f->label : "",
                    f->label != NULL ? " " : "", line);
        }
    }
    if (p->md && n > 0)
        fputc('\n', p->out);
}

static bool write_prose(FILE *out, const struct figure *table, const void *ctx, bool md)
{
    struct prose p = {out, md, true, false, false, 20, false, {0}};
    unsigned fo = md ? FO_MD : FO_TEXT;
    for (const struct figure *f = table; f->entry != FE_END; f++) {
        if (!entry_shown(f, ctx, fo))
            continue;
        if (f->entry != FE_VALUE)
            prose_end_line(&p);
        switch (f->entry) {
        case FE_SECTION:
            prose_section(&p, f, ctx);
            break;
        case FE_VALUE:
            if (f->label != NULL || f->title != NULL)
                prose_value(&p, f, ctx);
            break;
        case FE_LIST:
            prose_list(&p, f, ctx);
            break;
        case FE_LINES:
            prose_lines(&p, f, ctx);
            break;
        case FE_OBJECT:
        case FE_END:
            break;
        }
    }
    prose_end_line(&p);
    prose_end_table(&p);
    return !ferror(out);
}

bool figure_write(FILE *f, const struct figure *table, const void *ctx, enum report_format fmt)
{
    switch (fmt) {
    case REPORT_JSON:
        return write_json(f, table, ctx);
    case REPORT_CSV:
        return write_csv(f, table, ctx);
    case REPORT_MD:
        return write_prose(f, table, ctx, true);
    case REPORT_TEXT:
        break;
    }
    return write_prose(f, table, ctx, false);
}
