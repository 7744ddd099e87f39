/* test_inputs.c - the input registry walked row by row: the command line, scenario files and the
 * dashboard's sliders accept and reject the same text with the same result, what is written
 * reads back as the same value, and --help, the man page and the sliders list every input. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_util.h"
#include "cli.h"
#include "inputs.h"
#include "manpage.h"
#include "model.h"
#include "presets.h"
#include "scenario_check.h"
#include "scenario_file.h"
#include "slider.h"

/* The text forms every input is tried with: good and bad numbers, words, names. */
static const char *const PROBES[] = {
    "0", "1", "2", "3", "7", "8", "64", "1000", "2048", "4k", "4Ki", "1.5Ki", "128Ki", "1M",
    "16Mi", "70B", "1e12", "15T", "1e20", "0.5", "50%", "0.001", "1e-300", "1.5", "-1", "12x",
    "", "auto", "on", "OFF", "True", "no", "maybe", "bf16", "BF16", "fp8", "fp64", "int8",
    "adamw", "SGD", "full", "Selective", "6ND", "detailed", "gelu", "swiglu", "rmsnorm", "rope",
    "learned", "gpt2-small", "llama2-7b", "h100-sxm", "a100-80gb", "nonexistent-preset",
    "lecture title",
};

/* The CLI: "--flag text" as one argument vector (the "=" form, so an empty text stays one). */
static bool via_cli(const struct input *in, const char *text, struct scenario *s)
{
    char flag[64], arg[256];
    inputs_flag(in, flag, sizeof flag);
    snprintf(arg, sizeof arg, "--%s=%s", flag, text);
    char *argv[] = {"report", arg, NULL};
    char err[512];
    return cli_parse_scenario(s, 2, argv, 1, err, sizeof err);
}

/* A scenario file holding the one key, its value as a JSON string. */
static bool via_file(const struct input *in, const char *text, struct scenario *s)
{
    cJSON *o = cJSON_CreateObject();
    ck_assert(o != NULL && cJSON_AddStringToObject(o, in->key, text) != NULL);
    char err[512];
    bool ok = scenario_apply_json(s, o, "test.json", err, sizeof err);
    cJSON_Delete(o);
    return ok;
}

START_TEST(test_every_input_every_front_end)
{
    struct presets p;
    presets_load(&p, NULL, NULL);
    int checked = 0;
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        int slider = slider_find(in->key);
        for (size_t k = 0; k < sizeof PROBES / sizeof PROBES[0]; k++) {
            const char *t = PROBES[k];
            struct scenario a, b, c, d;
            inputs_defaults(&a);
            b = c = d = a;
            char err[512];
            bool reg = inputs_parse(in, &a, t, err, sizeof err);
            bool cli = via_cli(in, t, &b);
            bool file = via_file(in, t, &c);
            ck_assert_msg(reg == cli && reg == file, "%s = '%s': registry %d, cli %d, file %d",
                          in->key, t, reg, cli, file);
            char ga[128], gb[128], gc[128];
            inputs_format(in, &a, ga, sizeof ga);
            inputs_format(in, &b, gb, sizeof gb);
            inputs_format(in, &c, gc, sizeof gc);
            ck_assert_msg(!strcmp(ga, gb) && !strcmp(ga, gc), "%s = '%s': %s, %s, %s", in->key, t,
                          ga, gb, gc);
            if (slider >= 0) {
                bool sl = slider_parse(&p, &d, slider, t, err, sizeof err);
                ck_assert_msg(sl == reg, "%s = '%s': registry %d, slider %d (%s)", in->key, t,
                              reg, sl, err);
                char gd[128];
                inputs_format(in, &d, gd, sizeof gd);
                ck_assert_msg(!strcmp(ga, gd), "%s = '%s': %s, slider %s", in->key, t, ga, gd);
            }
            checked++;
        }
    }
    ck_assert_int_gt(checked, 1000);
    presets_free(&p);
}
END_TEST

