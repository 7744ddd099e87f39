/* infer_report.c - a serving scenario's figures: one table (src/figure.h) that the four
 * formats walk, as the training report's is. */
#include "infer_report.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "figure_table.h"
#include "op_figure.h"
#include "units.h"

struct infer_ctx {
    const struct scenario *s;
    const struct infer_result *r;
};

#define CTX const struct infer_ctx *c = ctx

/* ---- getters ------------------------------------------------------------------------- */

/* A double of the result at byte offset arg (a phase's too: offsetof(.., prefill.flops)). */
static void g_num(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_num(v, figure_double_at(c->r, arg));
}

/* An int64_t of the result at byte offset arg. */
static void g_int(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    figure_num(v, (double)figure_i64_at(c->r, arg));
}

/* A double of the result at byte offset arg as a share of the memory total: the dashboard's
 * memory panel (the total's arg is its share of the capacity). */
static void g_mem_share(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    bool of_cap = arg == (int)offsetof(struct infer_result, memory.total);
    double whole = of_cap ? c->r->memory.capacity : c->r->memory.total;
    figure_num(v, whole > 0 ? 100 * figure_double_at(c->r, arg) / whole : 0.0);
}

static void g_fits(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_bool(v, c->r->memory.fits);
}

enum infer_line { IL_BATCH, IL_DTYPES, IL_EFFICIENCY };

static void g_line(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    UNUSED_ITEM;
    const struct scenario *s = c->s;
    switch ((enum infer_line)arg) {
    case IL_BATCH:
        snprintf(v->buf, sizeof v->buf, "%lld x (prompt %lld + generate %lld tokens)",
                 (long long)s->batch, (long long)s->prompt, (long long)s->generate);
        break;
    case IL_DTYPES:
        snprintf(v->buf, sizeof v->buf, "activations %s, weights %s, KV cache %s",
                 dtype_name(s->dtype), dtype_name(infer_weights_dtype(s)),
                 dtype_name(infer_kv_dtype(s)));
        break;
    case IL_EFFICIENCY:
        snprintf(v->buf, sizeof v->buf, "compute %.2g, memory %.2g", c->r->compute_eff,
                 c->r->memory_eff);
        break;
    }
    figure_str(v, v->buf);
}

static void t_title(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "%s on %lld x %s (tensor parallel %lld)", c->s->model.name,
             (long long)c->s->tp, c->s->gpu.name, (long long)c->s->tp);
}

static void t_roofline(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "Roofline (%s on %s)", dtype_name(c->s->dtype), c->s->gpu.name);
}

/* The scenario block: the serving inputs the figures are of. */
static bool o_scenario(const void *ctx, cJSON *parent, const char *name)
{
    CTX;
    const struct scenario *s = c->s;
    cJSON *o = cJSON_AddObjectToObject(parent, name);
    return o != NULL && cJSON_AddStringToObject(o, "model", s->model.name) &&
           cJSON_AddStringToObject(o, "gpu", s->gpu.name) &&
           cJSON_AddNumberToObject(o, "tp", (double)s->tp) &&
           cJSON_AddNumberToObject(o, "batch", (double)s->batch) &&
           cJSON_AddNumberToObject(o, "prompt", (double)s->prompt) &&
           cJSON_AddNumberToObject(o, "generate", (double)s->generate) &&
           cJSON_AddStringToObject(o, "dtype", dtype_name(s->dtype)) &&
           cJSON_AddStringToObject(o, "weights_dtype", dtype_name(infer_weights_dtype(s))) &&
           cJSON_AddStringToObject(o, "kv_dtype", dtype_name(infer_kv_dtype(s))) &&
           cJSON_AddNumberToObject(o, "compute_eff", c->r->compute_eff) &&
           cJSON_AddNumberToObject(o, "memory_eff", c->r->memory_eff);
}

/* ---- asides -------------------------------------------------------------------------- */

static void a_kv(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    char t[32], g[32];
    units_bytes(c->r->kv_bytes_per_token, t, sizeof t);
    units_bytes(c->r->kv_bytes_per_token_gpu, g, sizeof g);
    snprintf(buf, n, "(%s per token; %s on each GPU)", t, g);
}

static void a_transient(const void *ctx, int item, int arg, char *buf, size_t n)
{
    (void)ctx;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "(transient, the largest prefill layer)");
}

