/* units.h - reading and writing numbers the way people say them: 70B, 15T, 4k, 80GB, 1e12. */
#ifndef ROOFTOP_UNITS_H
#define ROOFTOP_UNITS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Parses a non-negative number with an optional decimal suffix: k/K (1e3), M (1e6),
 * B/G (1e9), T (1e12), P (1e15), optionally followed by "B" for bytes ("80GB", "4kB"),
 * or a binary one: Ki, Mi, Gi, Ti (2^10..2^40), also with "B" (KiB, GiB). Plain numbers and
 * exponents ("1e12", "0.5") too. One rule for every input: "4k" is 4000, "4Ki" is 4096.
 * Rejects empty strings, signs, trailing junk, NaN, infinity and overflow.
 */
bool units_parse(const char *s, double *out);
/* As units_parse, then requires an integer in [1, 2^62]. */
bool units_parse_count(const char *s, long long *out);
/* Whether n, as units_parse_count read it from s, is exactly the whole number s writes: true
 * below 2^53 (a double holds those), for plain digits and for DIGITS[.DIGITS]e[+]X forms whose
 * value is n exactly; false where the double may have rounded it ("9007199254740993e0"). */
bool units_count_exact(const char *s, long long n);

/* "124M", "6.74B", "70B", "15T", "4k": a count with 3 significant digits, no unit. */
void units_count(double v, char *buf, size_t n);
/* "80 GB", "2.3 GB", "432 B" (decimal units, as the lecture). */
void units_bytes(double v, char *buf, size_t n);
/* "989 TFLOP/s" */
void units_flops_rate(double v, char *buf, size_t n);
/* "6.30e24" ("0" for zero) */
void units_sci(double v, char *buf, size_t n);
/* A plain figure: "341", "0.998", "0.25", "3721" (3 significant digits, whole numbers from
 * 100 up, scientific notation only outside [1e-4, 1e15)). For ratios like FLOP/byte. */
void units_plain(double v, char *buf, size_t n);
/* "3.35 TB/s" */
void units_bandwidth(double v, char *buf, size_t n);
/* "143.9 days", "5.2 h", "12 ms": a duration in the largest unit that reads well */
void units_duration(double seconds, char *buf, size_t n);

#endif
