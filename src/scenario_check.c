/* scenario_check.c - every input checked and settled together, by walking the registry. */
#include "scenario_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "inputs.h"
#include "rules.h"

/* A row the range pass skips: names (their parsers check them), the model's fields and size
 * (model_validate, the model row's rule, checks them with the same limits). */
static bool range_checked(const struct input *in)
{
    return in->kind != INPUT_NAME && !(in->flags & (INPUT_MODEL_FIELD | INPUT_OF_MODEL));
}

/* The rows each pass walks, in its order, found once from the table (again only when it
 * grows: a test's row): a key press checks and settles a scenario several times, and the
 * walk is then no slower than the hand-written checks were. */
#define ROWS_MAX 128

/* A set of ranged rows, by their places in walk.ranged: bit r % 64 of bits[r / 64]. */
#define SET_WORDS (ROWS_MAX / 64)
struct row_set {
    uint64_t bits[SET_WORDS];
};

/* The 8-byte words of struct scenario. */
#define WORDS_MAX (sizeof(struct scenario) / 8)

/* One word of struct scenario that holds the numbers of range-checked rows: where it starts
 * and those rows. */
struct word {
    size_t at;
    struct row_set rows;
};

static struct {
    int rows; /* inputs_count() when found; -1 before */
    const struct input *ranged[ROWS_MAX], *checked[ROWS_MAX], *giving[ROWS_MAX];
    int n_ranged, n_checked, n_giving;
    /* The ranged rows by where their numbers live, for finding which of them a scenario
     * changed from its base: the plain fields by the word they lie in (a word that holds
     * base's bytes holds base's numbers), and the rows compared by their value (those
     * behind accessors, whose number is no field's bytes). */
    struct word words[WORDS_MAX];
    int n_words;
    struct row_set by_value;
} walk = {.rows = -1};

static void set_add(struct row_set *set, int r)
{
    set->bits[r / 64] |= (uint64_t)1 << (r % 64);
}

static bool set_has(const struct row_set *set, int r)
{
    return (set->bits[r / 64] >> (r % 64)) & 1u;
}

/* The bytes of row in's field, 0 for a row behind accessors or without a field. */
static size_t field_size(const struct input *in)
{
    if (in->ops != NULL)
        return 0;
    switch (in->field) {
    case FIELD_I64:
        return sizeof(int64_t);
    case FIELD_DOUBLE:
        return sizeof(double);
    case FIELD_INT:
        return sizeof(int);
    case FIELD_BOOL:
        return sizeof(bool);
    case FIELD_NONE:
        break;
    }
    return 0;
}

/* Files ranged row r under the word its field lies in, or, where it has no field within one
 * word (behind accessors), among the rows compared by value. */
static void word_add(int r)
{
    const struct input *in = walk.ranged[r];
    size_t size = field_size(in), at = in->offset - in->offset % 8;
    int w = 0;
    while (w < walk.n_words && walk.words[w].at != at)
        w++;
    if (size == 0 || in->offset % 8 + size > 8 || at + 8 > sizeof(struct scenario) ||
        w == (int)WORDS_MAX) {
        set_add(&walk.by_value, r);
        return;
    }
    if (w == walk.n_words)
        walk.words[walk.n_words++] = (struct word){.at = at};
    set_add(&walk.words[w].rows, r);
}

static void walk_find(void)
{
    if (walk.rows == inputs_count())
        return;
    walk.n_ranged = walk.n_checked = walk.n_giving = walk.n_words = 0;
    walk.by_value = (struct row_set){{0}};
    for (int i = 0; i < inputs_count() && walk.n_ranged < ROWS_MAX; i++)
        if (range_checked(inputs_at(i))) {
            walk.ranged[walk.n_ranged] = inputs_at(i);
            word_add(walk.n_ranged++);
        }
    /* Level by level, table order within a level. */
    for (int level = SETTLE_NEVER; level < SETTLE_LEVELS; level++)
        for (int i = 0; i < inputs_count() && walk.n_checked < ROWS_MAX; i++) {
            const struct input *in = inputs_at(i);
            if ((int)in->level != level)
                continue;
            if (in->check != NULL)
                walk.checked[walk.n_checked++] = in;
            if (in->give_way != NULL && level != SETTLE_NEVER)
                walk.giving[walk.n_giving++] = in;
        }
    walk.rows = inputs_count();
}

/* Whether row in holds the same number in a and b, as the range pass reads it (a name never
 * counts as the same).
 * Fixed-size copies, which the compiler turns into loads: this runs for every row of every
 * layout a plan tries. */
