/* open_list.c - the open prompt's list of scenario files, filtered as the name is typed. */
#include "open_list.h"

#include <string.h>
#include <strings.h>

void open_list_load(struct open_list *l)
{
    l->pick = -1;
    if (!spec_list_scenarios(&l->names)) {
        l->names.ids = NULL;
        l->names.count = 0;
    }
}

void open_list_free(struct open_list *l)
{
    spec_list_free(&l->names);
    l->pick = -1;
}

/* Whether name holds typed, in any case. */
static bool holds(const char *name, const char *typed)
{
    size_t n = strlen(name), t = strlen(typed);
    for (size_t i = 0; i + t <= n; i++)
        if (strncasecmp(name + i, typed, t) == 0)
            return true;
    return false;
}

int open_list_match(const struct open_list *l, const char *typed, bool all, int *idx, int max)
{
    int n = 0;
    for (size_t i = 0; i < l->names.count; i++)
        if (all || holds(l->names.ids[i], typed)) {
            if (n < max)
                idx[n] = (int)i;
            n++;
        }
    return n;
}

void open_list_move(struct open_list *l, int delta, int n)
{
    int p = l->pick + delta;
    l->pick = p < -1 ? -1 : p >= n ? n - 1 : p;
}
