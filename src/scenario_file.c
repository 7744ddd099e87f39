/* scenario_file.c - scenarios saved as JSON, and JSON objects of overrides onto a scenario. */
#include "scenario_file.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtype.h"
#include "files.h"
#include "gpu.h"
#include "inputs.h"
#include "json_dup.h"
#include "json_read.h"
#include "model.h"
#include "spec.h"
#include "units.h"

/* Scenario files are a few hundred bytes; anything this large is not one. */
#define SCENARIO_FILE_MAX (1 << 20)
/* 2^62: the largest count any input may hold, so products of counts stay in int64. */
#define COUNT_MAX 4611686018427387904.0

/* ---- values from text ------------------------------------------------------------------ */

/* Error messages quote keys and values from the user; a newline or escape in them must not
 * break the one-line rule or reach a terminal raw. */
static void one_line(char *s)
{
    for (; *s != '\0'; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

int scenario_set_option(struct scenario *s, const char *key, const char *value, char *err,
                        size_t errlen)
{
    const struct input *in = inputs_find(key);
    if (in == NULL)
        return 0;
    if (value == NULL) {
        snprintf(err, errlen, "needs a value");
        return -1;
    }
    if (!inputs_parse(in, s, value, err, errlen)) {
        if (errlen > 0)
            one_line(err);
        return -1;
    }
    return 1;
}

/* ---- files ---------------------------------------------------------------------------------- */

/* A number given as a JSON number or as a string in human units. */
static bool json_number(const cJSON *item, double *out)
{
    if (cJSON_IsNumber(item)) {
        if (!isfinite(item->valuedouble))
            return false;
        *out = item->valuedouble;
        return true;
    }
    if (cJSON_IsString(item) && item->valuestring != NULL)
        return units_parse(item->valuestring, out);
    return false;
}

/* ---- JSON out ----------------------------------------------------------------------------- */

/* Equal as the schema writes them (every field the files hold, spec.c's one writer), and
 * with the same id: what decides whether a scenario may name the preset instead of writing
 * the object out. */
static bool json_same(cJSON *x, cJSON *y)
{
    bool same = x != NULL && y != NULL && cJSON_Compare(x, y, true);
    cJSON_Delete(x);
    cJSON_Delete(y);
    return same;
}

static bool gpu_equal(const struct gpu_spec *a, const struct gpu_spec *b)
{
    return strcmp(a->id, b->id) == 0 && json_same(spec_gpu_to_json(a), spec_gpu_to_json(b));
}

static bool model_equal(const struct model_arch *a, const struct model_arch *b)
{
    return strcmp(a->id, b->id) == 0 && a->exact_params == b->exact_params &&
           json_same(spec_model_to_json(a, NULL), spec_model_to_json(b, NULL));
}

/* cJSON adders that report allocation failure through one flag. */
static void add_num(cJSON *o, const char *k, double v, bool *ok)
{
    if (!spec_json_add_number(o, k, v))
        *ok = false;
}

static void add_str(cJSON *o, const char *k, const char *v, bool *ok)
{
    if (cJSON_AddStringToObject(o, k, v) == NULL)
        *ok = false;
}

static void add_bool(cJSON *o, const char *k, bool v, bool *ok)
{
    if (cJSON_AddBoolToObject(o, k, v) == NULL)
        *ok = false;
}

/* The model or GPU object of the spec files, plus the "id" (and a model's exact "params")
 * a scenario keeps with it. */
static cJSON *model_json(const struct model_arch *m, bool *ok)
{
    cJSON *o = spec_model_to_json(m, NULL);
    if (o == NULL) {
        *ok = false;
        return NULL;
    }
    add_str(o, "id", m->id, ok);
    if (m->exact_params > 0)
        add_num(o, "params", (double)m->exact_params, ok);
    return o;
}

static cJSON *gpu_json(const struct gpu_spec *g, bool *ok)
{
    cJSON *o = spec_gpu_to_json(g);
    if (o == NULL) {
        *ok = false;
        return NULL;
    }
    add_str(o, "id", g->id, ok);
    return o;
}

cJSON *scenario_to_json(const struct scenario *s)
{
    bool ok = true;
    cJSON *o = cJSON_CreateObject();
    if (o == NULL)
        return NULL;
    /* A scenario without a name is titled after what it is (scenario_title): no key. */
    if (s->name[0] != '\0')
        add_str(o, "name", s->name, &ok);

    /* The model: preset id when it is the preset, "params" alone when it is exactly the
     * --params shape, otherwise every field so the file stands on its own. */
    struct model_arch preset;
    char err[SPEC_ERR_MAX];
    struct model_arch shaped;
    if (s->model.exact_params > 0 && model_from_params((double)s->model.exact_params, &shaped) &&
        model_equal(&shaped, &s->model)) {
        add_num(o, "params", (double)s->model.exact_params, &ok);
    } else if (s->model.id[0] != '\0' && spec_find_model(s->model.id, &preset, err, sizeof err) &&
               model_equal(&preset, &s->model)) {
        add_str(o, "model", s->model.id, &ok);
    } else {
        cJSON *m = model_json(&s->model, &ok);
        if (m != NULL && !cJSON_AddItemToObject(o, "model", m)) {
            cJSON_Delete(m);
            ok = false;
        }
    }
    struct gpu_spec gp;
    if (s->gpu.id[0] != '\0' && spec_find_gpu(s->gpu.id, &gp, err, sizeof err) &&
        gpu_equal(&gp, &s->gpu)) {
        add_str(o, "gpu", s->gpu.id, &ok);
    } else {
        cJSON *g = gpu_json(&s->gpu, &ok);
        if (g != NULL && !cJSON_AddItemToObject(o, "gpu", g)) {
            cJSON_Delete(g);
            ok = false;
        }
    }
    add_num(o, "gpus", (double)s->gpus, &ok);
    add_num(o, "tp", (double)s->tp, &ok);
    add_num(o, "pp", (double)s->pp, &ok);
    add_bool(o, "sp", s->sp, &ok);
    add_num(o, "zero", s->zero, &ok);
    add_str(o, "dtype", dtype_name(s->dtype), &ok);
    add_bool(o, "master_weights", s->master_weights, &ok);
    add_str(o, "optimizer", optimizer_name(s->optimizer), &ok);
    add_num(o, "batch", (double)s->batch, &ok);
    add_num(o, "micro_batch", (double)s->micro_batch, &ok);
    add_num(o, "seq", (double)s->seq, &ok);
    add_num(o, "tokens", s->tokens, &ok);
    if (s->mfu_mode == MFU_TYPED)
        add_num(o, "mfu", s->mfu, &ok);
    else
        add_str(o, "mfu", mfu_mode_name(s->mfu_mode), &ok);
    add_str(o, "recompute", recompute_name(s->recompute), &ok);
    add_bool(o, "flash", s->flash, &ok);
    add_bool(o, "dropout", s->dropout, &ok);
    add_str(o, "flops", s->flops_mode == FLOPS_6ND ? "6nd" : "detailed", &ok);
    /* Every other setup input (cp, ep, vpp, the network, serving's lengths, ...) through the
     * registry, so that a row added there is saved without a line here: counts and fractions
     * as numbers, "auto" and words as the registry writes them. */
    for (int i = 0; ok && i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        /* The names above (the model as its preset, its size or its fields; the GPU; the
         * title) are written their own way. */
        if ((in->flags & INPUT_MODEL_FIELD) || strcmp(in->key, "params") == 0 ||
            strcmp(in->key, "model") == 0 || strcmp(in->key, "gpu") == 0 ||
            strcmp(in->key, "name") == 0 || cJSON_HasObjectItem(o, in->key))
            continue;
        if (in->kind == INPUT_NAME) { /* another text: the pipeline layout */
            char text[PP_LAYOUT_TEXT_MAX + 8];
            inputs_format(in, s, text, sizeof text);
            add_str(o, in->key, text, &ok);
            continue;
        }
        double v = inputs_get(in, s);
        bool auto_zero = inputs_is_auto(in, v);
        if (in->kind == INPUT_ONOFF) {
            add_bool(o, in->key, v != 0, &ok);
        } else if (in->kind == INPUT_ENUM || auto_zero) {
            char text[64];
            inputs_format(in, s, text, sizeof text);
            add_str(o, in->key, text, &ok);
        } else {
            add_num(o, in->key, v, &ok);
        }
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ---- JSON in ------------------------------------------------------------------------------- */

static bool is_ignored_key(const char *k)
{
    return k[0] == '_' || strcmp(k, "caption") == 0 || strcmp(k, "title") == 0 ||
           strcmp(k, "description") == 0;
}

/* The text form of a JSON number or boolean, as scenario_set_option takes it. */
static bool json_value_text(const cJSON *item, char *buf, size_t n)
{
    if (cJSON_IsBool(item)) {
        snprintf(buf, n, "%s", cJSON_IsTrue(item) ? "on" : "off");
        return true;
    }
    if (cJSON_IsNumber(item)) {
        double v = item->valuedouble;
        if (!isfinite(v))
            return false;
        /* %.17g keeps every bit, so the value comes back exact through units_parse. */
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%.17g", v);
        /* printf follows LC_NUMERIC (a dashboard may have set a locale with ','): turn the
         * locale's decimal point back into the '.' units_parse reads. */
        const char *dp = localeconv()->decimal_point;
        if (dp != NULL && dp[0] != '\0' && strcmp(dp, ".") != 0) {
            char *at = strstr(tmp, dp);
            if (at != NULL) {
                size_t dl = strlen(dp);
                *at = '.';
                memmove(at + 1, at + dl, strlen(at + dl) + 1);
            }
        }
        int w = snprintf(buf, n, "%s", tmp);
        return w >= 0 && (size_t)w < n;
    }
    return false;
}

/* An inline model object: the model-file fields, parsed by the spec loader itself so that a
 * scenario's model is checked exactly as a model file is, plus our "id" and "params". */
static bool apply_inline_model(struct scenario *s, const cJSON *obj, const char *origin,
                               char *err, size_t errlen)
{
    cJSON *copy = cJSON_Duplicate(obj, 1);
    if (copy == NULL) {
        snprintf(err, errlen, "%s: model: out of memory", origin);
        return false;
    }
    char id[MODEL_NAME_MAX] = "custom";
    int64_t exact = 0;
    cJSON *idj = cJSON_DetachItemFromObjectCaseSensitive(copy, "id");
    cJSON *pj = cJSON_DetachItemFromObjectCaseSensitive(copy, "params");
    bool ok = true;
    if (idj != NULL) {
        if (!cJSON_IsString(idj) || idj->valuestring == NULL ||
            strlen(idj->valuestring) >= sizeof id) {
            snprintf(err, errlen, "%s: model: id: not a short string", origin);
            ok = false;
        } else {
            snprintf(id, sizeof id, "%s", idj->valuestring);
        }
    }
    double pv = 0;
    if (ok && pj != NULL) {
        if (!json_number(pj, &pv) || pv < 1 || pv > COUNT_MAX || floor(pv) != pv) {
            snprintf(err, errlen, "%s: model: params: not a positive whole number", origin);
            ok = false;
        } else {
            exact = (int64_t)pv;
        }
    }
    cJSON_Delete(idj);
    cJSON_Delete(pj);
    char *text = ok ? cJSON_PrintUnformatted(copy) : NULL;
    cJSON_Delete(copy);
    if (!ok)
        return false;
    if (text == NULL) {
        snprintf(err, errlen, "%s: model: out of memory", origin);
        return false;
    }
    char sub[SPEC_ERR_MAX];
    char where[SPEC_ERR_MAX];
    snprintf(where, sizeof where, "%s: model", origin);
    struct model_arch m;
    ok = spec_parse_model(text, strlen(text), where, &m, sub, sizeof sub);
    free(text);
    if (!ok) {
        snprintf(err, errlen, "%s", sub);
        return false;
    }
    snprintf(m.id, sizeof m.id, "%s", id);
    m.exact_params = exact;
    s->model = m;
    return true;
}

static bool apply_inline_gpu(struct scenario *s, const cJSON *obj, const char *origin, char *err,
                             size_t errlen)
{
    cJSON *copy = cJSON_Duplicate(obj, 1);
    if (copy == NULL) {
        snprintf(err, errlen, "%s: gpu: out of memory", origin);
        return false;
    }
    char id[GPU_NAME_MAX] = "custom";
    cJSON *idj = cJSON_DetachItemFromObjectCaseSensitive(copy, "id");
    bool ok = true;
    if (idj != NULL) {
        if (!cJSON_IsString(idj) || idj->valuestring == NULL ||
            strlen(idj->valuestring) >= sizeof id) {
            snprintf(err, errlen, "%s: gpu: id: not a short string", origin);
            ok = false;
        } else {
            snprintf(id, sizeof id, "%s", idj->valuestring);
        }
    }
    cJSON_Delete(idj);
    char *text = ok ? cJSON_PrintUnformatted(copy) : NULL;
    cJSON_Delete(copy);
    if (!ok)
        return false;
    if (text == NULL) {
        snprintf(err, errlen, "%s: gpu: out of memory", origin);
        return false;
    }
    char sub[SPEC_ERR_MAX];
    char where[SPEC_ERR_MAX];
    snprintf(where, sizeof where, "%s: gpu", origin);
    struct gpu_spec g;
    ok = spec_parse_gpu(text, strlen(text), where, &g, sub, sizeof sub);
    free(text);
    if (!ok) {
        snprintf(err, errlen, "%s", sub);
        return false;
    }
    snprintf(g.id, sizeof g.id, "%s", id);
    s->gpu = g;
    return true;
}

/* Applies one key; model and gpu objects go through the spec loader. */
static bool apply_item(struct scenario *s, const cJSON *item, const char *origin, char *err,
                       size_t errlen)
{
    const char *key = item->string;
    if (strcmp(key, "model") == 0 && cJSON_IsObject(item))
        return apply_inline_model(s, item, origin, err, errlen);
    if (strcmp(key, "gpu") == 0 && cJSON_IsObject(item))
        return apply_inline_gpu(s, item, origin, err, errlen);
    char text[512];
    if (cJSON_IsNumber(item) && item->valuedouble < 0) {
        snprintf(err, errlen, "%s: %s: %g is out of range (negative)", origin, key,
                 item->valuedouble);
        return false;
    }
    /* A string goes to the input whole, whatever its length: the input says what it takes
     * ("longer than 127 bytes"), not this copy's buffer. */
    const char *value = text;
    if (cJSON_IsString(item) && item->valuestring != NULL) {
        value = item->valuestring;
    } else if (!json_value_text(item, text, sizeof text)) {
        snprintf(err, errlen, "%s: %s: not a string, number or boolean it can take", origin, key);
        return false;
    }
    char sub[SPEC_ERR_MAX];
    int r = scenario_set_option(s, key, value, sub, sizeof sub);
    if (r == 1)
        return true;
    if (r == 0)
        snprintf(err, errlen, "%s: %s: unknown key", origin, key);
    else
        snprintf(err, errlen, "%s: %s: %s", origin, key, sub);
    return false;
}

/* Order of application, so a file means the same whatever its key order: the registry's
 * order (the model first, params replacing it, its fields editing it, then the rest). */
static int key_rank(const char *key)
{
    return inputs_index(inputs_find(key));
}

static bool apply_json(struct scenario *s, const cJSON *obj, const char *origin, char *err,
                       size_t errlen)
{
    if (origin == NULL)
        origin = "scenario";
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errlen, "%s: not a JSON object", origin);
        return false;
    }
    /* A lecture demo read as a plain scenario: say what it is and how to run it, rather than
     * fail on its "steps". */
    if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(obj, "steps"))) {
        snprintf(err, errlen, "%s: a lecture demo for the dashboard (its steps are walked with n "
                              "and p), not a scenario: run `rooftop --scenario %s`", origin, origin);
        return false;
    }
    /* Duplicate keys would make the result depend on which one wins: refuse them. */
    for (const cJSON *a = obj->child; a != NULL; a = a->next) {
        if (a->string == NULL) {
            snprintf(err, errlen, "%s: a member without a name", origin);
            return false;
        }
    }
    const cJSON *dup;
    if (!json_dup_find(obj, &dup, NULL)) {
        snprintf(err, errlen, "%s: out of memory", origin);
        return false;
    }
    if (dup != NULL) {
        snprintf(err, errlen, "%s: %s: given twice", origin, dup->string);
        return false;
    }
    /* Each input's member, found in one pass: unknown keys first, so a typo is named before
     * any value is judged; a key spelt both ways ("zero_stage", "zero-stage") is one input
     * given twice. */
    enum { MAX_INPUTS = 256 };
    const cJSON *by_rank[MAX_INPUTS] = {NULL};
    if (inputs_count() > MAX_INPUTS) {
        snprintf(err, errlen, "%s: too many inputs in the registry", origin);
        return false;
    }
    for (const cJSON *it = obj->child; it != NULL; it = it->next) {
        if (is_ignored_key(it->string))
            continue;
        int rank = key_rank(it->string);
        if (rank < 0) {
            snprintf(err, errlen, "%s: %s: unknown key", origin, it->string);
            return false;
        }
        if (by_rank[rank] != NULL) {
            snprintf(err, errlen, "%s: %s and %s: one input given twice", origin,
                     by_rank[rank]->string, it->string);
            return false;
        }
        by_rank[rank] = it;
    }
    struct scenario t = *s;
    for (int rank = 0; rank < inputs_count(); rank++)
        if (by_rank[rank] != NULL && !apply_item(&t, by_rank[rank], origin, err, errlen))
            return false;
    /* A preset model named without tokens brings the tokens it was trained on. */
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(obj, "model");
    if (cJSON_IsString(model) && cJSON_GetObjectItemCaseSensitive(obj, "tokens") == NULL &&
        t.model.trained_tokens >= 1)
        t.tokens = t.model.trained_tokens;
    *s = t;
    return true;
}

