/* report_format.c - the output formats' names. */
#include "report_format.h"

#include <string.h>

static const char *const FORMAT_NAMES[] = {"text", "json", "csv", "md"};

const char *report_format_name(enum report_format fmt)
{
    if ((int)fmt < 0 || (int)fmt > REPORT_MD)
        return "?";
    return FORMAT_NAMES[fmt];
}

bool report_format_parse(const char *s, enum report_format *out)
{
    for (int i = 0; i <= REPORT_MD; i++) {
        if (strcmp(s, FORMAT_NAMES[i]) == 0) {
            *out = (enum report_format)i;
            return true;
        }
    }
    if (strcmp(s, "markdown") == 0) {
        *out = REPORT_MD;
        return true;
    }
    return false;
}
