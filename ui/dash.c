/* dash.c - the dashboard's state: set up and freed, the status line, the one evaluation redone
 * once per change, and dash_try, through which every change goes. Also where each panel goes
 * (dash_layout) and the demo caption's text. Nothing here draws (frame.c does), nor reads keys
 * (dash_keys.c). */
#include "dash.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "files.h"
#include "lecture_screen.h"
#include "probe_child.h"
#include "scenario_check.h"
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
void dash_set_mfu_mode(struct dash *d, enum mfu_mode m)
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
void dash_recompute(struct dash *d)
{
    struct eval_input in = {.points = d->have_points ? &d->points : NULL,
                            .any_device = d->points_any_device};
    evaluation_run(&d->sc, &in, &d->ev);
    if (d->sc.mfu_mode != MFU_TYPED && d->ev.mfu_from == MFU_TYPED) {
        dash_status(d, true, "%s MFU off (%s): MFU back to %.3g", mfu_mode_name(d->sc.mfu_mode),
                    d->ev.mfu_why, d->sc.mfu);
        dash_set_mfu_mode(d, MFU_TYPED);
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
    d->focus = slider_id("model"); /* the first input, where a user starts */
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
        .n_sliders = slider_count(),
        .n_ops = d->ev.an.n_ops,
    };
    layout_compute(cols, rows, &o, L);
}

/* ---- applying changes ------------------------------------------------------------------ */

/* What the user asked of the input behind slider `moved`, taken from the candidate. */
static void want_input(struct scenario *want, const struct scenario *cand, int moved)
{
    inputs_copy(slider_input(moved), want, cand);
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
bool dash_settle(const struct dash *d, const struct scenario *cand, int moved,
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
    scenario_settle(c, want, moved >= 0 ? slider_input(moved) : NULL, note, n);
    /* d->sc passed (it is only ever set to a scenario that did): a key's candidate differs
     * from it in a few rows, whose ranges are all that need checking again. */
    return scenario_check_from(c, &d->sc, key, msg, n);
}

/* What the sweep panel sweeps (ui/sweep_view.h). */
struct sweep_view_of dash_sweep_of(const struct dash *d)
{
    struct sweep_view_of of = {&d->presets, &d->sc, &d->want,
                               {.points = d->have_points ? &d->points : NULL,
                                .any_device = d->points_any_device}};
    return of;
}

/* After a change: the sweep's mark or sweep, the comparison's differences. */
static void views_update(struct dash *d, int moved)
{
    struct sweep_view_of of = dash_sweep_of(d);
    if (!sweep_view_update(&d->swv, &of, moved) || !compare_view_update(&d->cmp, &d->ev))
        dash_status(d, true, "out of memory: the sweep or comparison is closed");
}

bool dash_try(struct dash *d, const struct scenario *cand, int moved)
{
    struct scenario c, want;
    char note[DASH_STATUS_MAX] = "", msg[DASH_STATUS_MAX];
    const char *key = "";
    if (!dash_settle(d, cand, moved, &c, &want, note, msg, sizeof msg, &key)) {
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
