/* manpage.c - roff for the man page's sections that the input registry describes. */
#include "manpage.h"

#include <stdbool.h>

#include "inputs.h"

void manpage_text(FILE *f, const char *t)
{
    for (; *t; t++) {
        if (*t == '-')
            fputs("\\-", f);
        else if (*t == '\\')
            fputs("\\e", f);
        else
            fputc(*t, f);
    }
}

void manpage_options(FILE *f)
{
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        char flag[64];
        inputs_flag(in, flag, sizeof flag);
        fputs(".TP\n.BI \\-\\-", f);
        manpage_text(f, flag);
        fputs(" \" ", f);
        manpage_text(f, in->metavar);
        fputs("\"\n", f);
        char def[96];
        inputs_default_text(in, def, sizeof def);
        manpage_text(f, in->help);
        manpage_text(f, def);
        fputs(".\n", f);
    }
}

static bool listed(const struct input *in, bool model_fields)
{
    return ((in->flags & INPUT_MODEL_FIELD) != 0) == model_fields;
}

/* One key per line in bold, an enumeration's words after it in roman, commas between:
 * ".BR mlp \" (gelu|swiglu|...),\"". The words are the registry's own, the ones the parser
 * takes. */
static void keys(FILE *f, bool model_fields)
{
    int last = -1;
    for (int i = 0; i < inputs_count(); i++)
        if (listed(inputs_at(i), model_fields))
            last = i;
    for (int i = 0; i <= last; i++) {
        const struct input *in = inputs_at(i);
        if (!listed(in, model_fields))
            continue;
        const char *comma = i < last ? "," : "";
        fputs(".BR ", f);
        manpage_text(f, in->key);
        if (in->kind == INPUT_ENUM && in->words != NULL) {
            fputs(" \" (", f);
            for (int w = 0; w < in->n_words; w++) {
                fputs(w ? "|" : "", f);
                manpage_text(f, in->words[w]);
            }
            fprintf(f, ")%s\"\n", comma);
        } else {
            fprintf(f, "%s%s\n", *comma ? " " : "", comma);
        }
    }
}

void manpage_model_keys(FILE *f)
{
    keys(f, true);
}

void manpage_scenario_keys(FILE *f)
{
    keys(f, false);
}