static void a_fit(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct infer_result *r = c->r;
    char use[32], cap[32];
    units_bytes(r->memory.usable, use, sizeof use);
    units_bytes(r->memory.capacity, cap, sizeof cap);
    double pct = r->memory.usable > 0 ? 100.0 * r->memory.total / r->memory.usable : 0;
    snprintf(buf, n, "%s (%.0f%% of the %s planned on, of %s)",
             r->memory.fits ? "fits" : "DOES NOT FIT", pct, use, cap);
}

static void a_sequences(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "sequences of %lld tokens", (long long)(c->s->prompt + c->s->generate));
}

static void a_steps(const void *ctx, int item, int arg, char *buf, size_t n)
{
    CTX;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "average over %lld decode steps", (long long)c->r->decode_steps);
}

/* ---- the phases (a table in text) and the operations ---------------------------------- */

static const char *const PHASE_NAMES[] = {"prefill", "decode avg", "decode last"};

static const struct infer_phase *phase_of(const struct infer_result *r, int i)
{
    return i == 0 ? &r->prefill : i == 1 ? &r->decode : &r->decode_last;
}

static int n_phases(const void *ctx)
{
    (void)ctx;
    return 3;
}

enum phase_col { PH_NAME, PH_FLOPS, PH_BYTES, PH_INTENSITY, PH_SECONDS, PH_COMM };

static void g_phase(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    if (item < 0 || item > 2)
        return;
    const struct infer_phase *p = phase_of(c->r, item);
    switch ((enum phase_col)arg) {
    case PH_NAME:
        figure_str(v, PHASE_NAMES[item]);
        return;
    case PH_FLOPS:
        figure_num(v, p->flops);
        return;
    case PH_BYTES:
        figure_num(v, p->bytes);
        return;
    case PH_INTENSITY:
        figure_num(v, p->intensity);
        return;
    case PH_SECONDS:
        figure_num(v, p->seconds);
        return;
    case PH_COMM:
        figure_num(v, p->comm_seconds);
        return;
    }
}

/* The operations: the prefill's, then one average decode step's. */
static int n_ops(const void *ctx)
{
    CTX;
    return c->r->prefill.n_ops + c->r->decode.n_ops;
}

static const struct op *op_at(const struct infer_result *r, int item, const char **phase)
{
    bool pre = item < r->prefill.n_ops;
    *phase = pre ? "prefill" : "decode";
    return pre ? &r->prefill.ops[item] : &r->decode.ops[item - r->prefill.n_ops];
}

static const char *op_key(const void *ctx, int item)
{
    CTX;
    static char key[64]; /* CSV rows are written one at a time */
    const char *phase;
    const struct op *o = op_at(c->r, item, &phase);
    snprintf(key, sizeof key, "%s.%s", phase, o->name);
    return key;
}

/* The operation's own figures (src/op_figure.h), then its phase and name. */
enum op_col { OC_FLOPS = OPF_FLOPS, OC_BYTES = OPF_BYTES, OC_INTENSITY = OPF_INTENSITY,
              OC_BOUND = OPF_BOUND, OC_SECONDS = OPF_SECONDS, OC_PHASE = OPF_COUNT, OC_NAME };

static void g_op(const void *ctx, int item, int arg, struct figure_value *v)
{
    CTX;
    if (item < 0 || item >= n_ops(ctx))
        return;
    const char *phase;
    const struct op *o = op_at(c->r, item, &phase);
    if (op_figure_get(o, arg, v))
        return;
    figure_str(v, arg == OC_PHASE ? phase : o->name);
}

/* ---- the table ------------------------------------------------------------------------ */

#define NUM(k, f) .key = k, .get = g_num, .arg = (int)offsetof(struct infer_result, f)
/* A memory figure's share (of the total; the total's: of the capacity), for a panel. */
#define SHARE(k, f) .key = k, .get = g_mem_share, .arg = (int)offsetof(struct infer_result, f), \
                    .unit = FU_SHARE, PANEL
#define INT(k, f) .key = k, .get = g_int, .arg = (int)offsetof(struct infer_result, f)
/* A phase's figures in JSON and CSV ("prefill.flops"); text shows them as the phases table;
 * its operations' sum in the dashboard's operations header alone. */
