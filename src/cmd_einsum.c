/* cmd_einsum.c - `rooftop einsum`: a contract's shape, FLOPs, bytes and intensity on a GPU. */
#include "cmd_einsum.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "dtype.h"
#include "einsum.h"
#include "figure.h"
#include "figure_table.h"
#include "gpu.h"
#include "inputs.h"
#include "roofline.h"
#include "scenario.h"
#include "spec.h"
#include "units.h"

static void einsum_help(FILE *f)
{
    fputs("usage: rooftop einsum [reduce|rearrange] \"SPEC\" --dims NAME=SIZE,...\n"
          "                      [--dtype D] [--gpu G] [--format text|json|csv|md]\n"
          "An operation as einops writes it: named dimensions, inputs before '->', the output\n"
          "after; a name missing from the output is summed over. Names are separated by\n"
          "spaces (\"b s h, h o -> b s o\"), or are single letters when no term has a space\n"
          "(\"bsh,ho->bso\", as torch.einsum).\n"
          "  einsum     FLOPs = 2 x the product of every dimension for two inputs that sum\n"
          "             (a multiply and an add per term), bytes = inputs + output\n"
          "  reduce     one input, the names kept after '->' (\"b s h -> b s\"): one operation\n"
          "             per element folded in (sum, max, min)\n"
          "  rearrange  one input, the same names regrouped (\"b s (a d) -> b a s d\"): 0 FLOPs;\n"
          "             a view when the names keep their order, else a copy (read + write)\n"
          "  --dims     the size of every name: a=3,b=4 (4Ki, 12288 ...)\n"
          "  --dtype D  element format (default bf16); --gpu G the roofline (default h100-sxm)\n",
          f);
}

/* What the command was asked and what it found: the contract, its sizes, its cost in a dtype
 * and the GPU whose roofline it sits on. */
struct einsum_run {
    const char *text;            /* the contract as typed */
    struct einsum_spec sp;
    double size[EINSUM_MAX_NAMES];
    struct einsum_cost c;
    enum dtype dt;
    struct gpu_spec gpu;
    enum report_format fmt;
    double peak, ridge;
};

/* ---- the figures: one table (src/figure.h) that the four formats walk ------------------ */

#define X const struct einsum_run *x = ctx

static const char *kind_name(enum einsum_kind k)
{
    return k == EINSUM_REDUCE ? "reduce" : k == EINSUM_REARRANGE ? "rearrange" : "einsum";
}

/* "einsum  b s h, h o -> b s o  (bf16, 2 bytes an element)" */
static void t_title(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    snprintf(buf, n, "%s  %s  (%s, %g bytes an element)", kind_name(x->sp.kind), x->text,
             dtype_name(x->dt), dtype_bytes(x->dt));
}

static int n_names(const void *ctx)
{
    X;
    return x->sp.n_names;
}

static const char *name_of(const void *ctx, int item)
{
    X;
    return item >= 0 && item < x->sp.n_names ? x->sp.names[item] : "";
}

static void g_dim(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ARG;
    figure_num(v, item >= 0 && item < x->sp.n_names ? x->size[item] : NAN);
}

/* Appends to buf at *used, as snprintf would, never past n. */
static void append(char *buf, size_t n, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
    if (*used >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, n - *used, fmt, ap);
    va_end(ap);
    *used += w > 0 ? (size_t)w : 0;
}

/* "b=2 s=8 h=4 o=16   summed over: h" */
static void g_dims_text(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    size_t used = 0, n = sizeof v->buf;
    v->buf[0] = '\0';
    for (int i = 0; i < x->sp.n_names; i++)
        append(v->buf, n, &used, "%s%s=%.0f", i ? " " : "", x->sp.names[i], x->size[i]);
    if (x->c.summed)
        append(v->buf, n, &used, "   summed over:");
    for (int i = 0; i < x->sp.n_names; i++)
        if (x->c.summed >> i & 1u)
            append(v->buf, n, &used, " %s", x->sp.names[i]);
    figure_str(v, v->buf);
}

/* output_shape: the output's axes' sizes, an array ([] for a scalar). */
static bool o_shape(const void *ctx, cJSON *parent, const char *name)
{
    X;
    cJSON *shape = cJSON_AddArrayToObject(parent, name);
    bool ok = shape != NULL;
    for (int s = 0; ok && s < x->sp.out.n_slots; s++) {
        cJSON *v = cJSON_CreateNumber(x->c.out_shape[s]);
        ok = v != NULL && cJSON_AddItemToArray(shape, v);
        if (!ok)
            cJSON_Delete(v);
    }
    return ok;
}

