/* einsum.h - operations as named-dimension contracts (einops): "b s h, h o -> b s o". From
 * the contract and the dimensions' sizes follow the output's shape, the FLOPs (2 x the product
 * of every dimension for a contraction of two inputs), the bytes read and written and the
 * arithmetic intensity; reduce ("b s h -> b s") and rearrange ("b s (a d) -> b a s d", 0
 * FLOPs, a view or a copy) too. */
#ifndef ROOFTOP_EINSUM_H
#define ROOFTOP_EINSUM_H

#include <stdbool.h>
#include <stddef.h>

#define EINSUM_MAX_INPUTS 4
#define EINSUM_MAX_NAMES 16   /* distinct dimension names in one contract */
#define EINSUM_MAX_SLOTS 8    /* axes of one term */
#define EINSUM_MAX_GROUP 4    /* names in one parenthesised group: (a d) */
#define EINSUM_NAME_MAX 16

enum einsum_kind { EINSUM_CONTRACT, EINSUM_REDUCE, EINSUM_REARRANGE };

/* One side's tensor: its axes, each a group of one or more names ("(a d)" is one axis). */
struct einsum_term {
    int n_slots;
    int slot_len[EINSUM_MAX_SLOTS];
    int slot_name[EINSUM_MAX_SLOTS][EINSUM_MAX_GROUP]; /* indices into names */
};

struct einsum_spec {
    enum einsum_kind kind;
    int n_in;
    struct einsum_term in[EINSUM_MAX_INPUTS], out;
    int n_names;
    char names[EINSUM_MAX_NAMES][EINSUM_NAME_MAX];
};

/* Parses "IN, IN -> OUT": names separated by spaces (einops), or, when no term has a space,
 * one letter each (torch.einsum's "bsh,ho->bso"); parentheses group names into one axis
 * (rearrange only). Checks the contract for its kind: contraction: no name twice in a term,
 * every output name in some input; reduce and rearrange: one input; reduce keeps a subset of
 * its names; rearrange the same names, each once. On error one line in err. */
bool einsum_parse(const char *text, enum einsum_kind kind, struct einsum_spec *sp, char *err,
                  size_t errlen);

/* Sizes from "a=3,b=4" (numbers as units_parse_count reads them: 4Ki, 12288) into size[], in
 * the order of sp->names; every name needs one, and only the contract's names may be given. */
bool einsum_dims(const struct einsum_spec *sp, const char *text, double *size, char *err,
                 size_t errlen);

struct einsum_cost {
    double in_elems[EINSUM_MAX_INPUTS];
    double out_elems;
    double out_shape[EINSUM_MAX_SLOTS]; /* each output axis's size (a group's product) */
    double all;          /* product of every dimension (the loop nest's iterations) */
    unsigned summed;     /* bit i: name i is summed over (in an input, not the output) */
    double flops;
    double bytes;        /* inputs read + output written (0 for a view) */
    double intensity;    /* flops / bytes (0 when no bytes move) */
    bool view;           /* rearrange: the same order of memory, only regrouped */
};

/* The cost of sp at sizes size[] with elements of elem_bytes. FLOPs: a contraction of k inputs
 * does k - 1 multiplies and one add per iteration when it sums (2 x all for two inputs),
 * k - 1 multiplies without a sum (an outer or elementwise product); a reduce (sum, max, min)
 * one operation per input element it folds in (in - out); rearrange none, and moves nothing
 * when it is a view. */
void einsum_cost(const struct einsum_spec *sp, const double *size, double elem_bytes,
                 struct einsum_cost *c);

/* A term written back ("b s (a d)"). */
void einsum_term_text(const struct einsum_spec *sp, const struct einsum_term *t, char *buf,
                      size_t n);

#endif
