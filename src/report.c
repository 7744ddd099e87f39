/* report.c - one scenario's analysis as text, JSON, CSV or Markdown. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cost.h"
#include "dtype.h"
#include "op_contract.h"
#include "framework.h"
#include "predict.h"
#include "scenario_file.h"
#include "units.h"
#include "warnings.h"

static const char *const FORMAT_NAMES[] = {"text", "json", "csv", "md"};

const char *report_format_name(enum report_format fmt)
{
    if ((int)fmt < 0 || (int)fmt > REPORT_MD)
        return "?";
    return FORMAT_NAMES[fmt];
}

bool report_format_parse(const char *s, enum report_format *out)
{
    for (int i = 0; i <= REPORT_MD; i++) {
        if (strcmp(s, FORMAT_NAMES[i]) == 0) {
            *out = (enum report_format)i;
            return true;
        }
    }
    if (strcmp(s, "markdown") == 0) {
        *out = REPORT_MD;
        return true;
    }
    return false;
}

/* ---- shared figures --------------------------------------------------------------------------- */

static const char *const MEM_KEYS[MEM_COUNT] = {"params", "grads", "optimizer", "master_weights",
                                                "buffers", "activations"};
static const char *const MEM_LABELS[MEM_COUNT] = {"parameters", "gradients", "optimizer state",
                                                  "master weights", "buffers", "activations"};

/* A figure that must never print as NaN or inf: such a value becomes 0 (and in JSON null). */
static double fin(double v)
{
    return isfinite(v) ? v : 0.0;
}

/* The detailed count's attention convention, in words, for the text and Markdown reports. */
static const char *attn_convention(const struct scenario *s)
{
    return s->attention_flops == ATTN_FLOPS_CAUSAL
               ? "causal: half the s x s score and A.V work, what causal kernels execute "
                 "(--attention-flops)"
               : "full: all of the s x s score and A.V work, PaLM's and Narayanan et al.'s "
                 "MFU convention (--attention-flops)";
}

/* (detailed - 6ND) / 6ND in percent; 0 when 6ND is 0. */
static double detailed_vs_6nd(const struct analysis *a)
{
    if (!(a->flops.six_nd > 0))
        return 0.0;
    return fin(100.0 * (a->flops.detailed - a->flops.six_nd) / a->flops.six_nd);
}

static const char *bound_name(const struct op *o)
{
    return o->compute_bound ? "compute" : "memory";
}

/* Whether master weights apply: a separate fp32 copy only exists below fp32. */
static bool row_present(const struct analysis *a, int k)
{
    return k != MEM_MASTER || a->memory.row[MEM_MASTER].bytes > 0;
}

/* Rows left out of the text tables when empty: the buffers exist with ZeRO-2/3 only. */
static bool row_shown(const struct analysis *a, int k)
{
    return k != MEM_BUFFERS || a->memory.row[MEM_BUFFERS].bytes > 0;
}

/* The stage's name: "stage 1 of 4 (first)". */
static void stage_name(const struct memory *m, const struct mem_stage *st, char *buf, size_t n)
{
    const char *end = st->index == 0 ? " (first)" : st->index == m->stages - 1 ? " (last)" : "";
    snprintf(buf, n, "stage %lld of %lld%s", (long long)st->index + 1, (long long)m->stages, end);
}

/* The sentences under the memory table: which gradient dtype and why, what fp8 stores, what
 * the buffers are, which pipeline stage the rows are. Returns how many (at most 5). */
#define MEM_NOTES 5
#define MEM_NOTE_LEN 384
static int memory_notes(const struct scenario *s, const struct analysis *a, char lines[][MEM_NOTE_LEN])
{
    const struct memory *m = &a->memory;
    int n = 0;
    snprintf(lines[n++], MEM_NOTE_LEN, "gradients in %s (%s)", dtype_name(m->grad_dtype),
             memory_grad_why_text(m->grad_why));
    if (m->weights_dtype != s->dtype && s->dtype != DTYPE_TF32) {
        char low[32];
        units_bytes(m->activations_low, low, sizeof low);
        snprintf(lines[n++], MEM_NOTE_LEN,
                 "%s is the GEMMs' dtype: weights and activations are stored in %s, and each "
                 "layer keeps %s of %s copies of GEMM inputs for backward (Transformer Engine)",
                 dtype_name(s->dtype), dtype_name(m->weights_dtype), low, dtype_name(s->dtype));
    }
    if (m->row[MEM_BUFFERS].bytes > 0) {
        if (s->zero >= 3) {
            char big[32];
            units_count(m->gathered_params, big, sizeof big);
            snprintf(lines[n++], MEM_NOTE_LEN,
                     "buffers: ZeRO-3 gathers one module at a time, its weights and gradients "
                     "(the largest, %s parameters; DeepSpeed adds 4 bytes x its parameters)",
                     big);
        } else {
            snprintf(lines[n++], MEM_NOTE_LEN,
                     "buffers: under ZeRO-2 the backward's %s gradients, partitioned as the %s "
                     "shards they are reduced into (DeepSpeed's 2N + 18N/dp)",
                     dtype_name(m->weights_dtype), dtype_name(m->grad_dtype));
        }
    }
    if (m->stages > 1) {
        char name[64], other[64], ob[32];
        stage_name(m, &m->busiest, name, sizeof name);
        const struct mem_stage *o = m->busiest.index == 0 ? &m->last : &m->first;
        stage_name(m, o, other, sizeof other);
        units_bytes(o->total, ob, sizeof ob);
        snprintf(lines[n++], MEM_NOTE_LEN,
                 "pipeline: the rows are the busiest, %s: %lld layers%s, %.3g micro-batches in "
                 "flight; %s needs %s",
                 name, (long long)m->busiest.layers,
                 m->busiest.index == 0 ? " + embedding"
                 : m->busiest.index == m->stages - 1 ? " + LM head" : "",
                 m->busiest.in_flight, other, ob);
    }
    return n;
}

/* ---- JSON ------------------------------------------------------------------------------------- */

/* Adds a number, or null for a non-finite value, tracking allocation failure in *ok. */
static void jnum(cJSON *o, const char *k, double v, bool *ok)
{
    cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
    if (item == NULL || !cJSON_AddItemToObject(o, k, item)) {
        cJSON_Delete(item);
        *ok = false;
    }
}

static void jstr(cJSON *o, const char *k, const char *v, bool *ok)
{
    if (cJSON_AddStringToObject(o, k, v) == NULL)
        *ok = false;
}

static void jbool(cJSON *o, const char *k, bool v, bool *ok)
{
    if (cJSON_AddBoolToObject(o, k, v) == NULL)
        *ok = false;
}

static cJSON *jobj(cJSON *parent, const char *k, bool *ok)
{
    cJSON *o = cJSON_AddObjectToObject(parent, k);
    if (o == NULL)
        *ok = false;
    return o;
}

