/* dash_pick.c - the model (m) and GPU (g) pickers: their lines, the cursor and the search. */
#include "dash_pick.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "units.h"

int dash_pick_count(const struct dash *d, enum dash_mode m)
{
    return m == DM_PICK_MODEL ? d->presets.n_models : d->presets.n_gpus;
}

void dash_pick_line(const struct dash *d, enum dash_mode m, int k, char *buf, size_t n)
{
    char a[32], b[32];
    if (m == DM_PICK_MODEL) {
        const struct preset_model *pm = &d->presets.models[k];
        units_count(pm->params, a, sizeof a);
        snprintf(buf, n, "%-18s %7s  %s", pm->arch.id, a, pm->arch.name);
    } else {
        const struct gpu_spec *g = &d->presets.gpus[k];
        units_bytes(g->memory_bytes, a, sizeof a);
        /* The scenario's dtype: "n/a" where the GPU has no peak for it (picking it is
         * refused), never another format's rate. */
        double pk = gpu_peak(g, d->sc.dtype);
        if (pk > 0)
            units_flops_rate(pk, b, sizeof b);
        else
            snprintf(b, sizeof b, "n/a");
        snprintf(buf, n, "%-12s %7s  %11s %-5s %s", g->id, a, b,
                 peak_name(dtype_peak(d->sc.dtype)), g->name);
    }
}

/* Whether hay contains needle, in any case. */
static bool contains_nocase(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, nl) == 0)
            return true;
    return nl == 0;
}

/* The cursor to the first entry, from the cursor on, whose line holds the query. */
static bool pick_search(struct dash *d)
{
    int n = dash_pick_count(d, d->mode);
    for (int i = 0; i < n; i++) {
        int k = (d->pick + i) % n;
        char line[256];
        dash_pick_line(d, d->mode, k, line, sizeof line);
        if (contains_nocase(line, d->pick_query)) {
            d->pick = k;
            return true;
        }
    }
    return false;
}

void dash_pick_key(struct dash *d, uint32_t k)
{
    int n = dash_pick_count(d, d->mode);
    size_t ql = strlen(d->pick_query);
    switch (k) {
    case UK_UP:
        d->pick--;
        break;
    case UK_DOWN:
        d->pick++;
        break;
    case UK_PGUP:
        d->pick -= 10;
        break;
    case UK_PGDN:
        d->pick += 10;
        break;
    case UK_HOME:
        d->pick = 0;
        break;
    case UK_END:
        d->pick = n - 1;
        break;
    case UK_ENTER:
    case '\n':
    case '\r': {
        enum dash_mode m = d->mode;
        d->mode = DM_NORMAL;
        if (n > 0) {
            struct scenario c = d->sc;
            int id = m == DM_PICK_MODEL ? slider_id("model") : slider_id("gpu");
            if (slider_apply(&d->presets, &c, id, d->pick))
                dash_try(d, &c, id);
        }
        return;
    }
    case UK_ESC:
        d->mode = DM_NORMAL;
        return;
    case UK_BS:
    case 0x7f:
    case 8:
        if (ql > 0)
            d->pick_query[ql - 1] = '\0';
        break;
    case UK_CTRL_U:
        d->pick_query[0] = '\0';
        break;
    default:
        /* Typing searches: the cursor goes to the first entry (from where it is) that
         * holds what was typed, in its name or figures. */
        if (k >= 0x20 && k < 0x7f && ql + 1 < sizeof d->pick_query) {
            d->pick_query[ql] = (char)k;
            d->pick_query[ql + 1] = '\0';
            /* A new search starts at the top; a longer one keeps the entry while it matches. */
            if (ql == 0)
                d->pick = 0;
            (void)pick_search(d);
        }
        break;
    }
    if (d->pick >= n)
        d->pick = n - 1;
    if (d->pick < 0)
        d->pick = 0;
}