bool scenario_apply_json(struct scenario *s, const cJSON *obj, const char *origin, char *err,
                         size_t errlen)
{
    bool ok = apply_json(s, obj, origin, err, errlen);
    if (!ok && errlen > 0)
        one_line(err);
    return ok;
}

bool scenario_parse(const char *json, size_t len, const char *origin, struct scenario *s,
                    char *err, size_t errlen)
{
    if (origin == NULL)
        origin = "scenario";
    if (json_read_nul_at(json, len) < len) {
        snprintf(err, errlen, "%s: a string holds \\u0000 (a NUL character), which would cut it "
                              "short", origin);
        one_line(err);
        return false;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
    if (root == NULL) {
        size_t at = end != NULL && end >= json ? (size_t)(end - json) : 0;
        snprintf(err, errlen, "%s: not valid JSON (at byte %zu)", origin, at);
        one_line(err);
        return false;
    }
    /* A whole file: its "name", or none (then the title is derived), never the name of what
     * it was applied onto (issue 8: a file without a name took the lecture's title). */
    char before[SCENARIO_NAME_MAX];
    memcpy(before, s->name, sizeof before);
    s->name[0] = '\0';
    bool ok = scenario_apply_json(s, root, origin, err, errlen);
    if (!ok)
        memcpy(s->name, before, sizeof before);
    cJSON_Delete(root);
    return ok;
}

bool scenario_load(const char *name_or_file, struct scenario *s, char *err, size_t errlen)
{
    char *path = files_resolve("scenarios", name_or_file);
    if (path == NULL) {
        snprintf(err, errlen, "%s: out of memory", name_or_file);
        one_line(err);
        return false;
    }
    char *text;
    size_t len;
    bool ok = files_read(path, SCENARIO_FILE_MAX, &text, &len, err, errlen);
    if (ok) {
        ok = scenario_parse(text, len, files_name_shown(path), s, err, errlen);
        free(text);
    }
    if (!ok)
        one_line(err);
    free(path);
    return ok;
}

bool scenario_save(const char *path, const struct scenario *s, char *err, size_t errlen)
{
    cJSON *o = scenario_to_json(s);
    bool ok = spec_save_json(path, o, err, errlen);
    cJSON_Delete(o);
    if (!ok)
        one_line(err);
    return ok;
}
