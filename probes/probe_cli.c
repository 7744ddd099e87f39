/* probe_cli.c - `rooftop probe`: picks a backend, streams its points, writes the document. */
#include "probe_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "nearest.h"
#include "points.h"
#include "probe.h"
#include "probe_json.h"
#include "spec.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rooftop probe [--backend auto|cuda|cpu] [--device N] [--quick] [--force]\n"
            "                     [--out FILE] [--save-spec FILE] [--time-limit S]\n"
            "                     [--threads N] [--shapes [LABEL=]M,N,K;...]\n"
            "Measures bandwidth, an FMA intensity sweep, the lecture's operations and (CUDA)\n"
            "tensor-core GEMMs; streams one JSON line per point to stdout.\n"
            "  --backend B     auto (default): cuda when a device is usable, else cpu\n"
            "  --device N      CUDA device index (default 0)\n"
            "  --quick         a few seconds: fewer points, smaller buffers\n"
            "  --out FILE      write the whole document (device, time, points) to FILE\n"
            "  --save-spec F   write the measured ceilings as a GPU spec file\n"
            "  --force         write --out and --save-spec even over files read-only to you or\n"
            "                  with other hard links (refused otherwise)\n"
            "  --time-limit S  stop after S seconds (default 300)\n"
            "  --threads N     CPU backend: run on N threads (default: every usable CPU)\n"
            "  --shapes S      GEMM shapes to measure as M,N,K, e.g. qkv=4096,6144,4096; points\n"
            "                  shape.LABEL.MxNxK (bf16 on CUDA; fp32 on the CPU, which scales a\n"
            "                  shape down to 0.5 GFLOP, 5 without --quick, and names what ran)\n");
}

struct cli_sink {
    struct points_doc doc;
    bool oom;
    int invalid;
};

static void out_line(const char *line)
{
    /* Streamed for a reader on a pipe: each line as soon as it exists. */
    fputs(line, stdout);
    fflush(stdout);
}

static void on_device(void *ctx, const struct probe_device *dev)
{
    struct cli_sink *s = ctx;
    s->doc.device = *dev;
    char buf[2048];
    if (points_format_device(dev, buf, sizeof buf))
        out_line(buf);
}

static void on_point(void *ctx, const struct probe_point *p)
{
    struct cli_sink *s = ctx;
    if (!points_add(&s->doc, p))
        s->oom = true;
    if (!p->valid)
        s->invalid++;
    char buf[1024];
    if (points_format_point(p, buf, sizeof buf))
        out_line(buf);
}

static void on_progress(void *ctx, int done, int total, const char *what)
{
    (void)ctx;
    pj_progress(stdout, done, total, what ? what : "");
}

static void on_status(void *ctx, const char *text)
{
    (void)ctx;
    pj_message(stdout, "status", text);
}

static bool parse_positive(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v <= 0)
        return false;
    *out = v;
    return true;
}

static bool parse_index(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 0 || v > 1024)
        return false;
    *out = (int)v;
    return true;
}

