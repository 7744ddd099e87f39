/* cmd_diff.h - `rooftop diff`: two scenarios side by side (src/diff.h). */
#ifndef ROOFTOP_CMD_DIFF_H
#define ROOFTOP_CMD_DIFF_H

/* argv[0] is "diff". Exit status 0, 1 (writing failed) or 2 (bad usage, one line). */
int cmd_diff(int argc, char **argv);

#endif