#define PHASE(k, f, b)                                                                         \
    {VALUE, NUM(k ".flops", f.flops), .unit = FU_FLOP, DATA},                                  \
    {VALUE, NUM(k ".bytes", f.bytes), .unit = FU_BYTES, DATA},                                 \
    {VALUE, NUM(k ".intensity", f.intensity), .brief = b " step I", .unit = FU_INTENSITY,      \
     DATA},                                                                                    \
    {VALUE, NUM(k ".seconds", f.seconds), .unit = FU_SECONDS, DATA},                           \
    {VALUE, NUM(k ".comm_seconds", f.comm_seconds), .brief = b " all-reduce",                  \
     .unit = FU_SECONDS, DATA},                                                                \
    {VALUE, NUM(k ".keys", f.keys), .unit = FU_TOKENS, DATA},                                  \
    {VALUE, NUM(k ".compute_seconds", f.compute_seconds), .unit = FU_SECONDS, PANEL}

static const struct figure PHASE_COLS[] = {
    {VALUE, .key = "phase", .label = "phase", .get = g_phase, .arg = PH_NAME, .width = 12},
    {VALUE, .key = "flops", .label = "FLOPs", .unit = FU_FLOP, .get = g_phase, .arg = PH_FLOPS,
     .width = 9},
    {VALUE, .key = "bytes", .label = "bytes", .unit = FU_BYTES, .get = g_phase,
     .arg = PH_BYTES, .width = 9},
    {VALUE, .key = "intensity", .label = "FLOP/B", .unit = FU_INTENSITY, .get = g_phase,
     .arg = PH_INTENSITY, .width = 8},
    {VALUE, .key = "seconds", .label = "time", .unit = FU_SECONDS, .get = g_phase,
     .arg = PH_SECONDS, .width = 9},
    {VALUE, .key = "comm_seconds", .label = "all-reduce", .unit = FU_SECONDS, .get = g_phase,
     .arg = PH_COMM, .width = 10},
    END};

static const struct figure OP_COLS[] = {
    {VALUE, .key = "phase", .label = "phase", .get = g_op, .arg = OC_PHASE, .width = 8},
    {VALUE, .key = "name", .label = "op", .get = g_op, .arg = OC_NAME, .width = 11},
    {VALUE, .key = "flops", .label = "FLOPs", .unit = FU_FLOP, .get = g_op, .arg = OC_FLOPS,
     .width = 10},
    {VALUE, .key = "bytes", .label = "bytes", .unit = FU_BYTES, .get = g_op, .arg = OC_BYTES,
     .width = 10},
    {VALUE, .key = "intensity", .label = "FLOP/B", .unit = FU_INTENSITY, .get = g_op,
     .arg = OC_INTENSITY, .width = 10},
    {VALUE, .key = "bound", .label = "bound", .get = g_op, .arg = OC_BOUND, .width = 7},
    {VALUE, .key = "seconds", .label = "time", .unit = FU_SECONDS, .get = g_op,
     .arg = OC_SECONDS, .width = 10},
    END};

