/* figure.h - a table of figures, and the four writers that walk it.
 *
 * Each figure a command prints is one row of a table: its key (the dotted JSON path from the
 * root, "memory.total"), its label (text and Markdown), its unit, which outputs show it, and a
 * getter that takes it from the command's context (an evaluation, a serving result). Text,
 * JSON, CSV and Markdown are each one writer here that walks such a table, so a figure added
 * to a table reaches every format, and no format lists figures by hand. The tables themselves
 * live beside their commands (the report's in src/report.c).
 *
 * A table is an array of entries ended by one with entry FE_END:
 *   FE_SECTION  a heading in text and Markdown ("Memory per GPU"); nothing in JSON and CSV.
 *   FE_VALUE    one figure.
 *   FE_LIST     an array of items (memory rows, operations): a JSON array of objects at key,
 *               a table in text and Markdown, "KEY.ITEM.COLUMN" rows in CSV; its columns are
 *               FE_VALUE entries whose getters take the item's index; a dotted column key
 *               is a path inside the item's JSON object ("options.tp").
 *               With keyed, JSON gets an object keyed by item instead (see keyed below).
 *               A list whose key is "" is the whole JSON document, an array (`list gpus`),
 *               and its CSV rows are "ITEM,COLUMN"; the table's other entries are then not
 *               in JSON. Its when and prose_when asked of item -1 say whether the list is
 *               there at all (in every output; in text and Markdown).
 *   FE_LINES    sentences: a JSON array of strings at key (none without a key), numbered CSV
 *               rows, lines in text, bullets in Markdown.
 *   FE_OBJECT   a JSON object built by a function (the scenario block), or an array (einsum's
 *               output_shape): JSON and CSV only; an array's CSV rows are "KEY.1", "KEY.2" ..
 *
 * Before the table's first section, text writes at the margin: a list unindented, a value as
 * a sentence, "LABEL: VALUE ASIDE" (`solve`'s answers).
 */
#ifndef ROOFTOP_FIGURE_H
#define ROOFTOP_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report_format.h"

struct cJSON;

enum figure_entry { FE_END, FE_SECTION, FE_VALUE, FE_LIST, FE_LINES, FE_OBJECT };

/* The unit says how a number is written in text ("16.1 GB") and names the CSV's unit column. */
enum figure_unit {
    FU_NONE,        /* a word, a flag or a plain number */
    FU_BYTES,       /* "16.1 GB" */
    FU_PARAMS,      /* "8.03B (8030261248)" */
    FU_COUNT,       /* "1.5M" */
    FU_STEPS,       /* "1.5M" */
    FU_TOKENS,      /* "15T" */
    FU_SEQUENCES,   /* "64" */
    FU_LAYERS,      /* "32" */
    FU_FLOP,        /* "6.30e24" */
    FU_SECONDS,     /* "3.48 s", "143.9 days" */
    FU_DAYS,        /* "143.9" */
    FU_FRACTION,    /* "0.5" */
    FU_PERCENT,     /* "+2.3%": a difference */
    FU_SHARE,       /* "50.0%": a part of a whole */
    FU_FLOP_RATE,   /* "989.5 TFLOP/s" */
    FU_BANDWIDTH,   /* "3.35 TB/s" */
    FU_INTENSITY,   /* "295 FLOP/byte" */
    FU_TOKENS_S,    /* "1.2M tokens/s" */
    FU_GPU_HOURS,   /* "1.2M" */
    FU_KWH,         /* "1.2 MWh" */
    FU_USD,         /* "$1.2M" */
    FU_USD_PER_GPU_HOUR,
    FU_WATTS,       /* "700 W" */
    FU_INT,         /* "8192": a whole number, every digit */
    FU_TIMES,       /* "13.6x": a multiple */
    FU_COUNT_OF_UNITS
};

enum figure_kind { FK_NUM, FK_BOOL, FK_STR, FK_NULL };

/* A figure's value. text, when set, is what text and Markdown show instead of the number
 * ("not in 6ND", "off"); JSON and CSV keep the number. buf is the getter's room for a string. */
struct figure_value {
    enum figure_kind kind;
    double num;
    bool b;
    const char *str;
    const char *text;
    char buf[512];
};

/* Outputs a figure appears in. */
#define FO_JSON 1u
#define FO_CSV 2u
#define FO_TEXT 4u
#define FO_MD 8u
#define FO_DATA (FO_JSON | FO_CSV)
#define FO_PROSE (FO_TEXT | FO_MD)
#define FO_ALL (FO_DATA | FO_PROSE)
/* A dashboard panel. Any row can be picked by a panel (figure_get); a row whose out is
 * FO_PANEL alone is in no report output: a figure only a panel's phrase shows (the memory
 * verdict's share of the usable memory), described here beside the report's. */
#define FO_PANEL 16u

/* A column's width in text that is its widest cell's, its label's included. */
#define FIGURE_WIDTH_AUTO (-1)

/* item is the list item's index (0 outside lists); arg the entry's own argument. */
typedef void figure_get_fn(const void *ctx, int item, int arg, struct figure_value *v);
typedef bool figure_when_fn(const void *ctx, int item, int arg);
typedef void figure_text_fn(const void *ctx, int item, int arg, char *buf, size_t n);
typedef bool figure_object_fn(const void *ctx, struct cJSON *parent, const char *name);

