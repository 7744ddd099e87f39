/* capture.c - screenshots of the cell grid: text (for tests and diffs), ANSI (for a terminal)
 * and SVG (for the README), all from the same cells the terminal gets. */
#include "capture.h"

#include <stdlib.h>
#include <string.h>

bool capture_format_parse(const char *s, enum capture_format *out)
{
    if (strcmp(s, "txt") == 0 || strcmp(s, "text") == 0)
        *out = CAPTURE_TXT;
    else if (strcmp(s, "ansi") == 0)
        *out = CAPTURE_ANSI;
    else if (strcmp(s, "svg") == 0)
        *out = CAPTURE_SVG;
    else
        return false;
    return true;
}

static bool write_txt(FILE *f, const struct screen *s)
{
    size_t n = (size_t)s->cols * 4 + 2;
    char *buf = malloc(n);
    if (!buf)
        return false;
    for (int y = 0; y < s->rows; y++) {
        screen_row_text(s, y, buf, n);
        fputs(buf, f);
        fputc('\n', f);
    }
    free(buf);
    return true;
}

/* The resolved look of one cell. */
struct look {
    int fg, bg;
    unsigned attr;
};

static struct look cell_look(const struct theme *t, const struct cell *c)
{
    const struct style *st = &t->style[c->elem < E_COUNT ? c->elem : 0];
    struct look l = {st->fg, st->bg, st->attr};
    if (c->attr & CATTR_REVERSE)
        l.attr ^= TATTR_REVERSE;
    return l;
}

static bool look_eq(struct look a, struct look b)
{
    return a.fg == b.fg && a.bg == b.bg && a.attr == b.attr;
}

static void sgr(FILE *f, struct look l)
{
    fputs("\033[0", f);
    if (l.attr & TATTR_BOLD)
        fputs(";1", f);
    if (l.attr & TATTR_DIM)
        fputs(";2", f);
    if (l.attr & TATTR_UNDERLINE)
        fputs(";4", f);
    if (l.attr & TATTR_REVERSE)
        fputs(";7", f);
    if (l.fg >= 0)
        fprintf(f, ";%d", l.fg < 8 ? 30 + l.fg : 90 + l.fg - 8);
    if (l.bg >= 0)
        fprintf(f, ";%d", l.bg < 8 ? 40 + l.bg : 100 + l.bg - 8);
    fputc('m', f);
}

static bool write_ansi(FILE *f, const struct screen *s, const struct theme *t)
{
    for (int y = 0; y < s->rows; y++) {
        struct look cur = {-2, -2, 0};
        for (int x = 0; x < s->cols; x++) {
            const struct cell *c = screen_cell(s, x, y);
            struct look l = cell_look(t, c);
            if (!look_eq(l, cur)) {
                sgr(f, l);
                cur = l;
            }
            char u[5];
            fwrite(u, 1, (size_t)utf8_encode(screen_printable(c->ch), u), f);
        }
        fputs("\033[0m\n", f);
    }
    return true;
}

/* SVG geometry: a cell is 0.6 em wide in a monospace font. */
#define SVG_FONT 14.0
#define SVG_CW 8.4
#define SVG_CH 17.0
#define SVG_FG 0xd8d8d8u
#define SVG_BG 0x1c1c1cu

static void svg_colors(struct look l, uint32_t *fg, uint32_t *bg)
{
    *fg = theme_rgb(l.fg, SVG_FG);
    *bg = theme_rgb(l.bg, SVG_BG);
    if (l.attr & TATTR_REVERSE) {
        uint32_t t = *fg;
        *fg = *bg;
        *bg = t;
    }
}

static void svg_escape(FILE *f, uint32_t ch)
{
    ch = screen_printable(ch);
    switch (ch) {
    case '&':
        fputs("&amp;", f);
        break;
    case '<':
        fputs("&lt;", f);
        break;
    case '>':
        fputs("&gt;", f);
        break;
    default: {
        char u[5];
        fwrite(u, 1, (size_t)utf8_encode(ch, u), f);
    }
    }
}

static bool is_braille(uint32_t ch)
{
    return ch > 0x2800 && ch <= 0x28FF;
}

/* Braille cells become dots: fonts differ in whether and how they draw braille, and the
 * roofline should look the same in every browser. */
