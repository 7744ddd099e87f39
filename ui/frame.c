/* frame.c - the frame: every panel drawn into the cell grid from the state alone. */
#include "frame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute_panel.h"
#include "dash_pick.h"
#include "explain.h"
#include "figure.h"
#include "dtypes_panel.h"
#include "lecture_view.h"
#include "memory_panel.h"
#include "model_summary.h"
#include "infer_frame.h"
#include "keymap.h"
#include "ops.h"
#include "plan_report.h"
#include "plot.h"
#include "report.h"
#include "units.h"
#include "warnings.h"
#include "widgets.h"

/* ---- title and bottom lines ------------------------------------------------------------ */

/* The title's figures: rows of the report's table (src/report.c), looked up once. */
enum { TF_PARAMS, TF_SECONDS, TF_MFU, TF_MFU_FROM, TF_MEMORY, TF_FITS, TF_COUNT };
static const char *const TITLE_KEYS[TF_COUNT] = {
    [TF_PARAMS] = "params.total",     [TF_SECONDS] = "time.seconds",
    [TF_MFU] = "time.mfu_in_use",     [TF_MFU_FROM] = "time.mfu_source",
    [TF_MEMORY] = "memory.total",     [TF_FITS] = "memory.fits",
};

/* The title's figures as the report writes them (the parameters as a count, "70B"), the
 * MFU where it is typed and the title wide, else where it comes from; false when a row is
 * missing from the report's table. */
static bool title_figures(const struct dash *d, bool wide, char f[TF_COUNT][32], bool *fits)
{
    static const struct figure *rows[TF_COUNT];
    struct figure_value v[TF_COUNT];
    if (!report_figures_by_key(&d->ev, TITLE_KEYS, TF_COUNT, rows, v))
        return false;
    /* Only the figures the title writes are formatted (a frame's time is in snprintf). */
    f[TF_MFU][0] = f[TF_MFU_FROM][0] = '\0';
    figure_format_brief(rows[TF_PARAMS], &v[TF_PARAMS], f[TF_PARAMS], sizeof f[0]);
    figure_format(rows[TF_SECONDS], &v[TF_SECONDS], f[TF_SECONDS], sizeof f[0]);
    figure_format(rows[TF_MEMORY], &v[TF_MEMORY], f[TF_MEMORY], sizeof f[0]);
    if (d->ev.mfu_from != MFU_TYPED)
        figure_format(rows[TF_MFU_FROM], &v[TF_MFU_FROM], f[TF_MFU_FROM], sizeof f[0]);
    else if (wide)
        figure_format(rows[TF_MFU], &v[TF_MFU], f[TF_MFU], sizeof f[0]);
    *fits = v[TF_FITS].kind == FK_BOOL && v[TF_FITS].b;
    return true;
}

