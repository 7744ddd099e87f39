/* cmd_plan.h - `rooftop plan`: the fastest layouts that fit (src/plan.h). */
#ifndef ROOFTOP_CMD_PLAN_H
#define ROOFTOP_CMD_PLAN_H

int cmd_plan(int argc, char **argv);

#endif
