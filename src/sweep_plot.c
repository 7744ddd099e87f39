/* sweep_plot.c - a sweep as a cell grid, text and SVG (sweep_plot.h). */
#include "sweep_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* The memory rows' glyphs, as the dashboard's memory bar draws them (ui/charset.c). */
static const uint32_t MEM_UTF8[MEM_COUNT] = {0x2588, 0x2593, 0x2592, 0x2591, 0x2584, 0x2573};
static const uint32_t MEM_ASCII[MEM_COUNT] = {'#', '=', '%', '+', ':', '~'};
static const char *const MEM_SHORT[MEM_COUNT] = {"params", "grads", "optim", "master",
                                                 "buffers", "activ"};
/* A serving sweep's parts in the places sweep_point gives them (NULL: no such part). */
static const char *const SERVE_SHORT[MEM_COUNT] = {
    [MEM_PARAMS] = "weights", [MEM_GRADS] = "KV cache", [MEM_ACTIVATIONS] = "activ"};

/* The legend's name of part k, or NULL where the sweep has no such part. */
static const char *part_short(const struct sweep *sw, int k)
{
    return sw->serving ? SERVE_SHORT[k] : MEM_SHORT[k];
}

/* What the second axis shows, short and long. */
static const char *time_name(const struct sweep *sw, bool long_form)
{
    if (sw->serving)
        return long_form ? "time per output token" : "TPOT";
    return long_form ? "predicted step" : "step";
}

/* The plot's geometry: the columns of the memory axis, the bars and the step axis. */
#define LEFT_W 8   /* "80.5 GB" and the axis */
#define RIGHT_W 9  /* the axis and "1.2 min" */

struct geo {
    int w, h;
    int x0, x1;        /* bar columns [x0, x1) */
    int top, bottom;   /* plot rows [top, bottom] */
    double mem_max, step_max;
};

static void put(struct sweep_cell *c, const struct geo *g, int x, int y, uint32_t ch,
                enum sweep_elem e)
{
    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return;
    c[y * g->w + x].ch = ch;
    c[y * g->w + x].elem = (unsigned char)e;
}

/* ASCII text at x, y, clipped to [x, lim). */
static int text(struct sweep_cell *c, const struct geo *g, int x, int y, int lim, const char *s,
                enum sweep_elem e)
{
    int i = 0;
    for (; s[i] != '\0' && x + i < lim; i++)
        put(c, g, x + i, y, (unsigned char)s[i], e);
    return i;
}

/* The columns of point i: [*a, *b). */
static void band(const struct geo *g, int n, int i, int *a, int *b)
{
    int pw = g->x1 - g->x0;
    *a = g->x0 + (int)((long)i * pw / n);
    *b = g->x0 + (int)((long)(i + 1) * pw / n);
    if (*b <= *a)
        *b = *a + 1;
}

/* The row of value v on a scale from 0 (bottom) to max (top). */
static int row_of(const struct geo *g, double v, double max)
{
    int ph = g->bottom - g->top + 1;
    int r = (int)floor(v / max * ph);
    if (r > ph - 1)
        r = ph - 1;
    if (r < 0)
        r = 0;
    return g->bottom - r;
}

static void scales(const struct sweep *sw, struct geo *g)
{
    g->mem_max = 0;
    g->step_max = 0;
    double usable = 0;
    for (int i = 0; i < sw->n; i++) {
        const struct sweep_point *p = &sw->pts[i];
        if (!p->valid)
            continue;
        g->mem_max = fmax(g->mem_max, fmax(p->total, p->usable));
        usable = fmax(usable, p->usable);
        g->step_max = fmax(g->step_max, p->seconds);
    }
    /* Past twice the usable capacity the scale would squeeze the fitting points into a
     * few rows: taller bars are cut there, an arrow on top (the table has their figure). */
    if (usable > 0 && g->mem_max > 2.5 * usable)
        g->mem_max = 2.5 * usable;
    g->mem_max = g->mem_max > 0 ? g->mem_max * 1.08 : 1;
    g->step_max = g->step_max > 0 ? g->step_max * 1.08 : 1;
}

