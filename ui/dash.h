/* dash.h - the dashboard's state, and the one way a change reaches it (dash_try), with the
 * layout and the caption text the frame draws from. What keys, the mouse and resizes do to it
 * is in dash_keys.h (dash_handle) and the rooms it calls, one idea each: dash_slider (moving
 * an input), dash_prompt (the typed line), dash_files (save, open, export), dash_pick (the
 * model and GPU pickers), dash_plans (b), dash_demo (the lecture demo), dash_points (measured
 * points and the probe), dash_ops (the operations table), dash_views (sweep and comparison),
 * dash_infer (the inference view), dash_mouse. */
#ifndef ROOFTOP_UI_DASH_H
#define ROOFTOP_UI_DASH_H

#include <stdbool.h>
#include <stddef.h>

#include "evaluation.h"
#include "charset.h"
#include "compare_view.h"
#include "infer_ui.h"
#include "keys.h"
#include "layout.h"
#include "demo.h"
#include "measured.h"
#include "open_list.h"
#include "plan.h"
#include "points.h"
#include "presets.h"
#include "scenario.h"
#include "slider.h"
#include "sweep_view.h"
#include "theme.h"

/* Focus: a slider (0 .. slider_count() - 1) or one of the panels, numbered from SLIDER_MAX. */
enum {
    FOCUS_MEMORY = SLIDER_MAX,
    FOCUS_COMPUTE,
    FOCUS_ROOFLINE,
    FOCUS_OPS,
    FOCUS_COUNT
};

enum dash_mode {
    DM_NORMAL,
    DM_HELP,
    DM_EDIT,        /* typing a slider's exact value */
    DM_PICK_MODEL,
    DM_PICK_GPU,
    DM_SAVE,        /* typing a file name */
    DM_OPEN,
    DM_EXPORT,
    DM_PLANS,       /* the fastest layouts (b): pick one to apply */
    DM_CONFIRM,     /* y/n: overwrite the file named in input (for the prompt in confirm_of) */
    DM_DTYPES,      /* the number formats' box (d): a value typed as each format stores it */
};

#define DASH_STATUS_MAX 320
/* The longest a file prompt waits on a pipe (files_set_pipe_wait), in ms. */
#define DASH_PIPE_WAIT_MS 2000
#define DASH_PLANS 5
#define DASH_OPEN_SHOWN 12   /* scenario files the open prompt lists at most */
#define DASH_PATH_MAX 512
#define DASH_INPUT_MAX DASH_PATH_MAX

struct probe_child;

struct dash {
    /* What is shown. */
    struct scenario sc;          /* always valid: what is shown, saved and exported */
    struct scenario want;        /* what the user last asked of each input: inputs that must
                                    give way (scenario_settle) return to it when they can */
    struct evaluation ev;        /* evaluation_run(sc, points), redone once per change (never
                                    per redraw): nothing else writes it (the key fuzz checks);
                                    ev.mfu is the MFU in use (sc.mfu_mode says which) */
    struct scenario start;       /* what r resets to */
    bool edited;                 /* a slider moved since the scenario was loaded */
    struct presets presets;
    struct theme theme;
    struct charset cs;
    int cols, rows;              /* terminal size (from resize events) */

    /* Interaction. */
    int focus;
    enum dash_mode mode;
    char input[DASH_INPUT_MAX];  /* DM_EDIT / DM_SAVE / DM_OPEN / DM_EXPORT text */
    bool input_cut;              /* more was typed than input holds: Enter refuses it */
    bool input_fresh;            /* input is the value or name shown first, which typing
                                    replaces (an arrow keeps it to edit) */
    struct open_list open;       /* DM_OPEN: the scenario files offered */
    enum dash_mode confirm_of;   /* DM_CONFIRM: DM_SAVE or DM_EXPORT, waiting on y/n */
    int pick;                    /* picker cursor */
    char pick_query[32];         /* pickers: what was typed to search them */
    int ops_top;                 /* operations table: first row shown (it scrolls) */
    int caption_line;            /* demo caption: first line shown (it scrolls) */
    int drag;                    /* slider being dragged with the mouse, or -1 */
    bool show_ops;               /* where roofline and ops share a slot */
    bool lecture_ops;            /* the roofline shows the lecture's five operations */
    char status[DASH_STATUS_MAX];
    bool status_error;
    bool quit;
    char path[DASH_PATH_MAX];    /* the scenario file: default name for save */

