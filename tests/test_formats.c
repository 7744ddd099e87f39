/* test_formats.c - one figure of each command the same in text, JSON, CSV and Markdown: the
 * four formats are one writer each that walks the command's table of figures (src/figure.h),
 * so each carries the same value, JSON and CSV in full, text and Markdown to their digits. */
#include <check.h>

#include <cjson/cJSON.h>

#include "check_util.h"

/* One figure of one command, where each format shows it. */
struct format_case {
    const char *args;      /* the command line, without --format */
    const char *json;      /* its JSON path: "intensity", "plans[0].tp", "[id=h100-sxm].x" */
    const char *csv;       /* the start of its CSV row: "result,intensity," */
    const char *text;      /* what text writes just before it */
    const char *md;        /* what Markdown writes just before it */
    double want;           /* its exact value */
    double prose_rel;      /* the relative error text and Markdown round it to */
    const char *text_row;  /* where text's search starts (a table's row), NULL: the start */
    const char *md_row;    /* the same in Markdown */
};

/* The output of args in format fmt ("" for text); the caller frees it. */
static char *run_format(const char *args, const char *fmt)
{
    char q[1024];
    snprintf(q, sizeof q, "%s%s%s", args, fmt[0] ? " --format " : "", fmt);
    struct check_run r;
    check_run_bin(&r, q);
    ck_assert_msg(r.status == 0, "%s: status %d\n%s", q, r.status, r.err);
    free(r.err);
    return r.out;
}

/* The number just after key in out, spaces skipped. */
static double number_after(const char *out, const char *key, const char *what)
{
    const char *p = strstr(out, key);
    ck_assert_msg(p != NULL, "%s: no '%s' in\n%s", what, key, out);
    p += strlen(key);
    while (*p == ' ')
        p++;
    char *end;
    double v = strtod(p, &end);
    ck_assert_msg(end != p, "%s: no number after '%s' in\n%s", what, key, out);
    return v;
}

/* The item of array a whose string member k is v ("id=h100-sxm"), or NULL. */
static const cJSON *item_where(const cJSON *a, const char *kv)
{
    const char *eq = strchr(kv, '=');
    ck_assert(eq != NULL);
    char k[64];
    snprintf(k, sizeof k, "%.*s", (int)(eq - kv), kv);
    const cJSON *it;
    cJSON_ArrayForEach(it, a)
    {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(it, k);
        if (cJSON_IsString(s) && strcmp(s->valuestring, eq + 1) == 0)
            return it;
    }
    return NULL;
}

/* The number at a dotted path of a JSON document, a part "name[i]" an array's item, and
 * "name[k=v]" (name may be empty: the document) the item whose k is v. */
static double json_at(const char *out, const char *path)
{
    cJSON *root = cJSON_Parse(out);
    ck_assert_msg(root != NULL, "not JSON:\n%s", out);
    const cJSON *o = root;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *part = strtok(buf, "."); part != NULL && o != NULL; part = strtok(NULL, ".")) {
        char *br = strchr(part, '[');
        char *sel = br != NULL ? br + 1 : NULL;
        if (br != NULL) {
            *br = '\0';
            sel[strcspn(sel, "]")] = '\0';
        }
        if (part[0] != '\0')
            o = cJSON_GetObjectItemCaseSensitive(o, part);
        if (sel != NULL && strchr(sel, '=') != NULL)
            o = item_where(o, sel);
        else if (sel != NULL)
            o = cJSON_GetArrayItem(o, atoi(sel));
    }
    ck_assert_msg(cJSON_IsNumber(o), "no number at %s in\n%s", path, out);
    double v = o->valuedouble;
    cJSON_Delete(root);
    return v;
}

/* out from just after row (the start of a table's line) on, or all of it. */
static const char *from_row(const char *out, const char *row)
{
    if (row == NULL)
        return out;
    const char *p = strstr(out, row);
    ck_assert_msg(p != NULL, "no row '%s' in\n%s", row, out);
    return p + strlen(row);
}

