/* infer_report.c - a serving scenario's figures in the four output formats. */
#include "infer_report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* One scalar figure: its JSON object (NULL: top level), key and unit. */
struct metric {
    const char *section;
    const char *name;
    double value;
    const char *unit;
};

#define METRICS_MAX 48

static double fin(double v)
{
    return isfinite(v) ? v : 0.0;
}

static int phase_metrics(struct metric *m, int n, const char *section, const struct infer_phase *p)
{
    m[n++] = (struct metric){section, "flops", p->flops, "FLOP"};
    m[n++] = (struct metric){section, "bytes", p->bytes, "B"};
    m[n++] = (struct metric){section, "intensity", p->intensity, "FLOP/B"};
    m[n++] = (struct metric){section, "seconds", p->seconds, "s"};
    m[n++] = (struct metric){section, "comm_seconds", p->comm_seconds, "s"};
    m[n++] = (struct metric){section, "keys", p->keys, "tokens"};
    return n;
}

/* Every scalar figure, in the order the formats print them. */
static int metrics_of(const struct infer_result *r, struct metric *m)
{
    int n = 0;
    m[n++] = (struct metric){"memory", "weights", r->memory.weights, "B"};
    m[n++] = (struct metric){"memory", "kv_cache", r->memory.kv_cache, "B"};
    m[n++] = (struct metric){"memory", "activations", r->memory.activations, "B"};
    m[n++] = (struct metric){"memory", "total", r->memory.total, "B"};
    m[n++] = (struct metric){"memory", "capacity", r->memory.capacity, "B"};
    m[n++] = (struct metric){"memory", "usable", r->memory.usable, "B"};
    m[n++] = (struct metric){"kv", "bytes_per_token", r->kv_bytes_per_token, "B"};
    m[n++] = (struct metric){"kv", "bytes_per_token_per_gpu", r->kv_bytes_per_token_gpu, "B"};
    m[n++] = (struct metric){"kv", "bytes_per_sequence_per_gpu", r->kv_bytes_per_sequence_gpu, "B"};
    n = phase_metrics(m, n, "prefill", &r->prefill);
    n = phase_metrics(m, n, "decode", &r->decode);
    m[n++] = (struct metric){"decode", "steps", (double)r->decode_steps, "steps"};
    n = phase_metrics(m, n, "decode_last", &r->decode_last);
    m[n++] = (struct metric){"latency", "ttft", r->ttft, "s"};
    m[n++] = (struct metric){"latency", "tpot", r->tpot, "s"};
    m[n++] = (struct metric){"latency", "tpot_last", r->tpot_last, "s"};
    m[n++] = (struct metric){"latency", "end_to_end", r->end_to_end, "s"};
    m[n++] = (struct metric){"throughput", "tokens_per_s", r->tokens_per_s, "tokens/s"};
    m[n++] = (struct metric){"throughput", "tokens_per_s_per_gpu", r->tokens_per_s_per_gpu, "tokens/s"};
    m[n++] = (struct metric){"throughput", "decode_tokens_per_s", r->decode_tokens_per_s, "tokens/s"};
    m[n++] = (struct metric){"roofline", "peak", r->peak, "FLOP/s"};
    m[n++] = (struct metric){"roofline", "bandwidth", r->bandwidth, "B/s"};
    m[n++] = (struct metric){"roofline", "ridge", r->ridge, "FLOP/B"};
    m[n++] = (struct metric){NULL, "max_batch", (double)r->max_batch, "sequences"};
    return n;
}

static const char *bound_name(const struct op *o)
{
    return o->compute_bound ? "compute" : "memory";
}

/* ---- JSON ------------------------------------------------------------------------------- */

static cJSON *section_of(cJSON *root, const char *name)
{
    cJSON *o = cJSON_GetObjectItemCaseSensitive(root, name);
    return o != NULL ? o : cJSON_AddObjectToObject(root, name);
}

