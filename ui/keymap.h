/* keymap.h - the dashboard's keys, one table: the bottom key bar (by rank for the width), the
 * ? box, --help's key list and the man page's DASHBOARD list all come from it. */
#ifndef ROOFTOP_UI_KEYMAP_H
#define ROOFTOP_UI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Where a key works: the two views, and the prompts and lists over them. */
enum keymap_place {
    KM_TRAINING = 1u << 0, /* the training view's sliders and panels */
    KM_SERVING = 1u << 1,  /* the serving view (i) */
    KM_PROMPT = 1u << 2,   /* a typed value or file name */
    KM_LIST = 1u << 3,     /* the model and GPU pickers */
    KM_PLANS = 1u << 4,    /* the layouts list (b) */
    KM_CONFIRM = 1u << 5,  /* replace a file? */
    KM_OPEN = 1u << 6,     /* the open prompt's list of scenario files */
};

struct keymap_key {
    const char *keys; /* as --help, ? and the man page write them: "m", "PgUp/PgDn, Home/End" */
    const char *bar;  /* on the bottom bar ("m model"); a leading \x01 stands for the
                         Left/Right arrows, \x02 for Up/Down; NULL: not on the bar */
    int rank;         /* the bar keeps the lowest ranks where not all fit */
    unsigned places;  /* enum keymap_place bits */
    const char *what; /* what it does, one line; NULL: the bar's label says it all (prompts) */
};

int keymap_count(void);
const struct keymap_key *keymap_at(int i);

/* The bar of a place: the labels of the keys that work there, those of lowest rank that fit
 * width cells with two spaces between, in table order; arrows as UTF-8 or ASCII. */
void keymap_bar(unsigned place, bool utf8, int width, char *buf, size_t n);

/* A documented key's row for --help and ?: its keys padded to KEYMAP_KEYS_W, then what. */
#define KEYMAP_KEYS_W 26
/* The longest what: the ? box's inside at 80 columns is 76 - 2 cells. */
#define KEYMAP_WHAT_W 48
void keymap_row(const struct keymap_key *k, char *buf, size_t n);

/* "In the serving view Left/Right, h/l; ...; q work as above, and:": the keys both views
 * share, before the serving view's own. */
void keymap_serving_intro(char *buf, size_t n);

/* --help's key list and the man page's (roff, between the BEGIN/END KEYS marks). */
void keymap_help(FILE *f);
void keymap_man(FILE *f);

#endif
