/* cmd_sweep.h - `rooftop sweep`: one input swept over a range of values (src/sweep.h). */
#ifndef ROOFTOP_CMD_SWEEP_H
#define ROOFTOP_CMD_SWEEP_H

/* argv[0] is "sweep". Exit status 0, 1 (writing failed) or 2 (bad usage, one line). */
int cmd_sweep(int argc, char **argv);

#endif
