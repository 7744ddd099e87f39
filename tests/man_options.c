/* man_options.c - prints one of the man page's generated sections: `man_options inputs`
 * (the scenario options), `model` and `scenario` (the file keys, from the input registry),
 * `keys` (the dashboard's, from its key table). `make man` puts each between the BEGIN/END
 * marks of ui/rooftop.1 named in man_sections below. */
#include <stdio.h>
#include <string.h>

#include "keymap.h"
#include "manpage.h"

static const struct {
    const char *name;
    void (*print)(FILE *f);
} sections[] = {
    {"inputs", manpage_options},
    {"model", manpage_model_keys},
    {"scenario", manpage_scenario_keys},
    {"keys", keymap_man},
};

int main(int argc, char **argv)
{
    for (size_t i = 0; argc == 2 && i < sizeof sections / sizeof sections[0]; i++)
        if (strcmp(argv[1], sections[i].name) == 0) {
            sections[i].print(stdout);
            return fflush(stdout) == 0 ? 0 : 1;
        }
    fputs("usage: man_options inputs|model|scenario|keys\n", stderr);
    return 2;
}
