/* dash.c - dashboard state and event handling: keys, mouse, resizes, the lecture demo,
 * save/open/export. Nothing here draws; frame.c turns the state into a frame. */
#include "dash.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "dtypes_input.h"
#include "lecture_screen.h"
#include "files.h"
#include "probe_child.h"
#include "report.h"
#include "roofline.h"
#include "scenario_file.h"
#include "spec.h"
#include "sweep_plot.h"
#include "units.h"
#include "widgets.h"

void dash_status(struct dash *d, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->status, sizeof d->status, fmt, ap);
    va_end(ap);
    d->status_error = error;
}

static void preset_warn(const char *line, void *ctx)
{
    struct dash *d = ctx;
    /* Keep the first bad preset's message: it names the file to fix. */
    if (!d->status[0])
        dash_status(d, true, "%s", line);
}

/* Makes measured or predicted the MFU mode of what is shown and of what the user asks. */
static void set_mfu_mode(struct dash *d, enum mfu_mode m)
{
    d->sc.mfu_mode = m;
    d->want.mfu_mode = m;
}

/*
 * The figures on screen, from the scenario and the points by the core's one evaluation, once
 * per change. The measured MFU follows the scenario (another micro-batch, GPU or dtype
 * measures differently); sc.mfu stays the MFU the user typed. When the MFU mode asked for has
 * no figure any more (no points match) it turns off and says why.
 */
static void dash_recompute(struct dash *d)
{
    struct eval_input in = {d->have_points ? &d->points : NULL, d->points_any_device};
    evaluation_run(&d->sc, &in, &d->ev);
    if (d->sc.mfu_mode != MFU_TYPED && d->ev.mfu_from == MFU_TYPED) {
        dash_status(d, true, "%s MFU off (%s): MFU back to %.3g", mfu_mode_name(d->sc.mfu_mode),
                    d->ev.mfu_why, d->sc.mfu);
        set_mfu_mode(d, MFU_TYPED);
        d->ev.sc.mfu_mode = MFU_TYPED;
    }
}

bool dash_init(struct dash *d, const struct scenario *sc, bool color, bool utf8, char *err,
               size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (!scenario_validate(sc, err, (int)errlen))
        return false;
    /* A FIFO typed at o (or a pipe nobody writes to) answers within this or is refused: the
     * screen never waits on it for long. The command line's options were read unbounded. */
    files_set_pipe_wait(DASH_PIPE_WAIT_MS);
    d->sc = *sc;
    d->want = *sc;
    d->start = *sc;
    theme_init(&d->theme, color);
    charset_init(&d->cs, utf8);
    presets_load(&d->presets, preset_warn, d);
    d->cols = 80;
    d->rows = 24;
    d->focus = SL_MODEL; /* the first input, where a user starts */
    d->drag = -1;
    d->step = -1;
    d->dtype_value = 1e-8; /* the lecture's: fp16 turns it into 0, bf16 keeps it */
    points_init(&d->points);
    dash_recompute(d);
    return true;
}

void dash_free(struct dash *d)
{
    probe_child_free(d->probe);
    d->probe = NULL;
    presets_free(&d->presets);
    open_list_free(&d->open);
    demo_free(&d->demo);
    points_free(&d->points);
    sweep_view_free(&d->swv);
    compare_view_free(&d->cmp);
}

bool dash_caption(const struct dash *d, char *head, size_t n, const char **text)
{
    if (d->step < 0 || d->step >= d->demo.n)
        return false;
    const struct demo_step *st = &d->demo.steps[d->step];
    snprintf(head, n, "Step %d/%d%s%s:", d->step + 1, d->demo.n, st->title[0] ? " " : "",
             st->title);
    *text = st->caption;
    return true;
}

int dash_caption_area(const struct dash *d, struct rect r, struct rect *text)
{
    char head[200];
    const char *texts[2];
    *text = r;
    if (!dash_caption(d, head, sizeof head, &texts[1]))
        return 0;
    texts[0] = head;
    int lines = widget_wrap(NULL, r, texts, 2, 0, 0);
    if (lines <= r.h || r.w <= 2 * DASH_CAPTION_KEYS_W)
        return lines;
    text->w = r.w - DASH_CAPTION_KEYS_W;
    return widget_wrap(NULL, *text, texts, 2, 0, 0);
}

int dash_caption_rows(const struct dash *d, int cols)
{
    char head[200];
    const char *texts[2];
    if (!dash_caption(d, head, sizeof head, &texts[1]))
        return 0;
    texts[0] = head;
    return widget_wrap(NULL, (struct rect){0, 0, cols, 1}, texts, 2, 0, 0);
}

void dash_layout(const struct dash *d, int cols, int rows, struct layout *L)
{
    if (lecture_step_of(&d->demo, d->step, d->inf.on) != NULL) {
        lecture_layout(&d->demo, d->step, d->answer_shown, d->ev.an.n_ops, cols, rows, L, NULL);
        return;
    }
    struct layout_opts o = {
        .caption_rows = dash_caption_rows(d, cols),
        .show_ops = d->show_ops,
        .n_sliders = SL_COUNT,
        .n_ops = d->ev.an.n_ops,
    };
    layout_compute(cols, rows, &o, L);
}

/* ---- applying changes ------------------------------------------------------------------ */

/* What the user asked of the input behind slider `moved`, taken from the candidate. */
static void want_input(struct scenario *want, const struct scenario *cand, int moved)
{
    if (moved == SL_MODEL || moved == SL_PARAMS) {
        want->model = cand->model;
    } else if (moved == SL_GPU) {
        want->gpu = cand->gpu;
    } else {
        const struct input *in = slider_input((enum slider_id)moved);
        (void)inputs_set(in, want, inputs_get(in, cand));
    }
}

