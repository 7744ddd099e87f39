/* test_json_dup.c - the repeated-key check of the JSON readers (src/json_dup.c): what it
 * finds, and that its work is n log n in the number of keys. It was n squared: a 1 MB
 * config.json of 130,942 keys took 56 s to import, a 1 MB scenario of 116,442 keys 37.8 s. */
#include <cjson/cJSON.h>

#include "check_util.h"
#include "inputs.h"
#include "json_dup.h"
#include "points.h"
#include "scenario.h"
#include "scenario_file.h"
#include "spec.h"

static const cJSON *dup_of(const char *json, cJSON **root)
{
    *root = cJSON_Parse(json);
    ck_assert_ptr_nonnull(*root);
    const cJSON *dup = (const cJSON *)1;
    ck_assert(json_dup_find(*root, &dup, NULL));
    return dup;
}

START_TEST(test_finds_repeats)
{
    cJSON *root;
    ck_assert_ptr_null(dup_of("{\"a\": 1, \"b\": {\"a\": 2}, \"c\": [{\"a\": 1, \"b\": 2}]}", &root));
    cJSON_Delete(root);
    /* The second occurrence is the one named. */
    const cJSON *d = dup_of("{\"x\": 1, \"a\": 1, \"a\": 2}", &root);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->string, "a");
    ck_assert_int_eq(d->valueint, 2);
    cJSON_Delete(root);
    /* Of two repeated keys, the one seen first ("b" at 0, though "a" sorts first). */
    d = dup_of("{\"b\": 1, \"a\": 1, \"b\": 2, \"a\": 2, \"a\": 3}", &root);
    ck_assert_str_eq(d->string, "b");
    ck_assert_int_eq(d->valueint, 2);
    cJSON_Delete(root);
    /* Inside objects and arrays at any depth. */
    d = dup_of("{\"a\": [1, {\"k\": {\"z\": 1, \"y\": 0, \"z\": 7}}]}", &root);
    ck_assert_str_eq(d->string, "z");
    ck_assert_int_eq(d->valueint, 7);
    cJSON_Delete(root);
    /* An array's elements have no keys: nothing repeats. */
    ck_assert_ptr_null(dup_of("[1, 1, {\"a\": 1}, {\"a\": 1}]", &root));
    cJSON_Delete(root);
}
END_TEST

/* An object of n keys, made with cJSON (no parse): names from key_name. */
static cJSON *object_of(size_t n, void (*key_name)(size_t, char *, size_t))
{
    cJSON *o = cJSON_CreateObject();
    ck_assert_ptr_nonnull(o);
    char k[32];
    for (size_t i = 0; i < n; i++) {
        key_name(i, k, sizeof k);
        ck_assert_ptr_nonnull(cJSON_AddNumberToObject(o, k, (double)i));
    }
    return o;
}

static void key_distinct(size_t i, char *k, size_t n)
{
    snprintf(k, n, "k%zu", i);
}

/* Three letters as in the audit's config.json: many keys sharing prefixes. */
static void key_three(size_t i, char *k, size_t n)
{
    static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    snprintf(k, n, "%c%c%c%zu", al[i % 62], al[i / 62 % 62], al[i / 3844 % 62], i / 238328);
}

static void key_reversed(size_t i, char *k, size_t n)
{
    snprintf(k, n, "%08zu", 1000000 - i);
}

static size_t ceil_log2(size_t n)
{
    size_t l = 0;
    while (((size_t)1 << l) < n)
        l++;
    return l;
}

/* The work is counted, not timed: at most n * ceil(log2 n) + n key comparisons, where the
 * old check made n (n - 1) / 2 (5 billion for 100,000 keys). */
START_TEST(test_work_is_n_log_n)
{
    void (*names[])(size_t, char *, size_t) = {key_distinct, key_three, key_reversed};
    for (size_t f = 0; f < 3; f++) {
        for (size_t n = 10; n <= 100000; n *= 10) {
            cJSON *o = object_of(n, names[f]);
            size_t compares = 0;
            const cJSON *dup;
            ck_assert(json_dup_find(o, &dup, &compares));
            ck_assert_ptr_null(dup);
            ck_assert_msg(compares <= n * ceil_log2(n) + n, "%zu keys: %zu comparisons", n,
                          compares);
            /* And not trivially few: every key took part. */
            ck_assert_uint_ge(compares, n - 1);
            /* A repeat added at the end is found, at the same cost. */
            char k[32];
            names[f](n / 2, k, sizeof k);
            ck_assert_ptr_nonnull(cJSON_AddNumberToObject(o, k, -1));
            compares = 0;
            ck_assert(json_dup_find(o, &dup, &compares));
            ck_assert_ptr_nonnull(dup);
            ck_assert_str_eq(dup->string, k);
            ck_assert_int_eq(dup->valueint, -1);
            ck_assert_uint_le(compares, (n + 1) * ceil_log2(n + 1) + n + 1);
            cJSON_Delete(o);
        }
    }
}
END_TEST

/* The readers refuse a repeat, whichever object holds it, naming the key. */
START_TEST(test_readers_refuse_repeats)
{
    char err[SPEC_ERR_MAX];
    struct scenario s;
    inputs_defaults(&s);
    const char *sj = "{\"gpus\": 8, \"tp\": 2, \"gpus\": 16}";
    ck_assert(!scenario_parse(sj, strlen(sj), "s.json", &s, err, sizeof err));
    ck_assert_str_eq(err, "s.json: gpus: given twice");
    /* One input under both of its spellings is given twice too. */
    const char *sp = "{\"kv_heads\": 8, \"kv-heads\": 4}";
    inputs_defaults(&s);
    ck_assert(!scenario_parse(sp, strlen(sp), "s.json", &s, err, sizeof err));
    ck_assert_str_eq(err, "s.json: kv_heads and kv-heads: one input given twice");
    struct points_doc d;
    points_init(&d);
    const char *pj = "{\"device\": {\"kind\": \"cpu\", \"name\": \"x\", \"name\": \"y\"}, "
                     "\"time\": \"t\", \"points\": []}";
    ck_assert(!points_parse(pj, strlen(pj), "p.json", &d, err, sizeof err));
    ck_assert_str_eq(err, "p.json: \"name\": given twice in one object");
    points_free(&d);
    struct model_arch m;
    const char *hj = "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"hidden_size\": 8}";
    ck_assert(!spec_parse_model_meta(hj, strlen(hj), "config.json", &m, NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "config.json") && strstr(err, "hidden_size") &&
                      strstr(err, "appears twice"),
                  "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("json_dup");
    TCase *tc = tcase_create("keys");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_finds_repeats);
    tcase_add_test(tc, test_work_is_n_log_n);
    tcase_add_test(tc, test_readers_refuse_repeats);
    suite_add_tcase(s, tc);
    return check_run_suite(s);
}
