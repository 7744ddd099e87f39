/* main.c - the rooftop command: a subcommand from the command table (commands.c), or the
 * dashboard. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "live.h"
#include "nearest.h"

#ifndef ROOFTOP_VERSION
#define ROOFTOP_VERSION "unknown"
#endif

/* A word where a command goes is a misspelt one (the dashboard takes options only): its
 * nearest commands of the table, and exit status 2. */
static int not_a_command(const char *arg)
{
    const char *names[64];
    int n = 0;
    for (int i = 0; i < commands_count() && n < 63; i++)
        names[n++] = commands_at(i)->name;
    names[n++] = "help";
    char near[160], word[101];
    snprintf(word, sizeof word, "%s", arg);
    for (char *c = word; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    bool found = nearest_suggest(arg, names, (size_t)n, "", near, sizeof near);
    fprintf(stderr, "rooftop: '%s' is not a command (%s%s%s)\n", word,
            found ? "did you mean " : "", found ? near : "",
            found ? "? rooftop --help lists them" : "rooftop --help lists them");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc >= 2) {
        const char *name = argv[1];
        const struct command *c = commands_find(name);
        if (c != NULL)
            return c->run(argc - 1, argv + 1);
        if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
            printf("rooftop %s\n", ROOFTOP_VERSION);
            return 0;
        }
        if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
            commands_usage(stdout);
            return 0;
        }
        if (name[0] != '-' && name[0] != '\0')
            return not_a_command(name);
    }
    /* No subcommand: the dashboard, with any scenario options given. */
    return live_main(argc, argv);
}