/* One point's bar, its step, or its refusal. */
static void draw_point(const struct sweep *sw, int i, bool utf8, const struct geo *g,
                       struct sweep_cell *c)
{
    const struct sweep_point *p = &sw->pts[i];
    int a, b;
    band(g, sw->n, i, &a, &b);
    int bw = b - a >= 3 ? b - a - 1 : b - a; /* a gap between bars where there is room */
    int mid = a + (bw - 1) / 2;
    if (!p->valid) {
        put(c, g, mid, g->bottom, utf8 ? 0x00D7 : 'x', SP_INVALID);
        return;
    }
    int ph = g->bottom - g->top + 1;
    int usable_row = row_of(g, p->usable, g->mem_max);
    for (int r = 0; r < ph; r++) {
        /* The cell's middle on the memory scale, and the row holding it. */
        double v = (r + 0.5) / ph * g->mem_max, cum = 0;
        int k = -1;
        for (int q = 0; q < MEM_COUNT && k < 0; q++) {
            cum += p->part[q];
            if (p->part[q] > 0 && v < cum)
                k = q;
        }
        if (k < 0)
            break;
        if (r == ph - 1 && p->total > g->mem_max) {
            for (int x = a; x < a + bw; x++)
                put(c, g, x, g->top, utf8 ? 0x2191 : '^', SP_OVER);
            break;
        }
        int y = g->bottom - r;
        for (int x = a; x < a + bw; x++)
            put(c, g, x, y, utf8 ? MEM_UTF8[k] : MEM_ASCII[k],
                y < usable_row ? SP_OVER : (enum sweep_elem)(SP_MEM_FIRST + k));
    }
    int sy = row_of(g, p->seconds, g->step_max);
    put(c, g, mid, sy, utf8 ? 0x25CF : '*', SP_STEP);
}

/* The knob's values under the axis, as many as fit apart, the first and last first. */
static void x_labels(const struct sweep *sw, const struct geo *g, struct sweep_cell *c)
{
    int order[SWEEP_MAX], no = 0;
    order[no++] = 0;
    if (sw->n > 1)
        order[no++] = sw->n - 1;
    for (int i = 1; i < sw->n - 1 && no < SWEEP_MAX; i++)
        order[no++] = i;
    int from[SWEEP_MAX], to[SWEEP_MAX], placed = 0; /* the labels written: [from, to) */
    for (int o = 0; o < no; o++) {
        int i = order[o], a, b;
        band(g, sw->n, i, &a, &b);
        int len = (int)strlen(sw->pts[i].text);
        int x = a + (b - a - 1) / 2 - len / 2;
        if (x + len > g->w)
            x = g->w - len;
        if (x < 0)
            x = 0;
        bool clear = true;
        for (int k = 0; k < placed && clear; k++)
            clear = x + len + 1 <= from[k] || x >= to[k] + 1;
        if (!clear)
            continue;
        from[placed] = x;
        to[placed++] = x + len;
        text(c, g, x, g->h - 1, g->w, sw->pts[i].text, SP_LABEL);
    }
}

/* The axes: memory on the left (0, usable, top), the step time on the right. */
static void axes(const struct sweep *sw, bool utf8, const struct geo *g, struct sweep_cell *c)
{
    uint32_t v = utf8 ? 0x2502 : '|', hz = utf8 ? 0x2500 : '-';
    for (int y = g->top; y <= g->bottom; y++) {
        put(c, g, g->x0 - 1, y, v, SP_AXIS);
        put(c, g, g->x1, y, v, SP_AXIS);
    }
    for (int x = g->x0 - 1; x <= g->x1; x++)
        put(c, g, x, g->bottom + 1, hz, SP_AXIS);
    put(c, g, g->x0 - 1, g->bottom + 1, utf8 ? 0x2514 : '+', SP_AXIS);
    put(c, g, g->x1, g->bottom + 1, utf8 ? 0x2518 : '+', SP_AXIS);
    char b[32];
    units_bytes(g->mem_max, b, sizeof b);
    text(c, g, 0, g->top, g->x0 - 1, b, SP_LABEL);
    text(c, g, 0, g->bottom, g->x0 - 1, "0", SP_LABEL);
    units_duration(g->step_max, b, sizeof b);
    text(c, g, g->x1 + 1, g->top, g->w, b, SP_STEP);
    units_duration(g->step_max / 2, b, sizeof b);
    text(c, g, g->x1 + 1, row_of(g, g->step_max / 2, g->step_max), g->w, b, SP_STEP);
    text(c, g, g->x1 + 1, g->bottom, g->w, "0 s", SP_STEP);
    /* The usable capacity of the first valid point (the knob may move it: --gpu, reserve):
     * a line over the empty cells of its row, its size at the left. */
    for (int i = 0; i < sw->n; i++) {
        if (!sw->pts[i].valid)
            continue;
        double u = sw->pts[i].usable;
        int y = row_of(g, u, g->mem_max);
        for (int x = g->x0; x < g->x1; x++)
            if (c[y * g->w + x].elem == SP_EMPTY)
                put(c, g, x, y, utf8 ? 0x2504 : '-', SP_CAPACITY);
        units_bytes(u, b, sizeof b);
        if (y != g->top && y != g->bottom)
            text(c, g, 0, y, g->x0 - 1, b, SP_CAPACITY);
        break;
    }
}

