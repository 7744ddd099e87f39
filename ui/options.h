/* options.h - the command line shared by the dashboard and `rooftop snapshot`. */
#ifndef ROOFTOP_UI_OPTIONS_H
#define ROOFTOP_UI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dash.h"
#include "scenario.h"

struct ui_options {
    struct scenario sc;
    const char *demo;          /* --scenario FILE with "steps": a lecture demo */
    const char *scenario_file; /* the last plain --scenario FILE (the default name for s) */
    const char *points;        /* --points FILE */
    bool points_any_device;    /* --points-any-device: use them on another device's scenario */
    bool no_color, ascii, help;
    bool force;                /* --force: the writer replaces read-only and hard-linked files */
    /* snapshot only */
    int cols, rows;            /* --size */
    const char *keys;
    const char *format;
    const char *out;
};

/*
 * Parses argv[first..]: scenario options (as `rooftop report` takes them), --scenario FILE
 * (a scenario, or a lecture demo), --points FILE, --no-color, --ascii, --force, --help; with
 * snapshot also --size COLSxROWS, --keys KEYS, --format F, --out FILE. The scenario is
 * validated. On error writes one line to err and returns false.
 */
bool ui_options_parse(int argc, char **argv, int first, bool snapshot, struct ui_options *o,
                      char *err, size_t errlen);

/* Sets up a dashboard from the options: scenario, demo (at its first step), points. */
bool ui_dash_from_options(struct dash *d, const struct ui_options *o, bool color, bool utf8,
                          char *err, size_t errlen);

/* The options text for --help. */
void ui_options_help(FILE *f, bool snapshot);

#endif