/* "batch, GPUs, tensor or pipeline": the input at fault and the visible ones that bound it. */
static void fix_hint(const struct input *in, char *buf, size_t n)
{
    const char *labels[16];
    int k = 0;
    labels[k++] = in->label;
    for (const char *p = in->depends; p != NULL && *p && k < 16;) {
        char key[32];
        size_t len = strcspn(p, " ");
        snprintf(key, sizeof key, "%.*s", (int)len, p);
        p += len + (p[len] == ' ');
        const struct input *dep = inputs_find(key);
        if (dep != NULL && !(dep->flags & INPUT_HIDDEN))
            labels[k++] = dep->label;
    }
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < k && at < n; i++) {
        int w = snprintf(buf + at, n - at, "%s%s", i == 0 ? "" : i == k - 1 ? " or " : ", ",
                         labels[i]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

/* The candidate as it would be shown: the inputs that must give way settled toward the
 * user's wishes (want, updated with the moved input). False when it does not validate,
 * with the input at fault in *key and what is wrong in msg. */
static bool settle(const struct dash *d, const struct scenario *cand, int moved,
                   struct scenario *c, struct scenario *want, char *note, char *msg, size_t n,
                   const char **key)
{
    /* The user's wishes: the moved input takes the candidate's value; a whole new scenario
     * replaces them all. Inputs that must give way do so toward these, so moving back
     * restores them. */
    *want = moved >= 0 ? d->want : *cand;
    if (moved >= 0)
        want_input(want, cand, moved);
    *c = *cand;
    scenario_settle(c, want, moved >= 0 ? slider_input((enum slider_id)moved)->key : NULL, note,
                    n);
    return scenario_check(c, key, msg, n);
}

/* What the sweep panel sweeps (ui/sweep_view.h). */
static struct sweep_view_of sweep_of(const struct dash *d)
{
    struct sweep_view_of of = {&d->presets, &d->sc, &d->want,
                               {d->have_points ? &d->points : NULL, d->points_any_device}};
    return of;
}

/* After a change: the sweep's mark or sweep, the comparison's differences. */
static void views_update(struct dash *d, int moved)
{
    struct sweep_view_of of = sweep_of(d);
    if (!sweep_view_update(&d->swv, &of, moved) || !compare_view_update(&d->cmp, &d->ev))
        dash_status(d, true, "out of memory: the sweep or comparison is closed");
}

/* w: the focused slider's range in place of the roofline, or back. */
static void sweep_key(struct dash *d)
{
    if (d->swv.on) {
        sweep_view_free(&d->swv);
        return;
    }
    if (d->focus >= SL_COUNT) {
        dash_status(d, true, "w: select an input first; w sweeps its range");
        return;
    }
    struct sweep_view_of of = sweep_of(d);
    if (!sweep_view_open(&d->swv, &of, d->focus)) {
        dash_status(d, true, "w: out of memory");
        return;
    }
    char line[256];
    sweep_plot_crossing(&d->swv.sw, line, sizeof line);
    dash_status(d, false, "%s (w: the roofline again)", line);
}

/* x: pins the scenario shown, or unpins. */
static void compare_key(struct dash *d)
{
    if (d->cmp.on) {
        compare_view_free(&d->cmp);
        dash_status(d, false, "unpinned");
    } else if (compare_view_pin(&d->cmp, &d->ev)) {
        dash_status(d, false, "pinned: the figures now show their change from it (x unpins)");
    } else {
        dash_status(d, true, "x: out of memory");
    }
}

bool dash_try(struct dash *d, const struct scenario *cand, int moved)
{
    struct scenario c, want;
    char note[DASH_STATUS_MAX] = "", msg[DASH_STATUS_MAX];
    const char *key = "";
    if (!settle(d, cand, moved, &c, &want, note, msg, sizeof msg, &key)) {
        const struct input *in = inputs_find(key);
        char hint[160] = "";
        if (in != NULL)
            fix_hint(in, hint, sizeof hint);
        dash_status(d, true, "%s: %s%s%s%s", in != NULL ? in->label : key, msg,
                    hint[0] ? " (change " : "", hint, hint[0] ? ")" : "");
        return false;
    }
    /* A moved MFU slider is the user's choice: a number is typed (the registry's setter);
     * a new scenario brings its own MFU mode. */
    /* A moved slider (a picked model or GPU too) makes it another scenario than the one the
     * name was given to: from now on its title is derived (scenario_title), as the command
     * line drops the name of a scenario file its options edit. */
    if (moved >= 0)
        c.name[0] = '\0';
    d->sc = c;
    d->want = want;
    d->edited = moved >= 0;
    dash_recompute(d);
    views_update(d, moved);
    if (note[0])
        dash_status(d, false, "%s", note);
    return true;
}

static int slider_count_steps(const struct dash *d, int id)
{
    double vals[SLIDER_MAX_STEPS];
    return slider_steps(&d->presets, &d->sc, (enum slider_id)id, vals, SLIDER_MAX_STEPS);
}

/*
 * Home, End and the mouse: the step at index `target`, or, when its scenario is not valid,
 * the nearest valid step between it and the current value (the GPU count's End stops where
 * the batch no longer splits, the tensor degree's where it no longer divides the heads).
 */
static bool slider_to_valid(struct dash *d, int id, int target)
{
    double vals[SLIDER_MAX_STEPS];
    int n = slider_steps(&d->presets, &d->sc, (enum slider_id)id, vals, SLIDER_MAX_STEPS);
    double cur = slider_value(&d->presets, &d->sc, (enum slider_id)id);
    if (target < 0 || target >= n)
        return false;
    bool up = vals[target] > cur;
    for (int k = target; k >= 0 && k < n; k += up ? -1 : 1) {
        if (up ? !(vals[k] > cur) : !(vals[k] < cur))
            break;
        struct scenario cand = d->sc, c, want;
        char note[DASH_STATUS_MAX], msg[DASH_STATUS_MAX];
        const char *key;
        if (slider_apply(&d->presets, &cand, (enum slider_id)id, vals[k]) &&
            settle(d, &cand, id, &c, &want, note, msg, sizeof msg, &key))
            return dash_try(d, &cand, id);
    }
    if (vals[target] != cur)
        dash_status(d, false, "%s: no valid value that way",
                    slider_input((enum slider_id)id)->label);
    return false;
}

/* ---- lecture demo ---------------------------------------------------------------------- */

static int focus_from_name(const char *name)
{
    /* The panels after the sliders, in their focus order. */
    static const char *const panels[FOCUS_COUNT - FOCUS_MEMORY] = {"memory", "compute",
                                                                   "roofline", "ops"};
    int s = slider_find(name);
    if (s >= 0)
        return s;
    for (int i = 0; i < FOCUS_COUNT - FOCUS_MEMORY; i++)
        if (strcmp(name, panels[i]) == 0)
            return FOCUS_MEMORY + i;
    return -1;
}

void dash_demo_show(struct dash *d, int k)
{
    if (d->demo.n == 0)
        return;
    if (k < 0)
        k = 0;
    if (k >= d->demo.n)
        k = d->demo.n - 1;
    d->step = k;
    d->caption_line = 0;
    d->answer_shown = false;
    const struct demo_step *st = &d->demo.steps[k];
    if (dash_try(d, &st->scenario, -1))
        d->status[0] = '\0';
    int f = focus_from_name(st->focus);
    if (f >= 0)
        d->focus = f;
    d->lecture_ops = st->lecture_ops;
    if (f == FOCUS_OPS)
        d->show_ops = true;
    else if (f == FOCUS_ROOFLINE)
        d->show_ops = false;
    /* An inference step shows the serving view on its own scenario (checked when the demo
     * loaded); any other step the training view. */
    d->inf.on = false;
    if (st->inference) {
        char err[DASH_STATUS_MAX];
        if (!infer_ui_show(&d->inf, &st->infer, err, sizeof err)) {
            dash_status(d, true, "%s", err);
            return;
        }
        d->inf.on = true;
        int g = infer_ui_find(st->focus);
        if (g >= 0)
            d->inf.focus = g;
    }
}

bool dash_demo_open(struct dash *d, const char *path, int step, char *err, size_t errlen)
{
    if (!path) {
        char *found = files_find("scenarios", "lecture.json");
        if (!found) {
            char where[256];
            files_dirs_describe("scenarios", where, sizeof where);
            snprintf(err, errlen, "lecture demo: lecture.json not found in %s (set ROOFTOP_SPECS "
                                  "or run from the source tree)", where);
            return false;
        }
        free(found);
        path = "lecture";
    }
    struct demo l;
    if (!demo_load(path, &l, err, errlen))
        return false;
    demo_free(&d->demo);
    d->demo = l;
    dash_demo_show(d, step);
    return true;
}

/* ---- measured points ------------------------------------------------------------------- */

void dash_set_points(struct dash *d, struct points_doc *doc, const char *from)
{
    points_free(&d->points);
    d->points = *doc;
    points_init(doc);
    d->have_points = true;
    /* A run the time limit or the backend stopped says so wherever its name is shown. */
    snprintf(d->points_from, sizeof d->points_from, "%.100s%s",
             d->points.device.name[0] ? d->points.device.name : from,
             d->points.incomplete[0] ? " (incomplete run)" : "");
    dash_recompute(d);
    /* They still plot on the roofline, named; the ops table and M use them only on their
     * own device. */
    if (d->ev.meas.other_device && !d->points_any_device)
        dash_status(d, false, "%s: plotted, but no measured column or M", d->ev.meas.device_why);
}

void dash_toggle_measured_mfu(struct dash *d)
{
    if (d->sc.mfu_mode == MFU_MEASURED) {
        set_mfu_mode(d, MFU_TYPED);
        dash_recompute(d);
        dash_status(d, false, "MFU back to %.3g (M uses the measured GEMM efficiency again)",
                    d->sc.mfu);
        return;
    }
    if (!d->have_points || d->points.n == 0) {
        dash_status(d, true, "M: no measured points: P measures this scenario's GEMM shapes "
                             "(or start with --points FILE)");
        return;
    }
    double mfu;
    char why[256];
    if (!measured_mfu(&d->ev.meas, &mfu, why, sizeof why)) {
        /* P measures this machine: no help when the points are from another device. */
        dash_status(d, true, "M: %s%s", why,
                    d->ev.meas.other_device ? " (pick that GPU, or start with --points-any-device)"
                                         : " (P measures them)");
        return;
    }
    set_mfu_mode(d, MFU_MEASURED);
    dash_recompute(d);
    dash_status(d, false, "MFU = measured GEMM efficiency %.3g on %s (M: back to %.3g)",
                d->ev.mfu, d->ev.meas.device[0] ? d->ev.meas.device : d->points_from, d->sc.mfu);
}

bool dash_probe_poll(struct dash *d)
{
    if (!d->probe)
        return false;
    struct points_line ev;
    int r;
    bool changed = false, shapes = false;
    /* Points appear on the roofline as they arrive. */
    while ((r = probe_child_poll(d->probe, &ev)) == PCHILD_EVENT) {
        changed = true;
        switch (ev.kind) {
        case PLINE_POINT:
            if (!points_add(&d->points, &ev.point))
                dash_status(d, true, "probe: out of memory for points");
            shapes = shapes || strncmp(ev.point.name, "shape.", 6) == 0;
            break;
        case PLINE_DEVICE:
            d->points.device = ev.device;
            snprintf(d->points_from, sizeof d->points_from, "%.100s", ev.device.name);
            break;
        case PLINE_PROGRESS:
            d->probe_done = ev.done;
            d->probe_total = ev.total;
            snprintf(d->probe_what, sizeof d->probe_what, "%.60s", ev.text);
            break;
        case PLINE_STATUS:
            dash_status(d, false, "probe: %s", ev.text);
            break;
        case PLINE_ERROR:
            dash_status(d, true, "probe: %s", ev.text);
            break;
        case PLINE_DONE:
            dash_status(d, false, "probe: %d points in %.1f s from %s", ev.done, ev.seconds,
                        d->points_from);
            break;
        }
    }
    if (r == PCHILD_EXITED) {
        bool ok;
        char reason[256];
        probe_child_result(d->probe, &ok, reason, sizeof reason);
        probe_child_free(d->probe);
        d->probe = NULL;
        if (!ok)
            dash_status(d, true, "probe failed: %s", reason);
        changed = true;
    }
    /* The scenario's own GEMMs fill the ops table's measured column as they arrive. */
    if (shapes)
        dash_recompute(d);
    return changed;
}

static void probe_key(struct dash *d)
{
    if (!d->allow_probe) {
        dash_status(d, true, "P: the probe runs in the live dashboard only "
                             "(or run `rooftop probe --out FILE`, then --points FILE)");
        return;
    }
    if (d->probe) {
        probe_child_free(d->probe);
        d->probe = NULL;
        dash_status(d, false, "probe cancelled; the points so far stay");
        return;
    }
    char err[256];
    bool was_measured = d->sc.mfu_mode == MFU_MEASURED;
    /* The quick probe (a few seconds), CUDA when a device is usable, else the CPU, with the
     * scenario's own GEMM shapes (their measured time goes into the ops table; M uses it). */
    char shapes[512];
    if (!measured_shapes_arg(&d->sc, shapes, sizeof shapes))
        shapes[0] = '\0';
    d->probe = probe_child_start_self("auto", true, shapes, 300, err, sizeof err);
    if (!d->probe) {
        dash_status(d, true, "probe: %s", err);
        return;
    }
    points_free(&d->points);
    points_init(&d->points);
    d->have_points = true;
    snprintf(d->points_from, sizeof d->points_from, "this machine");
    dash_recompute(d);
    d->probe_done = d->probe_total = 0;
    d->probe_what[0] = '\0';
    if (was_measured && d->sc.mfu_mode != MFU_MEASURED)
        dash_status(d, false, "probe started; the measured MFU is off until its GEMMs are in "
                              "(then M) - P cancels");
    else
        dash_status(d, false, "probe started: points appear as they are measured (P cancels)");
}

/* ---- files ----------------------------------------------------------------------------- */

static bool export_report(struct dash *d, const char *path, char *err, size_t errlen)
{
    enum report_format fmt = REPORT_MD;
    const char *dot = strrchr(path, '.');
    if (dot && !report_format_parse(dot + 1, &fmt)) {
        if (strcmp(dot, ".txt") == 0)
            fmt = REPORT_TEXT;
        else if (strcmp(dot, ".markdown") == 0)
            fmt = REPORT_MD;
    }
    /* The atomic writer: a failure never leaves half a report, nor loses the old one. */
    struct files_out o;
    if (!files_out_open(&o, path, err, errlen))
        return false;
    if (!report_write(o.f, &d->ev, fmt)) {
        int e = errno ? errno : EIO;
        files_out_abort(&o);
        snprintf(err, errlen, "%.200s: cannot write: %s", path, strerror(e));
        return false;
    }
    if (!files_out_commit(&o, err, errlen))
        return false;
    snprintf(err, errlen, "exported the %s report to %.200s", report_format_name(fmt), path);
    return true;
}

void dash_remember_path(struct dash *d, const char *path)
{
    /* A path cut to fit would make s save to a different file: remember none instead. */
    if (strlen(path) < sizeof d->path)
        snprintf(d->path, sizeof d->path, "%s", path);
    else
        d->path[0] = '\0';
}

/* o on a model file (rooftop's or a Hugging Face config.json): the scenario goes on with that
 * model, as if picked (and its "tokens", as --model FILE takes them). */
static void open_model(struct dash *d, const char *path)
{
    char err[DASH_STATUS_MAX];
    struct model_arch m;
    if (!spec_load_model_file(path, &m, err, sizeof err)) {
        dash_status(d, true, "%s", err);
        return;
    }
    struct scenario c = d->sc;
    c.model = m;
    if (m.trained_tokens >= 1)
        c.tokens = m.trained_tokens;
    if (dash_try(d, &c, SL_MODEL)) {
        struct param_counts pc;
        model_params(&m, &pc);
        char n[32];
        units_count((double)pc.total, n, sizeof n);
        dash_status(d, false, "opened the model %s (%s parameters) from %s", m.name, n, path);
    }
}

static void open_file(struct dash *d, const char *path)
{
    char err[DASH_STATUS_MAX];
    if (spec_file_is_model(path)) {
        open_model(d, path);
        return;
    }
    if (demo_is_file(path)) {
        if (dash_demo_open(d, path, 0, err, sizeof err))
            dash_status(d, false, "opened the demo %s: n and p step through it", path);
        else
            dash_status(d, true, "%s", err);
        return;
    }
    struct scenario c;
    scenario_default(&c);
    if (!scenario_load(path, &c, err, sizeof err)) {
        /* A GPU spec is none of what o opens: say what it is and where it goes, not that
         * its first key is unknown to a scenario. */
        struct gpu_spec g;
        char gerr[SPEC_ERR_MAX];
        if (spec_load_gpu_file(path, &g, gerr, sizeof gerr))
            dash_status(d, true, "%.200s: a GPU spec (%s), not a model or scenario: start "
                                 "rooftop --gpu %.200s, or put it in ~/.config/rooftop/gpus/ "
                                 "to pick it with g", path, g.name, path);
        else
            dash_status(d, true, "%s", err);
        return;
    }
    if (dash_try(d, &c, -1)) {
        dash_remember_path(d, path);
        d->start = d->sc;
        d->step = -1;
        dash_status(d, false, "opened %s", path);
    }
}

/* Carries out prompt m (save, open, export) on path. */
static void do_prompt(struct dash *d, enum dash_mode m, const char *path)
{
    char err[DASH_STATUS_MAX];
    if (m == DM_SAVE) {
        if (scenario_save(path, &d->sc, err, sizeof err)) {
            dash_remember_path(d, path);
            dash_status(d, false, "saved the scenario to %s", path);
        } else {
            dash_status(d, true, "%s", err);
        }
    } else if (m == DM_OPEN) {
        open_file(d, path);
        /* Read once for this o (model? demo? scenario?); a FIFO opened again is read again. */
        files_forget_pipes();
    } else if (m == DM_EXPORT) {
        bool ok = export_report(d, path, err, sizeof err);
        dash_status(d, !ok, "%s", err);
    }
}

static void finish_prompt(struct dash *d)
{
    const char *path = d->input;
    enum dash_mode m = d->mode;
    d->mode = DM_NORMAL;
    if (!path[0]) {
        dash_status(d, true, "no file name given");
        return;
    }
    /* A file that is there already is replaced only when the user says so; saving again to
     * the scenario's own file (the one opened or saved last) is what s is for. */
    bool own = m == DM_SAVE && strcmp(path, d->path) == 0;
    if ((m == DM_SAVE || m == DM_EXPORT) && !own && access(path, F_OK) == 0) {
        d->mode = DM_CONFIRM;
        d->confirm_of = m;
        return;
    }
    do_prompt(d, m, path);
}

static void confirm_key(struct dash *d, uint32_t k)
{
    d->mode = DM_NORMAL;
    if (k == 'y' || k == 'Y') {
        do_prompt(d, d->confirm_of, d->input);
        return;
    }
    dash_status(d, false, "%s: left as it was (%s again to choose another name)", d->input,
                d->confirm_of == DM_SAVE ? "s" : "e");
}

/* ---- keys ------------------------------------------------------------------------------ */


/* Moves a slider: by delta steps (how 0), to its valid Home/End (how 1), or to the valid step
 * nearest a position along the track (how 2, the mouse). */
static bool move_slider(struct dash *d, int id, int delta, int how, double frac)
{
    if (id < 0 || id >= SL_COUNT)
        return false;
    if (how == 1)
        return slider_to_valid(d, id, delta > 0 ? slider_count_steps(d, id) - 1 : 0);
    if (how == 2) {
        if (!(frac == frac))
            return false;
        frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
        return slider_to_valid(d, id, (int)lround(frac * (slider_count_steps(d, id) - 1)));
    }
    struct scenario c = d->sc;
    if (!slider_step(&d->presets, &c, (enum slider_id)id, delta))
        return false;
    return dash_try(d, &c, id);
}

static void start_input(struct dash *d, enum dash_mode m, const char *text)
{
    d->mode = m;
    snprintf(d->input, sizeof d->input, "%s", text);
    d->input_cut = strlen(text) >= sizeof d->input;
    /* A value or name shown first is there to be replaced: the first key typed starts a
     * new one (a file name as a slider's value). */
    d->input_fresh = text[0] != '\0';
    if (m == DM_OPEN) {
        open_list_free(&d->open);
        open_list_load(&d->open);
    }
}

/* The open prompt's list: Up/Down highlight a scenario found, Enter takes it. */
static bool open_list_key(struct dash *d, uint32_t k)
{
    if (d->mode != DM_OPEN || (k != UK_UP && k != UK_DOWN && k != UK_ENTER && k != '\n' &&
                               k != '\r'))
        return false;
    int idx[DASH_OPEN_SHOWN];
    int n = open_list_match(&d->open, d->input, d->input_fresh, idx, DASH_OPEN_SHOWN);
    n = n < DASH_OPEN_SHOWN ? n : DASH_OPEN_SHOWN;
    if (k == UK_UP || k == UK_DOWN) {
        open_list_move(&d->open, k == UK_UP ? -1 : 1, n);
        return true;
    }
    if (d->open.pick < 0 || d->open.pick >= n)
        return false;
    snprintf(d->input, sizeof d->input, "%s", d->open.names.ids[idx[d->open.pick]]);
    d->input_cut = false;
    return false; /* Enter then opens it */
}

#define CTRL_U 0x15

/* A token length typed as "8k" reads 8000 as everywhere: the status line names both
 * readings (8Ki = 8192), before any note the settling of the other inputs left. */
static void note_reading(struct dash *d, enum slider_id id)
{
    char t[DASH_INPUT_MAX], note[256];
    const char *p = d->input;
    while (*p == ' ')
        p++;
    snprintf(t, sizeof t, "%s", p);
    for (size_t l = strlen(t); l > 0 && t[l - 1] == ' '; l--)
        t[l - 1] = '\0';
    const struct input *in = slider_input(id);
    if (!inputs_reading_note(in, t, note, sizeof note))
        return;
    char prev[DASH_STATUS_MAX];
    snprintf(prev, sizeof prev, "%s", d->status_error ? "" : d->status);
    dash_status(d, false, "%s: %s%s%s", in->label, note, prev[0] ? "; " : "", prev);
}

static void edit_key(struct dash *d, uint32_t k)
{
    if (open_list_key(d, k))
        return;
    if (d->mode == DM_OPEN)
        d->open.pick = -1; /* what is typed is what Enter opens, until Down picks again */
    size_t len = strlen(d->input);
    bool fresh = d->input_fresh;
    d->input_fresh = false;
    if (k == UK_ESC) {
        d->mode = DM_NORMAL;
    } else if (k == CTRL_U) {
        d->input[0] = '\0';
        d->input_cut = false;
    } else if (k == UK_BS || k == 0x7f || k == 8) {
        if (fresh) {
            d->input[0] = '\0';
            d->input_cut = false;
        } else if (len > 0) {
            d->input[len - 1] = '\0';
        }
    } else if ((k == UK_ENTER || k == '\n' || k == '\r') && d->input_cut) {
        /* What was typed is not what input holds: using it would save, open or export a
         * different file than the one named. */
        d->mode = DM_NORMAL;
        dash_status(d, true, "longer than %zu characters: not taken (nothing was written)",
                    sizeof d->input - 1);
    } else if (k == UK_ENTER || k == '\n' || k == '\r') {
        if (d->mode == DM_EDIT) {
            d->mode = DM_NORMAL;
            struct scenario c = d->sc;
            char err[DASH_STATUS_MAX];
            if (!slider_parse(&d->presets, &c, (enum slider_id)d->focus, d->input, err,
                              sizeof err)) {
                dash_status(d, true, "%s", err);
            } else {
                d->status[0] = '\0';
                if (dash_try(d, &c, d->focus))
                    note_reading(d, (enum slider_id)d->focus);
            }
        } else {
            finish_prompt(d);
        }
    } else if (k >= 0x20 && k < 0x7f) {
        /* File names and values are typed in ASCII; that keeps widths and cuts simple. */
        if (fresh) {
            len = 0;
            d->input_cut = false;
        }
        if (len + 1 < sizeof d->input) {
            d->input[len] = (char)k;
            d->input[len + 1] = '\0';
        } else {
            d->input_cut = true;
            dash_status(d, true, "at most %zu characters here", sizeof d->input - 1);
        }
    } else if (k >= 0x80 && k < UK_UP) {
        /* A character past ASCII (é, µ, a CJK name): not taken, and said so, rather than
         * dropped without a word. */
        char u[8];
        u[utf8_encode(k, u)] = '\0';
        dash_status(d, true, "'%s' (U+%04X) not taken: %s are typed in ASCII here", u,
                    (unsigned)k, d->mode == DM_EDIT ? "values" : "file names");
    } else {
        /* Any other key (an arrow, End) keeps the old value to edit it. */
    }
}

int dash_pick_count(const struct dash *d, enum dash_mode m)
{
    return m == DM_PICK_MODEL ? d->presets.n_models : d->presets.n_gpus;
}

void dash_pick_line(const struct dash *d, enum dash_mode m, int k, char *buf, size_t n)
{
    char a[32], b[32];
    if (m == DM_PICK_MODEL) {
        const struct preset_model *pm = &d->presets.models[k];
        units_count(pm->params, a, sizeof a);
        snprintf(buf, n, "%-18s %7s  %s", pm->arch.id, a, pm->arch.name);
    } else {
        const struct gpu_spec *g = &d->presets.gpus[k];
        units_bytes(g->memory_bytes, a, sizeof a);
        /* The scenario's dtype: "n/a" where the GPU has no peak for it (picking it is
         * refused), never another format's rate. */
        double pk = gpu_peak(g, d->sc.dtype);
        if (pk > 0)
            units_flops_rate(pk, b, sizeof b);
        else
            snprintf(b, sizeof b, "n/a");
        snprintf(buf, n, "%-12s %7s  %11s %-5s %s", g->id, a, b,
                 peak_name(dtype_peak(d->sc.dtype)), g->name);
    }
}

/* Whether hay contains needle, in any case. */
static bool contains_nocase(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, nl) == 0)
            return true;
    return nl == 0;
}

