/* demo.c - loading a demo's steps (the lecture's is specs/scenarios/lecture.json). */
#include "demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "infer_cli.h"
#include "inputs.h"
#include "scenario_check.h"
#include "scenario_file.h"
#include "json_read.h"
#include "spec.h"

static cJSON *parse_text(const char *text, size_t len, const char *origin, char *err,
                         size_t errlen)
{
    if (json_read_nul_at(text, len) < len) {
        snprintf(err, errlen, "%s: a string holds \\u0000 (a NUL character), which would cut it "
                              "short", origin);
        return NULL;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root || !cJSON_IsObject(root)) {
        snprintf(err, errlen, "%s: not a JSON object", origin);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* A demo file is a few kB; the reader refuses anything past 4 MiB. NAME finds
 * specs/scenarios/NAME.json on the search path. */
static cJSON *parse_file(const char *name_or_file, char *err, size_t errlen)
{
    char *path = files_resolve("scenarios", name_or_file);
    if (path == NULL) {
        snprintf(err, errlen, "%s: out of memory", name_or_file);
        return NULL;
    }
    size_t len = 0;
    char *text;
    cJSON *root = NULL;
    if (files_read(path, (size_t)4 << 20, &text, &len, err, errlen)) {
        root = parse_text(text, len, path, err, errlen);
        free(text);
    }
    free(path);
    return root;
}

bool demo_is_file(const char *path)
{
    char err[256];
    cJSON *root = parse_file(path, err, sizeof err);
    bool demo = root && cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "steps"));
    cJSON_Delete(root);
    return demo;
}

static void copy_string(const cJSON *obj, const char *key, char *dst, size_t n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    dst[0] = '\0';
    if (cJSON_IsString(v) && v->valuestring)
        snprintf(dst, n, "%s", v->valuestring);
}

/* One serving input (a JSON number or string) onto s as its `rooftop infer` flag; errors
 * start with where ("origin: _infer"). */
static bool infer_apply_item(struct scenario *s, const cJSON *it, const char *where,
                             char *err, size_t errlen)
{
    char num[64], sub[512];
    const char *v = num;
    if (cJSON_IsString(it) && it->valuestring)
        v = it->valuestring;
    else if (cJSON_IsNumber(it))
        snprintf(num, sizeof num, "%.17g", it->valuedouble);
    else {
        snprintf(err, errlen, "%s: %.64s: want a number or a string", where,
                 it->string ? it->string : "?");
        return false;
    }
    if (!infer_cli_set(s, it->string ? it->string : "", v, sub, sizeof sub)) {
        snprintf(err, errlen, "%s: %s", where, sub);
        return false;
    }
    return true;
}

/* Applies a "_infer" object (NULL: none) onto s, each key as its `rooftop infer` flag. */
static bool infer_apply_json(struct scenario *s, const cJSON *obj, const char *origin,
                             char *err, size_t errlen)
{
    if (obj == NULL)
        return true;
    char where[640];
    snprintf(where, sizeof where, "%s: _infer", origin);
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errlen, "%s: want an object of serving inputs", where);
        return false;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, obj)
        if (!infer_apply_item(s, it, where, err, errlen))
            return false;
    return true;
}

/* A serving step's own registry keys that `rooftop infer` reads ("prompt", "generate",
 * "kv_dtype" directly in the step, as any step spells its inputs), onto its serving
 * scenario; the model and GPU come with the step's scenario. */
static bool infer_apply_keys(struct scenario *s, const cJSON *st, const char *origin, char *err,
                             size_t errlen)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, st)
    {
        const char *k = it->string ? it->string : "";
        if (!strcmp(k, "model") || !strcmp(k, "gpu") || inputs_find(k) == NULL ||
            !infer_cli_reads(k))
            continue;
        if (!infer_apply_item(s, it, origin, err, errlen))
            return false;
    }
    return true;
}

/* Step st's serving scenario: the step's model and GPU, then the file's "_infer" keys, the
 * step's own serving keys and its "_infer" keys (the old spelling, still read); checked as
 * `rooftop infer` checks its flags. */