/* "--flag value" or "--flag=value"; advances *i past a separate value. */
static const char *opt_value(int argc, char **argv, int *i, const char *flag, bool *missing)
{
    size_t fl = strlen(flag);
    const char *a = argv[*i];
    *missing = false;
    if (strncmp(a, flag, fl) != 0)
        return NULL;
    if (a[fl] == '=')
        return a + fl + 1;
    if (a[fl] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

/* What the command line asked of a probe run. */
struct probe_cmd {
    struct probe_options o;
    const char *backend, *out, *spec;
};

/* The flags that take a value, in the order probe_flag's switch reads them. */
static const char *const value_flags[] = {"--backend",   "--device",     "--out",
                                          "--save-spec", "--time-limit", "--shapes",
                                          "--threads"};

/* An unknown option, as every command says it: quoted, with the nearest ones offered. */
static int unknown_option(const char *a)
{
    static const char *const names[] = {"backend",    "device", "out",     "save-spec",
                                        "time-limit", "shapes", "threads", "quick",
                                        "help"};
    char near[160] = "", word[64];
    snprintf(word, sizeof word, "%s", a + strspn(a, "-"));
    word[strcspn(word, "=")] = '\0';
    nearest_suggest(word, names, sizeof names / sizeof names[0], "--", near, sizeof near);
    fprintf(stderr, "rooftop probe: unknown option '%.200s' (%s%s%s)\n", a,
            near[0] ? "did you mean " : "", near,
            near[0] ? "? rooftop probe --help lists them" : "see rooftop probe --help");
    return 2;
}

/* The value v of value_flags[f] onto c; 2 (said on stderr) when it is refused, else -1. */
static int probe_flag(struct probe_cmd *c, size_t f, const char *v)
{
    char err[POINTS_ERR_MAX];
    switch (f) {
    case 0:
        if (strcmp(v, "auto") != 0 && !probe_backend_find(v)) {
            fprintf(stderr, "rooftop probe: --backend: '%s' is not auto, cuda or cpu\n", v);
            return 2;
        }
        c->backend = v;
        return -1;
    case 1:
        if (!parse_index(v, &c->o.device)) {
            fprintf(stderr, "rooftop probe: --device: '%s' is not a device index (0, 1, ...)\n", v);
            return 2;
        }
        return -1;
    case 2:
    case 3:
        if (!*v) {
            fprintf(stderr, "rooftop probe: %s: empty file name\n", value_flags[f]);
            return 2;
        }
        *(f == 2 ? &c->out : &c->spec) = v;
        return -1;
    case 4:
        if (!parse_positive(v, &c->o.time_limit_s)) {
            fprintf(stderr, "rooftop probe: --time-limit: '%s' is not a positive number of "
                            "seconds\n", v);
            return 2;
        }
        return -1;
    case 6:
        if (!parse_index(v, &c->o.threads) || c->o.threads < 1) {
            fprintf(stderr, "rooftop probe: --threads: '%s' is not a thread count (1..1024)\n", v);
            return 2;
        }
        return -1;
    default:
        if (!probe_parse_shapes(v, &c->o, err, sizeof err)) {
            fprintf(stderr, "rooftop probe: %s\n", err);
            return 2;
        }
        return -1;
    }
}

/* The command line onto c; an exit status when the command ends here (help, a refusal), else
 * -1. */
static int probe_args(int argc, char **argv, struct probe_cmd *c)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        bool missing = false;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--quick") == 0) {
            c->o.quick = true;
            continue;
        }
        if (strcmp(a, "--force") == 0) {
            files_set_force(true);
            continue;
        }
        size_t f;
        for (f = 0; f < sizeof value_flags / sizeof value_flags[0]; f++) {
            v = opt_value(argc, argv, &i, value_flags[f], &missing);
            if (v || missing)
                break;
        }
        if (f == sizeof value_flags / sizeof value_flags[0])
            return unknown_option(a);
        if (missing) {
            fprintf(stderr, "rooftop probe: %s: needs a value\n", value_flags[f]);
            return 2;
        }
        int rc = probe_flag(c, f, v);
        if (rc >= 0)
            return rc;
    }
    return -1;
}

/* After the run: the points to --out (what was measured, even of a stopped run), the spec to
 * --save-spec (a whole run only), the summary line on stderr. Returns rc, or 1 when a file
 * could not be kept. */
