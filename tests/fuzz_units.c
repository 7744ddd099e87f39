/* fuzz_units.c - libFuzzer target for units_parse and the formatters: any bytes either parse
 * to a finite non-negative number that formats and parses back, or are refused; any double
 * (NaN and infinity included) formats into any buffer size without overflow or "nan"/"inf". */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef void (*formatter)(double, char *, size_t);
static const formatter FORMATTERS[] = {units_count,     units_bytes, units_flops_rate, units_sci,
                                       units_bandwidth, units_plain, units_duration};

/* Formats v into a buffer of n bytes (guarded on both sides) and checks the result. */
static void check_format(formatter f, double v, size_t n)
{
    char guard[80];
    memset(guard, 'G', sizeof guard);
    char *buf = guard + 8;
    if (n > 64)
        n = 64;
    f(v, buf, n);
    for (int i = 0; i < 8; i++)
        if (guard[i] != 'G' || buf[64 + i] != 'G' || (n < 64 && buf[n + i] != 'G'))
            abort();
    if (n == 0)
        return;
    size_t len = strnlen(buf, n);
    if (len == n)
        abort(); /* not terminated */
    for (size_t i = 0; i < len; i++) {
        if ((buf[i] == 'n' || buf[i] == 'N') && (strncmp(buf + i, "nan", 3) == 0 ||
                                                 strncmp(buf + i, "NaN", 3) == 0))
            abort();
        if (strncmp(buf + i, "inf", 3) == 0)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char s[256];
    size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
    memcpy(s, data, n);
    s[n] = '\0';

    double v = -1;
    if (units_parse(s, &v)) {
        if (!isfinite(v) || v < 0)
            abort();
        long long c;
        if (units_parse_count(s, &c) && (double)c != v)
            abort();
        /* What the count formatter writes reads back within its 3 significant digits. */
        if (v >= 1e-3 && v < 1e18) {
            char b[64];
            double back;
            units_count(v, b, sizeof b);
            if (!units_parse(b, &back) || fabs(back - v) > 0.0051 * v)
                abort();
        }
        for (size_t i = 0; i < sizeof FORMATTERS / sizeof FORMATTERS[0]; i++)
            check_format(FORMATTERS[i], v, 64);
    } else if (v != -1) {
        abort(); /* a refusal must not write */
    }

    /* The raw bytes as a double, at a buffer size the input picks. */
    if (size >= 9) {
        double d;
        memcpy(&d, data, sizeof d);
        size_t bufsize = data[8] % 66;
        for (size_t i = 0; i < sizeof FORMATTERS / sizeof FORMATTERS[0]; i++)
            check_format(FORMATTERS[i], d, bufsize);
    }
    return 0;
}