/* The cursor to the first entry, from the cursor on, whose line holds the query. */
static bool pick_search(struct dash *d)
{
    int n = dash_pick_count(d, d->mode);
    for (int i = 0; i < n; i++) {
        int k = (d->pick + i) % n;
        char line[256];
        dash_pick_line(d, d->mode, k, line, sizeof line);
        if (contains_nocase(line, d->pick_query)) {
            d->pick = k;
            return true;
        }
    }
    return false;
}

static void pick_key(struct dash *d, uint32_t k)
{
    int n = dash_pick_count(d, d->mode);
    size_t ql = strlen(d->pick_query);
    switch (k) {
    case UK_UP:
        d->pick--;
        break;
    case UK_DOWN:
        d->pick++;
        break;
    case UK_PGUP:
        d->pick -= 10;
        break;
    case UK_PGDN:
        d->pick += 10;
        break;
    case UK_HOME:
        d->pick = 0;
        break;
    case UK_END:
        d->pick = n - 1;
        break;
    case UK_ENTER:
    case '\n':
    case '\r': {
        enum dash_mode m = d->mode;
        d->mode = DM_NORMAL;
        if (n > 0) {
            struct scenario c = d->sc;
            int id = m == DM_PICK_MODEL ? SL_MODEL : SL_GPU;
            if (slider_apply(&d->presets, &c, (enum slider_id)id, d->pick))
                dash_try(d, &c, id);
        }
        return;
    }
    case UK_ESC:
        d->mode = DM_NORMAL;
        return;
    case UK_BS:
    case 0x7f:
    case 8:
        if (ql > 0)
            d->pick_query[ql - 1] = '\0';
        break;
    case CTRL_U:
        d->pick_query[0] = '\0';
        break;
    default:
        /* Typing searches: the cursor goes to the first entry (from where it is) that
         * holds what was typed, in its name or figures. */
        if (k >= 0x20 && k < 0x7f && ql + 1 < sizeof d->pick_query) {
            d->pick_query[ql] = (char)k;
            d->pick_query[ql + 1] = '\0';
            /* A new search starts at the top; a longer one keeps the entry while it matches. */
            if (ql == 0)
                d->pick = 0;
            (void)pick_search(d);
        }
        break;
    }
    if (d->pick >= n)
        d->pick = n - 1;
    if (d->pick < 0)
        d->pick = 0;
}