/* "b s o = [2, 8, 16], 256 elements" */
static void g_output_text(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    char term[256];
    einsum_term_text(&x->sp, &x->sp.out, term, sizeof term);
    size_t used = 0, n = sizeof v->buf;
    v->buf[0] = '\0';
    append(v->buf, n, &used, "%s = ", term);
    for (int s = 0; s < x->sp.out.n_slots; s++)
        append(v->buf, n, &used, "%s%.0f", s ? ", " : "[", x->c.out_shape[s]);
    append(v->buf, n, &used, "%s, %.0f elements", x->sp.out.n_slots ? "]" : "[] (a scalar)",
           x->c.out_elems);
    figure_str(v, v->buf);
}

enum einsum_word { EW_OP, EW_DTYPE, EW_GPU, EW_BOUND };

static void g_word(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ITEM;
    switch ((enum einsum_word)arg) {
    case EW_OP:
        figure_str(v, kind_name(x->sp.kind));
        return;
    case EW_DTYPE:
        figure_str(v, dtype_name(x->dt));
        return;
    case EW_GPU:
        figure_str(v, x->gpu.id);
        return;
    case EW_BOUND:
        figure_str(v, x->c.bytes > 0 ? (x->c.intensity >= x->ridge ? "compute" : "memory")
                                     : "none");
        return;
    }
}

enum einsum_num { EN_FLOPS, EN_BYTES, EN_INTENSITY };

static void g_num(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ITEM;
    switch ((enum einsum_num)arg) {
    case EN_FLOPS:
        figure_num(v, x->c.flops);
        return;
    case EN_BYTES:
        figure_num(v, x->c.bytes);
        /* A view moves nothing: text says so instead of "0 B". */
        if (x->sp.kind == EINSUM_REARRANGE && x->c.view)
            v->text = "0:";
        return;
    case EN_INTENSITY:
        figure_num(v, x->c.intensity);
        /* Text's "2.67 FLOP/byte:" before where it sits on the roofline. */
        units_plain(x->c.intensity, v->buf, sizeof v->buf);
        snprintf(v->buf + strlen(v->buf), sizeof v->buf - strlen(v->buf), " FLOP/byte:");
        v->text = v->buf;
        return;
    }
}

/* "(2048 = 2 x 1024, the product of every dimension)", "(48 = 64 in - 16 out)" */
static void a_flops(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct einsum_cost *c = &x->c;
    if (x->sp.kind == EINSUM_CONTRACT)
        snprintf(buf, n, "(%.0f = %d x %.0f, the product of every dimension)", c->flops,
                 c->all > 0 ? (int)lround(c->flops / c->all) : 0, c->all);
    else if (x->sp.kind == EINSUM_REDUCE)
        snprintf(buf, n, "(%.0f = %.0f in - %.0f out)", c->flops, c->in_elems[0], c->out_elems);
    else
        snprintf(buf, n, "(rearrange moves elements, it computes nothing)");
}

/* "(768: (64 + 64 in + 256 out) x 2)", or a view's "a view (...)". */
static void a_bytes(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    const struct einsum_cost *c = &x->c;
    if (x->sp.kind == EINSUM_REARRANGE && c->view) {
        snprintf(buf, n, "a view (the names keep their order; only the shape changes)");
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    append(buf, n, &used, "(%.0f: (", c->bytes);
    for (int i = 0; i < x->sp.n_in; i++)
        append(buf, n, &used, "%s%.0f", i ? " + " : "", c->in_elems[i]);
    append(buf, n, &used, " in + %.0f out) x %g)%s", c->out_elems, dtype_bytes(x->dt),
           x->sp.kind == EINSUM_REARRANGE ? ", a copy: the order changes" : "");
}

/* Text says where it sits on the roofline when it moves bytes, computes and the GPU has a
 * peak for the dtype; the number itself is in JSON and CSV always. */
static bool w_on_roofline(const void *ctx, int item, int arg)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    return x->c.bytes > 0 && x->c.flops > 0 && x->peak > 0 && x->gpu.bandwidth > 0;
}

/* "memory-bound on H100 SXM5 (ridge 295), 0.229 ns" */
static void a_intensity(const void *ctx, int item, int arg, char *buf, size_t n)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    char ridge[32], t[32];
    units_plain(x->ridge, ridge, sizeof ridge);
    units_duration(roofline_seconds(x->c.flops, x->c.bytes, x->peak, x->gpu.bandwidth), t,
                   sizeof t);
    snprintf(buf, n, "%s-bound on %s (ridge %s), %s",
             x->c.intensity >= x->ridge ? "compute" : "memory", x->gpu.name, ridge, t);
}

static bool w_rearrange(const void *ctx, int item, int arg)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    return x->sp.kind == EINSUM_REARRANGE;
}

static void g_view(const void *ctx, int item, int arg, struct figure_value *v)
{
    X;
    UNUSED_ITEM;
    UNUSED_ARG;
    figure_bool(v, x->c.view);
}

static const struct figure DIM_COLS[] = {{VALUE, .key = "size", .unit = FU_INT, .get = g_dim},
                                         END};