static void legend(const struct sweep *sw, bool utf8, const struct geo *g,
                   struct sweep_cell *c)
{
    int x = 0;
    for (int k = 0; k < MEM_COUNT && x < g->w; k++) {
        if (part_short(sw, k) == NULL)
            continue;
        put(c, g, x, 0, utf8 ? MEM_UTF8[k] : MEM_ASCII[k], (enum sweep_elem)(SP_MEM_FIRST + k));
        x += 1 + text(c, g, x + 1, 0, g->w, part_short(sw, k), SP_LABEL) + 1;
    }
    put(c, g, x, 0, utf8 ? 0x2504 : '-', SP_CAPACITY);
    x += 1 + text(c, g, x + 1, 0, g->w, "usable", SP_LABEL) + 1;
    put(c, g, x, 0, utf8 ? 0x25CF : '*', SP_STEP);
    text(c, g, x + 1, 0, g->w, time_name(sw, false), SP_LABEL);
}

bool sweep_plot_draw(const struct sweep *sw, int mark, bool utf8, int w, int h,
                     struct sweep_cell *cells)
{
    if (w < 1 || h < 1)
        return false;
    for (int i = 0; i < w * h; i++) {
        cells[i].ch = ' ';
        cells[i].elem = SP_EMPTY;
    }
    if (w < SWEEP_PLOT_MIN_W || h < SWEEP_PLOT_MIN_H || sw->n < 1)
        return false;
    /* The legend row only where there are rows to spare. */
    bool with_legend = h >= 10;
    struct geo g = {w, h, LEFT_W, w - RIGHT_W, with_legend ? 1 : 0, h - 3, 0, 0};
    scales(sw, &g);
    for (int i = 0; i < sw->n; i++)
        draw_point(sw, i, utf8, &g, cells);
    int cross = sweep_crossing(sw);
    if (cross >= 0) {
        int a, b;
        band(&g, sw->n, cross, &a, &b);
        for (int y = g.top; y <= g.bottom; y++)
            if (cells[y * w + a - 1].elem == SP_EMPTY || a - 1 < g.x0)
                put(cells, &g, a - 1 >= g.x0 ? a - 1 : a, y, utf8 ? 0x2506 : '!', SP_CROSS);
    }
    axes(sw, utf8, &g, cells);
    if (with_legend)
        legend(sw, utf8, &g, cells);
    if (mark >= 0 && mark < sw->n) {
        int a, b;
        band(&g, sw->n, mark, &a, &b);
        int bw = b - a >= 3 ? b - a - 1 : b - a;
        put(cells, &g, a + (bw - 1) / 2, g.bottom + 1, utf8 ? 0x25B2 : '^', SP_MARK);
    }
    x_labels(sw, &g, cells);
    return true;
}

void sweep_plot_crossing(const struct sweep *sw, char *buf, size_t n)
{
    int cross = sweep_crossing(sw), fit = 0, valid = 0;
    for (int i = 0; i < sw->n; i++)
        if (sw->pts[i].valid) {
            valid++;
            fit += sw->pts[i].fits;
        }
    const char *key = sw->knob != NULL ? sw->knob->key : "?";
    if (cross >= 0) {
        const struct sweep_point *p = &sw->pts[cross];
        char t[32], u[32];
        units_bytes(p->total, t, sizeof t);
        units_bytes(p->usable, u, sizeof u);
        snprintf(buf, n, "stops fitting at %s = %s: %s > %s usable", key, sw->pts[cross].text,
                 t, u);
    } else if (valid == 0) {
        snprintf(buf, n, "no value of %s gives a valid scenario", key);
    } else if (fit == valid) {
        snprintf(buf, n, "fits at every value of %s", key);
    } else if (fit == 0) {
        snprintf(buf, n, "fits at no value of %s", key);
    } else {
        snprintf(buf, n, "fits at %d of the %d valid values of %s, not in one run", fit, valid,
                 key);
    }
}

