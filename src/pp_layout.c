/* pp_layout.c - Megatron-core's pipeline layout string, read into per-chunk layer counts
 * (megatron/core/transformer/pipeline_parallel_layer_layout.py's grammar). */
#include "pp_layout.h"

#include <stdio.h>
#include <string.h>

/* The expanded symbols a layout may reach: every chunk's layers, bars and marks. */
#define EXPANDED_MAX 8192
#define REPEAT_MAX 10000
#define NESTING_MAX 16

struct expand {
    const char *p;
    char out[EXPANDED_MAX];
    size_t n;
    int depth;
    char *err;
    size_t errn;
};

static bool fail(struct expand *x, const char *what)
{
    snprintf(x->err, x->errn, "%s", what);
    return false;
}

static void skip_cosmetic(struct expand *x)
{
    while (*x->p == ',' || *x->p == ' ')
        x->p++;
}

/* "*N" after an atom: the symbols out[start..n) written N times in all. */
static bool repeat(struct expand *x, size_t start)
{
    skip_cosmetic(x);
    if (*x->p != '*')
        return true;
    x->p++;
    long count = 0;
    if (*x->p < '0' || *x->p > '9')
        return fail(x, "'*' needs a count after it");
    while (*x->p >= '0' && *x->p <= '9' && count <= REPEAT_MAX)
        count = count * 10 + (*x->p++ - '0');
    if (count < 1 || count > REPEAT_MAX)
        return fail(x, "a repeat count must be between 1 and 10000");
    const size_t len = x->n - start;
    if (len * (size_t)count > EXPANDED_MAX - start)
        return fail(x, "expands past 8192 symbols");
    for (long i = 1; i < count; i++) {
        memcpy(x->out + x->n, x->out + start, len);
        x->n += len;
    }
    return true;
}

/* A sequence of atoms up to the end of the text, or (inner) to its ')'. */
static bool expand_seq(struct expand *x, bool inner)
{
    for (;;) {
        skip_cosmetic(x);
        const char c = *x->p;
        if (c == '\0')
            return inner ? fail(x, "a '(' is not closed") : true;
        if (c == ')') {
            if (!inner)
                return fail(x, "a ')' has no '('");
            x->p++;
            return true;
        }
        const size_t start = x->n;
        if (c == '(') {
            if (++x->depth > NESTING_MAX)
                return fail(x, "nests deeper than 16 parentheses");
            x->p++;
            if (!expand_seq(x, true))
                return false;
            x->depth--;
        } else if (strchr("EtmL|", c) != NULL) {
            if (x->n >= EXPANDED_MAX)
                return fail(x, "expands past 8192 symbols");
            x->out[x->n++] = c;
            x->p++;
        } else {
            char what[80];
            snprintf(what, sizeof what, "'%c' is none of E, t, m, L, | and (...)*N", c);
            return fail(x, what);
        }
        if (!repeat(x, start))
            return false;
    }
}

/* The expanded symbols into chunks: '|' closes one. */
static bool split_chunks(const struct expand *x, struct pp_layout *out, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    out->embedding_chunk = out->loss_chunk = -1;
    int chunk = 0, mtp_here = 0;
    for (size_t i = 0; i < x->n; i++) {
        const char c = x->out[i];
        if (c == '|') {
            if (++chunk >= PP_LAYOUT_CHUNKS_MAX) {
                snprintf(err, n, "names more than %d stages", PP_LAYOUT_CHUNKS_MAX);
                return false;
            }
            mtp_here = 0;
        } else if (c == 't') {
            if (out->layers[chunk] == INT16_MAX) {
                snprintf(err, n, "puts more than %d layers in one stage", INT16_MAX);
                return false;
            }
            out->layers[chunk]++;
            out->decoder++;
        } else if (c == 'm') {
            out->mtp++;
            mtp_here++;
        } else if (c == 'E') {
            out->embeddings++;
            out->embedding_chunk = chunk;
        } else {
            out->losses++;
            out->loss_chunk = chunk;
        }
    }
    out->chunks = chunk + 1;
    out->mtp_outside_last = out->mtp - mtp_here;
    return true;
}

bool pp_layout_parse(const char *text, struct pp_layout *out, char *err, size_t n)
{
    struct expand x; /* 8 kB on the stack: a layout may be read on any thread */
    x.p = text;
    x.n = 0;
    x.depth = 0;
    x.err = err;
    x.errn = n;
    if (strlen(text) >= PP_LAYOUT_TEXT_MAX) {
        snprintf(err, n, "longer than %d bytes", PP_LAYOUT_TEXT_MAX - 1);
        return false;
    }
    if (!expand_seq(&x, false))
        return false;
    return split_chunks(&x, out, err, n);
}

int64_t pp_layout_stage_layers(const struct pp_layout *l, int64_t pp, int64_t i)
{
    if (pp < 1 || i < 0 || i >= pp)
        return 0;
    int64_t sum = 0;
    for (int64_t c = i; c < l->chunks; c += pp)
        sum += l->layers[c];
    return sum;
}