/* The measured figures: efficiency, what matched, each shape and its point. */
static void json_measured(cJSON *root, const struct measured *m, bool mfu_measured, bool *ok)
{
    cJSON *mo = jobj(root, "measured", ok);
    if (mo == NULL)
        return;
    jnum(mo, "efficiency", m->n_ops_measured > 0 ? m->efficiency : NAN, ok);
    jbool(mo, "used_as_mfu", mfu_measured, ok);
    jnum(mo, "flops_per_step", m->flops, ok);
    jnum(mo, "seconds_per_step", m->seconds, ok);
    jnum(mo, "peak", m->peak, ok);
    jnum(mo, "ops_measured", (double)m->n_ops_measured, ok);
    jnum(mo, "gemm_ops", (double)m->n_gemm_ops, ok);
    jstr(mo, "device", m->device, ok);
    jstr(mo, "other_dtype", m->dtype_differs ? dtype_name(m->point_dtype) : "", ok);
    jbool(mo, "shape_differs", m->shape_differs, ok);
    jbool(mo, "dtype_differs", m->dtype_differs, ok);
    jbool(mo, "other_device", m->other_device, ok);
    cJSON *sh = jobj(mo, "shapes", ok);
    for (int i = 0; sh != NULL && i < m->n_gemms; i++) {
        const struct measured_gemm *g = &m->gemm[i];
        cJSON *go = jobj(sh, g->label, ok);
        if (go == NULL)
            break;
        jnum(go, "m", (double)g->m, ok);
        jnum(go, "n", (double)g->n, ok);
        jnum(go, "k", (double)g->k, ok);
        jbool(go, "found", g->found, ok);
        if (!g->found)
            continue;
        jnum(go, "measured_m", (double)g->pm, ok);
        jnum(go, "measured_n", (double)g->pn, ok);
        jnum(go, "measured_k", (double)g->pk, ok);
        jstr(go, "dtype", dtype_name(g->dtype), ok);
        jnum(go, "flops_per_s", g->flops_per_s, ok);
    }
}

/* Measured seconds of op k, or -1. */
static double op_measured(const struct measured *m, int k)
{
    return m != NULL && k < m->n_ops && k < ANALYSIS_MAX_OPS ? m->op_seconds[k] : -1.0;
}

/* The evaluation's prediction and warnings, and whether the time above is the prediction
 * (--mfu predicted). */
struct report_prediction {
    struct prediction p;
    bool mfu_predicted;
    const struct warnings *warn;
    const struct cost *cost;      /* GPU-hours, energy and money at the time above */
};

/* "cost": GPU-hours, energy (null without a board power) and money (null without a price). */
static void json_cost(cJSON *root, const struct cost *c, bool *ok)
{
    cJSON *co = jobj(root, "cost", ok);
    if (co == NULL)
        return;
    jnum(co, "gpu_hours", c->gpu_hours, ok);
    jnum(co, "energy_kwh", c->has_energy ? c->energy_kwh : NAN, ok);
    jnum(co, "usd", c->has_price ? c->usd : NAN, ok);
    jnum(co, "price_per_gpu_hour", c->has_price ? c->price : NAN, ok);
    jnum(co, "board_power_w", c->board_power > 0 ? c->board_power : NAN, ok);
    jnum(co, "pue", c->pue, ok);
    jnum(co, "seconds", c->seconds, ok);
}

