/* screen.c - the cell grid every frame is drawn into, and plain-text views of it. */
#include "screen.h"

#include <stdlib.h>
#include <string.h>

bool screen_resize(struct screen *s, int cols, int rows)
{
    if (cols < 0)
        cols = 0;
    if (rows < 0)
        rows = 0;
    size_t need = (size_t)cols * (size_t)rows;
    if (need > s->cap) {
        struct cell *c = realloc(s->cells, need * sizeof *c);
        if (!c) {
            s->cols = s->rows = 0;
            return false;
        }
        s->cells = c;
        s->cap = need;
    }
    s->cols = cols;
    s->rows = rows;
    if (!s->ellipsis)
        s->ellipsis = '~';
    screen_clear(s, 0);
    return true;
}

void screen_free(struct screen *s)
{
    free(s->cells);
    memset(s, 0, sizeof *s);
}

void screen_clear(struct screen *s, int elem)
{
    size_t n = (size_t)s->cols * (size_t)s->rows;
    for (size_t i = 0; i < n; i++)
        s->cells[i] = (struct cell){' ', (uint8_t)elem, 0};
    s->cut = 0;
}

struct cell *screen_at(struct screen *s, int x, int y)
{
    if (x < 0 || y < 0 || x >= s->cols || y >= s->rows)
        return NULL;
    return &s->cells[(size_t)y * (size_t)s->cols + (size_t)x];
}

const struct cell *screen_cell(const struct screen *s, int x, int y)
{
    if (x < 0 || y < 0 || x >= s->cols || y >= s->rows)
        return NULL;
    return &s->cells[(size_t)y * (size_t)s->cols + (size_t)x];
}

uint32_t screen_printable(uint32_t ch)
{
    /* C0 and C1 controls (a caption's ESC would reach the reader's terminal), surrogates and
     * non-characters (invalid in XML, so in the SVG), and what is beyond Unicode. */
    if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0) || (ch >= 0xd800 && ch <= 0xdfff) ||
        (ch & 0xfffe) == 0xfffe || (ch >= 0xfdd0 && ch <= 0xfdef) || ch > 0x10ffff)
        return '?';
    return ch;
}

void screen_put(struct screen *s, int x, int y, uint32_t ch, int elem)
{
    struct cell *c = screen_at(s, x, y);
    if (c) {
        c->ch = screen_printable(ch);
        c->elem = (uint8_t)elem;
        c->attr = 0;
    }
}

void screen_fill(struct screen *s, struct rect r, uint32_t ch, int elem)
{
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++)
            screen_put(s, x, y, ch, elem);
}

void screen_attr(struct screen *s, int x, int y, int w, uint8_t attr)
{
    for (int i = 0; i < w; i++) {
        struct cell *c = screen_at(s, x + i, y);
        if (c)
            c->attr |= attr;
    }
}

int utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp > 0x10FFFF)
        cp = 0xFFFD;
    if (cp < 0x10000)
        return utf8_encode(cp, out);
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

uint32_t utf8_decode(const char **p)
{
    const unsigned char *u = (const unsigned char *)*p;
    uint32_t cp;
    int extra;
    if (u[0] < 0x80) {
        *p += 1;
        return u[0];
    } else if ((u[0] & 0xE0) == 0xC0) {
        cp = u[0] & 0x1F;
        extra = 1;
    } else if ((u[0] & 0xF0) == 0xE0) {
        cp = u[0] & 0x0F;
        extra = 2;
    } else if ((u[0] & 0xF8) == 0xF0) {
        cp = u[0] & 0x07;
        extra = 3;
    } else {
        *p += 1;
        return 0xFFFD;
    }
    for (int i = 1; i <= extra; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *p += (size_t)i;
            return 0xFFFD;
        }
        cp = (cp << 6) | (u[i] & 0x3F);
    }
    *p += (size_t)extra + 1;
    return cp;
}

int screen_width(const char *utf8)
{
    int w = 0;
    const char *p = utf8;
    while (*p) {
        (void)utf8_decode(&p);
        w++;
    }
    return w;
}

/* Writes at most maxw cells; if the text is longer, maxw - 1 cells and an ellipsis. */
static int put_text(struct screen *s, int x, int y, int maxw, const char *utf8, int elem,
                    bool *shortened)
{
    *shortened = false;
    if (maxw <= 0 || !utf8)
        return 0;
    int w = screen_width(utf8);
    int room = w <= maxw ? w : maxw - 1;
    const char *p = utf8;
    for (int i = 0; i < room; i++)
        screen_put(s, x + i, y, utf8_decode(&p), elem);
    if (w > maxw) {
        screen_put(s, x + room, y, s->ellipsis ? s->ellipsis : '~', elem);
        *shortened = true;
        return maxw;
    }
    return w;
}

int screen_text(struct screen *s, int x, int y, int maxw, const char *utf8, int elem)
{
    bool shortened;
    int n = put_text(s, x, y, maxw, utf8, elem, &shortened);
    if (shortened || (maxw <= 0 && utf8 && *utf8))
        s->cut++;
    return n;
}

int screen_label(struct screen *s, int x, int y, int maxw, const char *utf8, int elem)
{
    bool shortened;
    return put_text(s, x, y, maxw, utf8, elem, &shortened);
}

int screen_text_right(struct screen *s, int x_end, int y, int maxw, const char *utf8, int elem)
{
    int w = screen_width(utf8);
    if (w > maxw)
        return screen_text(s, x_end - maxw, y, maxw, utf8, elem);
    return screen_text(s, x_end - w, y, w, utf8, elem);
}

void screen_row_text(const struct screen *s, int y, char *buf, size_t n)
{
    size_t len = 0, keep = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    if (y < 0 || y >= s->rows)
        return;
    for (int x = 0; x < s->cols; x++) {
        char tmp[5];
        int k = utf8_encode(screen_printable(s->cells[(size_t)y * (size_t)s->cols + (size_t)x].ch), tmp);
        if (len + (size_t)k + 1 > n)
            break;
        memcpy(buf + len, tmp, (size_t)k);
        len += (size_t)k;
        if (tmp[0] != ' ')
            keep = len;
    }
    buf[keep] = '\0';
}

bool screen_contains(const struct screen *s, const char *needle)
{
    size_t n = (size_t)s->cols * 4 + 1;
    char *buf = malloc(n);
    if (!buf)
        return false;
    bool found = false;
    for (int y = 0; y < s->rows && !found; y++) {
        screen_row_text(s, y, buf, n);
        found = strstr(buf, needle) != NULL;
    }
    free(buf);
    return found;
}

int screen_count_elem(const struct screen *s, struct rect r, int elem)
{
    int n = 0;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            const struct cell *c = screen_cell(s, x, y);
            if (c && c->elem == elem)
                n++;
        }
    return n;
}

bool rect_empty(struct rect r)
{
    return r.w <= 0 || r.h <= 0;
}

bool rect_overlap(struct rect a, struct rect b)
{
    if (rect_empty(a) || rect_empty(b))
        return false;
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

bool rect_inside(struct rect r, int cols, int rows)
{
    return r.x >= 0 && r.y >= 0 && r.w >= 0 && r.h >= 0 && r.x + r.w <= cols && r.y + r.h <= rows;
}