/* b: the fastest layouts of this model, GPU count, batch and sequence that fit. */
static void plans_open(struct dash *d)
{
    struct plan_result *r = malloc(sizeof *r);
    if (r == NULL) {
        dash_status(d, true, "b: out of memory");
        return;
    }
    plan_search(&d->sc, DASH_PLANS, r);
    d->n_plans = 0;
    for (int i = 0; i < r->n && i < DASH_PLANS; i++)
        if (r->plans[i].fits)
            d->plans[d->n_plans++] = r->plans[i];
    long searched = r->searched;
    free(r);
    if (d->n_plans == 0) {
        dash_status(d, true, "b: none of the %ld layouts searched fits in GPU memory", searched);
        return;
    }
    d->pick = 0;
    d->mode = DM_PLANS;
}

/* Applies plan i: its layout, the rest of the scenario as it is. */
static void plan_apply(struct dash *d, int i)
{
    d->mode = DM_NORMAL;
    if (i < 0 || i >= d->n_plans)
        return;
    struct scenario c = d->sc;
    const struct scenario *p = &d->plans[i].s;
    c.tp = p->tp;
    c.pp = p->pp;
    c.vpp = p->vpp;
    c.cp = p->cp;
    c.ep = p->ep;
    c.sp = p->sp;
    c.zero = p->zero;
    c.micro_batch = p->micro_batch;
    c.recompute = p->recompute;
    c.first_stage_layers = p->first_stage_layers;
    c.last_stage_layers = p->last_stage_layers;
    /* The whole layout is the user's choice: the inputs that settle toward the user's wishes
     * take the plan's values as theirs (restored if the plan is refused). */
    struct scenario want = d->want;
    d->want.tp = c.tp;
    d->want.pp = c.pp;
    d->want.micro_batch = c.micro_batch;
    d->want.vpp = c.vpp;
    d->want.cp = c.cp;
    d->want.ep = c.ep;
    if (!dash_try(d, &c, SL_TP))
        d->want = want;
    else {
        char step[32];
        units_duration(d->plans[i].pred.step_seconds, step, sizeof step);
        dash_status(d, false, "layout %d applied: tp %lld, pp %lld (vpp %lld), cp %lld, ep %lld, "
                              "ZeRO %d, micro-batch %lld, recompute %s: predicted step %s", i + 1,
                    (long long)c.tp, (long long)c.pp, (long long)c.vpp, (long long)c.cp,
                    (long long)c.ep, c.zero,
                    (long long)c.micro_batch, recompute_name(c.recompute), step);
    }
}