static const struct figure INFER[] = {
    {.entry = FE_SECTION, .label = "Inference: ", .title = t_title, .width = 10},
    {.entry = FE_OBJECT, .key = "scenario", .object = o_scenario, DATA},
    {VALUE, .key = "header.batch", .label = "batch", .get = g_line, .arg = IL_BATCH, PROSE},
    {VALUE, .key = "header.dtypes", .label = "dtypes", .get = g_line, .arg = IL_DTYPES, PROSE},
    {VALUE, .key = "header.efficiency", .label = "efficiency", .get = g_line,
     .arg = IL_EFFICIENCY, PROSE},
    /* The two efficiencies apart (JSON: the scenario block's), for the dashboard's header. */
    {VALUE, NUM("scenario.compute_eff", compute_eff), .label = "compute", .unit = FU_FRACTION,
     PANEL},
    {VALUE, NUM("scenario.memory_eff", memory_eff), .label = "memory", .unit = FU_FRACTION,
     PANEL},

    SECTION("Memory per GPU", 12),
    {VALUE, NUM("memory.weights", memory.weights), .label = "weights", .unit = FU_BYTES,
     .width = 10},
    {VALUE, NUM("memory.kv_cache", memory.kv_cache), .label = "KV cache", .unit = FU_BYTES,
     .aside = a_kv, .width = 10},
    {VALUE, NUM("memory.activations", memory.activations), .label = "activations",
     .unit = FU_BYTES, .aside = a_transient, .width = 10},
    {VALUE, NUM("memory.total", memory.total), .label = "total", .unit = FU_BYTES,
     .aside = a_fit, .width = 10},
    {VALUE, NUM("memory.capacity", memory.capacity), .unit = FU_BYTES, DATA},
    {VALUE, .key = "memory.fits", .get = g_fits, DATA},
    {VALUE, NUM("memory.usable", memory.usable), .unit = FU_BYTES, DATA},
    {VALUE, SHARE("memory.weights_share", memory.weights)},
    {VALUE, SHARE("memory.kv_cache_share", memory.kv_cache)},
    {VALUE, SHARE("memory.activations_share", memory.activations)},
    {VALUE, SHARE("memory.capacity_share", memory.total)},
    {VALUE, INT("max_batch", max_batch), .label = "max batch", .unit = FU_SEQUENCES,
     .aside = a_sequences, .width = 10},
    {VALUE, NUM("kv.bytes_per_token", kv_bytes_per_token), .unit = FU_BYTES, DATA},
    {VALUE, NUM("kv.bytes_per_token_per_gpu", kv_bytes_per_token_gpu), .unit = FU_BYTES, DATA},
    {VALUE, NUM("kv.bytes_per_sequence_per_gpu", kv_bytes_per_sequence_gpu), .unit = FU_BYTES,
     DATA},

    SECTION("Phases (one GPU)", 12),
    {.entry = FE_LIST, .key = "phases", .count = n_phases, .cols = PHASE_COLS, PROSE},
    PHASE("prefill", prefill, "P"),
    PHASE("decode", decode, "D"),
    {VALUE, INT("decode.steps", decode_steps), .unit = FU_STEPS, DATA},
    PHASE("decode_last", decode_last, "last"),

    SECTION("Latency", 22),
    {VALUE, NUM("latency.ttft", ttft), .label = "time to first token", .brief = "TTFT",
     .unit = FU_SECONDS},
    {VALUE, NUM("latency.tpot", tpot), .label = "time per output token", .brief = "TPOT",
     .unit = FU_SECONDS,
     .aside = a_steps},
    {VALUE, NUM("latency.tpot_last", tpot_last), .label = "at the last step",
     .brief = "TPOT last",
     .unit = FU_SECONDS},
    {VALUE, NUM("latency.end_to_end", end_to_end), .label = "end to end", .unit = FU_SECONDS},

    SECTION("Throughput", 22),
    {VALUE, NUM("throughput.tokens_per_s", tokens_per_s), .label = "tokens/s, batch",
     .brief = "tokens/s",
     .unit = FU_TOKENS_S},
    {VALUE, NUM("throughput.tokens_per_s_per_gpu", tokens_per_s_per_gpu), .brief = "per GPU",
     .label = "tokens/s per GPU",
     .unit = FU_TOKENS_S},
    {VALUE, NUM("throughput.decode_tokens_per_s", decode_tokens_per_s),
     .brief = "decode t/s",
     .label = "tokens/s decoding", .unit = FU_TOKENS_S},

    SECTION("Operations (one GPU: prefill of the whole prompt, one average decode step)", 0),
    {.entry = FE_LIST, .key = "ops", .count = n_ops, .item_name = op_key, .cols = OP_COLS},

    {.entry = FE_SECTION, .title = t_roofline, .width = 10},
    {VALUE, NUM("roofline.peak", peak), .label = "peak", .unit = FU_FLOP_RATE},
    {VALUE, NUM("roofline.bandwidth", bandwidth), .label = "bandwidth", .unit = FU_BANDWIDTH,
     .joined = true},
    {VALUE, NUM("roofline.ridge", ridge), .label = "ridge", .unit = FU_INTENSITY, .joined = true},
    END};

cJSON *infer_report_json(const struct scenario *s, const struct infer_result *r)
{
    struct infer_ctx c = {s, r};
    return figure_json(INFER, &c);
}

const struct figure *infer_report_table(void)
{
    return INFER;
}

void infer_report_figures(const struct scenario *s, const struct infer_result *r,
                          const struct figure_pick *pick, int n, struct figure_value *v,
                          bool *shown)
{
    struct infer_ctx c = {s, r};
    figure_get_picks(&c, pick, n, v, shown);
}

bool infer_report_figures_by_key(const struct scenario *s, const struct infer_result *r,
                                 const char *const *keys, int n, const struct figure **rows,
                                 struct figure_value *v)
{
    struct infer_ctx c = {s, r};
    return figure_get_keys(INFER, &c, keys, n, rows, v);
}

bool infer_report_write(FILE *f, const struct scenario *s, const struct infer_result *r,
                        enum report_format fmt)
{
    struct infer_ctx c = {s, r};
    return figure_write(f, INFER, &c, fmt);
}
