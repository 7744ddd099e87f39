/* memory_panel.c - the memory panel: the bar of the four rows (and buffers) against the
 * usable memory, the verdict, and the lecture's table of dtype, elements, bytes and share. */
#include "memory_panel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_view.h"
#include "figure.h"
#include "report.h"
#include "widgets.h"

_Static_assert(MEM_COUNT <= WIDGET_BAR_PARTS, "a memory bar fits widget_bar_split");

/* Row i's name: the report's memory list's (src/report.c), in the panel's cells. */
static const char *mem_name(int i)
{
    static const struct figure *slot;
    const struct figure *rows = figure_find_once(report_table(), "memory.rows", &slot);
    return rows != NULL && rows->briefs != NULL ? rows->briefs[i] : "?";
}

/* The memory bar's cells, scaled to `scale` bytes. */
static void bar_cells(const struct memory *m, double scale, int w, int *cells)
{
    double bytes[MEM_COUNT];
    for (int i = 0; i < MEM_COUNT; i++)
        bytes[i] = m->row[i].bytes;
    widget_bar_split(bytes, MEM_COUNT, m->total, scale, w, cells);
}

/* The memory bar at y: scaled to the larger of capacity and need; the reserve (CUDA context
 * and allocator) is the stretch between the usable mark and the capacity's end. */
static void draw_memory_bar(const struct dash *d, struct screen *s, struct rect r, int y)
{
    const struct memory *m = &d->ev.an.memory;
    int bw = r.w - 2;
    double scale = m->total > m->capacity ? m->total : m->capacity;
    int cells[MEM_COUNT];
    bar_cells(m, scale, bw, cells);
    int x = r.x + 1;
    for (int i = 0; i < MEM_COUNT; i++)
        for (int k = 0; k < cells[i]; k++)
            screen_put(s, x++, y, d->theme.color ? d->cs.bar : d->cs.part[i], E_PARAMS + i);
    int resx = r.x + 1 + (int)lround(m->usable / scale * bw);
    int endx = r.x + 1 + (int)lround(m->capacity / scale * bw);
    while (x < r.x + 1 + bw) {
        /* The reserve drawn as over-capacity marks where nothing else is. */
        bool reserved = x >= resx && x < endx;
        screen_put(s, x, y, reserved ? d->cs.cap_mark : d->cs.free_mem, E_DIM);
        x++;
    }
    int capx = resx;
    if (capx > r.x + bw)
        capx = r.x + bw;
    screen_put(s, capx, y, d->cs.cap_mark, m->fits ? E_CAPACITY : E_OVER);
}

/* The header's and the verdict's figures: rows of the report's table (src/report.c),
 * looked up once into verdict_rows. */
enum { VF_CAPACITY, VF_TOTAL, VF_USABLE, VF_SHARE, VF_OVER, VF_TIMES, VF_FITS, VF_STAGE,
       VF_STAGES, VF_COUNT };
static const struct figure *verdict_rows[VF_COUNT];
static const char *const VERDICT_KEYS[VF_COUNT] = {
    [VF_CAPACITY] = "memory.capacity",
    [VF_TOTAL] = "memory.total",         [VF_USABLE] = "memory.usable",
    [VF_SHARE] = "memory.usable_share",  [VF_OVER] = "memory.over_usable",
    [VF_TIMES] = "memory.usable_times",  [VF_FITS] = "memory.fits",
    [VF_STAGE] = "memory.stage.index",   [VF_STAGES] = "memory.stage.stages",
};

/* The verdict's three forms, long to short, of the report's figures: the total against the
 * usable memory (capacity less the reserve), and which pipeline stage the rows are. */
static void verdict_lines(const struct dash *d, const struct figure_value *v, char line[3][256],
                          bool *fits)
{
    const struct figure *const *rows = verdict_rows;
    /* Only the figures the verdict writes are formatted (a frame's time is in snprintf). */
    char f[VF_COUNT][32], stage[64] = "", sstage[32] = "";
    *fits = v[VF_FITS].kind == FK_BOOL && v[VF_FITS].b;
    static const int fit_shows[] = {VF_TOTAL, VF_USABLE, VF_SHARE};
    static const int over_shows[] = {VF_TOTAL, VF_USABLE, VF_OVER, VF_TIMES};
    const int *shows = *fits ? fit_shows : over_shows;
    int n_shows = *fits ? 3 : 4;
    for (int i = 0; i < n_shows; i++)
        figure_format_brief(rows[shows[i]], &v[shows[i]], f[shows[i]], sizeof f[0]);
    long long st = (long long)v[VF_STAGE].num, stages = (long long)v[VF_STAGES].num;
    if (stages > 1) {
        snprintf(stage, sizeof stage, ", stage %lld/%lld%s", st + 1, stages,
                 st == 0 ? " (first)" : st == stages - 1 ? " (last)" : "");
        snprintf(sstage, sizeof sstage, " st%lld", st + 1);
    }
    const char *tot = f[VF_TOTAL], *use = f[VF_USABLE];
    if (*fits) {
        snprintf(line[0], 256, "%s of %s usable (%s): fits%s", tot, use, f[VF_SHARE], stage);
        snprintf(line[1], 256, "%s of %s (%s): fits%s", tot, use, f[VF_SHARE], sstage);
        snprintf(line[2], 256, "%s/%s fits", tot, use);
    } else {
        snprintf(line[0], 256, "%s of %s usable: over by %s (%s%s)%s", tot, use, f[VF_OVER],
                 f[VF_TIMES], d->cs.times, stage);
        snprintf(line[1], 256, "%s of %s: over by %s%s", tot, use, f[VF_OVER], sstage);
        snprintf(line[2], 256, "%s/%s over", tot, use);
    }
}

