/* dash_prompt.c - the typed line: a slider's exact value, or a file name (with the open list). */
#include "dash_prompt.h"

#include <stdio.h>
#include <string.h>

#include "dash_files.h"
#include "screen.h"

void dash_prompt_start(struct dash *d, enum dash_mode m, const char *text)
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


/* A token length typed as "8k" reads 8000 as everywhere: the status line names both
 * readings (8Ki = 8192), before any note the settling of the other inputs left. */
static void note_reading(struct dash *d, int id)
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

void dash_prompt_key(struct dash *d, uint32_t k)
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
    } else if (k == UK_CTRL_U) {
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
            if (!slider_parse(&d->presets, &c, d->focus, d->input, err,
                              sizeof err)) {
                dash_status(d, true, "%s", err);
            } else {
                d->status[0] = '\0';
                if (dash_try(d, &c, d->focus))
                    note_reading(d, d->focus);
            }
        } else {
            dash_files_finish(d);
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