/* The report as one JSON object (NULL on allocation failure). */
static cJSON *report_json(const struct scenario *s, const struct analysis *a,
                          const struct measured *meas, bool mfu_measured,
                          const struct report_prediction *pr)
{
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    if (root == NULL)
        return NULL;

    cJSON *in = scenario_to_json(s);
    if (in == NULL || !cJSON_AddItemToObject(root, "scenario", in)) {
        cJSON_Delete(in);
        cJSON_Delete(root);
        return NULL;
    }
    /* The name the text report gives it (issue 8: JSON said "custom" where the text named
     * the model). */
    char title[SCENARIO_NAME_MAX + 160];
    scenario_title(s, title, sizeof title);
    cJSON_DeleteItemFromObjectCaseSensitive(in, "name");
    cJSON *tj = cJSON_CreateString(title);
    if (tj == NULL || !cJSON_AddItemToObject(in, "name", tj)) {
        cJSON_Delete(tj);
        cJSON_Delete(root);
        return NULL;
    }

    cJSON *mo = jobj(root, "model", &ok);
    if (mo != NULL) {
        jstr(mo, "id", s->model.id, &ok);
        jstr(mo, "name", s->model.name, &ok);
        if (s->model.checkpoint_bytes > 0)
            jnum(mo, "checkpoint_bytes", s->model.checkpoint_bytes, &ok);
    }
    cJSON *go = jobj(root, "gpu", &ok);
    if (go != NULL) {
        jstr(go, "id", s->gpu.id, &ok);
        jstr(go, "name", s->gpu.name, &ok);
    }
    cJSON *par = jobj(root, "parallel", &ok);
    if (par != NULL) {
        jnum(par, "gpus", (double)s->gpus, &ok);
        jnum(par, "dp", (double)a->dp, &ok);
        jnum(par, "tp", (double)s->tp, &ok);
        jnum(par, "pp", (double)s->pp, &ok);
        jnum(par, "cp", (double)s->cp, &ok);
        jnum(par, "ep", (double)s->ep, &ok);
        jnum(par, "micro_batch", (double)a->micro_batch, &ok);
        jnum(par, "accum_steps", (double)a->accum_steps, &ok);
    }

    const struct param_counts *p = &a->params;
    cJSON *po = jobj(root, "params", &ok);
    if (po != NULL) {
        jnum(po, "total", (double)p->total, &ok);
        /* The vocabulary the counts are of (padded with --vocab-pad) and the model's own. */
        jnum(po, "vocab", (double)scenario_vocab(s), &ok);
        jnum(po, "model_vocab", (double)s->model.vocab, &ok);
        jnum(po, "active", (double)p->active, &ok);
        jnum(po, "embedding", (double)p->embedding, &ok);
        jnum(po, "per_layer", (double)p->per_layer, &ok);
        jnum(po, "position", (double)p->position, &ok);
        jnum(po, "attention", (double)p->attention, &ok);
        jnum(po, "mlp", (double)p->mlp, &ok);
        jnum(po, "mlp_active", (double)p->mlp_active, &ok);
        jnum(po, "router", (double)p->router, &ok);
        jnum(po, "norms", (double)p->norms, &ok);
        jnum(po, "biases", (double)p->biases, &ok);
        jnum(po, "lm_head", (double)p->lm_head, &ok);
        /* Multi-token prediction (DeepSeek-V3): apart from total, as its release counts it. */
        jnum(po, "mtp", (double)p->mtp, &ok);
        /* A custom size: the count typed, which 6ND uses; null for an architecture. */
        jnum(po, "typed", p->typed > 0 ? (double)p->typed : NAN, &ok);
        jnum(po, "six_nd_n", (double)(p->typed > 0 ? p->typed : p->active), &ok);
    }

    const struct memory *m = &a->memory;
    cJSON *me = jobj(root, "memory", &ok);
    if (me != NULL) {
        for (int k = 0; k < MEM_COUNT; k++)
            jnum(me, MEM_KEYS[k], m->row[k].bytes, &ok);
        jnum(me, "activations_per_layer", m->activations_per_layer, &ok);
        jnum(me, "activations_outside", m->activations_outside, &ok);
        jnum(me, "activations_embedding", m->activations_embedding, &ok);
        jnum(me, "activations_low_copies", m->activations_low, &ok);
        jnum(me, "total", m->total, &ok);
        jnum(me, "capacity", m->capacity, &ok);
        jnum(me, "reserve", m->reserve, &ok);
        jnum(me, "usable", m->usable, &ok);
        jbool(me, "fits", m->fits, &ok);
        jstr(me, "weights_dtype", dtype_name(m->weights_dtype), &ok);
        jstr(me, "grad_dtype", dtype_name(m->grad_dtype), &ok);
        jstr(me, "grad_dtype_why", memory_grad_why_text(m->grad_why), &ok);
        cJSON *st = jobj(me, "stage", &ok);
        if (st != NULL) {
            /* The pipeline stage the rows are (the busiest), as Megatron-LM lays it out. */
            jnum(st, "index", (double)m->busiest.index, &ok);
            jnum(st, "stages", (double)m->stages, &ok);
            jnum(st, "layers", (double)m->busiest.layers, &ok);
            jnum(st, "in_flight", m->busiest.in_flight, &ok);
            jnum(st, "first_total_bytes", m->first.total, &ok);
            jnum(st, "last_total_bytes", m->last.total, &ok);
        }
        cJSON *rows = cJSON_AddArrayToObject(me, "rows");
        if (rows == NULL)
            ok = false;
        for (int k = 0; rows != NULL && k < MEM_COUNT; k++) {
            cJSON *r = cJSON_CreateObject();
            if (r == NULL || !cJSON_AddItemToArray(rows, r)) {
                cJSON_Delete(r);
                ok = false;
                break;
            }
            jstr(r, "row", MEM_KEYS[k], &ok);
            jstr(r, "dtype", dtype_name(m->row[k].dtype), &ok);
            jnum(r, "elements", m->row[k].elements, &ok);
            jnum(r, "bytes", m->row[k].bytes, &ok);
        }
    }

    const struct flops *f = &a->flops;
    cJSON *fo = jobj(root, "flops", &ok);
    if (fo != NULL) {
        jnum(fo, "per_step", f->per_step, &ok);
        jnum(fo, "total", f->total, &ok);
        jnum(fo, "six_nd", f->six_nd, &ok);
        jnum(fo, "recompute", f->recompute, &ok);
        jnum(fo, "detailed", f->detailed, &ok);
        jnum(fo, "detailed_vs_six_nd_percent", detailed_vs_6nd(a), &ok);
        jnum(fo, "model_per_step", f->model_per_step, &ok);
        jnum(fo, "recompute_per_step", f->recompute_per_step, &ok);
        jnum(fo, "optimizer_per_step", f->optimizer_per_step, &ok);
        jnum(fo, "model_total", f->model_total, &ok);
        jstr(fo, "mode", s->flops_mode == FLOPS_6ND ? "6nd" : "detailed", &ok);
        /* The detailed count's attention convention (6ND has no attention term). */
        jstr(fo, "attention", attn_flops_name(s->attention_flops), &ok);
    }

    const struct timing *t = &a->time;
    cJSON *to = jobj(root, "time", &ok);
    if (to != NULL) {
        jnum(to, "seconds", t->seconds, &ok);
        jnum(to, "days", t->days, &ok);
        jnum(to, "gpu_hours", t->gpu_hours, &ok);
        jnum(to, "mfu", t->mfu, &ok);
        jnum(to, "hfu", t->hfu, &ok);
        jnum(to, "tokens_per_s", t->tokens_per_s, &ok);
        jnum(to, "step_seconds", t->step_seconds, &ok);
        jnum(to, "steps", t->steps, &ok);
        jstr(to, "mfu_source", pr->mfu_predicted ? "predicted" : mfu_measured ? "measured" : "input",
             &ok);
        cJSON *pj = jobj(to, "predicted", &ok);
        if (pj != NULL) {
            jnum(pj, "step_seconds", pr->p.step_seconds, &ok);
            jnum(pj, "mfu", pr->p.mfu, &ok);
            jnum(pj, "hfu", pr->p.hfu, &ok);
            jnum(pj, "tokens_per_s", pr->p.tokens_per_s, &ok);
            jnum(pj, "days", pr->p.days, &ok);
            jnum(pj, "gemm_efficiency", pr->p.gemm_efficiency, &ok);
            jbool(pj, "gemm_measured", pr->p.gemm_measured, &ok);
            jstr(pj, "framework", framework_name(pr->p.framework), &ok);
            jstr(pj, "framework_assumes", framework_profile(pr->p.framework)->assumed, &ok);
            jbool(pj, "dp_overlap_override", pr->p.overlap_override, &ok);
            cJSON *bj = jobj(pj, "breakdown", &ok);
            for (int k = 0; bj != NULL && k < PART_COUNT; k++)
                jnum(bj, predict_part_name((enum predict_part)k), pr->p.part[k], &ok);
        }
    }

    json_cost(root, pr->cost, &ok);

    const struct roofline *rl = &a->roofline;
    cJSON *ro = jobj(root, "roofline", &ok);
    if (ro != NULL) {
        jnum(ro, "peak", rl->peak, &ok);
        jnum(ro, "bandwidth", rl->bandwidth, &ok);
        jnum(ro, "ridge", rl->ridge, &ok);
        jnum(ro, "step_seconds", rl->step_seconds, &ok);
        jnum(ro, "mfu_bound", rl->mfu_bound, &ok);
        jstr(ro, "dtype", dtype_name(s->dtype), &ok);
        /* The stage the ops are one GPU of: the busiest (all layers with one stage). */
        jnum(ro, "stage_layers", rl->stage_layers, &ok);
        jbool(ro, "stage_lm_head", rl->stage_head, &ok);
    }

    /* Inputs that do nothing or make no sense together: one sentence each, [] when none. */
    const struct warnings w = *pr->warn;
    cJSON *wa = cJSON_AddArrayToObject(root, "warnings");
    if (wa == NULL)
        ok = false;
    for (int k = 0; wa != NULL && k < w.n; k++) {
        cJSON *item = cJSON_CreateString(w.line[k]);
        if (item == NULL || !cJSON_AddItemToArray(wa, item)) {
            cJSON_Delete(item);
            ok = false;
        }
    }

    cJSON *ops = cJSON_AddArrayToObject(root, "ops");
    if (ops == NULL)
        ok = false;
    for (int k = 0; ops != NULL && k < a->n_ops; k++) {
        const struct op *o = &a->ops[k];
        cJSON *oj = cJSON_CreateObject();
        if (oj == NULL || !cJSON_AddItemToArray(ops, oj)) {
            cJSON_Delete(oj);
            ok = false;
            break;
        }
        jstr(oj, "name", o->name != NULL ? o->name : "?", &ok);
        jnum(oj, "flops", o->flops, &ok);
        jnum(oj, "bytes", o->bytes, &ok);
        jnum(oj, "intensity", o->intensity, &ok);
        jstr(oj, "bound", bound_name(o), &ok);
        jnum(oj, "attainable", o->attainable, &ok);
        jnum(oj, "seconds", o->seconds, &ok);
        if (meas != NULL) {
            double ms = op_measured(meas, k);
            jnum(oj, "measured_seconds", ms >= 0 ? ms : NAN, &ok);
        }
    }
    if (meas != NULL && ops != NULL)
        json_measured(root, meas, mfu_measured, &ok);
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

const cJSON *report_json_at(const cJSON *root, const char *key)
{
    const cJSON *o = root;
    const char *p = key;
    while (o != NULL && *p != '\0') {
        const char *dot = strchr(p, '.');
        size_t len = dot != NULL ? (size_t)(dot - p) : strlen(p);
        char part[64];
        if (len >= sizeof part)
            return NULL;
        memcpy(part, p, len);
        part[len] = '\0';
        o = cJSON_GetObjectItemCaseSensitive(o, part);
        p += len + (dot != NULL);
    }
    return o;
}

bool report_print_json(FILE *f, cJSON *root)
{
    char *text = root != NULL ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (text == NULL)
        return false;
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    free(text);
    return ok && !ferror(f);
}

static bool write_json(FILE *out, const struct scenario *s, const struct analysis *a,
                       const struct measured *m, bool mfu_measured, const struct report_prediction *pr)
{
    return report_print_json(out, report_json(s, a, m, mfu_measured, pr));
}

/* ---- CSV -------------------------------------------------------------------------------------- */

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

static void csv_row(FILE *out, const char *section, const char *key, const char *value,
                    const char *unit)
{
    csv_field(out, section);
    fputc(',', out);
    csv_field(out, key);
    fputc(',', out);
    csv_field(out, value);
    fputc(',', out);
    csv_field(out, unit);
    fputc('\n', out);
}

static void csv_num(FILE *out, const char *section, const char *key, double v, const char *unit)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", fin(v));
    csv_row(out, section, key, buf, unit);
}

