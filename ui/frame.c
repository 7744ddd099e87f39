/* frame.c - the frame: every panel drawn into the cell grid from the state alone. */
#include "frame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "dash_pick.h"
#include "explain.h"
#include "figure.h"
#include "layout.h"
#include "dtypes_panel.h"
#include "lecture_view.h"
#include "model_summary.h"
#include "infer_frame.h"
#include "keymap.h"
#include "ops.h"
#include "plot.h"
#include "predict.h"
#include "report.h"
#include "units.h"
#include "warnings.h"
#include "widgets.h"

/* ---- title and bottom lines ------------------------------------------------------------ */

static void draw_title(const struct dash *d, struct screen *s, struct rect r)
{
    const struct analysis *a = &d->ev.an;
    char model[128], hw[128], days[64], mem[64], prec[48];
    char n[32];
    units_count((double)a->params.total, n, sizeof n);
    if (d->sc.model.id[0] && strcmp(d->sc.model.id, "custom") != 0)
        snprintf(model, sizeof model, "%s (%s)", d->sc.model.id, n);
    else
        snprintf(model, sizeof model, "%s params", n);
    snprintf(hw, sizeof hw, "%lld %s %s", (long long)d->sc.gpus, d->cs.times,
             d->sc.gpu.id[0] ? d->sc.gpu.id : d->sc.gpu.name);
    snprintf(prec, sizeof prec, "%s", dtype_name(d->sc.dtype));
    /* The training time the MFU in use gives, and which MFU that is. */
    char dur[32];
    units_duration(a->time.seconds, dur, sizeof dur);
    /* Where there is room the whole phrase; at 80 columns a typed MFU is the slider's (on
     * screen), and a predicted or measured one a short mark. */
    bool wide = r.w >= 100;
    if (d->ev.mfu_from == MFU_TYPED)
        snprintf(days, sizeof days, wide ? "%s at MFU %.3g" : "%s", dur, d->ev.mfu);
    else
        snprintf(days, sizeof days, "%s %.*s", dur, wide ? 16 : 4, mfu_mode_name(d->ev.mfu_from));
    char tot[32];
    units_bytes(a->memory.total, tot, sizeof tot);
    snprintf(mem, sizeof mem, "%s/GPU %s", tot, a->memory.fits ? "fits" : "DOES NOT FIT");
    /* A lecture step's title says what its panels are about: the model where they count it,
     * the GPUs where they or the roofline do, the time and memory where their panels are. */
    if (!lecture_view_shows(d, "compute"))
        days[0] = '\0';
    if (!lecture_view_shows(d, "memory"))
        mem[0] = '\0';
    /* Where the preset's size would push the GPUs off the bar, the preset goes by its id
     * alone (the size slider gives its size): the bar keeps model, GPUs, time and memory,
     * in segments of 3-cell rules, short of the 8 cells of "? help". */
    int need = screen_width(model) + screen_width(hw) + screen_width(days) + screen_width(mem) + 9;
    if (need > r.w - 9 && d->sc.model.id[0] && strcmp(d->sc.model.id, "custom") != 0)
        snprintf(model, sizeof model, "%s", d->sc.model.id);
    bool model_shown = lecture_view_shows(d, "memory") || lecture_view_shows(d, "compute") ||
                       lecture_view_shows(d, "ops") || lecture_view_shows(d, "checkpoint");
    if (!model_shown)
        model[0] = '\0';
    if (!model_shown && !lecture_view_shows(d, "roofline"))
        hw[0] = prec[0] = '\0';
    const char *const seg[] = {"rooftop", model, hw, prec, days, mem};
    widget_title_bar(s, &d->cs, r, seg, a->memory.fits);
}

static void draw_caption(const struct dash *d, struct screen *s, struct rect r)
{
    char head[200];
    const char *texts[2];
    if (rect_empty(r) || !dash_caption(d, head, sizeof head, &texts[1]))
        return;
    texts[0] = head;
    screen_fill(s, r, ' ', E_CAPTION);
    struct rect tr;
    int lines = dash_caption_area(d, r, &tr);
    bool more = lines > r.h;
    int skip = more && d->caption_line < lines ? d->caption_line : 0;
    widget_wrap(s, tr, texts, 2, skip, E_CAPTION);
    /* The keys that step on (and read on), at the end of the last row where it has room. */
    char keys[48];
    if (more)
        snprintf(keys, sizeof keys, " c more %d/%d  n next  p back ", skip / r.h + 1,
                 (lines + r.h - 1) / r.h);
    else
        snprintf(keys, sizeof keys, " n next  p back ");
    int kw = screen_width(keys), ky = r.y + r.h - 1;
    bool room = true;
    for (int x = r.x + r.w - kw - 1; room && x < r.x + r.w; x++) {
        const struct cell *c = screen_cell(s, x, ky);
        room = c && c->ch == ' ';
    }
    if (room)
        screen_text(s, r.x + r.w - kw, ky, kw, keys, E_CAPTION);
}

static void draw_explain(const struct dash *d, struct screen *s, struct rect r)
{
    /* An exercise's formula line would give its answer away (and after it, say another
     * figure than the one asked for). */
    const struct demo_step *st = lecture_view_step(d);
    if (rect_empty(r) || (st != NULL && st->answer[0]))
        return;
    /* Nor a formula of an input the step does not show (the toy and dtype steps). */
    if (st != NULL && !lecture_focusable(st, d->focus))
        return;
    char line[512];
    explain_line(d, r.w - 2, line, sizeof line);
    screen_text(s, r.x + 1, r.y, r.w - 2, line, E_EXPLAIN);
}

