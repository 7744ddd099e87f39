/* infer_cli.c - `rooftop infer`: parse a serving scenario, compute it, print it. */
#include "infer_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "evaluation.h"
#include "infer_report.h"
#include "inputs.h"
#include "spec.h"

#define INFER_ERR_MAX 1024

enum infer_flag {
    F_MODEL, F_GPU, F_TP, F_BATCH, F_PROMPT, F_GENERATE, F_DTYPE, F_WEIGHTS, F_KV,
    F_COMPUTE_EFF, F_MEMORY_EFF, F_HBM_FRACTION, F_MEMORY_RESERVE, F_FORMAT, F_PROBE_SHAPES,
    F_COUNT
};

static const char *const flag_names[F_COUNT] = {
    [F_MODEL] = "model", [F_GPU] = "gpu", [F_TP] = "tp", [F_BATCH] = "batch",
    [F_PROMPT] = "prompt", [F_GENERATE] = "generate", [F_DTYPE] = "dtype",
    [F_WEIGHTS] = "weights-dtype", [F_KV] = "kv-dtype", [F_COMPUTE_EFF] = "compute-eff",
    [F_MEMORY_EFF] = "memory-eff", [F_HBM_FRACTION] = "hbm-fraction",
    [F_MEMORY_RESERVE] = "memory-reserve", [F_FORMAT] = "format",
    [F_PROBE_SHAPES] = "probe-shapes",
};

void infer_cli_help(FILE *f)
{
    fputs("usage: rooftop infer [options] [--format text|json|csv|md]\n"
          "Serving a model: memory per GPU with the KV cache, prefill (time to first token) and\n"
          "decode (time per output token) on the roofline, tokens/s.\n"
          "  --model NAME|FILE       model preset or JSON file (default " INFER_DEFAULT_MODEL ")\n"
          "  --gpu NAME|FILE         GPU preset or JSON file (default h100-sxm)\n"
          "  --tp T                  tensor-parallel GPUs serving one copy (default 1)\n"
          "  --batch B               sequences decoded together (default 1)\n"
          "  --prompt P              prompt tokens per sequence (default 2048 = 2Ki)\n"
          "  --generate N            generated tokens per sequence (default 256)\n"
          "  --dtype D               activations: fp32|bf16|fp16|fp8 (default bf16)\n"
          "  --weights-dtype W       linear-layer weights: fp32|bf16|fp16|fp8|int8|int4|fp4\n"
          "                          or auto (default: --dtype; int4 has one fp16 scale per\n"
          "                          128 values)\n"
          "  --kv-dtype K            the KV cache, same choices (default auto: --dtype)\n"
          "  --compute-eff E|auto    fraction of the dense peak reached, 0.001 to 1 (default\n"
          "                          auto: the GPU spec's measured GEMM efficiency, H100 SXM\n"
          "                          0.801)\n"
          "  --memory-eff E|auto     fraction of the memory bandwidth reached, 0.001 to 1\n"
          "                          (default auto: the GPU spec's measured copy efficiency, 0.9)\n"
          "  --hbm-fraction F|auto   fraction of each GPU's memory the engine plans on (default\n"
          "                          auto: 0.9, vLLM's gpu_memory_utilization)\n"
          "  --memory-reserve BYTES  of that, kept by the CUDA context, NCCL and the allocator\n"
          "                          (default 2GB, as training's)\n"
          "  --format F              text (default), json, csv or md\n"
          "  --probe-shapes B,B,...  print instead the decode GEMMs at these batches as\n"
          "                          `rooftop probe --shapes` takes them\n"
          "Numbers take 2k = 2000, 2Ki = 2048, 1e3, 256.\n",
          f);
}

/* "1,8,64": batches for --probe-shapes. */
static bool parse_batches(const char *v, struct infer_cli_out *out, char *err, size_t errlen)
{
    char item[64];
    out->n_batches = 0;
    for (const char *p = v;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof item || out->n_batches == INFER_PROBE_BATCHES) {
            snprintf(err, errlen, "--probe-shapes: '%s' is not up to %d batches like 1,8,64", v,
                     INFER_PROBE_BATCHES);
            return false;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        /* Each a batch, as --batch reads it. */
        struct scenario scratch;
        memset(&scratch, 0, sizeof scratch);
        char sub[SPEC_ERR_MAX];
        if (!inputs_parse(inputs_find("batch"), &scratch, item, sub, sizeof sub)) {
            snprintf(err, errlen, "--probe-shapes: %s", sub);
            return false;
        }
        out->batches[out->n_batches++] = scratch.batch;
        if (!end)
            return true;
        p = end + 1;
    }
}

