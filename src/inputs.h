/* inputs.h - every scenario input in one table: its key, kind, range, grammar, text and help.
 *
 * The command line (--micro-batch), the scenario files ("micro_batch"), the dashboard's sliders,
 * --help and the man page's option list all come from this table. Adding an input is one row in
 * inputs.c (its field in struct scenario; the row carries its default and range, and where
 * another input bounds it, names its rules in src/rules.c) plus its use in the accounting.
 * Its slider, flag, file key, help line and man page entry follow from the row.
 *
 * One grammar everywhere (flags, files, typed dashboard values):
 *   - numbers: 1500, 1.5e3, 0.5; decimal suffixes k/K = 1e3, M = 1e6, B/G = 1e9, T = 1e12,
 *     P = 1e15 (so "4k" is 4000); binary suffixes Ki = 2^10, Mi = 2^20, Gi = 2^30, Ti = 2^40
 *     (so "4Ki" is 4096 and "128Ki" is 131072); a trailing "B" for bytes ("80GB", "2GiB");
 *   - fractions also as percentages ("50%" = 0.5);
 *   - on/off: on/off, true/false, yes/no, 1/0, in any case;
 *   - words (dtype, optimizer, ...) in any case.
 * What inputs_format writes reads back through inputs_parse as the same value.
 */
#ifndef ROOFTOP_INPUTS_H
#define ROOFTOP_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rules.h"
#include "scenario.h"

enum input_kind {
    INPUT_COUNT,    /* a whole number: GPUs, degrees, batch, layers */
    INPUT_SIZE,     /* a large quantity written in human units: parameters, tokens */
    INPUT_FRACTION, /* a fraction in (0, 1]: the MFU */
    INPUT_ENUM,     /* one of a list of words */
    INPUT_ONOFF,    /* on or off */
    INPUT_NAME,     /* a preset name or a file (model, GPU), or free text (the title) */
};

/* How a slider steps through an input's values. */
enum input_steps {
    STEPS_NONE,     /* no slider */
    STEPS_NICE,     /* 1, 1.5, 2, 3, 5, 7 per decade from step_lo to step_hi */
    STEPS_POW2,     /* powers of two from step_lo to step_hi */
    STEPS_LINEAR,   /* step_lo, step_lo + step, ... step_hi */
    STEPS_WORDS,    /* each word of an enumeration or on/off, in table order */
    STEPS_MODELS,   /* the dashboard's model presets, by size */
    STEPS_GPUS,     /* the dashboard's GPU presets */
    STEPS_SIZES,    /* a custom size: STEPS_NICE; a named model: its family's preset sizes */
};

enum input_flags {
    INPUT_MODEL_FIELD = 1u << 0, /* a field of the model's architecture */
    INPUT_AUTO_ZERO = 1u << 1,   /* 0 is "auto" (written and read as "auto") */
    INPUT_HIDDEN = 1u << 2,      /* kept out of the dashboard's slider list */
    INPUT_AUTO_NEG = 1u << 3,    /* -1 is "auto", for a number whose 0 means something */
    INPUT_OF_MODEL = 1u << 4,    /* the model's own figure (its size): the model's check */
};

struct input;

/* The accessors of an input whose value is not one plain field (model, GPU, params, ...). */
struct input_ops {
    /* The value as a number (an enum's index, on = 1); NaN for names. */
    double (*get)(const struct scenario *s);
    /* Sets an already-validated number. */
    void (*set)(struct scenario *s, double v);
    /* Names: parses and sets; one line in err without the key. */
    bool (*parse_name)(struct scenario *s, const char *text, char *err, size_t errlen);
    /* Names: the text form. */
    void (*format_name)(const struct scenario *s, char *buf, size_t n);
    /* Names found on the search path: the built-in value when the default is not found
     * there (the GPU's h100-sxm.json missing), or NULL. */
    void (*builtin)(struct scenario *s);
};

struct input {
    const char *key;          /* scenario key; the flag is --key with '_' written '-' */
    const char *label;        /* on the dashboard: "microbatch" */
    enum input_kind kind;
    const char *unit;         /* "sequences", "tokens", "" */
    double lo, hi;            /* valid range of numbers, inclusive (0 with INPUT_AUTO_ZERO) */
    const char *const *words; /* ENUM/ONOFF: the words in value order */
    int n_words;
    const char *metavar;      /* in --help: "N", "NAME|FILE" */
    const char *help;         /* one line */
    const char *depends;      /* keys whose values bound this one ("batch gpus"), or "": then
                               * its check reads its own value alone */
    unsigned flags;
    enum input_steps steps;
    double step_lo, step_hi, step; /* the slider's first and last step, a linear step */
    /* Plain fields: where the value lives in struct scenario and its C type. */
    size_t offset;
    enum { FIELD_NONE, FIELD_I64, FIELD_INT, FIELD_BOOL, FIELD_DOUBLE } field;
    const struct input_ops *ops; /* instead of the field, when set */
    /* Its rules with the other inputs (src/rules.h), each NULL for none: the check beyond
     * the range [lo, hi] above, the give-way rule, its level (both run after the levels
     * before it: a micro-batch splits what the layout leaves) and where the scenario
     * narrows the slider's steps. */
    rules_check_fn *check;
    rules_give_way_fn *give_way;
    enum settle_level level;
    rules_steps_fn *step_bounds;
    /* The default, in the grammar below as a flag takes it ("2048", "bf16", "auto", "2GB",
     * "h100-sxm"); inputs_defaults applies it. NULL: the model's own figure (its fields and
     * size come with the model) or none (the title). */
    const char *def;
};