static bool json_ops(cJSON *arr, const char *phase, const struct infer_phase *p)
{
    for (int i = 0; i < p->n_ops; i++) {
        const struct op *o = &p->ops[i];
        cJSON *j = cJSON_CreateObject();
        if (j == NULL || !cJSON_AddItemToArray(arr, j))
            return false;
        if (!cJSON_AddStringToObject(j, "phase", phase) ||
            !cJSON_AddStringToObject(j, "name", o->name) ||
            !cJSON_AddNumberToObject(j, "flops", fin(o->flops)) ||
            !cJSON_AddNumberToObject(j, "bytes", fin(o->bytes)) ||
            !cJSON_AddNumberToObject(j, "intensity", fin(o->intensity)) ||
            !cJSON_AddStringToObject(j, "bound", bound_name(o)) ||
            !cJSON_AddNumberToObject(j, "seconds", fin(o->seconds)))
            return false;
    }
    return true;
}

static bool json_scenario(cJSON *root, const struct scenario *s, const struct infer_result *r)
{
    cJSON *o = cJSON_AddObjectToObject(root, "scenario");
    return o != NULL && cJSON_AddStringToObject(o, "model", s->model.name) &&
           cJSON_AddStringToObject(o, "gpu", s->gpu.name) &&
           cJSON_AddNumberToObject(o, "tp", (double)s->tp) &&
           cJSON_AddNumberToObject(o, "batch", (double)s->batch) &&
           cJSON_AddNumberToObject(o, "prompt", (double)s->prompt) &&
           cJSON_AddNumberToObject(o, "generate", (double)s->generate) &&
           cJSON_AddStringToObject(o, "dtype", dtype_name(s->dtype)) &&
           cJSON_AddStringToObject(o, "weights_dtype", dtype_name(infer_weights_dtype(s))) &&
           cJSON_AddStringToObject(o, "kv_dtype", dtype_name(infer_kv_dtype(s))) &&
           cJSON_AddNumberToObject(o, "compute_eff", r->compute_eff) &&
           cJSON_AddNumberToObject(o, "memory_eff", r->memory_eff);
}