static bool infer_step(const cJSON *root_infer, const cJSON *st, const char *origin,
                       struct demo_step *ls, char *err, size_t errlen)
{
    struct scenario *s = &ls->infer;
    infer_default(s);
    s->model = ls->scenario.model;
    s->gpu = ls->scenario.gpu;
    if (!infer_apply_json(s, root_infer, origin, err, errlen) ||
        !infer_apply_keys(s, st, origin, err, errlen) ||
        !infer_apply_json(s, cJSON_GetObjectItemCaseSensitive(st, "_infer"), origin,
                          err, errlen))
        return false;
    char verr[512];
    if (!infer_validate(s, verr, (int)sizeof verr)) {
        snprintf(err, errlen, "%s: _infer: %s", origin, verr);
        return false;
    }
    return true;
}

static const char *const panel_names[] = {"memory", "compute", "roofline", "ops",
                                          "dtypes", "checkpoint", "toy", "contracts"};

/* A list of names ("_panels", "_sliders") into dst; each checked by ok_name. */
static bool name_list(const cJSON *st, const char *key, bool (*ok_name)(const char *),
                      char (*dst)[DEMO_NAME_MAX], int *n, bool *have, const char *origin,
                      char *err, size_t errlen)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(st, key);
    *n = 0;
    *have = a != NULL;
    if (a == NULL)
        return true;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > DEMO_LIST_MAX) {
        snprintf(err, errlen, "%s: %s: want an array of at most %d names", origin, key,
                 DEMO_LIST_MAX);
        return false;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, a)
    {
        if (!cJSON_IsString(it) || !it->valuestring || strlen(it->valuestring) >= DEMO_NAME_MAX ||
            !ok_name(it->valuestring)) {
            snprintf(err, errlen, "%s: %s: '%.40s' is not one of them", origin, key,
                     cJSON_IsString(it) && it->valuestring ? it->valuestring : "?");
            return false;
        }
        snprintf(dst[(*n)++], DEMO_NAME_MAX, "%s", it->valuestring);
    }
    return true;
}

static bool is_panel(const char *name)
{
    for (size_t i = 0; i < sizeof panel_names / sizeof panel_names[0]; i++)
        if (strcmp(name, panel_names[i]) == 0)
            return true;
    return false;
}

static bool is_input(const char *name)
{
    return inputs_find(name) != NULL;
}

static bool toy_number(const cJSON *toy, const char *key, double *out, const char *origin,
                       char *err, size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(toy, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1) || v->valuedouble > 1e9 ||
        v->valuedouble != (double)(long long)v->valuedouble) {
        snprintf(err, errlen, "%s: _toy: %s: want a whole number from 1 to 1e9", origin, key);
        return false;
    }
    *out = v->valuedouble;
    return true;
}

/* The lecture's panels and lists of one step: "_panels", "_sliders", "_answer", "_toy". */
static bool step_view(const cJSON *st, struct demo_step *ls, const char *origin, char *err,
                      size_t errlen)
{
    bool have;
    if (!name_list(st, "_panels", is_panel, ls->panels, &ls->n_panels, &have, origin, err,
                   errlen) ||
        !name_list(st, "_sliders", is_input, ls->sliders, &ls->n_sliders, &ls->have_sliders,
                   origin, err, errlen))
        return false;
    if (have && ls->n_panels == 0) {
        snprintf(err, errlen, "%s: _panels: name at least one panel", origin);
        return false;
    }
    copy_string(st, "_answer", ls->answer, sizeof ls->answer);
    const cJSON *toy = cJSON_GetObjectItemCaseSensitive(st, "_toy");
    bool wants_toy = demo_step_has_panel(ls, "toy");
    if ((toy != NULL) != wants_toy) {
        snprintf(err, errlen, "%s: _toy: goes with the \"toy\" panel, and it with _toy", origin);
        return false;
    }
    if (toy == NULL)
        return true;
    char kind[32];
    copy_string(toy, "kind", kind, sizeof kind);
    ls->toy = strcmp(kind, "accumulation") == 0 ? DEMO_TOY_ACCUMULATION
              : strcmp(kind, "optimizer") == 0  ? DEMO_TOY_OPTIMIZER
                                                : DEMO_TOY_NONE;
    if (ls->toy == DEMO_TOY_NONE) {
        snprintf(err, errlen, "%s: _toy: kind: want \"accumulation\" or \"optimizer\"", origin);
        return false;
    }
    ls->toy_micro = 0;
    return toy_number(toy, "B", &ls->toy_B, origin, err, errlen) &&
           toy_number(toy, "D", &ls->toy_D, origin, err, errlen) &&
           toy_number(toy, "L", &ls->toy_L, origin, err, errlen) &&
           (ls->toy != DEMO_TOY_ACCUMULATION ||
            toy_number(toy, "micro", &ls->toy_micro, origin, err, errlen));
}