/* Every figure the JSON holds, flattened: one "section,key,value,unit" row each. Walking
 * the JSON keeps the two formats from drifting apart. */
static void csv_walk(FILE *out, const cJSON *node, const char *section, const char *prefix)
{
    for (const cJSON *c = node->child; c != NULL; c = c->next) {
        char key[256];
        if (c->string != NULL)
            snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "." : "", c->string);
        else
            snprintf(key, sizeof key, "%s", prefix);
        if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
            csv_walk(out, c, section, key);
        } else if (cJSON_IsNumber(c)) {
            csv_num(out, section, key, c->valuedouble, "");
        } else if (cJSON_IsBool(c)) {
            csv_row(out, section, key, cJSON_IsTrue(c) ? "true" : "false", "");
        } else if (cJSON_IsString(c)) {
            csv_row(out, section, key, c->valuestring, "");
        } else {
            csv_row(out, section, key, "", "");
        }
    }
}

/* Units of the JSON sections' figures, for the CSV's fourth column. */
static const char *section_unit(const char *section, const char *key)
{
    if (strcmp(section, "params") == 0)
        return "parameters";
    if (strcmp(section, "memory") == 0)
        return strcmp(key, "fits") == 0 ? "" : "bytes";
    if (strcmp(section, "flops") == 0)
        return strstr(key, "percent") != NULL ? "%" : strcmp(key, "mode") == 0 ? "" : "FLOP";
    if (strcmp(section, "time") == 0) {
        if (strcmp(key, "seconds") == 0 || strcmp(key, "step_seconds") == 0)
            return "s";
        if (strcmp(key, "days") == 0)
            return "days";
        if (strcmp(key, "gpu_hours") == 0)
            return "GPU-hours";
        if (strcmp(key, "tokens_per_s") == 0)
            return "tokens/s";
        if (strcmp(key, "steps") == 0)
            return "steps";
        return "fraction";
    }
    if (strcmp(section, "measured") == 0) {
        if (strcmp(key, "efficiency") == 0)
            return "fraction";
        if (strcmp(key, "flops_per_step") == 0)
            return "FLOP";
        if (strcmp(key, "seconds_per_step") == 0)
            return "s";
        if (strcmp(key, "peak") == 0)
            return "FLOP/s";
        return "";
    }
    if (strcmp(section, "cost") == 0) {
        static const char *const units[][2] = {
            {"gpu_hours", "GPU-hours"}, {"energy_kwh", "kWh"}, {"usd", "USD"},
            {"price_per_gpu_hour", "USD/GPU-hour"}, {"board_power_w", "W"}, {"seconds", "s"}};
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
            if (strcmp(key, units[i][0]) == 0)
                return units[i][1];
        return "";
    }
    if (strcmp(section, "roofline") == 0) {
        if (strcmp(key, "peak") == 0)
            return "FLOP/s";
        if (strcmp(key, "bandwidth") == 0)
            return "B/s";
        if (strcmp(key, "ridge") == 0)
            return "FLOP/byte";
        if (strcmp(key, "step_seconds") == 0)
            return "s";
        if (strcmp(key, "mfu_bound") == 0)
            return "fraction";
    }
    return "";
}

static bool write_csv(FILE *out, const struct scenario *s, const struct analysis *a,
                      const struct measured *m, bool mfu_measured, const struct report_prediction *pr)
{
    cJSON *root = report_json(s, a, m, mfu_measured, pr);
    if (root == NULL)
        return false;
    fputs("section,key,value,unit\n", out);
    for (const cJSON *sec = root->child; sec != NULL; sec = sec->next) {
        if (strcmp(sec->string, "ops") == 0)
            continue;
        if (strcmp(sec->string, "warnings") == 0) {
            /* "warnings,1,TEXT,": numbered, the array has no keys. */
            int k = 0;
            for (const cJSON *c = sec->child; c != NULL; c = c->next) {
                char key[16];
                snprintf(key, sizeof key, "%d", ++k);
                csv_row(out, "warnings", key, cJSON_IsString(c) ? c->valuestring : "", "");
            }
            continue;
        }
        if (strcmp(sec->string, "memory") == 0 || strcmp(sec->string, "scenario") == 0 ||
            strcmp(sec->string, "model") == 0 || strcmp(sec->string, "gpu") == 0 ||
            strcmp(sec->string, "parallel") == 0 || strcmp(sec->string, "measured") == 0 ||
            strcmp(sec->string, "time") == 0) {
            /* Mixed content: nested rows and objects; no single unit applies. */
            for (const cJSON *c = sec->child; c != NULL; c = c->next) {
                if (cJSON_IsNumber(c))
                    csv_num(out, sec->string, c->string, c->valuedouble,
                            section_unit(sec->string, c->string));
                else if (cJSON_IsObject(c) || cJSON_IsArray(c))
                    csv_walk(out, c, sec->string, c->string);
                else if (cJSON_IsBool(c))
                    csv_row(out, sec->string, c->string, cJSON_IsTrue(c) ? "true" : "false", "");
                else if (cJSON_IsString(c))
                    csv_row(out, sec->string, c->string, c->valuestring, "");
            }
            continue;
        }
        for (const cJSON *c = sec->child; c != NULL; c = c->next) {
            if (cJSON_IsNumber(c))
                csv_num(out, sec->string, c->string, c->valuedouble,
                        section_unit(sec->string, c->string));
            else if (cJSON_IsString(c))
                csv_row(out, sec->string, c->string, c->valuestring, "");
            else if (cJSON_IsBool(c))
                csv_row(out, sec->string, c->string, cJSON_IsTrue(c) ? "true" : "false", "");
            else
                csv_row(out, sec->string, c->string, "", "");
        }
    }
    cJSON_Delete(root);
    /* The operations, one row per figure: "ops,qkv.flops,...". */
    for (int k = 0; k < a->n_ops; k++) {
        const struct op *o = &a->ops[k];
        const char *name = o->name != NULL ? o->name : "?";
        char key[96];
        snprintf(key, sizeof key, "%s.flops", name);
        csv_num(out, "ops", key, o->flops, "FLOP");
        snprintf(key, sizeof key, "%s.bytes", name);
        csv_num(out, "ops", key, o->bytes, "bytes");
        snprintf(key, sizeof key, "%s.intensity", name);
        csv_num(out, "ops", key, o->intensity, "FLOP/byte");
        snprintf(key, sizeof key, "%s.bound", name);
        csv_row(out, "ops", key, bound_name(o), "");
        snprintf(key, sizeof key, "%s.attainable", name);
        csv_num(out, "ops", key, o->attainable, "FLOP/s");
        snprintf(key, sizeof key, "%s.seconds", name);
        csv_num(out, "ops", key, o->seconds, "s");
        if (op_measured(m, k) >= 0) {
            snprintf(key, sizeof key, "%s.measured_seconds", name);
            csv_num(out, "ops", key, op_measured(m, k), "s");
        }
    }
    return !ferror(out);
}

