/* infer_ui.h - the dashboard's inference view (key i): its scenario, figures and sliders. */
#ifndef ROOFTOP_UI_INFER_UI_H
#define ROOFTOP_UI_INFER_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "evaluation.h"
#include "infer.h"
#include "presets.h"
#include "scenario.h"

enum infer_slider {
    IS_MODEL, IS_GPU, IS_TP, IS_BATCH, IS_PROMPT, IS_GENERATE, IS_DTYPE, IS_WEIGHTS, IS_KV,
    IS_COUNT
};

struct infer_ui {
    bool on;                     /* the dashboard shows inference instead of training */
    bool ready;                  /* ev holds a valid scenario and its figures */
    /* The view's one evaluation (evaluation_serve: ev.sc, always valid once ready, and its
     * serving figures ev.serving), redone once per change. */
    struct evaluation ev;
    int focus;                   /* a slider, or IS_COUNT.. for the panels after them */
};

/* On screen: "batch", "KV dtype", ... */
const char *infer_ui_name(int id);

/*
 * Starts the view from the training scenario: its model when it is a preset (else
 * Llama-2-7B, or the preset nearest it in size whose context holds the typed prompt +
 * generate, else the first preset), its GPU, and the serving inputs typed with it (prompt,
 * generate, the storage dtypes, the efficiencies; prompt 2048 and generate 256 untyped); tp
 * 1, batch 1. Where the model's context cannot hold the typed prompt + generate, the prompt
 * is shortened (generate kept) and err says so; else err is empty. False with one line in
 * err when nothing validates (no presets).
 */
bool infer_ui_open(struct infer_ui *u, const struct presets *p, const struct scenario *train,
                   char *err, size_t errlen);

/* Shows scenario s (a demo step's). False with one line in err when it does not validate;
 * the view keeps its scenario then. */
bool infer_ui_show(struct infer_ui *u, const struct scenario *s, char *err, size_t errlen);

/* The slider of a serving input's key ("batch", "kv_dtype"), or -1. */
int infer_ui_find(const char *key);

/*
 * Moves slider id by delta steps, or to its end (to_end: delta's sign picks which). Inputs
 * that the move forces are adjusted (a model whose heads tp does not divide lowers tp; a
 * shorter context shortens prompt and generation). When the result does not validate, the
 * old scenario stays and err says why. Returns true when the scenario changed.
 */
bool infer_ui_move(struct infer_ui *u, const struct presets *p, int id, int delta, bool to_end,
                   char *err, size_t errlen);

/* The knob's position along the track, 0..1, and the value as text ("llama2-7b", "2k"). */
double infer_ui_position(const struct infer_ui *u, const struct presets *p, int id);
void infer_ui_format(const struct infer_ui *u, int id, char *buf, size_t n);

#endif