/* The table, in the order in which a file's keys are applied (model, params, the model's
 * fields, gpu, then the rest), so that a later key is never undone by an earlier one. */
int inputs_count(void);
const struct input *inputs_at(int i);
/* The input named key ('-' and '_' alike, as in flags and files), or NULL. */
const struct input *inputs_find(const char *key);
/* Its position in the table, or -1. */
int inputs_index(const struct input *in);

/* For tests only: inserts row (which must live as long as the program) before the row named
 * before (NULL: at the end), as if the table held it there: --help, the man page, the
 * command line, files and the sliders all see it. False when full or the key is taken. */
bool inputs_test_insert(const struct input *row, const char *before);

/* A scenario of every row's default, applied in table order (the model before its fields,
 * the GPU before the dtype): what a command starts from before its flags or a file. */
void inputs_defaults(struct scenario *s);

/* The flag's spelling: "micro-batch" for micro_batch. */
void inputs_flag(const struct input *in, char *buf, size_t n);

/* Parses text with the grammar above, checks the range and sets it on s. On error writes
 * what is wrong ("'12x' is not a number", "5 is out of range (0 to 3)") to err, without the key,
 * and leaves s unchanged. A model field clears the exact count of a --params model. */
bool inputs_parse(const struct input *in, struct scenario *s, const char *text, char *err,
                  size_t errlen);

/*
 * A token length typed with a decimal suffix ("--seq 8k") is read as the grammar says, 8000,
 * where a "8k context" often means 8192: then a note naming both readings, "8k = 8000 tokens
 * (k = 1000); 8Ki = 8192 (Ki = 1024)", for the command line's warning and the slider
 * editor's status line. False with buf empty for any other input or text.
 */
bool inputs_reading_note(const struct input *in, const char *text, char *buf, size_t n);

/* Whether s's value lies in the row's range (its words for an enumeration); otherwise what
 * is wrong in msg, as inputs_parse says it ("7 is out of range (0 to 3)"). */
bool inputs_check_range(const struct input *in, const struct scenario *s, char *msg, size_t n);

/* Copies the input's value from src to dst: the whole model for the model and its size, the
 * GPU, the name; a number as inputs_set. */
void inputs_copy(const struct input *in, struct scenario *dst, const struct scenario *src);

/* Whether a and b hold the same value of the input: for a name, the same model or GPU byte
 * for byte (copies of one scenario are), or the same title; for a number, the same number. */
bool inputs_same(const struct input *in, const struct scenario *a, const struct scenario *b);

/* Whether v is the input's "auto" (0 with INPUT_AUTO_ZERO, -1 with INPUT_AUTO_NEG). */
bool inputs_is_auto(const struct input *in, double v);

/* on/off, true/false, yes/no, 1/0 in any case. */
bool inputs_parse_onoff(const char *text, bool *out);

/* The value of s as exact text: inputs_parse of it sets the same value. */
void inputs_format(const struct input *in, const struct scenario *s, char *buf, size_t n);
/* For a narrow cell: the exact text when it fits width, otherwise a rounded "~6.74B". */
void inputs_display(const struct input *in, const struct scenario *s, char *buf, size_t n,
                    size_t width);

/* The numeric value (an enumeration's index, on = 1, NaN for names). */
double inputs_get(const struct input *in, const struct scenario *s);
/* Sets a number, which must lie in [lo, hi] (false and s unchanged otherwise). */
bool inputs_set(const struct input *in, struct scenario *s, double v);

/* Writes a count exactly in the shortest of plain digits, a decimal or a binary suffix
 * (2048, "131Ki"... ), as inputs_format does for counts; plain digits below 100000. */
void inputs_format_count(double v, char *buf, size_t n);

/* " (default: 2048)" after an input's help line, "" for one without a default of its own. */
void inputs_default_text(const struct input *in, char *buf, size_t n);

/* The option list of --help (the man page's: manpage_options). */
void inputs_help(FILE *f);

#endif
