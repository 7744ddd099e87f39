/* options.c - command-line options of the dashboard and of snapshot. */
#include "options.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "keys.h"
#include "points.h"
#include "scenario_file.h"

/* The value of --flag VALUE or --flag=VALUE at argv[*i]; NULL when missing. */
static const char *flag_value(int argc, char **argv, int *i, const char *flag)
{
    size_t n = strlen(flag);
    const char *a = argv[*i];
    if (strncmp(a, flag, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a[n + 1] ? a + n + 1 : NULL;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static bool is_flag(const char *a, const char *flag)
{
    size_t n = strlen(flag);
    return strncmp(a, flag, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

static bool parse_size(const char *v, int *cols, int *rows)
{
    char *end;
    long c = strtol(v, &end, 10);
    if (end == v || (*end != 'x' && *end != 'X'))
        return false;
    const char *r0 = end + 1;
    long r = strtol(r0, &end, 10);
    if (end == r0 || *end || c < 1 || r < 1 || c > 1000 || r > 1000)
        return false;
    *cols = (int)c;
    *rows = (int)r;
    return true;
}

bool ui_options_parse(int argc, char **argv, int first, bool snapshot, struct ui_options *o,
                      char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    scenario_default(&o->sc);
    o->cols = 120;
    o->rows = 40;
    o->format = "txt";
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
            continue;
        }
        if (strcmp(a, "--no-color") == 0) {
            o->no_color = true;
            continue;
        }
        if (strcmp(a, "--ascii") == 0) {
            o->ascii = true;
            continue;
        }
        if (is_flag(a, "--scenario")) {
            if (!(v = flag_value(argc, argv, &i, "--scenario"))) {
                snprintf(err, errlen, "--scenario: needs a file");
                return false;
            }
            if (lecture_is_demo(v)) {
                o->demo = v;
                continue;
            }
            if (!scenario_load(v, &o->sc, err, errlen))
                return false;
            o->scenario_file = v;
            continue;
        }
        if (is_flag(a, "--points")) {
            if (!(v = flag_value(argc, argv, &i, "--points"))) {
                snprintf(err, errlen, "--points: needs a file");
                return false;
            }
            o->points = v;
            continue;
        }
        if (strcmp(a, "--points-any-device") == 0) {
            o->points_any_device = true;
            continue;
        }
        if (snapshot && is_flag(a, "--size")) {
            if (!(v = flag_value(argc, argv, &i, "--size")) || !parse_size(v, &o->cols, &o->rows)) {
                snprintf(err, errlen, "--size: want COLSxROWS between 1x1 and 1000x1000, e.g. 120x40");
                return false;
            }
            continue;
        }
        if (snapshot && is_flag(a, "--keys")) {
            if (!(v = flag_value(argc, argv, &i, "--keys"))) {
                snprintf(err, errlen, "--keys: needs a key sequence");
                return false;
            }
            o->keys = v;
            continue;
        }
        if (snapshot && is_flag(a, "--format")) {
            if (!(v = flag_value(argc, argv, &i, "--format"))) {
                snprintf(err, errlen, "--format: needs txt, ansi or svg");
                return false;
            }
            o->format = v;
            continue;
        }
        if (snapshot && is_flag(a, "--out")) {
            if (!(v = flag_value(argc, argv, &i, "--out"))) {
                snprintf(err, errlen, "--out: needs a file");
                return false;
            }
            o->out = v;
            continue;
        }
        int r = cli_scenario_option(&o->sc, argc, argv, &i, err, errlen);
        if (r < 0)
            return false;
        if (r == 0) {
            snprintf(err, errlen, "unknown option '%.80s' (see --help)", a);
            return false;
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
    if (o->demo && !dash_lecture_open(d, o->demo, 0, err, errlen)) {
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
        fputs("usage: rooftop snapshot [--size COLSxROWS] [--scenario FILE] [--keys KEYS]\n"
              "                        [--points FILE] [--format txt|ansi|svg] [--out FILE]\n"
              "                        [--no-color] [--ascii] [scenario options]\n"
              "Renders the dashboard without a terminal, after the keys, with the same code.\n"
              "  --size COLSxROWS   terminal size (default 120x40)\n"
              "  --format F         txt (default), ansi (colours as escapes), svg\n"
              "  --out FILE         write there instead of standard output\n",
              f);
        fputs(keys_help_text, f);
    } else {
        fputs("usage: rooftop [--scenario FILE] [--points FILE] [--no-color] [--ascii] [scenario options]\n"
              "Opens the dashboard (a text report when standard output is not a terminal or\n"
              "TERM=dumb). Press ? in it for the keys.\n",
              f);
    }
    fputs("  --scenario FILE    a scenario file (as saved with s), or a lecture demo with steps\n"
          "                     (specs/scenarios/lecture.json)\n"
          "  --points FILE      measured points (rooftop probe --out FILE) on the roofline; the\n"
          "                     scenario's GEMM shapes among them fill the ops table's measured\n"
          "                     column (M: their efficiency as the MFU) when they were measured\n"
          "                     on the scenario's GPU\n"
          "  --points-any-device  use them on any GPU's scenario all the same\n"
          "  --no-color         monochrome (also when NO_COLOR is set)\n"
          "  --ascii            ASCII only (also when the locale is not UTF-8)\n",
          f);
    cli_scenario_help(f);
}