/* A code point as UTF-8. */
static int utf8_put(FILE *f, uint32_t ch)
{
    char b[4];
    int n;
    if (ch < 0x80) {
        b[0] = (char)ch;
        n = 1;
    } else if (ch < 0x800) {
        b[0] = (char)(0xC0 | (ch >> 6));
        b[1] = (char)(0x80 | (ch & 0x3F));
        n = 2;
    } else {
        b[0] = (char)(0xE0 | (ch >> 12));
        b[1] = (char)(0x80 | ((ch >> 6) & 0x3F));
        b[2] = (char)(0x80 | (ch & 0x3F));
        n = 3;
    }
    return fwrite(b, 1, (size_t)n, f) == (size_t)n ? 0 : -1;
}

bool sweep_plot_write_text(FILE *f, const struct sweep *sw, int w, int h, bool utf8)
{
    struct sweep_cell *cells = malloc((size_t)w * (size_t)h * sizeof *cells);
    if (cells == NULL)
        return false;
    sweep_plot_draw(sw, -1, utf8, w, h, cells);
    for (int y = 0; y < h; y++) {
        int last = w - 1;
        while (last >= 0 && cells[y * w + last].ch == ' ')
            last--;
        for (int x = 0; x <= last; x++)
            utf8_put(f, cells[y * w + x].ch);
        fputc('\n', f);
    }
    free(cells);
    char line[256];
    sweep_plot_crossing(sw, line, sizeof line);
    fprintf(f, "%s\n", line);
    return !ferror(f);
}

/* ---- SVG ------------------------------------------------------------------------------- */

static const char *const MEM_COLOURS[MEM_COUNT] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                                   "#59a14f", "#edc948"};
static const char *const MEM_NAMES[MEM_COUNT] = {"parameters", "gradients", "optimizer state",
                                                 "master weights", "buffers", "activations"};
static const char *const SERVE_NAMES[MEM_COUNT] = {
    [MEM_PARAMS] = "weights", [MEM_GRADS] = "KV cache", [MEM_ACTIVATIONS] = "activations"};

/* Text with &, <, > and quotes escaped. */
static void xml_text(FILE *f, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fputc(*s, f);
        }
    }
}

#define SVG_W 860
#define SVG_H 460
#define SVG_L 90
#define SVG_R 90
#define SVG_T 60
#define SVG_B 70

static void svg_bars(FILE *f, const struct sweep *sw, const struct geo *g)
{
    const double pw = SVG_W - SVG_L - SVG_R, ph = SVG_H - SVG_T - SVG_B;
    const double bw = pw / sw->n;
    for (int i = 0; i < sw->n; i++) {
        const struct sweep_point *p = &sw->pts[i];
        double x = SVG_L + i * bw + bw * 0.12, w = bw * 0.76;
        if (!p->valid) {
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#b00\" "
                       "text-anchor=\"middle\">&#215;<title>", x + w / 2, SVG_T + ph - 4);
            xml_text(f, p->why);
            fputs("</title></text>\n", f);
            continue;
        }
        double cum = 0;
        for (int k = 0; k < MEM_COUNT; k++) {
            double b = p->part[k];
            if (!(b > 0))
                continue;
            double y0 = SVG_T + ph - (cum + b) / g->mem_max * ph;
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                    x, y0, w, b / g->mem_max * ph, MEM_COLOURS[k]);
            cum += b;
        }
    }
    /* The step time: a line through the valid points, a dot on each. */
    fputs("<polyline fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" points=\"", f);
    for (int i = 0; i < sw->n; i++)
        if (sw->pts[i].valid)
            fprintf(f, "%.1f,%.1f ", SVG_L + (i + 0.5) * bw,
                    SVG_T + ph - sw->pts[i].seconds / g->step_max * ph);
    fputs("\"/>\n", f);
    for (int i = 0; i < sw->n; i++)
        if (sw->pts[i].valid)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#222\"/>\n",
                    SVG_L + (i + 0.5) * bw,
                    SVG_T + ph - sw->pts[i].seconds / g->step_max * ph);
}

