/* scenario_check.c - every input checked and settled together, by walking the registry. */
#include "scenario_check.h"

#include <stdio.h>

#include "inputs.h"
#include "rules.h"

/* A row the range pass skips: names (their parsers check them), the model's fields and size
 * (model_validate, the model row's rule, checks them with the same limits). */
static bool range_checked(const struct input *in)
{
    return in->kind != INPUT_NAME && !(in->flags & (INPUT_MODEL_FIELD | INPUT_OF_MODEL));
}

bool scenario_check(const struct scenario *s, const char **key, char *msg, size_t n)
{
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        if (range_checked(in) && !inputs_check_range(in, s, msg, n)) {
            *key = in->key;
            return false;
        }
    }
    for (int level = SETTLE_NEVER; level < SETTLE_LEVELS; level++)
        for (int i = 0; i < inputs_count(); i++) {
            const struct input *in = inputs_at(i);
            *key = in->key;
            if ((int)in->level == level && in->check != NULL && !in->check(s, key, msg, n))
                return false;
        }
    return true;
}

bool scenario_validate(const struct scenario *s, char *err, int errlen)
{
    const char *key = "";
    char msg[512];
    if (scenario_check(s, &key, msg, sizeof msg))
        return true;
    /* The command line's form: the flag, then what is wrong. */
    char flag[64];
    snprintf(flag, sizeof flag, "%s", key);
    for (char *c = flag; *c; c++)
        if (*c == '_')
            *c = '-';
    snprintf(err, (size_t)errlen, "--%s: %s", flag, msg);
    return false;
}

void scenario_settle(struct scenario *c, const struct scenario *want, const char *moved,
                     char *note, size_t n)
{
    if (n > 0)
        note[0] = '\0';
    const struct input *held = moved != NULL ? inputs_find(moved) : NULL;
    struct give_way g = {want, RULES_NONE_MOVED, note, n};
    if (held != NULL && held->field != FIELD_NONE)
        g.moved = held->offset;
    for (int level = SETTLE_NEVER + 1; level < SETTLE_LEVELS; level++)
        for (int i = 0; i < inputs_count(); i++) {
            const struct input *in = inputs_at(i);
            if ((int)in->level == level && in->give_way != NULL && in != held)
                in->give_way(c, &g);
        }
}
