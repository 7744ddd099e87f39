/* dash_files.c - the scenario's files: s saves, o opens (a scenario, a model, a demo), e exports. */
#include "dash_files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dash_demo.h"
#include "files.h"
#include "inputs.h"
#include "report.h"
#include "scenario_file.h"
#include "spec.h"
#include "units.h"

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
    if (dash_try(d, &c, slider_id("model"))) {
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
    inputs_defaults(&c);
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

void dash_files_finish(struct dash *d)
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

void dash_files_confirm(struct dash *d, uint32_t k)
{
    d->mode = DM_NORMAL;
    if (k == 'y' || k == 'Y') {
        do_prompt(d, d->confirm_of, d->input);
        return;
    }
    dash_status(d, false, "%s: left as it was (%s again to choose another name)", d->input,
                d->confirm_of == DM_SAVE ? "s" : "e");
}