static void svg_axes(FILE *f, const struct sweep *sw, const struct geo *g)
{
    const double pw = SVG_W - SVG_L - SVG_R, ph = SVG_H - SVG_T - SVG_B, bw = pw / sw->n;
    fprintf(f, "<path d=\"M%d %d V%d H%d V%d\" fill=\"none\" stroke=\"#444\"/>\n", SVG_L, SVG_T,
            SVG_H - SVG_B, SVG_W - SVG_R, SVG_T);
    char b[48];
    for (int t = 0; t <= 4; t++) {
        double y = SVG_T + ph - t * ph / 4;
        units_bytes(g->mem_max * t / 4, b, sizeof b);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
                SVG_L - 6, y + 4, b);
        units_duration(g->step_max * t / 4, b, sizeof b);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\">%s</text>\n", SVG_W - SVG_R + 6,
                y + 4, b);
    }
    int every = sw->n > 16 ? (sw->n + 15) / 16 : 1;
    for (int i = 0; i < sw->n; i++) {
        if (i % every != 0 && i != sw->n - 1)
            continue;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">",
                SVG_L + (i + 0.5) * bw, SVG_H - SVG_B + 16);
        xml_text(f, sw->pts[i].text);
        fputs("</text>\n", f);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
            SVG_L + (int)pw / 2, SVG_H - SVG_B + 36, sw->knob != NULL ? sw->knob->key : "");
    fprintf(f, "<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
               "text-anchor=\"middle\">memory per GPU</text>\n",
            SVG_T + (int)ph / 2, SVG_T + (int)ph / 2);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" transform=\"rotate(90 %d %d)\" "
               "text-anchor=\"middle\">%s</text>\n",
            SVG_W - 14, SVG_T + (int)ph / 2, SVG_W - 14, SVG_T + (int)ph / 2,
            time_name(sw, true));
    for (int i = 0; i < sw->n; i++) {
        if (!sw->pts[i].valid)
            continue;
        double y = SVG_T + ph - sw->pts[i].usable / g->mem_max * ph;
        units_bytes(sw->pts[i].usable, b, sizeof b);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#b00\" "
                   "stroke-dasharray=\"6 4\"/>\n<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
                   "fill=\"#b00\">usable %s</text>\n",
                SVG_L, y, SVG_W - SVG_R, y, SVG_L + 4, y - 4, b);
        break;
    }
    int cross = sweep_crossing(sw);
    if (cross >= 0)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#b00\"/>\n",
                SVG_L + cross * bw, SVG_T, SVG_L + cross * bw, SVG_H - SVG_B);
}

bool sweep_plot_write_svg(FILE *f, const struct sweep *sw, const char *title)
{
    struct geo g = {0};
    scales(sw, &g);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            SVG_W, SVG_H, SVG_W, SVG_H);
    fputs("<text x=\"14\" y=\"22\" font-size=\"14\">", f);
    xml_text(f, title != NULL ? title : "");
    fputs("</text>\n", f);
    int x = 14;
    for (int k = 0; k < MEM_COUNT; k++) {
        const char *name = sw->serving ? SERVE_NAMES[k] : MEM_NAMES[k];
        if (name == NULL)
            continue;
        fprintf(f, "<rect x=\"%d\" y=\"32\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" "
                   "y=\"41\" font-size=\"11\">%s</text>\n",
                x, MEM_COLOURS[k], x + 13, name);
        x += 13 + 7 * (int)strlen(name) + 12;
    }
    fprintf(f, "<circle cx=\"%d\" cy=\"37\" r=\"3\" fill=\"#222\"/><text x=\"%d\" y=\"41\" "
               "font-size=\"11\">%s</text>\n", x + 4, x + 11, time_name(sw, true));
    if (sw->n > 0) {
        svg_bars(f, sw, &g);
        svg_axes(f, sw, &g);
    }
    char line[256];
    sweep_plot_crossing(sw, line, sizeof line);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#b00\">", SVG_L, SVG_H - 12);
    xml_text(f, line);
    fputs("</text>\n</svg>\n", f);
    return !ferror(f);
}
