/* dtypes_input.c - the number formats' box's value, as typed. */
#include "dtypes_input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

enum dtypes_input_result dtypes_input_key(char *buf, size_t n, uint32_t k, double *value,
                                          char *err, size_t errlen)
{
    size_t len = strlen(buf);
    if (k == UK_ESC || k == 'd' || k == 'q')
        return DTI_CLOSED;
    if (k == UK_BS || k == UK_DEL) {
        if (len > 0)
            buf[len - 1] = '\0';
        return DTI_EDITED;
    }
    if (k == UK_ENTER) {
        char *end;
        errno = 0;
        double v = strtod(buf, &end);
        if (end == buf || *end != '\0' || errno == ERANGE || !isfinite(v)) {
            snprintf(err, errlen, "d: '%s' is not a finite number", buf);
            return DTI_REFUSED;
        }
        *value = v;
        return DTI_APPLIED;
    }
    bool ok = (k >= '0' && k <= '9') || k == '.' || k == 'e' || k == 'E' || k == '-' || k == '+';
    if (ok && len + 1 < n) {
        buf[len] = (char)k;
        buf[len + 1] = '\0';
    }
    return DTI_EDITED;
}
