/* demo.h - the lecture demo: a scenario file with steps, each a set of overrides and a
 * caption, walked through with n and p. */
#ifndef ROOFTOP_UI_DEMO_H
#define ROOFTOP_UI_DEMO_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "infer.h"
#include "scenario.h"

#define DEMO_TEXT_MAX 512

/*
 * File format: a scenario object (applied first, as a scenario file) with a "steps" array.
 * Each step is an object of overrides in the scenario-file format plus:
 *   "title"     short name of the step
 *   "caption"   the sentence shown on screen
 *   "_focus"    the slider to focus (its key: "tokens", "gpus", ...) or a panel
 *               ("memory", "compute", "roofline", "ops")
 *   "_view"     "model" (the model's operations on the roofline, default), "lecture"
 *               (the lecture's five operations) or "inference" (the serving view, key i)
 *   "_infer"    with "_view": "inference", the serving inputs of `rooftop infer` by key
 *               ({"batch": 256, "prompt": "2Ki", "kv_dtype": "fp8"}), applied after the
 *               file's top-level "_infer"; model and GPU are the step's scenario's unless
 *               given here. The step is checked as `rooftop infer` checks its flags.
 *   "_panels"   what the screen shows, from "memory", "compute", "roofline", "ops" and the
 *               lecture's panels "dtypes", "checkpoint", "toy", "contracts" (absent: every panel of the
 *               dashboard); the caption is then a box of up to DEMO_CAPTION_ROWS lines
 *   "_sliders"  the inputs listed, by key ("params", "gpus", ...; [] for none; absent: all)
 *   "_answer"   an exercise's answer, hidden until the a key shows it under the caption
 *   "_toy"      with the "toy" panel: the lecture's toy network, {"kind": "accumulation"
 *               or "optimizer", "B": batch, "D": width, "L": layers, "micro": micro-batch}
 * Step k's scenario = inputs_defaults + the file's top-level keys + step k's keys: every
 * step stands alone, so stepping back needs no undo.
 */
#define DEMO_LIST_MAX 24
#define DEMO_NAME_MAX 24
/* Lines a lecture step's caption box holds (an 80 x 24 projector reads it in one page). */
#define DEMO_CAPTION_ROWS 6

enum demo_toy { DEMO_TOY_NONE, DEMO_TOY_ACCUMULATION, DEMO_TOY_OPTIMIZER };

struct demo_step {
    char title[128];
    char caption[DEMO_TEXT_MAX];
    char answer[DEMO_TEXT_MAX];  /* "" when none */
    char panels[DEMO_LIST_MAX][DEMO_NAME_MAX];
    int n_panels;                /* 0: the whole dashboard */
    char sliders[DEMO_LIST_MAX][DEMO_NAME_MAX];
    int n_sliders;
    bool have_sliders;           /* false: every slider */
    enum demo_toy toy;
    double toy_B, toy_D, toy_L, toy_micro;
    char focus[32];          /* "" when none */
    bool lecture_ops;        /* show the lecture's five operations */
    bool inference;          /* show the inference view on `infer` */
    struct scenario scenario;
    struct scenario infer;
};

struct demo {
    char name[SCENARIO_NAME_MAX];
    struct demo_step *steps;
    int n;
};

/* Whether the JSON file has a "steps" array (a demo rather than a plain scenario). Here and in
 * demo_load, a NAME without '/' or ".json" is specs/scenarios/NAME.json on the search path
 * (files.h), so `--scenario lecture` finds the installed demo. */
bool demo_is_file(const char *path);
/* Loads and checks every step (each must apply and validate). On error one line naming the
 * file and step in err. */
bool demo_load(const char *path, struct demo *l, char *err, size_t errlen);
/* As demo_load, from JSON text; origin names it in error messages. */
bool demo_parse(const char *text, size_t len, const char *origin, struct demo *l, char *err,
                   size_t errlen);
void demo_free(struct demo *l);

/* Whether step st lists panel name in "_panels" (a step without "_panels" lists none). */
bool demo_step_has_panel(const struct demo_step *st, const char *name);

#endif