static void draw_title(const struct dash *d, struct screen *s, struct rect r)
{
    char model[128], hw[128], days[96], mem[96], prec[48], f[TF_COUNT][32];
    /* Where there is room the whole phrase; at 80 columns a typed MFU is the slider's (on
     * screen), and a predicted or measured one a short mark. */
    bool fits, wide = r.w >= 100;
    if (!title_figures(d, wide, f, &fits))
        return;
    if (d->sc.model.id[0] && strcmp(d->sc.model.id, "custom") != 0)
        snprintf(model, sizeof model, "%s (%s)", d->sc.model.id, f[TF_PARAMS]);
    else
        snprintf(model, sizeof model, "%s params", f[TF_PARAMS]);
    snprintf(hw, sizeof hw, "%lld %s %s", (long long)d->sc.gpus, d->cs.times,
             d->sc.gpu.id[0] ? d->sc.gpu.id : d->sc.gpu.name);
    snprintf(prec, sizeof prec, "%s", dtype_name(d->sc.dtype));
    /* The training time the MFU in use gives, and which MFU that is. */
    if (d->ev.mfu_from == MFU_TYPED && wide)
        snprintf(days, sizeof days, "%s at MFU %s", f[TF_SECONDS], f[TF_MFU]);
    else if (d->ev.mfu_from == MFU_TYPED)
        snprintf(days, sizeof days, "%s", f[TF_SECONDS]);
    else
        snprintf(days, sizeof days, "%s %.*s", f[TF_SECONDS], wide ? 16 : 4, f[TF_MFU_FROM]);
    snprintf(mem, sizeof mem, "%s/GPU %s", f[TF_MEMORY], fits ? "fits" : "DOES NOT FIT");
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
    widget_title_bar(s, &d->cs, r, seg, fits);
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

/* The layouts list's columns: each a column of `rooftop plan`'s table (src/plan_report.c),
 * its head the column's label and its cells the values the table gives; where the box is
 * narrow those of highest drop go first (0: never), so that the step, MFU, memory and
 * training time are never cut (a negative width: left-aligned). */
enum { PC_DP, PC_TP, PC_PP, PC_VPP, PC_CP, PC_EP, PC_ETP, PC_SP, PC_ZERO, PC_MB, PC_RECOMP,
       PC_STEP, PC_MFU, PC_MEMORY, PC_TRAIN, PC_GPU_HOURS, PC_COUNT };
static const struct {
    const char *key;
    int w, drop;
} plan_cols[PC_COUNT] = {
    [PC_DP] = {"plans[].dp", 4, 0},             [PC_TP] = {"plans[].options.tp", 3, 0},
    [PC_PP] = {"plans[].options.pp", 3, 0},     [PC_VPP] = {"plans[].options.vpp", 3, 4},
    [PC_CP] = {"plans[].options.cp", 3, 3},     [PC_EP] = {"plans[].options.ep", 3, 2},
    [PC_ETP] = {"plans[].options.etp", 3, 0},
    [PC_SP] = {"plans[].options.sp", 3, 1},     [PC_ZERO] = {"plans[].options.zero", 4, 0},
    [PC_MB] = {"plans[].options.micro-batch", 3, 0},
    [PC_RECOMP] = {"plans[].options.recompute", -9, 0},
    [PC_STEP] = {"plans[].step_seconds", 8, 0}, [PC_MFU] = {"plans[].mfu", 5, 0},
    [PC_MEMORY] = {"plans[].memory_total", 8, 0}, [PC_TRAIN] = {"plans[].days", 11, 0},
    [PC_GPU_HOURS] = {"plans[].gpu_hours", 9, 5},
};

/* The columns' rows, looked up once; false when one is missing from the table. */
static bool plan_rows(const struct figure **rows)
{
    static const struct figure *row[PC_COUNT];
    bool all = true;
    for (int c = 0; c < PC_COUNT; c++) {
        rows[c] = figure_find_once(PLAN_REPORT, plan_cols[c].key, &row[c]);
        all = all && rows[c] != NULL;
    }
    return all;
}

/* Layout i's cells as `rooftop plan` writes them. */
static void plan_cells(const struct dash *d, const struct figure **rows, int i,
                       char v[PC_COUNT][32])
{
    struct figure_pick pick[PC_COUNT];
    struct figure_value fv[PC_COUNT];
    bool shown[PC_COUNT];
    for (int c = 0; c < PC_COUNT; c++)
        pick[c] = (struct figure_pick){rows[c], i};
    plan_report_figures(&d->sc, d->plans, d->n_plans, pick, PC_COUNT, fv, shown);
    for (int c = 0; c < PC_COUNT; c++)
        figure_format(rows[c], &fv[c], v[c], sizeof v[c]);
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
        /* The expert tp is a column of a MoE model's plans only (the table's rule). */
        keep[c] = c != PC_ETP || model_is_moe(&d->sc.model);
        width += keep[c] ? 1 + abs(plan_cols[c].w) : 0;
    }
    for (int drop = 1; drop <= 5 && width > in.w; drop++)
        for (int c = 0; c < PC_COUNT; c++)
            if (plan_cols[c].drop == drop && keep[c]) {
                keep[c] = false;
                width -= 1 + abs(plan_cols[c].w);
            }
    const struct figure *rows[PC_COUNT];
    if (!plan_rows(rows))
        return;
    char v[PC_COUNT][32], line[256];
    for (int c = 0; c < PC_COUNT; c++)
        snprintf(v[c], sizeof v[c], "%s", rows[c]->label);
    plan_row("", v, keep, line, sizeof line);
    screen_label(s, in.x, in.y, in.w, line, E_OVERLAY);
    for (int i = 0; i < d->n_plans && i + 1 < in.h; i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        plan_cells(d, rows, i, v);
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
        memory_panel_draw(d, s, L.r[P_MEMORY], d->focus == FOCUS_MEMORY);
    if (!rect_empty(L.r[P_COMPUTE]))
        compute_panel_draw(d, s, L.r[P_COMPUTE], d->focus == FOCUS_COMPUTE);
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