/* ---- text and Markdown ------------------------------------------------------------------------ */

/* The text and Markdown reports share their figures and differ in layout only. */
struct figures {
    char model[256];
    char gpus[320];
    char setup[256];
    char train[256];
};

static void describe(const struct scenario *s, const struct analysis *a, bool mfu_measured,
                     bool mfu_predicted, struct figures *fg)
{
    char pc[32], tok[32], mem[32];
    units_count((double)a->params.total, pc, sizeof pc);
    units_count(s->tokens, tok, sizeof tok);
    units_bytes(s->gpu.memory_bytes, mem, sizeof mem);
    if (a->params.active != a->params.total) {
        char act[32];
        units_count((double)a->params.active, act, sizeof act);
        snprintf(fg->model, sizeof fg->model, "%s (%s parameters, %s active)", s->model.name, pc,
                 act);
    } else {
        snprintf(fg->model, sizeof fg->model, "%s (%s parameters)", s->model.name, pc);
    }
    /* The layout as Megatron-LM writes it: gpus = dp x tp x pp x cp; ep splits the routed
     * experts over ep of the dp x cp ranks, so it is no factor of the count. */
    char ep[48] = "";
    if (model_moe_layers(&s->model) > 0)
        snprintf(ep, sizeof ep, ", experts over ep %lld", (long long)s->ep);
    snprintf(fg->gpus, sizeof fg->gpus,
             "%lld x %s (%s each): dp %lld x tp %lld x pp %lld x cp %lld%s%s",
             (long long)s->gpus, s->gpu.name, mem, (long long)a->dp, (long long)s->tp,
             (long long)s->pp, (long long)s->cp, ep,
             s->sp ? " with sequence parallelism" : "");
    const int64_t vocab = scenario_vocab(s);
    if (vocab != s->model.vocab) {
        size_t used = strlen(fg->model);
        snprintf(fg->model + used, sizeof fg->model - used,
                 ", vocabulary padded %lld -> %lld (--vocab-pad %lld x tp %lld)",
                 (long long)s->model.vocab, (long long)vocab, (long long)s->vocab_pad,
                 (long long)s->tp);
    }
    snprintf(fg->setup, sizeof fg->setup,
             "%s, %s optimizer, master weights %s, ZeRO %d, recompute %s, flash %s, dropout %s",
             dtype_name(s->dtype), optimizer_name(s->optimizer),
             s->master_weights ? "on" : "off", s->zero, recompute_name(s->recompute),
             s->flash ? "on" : "off", s->dropout ? "on" : "off");
    snprintf(fg->train, sizeof fg->train,
             "%s tokens, batch %lld x seq %lld (micro-batch %lld, %lld accumulation step%s), "
             "MFU %.3g%s, FLOPs %s",
             tok, (long long)s->batch, (long long)s->seq, (long long)a->micro_batch,
             (long long)a->accum_steps, a->accum_steps == 1 ? "" : "s", s->mfu,
             mfu_measured ? " (measured GEMM efficiency)" : mfu_predicted ? " (predicted)" : "",
             s->flops_mode == FLOPS_6ND ? "6ND" : "detailed");
}

/* "fits (62% of 78 GB usable: 80 GB less a 2 GB reserve)" or "does not fit: 1.02 TB over
 * 78 GB usable (13.6x)" */
static void fit_line(const struct memory *m, char *buf, size_t n)
{
    char use[32], cap[32], res[32], over[32];
    units_bytes(m->usable, use, sizeof use);
    units_bytes(m->capacity, cap, sizeof cap);
    units_bytes(m->reserve, res, sizeof res);
    if (m->fits) {
        snprintf(buf, n, "fits (%.0f%% of %s usable: %s less a %s reserve)",
                 m->usable > 0 ? fin(100.0 * m->total / m->usable) : 0.0, use, cap, res);
    } else {
        units_bytes(m->total - m->usable, over, sizeof over);
        snprintf(buf, n, "does not fit: %s over %s usable (%.2gx; %s less a %s reserve)", over,
                 use, m->usable > 0 ? fin(m->total / m->usable) : 0.0, cap, res);
    }
}

struct param_row {
    const char *label;
    int64_t value;
};

static int param_rows(const struct analysis *a, struct param_row *rows)
{
    const struct param_counts *p = &a->params;
    int n = 0;
    rows[n++] = (struct param_row){"embedding", p->embedding};
    if (p->position > 0)
        rows[n++] = (struct param_row){"positions", p->position};
    rows[n++] = (struct param_row){"attention", p->attention};
    rows[n++] = (struct param_row){"mlp", p->mlp};
    if (p->mlp_active != p->mlp)
        rows[n++] = (struct param_row){"mlp (active)", p->mlp_active};
    if (p->router > 0)
        rows[n++] = (struct param_row){"router", p->router};
    rows[n++] = (struct param_row){"norms", p->norms};
    if (p->biases > 0)
        rows[n++] = (struct param_row){"biases", p->biases};
    rows[n++] = (struct param_row){"lm head", p->lm_head};
    rows[n++] = (struct param_row){"per layer", p->per_layer};
    rows[n++] = (struct param_row){"total", p->total};
    if (p->active != p->total)
        rows[n++] = (struct param_row){"active", p->active};
    if (p->typed > 0 && p->typed != p->total)
        rows[n++] = (struct param_row){"typed (6ND)", p->typed};
    if (p->mtp > 0)
        rows[n++] = (struct param_row){"MTP (apart)", p->mtp};
    return n;
}

/* A custom size whose fitted shape differs from the count typed: one sentence saying which
 * figure uses which, or "" when they agree. */
static void typed_note(const struct analysis *a, char *buf, size_t n)
{
    const struct param_counts *p = &a->params;
    buf[0] = '\0';
    if (p->typed > 0 && p->typed != p->total)
        snprintf(buf, n,
                 "6ND uses the %lld typed; memory and the detailed count use the fitted "
                 "shape's %lld (%+.4f%%)",
                 (long long)p->typed, (long long)p->total,
                 fin(100.0 * ((double)p->total - (double)p->typed) / (double)p->typed));
}

