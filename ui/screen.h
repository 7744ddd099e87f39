/* screen.h - the frame as an in-memory grid of cells, built before anything is written out. */
#ifndef ROOFTOP_UI_SCREEN_H
#define ROOFTOP_UI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Per-cell extras on top of what the cell's element says. */
enum cell_attr {
    CATTR_NONE = 0,
    CATTR_REVERSE = 1, /* a cursor or a selection inside a panel */
};

/* One character cell: a single-width code point, the semantic element that colours it
 * (an enum elem of theme.h) and extra attributes. */
struct cell {
    uint32_t ch;
    uint8_t elem;
    uint8_t attr;
};

struct rect {
    int x, y, w, h;
};

struct screen {
    int cols, rows;
    struct cell *cells;
    size_t cap;      /* cells allocated */
    int cut;         /* texts that did not fit where they were drawn (must stay 0) */
    uint32_t ellipsis; /* shown where a text was shortened ('~' until set) */
};

/* Sizes the grid (allocating on growth only) and clears it to blanks of element 0.
 * Returns false when memory runs out (the grid is then empty). */
bool screen_resize(struct screen *s, int cols, int rows);
void screen_free(struct screen *s);
/* Fills the whole grid with blanks of element e; resets the cut count. */
void screen_clear(struct screen *s, int elem);

/* The cell at (x, y), or NULL outside the grid. */
struct cell *screen_at(struct screen *s, int x, int y);
const struct cell *screen_cell(const struct screen *s, int x, int y);
/* ch when it is safe to write out as a character (to a terminal, in text and in SVG), else
 * '?': every cell goes through it, so no free text (a file's caption, a model's name) ever
 * writes a control sequence or invalid XML. */
uint32_t screen_printable(uint32_t ch);
/* Puts one code point (as screen_printable passes it); outside the grid it is dropped. */
void screen_put(struct screen *s, int x, int y, uint32_t ch, int elem);
/* Fills a rectangle (clipped to the grid) with ch. */
void screen_fill(struct screen *s, struct rect r, uint32_t ch, int elem);
/* Sets extra attributes on a run of cells. */
void screen_attr(struct screen *s, int x, int y, int w, uint8_t attr);

/* Display width of UTF-8 text in cells (every code point counts one: the dashboard only uses
 * single-width characters). */
int screen_width(const char *utf8);

/*
 * Writes UTF-8 text at (x, y) in at most maxw cells. Text that does not fit is not cut
 * mid-word: it is replaced by as much as fits followed by an ellipsis and counted in
 * s->cut, so tests can insist that no figure is ever cut. Returns the cells written.
 */
int screen_text(struct screen *s, int x, int y, int maxw, const char *utf8, int elem);
/* As screen_text, for labels that may be shortened on purpose (names, captions): shortened
 * with an ellipsis, not counted as cut. */
int screen_label(struct screen *s, int x, int y, int maxw, const char *utf8, int elem);
/* Right-aligns text so that it ends at column x_end - 1. */
int screen_text_right(struct screen *s, int x_end, int y, int maxw, const char *utf8, int elem);

/* One row of the grid as UTF-8 text without trailing blanks, into buf (size n). */
void screen_row_text(const struct screen *s, int y, char *buf, size_t n);
/* Whether the grid's text anywhere contains needle (as UTF-8, row by row). */
bool screen_contains(const struct screen *s, const char *needle);
/* Cells of element e in rectangle r. */
int screen_count_elem(const struct screen *s, struct rect r, int elem);

/* Encodes one code point as UTF-8 into out (at least 5 bytes); returns the byte count. */
int utf8_encode(uint32_t cp, char *out);
/* Decodes one code point from *p and advances it; invalid bytes read as U+FFFD. */
uint32_t utf8_decode(const char **p);

/* Rectangle helpers. */
bool rect_empty(struct rect r);
bool rect_overlap(struct rect a, struct rect b);
bool rect_inside(struct rect inner, int cols, int rows);

#endif
