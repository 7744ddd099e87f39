/* keymap.c - the dashboard's key table and the bar, help and man page text made from it. */
#include "keymap.h"

#include <stdio.h>
#include <string.h>

#include "manpage.h"
#include "screen.h"

#define T KM_TRAINING
#define S KM_SERVING
#define TS (KM_TRAINING | KM_SERVING)
#define LISTS (KM_LIST | KM_PLANS)

/* In the order the bar, ? and --help show them; what a key does in at most KEYMAP_WHAT_W
 * characters, so that the ? box holds each row on one line at 80 columns. Ranks: what a first-time user needs first
 * (help, quit, the arrows, typing, the model and GPU, then the views and files). */
static const struct keymap_key TABLE[] = {
    {"Left/Right, h/l", "\x01 change", 3, TS,
     "change the input (mouse: click, drag, wheel)"},
    {"Up/Down, k/j, Tab/S-Tab", "\x02 select", 4, TS, "select an input (then the panels)"},
    {"PgUp/PgDn, Home/End", NULL, 0, TS, "big steps; the lowest and highest valid values"},
    {"Enter", "Enter type", 5, T, "type a new value (53B, 8Ki, bf16); Ctrl-U clears"},
    {"m", "m model", 6, T, "pick a model (type to search)"},
    {"g", "g GPU", 7, T, "pick a GPU (type to search)"},
    {"b", "b layouts", 8, T, "the fastest layouts that fit (Enter, 1-5 apply)"},
    {"w / x", "w sweep", 20, T, "sweep the input's range / pin, then compare"},
    {"i", "i serving", 9, T, "serving: KV cache, prefill, decode, tokens/s"},
    {"i", "i training", 5, S, "back to the training view"},
    {"t", "t ops", 10, TS, "the operations table (Left/Right scroll it)"},
    {"L / d", "L lecture ops", 17, T, "the lecture's 5 ops on the roofline / dtypes"},
    {"n / p", "n/p lecture", 14, TS, "the lecture demo: next / previous step"},
    {"c / a", "c caption", 19, TS, "more of a lecture caption / an exercise's answer"},
    {"s", "s save", 12, T, "save the scenario (asks before replacing a file)"},
    {"o", "o open", 11, T, "open a scenario, demo, model file or config.json"},
    {"e", "e export", 13, T, "export the report: .md, .json, .csv or .txt"},
    /* One row for the probe's two keys: the ? box holds every row at 80x24. */
    {"P / M", "P probe", 15, T, "probe this machine / MFU = its GEMMs' efficiency"},
    {"r", "r reset", 18, T, "reset to the starting scenario"},
    {"?, F1", "? help", 1, TS, "this help"},
    {"q", "q quit", 2, TS, "quit"},
    /* Over the views: a typed value or file name, the pickers and lists, a question. */
    {"Enter", "Enter apply", 1, KM_PROMPT, NULL},
    {"Esc", "Esc cancel", 2, KM_PROMPT, NULL},
    {"BS", "BS delete", 4, KM_PROMPT, NULL},
    {"Ctrl-U", "C-u clear", 3, KM_PROMPT, NULL},
    {"Up/Down", "\x02 pick a scenario", 2, KM_OPEN, NULL},
    {"Up/Down", "\x02 move", 2, LISTS, NULL},
    {"letters", "type search", 3, KM_LIST, NULL},
    {"Enter", "Enter choose", 1, KM_LIST, NULL},
    {"Enter, 1-5", "Enter or 1-5 apply", 1, KM_PLANS, NULL},
    {"Esc", "Esc cancel", 4, KM_LIST, NULL},
    {"Esc", "Esc close", 4, KM_PLANS, NULL},
    {"y", "y replace", 1, KM_CONFIRM, NULL},
    {"n", "n keep", 2, KM_CONFIRM, NULL},
};

#undef T
#undef S
#undef LISTS
#define N_KEYS ((int)(sizeof TABLE / sizeof TABLE[0]))

int keymap_count(void)
{
    return N_KEYS;
}

const struct keymap_key *keymap_at(int i)
{
    return i >= 0 && i < N_KEYS ? &TABLE[i] : NULL;
}