static void plans_key(struct dash *d, uint32_t k)
{
    switch (k) {
    case UK_UP:
    case 'k':
        if (d->pick > 0)
            d->pick--;
        break;
    case UK_DOWN:
    case 'j':
        if (d->pick + 1 < d->n_plans)
            d->pick++;
        break;
    case UK_ENTER:
    case '\n':
    case '\r':
        plan_apply(d, d->pick);
        break;
    case UK_ESC:
    case 'q':
    case 'b':
        d->mode = DM_NORMAL;
        break;
    default:
        if (k >= '1' && k < '1' + (uint32_t)d->n_plans)
            plan_apply(d, (int)(k - '1'));
        break;
    }
}

static void demo_key(struct dash *d, int dir)
{
    char err[DASH_STATUS_MAX];
    if (d->demo.n == 0) {
        if (!dash_demo_open(d, NULL, 0, err, sizeof err))
            dash_status(d, true, "%s", err);
        return;
    }
    int k = d->step + dir;
    if (k < 0 || k >= d->demo.n) {
        dash_status(d, false, "%s step of %d (%s)", k < 0 ? "first" : "last", d->demo.n,
                    k < 0 ? "n goes forward" : "p goes back");
        return;
    }
    dash_demo_show(d, k);
}

/* The rows of the operations table that show operations (under its header and column heads),
 * and how many operations it may list; 0 rows when the table is not on screen. */
