/* test_units.c - units_parse and the formatters: values people type and read. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "units.h"
#include "wide.h"

/* Parses s, failing the test when it is refused. */
static double parse_ok(const char *s)
{
    double v = -1;
    ck_assert_msg(units_parse(s, &v), "units_parse(\"%s\") refused", s);
    return v;
}

START_TEST(test_parse_suffixes)
{
    /* Exact where the input is exact: decimal suffixes are powers of ten. */
    ck_assert(parse_ok("70B") == 70e9);
    ck_assert(parse_ok("15T") == 15e12);
    ck_assert(parse_ok("4k") == 4000.0);
    ck_assert(parse_ok("4K") == 4000.0);
    ck_assert(parse_ok("80GB") == 80e9);
    ck_assert(parse_ok("80 GB") == 80e9);
    ck_assert(parse_ok("4kB") == 4000.0);
    ck_assert(parse_ok("1.5M") == 1.5e6);
    ck_assert(parse_ok("2G") == 2e9);
    ck_assert(parse_ok("3P") == 3e15);
    ck_assert(parse_ok("1e12") == 1e12);
    ck_assert(parse_ok("1E12") == 1e12);
    ck_assert(parse_ok("1e+3") == 1000.0);
    ck_assert(parse_ok("2.5e-3") == 2.5e-3);
    ck_assert(parse_ok("0.5") == 0.5);
    ck_assert(parse_ok(".5") == 0.5);
    ck_assert(parse_ok("0") == 0.0);
    ck_assert(parse_ok("1024") == 1024.0);
    ck_assert(parse_ok("2KiB") == 2048.0);
    ck_assert(parse_ok("1MiB") == 1048576.0);
    ck_assert(parse_ok("1GiB") == 1073741824.0);
    ck_assert(parse_ok("1TiB") == 1099511627776.0);
    /* The lecture's figures. */
    ck_assert(parse_ok("989.5e12") == 989.5e12);
    ck_assert(parse_ok("3.35e12") == 3.35e12);
    ck_assert(parse_ok("6.738415616B") == 6738415616.0);
}
END_TEST

START_TEST(test_parse_rejects)
{
    static const char *const bad[] = {
        "",      " ",     " 5",    "5 ",    "-1",     "+1",    "nan",   "NaN",   "inf",
        "infinity", "0x10", "1e",  "1e+",   "12x",    "1..2",  "1.2.3", "k",     "B",
        "GB",    "1  GB", "1gb",   "1m",    "1e400",  "1e308T", "5GiBB", "1,000", "70 B ",
        "1e99999999", "--1", "1-", "1 2",   "0x1p3",  "\t1",   "1\n",   "1KIB",  ".",
        "e5",    "1.5.k", "5kk",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = 12345;
        ck_assert_msg(!units_parse(bad[i], &v), "units_parse(\"%s\") accepted %g", bad[i], v);
        ck_assert_msg(v == 12345, "units_parse(\"%s\") wrote its output on failure", bad[i]);
    }
    double v;
    ck_assert(!units_parse(NULL, &v));
}
END_TEST

START_TEST(test_parse_long_mantissa)
{
    /* Many digits: kept to about 40 significant ones, still the right double. */
    ck_assert_rel(parse_ok("0.00000000000000000000000000000000000000000000000001"), 1e-50, 1e-15);
    ck_assert_rel(parse_ok("123456789012345678901234567890123456789012345678901234567890"),
                  1.2345678901234568e59, 1e-15);
    ck_assert_rel(parse_ok("1.7e308"), 1.7e308, 1e-15);
}
END_TEST

START_TEST(test_parse_binary)
{
    /* One rule for every input: k is 1e3, Ki is 2^10, so a "4k context" is typed 4Ki. */
    double v;
    ck_assert(units_parse("4k", &v));
    ck_assert(v == 4000.0);
    ck_assert(units_parse("4Ki", &v));
    ck_assert(v == 4096.0);
    ck_assert(units_parse("128Ki", &v));
    ck_assert(v == 131072.0);
    ck_assert(units_parse("1Mi", &v));
    ck_assert(v == 1048576.0);
    ck_assert(units_parse("2GiB", &v));
    ck_assert(v == 2147483648.0);
    ck_assert(units_parse("1.5Ki", &v));
    ck_assert(v == 1536.0);
    ck_assert(!units_parse("Ki", &v));
    ck_assert(!units_parse("-4Ki", &v));
    ck_assert(!units_parse("4KiKi", &v));
    ck_assert(!units_parse("4ki", &v));
}
END_TEST