/* What the points say about the scenario's GEMMs, in one line (no leading spaces). */
static void measured_line(const struct scenario *s, const struct measured *m, char *buf,
                          size_t n)
{
    if (m->n_ops_measured > 0) {
        measured_describe(m, s, buf, n);
        return;
    }
    char arg[512];
    if (!measured_shapes_arg(s, arg, sizeof arg))
        arg[0] = '\0';
    snprintf(buf, n, "measured: the points hold no shape points for this scenario's GEMMs "
                     "(measure them with rooftop probe --shapes '%s')", arg);
}

/* The predicted step: its figures and where its time goes, each part with its share. */
static void text_predicted(FILE *out, const struct report_prediction *pr)
{
    const struct prediction *p = &pr->p;
    char b1[48], b2[48], b3[48];
    units_duration(p->step_seconds, b1, sizeof b1);
    units_count(p->tokens_per_s, b2, sizeof b2);
    fprintf(out, "Predicted step%s\n", pr->mfu_predicted ? " (the time above)" : "");
    /* The whole run in the unit the time section gives it (units_duration), not a second. */
    char run[48];
    units_duration(fin(p->days) * 86400.0, run, sizeof run);
    fprintf(out, "  step %s   MFU %.3g   HFU %.3g   tokens/s %s   training %s\n", b1,
            fin(p->mfu), fin(p->hfu), b2, run);
    fprintf(out, "  %-22s %10s %7s\n", "part", "time", "share");
    for (int k = 0; k < PART_COUNT; k++) {
        if (p->part[k] <= 0)
            continue;
        units_duration(p->part[k], b3, sizeof b3);
        fprintf(out, "  %-22s %10s %6.1f%%\n", predict_part_label((enum predict_part)k), b3,
                100.0 * p->part[k] / p->step_seconds);
    }
    units_duration(p->roofline_step, b3, sizeof b3);
    if (p->gemm_measured)
        fprintf(out, "  GEMMs at their measured rates; roofline step %s\n", b3);
    else
        fprintf(out, "  large GEMMs at %.3g of peak; roofline step %s\n", p->gemm_efficiency, b3);
    const struct framework_profile *f = framework_profile(p->framework);
    fprintf(out, "  %s's schedule%s: %s\n\n", f->label,
            p->overlap_override ? " (data-parallel overlap as --dp-overlap gives it)" : "",
            f->assumed);
}

/* The cost section: GPU-hours, energy and its formula, money or how to get it. */
static void text_cost(FILE *out, const struct scenario *s, const struct cost *c)
{
    char b1[48], b2[64], b3[48];
    fprintf(out, "Cost\n");
    units_count(c->gpu_hours, b1, sizeof b1);
    fprintf(out, "  GPU-hours          %s\n", b1);
    if (c->has_energy) {
        cost_energy_text(c->energy_kwh, b2, sizeof b2);
        fprintf(out, "  energy             %s (%lld GPUs x %.0f W x PUE %.3g)\n", b2,
                (long long)s->gpus, c->board_power, c->pue);
    } else {
        fprintf(out, "  energy             unknown (the GPU spec has no \"power\")\n");
    }
    if (c->has_price) {
        cost_usd_text(c->usd, b3, sizeof b3);
        fprintf(out, "  cost               %s at $%.4g per GPU-hour\n\n", b3, c->price);
    } else {
        fprintf(out, "  cost               no price given (--price USD per GPU-hour)\n\n");
    }
}