static int ops_rows(const struct dash *d, int *n_ops)
{
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    *n_ops = d->lecture_ops ? LOP_COUNT : d->ev.an.n_ops;
    int rows = L.too_small ? 0 : L.r[P_OPS].h - LAYOUT_OPS_HEAD_ROWS;
    /* Where not all fit, the last row says which are shown (ops_draw). */
    if (*n_ops > rows)
        rows--;
    return rows > 0 ? rows : 0;
}

/* Scrolls the operations table by delta rows (whole pages with page); false when the table
 * is not on screen. */
static bool ops_scroll(struct dash *d, int delta, bool page)
{
    int n, rows = ops_rows(d, &n);
    if (rows == 0)
        return false;
    int top = d->ops_top + (page ? delta * rows : delta);
    if (top > n - rows)
        top = n - rows;
    d->ops_top = top > 0 ? top : 0;
    return true;
}

/* The lecture caption: its lines, and the rows it has on screen (0 when not shown). */
static int caption_lines(const struct dash *d, int *rows)
{
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    *rows = L.too_small ? 0 : L.r[P_CAPTION].h;
    struct rect text;
    return *rows ? dash_caption_area(d, L.r[P_CAPTION], &text) : 0;
}

/* c: the caption's next lines where it has more than fit, back to its start after the last. */
static void caption_key(struct dash *d)
{
    int rows, lines = caption_lines(d, &rows);
    if (lines == 0) {
        dash_status(d, false, "c: no lecture caption on screen (n starts the demo)");
        return;
    }
    if (lines <= rows) {
        dash_status(d, false, "c: the whole caption is on screen");
        return;
    }
    d->caption_line += rows;
    if (d->caption_line >= lines)
        d->caption_line = 0;
}