/* parse(format(x)) == x for values across each numeric input's range. */
START_TEST(test_format_parse_round_trip)
{
    static const double values[] = {0,      1,          2,          3,         7,
                                    1000,   1024,       1536,       2048,      4096,
                                    65536,  100000,     131072,     1048576,   16777216,
                                    1e6,    6738415616, 70e9,       15e12,     1e18,
                                    0.05,   0.5,        0.333,      0.001,     1,
                                    123457, 99999999,   4611686018, 1e14,      2.5e12};
    int checked = 0;
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
            struct scenario s;
            inputs_defaults(&s);
            if (!inputs_set(in, &s, values[k]))
                continue; /* out of this input's range */
            char text[128], err[256];
            inputs_format(in, &s, text, sizeof text);
            struct scenario t;
            inputs_defaults(&t);
            ck_assert_msg(inputs_parse(in, &t, text, err, sizeof err), "%s: %.17g wrote '%s': %s",
                          in->key, values[k], text, err);
            ck_assert_msg(inputs_get(in, &t) == inputs_get(in, &s), "%s: %.17g -> '%s' -> %.17g",
                          in->key, inputs_get(in, &s), text, inputs_get(in, &t));
            checked++;
        }
    }
    ck_assert_int_gt(checked, 200);

    /* The forms people see: exact, short, in the one grammar. */
    char buf[64];
    inputs_format_count(2048, buf, sizeof buf);
    ck_assert_str_eq(buf, "2048");
    inputs_format_count(131072, buf, sizeof buf);
    ck_assert_str_eq(buf, "128Ki");
    inputs_format_count(70e9, buf, sizeof buf);
    ck_assert_str_eq(buf, "70B");
    inputs_format_count(6738415616, buf, sizeof buf);
    ck_assert_str_eq(buf, "6738415616");
    struct scenario s;
    inputs_defaults(&s);
    inputs_format(inputs_find("tokens"), &s, buf, sizeof buf);
    ck_assert_str_eq(buf, "15T");
    inputs_format(inputs_find("micro_batch"), &s, buf, sizeof buf);
    ck_assert_str_eq(buf, "1");
    s.micro_batch = 0;
    inputs_format(inputs_find("micro_batch"), &s, buf, sizeof buf);
    ck_assert_str_eq(buf, "auto");
}
END_TEST

/* One rule: the grammar's edge cases, the same through every front end (see above). */
START_TEST(test_grammar)
{
    struct scenario s;
    char err[256];
    inputs_defaults(&s);
    ck_assert(inputs_parse(inputs_find("seq"), &s, "4k", err, sizeof err));
    ck_assert_int_eq(s.seq, 4000);
    ck_assert(inputs_parse(inputs_find("seq"), &s, "4Ki", err, sizeof err));
    ck_assert_int_eq(s.seq, 4096);
    ck_assert(inputs_parse(inputs_find("batch"), &s, "2Ki", err, sizeof err));
    ck_assert_int_eq(s.batch, 2048);
    ck_assert(inputs_parse(inputs_find("flash"), &s, "OFF", err, sizeof err));
    ck_assert(!s.flash);
    ck_assert(inputs_parse(inputs_find("flash"), &s, "Yes", err, sizeof err));
    ck_assert(s.flash);
    ck_assert(inputs_parse(inputs_find("mfu"), &s, "40%", err, sizeof err));
    ck_assert(s.mfu == 0.4);
    ck_assert(inputs_parse(inputs_find("dtype"), &s, "FP8", err, sizeof err));
    ck_assert_int_eq(s.dtype, DTYPE_FP8_E4M3);
    /* Limits live once: the slider's are the CLI's (--mfu 1e-300 printed a 48-digit time). */
    ck_assert(!inputs_parse(inputs_find("mfu"), &s, "1e-300", err, sizeof err));
    ck_assert_str_eq(err, "1e-300 is out of range (0.001 to 1)");
    ck_assert(!inputs_parse(inputs_find("zero"), &s, "4", err, sizeof err));
    ck_assert_str_eq(err, "4 is out of range (0 to 3)");
    ck_assert(!inputs_parse(inputs_find("gpus"), &s, "12x", err, sizeof err));
    ck_assert_str_eq(err, "'12x' is not a number");
    ck_assert(!inputs_parse(inputs_find("tp"), &s, "1.5", err, sizeof err));
    ck_assert_str_eq(err, "'1.5' is not a whole number");
    ck_assert(!inputs_parse(inputs_find("flash"), &s, "maybe", err, sizeof err));
    ck_assert_str_eq(err, "'maybe' is not on or off");
    ck_assert(!inputs_parse(inputs_find("optimizer"), &s, "lion", err, sizeof err));
    ck_assert_str_eq(err, "'lion' is not one of adamw, sgd, adagrad or adam8bit");
}
END_TEST