static bool write_text(FILE *out, const struct scenario *s, const struct analysis *a,
                       const struct measured *meas, bool mfu_measured, const struct report_prediction *pr)
{
    struct figures fg;
    describe(s, a, mfu_measured, pr->mfu_predicted, &fg);
    char b1[48], b2[48], b3[48], b4[48];

    char title[256];
    scenario_title(s, title, sizeof title);
    fprintf(out, "Scenario: %s\n", title);
    fprintf(out, "  model   %s\n", fg.model);
    if (s->model.checkpoint_bytes > 0) {
        double per = 0;
        model_checkpoint_explained(&s->model, &per);
        units_bytes(s->model.checkpoint_bytes, b1, sizeof b1);
        fprintf(out, "  weights %s in the checkpoint (model.safetensors.index.json): %.4g bytes "
                "a parameter counted\n", b1, per);
    }
    fprintf(out, "  gpus    %s\n", fg.gpus);
    fprintf(out, "  setup   %s\n", fg.setup);
    fprintf(out, "  train   %s\n", fg.train);
    const struct warnings w = *pr->warn;
    for (int k = 0; k < w.n; k++)
        fprintf(out, "  warning: %s\n", w.line[k]);
    fputc('\n', out);

    const struct memory *m = &a->memory;
    fprintf(out, "Memory per GPU\n");
    fprintf(out, "  %-16s %-9s %12s %12s\n", "row", "dtype", "elements", "bytes");
    for (int k = 0; k < MEM_COUNT; k++) {
        if (!row_shown(a, k))
            continue;
        if (!row_present(a, k)) {
            fprintf(out, "  %-16s %-9s %12s %12s\n", MEM_LABELS[k], "-", "-", "off");
            continue;
        }
        units_count(m->row[k].elements, b1, sizeof b1);
        units_bytes(m->row[k].bytes, b2, sizeof b2);
        fprintf(out, "  %-16s %-9s %12s %12s\n", MEM_LABELS[k], dtype_name(m->row[k].dtype), b1,
                b2);
    }
    char fit[256];
    fit_line(m, fit, sizeof fit);
    units_bytes(m->total, b1, sizeof b1);
    fprintf(out, "  %-16s %-9s %12s %12s  %s\n", "total", "", "", b1, fit);
    units_bytes(m->activations_per_layer, b2, sizeof b2);
    units_bytes(m->activations_outside, b3, sizeof b3);
    fprintf(out, "  activations: %s per layer per micro-batch, %s outside the layers\n", b2, b3);
    char notes[MEM_NOTES][MEM_NOTE_LEN];
    int nn = memory_notes(s, a, notes);
    for (int k = 0; k < nn; k++)
        fprintf(out, "  %s\n", notes[k]);
    fputc('\n', out);

    fprintf(out, "Parameters\n");
    struct param_row rows[16];
    int nr = param_rows(a, rows);
    for (int k = 0; k < nr; k++) {
        units_count((double)rows[k].value, b1, sizeof b1);
        fprintf(out, "  %-14s %8s %20lld\n", rows[k].label, b1, (long long)rows[k].value);
    }
    char note[256];
    typed_note(a, note, sizeof note);
    if (note[0] != '\0')
        fprintf(out, "  %s\n", note);
    fputc('\n', out);

    const struct flops *f = &a->flops;
    fprintf(out, "FLOPs\n");
    units_sci(f->detailed, b1, sizeof b1);
    units_sci(f->six_nd, b2, sizeof b2);
    fprintf(out, "  model, whole run   detailed %s   6ND %s   (detailed %+.1f%% vs 6ND)\n", b1, b2,
            detailed_vs_6nd(a));
    /* The lecture's split of 6ND: forward 2ND, backward (input and weight gradients) 4ND. */
    units_sci(f->model_total / 3.0, b1, sizeof b1);
    units_sci(f->model_total * 2.0 / 3.0, b2, sizeof b2);
    fprintf(out, "  forward, backward  %s + %s (%s: backward = 2 x forward)\n", b1, b2,
            s->flops_mode == FLOPS_6ND ? "2ND + 4ND" : "1/3 + 2/3");
    fprintf(out, "  attention          %s\n", attn_convention(s));
    units_sci(f->per_step, b1, sizeof b1);
    units_sci(f->model_per_step, b2, sizeof b2);
    fprintf(out, "  per step           executed %s   model %s\n", b1, b2);
    units_sci(f->recompute, b1, sizeof b1);
    /* 6ND is the lecture's formula and has no optimizer term: say so rather than print 0. */
    if (s->flops_mode == FLOPS_6ND)
        snprintf(b2, sizeof b2, "not in 6ND");
    else
        units_sci(f->optimizer_per_step, b2, sizeof b2);
    fprintf(out, "  recompute (run)    %s   optimizer per step %s\n", b1, b2);
    units_sci(f->total, b1, sizeof b1);
    fprintf(out, "  executed, run      %s\n\n", b1);

    const struct timing *t = &a->time;
    fprintf(out, "Time\n");
    units_duration(t->seconds, b1, sizeof b1);
    units_duration(t->step_seconds, b4, sizeof b4);
    units_sci(t->seconds, b2, sizeof b2);
    fprintf(out, "  training           %s (%s s)\n", b1, b2);
    units_count(t->gpu_hours, b2, sizeof b2);
    units_count(t->tokens_per_s, b3, sizeof b3);
    fprintf(out, "  GPU-hours          %s\n", b2);
    fprintf(out, "  tokens/s           %s\n", b3);
    units_count(t->steps, b1, sizeof b1);
    if (a->time.step_seconds < a->roofline.step_seconds * (1.0 - 1e-9)) {
        units_duration(a->roofline.step_seconds, b2, sizeof b2);
        fprintf(out, "  step time          %s (%s steps; under the roofline's %s: see warning)\n",
                b4, b1, b2);
    } else {
        fprintf(out, "  step time          %s (%s steps)\n", b4, b1);
    }
    fprintf(out, "  MFU %.3g   HFU %.3g\n\n", fin(t->mfu), fin(t->hfu));
    text_cost(out, s, pr->cost);
    text_predicted(out, pr);

    char stage[96] = "";
    if (s->pp > 1)
        /* "slowest": the memory table's busiest stage is often another (the first). */
        snprintf(stage, sizeof stage, " of the slowest pipeline stage (%.0f of %lld layers%s)",
                 a->roofline.stage_layers, (long long)s->model.layers,
                 a->roofline.stage_head ? " + LM head" : "");
    fprintf(out, "Operations (one GPU%s, one step: forward + backward%s)\n", stage,
            s->recompute != RECOMPUTE_NONE ? " + recompute" : "");
    fprintf(out, "  %-14s %10s %10s %10s %-8s %10s", "op", "FLOPs", "bytes", "FLOP/B", "bound",
            "time");
    fputs(meas != NULL ? "   measured\n" : "\n", out);
    for (int k = 0; k < a->n_ops; k++) {
        const struct op *o = &a->ops[k];
        units_sci(o->flops, b1, sizeof b1);
        units_bytes(o->bytes, b2, sizeof b2);
        units_duration(o->seconds, b3, sizeof b3);
        units_plain(o->intensity, b4, sizeof b4);
        fprintf(out, "  %-14s %10s %10s %10s %-8s %10s", o->name != NULL ? o->name : "?", b1,
                b2, b4, bound_name(o), b3);
        if (meas != NULL) {
            double ms = op_measured(meas, k);
            if (ms >= 0)
                units_duration(ms, b1, sizeof b1);
            fprintf(out, " %10s", ms >= 0 ? b1 : "-");
        }
        fputc('\n', out);
    }
    if (meas != NULL) {
        char line[512];
        measured_line(s, meas, line, sizeof line);
        fprintf(out, "  %s\n", line);
        if (meas->n_ops_measured > 0) {
            units_duration(meas->seconds, b1, sizeof b1);
            units_sci(meas->flops, b2, sizeof b2);
            units_flops_rate(meas->peak, b3, sizeof b3);
            fprintf(out, "  = %s FLOP / %s measured / %s peak%s\n", b2, b1, b3,
                    mfu_measured ? "; the training time uses it as the MFU" : "");
        }
    }
    fputc('\n', out);
    op_contract_write(out, a, model_mlp_gated(s->model.mlp));

    const struct roofline *r = &a->roofline;
    fprintf(out, "Roofline (%s on %s)\n", dtype_name(s->dtype), s->gpu.name);
    units_flops_rate(r->peak, b1, sizeof b1);
    units_bandwidth(r->bandwidth, b2, sizeof b2);
    fprintf(out, "  peak %s   bandwidth %s   ridge %.0f FLOP/byte\n", b1, b2, fin(r->ridge));
    units_duration(r->step_seconds, b3, sizeof b3);
    fprintf(out, "  roofline step time %s   MFU bound %.3g\n", b3, fin(r->mfu_bound));
    return !ferror(out);
}

/* Markdown table cells must not hold '|'; names from user files might. */
static void md_cell(FILE *out, const char *v)
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

static void md_cost(FILE *out, const struct cost *c)
{
    char b1[48], b2[64], b3[48];
    units_count(c->gpu_hours, b1, sizeof b1);
    if (c->has_energy)
        cost_energy_text(c->energy_kwh, b2, sizeof b2);
    else
        snprintf(b2, sizeof b2, "unknown");
    if (c->has_price)
        cost_usd_text(c->usd, b3, sizeof b3);
    else
        snprintf(b3, sizeof b3, "no price given");
    fprintf(out, "\n## Cost\n\n| | |\n|---|---:|\n| GPU-hours | %s |\n| energy | %s |\n"
                 "| PUE | %.3g |\n| cost | %s |\n",
            b1, b2, c->pue, b3);
}

