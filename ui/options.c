/* options.c - command-line options of the dashboard and of snapshot. */
#include "options.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dash_demo.h"
#include "dash_files.h"
#include "dash_points.h"
#include "inputs.h"
#include "keys.h"
#include "points.h"
#include "scenario_check.h"
#include "scenario_file.h"

bool ui_options_parse(int argc, char **argv, int first, bool snapshot, struct ui_options *o,
                      char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    inputs_defaults(&o->sc);
    o->cols = 120;
    o->rows = 40;
    o->format = "txt";
    /* The dashboard's own flags, then snapshot's; scenario options come from the registry. */
    static const struct cli_flag own[] = {
        {"no-color", false}, {"ascii", false}, {"scenario", true}, {"points", true},
        {"points-any-device", false}, {"force", false},
        {"size", true},      {"keys", true},   {"format", true},   {"out", true},
    };
    struct cli_args args;
    cli_args_init(&args, argc, argv, first, &o->sc, own,
                  snapshot ? sizeof own / sizeof own[0] : 6);
    /* snapshot's flags given to the dashboard: say where they belong. */
    static const char *const hints[][2] = {
        {"size", "a snapshot option: rooftop snapshot --size COLSxROWS; the dashboard fills "
                 "the terminal"},
        {"keys", "a snapshot option: rooftop snapshot --keys KEYS"},
        {"format", "rooftop report --format text|json|csv|md prints the report, rooftop "
                   "snapshot --format txt|ansi|svg the screen"},
        {"out", "a snapshot option: rooftop snapshot --out FILE; e exports the report"},
    };
    if (!snapshot) {
        args.hints = hints;
        args.n_hints = sizeof hints / sizeof hints[0];
    }
    const struct cli_flag *f;
    const char *v;
    int r;
    while ((r = cli_next(&args, &f, &v)) != CLI_END) {
        if (r == CLI_ERROR) {
            snprintf(err, errlen, "%s", args.err);
            return false;
        }
        if (r == CLI_HELP) {
            o->help = true;
            continue;
        }
        size_t k = (size_t)(f - own);
        if (k == 0) {
            o->no_color = true;
        } else if (k == 1) {
            o->ascii = true;
        } else if (k == 2) {
            /* A lecture demo has steps; a scenario file is loaded onto the options so far. */
            if (demo_is_file(v)) {
                o->demo = v;
                continue;
            }
            if (!scenario_load(v, &o->sc, err, errlen))
                return false;
            o->scenario_file = v;
        } else if (k == 3) {
            o->points = v;
        } else if (k == 4) {
            o->points_any_device = true;
        } else if (k == 5) {
            o->force = true;
        } else if (k == 6) {
            if (!keys_parse_size(v, 1000, &o->cols, &o->rows)) {
                snprintf(err, errlen, "--size: want COLSxROWS between 1x1 and 1000x1000, e.g. 120x40");
                return false;
            }
        } else if (k == 7) {
            o->keys = v;
        } else if (k == 8) {
            o->format = v;
        } else {
            o->out = v;
        }
    }
    if (o->help)
        return true;
    char verr[512];
    if (!scenario_validate(&o->sc, verr, (int)sizeof verr)) {
        snprintf(err, errlen, "%s", verr);
        return false;
    }
    return true;
}

bool ui_dash_from_options(struct dash *d, const struct ui_options *o, bool color, bool utf8,
                          char *err, size_t errlen)
{
    if (!dash_init(d, &o->sc, color, utf8, err, errlen))
        return false;
    if (o->scenario_file)
        dash_remember_path(d, o->scenario_file);
    if (o->demo && !dash_demo_open(d, o->demo, 0, err, errlen)) {
        dash_free(d);
        return false;
    }
    if (o->demo)
        d->start = d->sc;
    d->points_any_device = o->points_any_device;
    if (o->points) {
        struct points_doc doc;
        points_init(&doc);
        if (!points_load_file(o->points, &doc, err, errlen)) {
            points_free(&doc);
            dash_free(d);
            return false;
        }
        dash_set_points(d, &doc, o->points);
    }
    return true;
}

void ui_options_help(FILE *f, bool snapshot)
{
    if (snapshot) {
        fputs("usage: rooftop snapshot [--size COLSxROWS] [--scenario NAME|FILE] [--keys KEYS]\n"
              "                        [--points FILE] [--format txt|ansi|svg] [--out FILE] [--force]\n"
              "                        [--no-color] [--ascii] [scenario options]\n"
              "Renders the dashboard without a terminal, after the keys, with the same code.\n"
              "  --size COLSxROWS   terminal size (default 120x40)\n"
              "  --format F         txt (default), ansi (colours as escapes), svg\n"
              "  --out FILE         write there instead of standard output\n",
              f);
        fputs(keys_help_text, f);
    } else {
        fputs("usage: rooftop [--scenario NAME|FILE] [--points FILE] [--no-color] [--ascii] [--force]\n"
              "               [scenario options]\n"
              "Opens the dashboard (a text report when standard output is not a terminal or\n"
              "TERM=dumb). Press ? in it for the keys.\n",
              f);
    }
    fputs("  --scenario NAME|FILE  a scenario file (as saved with s), or a demo with steps\n"
          "                     (--scenario lecture, --scenario inference: NAME.json on the\n"
          "                     search path)\n"
          "  --points FILE      measured points (rooftop probe --out FILE) on the roofline; the\n"
          "                     scenario's GEMM shapes among them fill the ops table's measured\n"
          "                     column (M: their efficiency as the MFU) when they were measured\n"
          "                     on the scenario's GPU\n"
          "  --points-any-device  use them on any GPU's scenario all the same\n"
          "  --force            save over files that are read-only to you or have other hard\n"
          "                     links (refused otherwise, as cp and editors refuse)\n"
          "  --no-color         monochrome (also when NO_COLOR is set)\n"
          "  --ascii            ASCII only (also when the locale is not UTF-8)\n",
          f);
    cli_scenario_help(f);
}
