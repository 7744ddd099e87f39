/* cmd_import.h - `rooftop import`: a Hugging Face config.json (or any model file) as a model file. */
#ifndef ROOFTOP_CMD_IMPORT_H
#define ROOFTOP_CMD_IMPORT_H

int cmd_import(int argc, char **argv);

#endif
