/* fuzz_keys_work.h - for the fuzz targets of the JSON readers (specs, config.json, scenarios,
 * points): the repeated-key check they all make does n log n key comparisons, never n
 * squared (a 1 MB file of 130,000 keys once took a minute). Aborts, a finding, when the
 * comparisons counted exceed sum over objects of n * ceil(log2 n) + n. */
#ifndef ROOFTOP_FUZZ_KEYS_WORK_H
#define ROOFTOP_FUZZ_KEYS_WORK_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

static void fuzz_keys_work(const uint8_t *data, size_t size)
{
    cJSON *root = cJSON_ParseWithLength((const char *)data, size);
    if (root == NULL)
        return;
    size_t compares = 0;
    const cJSON *dup;
    if (json_dup_find(root, &dup, &compares) && compares > fuzz_keys_bound(root))
        abort();
    cJSON_Delete(root);
}

#endif
