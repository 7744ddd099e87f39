/* cmd_solve.h - `rooftop solve max-params|min-gpus|flops`: the lecture's questions turned around. */
#ifndef ROOFTOP_CMD_SOLVE_H
#define ROOFTOP_CMD_SOLVE_H

int cmd_solve(int argc, char **argv);

#endif