/* Every serving input is a row of the registry (src/inputs.h: one grammar, one set of
 * messages): read as it reads it, then moved into s. */
static bool from_registry(struct scenario *s, enum infer_flag f, const char *v,
                          char *err, size_t errlen)
{
    static const char *const keys[F_COUNT] = {
        [F_MODEL] = "model", [F_GPU] = "gpu", [F_TP] = "tp", [F_BATCH] = "batch",
        [F_PROMPT] = "prompt", [F_GENERATE] = "generate", [F_DTYPE] = "dtype",
        [F_WEIGHTS] = "weights_dtype", [F_KV] = "kv_dtype", [F_COMPUTE_EFF] = "compute_eff",
        [F_MEMORY_EFF] = "memory_eff", [F_HBM_FRACTION] = "hbm_fraction",
        [F_MEMORY_RESERVE] = "memory_reserve",
    };
    const struct input *in = keys[f] ? inputs_find(keys[f]) : NULL;
    /* The registry's row sets its own field of the scenario (auto storage dtypes follow a
     * later --dtype by themselves); on a refusal the scenario stays as it was. */
    char sub[SPEC_ERR_MAX];
    if (in != NULL && inputs_parse(in, s, v, sub, sizeof sub))
        return true;
    snprintf(err, errlen, "--%s: %s", flag_names[f], in ? sub : "not a serving input");
    if (f == F_DTYPE) {
        /* Serving's own list, of the GPU's formats: not training's tf32 and fp4. */
        char has[128], typed[65];
        infer_dtypes(&s->gpu, has, sizeof has);
        snprintf(typed, sizeof typed, "%s", v);
        for (char *c = typed; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        snprintf(err, errlen, "--dtype: '%s' is not one of %s (the activations' formats the "
                              "%s has)", typed, has, s->gpu.name);
    }
    return false;
}

static bool apply(struct scenario *s, enum infer_flag f, const char *v,
                  struct infer_cli_out *out, char *err, size_t errlen)
{
    switch (f) {
    case F_FORMAT:
        if (out == NULL || !report_format_parse(v, &out->fmt)) {
            snprintf(err, errlen, "--format: '%s' is not one of text, json, csv, md", v);
            return false;
        }
        return true;
    case F_PROBE_SHAPES:
        return out != NULL && parse_batches(v, out, err, errlen);
    default:
        return from_registry(s, f, v, err, errlen);
    }
}

bool infer_cli_reads(const char *key)
{
    for (int f = 0; key != NULL && f < F_COUNT; f++) {
        if (f == F_FORMAT || f == F_PROBE_SHAPES)
            continue;
        const char *a = flag_names[f], *b = key;
        while (*a != '\0' && (*a == *b || (*a == '-' && *b == '_'))) {
            a++;
            b++;
        }
        if (*a == '\0' && *b == '\0')
            return true;
    }
    return false;
}

bool infer_cli_set(struct scenario *s, const char *key, const char *value,
                   char *err, size_t errlen)
{
    /* A file's key ("kv_dtype") is the flag's name with '_' for '-'. */
    char flag[32];
    size_t len = strlen(key);
    if (len >= sizeof flag) {
        snprintf(err, errlen, "'%.40s...' is not a serving input", key);
        return false;
    }
    for (size_t i = 0; i <= len; i++)
        flag[i] = key[i] == '_' ? '-' : key[i];
    for (int f = 0; f < F_COUNT; f++) {
        if (f == F_FORMAT || f == F_PROBE_SHAPES || strcmp(flag, flag_names[f]) != 0)
            continue;
        if (value[0] == '\0') {
            snprintf(err, errlen, "--%s: needs a value", flag_names[f]);
            return false;
        }
        return apply(s, (enum infer_flag)f, value, NULL, err, errlen);
    }
    snprintf(err, errlen, "'%s' is not a serving input (model, gpu, tp, batch, prompt, generate, "
                          "dtype, weights_dtype, kv_dtype, compute_eff, memory_eff, hbm_fraction, "
                          "memory_reserve)", key);
    return false;
}

bool infer_cli_parse(struct scenario *s, int argc, char **argv, int first,
                     struct infer_cli_out *out, char *err, size_t errlen)
{
    /* The one command-line parser (src/cli.h), with every flag of this command its own: the
     * training scenario's options (--zero, --seq, ...) mean nothing here and are refused. */
    struct cli_flag own[F_COUNT];
    for (int f = 0; f < F_COUNT; f++)
        own[f] = (struct cli_flag){flag_names[f], true};
    struct cli_args a;
    cli_args_init(&a, argc, argv, first, NULL, own, F_COUNT);
    /* The training options a user brings along, and serving's words for them. */
    static const char *const hints[][2] = {
        {"gpus", "did you mean --tp? infer serves one copy of the model, split over --tp GPUs"},
        {"seq", "did you mean --prompt? a served sequence is --prompt P tokens in, "
                "--generate N out"},
    };
    a.hints = hints;
    a.n_hints = sizeof hints / sizeof hints[0];
    for (;;) {
        const struct cli_flag *flag = NULL;
        const char *v = NULL;
        switch (cli_next(&a, &flag, &v)) {
        case CLI_END:
            return true;
        case CLI_HELP:
            snprintf(err, errlen, "--help: give it alone (rooftop infer --help)");
            return false;
        case CLI_ERROR:
            snprintf(err, errlen, "%s", a.err);
            return false;
        default:
            break;
        }
        int f = (int)(flag - own);
        if ((f == F_FORMAT || f == F_PROBE_SHAPES) && out == NULL) {
            snprintf(err, errlen, "unknown option '--%s'", flag_names[f]);
            return false;
        }
        if (v == NULL || v[0] == '\0') {
            snprintf(err, errlen, "--%s: needs a value", flag_names[f]);
            return false;
        }
        if (!apply(s, (enum infer_flag)f, v, out, err, errlen))
            return false;
        char note[256];
        if (out != NULL && (f == F_PROMPT || f == F_GENERATE) &&
            inputs_reading_note(inputs_find(flag_names[f]), v, note, sizeof note))
            fprintf(stderr, "rooftop infer: warning: --%s: %s\n", flag_names[f], note);
    }
}

bool infer_cli_scenario(struct scenario *s, int argc, char **argv, int first,
                        struct infer_cli_out *out, char *err, size_t errlen)
{
    infer_default(s); /* its GPU: the registry's default (src/inputs.c) */
    char sub[SPEC_ERR_MAX];
    bool has_model = false;
    for (int i = first; i < argc; i++)
        if (strcmp(argv[i], "--model") == 0 || strncmp(argv[i], "--model=", 8) == 0)
            has_model = true;
    if (!has_model && !spec_find_model(INFER_DEFAULT_MODEL, &s->model, sub, sizeof sub)) {
        snprintf(err, errlen, "--model: %s (give one with --model)", sub);
        return false;
    }
    return infer_cli_parse(s, argc, argv, first, out, err, errlen);
}

int cli_infer(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            infer_cli_help(stdout);
            return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
        }
    }
    struct scenario s;
    char err[INFER_ERR_MAX];
    struct infer_cli_out out = {.fmt = REPORT_TEXT};
    if (!infer_cli_scenario(&s, argc, argv, 1, &out, err, sizeof err) ||
        !infer_validate(&s, err, (int)sizeof err)) {
        fprintf(stderr, "rooftop infer: %s\n", err);
        return 2;
    }
    if (out.n_batches > 0) {
        char shapes[8192];
        if (!infer_probe_shapes(&s, out.batches, out.n_batches, shapes, sizeof shapes)) {
            fprintf(stderr, "rooftop infer: --probe-shapes: too many shapes for one argument\n");
            return 2;
        }
        if (puts(shapes) < 0 || fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "rooftop infer: writing output: %s\n", strerror(errno));
            return 1;
        }
        return 0;
    }
    struct evaluation *ev = malloc(sizeof *ev);
    if (ev == NULL) {
        fprintf(stderr, "rooftop infer: out of memory\n");
        return 1;
    }
    evaluation_serve(&s, ev);
    bool ok = infer_report_write(stdout, &ev->sc, &ev->serving, out.fmt);
    free(ev);
    if (!ok || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rooftop infer: writing output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
