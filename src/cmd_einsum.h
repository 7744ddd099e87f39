/* cmd_einsum.h - `rooftop einsum [reduce|rearrange] "SPEC" --dims a=3,b=4`: an operation as a
 * named-dimension contract, its output shape, FLOPs, bytes and intensity. */
#ifndef ROOFTOP_CMD_EINSUM_H
#define ROOFTOP_CMD_EINSUM_H

/* argv[0] is "einsum"; returns the exit status (0, or 2 with one line on bad usage). */
int cmd_einsum(int argc, char **argv);

#endif
