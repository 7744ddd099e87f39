/* cmd_dtypes.h - `rooftop dtypes [--value X] [--block-max B]`: the number formats' table. */
#ifndef ROOFTOP_CMD_DTYPES_H
#define ROOFTOP_CMD_DTYPES_H

/* argv[0] is "dtypes"; returns the exit status (0, or 2 with one line on bad usage). */
int cmd_dtypes(int argc, char **argv);

#endif