/* Every input has its flag in --help and the man page; the sliders are the visible inputs. */
/* A limit lives in one place: a model field's registry range is what model_validate takes,
 * so a value the flag accepts validates and the one past it is refused at the flag (before,
 * --layers 500000 parsed and then failed validation with another message). */
START_TEST(test_model_limits_one_place)
{
    int checked = 0;
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        if (!(in->flags & INPUT_MODEL_FIELD) || in->kind != INPUT_COUNT)
            continue;
        struct scenario s;
        inputs_defaults(&s);
        char text[64], err[256], verr[512];
        snprintf(text, sizeof text, "%.0f", in->hi + 1);
        ck_assert_msg(!inputs_parse(in, &s, text, err, sizeof err), "%s took %s", in->key, text);
        ck_assert_msg(strstr(err, "out of range") != NULL, "%s: %s", in->key, err);
        /* At the top of its range the field alone never makes the model invalid by range
         * (a field another bounds, dense_layers by layers, is that one's to check). */
        snprintf(text, sizeof text, "%.0f", in->hi);
        if (in->depends[0] == '\0' && inputs_parse(in, &s, text, err, sizeof err) &&
            !model_validate(&s.model, verr, (int)sizeof verr))
            ck_assert_msg(strstr(verr, "is too large") == NULL,
                          "%s at %s: %s", in->key, text, verr);
        checked++;
    }
    ck_assert_int_ge(checked, 20);
}
END_TEST

START_TEST(test_help_man_sliders)
{
    char *help = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&help, &len);
    ck_assert(f != NULL);
    cli_scenario_help(f);
    ck_assert_int_eq(fclose(f), 0);

    /* The man page holds exactly the generated lists (make man writes them). */
    check_man_section("INPUTS", manpage_options);
    check_man_section("MODEL-KEYS", manpage_model_keys);
    check_man_section("SCENARIO-KEYS", manpage_scenario_keys);
    char *page = check_read_all("ui/rooftop.1");
    /* A model file's kinds are the parser's own (the page said mlp (gelu|swiglu)). */
    ck_assert(strstr(page, ".BR mlp \" (gelu|swiglu|relu|relu2|geglu),\"") != NULL);
    ck_assert(strstr(page, ".BR norm \" (layernorm|rmsnorm|layernorm\\-nobias|"
                           "layernorm\\-nonparametric),\"") != NULL);
    free(page);

    int visible = 0;
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        char flag[64], want[80];
        inputs_flag(in, flag, sizeof flag);
        snprintf(want, sizeof want, "--%s ", flag);
        ck_assert_msg(strstr(help, want) != NULL, "--help lacks %s", want);
        ck_assert_msg(strstr(help, in->help) != NULL, "--help lacks %s's help", in->key);
        if (in->flags & INPUT_HIDDEN)
            continue;
        /* The sliders are the registry's visible rows, in its order. */
        ck_assert_msg(slider_input(visible) == in, "slider %d is not %s", visible, in->key);
        ck_assert_int_eq(slider_find(in->key), visible);
        ck_assert_int_eq(slider_id(in->key), visible);
        visible++;
    }
    ck_assert_int_eq(visible, slider_count());
    free(help);
}
END_TEST

/* ---- a new row -------------------------------------------------------------------------- */

/* A test-only visible input, stored by its accessors in the test's own variable (a real row
 * is a field of struct scenario): a whole number 1 to 64, stepping in powers of two. */
static double knob;
static double knob_get(const struct scenario *s)
{
    (void)s;
    return knob;
}
static void knob_set(struct scenario *s, double v)
{
    (void)s;
    knob = v;
}
static const struct input_ops KNOB_OPS = {knob_get, knob_set, NULL, NULL, NULL};
static const struct input KNOB = {
    "test_knob", "test knob", INPUT_COUNT, "", 1, 64, NULL, 0, "K",
    "a test-only input (tests/test_inputs.c)", "", 0, STEPS_POW2, 1, 64, 0, 0, FIELD_NONE,
    &KNOB_OPS, NULL, NULL, SETTLE_NEVER, NULL, "8"};