static void draw_status(const struct dash *d, struct screen *s, struct rect r)
{
    screen_fill(s, r, ' ', E_STATUS);
    int x = r.x + 1, end = r.x + r.w - 1;
    if (d->status[0]) {
        int el = d->status_error ? E_ERROR : E_STATUS;
        int w = screen_width(d->status);
        screen_label(s, x, r.y, end - x, d->status, el);
        x += (w < end - x ? w : end - x) + 2;
    } else {
        char name[SCENARIO_NAME_MAX + 200];
        /* While M is on, the MFU is not the scenario's guess: say so (a predicted MFU is
         * named by the title bar's time, "5.7 years predicted"). */
        const char *mm = d->ev.mfu_from == MFU_MEASURED ? ", MFU measured" : "";
        /* The same title the report and an export give it. */
        char title[SCENARIO_NAME_MAX + 160];
        scenario_title(&d->sc, title, sizeof title);
        snprintf(name, sizeof name, "%s%s", title, mm);
        int w = screen_width(name);
        if (w > r.w / 2)
            w = r.w / 2;
        x += screen_label(s, x, r.y, w, name, E_STATUS) + 2;
        /* An input that does nothing or makes no sense (the evaluation's warnings): the
         * first one takes the key hints' place, as the report's "warning:" line does. */
        const struct warnings *wl = &d->ev.warn;
        if (wl->n > 0 && x < end) {
            char line[WARNING_LEN + 48];
            snprintf(line, sizeof line, "warning: %s%s", wl->line[0],
                     wl->n > 1 ? " (and more: rooftop report lists them)" : "");
            screen_label(s, x, r.y, end - x, line, E_ERROR);
            return;
        }
    }
    if (d->probe && d->mode == DM_NORMAL) {
        /* The probe's progress takes the place of the key hints while it runs. */
        int bw = 20;
        if (x + bw + 12 < end) {
            x += screen_label(s, x, r.y, 8, "probing ", E_STATUS);
            int fill = d->probe_total > 0 ? bw * d->probe_done / d->probe_total : 0;
            for (int i = 0; i < bw; i++)
                screen_put(s, x + i, r.y, i < fill ? d->cs.progress : d->cs.progress_empty, E_STATUS);
            x += bw + 1;
            char prog[96];
            snprintf(prog, sizeof prog, "%d/%d %s  (P cancels)", d->probe_done, d->probe_total,
                     d->probe_what);
            screen_label(s, x, r.y, end - x, prog, E_STATUS);
        }
        return;
    }
    unsigned place = KM_TRAINING;
    if (d->mode == DM_OPEN)
        place = KM_PROMPT | KM_OPEN;
    else if (d->mode == DM_EDIT || d->mode == DM_SAVE || d->mode == DM_EXPORT)
        place = KM_PROMPT;
    else if (d->mode == DM_PICK_MODEL || d->mode == DM_PICK_GPU)
        place = KM_LIST;
    else if (d->mode == DM_PLANS)
        place = KM_PLANS;
    else if (d->mode == DM_CONFIRM)
        place = KM_CONFIRM;
    else if (d->mode == DM_HELP)
        return;
    char bar[512];
    keymap_bar(place, d->cs.utf8, end - x, bar, sizeof bar);
    screen_text(s, x, r.y, end - x, bar, E_STATUS);
}

/* ---- sliders --------------------------------------------------------------------------- */

static void draw_sliders(const struct dash *d, struct screen *s, struct rect r)
{
    struct slider_geom g;
    int ids[SLIDER_MAX], pos, ns = lecture_view_slider_geom(d, r, &g, ids, &pos);
    /* Where not every slider fits, the header says which way the others are (a mark in the
     * margin read as part of the label beside it: "vflash"). */
    bool above = g.first > 0, below = g.first + g.count < ns;
    char right[48];
    snprintf(right, sizeof right, "%d/%d%s%s%s", pos < ns ? pos + 1 : ns, ns,
             above || below ? " " : "", above ? (d->cs.utf8 ? "\xE2\x86\x91" : "^") : "",
             below ? (d->cs.utf8 ? "\xE2\x86\x93" : "v") : "");
    widget_header(s, &d->cs, r, "Inputs", right, false);
    for (int i = 0; i < g.count; i++) {
        int id = ids[g.first + i], y = g.y0 + i;
        bool focused = id == d->focus;
        const struct input *in = slider_input(id);
        char v[64];
        slider_format(&d->presets, &d->sc, id, v, sizeof v);
        widget_slider_row(s, &d->cs, r, y, in->label, LAYOUT_NAME_W, g.track_x, g.track_w,
                          slider_position(&d->presets, &d->sc, id), v,
                          LAYOUT_VALUE_W, focused);
        /* Compared with a pinned scenario (x): the inputs that differ from it. */
        if (compare_view_marked(&d->cmp, in->key))
            screen_put(s, r.x, y, d->cs.utf8 ? 0x2260 : '*', E_OVER);
    }
}

/* ---- memory ---------------------------------------------------------------------------- */

static const char *const mem_names[MEM_COUNT] = {"parameters", "gradients", "optimizer",
                                                  "master", "buffers", "activations"};

/* Cells per part of a stacked bar of w cells: part i gets value[i] / scale of the width;
 * every non-zero part at least one cell when there is room; the cells of `total` (capped at
 * w) filled by largest remainder. The memory bar and the step bar share it. */
/* The most parts a bar has: the step's parts, or the memory rows. */
#define BAR_PARTS_MAX ((int)PART_COUNT > (int)MEM_COUNT ? (int)PART_COUNT : (int)MEM_COUNT)
static void bar_split(const double *value, int n, double total, double scale, int w, int *cells)
{
    double want[BAR_PARTS_MAX];
    if (n > BAR_PARTS_MAX)
        n = BAR_PARTS_MAX;
    int used = 0;
    for (int i = 0; i < n; i++) {
        want[i] = scale > 0 ? value[i] / scale * w : 0;
        cells[i] = (int)floor(want[i]);
        if (value[i] > 0 && cells[i] == 0)
            cells[i] = 1;
        used += cells[i];
    }
    int target = (int)lround(scale > 0 ? total / scale * w : 0);
    if (target > w)
        target = w;
    while (used < target) {
        int best = 0;
        for (int i = 1; i < n; i++)
            if (want[i] - cells[i] > want[best] - cells[best])
                best = i;
        cells[best]++;
        used++;
    }
    while (used > w) {
        int big = 0;
        for (int i = 1; i < n; i++)
            if (cells[i] > cells[big])
                big = i;
        cells[big]--;
        used--;
    }
}