static void check_case(const struct format_case *c)
{
    char *out = run_format(c->args, "json");
    /* JSON and CSV carry the double itself. */
    ck_assert_msg(json_at(out, c->json) == c->want, "%s: json %s = %.17g, want %.17g", c->args,
                  c->json, json_at(out, c->json), c->want);
    free(out);
    out = run_format(c->args, "csv");
    char row[256];
    snprintf(row, sizeof row, "\n%s", c->csv);
    double csv = number_after(out, row, "csv");
    ck_assert_msg(csv == c->want, "%s: csv %s = %.17g, want %.17g", c->args, c->csv, csv,
                  c->want);
    free(out);
    out = run_format(c->args, "");
    ck_assert_rel(number_after(from_row(out, c->text_row), c->text, "text"), c->want,
                  c->prose_rel);
    free(out);
    out = run_format(c->args, "md");
    ck_assert_rel(number_after(from_row(out, c->md_row), c->md, "md"), c->want, c->prose_rel);
    free(out);
}

/* matmul at n = 4096 in bf16: n^2 (2n - 1) FLOPs over 3 n^2 x 2 bytes = (2n - 1) / 6, 8191/6
 * = 1365.17 FLOP/byte (text and Markdown print 1365); its FLOPs 4096^2 x 8191. */
