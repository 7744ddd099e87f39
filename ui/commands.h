/* commands.h - the command table: every subcommand of rooftop, one row each (as tmux's
 * cmd_entry list): its name, what runs it and its usage line. main() dispatches through it and
 * the top-level --help is written from it, so a new command is one row. */
#ifndef ROOFTOP_UI_COMMANDS_H
#define ROOFTOP_UI_COMMANDS_H

#include <stdio.h>

struct command {
    const char *name;                   /* argv[1]: "report" */
    int (*run)(int argc, char **argv);  /* argv[0] is the name; returns the exit status */
    const char *usage;                  /* after "rooftop ": "report [options]" */
    const char *summary;                /* one line for --help, or "" */
};

/* The row named name, or NULL. */
const struct command *commands_find(const char *name);
int commands_count(void);
const struct command *commands_at(int i);

/* The top-level usage: the dashboard's line, every command's, the dashboard's options and its
 * keys (the key table's). */
void commands_usage(FILE *f);

#endif