START_TEST(test_parse_count)
{
    long long n = 0;
    ck_assert(units_parse_count("4k", &n));
    ck_assert_int_eq(n, 4000);
    ck_assert(units_parse_count("1024", &n));
    ck_assert_int_eq(n, 1024);
    ck_assert(units_parse_count("1.5k", &n));
    ck_assert_int_eq(n, 1500);
    ck_assert(units_parse_count("70B", &n));
    ck_assert_int_eq(n, 70000000000LL);
    ck_assert(units_parse_count("4611686018427387904", &n));
    ck_assert_int_eq(n, 4611686018427387904LL);
    ck_assert(!units_parse_count("0", &n));
    ck_assert(!units_parse_count("1.5", &n));
    ck_assert(!units_parse_count("0.5k1", &n));
    ck_assert(!units_parse_count("5e18", &n));
    ck_assert(!units_parse_count("-4", &n));
    ck_assert(!units_parse_count("12x", &n));
}
END_TEST

/* Formats v with f and compares the text. */
#define FMT_EQ(f, v, want)                                                                    \
    do {                                                                                      \
        char b_[64];                                                                          \
        f((v), b_, sizeof b_);                                                                \
        ck_assert_msg(strcmp(b_, (want)) == 0, "%s(%.17g) = \"%s\", want \"%s\"", #f,         \
                      (double)(v), b_, (want));                                               \
    } while (0)

START_TEST(test_format_count)
{
    FMT_EQ(units_count, 124439808.0, "124M");
    FMT_EQ(units_count, 6738415616.0, "6.74B");
    FMT_EQ(units_count, 70e9, "70B");
    FMT_EQ(units_count, 15e12, "15T");
    FMT_EQ(units_count, 4000.0, "4k");
    FMT_EQ(units_count, 999.7, "1k");        /* rounding carries to the next prefix */
    FMT_EQ(units_count, 999499.0, "999k");
    FMT_EQ(units_count, 999500.0, "1M");
    FMT_EQ(units_count, 432.0, "432");
    FMT_EQ(units_count, 0.5, "0.5");
    FMT_EQ(units_count, 0.0, "0");
    FMT_EQ(units_count, 5.333333e10, "53.3B");
    FMT_EQ(units_count, 4e10, "40B");
    FMT_EQ(units_count, 2.5e18, "2.50e18"); /* beyond P: scientific */
    FMT_EQ(units_count, -70e9, "-70B");
    FMT_EQ(units_count, NAN, "n/a");
    FMT_EQ(units_count, INFINITY, "n/a");
}
END_TEST

START_TEST(test_format_units)
{
    FMT_EQ(units_bytes, 80e9, "80 GB");
    FMT_EQ(units_bytes, 2415919104.0, "2.42 GB");
    FMT_EQ(units_bytes, 432.0, "432 B");
    FMT_EQ(units_bytes, 2097152.0, "2.1 MB");
    FMT_EQ(units_bytes, 0.0, "0 B");
    FMT_EQ(units_flops_rate, 989.4e12, "989 TFLOP/s");
    FMT_EQ(units_flops_rate, 2.25e15, "2.25 PFLOP/s");
    FMT_EQ(units_bandwidth, 3.35e12, "3.35 TB/s");
    FMT_EQ(units_bandwidth, 864e9, "864 GB/s");
    FMT_EQ(units_sci, 6.3e24, "6.30e24");
    FMT_EQ(units_sci, 9.575e21, "9.58e21");
    FMT_EQ(units_sci, 1e-3, "1.00e-3");
    FMT_EQ(units_sci, 5.333333e10, "5.33e10");
    FMT_EQ(units_sci, 0.0, "0");
    FMT_EQ(units_sci, NAN, "n/a");
    FMT_EQ(units_plain, 341.17, "341");
    FMT_EQ(units_plain, 0.99756, "0.998");
    FMT_EQ(units_plain, 0.25, "0.25");
    FMT_EQ(units_plain, 5.0, "5");
    FMT_EQ(units_plain, 0.4999995, "0.5");
    FMT_EQ(units_plain, 295.34, "295");
    FMT_EQ(units_plain, 3721.6, "3722");
    FMT_EQ(units_plain, 0.0, "0");
    FMT_EQ(units_plain, -INFINITY, "n/a");
}
END_TEST

START_TEST(test_format_duration)
{
    /* The lecture: 6.3e24 / (1024 * 989.5e12 * 0.5) s = 143.93 days. */
    double s = 6.3e24 / (1024 * 989.5e12 * 0.5);
    FMT_EQ(units_duration, s, "143.9 days");
    FMT_EQ(units_duration, 5.2 * 3600, "5.2 h");
    FMT_EQ(units_duration, 0.012, "12 ms");
    FMT_EQ(units_duration, 2.17e-6, "2.17 us");
    FMT_EQ(units_duration, 90.0, "1.5 min");
    FMT_EQ(units_duration, 6.96, "6.96 s");
    FMT_EQ(units_duration, 5e-10, "0.5 ns");
    FMT_EQ(units_duration, 0.0, "0 s");
    FMT_EQ(units_duration, 3650.0 * 86400, "10.0 years");
    FMT_EQ(units_duration, NAN, "n/a");
    FMT_EQ(units_duration, INFINITY, "n/a");
}
END_TEST