static bool text_has(void (*write)(FILE *), const char *want)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert(f != NULL);
    write(f);
    ck_assert_int_eq(fclose(f), 0);
    bool has = strstr(text, want) != NULL;
    free(text);
    return has;
}

/* One row and nothing else: inserted before "mfu" (where an input once took the "attn
 * FLOPs" slider's place and moved MFU's handling onto itself), it reaches --help, the man
 * page, the command line, scenario files both ways and a slider, and every other slider
 * keeps its row, its order and its key. */
START_TEST(test_new_row_reaches_every_front_end)
{
    const char *before[SLIDER_MAX];
    int n = slider_count();
    for (int i = 0; i < n; i++)
        before[i] = slider_input(i)->key;
    knob = 8;
    ck_assert(inputs_test_insert(&KNOB, "mfu"));
    ck_assert(inputs_find("test-knob") == &KNOB);

    ck_assert(text_has(cli_scenario_help, "--test-knob K"));
    ck_assert(text_has(manpage_options, "test\\-knob"));
    /* Its default beside its help, in both. */
    ck_assert(text_has(cli_scenario_help, "a test-only input (tests/test_inputs.c) (default: 8)"));
    ck_assert(text_has(manpage_options, "a test\\-only input (tests/test_inputs.c) (default: 8)."));

    /* Its default, from the row alone, is the scenario's. */
    knob = 1;
    struct scenario s;
    inputs_defaults(&s);
    ck_assert(knob == 8);
    char *argv[] = {"report", "--test-knob", "16", "--mfu", "0.4", NULL};
    char err[512];
    ck_assert_msg(cli_parse_scenario(&s, 5, argv, 1, err, sizeof err), "%s", err);
    ck_assert(knob == 16 && s.mfu == 0.4);
    char *bad[] = {"report", "--test-knob", "65", NULL};
    ck_assert(!cli_parse_scenario(&s, 3, bad, 1, err, sizeof err));
    ck_assert_msg(strstr(err, "--test-knob: 65 is out of range (1 to 64)") != NULL, "%s", err);
    ck_assert(scenario_check(&s, &(const char *){""}, err, sizeof err));

    /* Written to a file and read back (the variable reset between). */
    cJSON *o = scenario_to_json(&s);
    ck_assert(o != NULL);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "test_knob");
    ck_assert_msg(v != NULL, "the file lacks test_knob");
    knob = 1;
    ck_assert_msg(scenario_apply_json(&s, o, "test.json", err, sizeof err), "%s", err);
    ck_assert(knob == 16);
    cJSON_Delete(o);

    /* A slider, at the row's place, stepping by its row. */
    struct presets p;
    presets_load(&p, NULL, NULL);
    int id = slider_id("test_knob");
    ck_assert_int_eq(slider_count(), n + 1);
    ck_assert_int_eq(id, slider_id("mfu") - 1);
    ck_assert(slider_input(id) == &KNOB);
    ck_assert(slider_step(&p, &s, id, 1) && knob == 32);
    ck_assert(slider_parse(&p, &s, id, "4", err, sizeof err) && knob == 4);
    char text[64];
    slider_format(&p, &s, id, text, sizeof text);
    ck_assert_str_eq(text, "4");
    for (int i = 0, k = 0; i < slider_count(); i++) {
        if (i == id)
            continue;
        ck_assert_str_eq(slider_input(i)->key, before[k]);
        ck_assert_int_eq(slider_id(before[k]), i);
        k++;
    }
    /* MFU's slider is still MFU's: it steps the MFU, not the new row. */
    double was = knob;
    ck_assert(slider_step(&p, &s, slider_id("mfu"), 1));
    ck_assert(knob == was && s.mfu > 0.4);
    presets_free(&p);
}
END_TEST

/* Every row's default is in its range and is what inputs_defaults sets: row by row, the value
 * of the default parsed alone (the parameters and the model's fields come with the model and
 * have none); the defaults together are a valid scenario, the lecture's. */
