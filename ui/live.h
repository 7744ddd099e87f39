/* live.h - `rooftop` with no subcommand: the interactive dashboard in a live terminal. */
#ifndef ROOFTOP_UI_LIVE_H
#define ROOFTOP_UI_LIVE_H

/* argv is the whole command line (argv[0] the program). Returns the exit status. */
int live_main(int argc, char **argv);

#endif