static bool write_md(FILE *out, const struct scenario *s, const struct analysis *a,
                     const struct measured *meas, bool mfu_measured, const struct report_prediction *pr)
{
    struct figures fg;
    describe(s, a, mfu_measured, pr->mfu_predicted, &fg);
    char b1[48], b2[48], b3[48], b4[48];

    fputs("# ", out);
    char title[256];
    scenario_title(s, title, sizeof title);
    md_cell(out, title);
    fputs("\n\n- model: ", out);
    md_cell(out, fg.model);
    fputs("\n- GPUs: ", out);
    md_cell(out, fg.gpus);
    fprintf(out, "\n- setup: %s\n- training: %s\n\n", fg.setup, fg.train);
    const struct warnings w = *pr->warn;
    for (int k = 0; k < w.n; k++) {
        fputs("> **warning:** ", out);
        md_cell(out, w.line[k]);
        fputs("\n\n", out);
    }

    const struct memory *m = &a->memory;
    fputs("## Memory per GPU\n\n| row | dtype | elements | bytes |\n|---|---|---:|---:|\n", out);
    for (int k = 0; k < MEM_COUNT; k++) {
        if (!row_shown(a, k))
            continue;
        if (!row_present(a, k)) {
            fprintf(out, "| %s | - | - | off |\n", MEM_LABELS[k]);
            continue;
        }
        units_count(m->row[k].elements, b1, sizeof b1);
        units_bytes(m->row[k].bytes, b2, sizeof b2);
        fprintf(out, "| %s | %s | %s | %s |\n", MEM_LABELS[k], dtype_name(m->row[k].dtype), b1,
                b2);
    }
    char fit[256];
    fit_line(m, fit, sizeof fit);
    units_bytes(m->total, b1, sizeof b1);
    fprintf(out, "| **total** | | | **%s** |\n\n%s.\n\n", b1, fit);
    {
        char notes[MEM_NOTES][MEM_NOTE_LEN];
        int nn = memory_notes(s, a, notes);
        for (int k = 0; k < nn; k++) {
            fputs("- ", out);
            md_cell(out, notes[k]);
            fputc('\n', out);
        }
        if (nn > 0)
            fputc('\n', out);
    }

    fputs("## Parameters\n\n| component | parameters | exact |\n|---|---:|---:|\n", out);
    struct param_row rows[16];
    int nr = param_rows(a, rows);
    for (int k = 0; k < nr; k++) {
        units_count((double)rows[k].value, b1, sizeof b1);
        fprintf(out, "| %s | %s | %lld |\n", rows[k].label, b1, (long long)rows[k].value);
    }
    char note[256];
    typed_note(a, note, sizeof note);
    if (note[0] != '\0')
        fprintf(out, "\n%s.\n", note);

    const struct flops *f = &a->flops;
    units_sci(f->detailed, b1, sizeof b1);
    units_sci(f->six_nd, b2, sizeof b2);
    fprintf(out,
            "\n## FLOPs\n\n| | FLOPs |\n|---|---:|\n| model, detailed | %s |\n| model, 6ND | %s |\n"
            "| detailed vs 6ND | %+.1f%% |\n| attention | %s |\n",
            b1, b2, detailed_vs_6nd(a), attn_convention(s));
    units_sci(f->recompute, b1, sizeof b1);
    units_sci(f->total, b2, sizeof b2);
    units_sci(f->per_step, b3, sizeof b3);
    fprintf(out, "| recompute | %s |\n| executed, whole run | %s |\n| executed per step | %s |\n",
            b1, b2, b3);

    const struct timing *t = &a->time;
    units_duration(t->seconds, b1, sizeof b1);
    units_count(t->gpu_hours, b2, sizeof b2);
    units_count(t->tokens_per_s, b3, sizeof b3);
    fprintf(out,
            "\n## Time\n\n| | |\n|---|---:|\n| training | %s |\n| days | %.1f |\n"
            "| GPU-hours | %s |\n| tokens/s | %s |\n",
            b1, fin(t->days), b2, b3);
    units_duration(t->step_seconds, b1, sizeof b1);
    fprintf(out, "| step time | %s |\n| MFU | %.3g |\n| HFU | %.3g |\n", b1, fin(t->mfu),
            fin(t->hfu));
    md_cost(out, pr->cost);
    units_duration(pr->p.step_seconds, b1, sizeof b1);
    fprintf(out, "\n## Predicted step%s\n\nstep %s, MFU %.3g, HFU %.3g\n\n| part | time | share |\n"
                 "|---|---:|---:|\n",
            pr->mfu_predicted ? " (the time above)" : "", b1, fin(pr->p.mfu), fin(pr->p.hfu));
    for (int k = 0; k < PART_COUNT; k++) {
        if (pr->p.part[k] <= 0)
            continue;
        units_duration(pr->p.part[k], b2, sizeof b2);
        fprintf(out, "| %s | %s | %.1f%% |\n", predict_part_label((enum predict_part)k), b2,
                100.0 * pr->p.part[k] / pr->p.step_seconds);
    }

    fputs("\n## Operations (one GPU, one step)\n\n| op | FLOPs | bytes | FLOP/byte | bound | time |",
          out);
    fputs(meas != NULL ? " measured |\n|---|---:|---:|---:|---|---:|---:|\n"
                       : "\n|---|---:|---:|---:|---|---:|\n",
          out);
    for (int k = 0; k < a->n_ops; k++) {
        const struct op *o = &a->ops[k];
        units_sci(o->flops, b1, sizeof b1);
        units_bytes(o->bytes, b2, sizeof b2);
        units_duration(o->seconds, b3, sizeof b3);
        units_plain(o->intensity, b4, sizeof b4);
        fprintf(out, "| %s | %s | %s | %s | %s | %s |", o->name != NULL ? o->name : "?", b1,
                b2, b4, bound_name(o), b3);
        if (meas != NULL) {
            double ms = op_measured(meas, k);
            if (ms >= 0)
                units_duration(ms, b1, sizeof b1);
            fprintf(out, " %s |", ms >= 0 ? b1 : "-");
        }
        fputc('\n', out);
    }
    if (meas != NULL) {
        char line[512];
        measured_line(s, meas, line, sizeof line);
        fputc('\n', out);
        md_cell(out, line);
        fputs(mfu_measured ? "; the training time uses it as the MFU.\n" : ".\n", out);
    }

    const struct roofline *r = &a->roofline;
    units_flops_rate(r->peak, b1, sizeof b1);
    units_bandwidth(r->bandwidth, b2, sizeof b2);
    units_duration(r->step_seconds, b3, sizeof b3);
    fprintf(out,
            "\n## Roofline (%s)\n\n| | |\n|---|---:|\n| peak | %s |\n| bandwidth | %s |\n"
            "| ridge | %.0f FLOP/byte |\n| roofline step time | %s |\n| MFU bound | %.3g |\n",
            dtype_name(s->dtype), b1, b2, fin(r->ridge), b3, fin(r->mfu_bound));
    return !ferror(out);
}

/* The scenario block echoes the MFU in use as a number (its JSON meaning before the MFU
 * modes); time.mfu_source says where it comes from. */
static void shown_scenario(const struct evaluation *ev, struct scenario *shown)
{
    *shown = ev->sc;
    shown->mfu = ev->mfu;
    shown->mfu_mode = MFU_TYPED;
}

cJSON *report_json_of(const struct evaluation *ev)
{
    struct scenario shown;
    shown_scenario(ev, &shown);
    struct report_prediction pr = {ev->pred, ev->mfu_from == MFU_PREDICTED, &ev->warn, &ev->cost};
    return report_json(&shown, &ev->an, evaluation_measured(ev), ev->mfu_from == MFU_MEASURED,
                       &pr);
}

bool report_write(FILE *f, const struct evaluation *ev, enum report_format fmt)
{
    struct scenario shown;
    shown_scenario(ev, &shown);
    const struct analysis *a = &ev->an;
    const struct measured *m = evaluation_measured(ev);
    bool mfu_measured = ev->mfu_from == MFU_MEASURED;
    struct report_prediction pr = {ev->pred, ev->mfu_from == MFU_PREDICTED, &ev->warn, &ev->cost};
    switch (fmt) {
    case REPORT_TEXT:
        return write_text(f, &shown, a, m, mfu_measured, &pr);
    case REPORT_JSON:
        return write_json(f, &shown, a, m, mfu_measured, &pr);
    case REPORT_CSV:
        return write_csv(f, &shown, a, m, mfu_measured, &pr);
    case REPORT_MD:
        return write_md(f, &shown, a, m, mfu_measured, &pr);
    }
    return false;
}