bool demo_step_has_panel(const struct demo_step *st, const char *name)
{
    for (int i = 0; i < st->n_panels; i++)
        if (strcmp(st->panels[i], name) == 0)
            return true;
    return false;
}

/* Builds the steps from a parsed document; takes ownership of root. */
static bool lecture_build(cJSON *root, const char *path, struct demo *l, char *err, size_t errlen)
{
    cJSON *steps = cJSON_DetachItemFromObjectCaseSensitive(root, "steps");
    const cJSON *root_infer = cJSON_GetObjectItemCaseSensitive(root, "_infer");
    int n = cJSON_GetArraySize(steps);
    if (!cJSON_IsArray(steps) || n < 1) {
        snprintf(err, errlen, "%s: steps: want an array of at least one step", path);
        cJSON_Delete(steps);
        cJSON_Delete(root);
        return false;
    }
    struct scenario base;
    inputs_defaults(&base);
    bool ok = scenario_apply_json(&base, root, path, err, errlen);
    snprintf(l->name, sizeof l->name, "%s", base.name);
    l->steps = ok ? calloc((size_t)n, sizeof *l->steps) : NULL;
    if (ok && !l->steps) {
        snprintf(err, errlen, "%s: out of memory", path);
        ok = false;
    }
    for (int i = 0; ok && i < n; i++) {
        const cJSON *st = cJSON_GetArrayItem(steps, i);
        struct demo_step *ls = &l->steps[i];
        char origin[600], verr[256];
        snprintf(origin, sizeof origin, "%s: step %d", path, i + 1);
        if (!cJSON_IsObject(st)) {
            snprintf(err, errlen, "%s: not an object", origin);
            ok = false;
            break;
        }
        ls->scenario = base;
        if (!scenario_apply_json(&ls->scenario, st, origin, err, errlen)) {
            ok = false;
            break;
        }
        /* Named by the file's key ("tp"), not the command line's flag: this is a file, and
         * its message may be read on the dashboard's status line. */
        const char *key = "";
        if (!scenario_check(&ls->scenario, &key, verr, sizeof verr)) {
            snprintf(err, errlen, "%s: %s: %s", origin, key, verr);
            ok = false;
            break;
        }
        copy_string(st, "title", ls->title, sizeof ls->title);
        copy_string(st, "caption", ls->caption, sizeof ls->caption);
        copy_string(st, "_focus", ls->focus, sizeof ls->focus);
        if (!step_view(st, ls, origin, err, errlen)) {
            ok = false;
            break;
        }
        char view[32];
        copy_string(st, "_view", view, sizeof view);
        ls->lecture_ops = strcmp(view, "lecture") == 0;
        ls->inference = strcmp(view, "inference") == 0;
        if (!ls->inference && !ls->lecture_ops && view[0] && strcmp(view, "model") != 0) {
            snprintf(err, errlen, "%s: _view: '%s' is not one of model, lecture, inference",
                     origin, view);
            ok = false;
            break;
        }
        if (!ls->inference && cJSON_GetObjectItemCaseSensitive(st, "_infer")) {
            snprintf(err, errlen, "%s: _infer: only with \"_view\": \"inference\"", origin);
            ok = false;
            break;
        }
        if (ls->inference && !infer_step(root_infer, st, origin, ls, err, errlen)) {
            ok = false;
            break;
        }
        l->n = i + 1;
    }
    cJSON_Delete(steps);
    cJSON_Delete(root);
    if (!ok)
        demo_free(l);
    return ok;
}

bool demo_load(const char *path, struct demo *l, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    cJSON *root = parse_file(path, err, errlen);
    return root != NULL && lecture_build(root, path, l, err, errlen);
}

bool demo_parse(const char *text, size_t len, const char *origin, struct demo *l, char *err,
                   size_t errlen)
{
    memset(l, 0, sizeof *l);
    cJSON *root = parse_text(text, len, origin, err, errlen);
    return root != NULL && lecture_build(root, origin, l, err, errlen);
}

void demo_free(struct demo *l)
{
    free(l->steps);
    memset(l, 0, sizeof *l);
}