START_TEST(test_small_buffers)
{
    /* A short buffer truncates and stays NUL-terminated; size 0 writes nothing. */
    char b[4] = "xyz";
    units_bytes(80e9, b, 0);
    ck_assert_str_eq(b, "xyz");
    units_bytes(80e9, b, sizeof b);
    ck_assert_str_eq(b, "80 ");
    units_duration(143.93 * 86400, b, sizeof b);
    ck_assert_int_eq((int)strlen(b), 3);
}
END_TEST

START_TEST(test_round_trip)
{
    /* What the formatters write, the parser reads back, within their 3 significant digits
     * (half a unit in the third digit: 0.5%). */
    for (double v = 1000; v < 1e18; v *= 1.37) {
        char b[64];
        double back;
        units_count(v, b, sizeof b);
        ck_assert_msg(units_parse(b, &back), "count \"%s\" does not parse", b);
        ck_assert_msg(fabs(back - v) <= 0.005 * v, "count %g -> \"%s\" -> %g", v, b, back);
        units_bytes(v, b, sizeof b);
        /* "432 B" reads as 432 billion (B alone is the count suffix): bytes from 1 kB up. */
        ck_assert_msg(units_parse(b, &back), "bytes \"%s\" does not parse", b);
        ck_assert_msg(fabs(back - v) <= 0.005 * v, "bytes %g -> \"%s\" -> %g", v, b, back);
    }
    /* And exactly for values with 3 significant digits. */
    static const double exact[] = {70e9, 15e12, 4e3, 124e6, 6.74e9, 1.5e6, 80e9};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        char b[64];
        double back;
        units_count(exact[i], b, sizeof b);
        ck_assert(units_parse(b, &back));
        ck_assert_msg(back == exact[i], "\"%s\" -> %.17g, want %.17g", b, back, exact[i]);
    }
    /* Any double printed with %.17g parses back to itself (no exponent sign issue). */
    static const double vals[] = {0.1, 1.0 / 3, 989.4e12, 5e-324 * 1e300, 1.7976931348623157e308,
                                  123456789.123456789, 2.2250738585072014e-308};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char b[64];
        double back;
        snprintf(b, sizeof b, "%.17g", vals[i]);
        ck_assert_msg(units_parse(b, &back), "\"%s\" refused", b);
        ck_assert_msg(back == vals[i], "\"%s\" -> %.17g", b, back);
    }
}
END_TEST

/* Exact wide integers against values worked out by hand. */
START_TEST(test_wide)
{
    char buf[96];
    struct wide p63 = wide_from(9223372036854775808ULL); /* 2^63 */
    ck_assert(wide_format(wide_mul(p63, p63), buf, sizeof buf));
    ck_assert_str_eq(buf, "85070591730234615865843651857942052864"); /* 2^126 */
    ck_assert(wide_format(wide_sub(wide_from(0), wide_from(0)), buf, sizeof buf));
    ck_assert_str_eq(buf, "0");
    ck_assert(wide_format(wide_add(wide_from(UINT64_MAX), wide_from(1)), buf, sizeof buf));
    ck_assert_str_eq(buf, "18446744073709551616");
    uint32_t rem;
    struct wide q = wide_div_small(wide_from(1000000000000000007ULL), 16, &rem);
    ck_assert_uint_eq(rem, 7);
    ck_assert(wide_format(q, buf, sizeof buf));
    ck_assert_str_eq(buf, "62500000000000000");
    /* Past 256 bits, and below zero: no digits. */
    struct wide big = wide_mul(wide_mul(p63, p63), wide_mul(p63, p63)); /* 2^252 */
    ck_assert(wide_mul(big, wide_from(16)).overflow);
    ck_assert(!wide_format(wide_mul(big, wide_from(16)), buf, sizeof buf));
    ck_assert_str_eq(buf, "");
    ck_assert(!wide_format(wide_sub(wide_from(1), wide_from(2)), buf, sizeof buf));
    /* Which counts units_parse_count read exactly. */
    long long n;
    ck_assert(units_parse_count("9007199254740993", &n));
    ck_assert_int_eq(n, 9007199254740993LL);
    ck_assert(units_count_exact("9007199254740993", n));
    ck_assert(units_parse_count("1e18", &n));
    ck_assert(units_count_exact("1e18", n));
    ck_assert(units_count_exact("1.5e17", 150000000000000000LL));
    ck_assert(units_parse_count("9007199254740993e0", &n));
    ck_assert(!units_count_exact("9007199254740993e0", n));
}
END_TEST

static Suite *units_suite(void)
{
    Suite *s = suite_create("units");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_parse_suffixes);
    tcase_add_test(tc, test_parse_rejects);
    tcase_add_test(tc, test_parse_long_mantissa);
    tcase_add_test(tc, test_parse_binary);
    tcase_add_test(tc, test_parse_count);
    suite_add_tcase(s, tc);
    tc = tcase_create("format");
    tcase_add_test(tc, test_format_count);
    tcase_add_test(tc, test_format_units);
    tcase_add_test(tc, test_format_duration);
    tcase_add_test(tc, test_small_buffers);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_wide);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(units_suite());
}
