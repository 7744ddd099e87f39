/* manpage.h - the man page's sections that come from tables: the scenario options, the keys
 * of model and scenario files (the input registry), as roff. `make man` puts each between
 * its BEGIN/END marks in ui/rooftop.1; tests check the page holds exactly them. */
#ifndef ROOFTOP_MANPAGE_H
#define ROOFTOP_MANPAGE_H

#include <stdio.h>

/* Text for roff: '-' as \-, '\' as \e. */
void manpage_text(FILE *f, const char *t);

/* The scenario options: .TP, the flag and its metavar, its help. */
void manpage_options(FILE *f);
/* A model file's keys: every model field of the registry, enumerations with their words. */
void manpage_model_keys(FILE *f);
/* A scenario file's keys besides the model fields: every other input of the registry. */
void manpage_scenario_keys(FILE *f);

#endif
