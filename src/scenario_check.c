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
static struct {
    int rows; /* inputs_count() when found; -1 before */
    const struct input *ranged[ROWS_MAX], *checked[ROWS_MAX], *giving[ROWS_MAX];
    int n_ranged, n_checked, n_giving;
} walk = {.rows = -1};

static void walk_find(void)
{
    if (walk.rows == inputs_count())
        return;
    walk.n_ranged = walk.n_checked = walk.n_giving = 0;
    for (int i = 0; i < inputs_count() && walk.n_ranged < ROWS_MAX; i++)
        if (range_checked(inputs_at(i)))
            walk.ranged[walk.n_ranged++] = inputs_at(i);
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

/* With base (which passed) given, the range pass skips the rows that hold base's value, and
 * the rules pass the rules of rows that read their own value alone and hold base's. */
static bool check(const struct scenario *s, const struct scenario *base, const char **key,
                  char *msg, size_t n)
{
    walk_find();
    for (int i = 0; i < walk.n_ranged; i++) {
        if (base != NULL && same_value(walk.ranged[i], s, base))
            continue;
        if (!inputs_check_range(walk.ranged[i], s, msg, n)) {
            *key = walk.ranged[i]->key;
            return false;
        }
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
