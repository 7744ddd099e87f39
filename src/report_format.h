/* report_format.h - the output formats every command writes: text, JSON, CSV, Markdown. */
#ifndef ROOFTOP_REPORT_FORMAT_H
#define ROOFTOP_REPORT_FORMAT_H

#include <stdbool.h>

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_MD };

/* "text", "json", "csv", "md" */
const char *report_format_name(enum report_format fmt);
/* Also takes "markdown". */
bool report_format_parse(const char *s, enum report_format *out);

#endif