    /* Lecture demo. */
    struct demo demo;
    int step;                    /* index into demo.steps, -1 before the first */
    bool answer_shown;           /* a: the exercise step's answer under its caption */
    double dtype_value;          /* the value the number formats' table stores (d) */
    char dtype_input[32];        /* DM_DTYPES: the value as typed */

    /* Measured points (--points, or P). */
    struct points_doc points;
    bool have_points;
    char points_from[128];       /* device or file name for the legend */
    bool points_any_device;      /* --points-any-device: match points from another device */

    /* The fastest layouts that fit (b), best first. */
    struct plan plans[DASH_PLANS];
    int n_plans;
    /* The inference view (key i): its own scenario, figures and sliders. */
    struct infer_ui inf;
    /* The sweep panel (key w): a slider's range in place of the roofline. */
    struct sweep_view swv;
    /* The comparison (key x): the pinned scenario against the one shown. */
    struct compare_view cmp;

    /* The probe started with P (live terminal only). */
    bool allow_probe;
    struct probe_child *probe;
    int probe_done, probe_total;
    char probe_what[64];
};

/* Sets up the dashboard on scenario sc (which must validate), loading presets. color and
 * utf8 choose the scheme and the character set. Returns false with one line in err. */
bool dash_init(struct dash *d, const struct scenario *sc, bool color, bool utf8, char *err,
               size_t errlen);
void dash_free(struct dash *d);

/* Where each panel goes for this state (the caption's length, the ops toggle) at cols x rows:
 * the frame draws into it and the mouse is hit-tested against it. */
void dash_layout(const struct dash *d, int cols, int rows, struct layout *L);

/* The demo step shown: its heading ("Step 2/9 title:") into head, its caption into *text;
 * false when no step is shown. */
bool dash_caption(const struct dash *d, char *head, size_t n, const char **text);

/* Where the caption's text goes in its panel r: the whole width when it fits in r's rows;
 * otherwise it is read a page of r.h lines at a time (c), short of DASH_CAPTION_KEYS_W
 * columns on the right where the keys go. Sets *text; returns the lines it takes there. */
#define DASH_CAPTION_KEYS_W 34
int dash_caption_area(const struct dash *d, struct rect r, struct rect *text);
/* The lines the caption wants at cols columns (0 when no step is shown), for the layout. */
int dash_caption_rows(const struct dash *d, int cols);

/* Applies a candidate scenario after a change of slider `moved` (-1 for a whole new
 * scenario): inputs that must give way settle toward what the user last asked of them
 * (scenario_settle); if it still does not validate the old numbers stay and the status line
 * says what is wrong and which inputs fix it. Returns true when applied. */
bool dash_try(struct dash *d, const struct scenario *cand, int moved);
/* The candidate as dash_try would show it, without applying it: the inputs that must give
 * way settled toward the user's wishes (*want: d's, updated with the moved input; all of the
 * candidate's for moved -1), a note of what gave way in note. False when it does not
 * validate, with the input at fault in *key and what is wrong in msg. */
bool dash_settle(const struct dash *d, const struct scenario *cand, int moved,
                 struct scenario *c, struct scenario *want, char *note, char *msg, size_t n,
                 const char **key);

/* The figures on screen, from the scenario and the points by the core's one evaluation: once
 * per change (every change goes through dash_try, the points through dash_points.h). */
void dash_recompute(struct dash *d);
/* Makes mode m (typed, measured, predicted) the MFU of what is shown and of what is asked. */
void dash_set_mfu_mode(struct dash *d, enum mfu_mode m);
/* What the sweep panel sweeps (ui/sweep_view.h): the presets, the scenario and the points. */
struct sweep_view_of dash_sweep_of(const struct dash *d);

/* Sets the status line (printf-style); error colours it as an error. */
void dash_status(struct dash *d, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