static const struct figure EINSUM[] = {
    {.entry = FE_SECTION, .title = t_title, .width = 11},
    {.entry = FE_LIST, .key = "dims", .count = n_names, .item_name = name_of, .cols = DIM_COLS,
     .keyed = true, DATA},
    {VALUE, .key = "dims", .label = "dims", .get = g_dims_text, PROSE},
    {.entry = FE_OBJECT, .key = "output_shape", .object = o_shape, DATA},
    {VALUE, .key = "output", .label = "output", .get = g_output_text, PROSE},
    {VALUE, .key = "op", .get = g_word, .arg = EW_OP, DATA},
    {VALUE, .key = "dtype", .get = g_word, .arg = EW_DTYPE, DATA},
    {VALUE, .key = "flops", .label = "flops", .unit = FU_FLOP, .get = g_num, .arg = EN_FLOPS,
     .aside = a_flops},
    {VALUE, .key = "bytes", .label = "bytes", .unit = FU_BYTES, .get = g_num, .arg = EN_BYTES,
     .aside = a_bytes},
    {VALUE, .key = "intensity", .label = "intensity", .unit = FU_INTENSITY, .get = g_num,
     .arg = EN_INTENSITY, .prose_when = w_on_roofline, .aside = a_intensity},
    {VALUE, .key = "gpu", .get = g_word, .arg = EW_GPU, DATA},
    {VALUE, .key = "bound", .get = g_word, .arg = EW_BOUND, DATA},
    {VALUE, .key = "view", .get = g_view, .when = w_rearrange, DATA},
    END};

/* One flag of einsum's own onto x (--dims into *dims); the exit status of a refusal, or -1. */
static int einsum_flag(struct einsum_run *x, const struct cli_flag *own, const struct cli_flag *f,
                       const char *v, const char **dims)
{
    char err[CLI_ERR_MAX], sub[SPEC_ERR_MAX];
    if (f == &own[0])
        *dims = v;
    if (f == &own[1] && !dtype_parse(v, &x->dt)) {
        snprintf(err, sizeof err, "--dtype: '%.100s' is not a dtype (fp32, bf16, fp8 ...)", v);
        return cli_usage_error("einsum", err);
    }
    if (f == &own[2] && !spec_find_gpu(v, &x->gpu, sub, sizeof sub)) {
        snprintf(err, sizeof err, "--gpu: %s", sub);
        return cli_usage_error("einsum", err);
    }
    if (f == &own[3] && !cli_parse_format(v, &x->fmt, err, sizeof err))
        return cli_usage_error("einsum", err);
    return -1;
}

int cmd_einsum(int argc, char **argv)
{
    enum einsum_kind kind = EINSUM_CONTRACT;
    int first = 1;
    if (argc > 1 && (strcmp(argv[1], "reduce") == 0 || strcmp(argv[1], "rearrange") == 0)) {
        kind = strcmp(argv[1], "reduce") == 0 ? EINSUM_REDUCE : EINSUM_REARRANGE;
        first = 2;
    }
    if (argc > first && (strcmp(argv[first], "--help") == 0 || strcmp(argv[first], "-h") == 0)) {
        einsum_help(stdout);
        return cli_finish_output("einsum");
    }
    if (argc <= first || strncmp(argv[first], "--", 2) == 0) {
        einsum_help(stderr);
        return 2;
    }
    struct einsum_run x;
    memset(&x, 0, sizeof x);
    x.text = argv[first];
    char err[CLI_ERR_MAX], sub[256];
    if (!einsum_parse(x.text, kind, &x.sp, sub, sizeof sub)) {
        snprintf(err, sizeof err, "'%.200s': %s", x.text, sub);
        return cli_usage_error("einsum", err);
    }
    static const struct cli_flag own[] = {
        {"dims", true}, {"dtype", true}, {"gpu", true}, {"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, first + 1, NULL, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v, *dims = NULL;
    x.dt = DTYPE_BF16;
    x.fmt = REPORT_TEXT;
    struct scenario def;
    inputs_defaults(&def);
    x.gpu = def.gpu;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        int rc = einsum_flag(&x, own, f, v, &dims);
        if (rc >= 0)
            return rc;
    }
    int end = cli_args_end(r, &args, einsum_help, "einsum");
    if (end >= 0)
        return end;
    if (dims == NULL)
        return cli_usage_error("einsum", "--dims: give the size of every name (a=3,b=4)");
    if (!einsum_dims(&x.sp, dims, x.size, err, sizeof err))
        return cli_usage_error("einsum", err);
    einsum_cost(&x.sp, x.size, dtype_bytes(x.dt), &x.c);
    x.peak = gpu_peak(&x.gpu, x.dt);
    x.ridge = gpu_ridge(&x.gpu, x.dt);
    return cli_print_figures(EINSUM, &x, x.fmt, "einsum");
}
