/* cmd_report.h - `rooftop report`: one scenario's evaluation as text, JSON, CSV or Markdown. */
#ifndef ROOFTOP_CMD_REPORT_H
#define ROOFTOP_CMD_REPORT_H

int cmd_report(int argc, char **argv);

#endif
