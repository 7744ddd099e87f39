/* snapshot.h - `rooftop snapshot`: the dashboard rendered without a terminal. */
#ifndef ROOFTOP_UI_SNAPSHOT_H
#define ROOFTOP_UI_SNAPSHOT_H

/* argv[0] is "snapshot". Returns the exit status (0, 1 output failed, 2 bad usage). */
int cmd_snapshot(int argc, char **argv);

#endif