/* The memory bar's cells, scaled to `scale` bytes. */
static void bar_cells(const struct memory *m, double scale, int w, int *cells)
{
    double bytes[MEM_COUNT];
    for (int i = 0; i < MEM_COUNT; i++)
        bytes[i] = m->row[i].bytes;
    bar_split(bytes, MEM_COUNT, m->total, scale, w, cells);
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

/* The verdict at y, against the usable memory (capacity less the reserve), and which
 * pipeline stage the rows are; shorter forms where the panel is narrow. Pinned (x): the
 * total's change from the pinned scenario's after it, "vs pinned" where that fits too: a
 * shorter verdict before a shorter change, the change left out before anything is cut. */
static void draw_memory_verdict(const struct dash *d, struct screen *s, struct rect r, int y)
{
    const struct memory *m = &d->ev.an.memory;
    char tot[32], use[32], stage[64] = "", sstage[32] = "", line[3][256];
    units_bytes(m->total, tot, sizeof tot);
    units_bytes(m->usable, use, sizeof use);
    if (m->stages > 1) {
        snprintf(stage, sizeof stage, ", stage %lld/%lld%s", (long long)m->busiest.index + 1,
                 (long long)m->stages,
                 m->busiest.index == 0 ? " (first)"
                 : m->busiest.index == m->stages - 1 ? " (last)" : "");
        snprintf(sstage, sizeof sstage, " st%lld", (long long)m->busiest.index + 1);
    }
    if (m->fits) {
        double pc = m->usable > 0 ? 100 * m->total / m->usable : 0;
        snprintf(line[0], sizeof line[0], "%s of %s usable (%.0f%%): fits%s", tot, use, pc, stage);
        snprintf(line[1], sizeof line[1], "%s of %s (%.0f%%): fits%s", tot, use, pc, sstage);
        snprintf(line[2], sizeof line[2], "%s/%s fits", tot, use);
    } else {
        char over[32];
        units_bytes(m->total - m->usable, over, sizeof over);
        double times = m->usable > 0 ? m->total / m->usable : 0;
        snprintf(line[0], sizeof line[0], "%s of %s usable: over by %s (%.1f%s)%s", tot, use,
                 over, times, d->cs.times, stage);
        snprintf(line[1], sizeof line[1], "%s of %s: over by %s%s", tot, use, over, sstage);
        snprintf(line[2], sizeof line[2], "%s/%s over", tot, use);
    }
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
    screen_text(s, r.x + 1, y, r.w - 2, line[pick], m->fits ? E_OK : E_OVER);
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

/* The dtype, element count and bytes of memory rows show[0..n-1] as the report's memory
 * table writes them (its columns in src/report.c: "-" and "off" for master weights that are
 * off), taken at once. */
static void mem_cells(const struct dash *d, const int *show, int n, char cell[][MC_COUNT][48])
{
    static const char *const keys[] = {[MC_DTYPE] = "memory.rows[].dtype",
                                       [MC_ELEMENTS] = "memory.rows[].elements",
                                       [MC_BYTES] = "memory.rows[].bytes"};
    static const struct figure *col[MC_BYTES + 1];
    enum { PER = MC_BYTES + 1 };
    struct report_pick pick[MEM_COUNT * PER];
    struct figure_value v[MEM_COUNT * PER];
    bool shown[MEM_COUNT * PER];
    for (int j = 0; j < n; j++)
        for (int c = 0; c < PER; c++) {
            if (col[c] == NULL)
                col[c] = figure_find(report_table(), keys[c]);
            pick[j * PER + c] = (struct report_pick){col[c], show[j]};
        }
    report_figures(&d->ev, pick, n * PER, v, shown);
    for (int j = 0; j < n; j++)
        for (int c = 0; c < PER; c++) {
            if (shown[j * PER + c])
                figure_format(col[c], &v[j * PER + c], cell[j][c], sizeof cell[j][c]);
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
        screen_label(s, r.x + 3, y, cw_name, mem_names[i], el);
        char (*cell)[48] = cells[j];
        int elem[MC_COUNT] = {el, el, off ? E_DIM : E_VALUE, el, E_DIM};
        cell[MC_SHARE][0] = cell[MC_DELTA][0] = '\0';
        if (!off)
            snprintf(cell[MC_SHARE], sizeof cell[0], "%.0f%%",
                     m->total > 0 ? 100 * row->bytes / m->total : 0);
        if (!compare_view_delta(&d->cmp, mem_keys[i], cell[MC_DELTA], sizeof cell[0],
                                &elem[MC_DELTA]) ||
            screen_width(cell[MC_DELTA]) > mem_col_w[MC_DELTA])
            cell[MC_DELTA][0] = '\0';
        for (int c = 0; c < MC_COUNT; c++)
            if (end[c] && cell[c][0])
                screen_text_right(s, end[c], y, mem_col_w[c], cell[c], elem[c]);
    }
}

static void draw_memory(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    const struct memory *m = &d->ev.an.memory;
    char right[96], cap[32];
    units_bytes(m->capacity, cap, sizeof cap);
    snprintf(right, sizeof right, "%s %s", d->sc.gpu.id[0] ? d->sc.gpu.id : d->sc.gpu.name, cap);
    widget_header(s, &d->cs, r, "Memory per GPU", right, focused);
    if (r.h < 2)
        return;
    draw_memory_bar(d, s, r, r.y + 1);
    if (r.h < 3)
        return;
    draw_memory_verdict(d, s, r, r.y + 2);
    draw_memory_rows(d, s, r, r.y + 3);
}

/* ---- compute and time ------------------------------------------------------------------ */

struct item {
    const char *label;
    char value[32];
    int elem;
    const char *key;    /* its figure in report's JSON, for the change when pinned (or NULL) */
};

/* A duration in at most maxw cells: long spans of years (a slow measured MFU gives them)
 * lose their decimals, then go to k/M years. */
static void fit_duration(double seconds, char *buf, size_t n, int maxw)
{
    units_duration(seconds, buf, n);
    if (screen_width(buf) <= maxw)
        return;
    double years = seconds / (365.25 * 86400.0);
    if (years < 1e4) {
        snprintf(buf, n, "%.0f years", years);
        return;
    }
    char c[24];
    units_count(years, c, sizeof c);
    snprintf(buf, n, "%s years", c);
}

/* How each part of the predicted step is drawn: compute in the compute-bound colour,
 * communication in the memory-bound one, the bubble dim, the optimizer as its memory row. */
static const struct {
    enum elem elem;
    char ascii;
} step_look[PART_COUNT] = {
    [PART_COMPUTE] = {E_COMPBOUND, '#'}, [PART_RECOMPUTE] = {E_MASTER, '+'},
    [PART_TP_COMM] = {E_MEMBOUND, '='},  [PART_CP_COMM] = {E_MEMBOUND, ':'},
    [PART_EP_COMM] = {E_RIDGE, '*'},     [PART_PP_BUBBLE] = {E_DIM, '.'},
    [PART_PP_COMM] = {E_RIDGE, '~'},     [PART_DP_COMM] = {E_OVER, '%'},
    [PART_OPTIMIZER] = {E_OPTIMIZER, 'o'},
};

static const char *const step_short[PART_COUNT] = {
    [PART_COMPUTE] = "compute", [PART_RECOMPUTE] = "recomp", [PART_TP_COMM] = "tp",
    [PART_CP_COMM] = "cp",      [PART_EP_COMM] = "ep",
    [PART_PP_BUBBLE] = "bubble",  [PART_PP_COMM] = "pp",      [PART_DP_COMM] = "dp",
    [PART_OPTIMIZER] = "opt",
};

/*
 * The predicted step as a bar of w cells stacked by its parts (every non-zero part at least
 * one cell, largest remainders after), and under it each part's share with the predicted
 * MFU beside the assumed one. Two rows at y.
 */
static void draw_step_bar(const struct dash *d, struct screen *s, int x, int y, int w,
                          const struct prediction *p)
{
    int cells[PART_COUNT];
    bar_split(p->part, PART_COUNT, p->step_seconds, p->step_seconds, w, cells);
    int cx = x;
    for (int k = 0; k < PART_COUNT; k++)
        for (int i = 0; i < cells[k]; i++)
            screen_put(s, cx++, y, d->theme.color ? d->cs.bar : (uint32_t)step_look[k].ascii,
                       step_look[k].elem);
    char parts[160] = "", t[32];
    units_duration(p->step_seconds, t, sizeof t);
    int n = 0;
    for (int k = 0; k < PART_COUNT && n >= 0 && (size_t)n < sizeof parts; k++)
        if (p->part[k] > 0 && p->part[k] >= 0.005 * p->step_seconds)
            n += snprintf(parts + n, sizeof parts - (size_t)n, " %s %.0f%%", step_short[k],
                          100.0 * p->part[k] / p->step_seconds);
    /* Pinned (x): the step's change after it, "vs pinned" where the whole line fits so. */
    char dl[48] = "", vs[3][64] = {"", "", ""}, line[3][320];
    int del = E_DIM;
    if (compare_view_delta(&d->cmp, "time.predicted.step_seconds", dl, sizeof dl, &del)) {
        snprintf(vs[0], sizeof vs[0], " (%s vs pinned)", dl);
        snprintf(vs[1], sizeof vs[1], " (%s)", dl);
    }
    int pick = 2;
    for (int k = 0; k < 3; k++) {
        snprintf(line[k], sizeof line[k], "step %s%s  MFU %.2g (assumed %.2g):%s", t, vs[k],
                 p->mfu, d->ev.an.time.mfu, parts);
        if (pick == 2 && k < 2 && vs[k][0] && screen_width(line[k]) <= w)
            pick = k;
    }
    screen_label(s, x, y + 1, w, line[pick], E_NORMAL);
    if (pick < 2) {
        /* The change in its colour: more time is worse. */
        int at = x + screen_width("step ") + screen_width(t) + 2;
        screen_text(s, at, y + 1, screen_width(dl), dl, del);
    }
}

/* When a compute-panel figure is shown. */
enum panel_when {
    PW_ALWAYS,
    PW_SIX_ND,       /* the run counts 6ND: the detailed count beside it */
    PW_DETAILED,     /* the run counts per op: 6ND beside it */
    PW_ROOF,         /* the roofline or the operations are on screen (a lecture step) */
    PW_RECOMPUTE,    /* the run recomputes */
    PW_NO_RECOMPUTE, /* it does not: the accumulation steps in its place */
};

/*
 * The compute panel's figures, the most needed first: each a row of the report's table
 * (src/report.c), shown by its brief label with its value as the report writes it, so that
 * the panel and `rooftop report` show one figure. Pinned (x), a figure with delta shows its
 * change from the pinned scenario (compare_view.c, by the same key).
 */
static const struct {
    const char *key;
    int elem;           /* its value's colour; a figure with no value (no price) is dim */
    bool delta;
    enum panel_when when;
} COMPUTE_FIGURES[] = {
    {"time.seconds", E_VALUE, true, PW_ALWAYS},
    {"flops.total", E_VALUE, true, PW_ALWAYS},
    {"cost.gpu_hours", E_NORMAL, true, PW_ALWAYS},
    /* What the run costs and draws (src/cost.h), early enough to show at 80x24. */
    {"cost.usd", E_NORMAL, true, PW_ALWAYS},
    {"cost.energy_kwh", E_NORMAL, true, PW_ALWAYS},
    /* Beside the count used, the other one and how far apart they are. */
    {"flops.detailed", E_NORMAL, false, PW_SIX_ND},
    {"flops.six_nd", E_NORMAL, false, PW_DETAILED},
    {"flops.detailed_vs_six_nd_percent", E_NORMAL, false, PW_ALWAYS},
    {"time.tokens_per_s", E_NORMAL, false, PW_ALWAYS},
    {"time.mfu", E_NORMAL, false, PW_ALWAYS},
    {"time.hfu", E_NORMAL, false, PW_ALWAYS},
    {"time.step_seconds", E_NORMAL, true, PW_ALWAYS},
    /* The roofline's step beside the step time where the roofline or the operations are on
     * screen: a lecture step before them shows one step time (issue 18). */
    {"roofline.step_seconds", E_NORMAL, true, PW_ROOF},
    {"roofline.mfu_bound", E_NORMAL, false, PW_ROOF},
    {"time.steps", E_NORMAL, false, PW_ALWAYS},
    {"flops.per_step", E_NORMAL, false, PW_ALWAYS},
    {"flops.recompute", E_NORMAL, false, PW_RECOMPUTE},
    {"parallel.accum_steps", E_NORMAL, false, PW_NO_RECOMPUTE},
    /* The lecture's split of the model FLOPs: forward 2ND, backward 4ND. */
    {"flops.forward", E_NORMAL, false, PW_ALWAYS},
    {"flops.backward", E_NORMAL, false, PW_ALWAYS},
    /* In a panel too small for the predicted step's bar, its figures (draw_compute). */
    {"time.predicted.step_seconds", E_VALUE, true, PW_ALWAYS},
    {"time.predicted.mfu", E_VALUE, false, PW_ALWAYS},
};

#define N_COMPUTE_FIGURES ((int)(sizeof COMPUTE_FIGURES / sizeof COMPUTE_FIGURES[0]))
/* The last two are the predicted step's, not in the panel's own list. */
#define N_COMPUTE_LISTED (N_COMPUTE_FIGURES - 2)

static bool panel_shows(const struct dash *d, enum panel_when w)
{
    const struct demo_step *st = lecture_view_step(d);
    switch (w) {
    case PW_ALWAYS:
        return true;
    case PW_SIX_ND:
        return d->sc.flops_mode == FLOPS_6ND;
    case PW_DETAILED:
        return d->sc.flops_mode != FLOPS_6ND;
    case PW_ROOF:
        return lecture_shows(st, "roofline") || lecture_shows(st, "ops");
    case PW_RECOMPUTE:
        return d->ev.an.flops.recompute > 0;
    case PW_NO_RECOMPUTE:
        return !(d->ev.an.flops.recompute > 0);
    }
    return false;
}

/* Figure i of COMPUTE_FIGURES, its row looked up once (the table is constant); NULL when
 * the report has no such row. */
static const struct figure *compute_row(int i)
{
    static const struct figure *row[N_COMPUTE_FIGURES];
    if (row[i] == NULL)
        row[i] = figure_find(report_table(), COMPUTE_FIGURES[i].key);
    return row[i];
}

/* Figure i of COMPUTE_FIGURES with its value v as an item of at most vw value cells. */
static void compute_item(int i, const struct figure_value *v, int vw, struct item *it)
{
    const struct figure *row = compute_row(i);
    it->label = figure_brief(row);
    it->key = COMPUTE_FIGURES[i].delta ? COMPUTE_FIGURES[i].key : NULL;
    it->elem = v->kind == FK_NULL ? E_DIM : COMPUTE_FIGURES[i].elem;
    /* A duration too long for the cells (a slow measured MFU gives years) is shortened. */
    if (row->unit == FU_SECONDS && v->kind == FK_NUM && v->text == NULL)
        fit_duration(v->num, it->value, sizeof it->value, vw);
    else
        figure_format(row, v, it->value, sizeof it->value);
}

/* The items of figures first..last-1 of COMPUTE_FIGURES (with by_when, those their when
 * shows), at most max, in vw value cells each, all taken from the report at once; returns
 * how many. */
static int compute_take(const struct dash *d, int first, int last, bool by_when, int max,
                        int vw, struct item *it)
{
    struct report_pick pick[N_COMPUTE_FIGURES] = {{NULL, 0}};
    int idx[N_COMPUTE_FIGURES], k = 0;
    for (int i = first; i < last && k < max; i++)
        if (compute_row(i) != NULL && (!by_when || panel_shows(d, COMPUTE_FIGURES[i].when))) {
            pick[k] = (struct report_pick){compute_row(i), 0};
            idx[k++] = i;
        }
    struct figure_value v[N_COMPUTE_FIGURES];
    bool shown[N_COMPUTE_FIGURES];
    report_figures(&d->ev, pick, k, v, shown);
    int n = 0;
    for (int j = 0; j < k; j++)
        if (shown[j])
            compute_item(idx[j], &v[j], vw, &it[n++]);
    return n;
}

/* The compute panel's figures, LAYOUT_COMPUTE_FIGURES at most (layout.c sizes the panel for
 * that many), the most needed first; returns how many. */
static int compute_items(const struct dash *d, struct item *it)
{
    const int vw = LAYOUT_ITEM_WIDTH - 9 - 2; /* value cells of an item (see draw_items) */
    return compute_take(d, 0, N_COMPUTE_LISTED, true, LAYOUT_COMPUTE_FIGURES, vw, it);
}

/* The cells of an item's change from the pinned scenario ("+143.9 days" at the most). */
#define ITEM_DELTA_W 11

/* Pinned (x): the figures with a change to show first, in their order (those without give
 * way at the end). */
static void items_keyed_first(struct item *it, int n)
{
    struct item t[LAYOUT_COMPUTE_FIGURES];
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n && k < LAYOUT_COMPUTE_FIGURES; i++)
            if ((it[i].key != NULL) == (pass == 0))
                t[k++] = it[i];
    memcpy(it, t, (size_t)k * sizeof it[0]);
}

/* The items in rows from top, per_row to a row of iw cells; with deltas, each figure's
 * change from the pinned scenario after its value (none where it would not fit whole). */
static void draw_items(const struct dash *d, struct screen *s, struct rect r, const struct item *it,
                       int n, int top, int rows, int per_row, int iw, bool deltas)
{
    const int lw = 9, vend = LAYOUT_ITEM_WIDTH - 1;
    for (int i = 0; i < n && i / per_row < rows; i++) {
        int x = r.x + 1 + (i % per_row) * iw, y = top + i / per_row;
        screen_label(s, x, y, lw, it[i].label, E_LABEL);
        screen_text_right(s, x + vend, y, LAYOUT_ITEM_WIDTH - lw - 2, it[i].value, it[i].elem);
        char dl[48];
        int del;
        if (deltas && it[i].key != NULL &&
            compare_view_delta(&d->cmp, it[i].key, dl, sizeof dl, &del) &&
            screen_width(dl) <= ITEM_DELTA_W)
            screen_text_right(s, x + vend + 1 + ITEM_DELTA_W, y, ITEM_DELTA_W, dl, del);
    }
}

static void draw_compute(const struct dash *d, struct screen *s, struct rect r, bool focused)
{
    const struct prediction *pred = &d->ev.pred;
    struct item it[LAYOUT_COMPUTE_FIGURES];
    int n = compute_items(d, it);
    char right[64];
    snprintf(right, sizeof right, "%s", d->sc.flops_mode == FLOPS_6ND ? "6ND" : "per op");
    widget_header(s, &d->cs, r, "Compute and time", right, focused);
    /* Pinned (x), where two figures with their changes fit in a row: each figure's change
     * after it, those that have one first; else the figures alone. */
    int iw = LAYOUT_ITEM_WIDTH;
    bool deltas = d->cmp.on && (r.w - 1) / (iw + ITEM_DELTA_W + 1) >= 2;
    if (deltas) {
        iw = (r.w - 1) / ((r.w - 1) / (iw + ITEM_DELTA_W + 1));
        items_keyed_first(it, n);
    }
    int per_row = (r.w - 1) / iw;
    if (per_row < 1)
        per_row = 1;
    int rows = r.h - 1, top = r.y + 1;
    /* The predicted step's bar first, with at least the first two rows of figures under
     * it (the last figures, the least needed, give way); in a smaller panel its two figures
     * take the places of the last two. */
    /* A lecture step shows the lecture's accounting alone: no predicted step. */
    if (lecture_view_step(d) != NULL) {
    } else if (rows - 2 >= 2 || rows - 2 >= (n + per_row - 1) / per_row) {
        draw_step_bar(d, s, r.x + 1, top, r.w - 2, pred);
        top += 2;
        rows -= 2;
    } else if (n >= 3) {
        /* Right after the time: the last two figures give way. */
        memmove(&it[3], &it[1], (size_t)(n - 3) * sizeof it[0]);
        struct item p[2] = {{.label = "", .elem = E_DIM}, {.label = "", .elem = E_DIM}};
        (void)compute_take(d, N_COMPUTE_LISTED, N_COMPUTE_FIGURES, false, 2,
                           LAYOUT_ITEM_WIDTH - 11, p);
        memcpy(&it[1], p, sizeof p);
    }
    draw_items(d, s, r, it, n, top, rows, per_row, iw, deltas);
}

/* ---- overlays -------------------------------------------------------------------------- */

/* A box of w x h cells centred on the grid. */
static struct rect box(const struct dash *d, struct screen *s, int w, int h, const char *title)
{
    return widget_box(s, &d->cs, (s->cols - w) / 2, (s->rows - h) / 2, w, h, title);
}

/* The ? box: every key of the view in the table's order, as wide as the grid allows (what a
 * key does goes on under itself where the box is too narrow), then what the bottom lines are. */
static void draw_help(const struct dash *d, struct screen *s)
{
    static const char *const note[] = {
        "The line above the status bar shows the formula of the focused number.",
        "Memory is per GPU; FLOPs and time are for the whole run.",
    };
    const int nn = (int)(sizeof note / sizeof note[0]);
    unsigned place = d->inf.on ? KM_SERVING : KM_TRAINING;
    const struct keymap_key *keys[64];
    int n = 0, widest = 0;
    for (int i = 0; i < keymap_count() && n < 64; i++) {
        const struct keymap_key *k = keymap_at(i);
        if (k->what == NULL || !(k->places & place))
            continue;
        keys[n++] = k;
        int w = KEYMAP_KEYS_W + screen_width(k->what);
        widest = w > widest ? w : widest;
    }
    for (int i = 0; i < nn; i++) {
        int w = screen_width(note[i]);
        widest = w > widest ? w : widest;
    }
    /* The box is its inside and 4 cells (the rules and a margin each side). */
    int bw = widest + 4 < s->cols - 2 ? widest + 4 : s->cols - 2;
    struct rect what = {0, 0, bw - 4 - KEYMAP_KEYS_W + 2, 1};
    int lines = 0;
    for (int i = 0; i < n; i++)
        lines += widget_wrap(NULL, what, &keys[i]->what, 1, 0, 0);
    /* A blank line, the keys, a blank line and the notes; where the rows do not hold them
     * all, the notes give way, then the blank lines. */
    int top = 1, notes = nn + 1;
    if (lines + top + notes + 2 > s->rows - 2)
        notes = 0;
    if (lines + top + notes + 2 > s->rows - 2)
        top = 0;
    struct rect in = box(d, s, bw, lines + top + notes + 2, "rooftop: keys (any key closes)");
    if (rect_empty(in))
        return;
    int y = in.y + top, end = in.y + in.h;
    for (int i = 0; i < n && y < end; i++) {
        screen_label(s, in.x, y, KEYMAP_KEYS_W - 1, keys[i]->keys, E_OVERLAY);
        struct rect r = {in.x + KEYMAP_KEYS_W - 1, y, in.w - KEYMAP_KEYS_W + 2, end - y};
        y += widget_wrap(s, r, &keys[i]->what, 1, 0, E_OVERLAY);
    }
    y++;
    for (int i = 0; i + 1 < notes && y < end; i++, y++)
        screen_label(s, in.x, y, in.w, note[i], E_OVERLAY);
}

/* The model picker's width: its entries and a detail line that holds most architectures
 * whole (the screen narrows it; the line then drops its least telling parts). */
#define PICK_MODEL_WIDTH 110

static void draw_picker(const struct dash *d, struct screen *s)
{
    int n = dash_pick_count(d, d->mode);
    char title[96];
    snprintf(title, sizeof title, "%s: %s%s%s", d->mode == DM_PICK_MODEL ? "model" : "GPU",
             d->pick_query[0] ? "search \"" : "type to search", d->pick_query,
             d->pick_query[0] ? "\"" : "");
    /* Models get a wider box and, below a rule, the highlighted model's architecture. */
    const bool detail = d->mode == DM_PICK_MODEL && n > 0;
    /* GPUs: as wide as their longest line ("GB200 NVL72 (per GPU...)" was cut at 60). */
    int bw = 60;
    for (int k = 0; !detail && k < n; k++) {
        char line[256];
        dash_pick_line(d, d->mode, k, line, sizeof line);
        int w = screen_width(line) + 4;
        bw = w > bw ? w : bw;
    }
    struct rect in = box(d, s, detail ? PICK_MODEL_WIDTH : bw, n + (detail ? 4 : 2), title);
    if (rect_empty(in))
        return;
    int rows = in.h;
    if (detail && in.h >= 3) {
        rows = in.h - 2;
        for (int x = in.x; x < in.x + in.w; x++)
            screen_put(s, x, in.y + rows, d->cs.hline, E_OVERLAY);
        char line[512];
        model_summary_line(&d->presets.models[d->pick].arch, in.w, d->cs.dot, d->cs.times, line,
                           sizeof line);
        screen_label(s, in.x, in.y + rows + 1, in.w, line, E_OVERLAY);
    }
    int top = d->pick - rows / 2;
    if (top > n - rows)
        top = n - rows;
    if (top < 0)
        top = 0;
    for (int i = 0; i < rows && top + i < n; i++) {
        int k = top + i, y = in.y + i;
        char line[256];
        dash_pick_line(d, d->mode, k, line, sizeof line);
        if (k == d->pick)
            screen_fill(s, (struct rect){in.x - 1, y, in.w + 2, 1}, ' ', E_INPUT);
        screen_label(s, in.x, y, in.w, line, k == d->pick ? E_INPUT : E_OVERLAY);
    }
    /* Entries above or below the box: a mark on its right rule, and where the cursor is. */
    if (top > 0)
        screen_put(s, in.x + in.w + 1, in.y, '^', E_OVERLAY);
    if (top + rows < n)
        screen_put(s, in.x + in.w + 1, in.y + rows - 1, 'v', E_OVERLAY);
    if (top > 0 || top + rows < n) {
        char pos[32];
        snprintf(pos, sizeof pos, " %d/%d ", d->pick + 1, n);
        int w = screen_width(pos);
        screen_text(s, in.x + in.w - w, in.y + in.h, w, pos, E_OVERLAY);
    }
}

/* The layouts list's columns; where the box is narrow those of highest drop go first (0:
 * never), so that the step, MFU, memory and training time are never cut. */
enum { PC_DP, PC_TP, PC_PP, PC_VPP, PC_CP, PC_EP, PC_SP, PC_ZERO, PC_MB, PC_RECOMP, PC_STEP,
       PC_MFU, PC_MEMORY, PC_TRAIN, PC_GPU_HOURS, PC_COUNT };
static const struct {
    const char *head;
    int w, drop;
} plan_cols[PC_COUNT] = {
    [PC_DP] = {"dp", 4, 0},     [PC_TP] = {"tp", 3, 0},       [PC_PP] = {"pp", 3, 0},
    [PC_VPP] = {"vpp", 3, 4},   [PC_CP] = {"cp", 3, 3},       [PC_EP] = {"ep", 3, 2},
    [PC_SP] = {"sp", 3, 1},     [PC_ZERO] = {"zero", 4, 0},   [PC_MB] = {"mb", 3, 0},
    [PC_RECOMP] = {"recompute", -9, 0}, [PC_STEP] = {"step", 8, 0}, [PC_MFU] = {"MFU", 5, 0},
    [PC_MEMORY] = {"memory", 8, 0}, [PC_TRAIN] = {"training", 11, 0},
    [PC_GPU_HOURS] = {"GPU-hours", 9, 5},
};

static void plan_cells(const struct plan *p, char v[PC_COUNT][32])
{
    snprintf(v[PC_DP], 32, "%lld", (long long)scenario_dp(&p->s));
    snprintf(v[PC_TP], 32, "%lld", (long long)p->s.tp);
    snprintf(v[PC_PP], 32, "%lld", (long long)p->s.pp);
    snprintf(v[PC_VPP], 32, "%lld", (long long)p->s.vpp);
    snprintf(v[PC_CP], 32, "%lld", (long long)p->s.cp);
    snprintf(v[PC_EP], 32, "%lld", (long long)p->s.ep);
    snprintf(v[PC_SP], 32, "%s", p->s.sp ? "on" : "off");
    snprintf(v[PC_ZERO], 32, "%d", p->s.zero);
    snprintf(v[PC_MB], 32, "%lld", (long long)p->s.micro_batch);
    snprintf(v[PC_RECOMP], 32, "%s", recompute_name(p->s.recompute));
    units_duration(p->pred.step_seconds, v[PC_STEP], 32);
    snprintf(v[PC_MFU], 32, "%.3f", p->pred.mfu);
    units_bytes(p->memory_total, v[PC_MEMORY], 32);
    /* The whole run at this layout's predicted step, as `rooftop plan` prints it. */
    units_duration(p->pred.days * 86400.0, v[PC_TRAIN], 32);
    units_count(p->pred.days * 24.0 * (double)p->s.gpus, v[PC_GPU_HOURS], 32);
}

/* One row of the kept columns after lead (2 cells: the row's number, or blanks). */
static void plan_row(const char *lead, char v[PC_COUNT][32], const bool *keep, char *line, size_t n)
{
    size_t at = (size_t)snprintf(line, n, "%-2s", lead);
    for (int c = 0; c < PC_COUNT && at < n; c++) {
        if (!keep[c])
            continue;
        int w = snprintf(line + at, n - at, " %*s", plan_cols[c].w, v[c]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

static void draw_plans(const struct dash *d, struct screen *s)
{
    struct rect in = box(d, s, 102, d->n_plans + 4, "fastest layouts that fit (Enter or 1-5 applies, Esc closes)");
    if (rect_empty(in))
        return;
    bool keep[PC_COUNT];
    int width = 2;
    for (int c = 0; c < PC_COUNT; c++) {
        keep[c] = true;
        width += 1 + abs(plan_cols[c].w);
    }
    for (int drop = 1; drop <= 5 && width > in.w; drop++)
        for (int c = 0; c < PC_COUNT; c++)
            if (plan_cols[c].drop == drop) {
                keep[c] = false;
                width -= 1 + abs(plan_cols[c].w);
            }
    char v[PC_COUNT][32], line[256];
    for (int c = 0; c < PC_COUNT; c++)
        snprintf(v[c], sizeof v[c], "%s", plan_cols[c].head);
    plan_row("", v, keep, line, sizeof line);
    screen_label(s, in.x, in.y, in.w, line, E_OVERLAY);
    for (int i = 0; i < d->n_plans && i + 1 < in.h; i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        plan_cells(&d->plans[i], v);
        plan_row(num, v, keep, line, sizeof line);
        int y = in.y + 1 + i;
        if (i == d->pick)
            screen_fill(s, (struct rect){in.x - 1, y, in.w + 2, 1}, ' ', E_INPUT);
        screen_label(s, in.x, y, in.w, line, i == d->pick ? E_INPUT : E_OVERLAY);
    }
}

/* Under the open prompt: the scenario files on the search path that hold what is typed. */
static void draw_open_list(const struct dash *d, struct screen *s, int x, int y, int w)
{
    int idx[DASH_OPEN_SHOWN];
    int n = open_list_match(&d->open, d->input, d->input_fresh, idx, DASH_OPEN_SHOWN);
    int shown = n < DASH_OPEN_SHOWN ? n : DASH_OPEN_SHOWN;
    if (shown > s->rows - y - 3)
        shown = s->rows - y - 3 > 0 ? s->rows - y - 3 : 0;
    char title[96];
    if (n == 0)
        snprintf(title, sizeof title, "no scenario file here holds that name");
    else
        snprintf(title, sizeof title, "scenarios (%d of %d; Down picks, Enter opens)", shown,
                 (int)d->open.names.count);
    struct rect in = widget_box(s, &d->cs, x, y, w, shown + 2, title);
    for (int i = 0; i < shown && !rect_empty(in) && i < in.h; i++) {
        bool on = i == d->open.pick;
        if (on)
            screen_fill(s, (struct rect){in.x - 1, in.y + i, in.w + 2, 1}, ' ', E_INPUT);
        screen_label(s, in.x, in.y + i, in.w, d->open.names.ids[idx[i]], on ? E_INPUT : E_OVERLAY);
    }
}

static void draw_prompt(const struct dash *d, struct screen *s)
{
    const char *title = "";
    char t[96];
    int bw = 64, bx = (s->cols - bw) / 2, by = (s->rows - 3) / 2;
    switch (d->mode) {
    case DM_EDIT: {
        snprintf(t, sizeof t, "%s: type a value (Ctrl-U clears)",
                 slider_input(d->focus)->label);
        title = t;
        /* Just below the slider's row, over its track. */
        struct layout L;
        dash_layout(d, s->cols, s->rows, &L);
        struct slider_geom g;
        int ids[SLIDER_MAX], pos, ns = lecture_view_slider_geom(d, L.r[P_SLIDERS], &g, ids, &pos);
        if (pos < ns && pos >= g.first && pos < g.first + g.count) {
            bw = 44;
            bx = L.r[P_SLIDERS].x + 1;
            by = g.y0 + (pos - g.first) + 1;
        }
        break;
    }
    case DM_SAVE:
        title = "save the scenario as (JSON)";
        break;
    case DM_OPEN:
        title = "open a scenario, demo or model file (or a config.json)";
        break;
    case DM_EXPORT:
        title = "export the report (.md, .json, .csv, .txt)";
        break;
    default:
        return;
    }
    struct rect in = widget_box(s, &d->cs, bx, by, bw, 3, title);
    if (rect_empty(in))
        return;
    screen_fill(s, in, ' ', E_INPUT);
    /* Show the end of long input: that is where the cursor is. */
    int w = screen_width(d->input);
    const char *p = d->input;
    if (w > in.w - 1)
        p += w - (in.w - 1);
    int n = screen_label(s, in.x, in.y, in.w - 1, p, E_INPUT);
    /* The old value, which the first key typed replaces, shows as selected. */
    if (d->input_fresh)
        screen_attr(s, in.x, in.y, n, CATTR_REVERSE);
    screen_put(s, in.x + n, in.y, ' ', E_INPUT);
    screen_attr(s, in.x + n, in.y, 1, CATTR_REVERSE);
    if (d->mode == DM_OPEN)
        draw_open_list(d, s, bx, by + 3, bw);
}

static void draw_confirm(const struct dash *d, struct screen *s)
{
    struct rect in = box(d, s, 64, 4, d->confirm_of == DM_SAVE ? "save" : "export");
    if (rect_empty(in))
        return;
    screen_fill(s, in, ' ', E_INPUT);
    /* The end of a long path: the file's name is what tells it apart. */
    int w = screen_width(d->input);
    const char *p = d->input;
    if (w > in.w)
        p += w - in.w;
    screen_label(s, in.x, in.y, in.w, p, E_INPUT);
    screen_label(s, in.x, in.y + 1, in.w, "exists. Replace it? y replaces, other keys keep it",
                 E_INPUT);
}

/* ---- frame ----------------------------------------------------------------------------- */

static void draw_too_small(struct screen *s)
{
    char msg[96];
    snprintf(msg, sizeof msg, "rooftop needs at least %dx%d (this terminal is %dx%d)",
             LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS, s->cols, s->rows);
    int w = screen_width(msg);
    int x = (s->cols - w) / 2, y = s->rows / 2;
    if (x < 0)
        x = 0;
    screen_label(s, x, y, s->cols - x, msg, E_ERROR);
}

static void draw_overlay(const struct dash *d, struct screen *s)
{
    switch (d->mode) {
    case DM_HELP:
        draw_help(d, s);
        break;
    case DM_DTYPES:
        dtypes_panel_overlay(d, s);
        break;
    case DM_PICK_MODEL:
    case DM_PICK_GPU:
        draw_picker(d, s);
        break;
    case DM_PLANS:
        draw_plans(d, s);
        break;
    case DM_EDIT:
    case DM_SAVE:
    case DM_OPEN:
    case DM_EXPORT:
        draw_prompt(d, s);
        break;
    case DM_CONFIRM:
        draw_confirm(d, s);
        break;
    default:
        break;
    }
}

void frame_draw(const struct dash *d, struct screen *s)
{
    screen_clear(s, E_NORMAL);
    s->ellipsis = d->cs.ellipsis;
    struct layout L;
    dash_layout(d, s->cols, s->rows, &L);
    if (L.too_small) {
        draw_too_small(s);
        return;
    }
    if (d->inf.on) {
        infer_frame_draw(d, s);
        /* A demo step's caption, where the inference view's layout puts it. */
        struct layout IL;
        infer_frame_layout(d, s->cols, s->rows, &IL);
        if (!IL.too_small)
            draw_caption(d, s, IL.r[P_CAPTION]);
        draw_overlay(d, s);
        return;
    }
    draw_title(d, s, L.r[P_TITLE]);
    if (!rect_empty(L.r[P_SLIDERS]))
        draw_sliders(d, s, L.r[P_SLIDERS]);
    widget_vrules(s, &d->cs, &L);
    if (!rect_empty(L.r[P_MEMORY]))
        draw_memory(d, s, L.r[P_MEMORY], d->focus == FOCUS_MEMORY);
    if (!rect_empty(L.r[P_COMPUTE]))
        draw_compute(d, s, L.r[P_COMPUTE], d->focus == FOCUS_COMPUTE);
    /* The sweep (w) takes the roofline's place, the comparison (x) the operations' (the
     * roofline's where the two share one place). */
    bool cmp_roof = d->cmp.on && rect_empty(L.r[P_OPS]);
    if (!rect_empty(L.r[P_ROOFLINE])) {
        if (cmp_roof)
            compare_view_draw(&d->cmp, &d->cs, s, L.r[P_ROOFLINE]);
        else if (d->swv.on)
            sweep_view_draw(&d->swv, &d->cs, s, L.r[P_ROOFLINE], d->focus == FOCUS_ROOFLINE);
        else
            plot_roofline(d, s, L.r[P_ROOFLINE], d->focus == FOCUS_ROOFLINE);
    }
    if (!rect_empty(L.r[P_OPS])) {
        if (d->cmp.on)
            compare_view_draw(&d->cmp, &d->cs, s, L.r[P_OPS]);
        else
            ops_draw(d, s, L.r[P_OPS], d->focus == FOCUS_OPS);
    }
    lecture_view_draw_extras(d, s);
    if (lecture_view_step(d) != NULL)
        lecture_view_draw_caption(d, s, L.r[P_CAPTION]);
    else
        draw_caption(d, s, L.r[P_CAPTION]);
    draw_explain(d, s, L.r[P_EXPLAIN]);
    draw_status(d, s, L.r[P_STATUS]);
    draw_overlay(d, s);
}