START_TEST(test_defaults_read_back)
{
    struct scenario s;
    inputs_defaults(&s);
    int with = 0;
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        if (in->def == NULL) {
            ck_assert_msg((in->flags & (INPUT_MODEL_FIELD | INPUT_OF_MODEL)) ||
                              strcmp(in->key, "name") == 0,
                          "%s has no default", in->key);
            continue;
        }
        char err[512], text[128];
        struct scenario t = s;
        ck_assert_msg(inputs_parse(in, &t, in->def, err, sizeof err), "%s: %s", in->key, err);
        ck_assert_msg(in->kind == INPUT_NAME || inputs_check_range(in, &s, err, sizeof err),
                      "%s: %s", in->key, err);
        /* The same value as the default parsed alone; a name formats as its text. */
        inputs_format(in, &s, text, sizeof text);
        if (in->kind == INPUT_NAME)
            ck_assert_msg(strcasecmp(text, in->def) == 0, "%s: default %s formats as %s",
                          in->key, in->def, text);
        else
            ck_assert_msg(inputs_get(in, &s) == inputs_get(in, &t), "%s: default %s is %s",
                          in->key, in->def, text);
        with++;
    }
    ck_assert_int_ge(with, 40);
    char err[512];
    ck_assert_msg(scenario_validate(&s, err, (int)sizeof err), "%s", err);
    /* The lecture's question, figure by figure (reference.md section 1). */
    ck_assert_int_eq(s.gpus, 1024);
    ck_assert(s.tokens == 15e12 && s.mfu == 0.5 && s.mfu_mode == MFU_TYPED);
    ck_assert_str_eq(s.gpu.id, "h100-sxm");
    ck_assert(s.model.exact_params == 70000000000LL);
    ck_assert(s.dtype == DTYPE_BF16 && s.zero == 3 && s.memory_reserve == 2e9);
    ck_assert(s.name[0] == '\0');
}
END_TEST

/* scenario_validate_from (the plan's layouts) says what scenario_validate says: each stored
 * row set past the top of its range, alone, on the default scenario, fails both with the same
 * message; the default itself passes both. */
START_TEST(test_validate_from_base)
{
    struct scenario base;
    inputs_defaults(&base);
    char e1[512], e2[512];
    ck_assert(scenario_validate(&base, e1, (int)sizeof e1));
    ck_assert(scenario_validate_from(&base, &base, e2, (int)sizeof e2));
    int tried = 0;
    for (int i = 0; i < inputs_count(); i++) {
        const struct input *in = inputs_at(i);
        if (in->ops != NULL || in->kind == INPUT_NAME || !isfinite(in->hi) ||
            (in->flags & (INPUT_MODEL_FIELD | INPUT_OF_MODEL)))
            continue;
        struct scenario s = base;
        char *at = (char *)&s + in->offset;
        if (in->field == FIELD_I64) {
            int64_t v = (int64_t)in->hi + 1;
            memcpy(at, &v, sizeof v);
        } else if (in->field == FIELD_INT) {
            int v = (int)in->hi + 1;
            memcpy(at, &v, sizeof v);
        } else if (in->field == FIELD_DOUBLE) {
            double v = in->hi * 2 + 1;
            memcpy(at, &v, sizeof v);
        } else {
            continue;
        }
        bool ok1 = scenario_validate(&s, e1, (int)sizeof e1);
        bool ok2 = scenario_validate_from(&s, &base, e2, (int)sizeof e2);
        ck_assert_msg(!ok1, "%s past its top passed", in->key);
        ck_assert_msg(!ok2, "%s past its top passed from the base", in->key);
        ck_assert_str_eq(e1, e2);
        tried++;
    }
    ck_assert_int_ge(tried, 20);
}
END_TEST

static Suite *inputs_suite(void)
{
    Suite *s = suite_create("inputs");
    TCase *tc = tcase_create("registry");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_input_every_front_end);
    tcase_add_test(tc, test_format_parse_round_trip);
    tcase_add_test(tc, test_grammar);
    tcase_add_test(tc, test_help_man_sliders);
    tcase_add_test(tc, test_model_limits_one_place);
    tcase_add_test(tc, test_validate_from_base);
    suite_add_tcase(s, tc);
    /* Its own case: the row stays in the table once inserted (check forks each test). */
    TCase *row = tcase_create("new row");
    tcase_add_test(row, test_new_row_reaches_every_front_end);
    tcase_add_test(row, test_defaults_read_back);
    suite_add_tcase(s, row);
    return s;
}

int main(void)
{
    return check_run_suite(inputs_suite());
}