/* A bar label with its arrow glyphs. */
static void bar_label(const char *bar, bool utf8, char *buf, size_t n)
{
    if (bar[0] == '\x01')
        snprintf(buf, n, "%s%s", utf8 ? "\xE2\x86\x90\xE2\x86\x92" : "<>", bar + 1);
    else if (bar[0] == '\x02')
        snprintf(buf, n, "%s%s", utf8 ? "\xE2\x86\x91\xE2\x86\x93" : "^v", bar + 1);
    else
        snprintf(buf, n, "%s", bar);
}

void keymap_bar(unsigned place, bool utf8, int width, char *buf, size_t n)
{
    bool keep[N_KEYS];
    char label[N_KEYS][48];
    int total = 0, kept = 0;
    for (int i = 0; i < N_KEYS; i++) {
        keep[i] = TABLE[i].bar != NULL && (TABLE[i].places & place);
        if (!keep[i])
            continue;
        bar_label(TABLE[i].bar, utf8, label[i], sizeof label[i]);
        total += screen_width(label[i]);
        kept++;
    }
    /* The highest rank gives way first, whole, until the rest fit. */
    while (kept > 0 && total + 2 * (kept - 1) > width) {
        int worst = -1;
        for (int i = 0; i < N_KEYS; i++)
            if (keep[i] && (worst < 0 || TABLE[i].rank > TABLE[worst].rank))
                worst = i;
        keep[worst] = false;
        total -= screen_width(label[worst]);
        kept--;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < N_KEYS && at < n; i++) {
        if (!keep[i])
            continue;
        int w = snprintf(buf + at, n - at, "%s%s", at > 0 ? "  " : "", label[i]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

void keymap_row(const struct keymap_key *k, char *buf, size_t n)
{
    snprintf(buf, n, "%-*s%s", KEYMAP_KEYS_W, k->keys, k->what ? k->what : "");
}

/* The documented keys of a view: those that work in it and, for the serving view, only
 * there (the rest are listed once, under the training view). */
static bool documented(const struct keymap_key *k, unsigned place)
{
    if (k->what == NULL || !(k->places & place))
        return false;
    return place == KM_TRAINING || !(k->places & KM_TRAINING);
}

void keymap_serving_intro(char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "In the serving view ");
    bool first = true;
    for (int i = 0; i < N_KEYS && at < n; i++) {
        if (TABLE[i].what == NULL || (TABLE[i].places & TS) != TS)
            continue;
        int w = snprintf(buf + at, n - at, "%s%s", first ? "" : "; ", TABLE[i].keys);
        if (w < 0)
            break;
        at += (size_t)w;
        first = false;
    }
    if (at < n)
        snprintf(buf + at, n - at, " work as above, and:");
}

void keymap_help(FILE *f)
{
    fputs("Dashboard keys (? shows them there):\n", f);
    char row[512];
    for (int i = 0; i < N_KEYS; i++)
        if (documented(&TABLE[i], KM_TRAINING)) {
            keymap_row(&TABLE[i], row, sizeof row);
            fprintf(f, "  %s\n", row);
        }
    keymap_serving_intro(row, sizeof row);
    /* Folded at 80 columns, as the rows are. */
    for (const char *p = row; *p;) {
        size_t len = strlen(p), cut = len;
        if (len > 78)
            for (cut = 78; cut > 0 && p[cut] != ' '; cut--)
                ;
        if (cut == 0)
            cut = len;
        fprintf(f, "%.*s\n", (int)cut, p);
        p += cut;
        while (*p == ' ')
            p++;
    }
    for (int i = 0; i < N_KEYS; i++)
        if (documented(&TABLE[i], KM_SERVING)) {
            keymap_row(&TABLE[i], row, sizeof row);
            fprintf(f, "  %s\n", row);
        }
}

static void man_rows(FILE *f, unsigned place)
{
    for (int i = 0; i < N_KEYS; i++) {
        if (!documented(&TABLE[i], place))
            continue;
        fputs(".TP\n.B ", f);
        manpage_text(f, TABLE[i].keys);
        fputc('\n', f);
        manpage_text(f, TABLE[i].what);
        fputs(".\n", f);
    }
}

void keymap_man(FILE *f)
{
    man_rows(f, KM_TRAINING);
    char intro[512];
    keymap_serving_intro(intro, sizeof intro);
    fputs(".PP\n", f);
    manpage_text(f, intro);
    fputc('\n', f);
    man_rows(f, KM_SERVING);
}
