/* slider.h - the dashboard's sliders: each input's allowed steps, range, value and text. */
#ifndef ROOFTOP_UI_SLIDER_H
#define ROOFTOP_UI_SLIDER_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs.h"
#include "presets.h"
#include "scenario.h"

/* A slider's id is its position among the registry's visible rows (those without
 * INPUT_HIDDEN), in table order: nothing lists them by hand. Code that means one slider
 * looks it up by key (slider_id("tp")). SLIDER_MAX bounds how many there may be. */
#define SLIDER_MAX 48

/* How many sliders there are: the registry's visible rows. */
int slider_count(void);
/* The slider of the registry key ("micro_batch"), or -1 when that input has none. */
int slider_id(const char *key);

/* Most steps any slider has. */
#define SLIDER_MAX_STEPS 200

/* The registry row behind a slider (the first row for an id that is none). */
const struct input *slider_input(int id);
/* The slider whose key or label is s (case-insensitive), or -1. */
int slider_find(const char *s);

/* The allowed steps of a slider for this scenario, ascending; returns how many (>= 1).
 * Model and GPU sliders step over preset indices; enumerations over their values. */
int slider_steps(const struct presets *p, const struct scenario *s, int id,
                 double *vals, int max);
/* The slider's current value in the same terms as its steps (the model slider gives a
 * fractional ladder position for a custom size). */
double slider_value(const struct presets *p, const struct scenario *s, int id);
/* The knob's position along the track, 0..1. */
double slider_position(const struct presets *p, const struct scenario *s, int id);
/* The range every value must stay in (inclusive). */
void slider_range(const struct presets *p, const struct scenario *s, int id,
                  double *lo, double *hi);

/* Sets the slider's value onto s (clamped to the range). Returns false when v names nothing
 * (an empty ladder). */
bool slider_apply(const struct presets *p, struct scenario *s, int id, double v);
/* Moves by delta steps (negative: down); big moves by a quarter of the steps at a time.
 * Returns false when already at that end. */
bool slider_step(const struct presets *p, struct scenario *s, int id, int delta);
/* Moves to the step nearest position frac (0..1) along the track. */
bool slider_set_position(const struct presets *p, struct scenario *s, int id,
                         double frac);
/* Home / End. */
bool slider_set_end(const struct presets *p, struct scenario *s, int id, bool top);

/* Parses typed text ("53B", "8Ki", "bf16", "llama2-7b", "on") onto s with the registry's
 * grammar and range, exactly as the command line and files do. On error writes one line
 * ("GPUs: '12x' is not a number") to err and returns false; s is then unchanged. */
bool slider_parse(const struct presets *p, struct scenario *s, int id,
                  const char *text, char *err, size_t errlen);

/* The value as the registry writes it ("70B", "15T", "4096", "h100-sxm", "bf16", "auto"),
 * which typed back gives the same value; past SLIDER_VALUE_W characters a rounded "~6.74B". */
#define SLIDER_VALUE_W 13
void slider_format(const struct presets *p, const struct scenario *s, int id,
                   char *buf, size_t n);

/* Whether the scenario's value lies within the slider's range (the key fuzz checks it). */
bool slider_in_range(const struct presets *p, const struct scenario *s, int id);

#endif