static int probe_keep(const struct probe_cmd *c, struct cli_sink *s, const char *backend_name,
                      bool ok, double secs, int rc)
{
    char err[POINTS_ERR_MAX];
    if (c->out && (ok || s->doc.n > 0)) {
        if (!points_save_file(c->out, &s->doc, err, sizeof err)) {
            fprintf(stderr, "rooftop probe: --out %s\n", err);
            rc = 1;
        } else if (!ok) {
            fprintf(stderr, "rooftop probe: --out %s: the %zu points measured before it stopped, "
                            "marked incomplete\n", c->out, s->doc.n);
        }
    }
    if (c->spec && !ok)
        fprintf(stderr, "rooftop probe: --save-spec %s: not written: a spec needs a whole run\n",
                c->spec);
    if (c->spec && ok) {
        struct gpu_spec g;
        if (!points_to_gpu_spec(&s->doc, &g, err, sizeof err) ||
            !spec_save_gpu(c->spec, &g, err, sizeof err)) {
            fprintf(stderr, "rooftop probe: --save-spec: %s\n", err);
            rc = 1;
        }
    }
    struct points_ceilings pc;
    points_ceilings(&s->doc, &pc);
    fprintf(stderr, "rooftop probe: %zu points (%d failed their check) in %.1f s on %s",
            s->doc.n, s->invalid, secs, s->doc.device.name[0] ? s->doc.device.name : backend_name);
    if (pc.bandwidth > 0)
        fprintf(stderr, "; bandwidth %.3g GB/s", pc.bandwidth / 1e9);
    for (int k = 0; k < PEAK_COUNT; k++)
        if (pc.peak_valid[k])
            fprintf(stderr, "; %s %.4g GFLOP/s", peak_name((enum peak_kind)k), pc.peak[k] / 1e9);
    fputc('\n', stderr);
    return rc;
}

int cmd_probe(int argc, char **argv)
{
    struct probe_cmd c = {.backend = "auto"};
    probe_options_default(&c.o);
    int end = probe_args(argc, argv, &c);
    if (end >= 0)
        return end;
    char err[POINTS_ERR_MAX];
    /* Where the results go is checked now, not after a run of minutes that could not be
     * kept. */
    if (c.out && !files_check_writable(c.out, err, sizeof err)) {
        fprintf(stderr, "rooftop probe: --out %s\n", err);
        return 1;
    }
    if (c.spec && !files_check_writable(c.spec, err, sizeof err)) {
        fprintf(stderr, "rooftop probe: --save-spec %s\n", err);
        return 1;
    }
    const struct probe_backend *be;
    char why[512];
    if (strcmp(c.backend, "auto") == 0) {
        be = probe_backend_auto(&c.o, why, sizeof why);
        fprintf(stderr, "rooftop probe: backend %s\n", why);
    } else {
        be = probe_backend_find(c.backend);
        if (!be->available(&c.o, why, sizeof why)) {
            fprintf(stderr, "rooftop probe: --backend %s: cannot run: %s\n", be->name, why);
            return 1;
        }
    }
    struct cli_sink s;
    memset(&s, 0, sizeof s);
    points_init(&s.doc);
    points_set_time_now(&s.doc);
    struct probe_sink sink = {&s, on_device, on_point, on_progress, on_status};
    double t0 = probe_now();
    bool ok = be->run(&c.o, &sink, err, sizeof err);
    be->cleanup();
    double secs = probe_now() - t0;
    if (s.oom) {
        fprintf(stderr, "rooftop probe: out of memory keeping the points\n");
        points_free(&s.doc);
        return 1;
    }
    int rc = 0;
    if (!ok) {
        /* The time limit or the backend stopped the run: what was measured until then is kept
         * (stdout has had it line by line; --out gets it too), marked incomplete, and the
         * exit status still says the run failed. */
        pj_message(stdout, "error", err);
        fprintf(stderr, "rooftop probe: %s backend failed: %s\n", be->name, err);
        size_t k = 0;
        for (; err[k] && k + 1 < sizeof s.doc.incomplete; k++)
            s.doc.incomplete[k] = ((unsigned char)err[k] < 0x20 || err[k] == 0x7f) ? ' ' : err[k];
        s.doc.incomplete[k] = '\0';
        rc = 1;
    } else {
        pj_done(stdout, (int)s.doc.n, secs);
    }
    rc = probe_keep(&c, &s, be->name, ok, secs, rc);
    points_free(&s.doc);
    return rc;
}
