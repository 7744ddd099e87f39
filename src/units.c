/* units.c - reading and writing numbers the way people say them: 70B, 15T, 4k, 80GB, 1e12. */
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wide.h"

/* Longest mantissa kept. Digits past this cannot change a double by more than an ulp or so,
 * and a bounded buffer keeps the parser simple and safe on any input. */
#define MAX_DIGITS 40

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/*
 * Reads the numeric part "digits[.digits][e[+-]digits]" at *p and converts it. The digits
 * are rewritten as "DIGITSeEXP" with no decimal point before strtod, so that the result
 * does not depend on LC_NUMERIC (a dashboard that calls setlocale must not break parsing),
 * and strtod's own extensions (hex, inf, nan, whitespace, signs) can never be reached.
 */
static bool parse_decimal(const char **p, double *out)
{
    const char *s = *p;
    char digits[MAX_DIGITS + 1];
    size_t nd = 0;
    long exp10 = 0;          /* power of ten applied to the integer formed by digits */
    bool any = false;

    while (is_digit(*s)) {
        any = true;
        if (nd == 0 && *s == '0') {
            s++;             /* leading zeros carry no information */
            continue;
        }
        if (nd < MAX_DIGITS)
            digits[nd++] = *s;
        else
            exp10++;         /* dropped integer digit still scales the value */
        s++;
    }
    if (*s == '.') {
        s++;
        bool frac = false;
        while (is_digit(*s)) {
            frac = true;
            if (nd == 0 && *s == '0') {
                exp10--;
            } else if (nd < MAX_DIGITS) {
                digits[nd++] = *s;
                exp10--;
            }
            s++;
        }
        any = any || frac;
    }
    if (!any)
        return false;
    if (*s == 'e' || *s == 'E') {
        const char *e = s + 1;
        int sign = 1;
        if (*e == '+' || *e == '-') {
            sign = *e == '-' ? -1 : 1;
            e++;
        }
        if (!is_digit(*e))
            return false;    /* "1e" or "1e+" is junk, not 1 */
        long ev = 0;
        while (is_digit(*e)) {
            if (ev < 100000)
                ev = ev * 10 + (*e - '0');
            e++;
        }
        exp10 += sign * ev;
        s = e;
    }
    *p = s;
    if (nd == 0) {
        *out = 0.0;
        return true;
    }
    /* The exponent is bounded: |exp10| < 100000 + MAX_DIGITS + input length, but clamp so
     * the buffer always holds it. Anything past +-9999 over/underflows a double anyway. */
    if (exp10 > 9999)
        exp10 = 9999;
    if (exp10 < -9999)
        exp10 = -9999;
    char buf[MAX_DIGITS + 16];
    memcpy(buf, digits, nd);
    int w = snprintf(buf + nd, sizeof buf - nd, "e%ld", exp10);
    if (w < 0 || (size_t)w >= sizeof buf - nd)
        return false;
    errno = 0;
    char *end = NULL;
    double v = strtod(buf, &end);
    if (errno == ERANGE || end == buf || *end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}

struct suffix {
    const char *text;
    double scale;
};

/* Longest first, so "KiB" is tried before "K" and "GB" before "G". */
static const struct suffix SUFFIXES[] = {
    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
    {"Ki", 1024.0},  {"Mi", 1048576.0},  {"Gi", 1073741824.0},  {"Ti", 1099511627776.0},
    {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"BB", 1e9}, {"TB", 1e12}, {"PB", 1e15},
    {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"B", 1e9}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15},
};