static void ops_toggle_key(struct dash *d)
{
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    if (L.too_small || L.shared) {
        /* One slot: t shows the table with the focus on it (its arrows scroll it), and back. */
        if (d->show_ops && d->focus != FOCUS_OPS) {
            d->focus = FOCUS_OPS;
            return;
        }
        d->show_ops = !d->show_ops;
        if (d->show_ops)
            d->focus = FOCUS_OPS;
        else if (d->focus == FOCUS_OPS)
            d->focus = FOCUS_ROOFLINE;
        return;
    }
    /* Both fit at this size: t takes the focus to the table, where the arrows scroll it. */
    d->focus = FOCUS_OPS;
    dash_status(d, false, "t: roofline and operations are both on screen here; the table has "
                          "the focus (Left/Right, PgUp/PgDn scroll it)");
}

/* Keys of the operations table when it has the focus. */
static bool ops_key(struct dash *d, uint32_t k)
{
    switch (k) {
    case UK_LEFT:
    case 'h':
        return ops_scroll(d, -1, false);
    case UK_RIGHT:
    case 'l':
        return ops_scroll(d, 1, false);
    case UK_PGUP:
        return ops_scroll(d, -1, true);
    case UK_PGDN:
        return ops_scroll(d, 1, true);
    case UK_HOME:
        return ops_scroll(d, -1000, false);
    case UK_END:
        return ops_scroll(d, 1000, false);
    default:
        return false;
    }
}

/* Keys of the inference view: its sliders, i back to training, and the keys that do not
 * depend on the view. */
static void infer_key(struct dash *d, uint32_t k)
{
    struct infer_ui *u = &d->inf;
    char err[DASH_STATUS_MAX];
    err[0] = '\0';
    int delta = 0;
    bool end = false;
    switch (k) {
    case 'q':
    case 'Q':
        d->quit = true;
        return;
    case 'i':
        u->on = false;
        dash_status(d, false, "training view (i: inference)");
        return;
    /* The demo steps on from here too: a demo may show inference (specs/scenarios/
     * inference.json). */
    case 'n':
    case 'p':
        demo_key(d, k == 'n' ? 1 : -1);
        return;
    case 'c':
        caption_key(d);
        return;
    case '?':
    case UK_F1:
        d->mode = DM_HELP;
        return;
    case 't':
        d->show_ops = !d->show_ops;
        return;
    case UK_UP:
    case 'k':
    case UK_BTAB:
        u->focus = (u->focus + IS_COUNT - 1) % IS_COUNT;
        return;
    case UK_DOWN:
    case 'j':
    case UK_TAB:
        u->focus = (u->focus + 1) % IS_COUNT;
        return;
    case UK_LEFT:
    case UK_SLEFT:
    case 'h':
        delta = -1;
        break;
    case UK_RIGHT:
    case UK_SRIGHT:
    case 'l':
        delta = 1;
        break;
    case UK_PGUP:
    case UK_PGDN:
        delta = k == UK_PGUP ? 3 : -3;
        break;
    case UK_HOME:
    case UK_END:
        delta = k == UK_END ? 1 : -1;
        end = true;
        break;
    default:
        dash_status(d, false, "inference view: arrows change the inputs, i goes back to training");
        return;
    }
    if (!infer_ui_move(u, &d->presets, u->focus, delta, end, err, sizeof err) && err[0])
        dash_status(d, true, "%s", err);
}

static void normal_key(struct dash *d, uint32_t k)
{
    int big = 0;
    if (d->focus == FOCUS_OPS && ops_key(d, k))
        return;
    switch (k) {
    case 'q':
    case 'Q':
        d->quit = true;
        break;
    case UK_UP:
    case 'k':
    case UK_BTAB:
    case UK_DOWN:
    case 'j':
    case UK_TAB: {
        /* On to the next (previous) slider or panel the screen shows. */
        int dir = k == UK_UP || k == 'k' || k == UK_BTAB ? FOCUS_COUNT - 1 : 1;
        int f = d->focus;
        for (int tries = 0; tries < FOCUS_COUNT; tries++) {
            f = (f + dir) % FOCUS_COUNT;
            if (lecture_focusable(lecture_step_of(&d->demo, d->step, d->inf.on), f))
                break;
        }
        d->focus = f;
        break;
    }
    case 'a':
        if (d->step >= 0 && d->step < d->demo.n && d->demo.steps[d->step].answer[0])
            d->answer_shown = !d->answer_shown;
        else
            dash_status(d, false, "a: this step has no answer to show (specs/scenarios/exercises.json has)");
        break;
    case 'd':
        d->mode = DM_DTYPES;
        snprintf(d->dtype_input, sizeof d->dtype_input, "%.9g", d->dtype_value);
        break;
    case UK_LEFT:
    case UK_SLEFT:
    case 'h':
        move_slider(d, d->focus, -1, 0, 0);
        break;
    case UK_RIGHT:
    case UK_SRIGHT:
    case 'l':
        move_slider(d, d->focus, 1, 0, 0);
        break;
    case UK_PGUP:
    case UK_PGDN:
        if (d->focus < SL_COUNT) {
            /* A big step: a fifth of the track, at least two steps. */
            big = slider_count_steps(d, d->focus) / 5;
            if (big < 2)
                big = 2;
            move_slider(d, d->focus, k == UK_PGUP ? big : -big, 0, 0);
        }
        break;
    case UK_HOME:
        move_slider(d, d->focus, -1, 1, 0);
        break;
    case UK_END:
        move_slider(d, d->focus, 1, 1, 0);
        break;
    case UK_ENTER:
    case '\n':
    case '\r':
        if (d->focus < SL_COUNT) {
            /* The exact text, which typed back gives the same value. */
            char v[DASH_INPUT_MAX];
            inputs_format(slider_input((enum slider_id)d->focus), &d->sc, v, sizeof v);
            start_input(d, DM_EDIT, v);
        }
        break;
    case 'm':
        if (d->presets.n_models == 0) {
            dash_status(d, true, "m: no model presets found (set ROOFTOP_SPECS to the specs directory)");
        } else {
            d->mode = DM_PICK_MODEL;
            d->pick_query[0] = '\0';
            d->pick = presets_model_index(&d->presets, d->sc.model.id);
            if (d->pick < 0)
                d->pick = (int)(slider_value(&d->presets, &d->sc, SL_MODEL) + 0.5);
        }
        break;
    case 'g':
        d->mode = DM_PICK_GPU;
        d->pick_query[0] = '\0';
        d->pick = presets_gpu_index(&d->presets, d->sc.gpu.id);
        if (d->pick < 0)
            d->pick = 0;
        break;
    case 's':
        start_input(d, DM_SAVE, d->path[0] ? d->path : "rooftop-scenario.json");
        break;
    case 'o':
        start_input(d, DM_OPEN, d->path);
        break;
    case 'e':
        start_input(d, DM_EXPORT, "rooftop-report.md");
        break;
    case 'r':
        if (dash_try(d, &d->start, -1))
            dash_status(d, false, "reset to the starting scenario");
        d->step = -1;
        d->lecture_ops = false;
        break;
    case 'n':
        demo_key(d, 1);
        break;
    case 'p':
        demo_key(d, -1);
        break;
    case '?':
    case UK_F1:
        d->mode = DM_HELP;
        break;
    case 't':
        ops_toggle_key(d);
        break;
    case 'c':
        caption_key(d);
        break;
    case 'L':
        d->lecture_ops = !d->lecture_ops;
        d->ops_top = 0;
        break;
    case 'P':
        probe_key(d);
        break;
    case 'M':
        dash_toggle_measured_mfu(d);
        break;
    case 'b':
        plans_open(d);
        break;
    case 'w':
        sweep_key(d);
        break;
    case 'x':
        compare_key(d);
        break;
    case 'i': {
        char err[DASH_STATUS_MAX];
        if (!d->inf.ready && !infer_ui_open(&d->inf, &d->presets, &d->sc, err, sizeof err)) {
            dash_status(d, true, "i: %s", err);
            break;
        }
        d->inf.on = true;
        dash_status(d, false, "inference view (i: back to training)");
        break;
    }
    default:
        break;
    }
}