static void svg_braille(FILE *f, int x, int y, uint32_t ch, uint32_t fg)
{
    static const unsigned bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    unsigned b = ch - 0x2800;
    for (int dy = 0; dy < 4; dy++)
        for (int dx = 0; dx < 2; dx++)
            if (b & bit[dy][dx])
                fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"1.3\" fill=\"#%06x\"/>\n",
                        x * SVG_CW + (dx + 0.5) * SVG_CW / 2, y * SVG_CH + (dy + 0.5) * SVG_CH / 4, fg);
}

static bool write_svg(FILE *f, const struct screen *s, const struct theme *t)
{
    double W = s->cols * SVG_CW, H = s->rows * SVG_CH;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.1f %.1f\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" "
               "font-size=\"%.0f\">\n",
            W, H, W, H, SVG_FONT);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#%06x\"/>\n", SVG_BG);
    /* Backgrounds: runs of one colour per row. */
    for (int y = 0; y < s->rows; y++) {
        int x = 0;
        while (x < s->cols) {
            uint32_t fg, bg;
            svg_colors(cell_look(t, screen_cell(s, x, y)), &fg, &bg);
            int x1 = x + 1;
            for (; x1 < s->cols; x1++) {
                uint32_t f2, b2;
                svg_colors(cell_look(t, screen_cell(s, x1, y)), &f2, &b2);
                if (b2 != bg)
                    break;
            }
            if (bg != SVG_BG)
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#%06x\"/>\n",
                        x * SVG_CW, y * SVG_CH, (x1 - x) * SVG_CW, SVG_CH, bg);
            x = x1;
        }
    }
    /* Text: runs of one look; each run stretched to its cells so columns stay aligned
     * whatever the font's widths for braille and box drawing. */
    for (int y = 0; y < s->rows; y++) {
        int x = 0;
        while (x < s->cols) {
            const struct cell *c = screen_cell(s, x, y);
            struct look l = cell_look(t, c);
            int x1 = x + 1;
            while (x1 < s->cols && look_eq(cell_look(t, screen_cell(s, x1, y)), l))
                x1++;
            /* Braille as dots; the text of the run without them. */
            for (int k = x; k < x1; k++) {
                const struct cell *bc = screen_cell(s, k, y);
                if (is_braille(bc->ch)) {
                    uint32_t fg, bg;
                    svg_colors(cell_look(t, bc), &fg, &bg);
                    svg_braille(f, k, y, bc->ch, fg);
                }
            }
            /* Trim blanks at both ends of the run. */
            int a = x, b = x1;
            while (a < b && (screen_cell(s, a, y)->ch == ' ' || is_braille(screen_cell(s, a, y)->ch)))
                a++;
            while (b > a && (screen_cell(s, b - 1, y)->ch == ' ' || is_braille(screen_cell(s, b - 1, y)->ch)))
                b--;
            if (a < b) {
                uint32_t fg, bg;
                svg_colors(l, &fg, &bg);
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#%06x\" textLength=\"%.1f\" "
                           "lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\"",
                        a * SVG_CW, y * SVG_CH + SVG_CH * 0.78, fg, (b - a) * SVG_CW);
                if (l.attr & TATTR_BOLD)
                    fputs(" font-weight=\"bold\"", f);
                if (l.attr & TATTR_DIM)
                    fputs(" opacity=\"0.6\"", f);
                if (l.attr & TATTR_UNDERLINE)
                    fputs(" text-decoration=\"underline\"", f);
                fputc('>', f);
                for (int k = a; k < b; k++) {
                    uint32_t ch = screen_cell(s, k, y)->ch;
                    svg_escape(f, is_braille(ch) || ch == 0x2800 ? ' ' : ch);
                }
                fputs("</text>\n", f);
            }
            x = x1;
        }
    }
    fputs("</svg>\n", f);
    return true;
}

bool capture_write(FILE *f, const struct screen *s, const struct theme *t, enum capture_format fmt)
{
    bool ok;
    switch (fmt) {
    case CAPTURE_ANSI:
        ok = write_ansi(f, s, t);
        break;
    case CAPTURE_SVG:
        ok = write_svg(f, s, t);
        break;
    default:
        ok = write_txt(f, s);
        break;
    }
    return ok && !ferror(f);
}