/* The verdict at y; shorter forms where the panel is narrow. Pinned (x): the total's change
 * from the pinned scenario's after it, "vs pinned" where that fits too: a shorter verdict
 * before a shorter change, the change left out before anything is cut. */
static void draw_memory_verdict(const struct dash *d, struct screen *s, struct rect r, int y,
                                const struct figure_value *v)
{
    char line[3][256];
    bool fits;
    verdict_lines(d, v, line, &fits);
    char dl[48], vs[2][64] = {"", ""};
    int del = E_DIM;
    if (compare_view_delta(&d->cmp, "memory.total", dl, sizeof dl, &del)) {
        snprintf(vs[0], sizeof vs[0], "  %s vs pinned", dl);
        snprintf(vs[1], sizeof vs[1], "  %s", dl);
    }
    /* The first that fits: each verdict with the change, long then short, then the
     * verdicts alone (the last always drawn). */
    int pick = 2, with = 2;
    for (int c = vs[0][0] ? 0 : 6; c < 9; c++) {
        int k = c < 6 ? c / 2 : c - 6, j = c < 6 ? c % 2 : 2;
        if (c == 8 || screen_width(line[k]) + (j < 2 ? screen_width(vs[j]) : 0) <= r.w - 2) {
            pick = k;
            with = j;
            break;
        }
    }
    screen_text(s, r.x + 1, y, r.w - 2, line[pick], fits ? E_OK : E_OVER);
    if (with < 2) {
        int used = screen_width(line[pick]);
        screen_text(s, r.x + 1 + used, y, r.w - 2 - used, vs[with], del);
    }
}

/* Each memory row's figure in report's JSON, for its change from the pinned scenario. */
static const char *const mem_keys[MEM_COUNT] = {
    [MEM_PARAMS] = "memory.params",          [MEM_GRADS] = "memory.grads",
    [MEM_OPTIMIZER] = "memory.optimizer",    [MEM_MASTER] = "memory.master_weights",
    [MEM_BUFFERS] = "memory.buffers",        [MEM_ACTIVATIONS] = "memory.activations",
};

/* Whether the pinned scenario held some of row i (a row it had stays listed, at 0 B now). */
static bool mem_pinned_had(const struct dash *d, int i)
{
    const struct diff_figure *f = d->cmp.on ? diff_find(&d->cmp.d, mem_keys[i]) : NULL;
    return f != NULL && f->have_a && f->a > 0;
}

/* The memory table's columns after the name, each right-aligned with one blank before it. */
enum { MC_DTYPE, MC_ELEMENTS, MC_BYTES, MC_SHARE, MC_DELTA, MC_COUNT };
static const int mem_col_w[MC_COUNT] = {8, 9, 9, 5, 9};

/* The columns shown: all of the lecture's where they fit, and when pinned the change from
 * the pinned scenario last, for which the share gives way first, then the element count; the
 * change is left out before anything is cut. Sets each column's end (exclusive; 0: not
 * shown) from x0, the name's end, within limit. */
static void mem_columns(int x0, int limit, bool share, bool pinned, int *end)
{
    static const unsigned with[] = {
        1u << MC_ELEMENTS | 1u << MC_SHARE | 1u << MC_DELTA,
        1u << MC_ELEMENTS | 1u << MC_DELTA,
        1u << MC_DELTA,
    };
    unsigned plain = 1u << MC_ELEMENTS | (share ? 1u << MC_SHARE : 0u);
    for (int t = pinned ? 0 : 3; t <= 3; t++) {
        unsigned on = (t < 3 ? with[t] : plain) | 1u << MC_DTYPE | 1u << MC_BYTES;
        if (t < 3 && (on & 1u << MC_SHARE) && !share)
            continue;
        int x = x0;
        for (int c = 0; c < MC_COUNT; c++)
            end[c] = on & 1u << c ? (x += 1 + mem_col_w[c] - (c == MC_DTYPE)) : 0;
        if (x <= limit || t == 3)
            return;
    }
}

/* The dtype, element count, bytes and share of memory rows show[0..n-1] as the report's
 * memory table writes them (its columns in src/report.c: "-" and "off" for master weights
 * that are off), taken at once. */
