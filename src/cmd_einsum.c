/* cmd_einsum.c - `rooftop einsum`: a contract's shape, FLOPs, bytes and intensity on a GPU. */
#include "cmd_einsum.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "dtype.h"
#include "einsum.h"
#include "gpu.h"
#include "inputs.h"
#include "roofline.h"
#include "scenario.h"
#include "spec.h"
#include "units.h"

static void einsum_help(FILE *f)
{
    fputs("usage: rooftop einsum [reduce|rearrange] \"SPEC\" --dims NAME=SIZE,...\n"
          "                      [--dtype D] [--gpu G] [--format text|json]\n"
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

static const char *kind_name(enum einsum_kind k)
{
    return k == EINSUM_REDUCE ? "reduce" : k == EINSUM_REARRANGE ? "rearrange" : "einsum";
}

/* "[2, 8, 16]" */
static void shape_text(const struct einsum_cost *c, int n, char *buf, size_t len)
{
    size_t used = 0;
    for (int s = 0; s < n && used < len; s++) {
        int w = snprintf(buf + used, len - used, "%s%.0f", s ? ", " : "[", c->out_shape[s]);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used < len)
        snprintf(buf + used, len - used, n ? "]" : "[] (a scalar)");
}

static int print_json_cost(const struct einsum_spec *sp, const struct einsum_cost *c,
                           const double *size, enum dtype dt, const char *gpu, bool compute)
{
    cJSON *o = cJSON_CreateObject(), *dims = cJSON_AddObjectToObject(o, "dims"),
          *shape = cJSON_AddArrayToObject(o, "output_shape");
    bool ok = o && dims && shape && cJSON_AddStringToObject(o, "op", kind_name(sp->kind)) &&
              cJSON_AddStringToObject(o, "dtype", dtype_name(dt));
    for (int i = 0; ok && i < sp->n_names; i++)
        ok = cJSON_AddNumberToObject(dims, sp->names[i], size[i]) != NULL;
    for (int s = 0; ok && s < sp->out.n_slots; s++) {
        cJSON *v = cJSON_CreateNumber(c->out_shape[s]);
        ok = v != NULL && cJSON_AddItemToArray(shape, v);
    }
    ok = ok && cJSON_AddNumberToObject(o, "flops", c->flops) &&
         cJSON_AddNumberToObject(o, "bytes", c->bytes) &&
         cJSON_AddNumberToObject(o, "intensity", c->intensity) &&
         cJSON_AddStringToObject(o, "gpu", gpu) &&
         cJSON_AddStringToObject(o, "bound", c->bytes > 0 ? (compute ? "compute" : "memory") : "none");
    if (ok && sp->kind == EINSUM_REARRANGE)
        ok = cJSON_AddBoolToObject(o, "view", c->view) != NULL;
    return cli_print_json(o, ok, "einsum");
}

static void print_text(const char *text, const struct einsum_spec *sp,
                       const struct einsum_cost *c, const double *size, enum dtype dt,
                       const struct gpu_spec *gpu)
{
    char buf[256], sh[256], fl[32], by[32], in[32];
    printf("%s  %s  (%s, %g bytes an element)\n", kind_name(sp->kind), text, dtype_name(dt),
           dtype_bytes(dt));
    printf("  dims        ");
    for (int i = 0; i < sp->n_names; i++)
        printf("%s%s=%.0f", i ? " " : "", sp->names[i], size[i]);
    if (c->summed) {
        printf("   summed over:");
        for (int i = 0; i < sp->n_names; i++)
            if (c->summed >> i & 1u)
                printf(" %s", sp->names[i]);
    }
    printf("\n");
    einsum_term_text(sp, &sp->out, buf, sizeof buf);
    shape_text(c, sp->out.n_slots, sh, sizeof sh);
    printf("  output      %s = %s, %.0f elements\n", buf, sh, c->out_elems);
    units_sci(c->flops, fl, sizeof fl);
    if (sp->kind == EINSUM_CONTRACT)
        printf("  flops       %s (%.0f = %d x %.0f, the product of every dimension)\n", fl,
               c->flops, c->all > 0 ? (int)lround(c->flops / c->all) : 0, c->all);
    else if (sp->kind == EINSUM_REDUCE)
        printf("  flops       %s (%.0f = %.0f in - %.0f out)\n", fl, c->flops, c->in_elems[0],
               c->out_elems);
    else
        printf("  flops       0 (rearrange moves elements, it computes nothing)\n");
    units_bytes(c->bytes, by, sizeof by);
    if (sp->kind == EINSUM_REARRANGE && c->view)
        printf("  bytes       0: a view (the names keep their order; only the shape changes)\n");
    else {
        printf("  bytes       %s (%.0f: (", by, c->bytes);
        for (int i = 0; i < sp->n_in; i++)
            printf("%s%.0f", i ? " + " : "", c->in_elems[i]);
        printf(" in + %.0f out) x %g)%s\n", c->out_elems, dtype_bytes(dt),
               sp->kind == EINSUM_REARRANGE ? ", a copy: the order changes" : "");
    }
    double peak = gpu_peak(gpu, dt), ridge = gpu_ridge(gpu, dt);
    if (c->bytes > 0 && c->flops > 0 && peak > 0 && gpu->bandwidth > 0) {
        units_plain(c->intensity, in, sizeof in);
        units_plain(ridge, sh, sizeof sh);
        units_duration(roofline_seconds(c->flops, c->bytes, peak, gpu->bandwidth), buf,
                       sizeof buf);
        printf("  intensity   %s FLOP/byte: %s-bound on %s (ridge %s), %s\n", in,
               c->intensity >= ridge ? "compute" : "memory", gpu->name, sh, buf);
    }
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
    const char *text = argv[first];
    char err[512], sub[256];
    struct einsum_spec sp;
    if (!einsum_parse(text, kind, &sp, sub, sizeof sub)) {
        snprintf(err, sizeof err, "'%.200s': %s", text, sub);
        return cli_usage_error("einsum", err);
    }
    static const struct cli_flag own[] = {
        {"dims", true}, {"dtype", true}, {"gpu", true}, {"format", true}};
    struct cli_args args;
    cli_args_init(&args, argc, argv, first + 1, NULL, own, sizeof own / sizeof own[0]);
    const struct cli_flag *f;
    const char *v, *dims = NULL;
    enum dtype dt = DTYPE_BF16;
    struct scenario def;
    inputs_defaults(&def);
    struct gpu_spec gpu = def.gpu;
    bool json = false;
    int r;
    while ((r = cli_next(&args, &f, &v)) == CLI_OWN) {
        if (f == &own[0])
            dims = v;
        if (f == &own[1] && !dtype_parse(v, &dt)) {
            snprintf(err, sizeof err, "--dtype: '%.100s' is not a dtype (fp32, bf16, fp8 ...)", v);
            return cli_usage_error("einsum", err);
        }
        if (f == &own[2] && !spec_find_gpu(v, &gpu, sub, sizeof sub)) {
            snprintf(err, sizeof err, "--gpu: %s", sub);
            return cli_usage_error("einsum", err);
        }
        if (f == &own[3] && !cli_text_or_json(v, &json, err, sizeof err))
            return cli_usage_error("einsum", err);
    }
    int end = cli_args_end(r, &args, einsum_help, "einsum");
    if (end >= 0)
        return end;
    double size[EINSUM_MAX_NAMES];
    if (dims == NULL)
        return cli_usage_error("einsum", "--dims: give the size of every name (a=3,b=4)");
    if (!einsum_dims(&sp, dims, size, err, sizeof err))
        return cli_usage_error("einsum", err);
    struct einsum_cost c;
    einsum_cost(&sp, size, dtype_bytes(dt), &c);
    bool compute = c.intensity >= gpu_ridge(&gpu, dt);
    if (json)
        return print_json_cost(&sp, &c, size, dt, gpu.id, compute);
    print_text(text, &sp, &c, size, dt, &gpu);
    return cli_finish_output("einsum");
}