bool units_parse(const char *s, double *out)
{
    if (s == NULL || out == NULL)
        return false;
    const char *p = s;
    double v;
    if (!parse_decimal(&p, &v))
        return false;
    double scale = 1.0;
    if (*p != '\0') {
        /* One space may separate the number from its unit ("80 GB"), as units_bytes
         * writes it; nothing may follow the unit. */
        if (*p == ' ')
            p++;
        bool found = false;
        for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
            if (strcmp(p, SUFFIXES[i].text) == 0) {
                scale = SUFFIXES[i].scale;
                found = true;
                break;
            }
        }
        if (!found)
            return false;
    }
    v *= scale;
    if (!isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Plain digits, read exactly (a double would round past 2^53). */
static bool parse_digits(const char *s, long long *out)
{
    if (*s < '0' || *s > '9' || strspn(s, "0123456789") != strlen(s))
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *out = v;
    return true;
}

bool units_parse_count(const char *s, long long *out)
{
    long long exact;
    if (s != NULL && parse_digits(s, &exact)) {
        if (exact < 1 || exact > 4611686018427387904LL)
            return false;
        if (out != NULL)
            *out = exact;
        return true;
    }
    double v;
    if (!units_parse(s, &v))
        return false;
    /* 2^62: room to multiply two counts' worth of headroom away from int64 overflow. */
    if (v < 1.0 || v > 4611686018427387904.0 || floor(v) != v)
        return false;
    if (out != NULL)
        *out = (long long)v;
    return true;
}

bool units_count_exact(const char *s, long long n)
{
    long long d;
    if (n < 0)
        return false;
    if (n < 9007199254740992LL || parse_digits(s, &d))
        return true;
    /* DIGITS[.DIGITS][e|E][+]X: the mantissa's digits times a power of ten, in integers. */
    struct wide m = wide_from(0), ten = wide_from(10);
    const char *p = s;
    int frac = -1, digits = 0;
    for (; (*p >= '0' && *p <= '9') || (*p == '.' && frac < 0); p++) {
        if (*p == '.') {
            frac = 0;
            continue;
        }
        m = wide_add(wide_mul(m, ten), wide_from((uint64_t)(*p - '0')));
        digits++;
        if (frac >= 0)
            frac++;
    }
    if (digits == 0 || (*p != 'e' && *p != 'E'))
        return false;
    p++;
    if (*p == '+')
        p++;
    if (!parse_digits(p, &d) || d > 80)
        return false;
    for (long long k = d - (frac > 0 ? frac : 0); k > 0; k--)
        m = wide_mul(m, ten);
    if (d < (frac > 0 ? frac : 0))
        return false; /* a fraction of a power of ten: not worth proving exact */
    struct wide w = wide_from((uint64_t)n);
    return !m.overflow && memcmp(m.limb, w.limb, sizeof m.limb) == 0;
}

/* Writes "n/a" for what must never reach a screen as NaN or inf. */
static bool put_nonfinite(double v, char *buf, size_t n)
{
    if (isfinite(v))
        return false;
    snprintf(buf, n, "n/a");
    return true;
}

/*
 * Scales v (>= 0) into [1, 1000) over a ladder of prefixes and prints it with 3 significant
 * digits. Rounding can carry a mantissa to 1000 ("999.7" -> "1e+03"); then the next prefix
 * is used instead.
 */
static void format_si(double v, const char *const *prefix, size_t nprefix, const char *unit,
                      const char *sep, char *buf, size_t n)
{
    const char *sign = "";
    if (v < 0) {
        sign = "-";
        v = -v;
    }
    size_t i = 0;
    double m = v;
    while (m >= 1000.0 && i + 1 < nprefix) {
        m /= 1000.0;
        i++;
    }
    char num[32];
    snprintf(num, sizeof num, "%.3g", m);
    if (strtod(num, NULL) >= 1000.0 && i + 1 < nprefix) {
        m /= 1000.0;
        i++;
        snprintf(num, sizeof num, "%.3g", m);
    }
    if (strchr(num, 'e') != NULL) {
        /* Beyond the ladder (or below 1e-4): scientific notation, still no "+". */
        units_sci(v, num, sizeof num);
        snprintf(buf, n, "%s%s%s%s", sign, num, sep, unit);
        return;
    }
    snprintf(buf, n, "%s%s%s%s%s", sign, num, sep, prefix[i], unit);
}

void units_count(double v, char *buf, size_t n)
{
    static const char *const P[] = {"", "k", "M", "B", "T", "P"};
    if (n == 0 || put_nonfinite(v, buf, n))
        return;
    format_si(v, P, sizeof P / sizeof P[0], "", "", buf, n);
}

void units_bytes(double v, char *buf, size_t n)
{
    static const char *const P[] = {"", "k", "M", "G", "T", "P", "E"};
    if (n == 0 || put_nonfinite(v, buf, n))
        return;
    format_si(v, P, sizeof P / sizeof P[0], "B", " ", buf, n);
}

void units_flops_rate(double v, char *buf, size_t n)
{
    static const char *const P[] = {"", "k", "M", "G", "T", "P", "E"};
    if (n == 0 || put_nonfinite(v, buf, n))
        return;
    format_si(v, P, sizeof P / sizeof P[0], "FLOP/s", " ", buf, n);
}

void units_bandwidth(double v, char *buf, size_t n)
{
    static const char *const P[] = {"", "k", "M", "G", "T", "P", "E"};
    if (n == 0 || put_nonfinite(v, buf, n))
        return;
    format_si(v, P, sizeof P / sizeof P[0], "B/s", " ", buf, n);
}

void units_sci(double v, char *buf, size_t n)
{
    if (n == 0 || put_nonfinite(v, buf, n))
        return;
    if (v == 0.0) {
        snprintf(buf, n, "0");
        return;
    }
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.2e", v);
    /* "6.30e+24" -> "6.30e24", "1.00e-03" -> "1.00e-3": how people write it. */
    char *e = strchr(tmp, 'e');
    if (e != NULL) {
        char *src = e + 1;
        char *dst = e + 1;
        if (*src == '+')
            src++;
        else if (*src == '-')
            *dst++ = *src++;
        while (*src == '0' && src[1] != '\0')
            src++;
        memmove(dst, src, strlen(src) + 1);
    }
    snprintf(buf, n, "%s", tmp);
}

void units_plain(double v, char *buf, size_t n)
{
    if (n == 0 || put_nonfinite(v, buf, n))
        return;
    double a = fabs(v);
    if (a == 0.0)
        snprintf(buf, n, "0");
    else if (a < 1e-4 || a >= 1e15)
        units_sci(v, buf, n);
    else if (a >= 99.95)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.3g", v);
}

void units_duration(double seconds, char *buf, size_t n)
{
    if (n == 0 || put_nonfinite(seconds, buf, n))
        return;
    double s = fabs(seconds);
    const char *sign = seconds < 0 ? "-" : "";
    if (s == 0.0)
        snprintf(buf, n, "0 s");
    else if (s >= 1000.0 * 86400.0)
        snprintf(buf, n, "%s%.1f years", sign, s / (365.25 * 86400.0));
    else if (s >= 86400.0)
        snprintf(buf, n, "%s%.1f days", sign, s / 86400.0);
    else if (s >= 3600.0)
        snprintf(buf, n, "%s%.1f h", sign, s / 3600.0);
    else if (s >= 60.0)
        snprintf(buf, n, "%s%.1f min", sign, s / 60.0);
    else if (s >= 1.0)
        snprintf(buf, n, "%s%.3g s", sign, s);
    else if (s >= 1e-3)
        snprintf(buf, n, "%s%.3g ms", sign, s * 1e3);
    else if (s >= 1e-6)
        snprintf(buf, n, "%s%.3g us", sign, s * 1e6);
    else
        snprintf(buf, n, "%s%.3g ns", sign, s * 1e9);
}
