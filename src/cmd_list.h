/* cmd_list.h - `rooftop list gpus|models`: the presets on the search path. */
#ifndef ROOFTOP_CMD_LIST_H
#define ROOFTOP_CMD_LIST_H

int cmd_list(int argc, char **argv);

#endif
