/* cmd_intensity.h - `rooftop intensity`: the lecture's operations on the roofline. */
#ifndef ROOFTOP_CMD_INTENSITY_H
#define ROOFTOP_CMD_INTENSITY_H

int cmd_intensity(int argc, char **argv);

#endif
