/* nearest.c - "did you mean": the known names nearest to a misspelt one. */
#include "nearest.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define NEAREST_LEN 63 /* longest name compared */
#define NEAREST_SHOWN 4

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

int nearest_distance(const char *a, const char *b)
{
    /* The optimal-string-alignment form: a swap of two neighbours ("modle", "bf61") is one
     * edit, as people make it. */
    int d[NEAREST_LEN + 1][NEAREST_LEN + 1];
    size_t la = strlen(a), lb = strlen(b);
    if (la > NEAREST_LEN)
        la = NEAREST_LEN;
    if (lb > NEAREST_LEN)
        lb = NEAREST_LEN;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            char x = lower(a[i - 1]), y = lower(b[j - 1]);
            int best = d[i - 1][j - 1] + (x != y);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && x == lower(b[j - 2]) && lower(a[i - 2]) == y &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

const char *nearest_closest(const char *s, const char *const *cands, size_t n)
{
    if (strlen(s) > NEAREST_LEN)
        return NULL;
    const char *best = NULL;
    /* Up to two edits, fewer for a short name (one letter is two edits from every other). */
    size_t len = strlen(s);
    int best_d = 1 + (len >= 5 ? 2 : len >= 3 ? 1 : 0);
    for (size_t i = 0; i < n; i++) {
        int d = nearest_distance(s, cands[i]);
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    return best;
}

/* Whether the letters of s appear in c in the same order ("llama3-70" in "llama3.1-70b"). */
static bool in_order(const char *s, const char *c)
{
    for (; *s != '\0'; s++) {
        while (*c != '\0' && lower(*c) != lower(*s))
            c++;
        if (*c == '\0')
            return false;
        c++;
    }
    return true;
}

enum tier { TIER_PREFIX, TIER_IN_ORDER };

/* In order only within a name at most three times as long: a long name holds most short
 * words' letters in order ("topp" in "account-for-embedding-in-pipeline-split"). */
static bool matches(enum tier t, const char *s, const char *c)
{
    if (t == TIER_PREFIX)
        return strncasecmp(c, s, strlen(s)) == 0;
    return strlen(c) <= 3 * strlen(s) && in_order(s, c);
}

/* Appends "LEADname" after ", " when buf holds some; false when it does not fit. */
static bool add_name(char *buf, size_t len, size_t *at, const char *lead, const char *name)
{
    int w = snprintf(buf + *at, len - *at, "%s%s%s", *at > 0 ? ", " : "", lead, name);
    if (w < 0 || (size_t)w >= len - *at) {
        buf[*at] = '\0';
        return false;
    }
    *at += (size_t)w;
    return true;
}

bool nearest_suggest(const char *s, const char *const *cands, size_t n, const char *lead,
                     char *buf, size_t len)
{
    if (len == 0)
        return false;
    buf[0] = '\0';
    size_t slen = strlen(s);
    if (slen == 0 || slen > NEAREST_LEN)
        return false;
    size_t at = 0;
    /* The name itself in another case, or with one dash too few ("-model"). */
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(cands[i], s) == 0)
            return add_name(buf, len, &at, lead, cands[i]);
    /* Letters in order only for three or more: "h1" is in half the names. */
    for (int t = TIER_PREFIX; t <= (slen >= 3 ? TIER_IN_ORDER : TIER_PREFIX); t++) {
        int shown = 0;
        for (size_t i = 0; i < n && shown < NEAREST_SHOWN; i++) {
            if (!matches((enum tier)t, s, cands[i]))
                continue;
            if (!add_name(buf, len, &at, lead, cands[i]))
                break;
            shown++;
        }
        if (shown > 0)
            return true;
    }
    const char *near = nearest_closest(s, cands, n);
    return near != NULL && add_name(buf, len, &at, lead, near);
}