/* ---- mouse ----------------------------------------------------------------------------- */

static bool in_rect(struct rect r, int x, int y)
{
    return !rect_empty(r) && x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

static void mouse_event(struct dash *d, const struct event *ev)
{
    if (d->mode == DM_HELP) {
        if (ev->mouse == MOUSE_PRESS)
            d->mode = DM_NORMAL;
        return;
    }
    if (d->mode == DM_PLANS) {
        if (ev->mouse == MOUSE_WHEEL_UP)
            plans_key(d, UK_UP);
        else if (ev->mouse == MOUSE_WHEEL_DOWN)
            plans_key(d, UK_DOWN);
        return;
    }
    if (d->mode == DM_PICK_MODEL || d->mode == DM_PICK_GPU) {
        if (ev->mouse == MOUSE_WHEEL_UP)
            pick_key(d, UK_UP);
        else if (ev->mouse == MOUSE_WHEEL_DOWN)
            pick_key(d, UK_DOWN);
        return;
    }
    /* The inference view takes keys only. */
    if (d->mode != DM_NORMAL || d->inf.on)
        return;
    struct layout L;
    dash_layout(d, d->cols, d->rows, &L);
    if (L.too_small)
        return;
    struct rect sr = L.r[P_SLIDERS];
    struct slider_geom g;
    int ids[SL_COUNT], pos;
    lecture_slider_geom(lecture_step_of(&d->demo, d->step, d->inf.on), d->focus, sr, &g, ids,
                        &pos);
    int row = ev->y - g.y0;
    int id = in_rect(sr, ev->x, ev->y) && row >= 0 && row < g.count ? ids[g.first + row] : -1;
    double frac = g.track_w > 1 ? (double)(ev->x - g.track_x) / (g.track_w - 1) : 0;
    bool on_track = ev->x >= g.track_x && ev->x < g.track_x + g.track_w;

    switch (ev->mouse) {
    case MOUSE_PRESS:
        if (id >= 0) {
            d->focus = id;
            if (on_track) {
                d->drag = id;
                move_slider(d, id, 0, 2, frac);
            }
            return;
        }
        for (int p = P_MEMORY; p <= P_OPS; p++)
            if (in_rect(L.r[p], ev->x, ev->y))
                d->focus = FOCUS_MEMORY + (p - P_MEMORY);
        break;
    case MOUSE_DRAG:
        if (d->drag >= 0)
            move_slider(d, d->drag, 0, 2, frac);
        break;
    case MOUSE_RELEASE:
        d->drag = -1;
        break;
    case MOUSE_WHEEL_UP:
    case MOUSE_WHEEL_DOWN:
        if (id >= 0) {
            d->focus = id;
            move_slider(d, id, ev->mouse == MOUSE_WHEEL_UP ? 1 : -1, 0, 0);
        } else if (in_rect(L.r[P_OPS], ev->x, ev->y)) {
            ops_scroll(d, ev->mouse == MOUSE_WHEEL_UP ? -1 : 1, false);
        } else if (in_rect(L.r[P_CAPTION], ev->x, ev->y) && ev->mouse == MOUSE_WHEEL_DOWN) {
            caption_key(d);
        }
        break;
    }
}

bool dash_handle(struct dash *d, const struct event *ev)
{
    switch (ev->type) {
    case EV_RESIZE:
        d->cols = ev->x > 0 ? ev->x : 1;
        d->rows = ev->y > 0 ? ev->y : 1;
        return true;
    case EV_MOUSE:
        mouse_event(d, ev);
        return true;
    case EV_KEY:
        break;
    }
    uint32_t k = ev->key;
    /* A message stays until the next key, so it can be read. */
    if (d->mode == DM_NORMAL)
        d->status[0] = '\0';
    switch (d->mode) {
    case DM_NORMAL:
        if (d->inf.on)
            infer_key(d, k);
        else
            normal_key(d, k);
        break;
    case DM_HELP:
        d->mode = DM_NORMAL;
        if (k == 'q')
            d->quit = false; /* q closes the help, it does not quit */
        break;
    case DM_DTYPES: {
        char err[DASH_STATUS_MAX];
        double v;
        enum dtypes_input_result r =
            dtypes_input_key(d->dtype_input, sizeof d->dtype_input, k, &v, err, sizeof err);
        if (r == DTI_CLOSED)
            d->mode = DM_NORMAL;
        else if (r == DTI_REFUSED)
            dash_status(d, true, "%s", err);
        else if (r == DTI_APPLIED) {
            d->dtype_value = v;
            dash_status(d, false, "d: %.9g as each format stores it", v);
        }
        break;
    }
    case DM_EDIT:
    case DM_SAVE:
    case DM_OPEN:
    case DM_EXPORT:
        edit_key(d, k);
        break;
    case DM_CONFIRM:
        confirm_key(d, k);
        break;
    case DM_PICK_MODEL:
    case DM_PICK_GPU:
        pick_key(d, k);
        break;
    case DM_PLANS:
        plans_key(d, k);
        break;
    }
    return true;
}