cJSON *infer_report_json(const struct scenario *s, const struct infer_result *r)
{
    cJSON *root = cJSON_CreateObject();
    bool ok = root != NULL && json_scenario(root, s, r);
    struct metric m[METRICS_MAX];
    int n = metrics_of(r, m);
    for (int i = 0; ok && i < n; i++) {
        cJSON *dst = m[i].section ? section_of(root, m[i].section) : root;
        ok = dst != NULL && cJSON_AddNumberToObject(dst, m[i].name, fin(m[i].value)) != NULL;
        if (ok && m[i].section && strcmp(m[i].name, "capacity") == 0)
            ok = cJSON_AddBoolToObject(dst, "fits", r->memory.fits) != NULL;
    }
    cJSON *ops = ok ? cJSON_AddArrayToObject(root, "ops") : NULL;
    ok = ok && ops != NULL && json_ops(ops, "prefill", &r->prefill) &&
         json_ops(ops, "decode", &r->decode);
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static bool write_json(FILE *f, const struct scenario *s, const struct infer_result *r)
{
    cJSON *root = infer_report_json(s, r);
    char *text = root != NULL ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (text == NULL)
        return false;
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    free(text);
    return ok;
}

/* ---- CSV and Markdown ------------------------------------------------------------------- */

static bool write_csv(FILE *f, const struct infer_result *r)
{
    struct metric m[METRICS_MAX];
    int n = metrics_of(r, m);
    bool ok = fprintf(f, "section,name,value,unit\n") > 0;
    for (int i = 0; ok && i < n; i++)
        ok = fprintf(f, "%s,%s,%.17g,%s\n", m[i].section ? m[i].section : "result", m[i].name,
                     fin(m[i].value), m[i].unit) > 0;
    ok = ok && fprintf(f, "memory,fits,%d,bool\n", r->memory.fits ? 1 : 0) > 0;
    const struct infer_phase *ph[2] = {&r->prefill, &r->decode};
    const char *names[2] = {"prefill_ops", "decode_ops"};
    for (int p = 0; ok && p < 2; p++)
        for (int i = 0; ok && i < ph[p]->n_ops; i++) {
            const struct op *o = &ph[p]->ops[i];
            ok = fprintf(f, "%s,%s.flops,%.17g,FLOP\n%s,%s.bytes,%.17g,B\n%s,%s.seconds,%.17g,s\n",
                         names[p], o->name, fin(o->flops), names[p], o->name, fin(o->bytes),
                         names[p], o->name, fin(o->seconds)) > 0;
        }
    return ok;
}

static bool write_md(FILE *f, const struct scenario *s, const struct infer_result *r)
{
    struct metric m[METRICS_MAX];
    int n = metrics_of(r, m);
    bool ok = fprintf(f, "## Inference: %s on %lld x %s\n\n| figure | value | unit |\n|---|---|---|\n",
                      s->model.name, (long long)s->tp, s->gpu.name) > 0;
    for (int i = 0; ok && i < n; i++)
        ok = fprintf(f, "| %s%s%s | %.6g | %s |\n", m[i].section ? m[i].section : "",
                     m[i].section ? "." : "", m[i].name, fin(m[i].value), m[i].unit) > 0;
    ok = ok && fprintf(f, "| memory.fits | %s | |\n\n| phase | op | FLOPs | bytes | FLOP/B | bound | seconds |\n"
                          "|---|---|---|---|---|---|---|\n", r->memory.fits ? "yes" : "no") > 0;
    const struct infer_phase *ph[2] = {&r->prefill, &r->decode};
    const char *names[2] = {"prefill", "decode"};
    for (int p = 0; ok && p < 2; p++)
        for (int i = 0; ok && i < ph[p]->n_ops; i++) {
            const struct op *o = &ph[p]->ops[i];
            ok = fprintf(f, "| %s | %s | %.3g | %.3g | %.3g | %s | %.3g |\n", names[p], o->name,
                         fin(o->flops), fin(o->bytes), fin(o->intensity), bound_name(o),
                         fin(o->seconds)) > 0;
        }
    return ok;
}

/* ---- text ------------------------------------------------------------------------------- */

static bool text_phase(FILE *f, const char *title, const struct infer_phase *p)
{
    char fl[32], by[32], in[32], t[32], c[32];
    units_sci(p->flops, fl, sizeof fl);
    units_bytes(p->bytes, by, sizeof by);
    units_plain(p->intensity, in, sizeof in);
    units_duration(p->seconds, t, sizeof t);
    units_duration(p->comm_seconds, c, sizeof c);
    return fprintf(f, "  %-12s FLOPs %-9s bytes %-9s %6s FLOP/B  time %-9s (all-reduce %s)\n",
                   title, fl, by, in, t, c) > 0;
}

static bool text_ops(FILE *f, const char *phase, const struct infer_phase *p)
{
    bool ok = true;
    for (int i = 0; ok && i < p->n_ops; i++) {
        const struct op *o = &p->ops[i];
        char fl[32], by[32], in[32], t[32];
        units_sci(o->flops, fl, sizeof fl);
        units_bytes(o->bytes, by, sizeof by);
        units_plain(o->intensity, in, sizeof in);
        units_duration(o->seconds, t, sizeof t);
        ok = fprintf(f, "  %-8s %-11s %10s %10s %10s %-7s %10s\n", phase, o->name, fl, by, in,
                     bound_name(o), t) > 0;
    }
    return ok;
}

static bool write_text(FILE *f, const struct scenario *s, const struct infer_result *r)
{
    char w[32], kv[32], act[32], tot[32], cap[32], kvt[32], kvg[32], use[32];
    units_bytes(r->memory.usable, use, sizeof use);
    units_bytes(r->memory.weights, w, sizeof w);
    units_bytes(r->memory.kv_cache, kv, sizeof kv);
    units_bytes(r->memory.activations, act, sizeof act);
    units_bytes(r->memory.total, tot, sizeof tot);
    units_bytes(r->memory.capacity, cap, sizeof cap);
    units_bytes(r->kv_bytes_per_token, kvt, sizeof kvt);
    units_bytes(r->kv_bytes_per_token_gpu, kvg, sizeof kvg);
    const double pct = r->memory.usable > 0 ? 100.0 * r->memory.total / r->memory.usable : 0;
    bool ok = fprintf(f, "Inference: %s on %lld x %s (tensor parallel %lld)\n"
                         "  batch %lld x (prompt %lld + generate %lld tokens)\n"
                         "  dtypes activations %s, weights %s, KV cache %s; efficiency compute %.2g, memory %.2g\n\n",
                      s->model.name, (long long)s->tp, s->gpu.name, (long long)s->tp,
                      (long long)s->batch, (long long)s->prompt, (long long)s->generate,
                      dtype_name(s->dtype), dtype_name(infer_weights_dtype(s)), dtype_name(infer_kv_dtype(s)),
                      r->compute_eff, r->memory_eff) > 0;
    ok = ok && fprintf(f, "Memory per GPU\n  weights      %10s\n  KV cache     %10s   (%s per token; %s on each GPU)\n"
                          "  activations  %10s   (transient, the largest prefill layer)\n"
                          "  total        %10s   %s (%.0f%% of the %s planned on, of %s)\n"
                          "  max batch    %lld sequences of %lld tokens\n\n",
                       w, kv, kvt, kvg, act, tot, r->memory.fits ? "fits" : "DOES NOT FIT", pct,
                       use, cap, (long long)r->max_batch, (long long)(s->prompt + s->generate)) > 0;
    ok = ok && fputs("Phases (one GPU)\n", f) >= 0 && text_phase(f, "prefill", &r->prefill) &&
         text_phase(f, "decode avg", &r->decode) && text_phase(f, "decode last", &r->decode_last);
    char ttft[32], tpot[32], last[32], e2e[32], tps[32], tpg[32], dtp[32];
    units_duration(r->ttft, ttft, sizeof ttft);
    units_duration(r->tpot, tpot, sizeof tpot);
    units_duration(r->tpot_last, last, sizeof last);
    units_duration(r->end_to_end, e2e, sizeof e2e);
    units_count(r->tokens_per_s, tps, sizeof tps);
    units_count(r->tokens_per_s_per_gpu, tpg, sizeof tpg);
    units_count(r->decode_tokens_per_s, dtp, sizeof dtp);
    ok = ok && fprintf(f, "\nLatency\n  time to first token  %s\n  time per output token %s average over %lld decode steps, %s at the last\n"
                          "  end to end           %s\n\nThroughput\n  %s tokens/s for the batch (%s per GPU), %s tokens/s while decoding\n\n",
                       ttft, tpot, (long long)r->decode_steps, last, e2e, tps, tpg, dtp) > 0;
    ok = ok && fprintf(f, "Operations (one GPU: prefill of the whole prompt, one average decode step)\n"
                          "  %-8s %-11s %10s %10s %10s %-7s %10s\n",
                       "phase", "op", "FLOPs", "bytes", "FLOP/B", "bound", "time") > 0 &&
         text_ops(f, "prefill", &r->prefill) && text_ops(f, "decode", &r->decode);
    char pk[32], bw[32], rd[32];
    units_flops_rate(r->peak, pk, sizeof pk);
    units_bandwidth(r->bandwidth, bw, sizeof bw);
    units_plain(r->ridge, rd, sizeof rd);
    ok = ok && fprintf(f, "\nRoofline (%s on %s)\n  peak %s   bandwidth %s   ridge %s FLOP/byte\n",
                       dtype_name(s->dtype), s->gpu.name, pk, bw, rd) > 0;
    return ok;
}

bool infer_report_write(FILE *f, const struct scenario *s, const struct infer_result *r,
                        enum report_format fmt)
{
    switch (fmt) {
    case REPORT_JSON:
        return write_json(f, s, r);
    case REPORT_CSV:
        return write_csv(f, r);
    case REPORT_MD:
        return write_md(f, s, r);
    case REPORT_TEXT:
        break;
    }
    return write_text(f, s, r);
}