struct figure {
    enum figure_entry entry;
    const char *key;          /* dotted JSON path ("memory.total"); a column's name in its item */
    const char *label;        /* text/Markdown label, a section's title; NULL: data only */
    const char *brief;        /* the label in a dashboard panel's nine cells; NULL: label */
    enum figure_unit unit;
    unsigned out;             /* FO_*: where it appears (0 means FO_ALL) */
    int arg;
    figure_get_fn *get;       /* FE_VALUE: the value; FE_LINES: line `item` as FK_STR */
    figure_when_fn *when;     /* NULL: always; false leaves it out of every output */
    figure_when_fn *prose_when; /* NULL: as when; false leaves it out of text and Markdown */
    figure_text_fn *aside;    /* text/Markdown: a phrase after the value ("(4.3e6 s)") */
    figure_text_fn *title;    /* FE_SECTION: a title made from the context; label is then
                               * a prefix text shows before it ("Scenario: "), not Markdown.
                               * FE_VALUE: its label made from the context ("at MFU 0.5") */
    int (*count)(const void *ctx);              /* FE_LIST, FE_LINES: how many items */
    /* FE_LIST: an item's CSV key part (NULL: 1, 2, ..) */
    const char *(*item_name)(const void *ctx, int item);
    const struct figure *cols;                  /* FE_LIST: its columns, ended by FE_END */
    /* FE_LIST: each item's name where a panel has a few cells (the dashboard's memory
     * rows), or NULL */
    const char *const *briefs;
    figure_object_fn *object;                   /* FE_OBJECT: adds its object under name */
    int width;                /* FE_SECTION: its labels' width; a column: its width
                               * (FIGURE_WIDTH_AUTO: its widest cell's); a value: text
                               * right-aligns it in this width (0: as it comes) */
    /* FE_LIST: in JSON an object of item_name -> the first JSON column's value (the predicted
     * step's breakdown), in CSV "KEY.ITEM" rows; a table in text as any list. */
    bool keyed;
    /* A value text writes on the line of the value before it ("MFU 0.5   HFU 0.5"), its label
     * unpadded; Markdown still gives it its own row. */
    bool joined;
    /* A column of words right-aligned in text and Markdown as numbers are ("on" under "sp"). */
    bool right;
};

/* The JSON object of a table over ctx (NULL when it could not be built); the caller frees it.
 * A non-finite number is null. */
struct cJSON *figure_json(const struct figure *table, const void *ctx);

/* Writes the table over ctx in one format; false when writing fails. */
bool figure_write(FILE *f, const struct figure *table, const void *ctx, enum report_format fmt);

/* The value of fig over ctx (item: a list's item; 0 outside lists) into v; false, with v
 * null, when its `when` leaves it out for ctx. For a view that shows one figure by its row. */
bool figure_get(const struct figure *fig, const void *ctx, int item, struct figure_value *v);

/* A row of a table and the list item to take it for (0 outside lists). */
struct figure_pick {
    const struct figure *row;
    int item;
};
/* Each pick's value over ctx into v[i] (figure_get), shown[i] false where its `when` leaves it
 * out: a view showing several figures of one table builds ctx once for them all. */
void figure_get_picks(const void *ctx, const struct figure_pick *pick, int n,
                      struct figure_value *v, bool *shown);

/* figure_find of key in table, found the first time and kept in *slot after (a view's
 * constant list of keys looks its rows up once, not on every frame). */
const struct figure *figure_find_once(const struct figure *table, const char *key,
                                      const struct figure **slot);

/* Its label where a panel has nine cells: brief, else label, else the key. */
const char *figure_brief(const struct figure *fig);

/* A value as text and Markdown show it (unit formatting, v->text first) into buf. */
void figure_format(const struct figure *fig, const struct figure_value *v, char *buf, size_t n);

/* A value in a panel's phrase, where cells are few: as figure_format, but parameters as a
 * count ("70B"), a share and a fraction to two digits ("52%", "0.31"), a multiple without
 * its sign ("13.6": the panel writes its own, x or the multiplication sign). */
void figure_format_brief(const struct figure *fig, const struct figure_value *v, char *buf,
                         size_t n);

/* The values over ctx of table's rows keys[0..n-1] (item 0) into v, as figure_get (null where
 * a `when` leaves one out), each row looked up once into rows[] (a view's constant list of
 * keys); false, that value null, where a key is not in the table. A view showing a few
 * figures of one table (a panel's line) builds ctx once for them all. */
bool figure_get_keys(const struct figure *table, const void *ctx, const char *const *keys,
                     int n, const struct figure **rows, struct figure_value *v);

/* Picks of keys[0..n-1] of table (item 0) into pick, each row looked up once into rows[]
 * (a view's constant list of keys, not searched on every frame); false when one is missing
 * from the table. */
bool figure_picks_once(const struct figure *table, const char *const *keys, int n,
                       const struct figure **rows, struct figure_pick *pick);

/* The entry whose key is key, searching lists' columns as "LIST[].COLUMN", or NULL. */
const struct figure *figure_find(const struct figure *table, const char *key);

/* The CSV unit column's name of a unit ("bytes", "s"). */
const char *figure_unit_name(enum figure_unit u);

/* A table's plain fields: the double or int64_t at byte offset off of base (an offsetof). */
double figure_double_at(const void *base, int off);
int64_t figure_i64_at(const void *base, int off);

/* A getter of the double at byte offset arg of ctx itself: a table over one plain struct
 * (`rooftop intensity`'s, `solve flops`'), its rows' arg an offsetof. */
void figure_get_double(const void *ctx, int item, int arg, struct figure_value *v);

/* Value setters for getters. */
void figure_num(struct figure_value *v, double x);
void figure_bool(struct figure_value *v, bool b);
void figure_str(struct figure_value *v, const char *s);
void figure_null(struct figure_value *v);

#endif
