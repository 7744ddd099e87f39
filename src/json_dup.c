/* json_dup.c - repeated keys in a JSON tree, found by sorting each object's keys (a stable
 * merge sort, so equal keys stay in document order) and comparing neighbours. */
#include "json_dup.h"

#include <stdlib.h>
#include <string.h>

/* One member of the object being checked, and where it stands in the document. */
struct key {
    const cJSON *item;
    size_t pos;
};

/* Scratch space reused by every object of one tree. */
struct scratch {
    struct key *a, *b;
    size_t cap;
    size_t *compares;
};

static int key_cmp(struct scratch *s, const struct key *x, const struct key *y)
{
    if (s->compares != NULL)
        (*s->compares)++;
    return strcmp(x->item->string, y->item->string);
}

/* Sorts s->a[0..n) by key, equal keys in document order; the result is in s->a. */
static void sort_keys(struct scratch *s, size_t n)
{
    struct key *src = s->a, *dst = s->b;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = key_cmp(s, &src[j], &src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        struct key *t = src;
        src = dst;
        dst = t;
    }
    if (src != s->a)
        memcpy(s->a, src, n * sizeof *src);
}

static bool grow(struct scratch *s, size_t n)
{
    if (n <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 16;
    while (cap < n)
        cap *= 2;
    struct key *a = realloc(s->a, cap * sizeof *a);
    if (a == NULL)
        return false;
    s->a = a;
    struct key *b = realloc(s->b, cap * sizeof *b);
    if (b == NULL)
        return false;
    s->b = b;
    s->cap = cap;
    return true;
}

/* The repeated key of one object's own members (not those inside them), or NULL. */
static bool object_dup(struct scratch *s, const cJSON *obj, const cJSON **dup)
{
    size_t n = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next)
        n += c->string != NULL;
    if (n < 2)
        return true;
    if (!grow(s, n))
        return false;
    size_t pos = 0, k = 0;
    for (const cJSON *c = obj->child; c != NULL; c = c->next, pos++)
        if (c->string != NULL)
            s->a[k++] = (struct key){c, pos};
    sort_keys(s, n);
    size_t best = (size_t)-1;
    bool prev_same = false; /* s->a[i] has the key of s->a[i - 1] */
    for (size_t i = 0; i + 1 < n; i++) {
        bool same = key_cmp(s, &s->a[i], &s->a[i + 1]) == 0;
        /* A run of equal keys starts at its first occurrence (the sort keeps their order). */
        if (same && !prev_same && s->a[i].pos < best) {
            best = s->a[i].pos;
            *dup = s->a[i + 1].item;
        }
        prev_same = same;
    }
    return true;
}

static bool walk(struct scratch *s, const cJSON *node, const cJSON **dup)
{
    if (cJSON_IsObject(node)) {
        if (!object_dup(s, node, dup))
            return false;
        if (*dup != NULL)
            return true;
    }
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return true;
    for (const cJSON *c = node->child; c != NULL && *dup == NULL; c = c->next)
        if (!walk(s, c, dup))
            return false;
    return true;
}

bool json_dup_find(const cJSON *node, const cJSON **dup, size_t *compares)
{
    struct scratch s = {NULL, NULL, 0, compares};
    *dup = NULL;
    bool ok = node == NULL || walk(&s, node, dup);
    free(s.a);
    free(s.b);
    if (!ok)
        *dup = NULL;
    return ok;
}
