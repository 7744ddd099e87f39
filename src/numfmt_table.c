/* numfmt_table.c - the dtype table's lines. */
#include "numfmt_table.h"

#include <math.h>
#include <stdio.h>

void numfmt_table_figure(double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "nan");
    else if (isinf(v))
        snprintf(buf, n, "%sinf", v < 0 ? "-" : "");
    else if (v == floor(v) && fabs(v) < 1e6)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.4g", v);
}

void numfmt_table_head(char *buf, size_t n)
{
    snprintf(buf, n, "%-9s %4s %-7s %10s %10s %10s %10s", "format", "bits", "s/e/m", "max",
             "min normal", "subnormal", "epsilon");
}

void numfmt_table_row(enum numfmt_id id, char *buf, size_t n)
{
    struct numfmt f;
    if (!numfmt_get(id, &f)) {
        snprintf(buf, n, "?");
        return;
    }
    char sem[16], mx[24], mn[24], sub[24], eps[24];
    snprintf(sem, sizeof sem, "1/%d/%d", f.exp_bits, f.man_bits);
    numfmt_table_figure(f.max, mx, sizeof mx);
    numfmt_table_figure(f.min_normal, mn, sizeof mn);
    numfmt_table_figure(f.min_subnormal, sub, sizeof sub);
    numfmt_table_figure(f.epsilon, eps, sizeof eps);
    snprintf(buf, n, "%-9s %4d %-7s %10s %10s %10s %10s", f.name, numfmt_bits(&f), sem, mx, mn,
             sub, eps);
}

/* What a cast did to x: exact, rounded (its relative error), underflow or overflow. */
static void store_note(const struct numfmt *f, double x, double got, char *buf, size_t n)
{
    char mx[24], sub[24];
    numfmt_table_figure(f->max, mx, sizeof mx);
    numfmt_table_figure(f->min_subnormal, sub, sizeof sub);
    if (isnan(got) && !isnan(x))
        snprintf(buf, n, "overflow: nan (no infinity; past %s)", mx);
    else if (isinf(got) && !isinf(x))
        snprintf(buf, n, "overflow: inf (past %s)", mx);
    else if (got == 0 && x != 0)
        snprintf(buf, n, "underflow to 0 (under half of %s)", sub);
    else if (got == x)
        snprintf(buf, n, "exact");
    else if (fabs(got) == f->max && fabs(x) > f->max)
        snprintf(buf, n, "saturated at %s", mx);
    else
        snprintf(buf, n, "rel. error %+.2g%s", (got - x) / x,
                 fabs(x) < f->min_normal ? " (subnormal)" : "");
}

double numfmt_table_store(enum numfmt_id id, double x, double block_max, char *buf, size_t n)
{
    struct numfmt f;
    if (!numfmt_get(id, &f)) {
        snprintf(buf, n, "?");
        return NAN;
    }
    char note[96];
    if (id == NF_NVFP4) {
        double scale;
        double got = numfmt_nvfp4(x, block_max, block_max, &scale);
        double e = scale > 0 ? got / scale : 0;
        /* The format as the block's scale makes it: every figure times the scale. */
        struct numfmt unit = f;
        double k = scale > 0 ? scale : 1;
        unit.max *= k;
        unit.min_normal *= k;
        unit.min_subnormal *= k;
        store_note(&unit, x, got, note, sizeof note);
        char sc[24], bm[24], el[24];
        numfmt_table_figure(scale, sc, sizeof sc);
        numfmt_table_figure(fmax(fabs(block_max), fabs(x)), bm, sizeof bm);
        numfmt_table_figure(e, el, sizeof el);
        snprintf(buf, n, "%-9s %-15.9g %s; %s x scale %s (block max %s)", f.name, got, note, el,
                 sc, bm);
        return got;
    }
    double got = numfmt_round(&f, x);
    store_note(&f, x, got, note, sizeof note);
    snprintf(buf, n, "%-9s %-15.9g %s", f.name, got, note);
    return got;
}
