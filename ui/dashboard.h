/* dashboard.h - `rooftop` with no subcommand: the interactive dashboard. */
#ifndef ROOFTOP_UI_DASHBOARD_H
#define ROOFTOP_UI_DASHBOARD_H

/* argv is the whole command line (argv[0] the program). Returns the exit status. */
int cmd_dashboard(int argc, char **argv);

#endif