static bool same_value(const struct input *in, const struct scenario *a, const struct scenario *b)
{
    /* A row behind accessors (the dtype's, the MFU's): the range pass checks its number. */
    if (in->ops != NULL)
        return in->kind != INPUT_NAME && in->ops->get(a) == in->ops->get(b);
    const char *pa = (const char *)a + in->offset, *pb = (const char *)b + in->offset;
    switch (in->field) {
    case FIELD_I64:
    case FIELD_DOUBLE: { /* the same 8 bytes (a double's bits) */
        uint64_t x, y;
        memcpy(&x, pa, sizeof x);
        memcpy(&y, pb, sizeof y);
        return x == y;
    }
    case FIELD_INT: {
        int x, y;
        memcpy(&x, pa, sizeof x);
        memcpy(&y, pb, sizeof y);
        return x == y;
    }
    case FIELD_BOOL: {
        bool x, y;
        memcpy(&x, pa, sizeof x);
        memcpy(&y, pb, sizeof y);
        return x == y;
    }
    case FIELD_NONE:
        break;
    }
    return false;
}

/*
 * The ranged rows of s that may hold another number than base's: those in a word of the
 * scenario whose bytes differ, and those compared by value. A key (or a plan's layout)
 * changes a few of the 35 plain fields, which 31 word compares find, where comparing every
 * row by its kind of field cost some 1,100 instructions a key. A word that differs in its
 * padding alone only adds rows that the exact compare (same_value) then passes.
 */
static struct row_set rows_changed(const struct scenario *s, const struct scenario *base)
{
    struct row_set set = walk.by_value;
    for (int w = 0; w < walk.n_words; w++) {
        const struct word *wd = &walk.words[w];
        uint64_t x, y;
        memcpy(&x, (const char *)s + wd->at, sizeof x);
        memcpy(&y, (const char *)base + wd->at, sizeof y);
        if (x == y)
            continue;
        for (int k = 0; k < SET_WORDS; k++)
            set.bits[k] |= wd->rows.bits[k];
    }
    return set;
}

/* Ranged row i's range on s; false with the row's key and what is wrong. */
static bool range_holds(int i, const struct scenario *s, const char **key, char *msg, size_t n)
{
    if (inputs_check_range(walk.ranged[i], s, msg, n))
        return true;
    *key = walk.ranged[i]->key;
    return false;
}

/* With base (which passed) given, the range pass skips the rows that hold base's value, and
 * the rules pass the rules of rows that read their own value alone and hold base's. Both in
 * table order, so that of two rows at fault the first is named. */
static bool check(const struct scenario *s, const struct scenario *base, const char **key,
                  char *msg, size_t n)
{
    walk_find();
    if (base == NULL) {
        for (int i = 0; i < walk.n_ranged; i++)
            if (!range_holds(i, s, key, msg, n))
                return false;
    } else {
        struct row_set maybe = rows_changed(s, base);
        for (int i = 0; i < walk.n_ranged; i++)
            if (set_has(&maybe, i) && !same_value(walk.ranged[i], s, base) &&
                !range_holds(i, s, key, msg, n))
                return false;
    }
    for (int i = 0; i < walk.n_checked; i++) {
        /* A rule that reads its row alone (no depends: the model's) holds as it held for
         * base when the row does: a plan's layouts and a key's candidate keep the model. */
        if (base != NULL && walk.checked[i]->depends[0] == '\0' &&
            inputs_same(walk.checked[i], s, base))
            continue;
        *key = walk.checked[i]->key;
        if (!walk.checked[i]->check(s, key, msg, n))
            return false;
    }
    return true;
}

bool scenario_check(const struct scenario *s, const char **key, char *msg, size_t n)
{
    return check(s, NULL, key, msg, n);
}

/* The command line's form of a check's result: the flag, then what is wrong. */
static bool validate(const struct scenario *s, const struct scenario *base, char *err,
                     int errlen)
{
    const char *key = "";
    char msg[512];
    if (check(s, base, &key, msg, sizeof msg))
        return true;
    char flag[64];
    snprintf(flag, sizeof flag, "%s", key);
    for (char *c = flag; *c; c++)
        if (*c == '_')
            *c = '-';
    snprintf(err, (size_t)errlen, "--%s: %s", flag, msg);
    return false;
}

bool scenario_validate(const struct scenario *s, char *err, int errlen)
{
    return validate(s, NULL, err, errlen);
}

bool scenario_validate_from(const struct scenario *s, const struct scenario *base, char *err,
                            int errlen)
{
    return validate(s, base, err, errlen);
}

bool scenario_check_from(const struct scenario *s, const struct scenario *base,
                         const char **key, char *msg, size_t n)
{
    return check(s, base, key, msg, n);
}

void scenario_settle(struct scenario *c, const struct scenario *want, const struct input *held,
                     char *note, size_t n)
{
    if (n > 0)
        note[0] = '\0';
    walk_find();
    struct give_way g = {want, RULES_NONE_MOVED, note, n};
    if (held != NULL && held->field != FIELD_NONE)
        g.moved = held->offset;
    for (int i = 0; i < walk.n_giving; i++)
        if (walk.giving[i] != held)
            walk.giving[i]->give_way(c, &g);
}
