/* slider.h - the dashboard's sliders: each input's allowed steps, range, value and text. */
#ifndef ROOFTOP_UI_SLIDER_H
#define ROOFTOP_UI_SLIDER_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs.h"
#include "presets.h"
#include "scenario.h"

enum slider_id {
    SL_MODEL,      /* preset ladder by size */
    SL_PARAMS,     /* continuous custom size */
    SL_TOKENS,
    SL_BATCH,
    SL_SEQ,
    SL_MICRO,
    SL_GPU,
    SL_GPUS,
    SL_TP,
    SL_SP,
    SL_PP,
    SL_CP,
    SL_EP,
    SL_ZERO,
    SL_DTYPE,
    SL_MASTER,
    SL_GRAD_DTYPE,
    SL_OPTIMIZER,
    SL_RECOMPUTE,
    SL_FLASH,
    SL_MFU,
    SL_FLOPS,
    SL_ATTN_FLOPS,
    SL_COUNT
};

/* Most steps any slider has. */
#define SLIDER_MAX_STEPS 200

/* The registry row behind a slider: the sliders are the registry's visible inputs, in its
 * order (tests/test_inputs.c checks that enum slider_id follows it). */
const struct input *slider_input(enum slider_id id);
/* The slider whose key or label is s (case-insensitive), or -1. */
int slider_find(const char *s);

/* The allowed steps of a slider for this scenario, ascending; returns how many (>= 1).
 * Model and GPU sliders step over preset indices; enumerations over their values. */
int slider_steps(const struct presets *p, const struct scenario *s, enum slider_id id,
                 double *vals, int max);
/* The slider's current value in the same terms as its steps (the model slider gives a
 * fractional ladder position for a custom size). */
double slider_value(const struct presets *p, const struct scenario *s, enum slider_id id);
/* The knob's position along the track, 0..1. */
double slider_position(const struct presets *p, const struct scenario *s, enum slider_id id);
/* The range every value must stay in (inclusive). */
void slider_range(const struct presets *p, const struct scenario *s, enum slider_id id,
                  double *lo, double *hi);

/* Sets the slider's value onto s (clamped to the range). Returns false when v names nothing
 * (an empty ladder). */
bool slider_apply(const struct presets *p, struct scenario *s, enum slider_id id, double v);
/* Moves by delta steps (negative: down); big moves by a quarter of the steps at a time.
 * Returns false when already at that end. */
bool slider_step(const struct presets *p, struct scenario *s, enum slider_id id, int delta);
/* Moves to the step nearest position frac (0..1) along the track. */
bool slider_set_position(const struct presets *p, struct scenario *s, enum slider_id id,
                         double frac);
/* Home / End. */
bool slider_set_end(const struct presets *p, struct scenario *s, enum slider_id id, bool top);

/* Parses typed text ("53B", "8Ki", "bf16", "llama2-7b", "on") onto s with the registry's
 * grammar and range, exactly as the command line and files do. On error writes one line
 * ("GPUs: '12x' is not a number") to err and returns false; s is then unchanged. */
bool slider_parse(const struct presets *p, struct scenario *s, enum slider_id id,
                  const char *text, char *err, size_t errlen);

/* The value as the registry writes it ("70B", "15T", "4096", "h100-sxm", "bf16", "auto"),
 * which typed back gives the same value; past SLIDER_VALUE_W characters a rounded "~6.74B". */
#define SLIDER_VALUE_W 13
void slider_format(const struct presets *p, const struct scenario *s, enum slider_id id,
                   char *buf, size_t n);

/* Whether the scenario's value lies within the slider's range (the key fuzz checks it). */
bool slider_in_range(const struct presets *p, const struct scenario *s, enum slider_id id);

#endif