START_TEST(intensity_in_every_format)
{
    static const struct format_case cases[] = {
        {"intensity matmul --n 4096 --dtype bf16 --gpu h100-sxm", "intensity",
         "result,intensity,", "  intensity   ", "| intensity | ", 8191.0 / 6, 1e-3, NULL, NULL},
        {"intensity matmul --n 4096 --dtype bf16 --gpu h100-sxm", "flops", "result,flops,",
         "  flops       ", "| flops | ", 4096.0 * 4096 * 8191, 5e-3, NULL, NULL},
        /* the H100's ridge: 989.4e12 FLOP/s / 3.35e12 B/s = 295.3 */
        {"intensity relu --gpu h100-sxm", "ridge", "result,ridge,", "  ridge       ",
         "| ridge | ", 989.4e12 / 3.35e12, 5e-3, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
}
END_TEST

/* The presets' rows: the H100's bf16 ridge, 989.4e12 / 3.35e12 = 295.3 (its file's peak and
 * bandwidth), and Llama-2-7B's 6,738,415,616 parameters (Meta's count), exact in text too. */
START_TEST(list_in_every_format)
{
    static const struct format_case cases[] = {
        {"list gpus", "[id=h100-sxm].bf16_ridge", "h100-sxm,bf16_ridge,", "TFLOP/s",
         "TFLOP/s | ", 989.4e12 / 3.35e12, 5e-3, "\nh100-sxm ", "| h100-sxm |"},
        {"list models", "[id=llama2-7b].params", "llama2-7b,params,", "B (", "B (",
         6738415616.0, 0, "\nllama2-7b ", "| llama2-7b |"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
}
END_TEST

/* The lecture's solves: 8 H100s hold floor(8 x 80e9 / 12) parameters with AdamW at 12 bytes
 * each (model state only, ZeRO-3); Llama-2-7B's 6,738,415,616 x 16 bytes need 2 of them;
 * 8 GPUs x 14 days x 86400 s x 989.5e12 FLOP/s = 9.5751936e21 FLOPs. */
START_TEST(solve_in_every_format)
{
    static const struct format_case cases[] = {
        {"solve max-params --gpu h100-sxm --gpus 8 --optimizer adamw --dtype bf16 --zero 3 "
         "--master-weights off",
         "max_params", "result,max_params,", "(", "(", floor(8 * 80e9 / 12), 5e-3, NULL, NULL},
        {"solve min-gpus --model llama2-7b --gpu h100-sxm --tp 1 --zero 3 --master-weights on "
         "--activations off",
         "min_gpus", "result,min_gpus,", "min gpus:", "| min gpus | ", 2, 0, NULL, NULL},
        {"solve flops --gpus 8 --days 14 --gpu h100-sxm --peak 989.5e12", "flops",
         "result,flops,", "flops:", "| flops | ", 8 * 14 * 86400 * 989.5e12, 1e-3, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
}
END_TEST

/* A plan's layout: 16 GPUs held to tp 2, pp 1, cp 1 leave data parallelism 16 / 2 = 8, in the
 * first plan's row of every format. */
START_TEST(plan_in_every_format)
{
    static const struct format_case cases[] = {
        {"plan --model llama3.1-8b --gpu h100-sxm --gpus 16 --tp 2 --pp 1 --cp 1 --top 1",
         "plans[0].dp", "plans,1.dp,", "", "", 16 / 2, 0, "\n   1    16 ", "| 1 | 16 | "},
        {"plan --model llama3.1-8b --gpu h100-sxm --gpus 16 --tp 2 --pp 1 --cp 1 --top 1",
         "plans[0].options.tp", "plans,1.options.tp,", "", "", 2, 0, "\n   1    16    8 ",
         "| 1 | 16 | 8 | "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
}
END_TEST

/* "bsh,ho->bso" at b 4, s 128, h 512, o 1024 in bf16: FLOPs 2 b s h o = 536,870,912 (a
 * multiply and an add per term), bytes (b s h + h o + b s o) x 2 = (262,144 + 524,288 +
 * 524,288) x 2 = 2,621,440; text and Markdown say both in full after the rounded figure, and
 * the sizes and the output's shape as typed. */
#define EINSUM_CASE "einsum 'bsh,ho->bso' --dims b=4,s=128,h=512,o=1024 --dtype bf16 --gpu h100-sxm"
START_TEST(einsum_in_every_format)
{
    static const struct format_case cases[] = {
        {EINSUM_CASE, "flops", "result,flops,", "  flops       5.37e8 (", "| flops | 5.37e8 (",
         2.0 * 4 * 128 * 512 * 1024, 0, NULL, NULL},
        {EINSUM_CASE, "bytes", "result,bytes,", "  bytes       2.62 MB (", "| bytes | 2.62 MB (",
         (4.0 * 128 * 512 + 512 * 1024 + 4 * 128 * 1024) * 2, 0, NULL, NULL},
        {EINSUM_CASE, "dims.h", "dims,h,", "h=", "h=", 512, 0, NULL, NULL},
        {EINSUM_CASE, "output_shape[2]", "output_shape,3,", "[4, 128, ", "[4, 128, ", 1024, 0,
         NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
}
END_TEST

/* The formats' figures from their bits: fp16's largest (2 - 2^-10) x 2^15 = 65504, bf16's
 * epsilon 2^-7 (7 mantissa bits; text and Markdown print 0.007812 after its subnormal 2^-133
 * = 9.184e-41), and 1e-8 as bf16 stores it: 1e-8 = 1.34217728 x 2^-27, its mantissa
 * 1.34217728 x 2^7 = 171.8 rounded to 172, so 172 x 2^-34 (text's 9 digits, 1.00117177e-08). */
START_TEST(dtypes_in_every_format)
{
    static const struct format_case cases[] = {
        {"dtypes", "formats[name=fp16].max", "formats,fp16.max,", "1/5/10", "1/5/10 |",
         (2 - ldexp(1, -10)) * ldexp(1, 15), 0, "\nfp16 ", "| fp16 |"},
        {"dtypes", "formats[name=bf16].epsilon", "formats,bf16.epsilon,", "9.184e-41",
         "9.184e-41 |", ldexp(1, -7), 1e-3, "\nbf16 ", "| bf16 |"},
        {"dtypes --value 1e-8", "formats[name=bf16].stored", "formats,bf16.stored,", "bf16 ",
         "bf16 ", 172 * ldexp(1, -34), 1e-8, "stored as", "stored as"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("formats");
    TCase *tc = tcase_create("formats");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, intensity_in_every_format);
    tcase_add_test(tc, list_in_every_format);
    tcase_add_test(tc, solve_in_every_format);
    tcase_add_test(tc, plan_in_every_format);
    tcase_add_test(tc, einsum_in_every_format);
    tcase_add_test(tc, dtypes_in_every_format);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite());
}