static void mem_cells(const struct dash *d, const int *show, int n, char cell[][MC_COUNT][48])
{
    static const char *const keys[] = {[MC_DTYPE] = "memory.rows[].dtype",
                                       [MC_ELEMENTS] = "memory.rows[].elements",
                                       [MC_BYTES] = "memory.rows[].bytes",
                                       [MC_SHARE] = "memory.rows[].share"};
    static const struct figure *col[MC_SHARE + 1];
    enum { PER = MC_SHARE + 1 };
    struct figure_pick pick[MEM_COUNT * PER];
    struct figure_value v[MEM_COUNT * PER];
    bool shown[MEM_COUNT * PER];
    for (int j = 0; j < n; j++)
        for (int c = 0; c < PER; c++) {
            pick[j * PER + c] =
                (struct figure_pick){figure_find_once(report_table(), keys[c], &col[c]), show[j]};
        }
    report_figures(&d->ev, pick, n * PER, v, shown);
    for (int j = 0; j < n; j++)
        for (int c = 0; c < PER; c++) {
            if (shown[j * PER + c])
                figure_format_brief(col[c], &v[j * PER + c], cell[j][c], sizeof cell[j][c]);
            else
                snprintf(cell[j][c], sizeof cell[j][c], "?");
        }
}

/* The lecture's table from y: each row's dtype, element count, bytes and share, and when
 * pinned its change. */
static void draw_memory_rows(const struct dash *d, struct screen *s, struct rect r, int y)
{
    const struct memory *m = &d->ev.an.memory;
    const int cw_name = 12, x0 = r.x + 3 + cw_name;
    bool share = r.w >= 2 + cw_name + 9 + 9 + 9 + 6 + 2;
    int end[MC_COUNT];
    mem_columns(x0, r.x + r.w - 1, share, d->cmp.on, end);
    /* The rows to list: buffers only when there are some (ZeRO-2/3) or the pinned scenario
     * had some; when the panel is short, master weights that are off (and were) give way
     * first, then the column heads. */
    int show[MEM_COUNT], n_show = 0;
    for (int i = 0; i < MEM_COUNT; i++)
        if (i != MEM_BUFFERS || m->row[MEM_BUFFERS].bytes > 0 || mem_pinned_had(d, i))
            show[n_show++] = i;
    int rows_left = r.y + r.h - y;
    if (n_show > rows_left && m->row[MEM_MASTER].bytes <= 0 && !mem_pinned_had(d, MEM_MASTER)) {
        int k = 0;
        for (int i = 0; i < n_show; i++)
            if (show[i] != MEM_MASTER)
                show[k++] = show[i];
        n_show = k;
    }
    if (rows_left >= n_show + 1) {
        static const char *const heads[MC_COUNT] = {"dtype", "elements", "bytes", "share",
                                                    "vs pinned"};
        screen_text(s, r.x + 3, y, cw_name, "part", E_DIM);
        for (int c = 0; c < MC_COUNT; c++)
            if (end[c])
                screen_text_right(s, end[c], y, mem_col_w[c], heads[c], E_DIM);
        y++;
    }
    char cells[MEM_COUNT][MC_COUNT][48];
    mem_cells(d, show, n_show, cells);
    for (int j = 0; j < n_show && y < r.y + r.h; j++, y++) {
        const int i = show[j];
        const struct mem_row *row = &m->row[i];
        bool off = i == MEM_MASTER && row->bytes <= 0;
        int el = off ? E_DIM : E_NORMAL;
        screen_put(s, r.x + 1, y, d->theme.color ? d->cs.bar : d->cs.part[i], E_PARAMS + i);
        screen_label(s, r.x + 3, y, cw_name, mem_name(i), el);
        char (*cell)[48] = cells[j];
        int elem[MC_COUNT] = {el, el, off ? E_DIM : E_VALUE, el, E_DIM};
        cell[MC_DELTA][0] = '\0';
        if (off)
            cell[MC_SHARE][0] = '\0';
        if (!compare_view_delta(&d->cmp, mem_keys[i], cell[MC_DELTA], sizeof cell[0],
                                &elem[MC_DELTA]) ||
            screen_width(cell[MC_DELTA]) > mem_col_w[MC_DELTA])
            cell[MC_DELTA][0] = '\0';
        for (int c = 0; c < MC_COUNT; c++)
            if (end[c] && cell[c][0])
                screen_text_right(s, end[c], y, mem_col_w[c], cell[c], elem[c]);
    }
}

void memory_panel_draw(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    struct figure_value v[VF_COUNT];
    if (!report_figures_by_key(&d->ev, VERDICT_KEYS, VF_COUNT, verdict_rows, v))
        return;
    char right[96], cap[32];
    figure_format_brief(verdict_rows[VF_CAPACITY], &v[VF_CAPACITY], cap, sizeof cap);
    snprintf(right, sizeof right, "%s %s", d->sc.gpu.id[0] ? d->sc.gpu.id : d->sc.gpu.name, cap);
    widget_header(s, &d->cs, r, "Memory per GPU", right, focused);
    if (r.h < 2)
        return;
    draw_memory_bar(d, s, r, r.y + 1);
    if (r.h < 3)
        return;
    draw_memory_verdict(d, s, r, r.y + 2, v);
    draw_memory_rows(d, s, r, r.y + 3);
}
