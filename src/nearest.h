/* nearest.h - "did you mean": the known names nearest to a misspelt one (flags, presets,
 * fields, subcommands). */
#ifndef ROOFTOP_NEAREST_H
#define ROOFTOP_NEAREST_H

#include <stdbool.h>
#include <stddef.h>

/* Edits between two short strings (each cut to 63 bytes), case ignored: insertions,
 * deletions, substitutions and swaps of two neighbours. */
int nearest_distance(const char *a, const char *b);

/* The candidate within two edits of s (one for names of 3 or 4 letters, none below), the
 * closest first in order; NULL when none is. */
const char *nearest_closest(const char *s, const char *const *cands, size_t n);

/*
 * The names to offer for s, in tiers, the first that has any: the name itself in another
 * case (as "-model" is offered --model), the candidates s begins
 * ("h100" -> h100-nvl, h100-pcie, h100-sxm, not h200), those holding the letters of s in order
 * ("llama3-70" -> llama3.1-70b, llama3.3-70b), then the one within two edits ("--modle" ->
 * --model). Case is ignored. Up to four names, each written with lead before it ("--"),
 * joined by ", " into buf. False (buf empty) when nothing is near.
 */
bool nearest_suggest(const char *s, const char *const *cands, size_t n, const char *lead,
                     char *buf, size_t len);

#endif
