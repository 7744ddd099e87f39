/* lecture_screen.h - what a lecture step that chooses its screen shows, and where: its
 * "_panels" stacked beside its "_sliders", its caption a box of up to DEMO_CAPTION_ROWS lines
 * at the bottom that reads in one page at 80 x 24. Pure geometry from the demo and the step;
 * ui/lecture_view.c draws it. Steps without "_panels" or "_sliders" keep the dashboard's. */
#ifndef ROOFTOP_UI_LECTURE_SCREEN_H
#define ROOFTOP_UI_LECTURE_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "demo.h"
#include "layout.h"
#include "screen.h"
#include "slider.h"

/* The lecture's panels beside the dashboard's, where lecture_layout puts them. */
enum lecture_panel { LP_DTYPES, LP_CHECKPOINT, LP_TOY, LP_CONTRACTS, LP_COUNT };

/* The panels after the sliders in focus order (FOCUS_MEMORY, ... in dash.h). */
#define LECTURE_FOCUS_PANELS 4

/* Step `step` of demo when it chooses its panels or sliders and the training view is on
 * (inference false), else NULL. */
const struct demo_step *lecture_step_of(const struct demo *demo, int step, bool inference);
/* Whether dashboard panel name ("memory", "compute", ...) is on screen: always without a
 * lecture step (st NULL), else when st lists it (a step of sliders alone shows none). */
bool lecture_shows(const struct demo_step *st, const char *name);
/* The sliders listed, in st's order (every slider when st is NULL or lists none); returns
 * how many. */
int lecture_sliders(const struct demo_step *st, int ids[SLIDER_MAX]);
/* Whether focus f (a slider id, or SLIDER_MAX + k for the k-th panel) is on screen. */
bool lecture_focusable(const struct demo_step *st, int f);
/* The sliders' rows in panel r (layout_sliders over those listed) for the focus: ids gets
 * them; returns how many, *pos the focus's place among them (n when it is none). */
int lecture_slider_geom(const struct demo_step *st, int focus, struct rect r,
                        struct slider_geom *g, int ids[SLIDER_MAX], int *pos);

/* The caption's texts: the step's caption, then its answer when shown (or how to show it);
 * head gets "Step 2/12 title" for the box's top rule. Returns how many texts (0: no step). */
int lecture_caption(const struct demo *demo, int step, bool answer_shown, char *head,
                    size_t head_n, char *ans, size_t ans_n, const char *texts[2]);

/* Places step st of demo at cols x rows: L's P_CAPTION is the caption box's text area (its
 * rules one cell around it), extra (may be NULL) the lecture panels' rects. n_ops sizes the
 * operations table. */
void lecture_layout(const struct demo *demo, int step, bool answer_shown, int n_ops, int cols,
                    int rows, struct layout *L, struct rect extra[LP_COUNT]);

#endif
