/* fuzz_keys_work.h - for the fuzz targets of the JSON readers (specs, config.json, scenarios,
 * points): the repeated-key check they all make does n log n key comparisons, never n
 * squared (a 1 MB file of 130,000 keys once took a minute). Aborts, a finding, when the
 * comparisons counted exceed sum over objects of n * ceil(log2 n) + n, or when its answer is
 * not the pairwise check's (the old one, kept here as the reference). */
#ifndef ROOFTOP_FUZZ_KEYS_WORK_H
#define ROOFTOP_FUZZ_KEYS_WORK_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_dup.h"

/* The comparison bound of every object at or under node. */
static size_t fuzz_keys_bound(const cJSON *node)
{
    size_t bound = 0, n = 0;
    for (const cJSON *c = node->child; c != NULL; c = c->next) {
        n += cJSON_IsObject(node);
        if (cJSON_IsObject(c) || cJSON_IsArray(c))
            bound += fuzz_keys_bound(c);
    }
    size_t log2n = 0;
    while (((size_t)1 << log2n) < n)
        log2n++;
    return bound + n * log2n + n;
}

/* The pairwise reference: an object's repeat whose first occurrence comes first, the
 * object before what it holds. */
static const cJSON *fuzz_keys_naive(const cJSON *node)
{
    if (cJSON_IsObject(node)) {
        for (const cJSON *a = node->child; a != NULL; a = a->next)
            for (const cJSON *b = a->next; b != NULL; b = b->next)
                if (a->string != NULL && b->string != NULL && strcmp(a->string, b->string) == 0)
                    return b;
    }
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return NULL;
    for (const cJSON *c = node->child; c != NULL; c = c->next) {
        const cJSON *d = fuzz_keys_naive(c);
        if (d != NULL)
            return d;
    }
    return NULL;
}

static void fuzz_keys_work(const uint8_t *data, size_t size)
{
    cJSON *root = cJSON_ParseWithLength((const char *)data, size);
    if (root == NULL)
        return;
    size_t compares = 0;
    const cJSON *dup;
    if (json_dup_find(root, &dup, &compares) &&
        (compares > fuzz_keys_bound(root) || dup != fuzz_keys_naive(root)))
        abort();
    cJSON_Delete(root);
}

#endif
