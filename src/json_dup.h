/* json_dup.h - the repeated-key check every JSON reader makes: a key given twice in one object
 * is refused rather than resolved by whichever one wins. The keys of each object are sorted,
 * so the work grows as n log n in the number of keys, never as n squared. */
#ifndef ROOFTOP_JSON_DUP_H
#define ROOFTOP_JSON_DUP_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * Looks for a member whose key an earlier member of the same object has, in node and in
 * every object and array inside it. Sets *dup to that later member, or to NULL when no key
 * repeats; of several repeated keys of one object it is the one whose first occurrence comes
 * first, and an object is looked at before what it holds. A member without a key (possible
 * only in a tree not made by cJSON's parser) is never a repeat. When compares is not NULL,
 * the number of key comparisons made is added to *compares: at most n * ceil(log2 n) + n for
 * an object of n keys. Returns false (and *dup NULL) only when out of memory.
 */
bool json_dup_find(const cJSON *node, const cJSON **dup, size_t *compares);

#endif
