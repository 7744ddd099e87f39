/* cmd_solve_flops.h - `rooftop solve flops --gpus N --days D`: GPUs x time -> FLOPs. */
#ifndef ROOFTOP_CMD_SOLVE_FLOPS_H
#define ROOFTOP_CMD_SOLVE_FLOPS_H

/* The help paragraph (part of `rooftop solve --help`). */
#include <stdio.h>
void cmd_solve_flops_help(FILE *f);
/* argv[0] is "solve", argv[1] "flops"; returns the exit status (2 on bad usage). */
int cmd_solve_flops(int argc, char **argv);

#endif
