/* test_report.c - the report in text, JSON, CSV and Markdown: keys, figures, well-formedness. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "check_util.h"
#include "report_harness.h"
#include "cli.h"
#include "report.h"
#include "scenario.h"


/* True when text holds "nan" or "inf" as a word of its own (not inside "info", "name"). */
static bool has_nonfinite(const char *text)
{
    for (const char *p = text; *p != '\0'; p++) {
        if (p != text && isalpha((unsigned char)p[-1]))
            continue;
        if (strncasecmp(p, "nan", 3) == 0 && !isalpha((unsigned char)p[3]))
            return true;
        if (strncasecmp(p, "inf", 3) == 0 &&
            (!isalpha((unsigned char)p[3]) || strncasecmp(p, "infinity", 8) == 0))
            return true;
    }
    return false;
}

static const cJSON *jpath(const cJSON *j, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, a);
    ck_assert_msg(x != NULL, "no key %s", a);
    if (b == NULL)
        return x;
    const cJSON *y = cJSON_GetObjectItemCaseSensitive(x, b);
    ck_assert_msg(y != NULL, "no key %s.%s", a, b);
    return y;
}

static double jnum(const cJSON *j, const char *a, const char *b)
{
    const cJSON *x = jpath(j, a, b);
    ck_assert_msg(cJSON_IsNumber(x), "%s.%s is not a number", a, b ? b : "");
    return x->valuedouble;
}

/* cJSON prints doubles with 15 significant digits when that reads back within an epsilon,
 * so figures from JSON are compared to 1e-14 relative, not bit for bit. */
static struct scenario S;
static struct analysis A;

START_TEST(test_json_keys)
{
    check_scenario(&S, &A, "--model llama2-7b --gpus 64 --tp 2 --recompute full --flops detailed");
    char *text = check_render(&S, &A, REPORT_JSON);
    cJSON *j = cJSON_Parse(text);
    ck_assert_msg(j != NULL, "not JSON:\n%s", text);

    /* Every key issue 2 lists, with the analysis' own figures. */
    ck_assert_rel(jnum(j, "params", "total"), 6738415616.0, 1e-14);
    ck_assert_rel(jnum(j, "params", "active"), (double)A.params.active, 1e-14);
    ck_assert_rel(jnum(j, "params", "embedding"), 32000.0 * 4096, 1e-14);
    ck_assert_rel(jnum(j, "params", "per_layer"), (double)A.params.per_layer, 1e-14);
    static const char *const comp[] = {"position", "attention", "mlp", "router", "norms",
                                       "biases", "lm_head"};
    for (size_t i = 0; i < sizeof comp / sizeof comp[0]; i++)
        (void)jnum(j, "params", comp[i]);
    ck_assert_rel(jnum(j, "params", "lm_head"), 32000.0 * 4096, 1e-14);

    ck_assert_rel(jnum(j, "memory", "params"), A.memory.row[MEM_PARAMS].bytes, 1e-14);
    ck_assert_rel(jnum(j, "memory", "grads"), A.memory.row[MEM_GRADS].bytes, 1e-14);
    ck_assert_rel(jnum(j, "memory", "optimizer"), A.memory.row[MEM_OPTIMIZER].bytes, 1e-14);
    ck_assert_rel(jnum(j, "memory", "master_weights"), A.memory.row[MEM_MASTER].bytes, 1e-14);
    ck_assert_rel(jnum(j, "memory", "activations"), A.memory.row[MEM_ACTIVATIONS].bytes, 1e-14);
    ck_assert_rel(jnum(j, "memory", "activations_per_layer"), A.memory.activations_per_layer, 1e-14);
    ck_assert_rel(jnum(j, "memory", "total"), A.memory.total, 1e-14);
    ck_assert_rel(jnum(j, "memory", "capacity"), 80e9, 1e-14);
    ck_assert(cJSON_IsBool(jpath(j, "memory", "fits")));
    ck_assert(cJSON_IsTrue(jpath(j, "memory", "fits")) == A.memory.fits);
    const cJSON *rows = jpath(j, "memory", "rows");
    ck_assert_int_eq(cJSON_GetArraySize(rows), MEM_COUNT);
    const cJSON *r0 = cJSON_GetArrayItem(rows, 0);
    ck_assert_str_eq(jpath(r0, "row", NULL)->valuestring, "params");
    ck_assert_str_eq(jpath(r0, "dtype", NULL)->valuestring, "bf16");
    /* bf16 parameters: 2 bytes per element. */
    ck_assert_rel(jnum(r0, "bytes", NULL), 2 * jnum(r0, "elements", NULL), 1e-12);

    ck_assert_rel(jnum(j, "flops", "per_step"), A.flops.per_step, 1e-14);
    ck_assert_rel(jnum(j, "flops", "total"), A.flops.total, 1e-14);
    ck_assert_rel(jnum(j, "flops", "six_nd"), 6 * 6738415616.0 * 2e12, 1e-12);
    ck_assert_rel(jnum(j, "flops", "recompute"), A.flops.recompute, 1e-14);
    ck_assert(jnum(j, "flops", "recompute") > 0);

    static const char *const tk[] = {"seconds", "days", "gpu_hours", "mfu", "hfu"};
    for (size_t i = 0; i < sizeof tk / sizeof tk[0]; i++)
        (void)jnum(j, "time", tk[i]);
    ck_assert_rel(jnum(j, "time", "days") * 86400, jnum(j, "time", "seconds"), 1e-12);
    ck_assert_rel(jnum(j, "time", "gpu_hours"), jnum(j, "time", "seconds") * 64 / 3600, 1e-9);
    /* The MFU in use: a --model line without --mfu is timed at the predicted HFU, which the
     * scenario block echoes as its mfu. */
    ck_assert_str_eq(jpath(j, "time", "mfu_source")->valuestring, "predicted");
    ck_assert_rel(jnum(j, "time", "hfu"), jnum(j, "scenario", "mfu"), 1e-14);
    ck_assert_rel(jnum(j, "time", "hfu"), jnum(jpath(j, "time", "predicted"), "hfu", NULL), 1e-14);

    ck_assert_rel(jnum(j, "roofline", "peak"), 989.4e12, 1e-14);
    ck_assert_rel(jnum(j, "roofline", "bandwidth"), 3.35e12, 1e-14);
    ck_assert_rel(jnum(j, "roofline", "ridge"), 989.4e12 / 3.35e12, 1e-12);

    const cJSON *ops = jpath(j, "ops", NULL);
    ck_assert(cJSON_IsArray(ops));
    ck_assert_int_eq(cJSON_GetArraySize(ops), A.n_ops);
    ck_assert(A.n_ops >= 8);
    int k = 0;
    for (const cJSON *o = ops->child; o != NULL; o = o->next, k++) {
        ck_assert_str_eq(jpath(o, "name", NULL)->valuestring, A.ops[k].name);
        ck_assert_rel(jnum(o, "flops", NULL), A.ops[k].flops, 1e-14);
        ck_assert_rel(jnum(o, "bytes", NULL), A.ops[k].bytes, 1e-14);
        ck_assert_rel(jnum(o, "intensity", NULL), A.ops[k].intensity, 1e-14);
        ck_assert_rel(jnum(o, "seconds", NULL), A.ops[k].seconds, 1e-14);
        const char *b = jpath(o, "bound", NULL)->valuestring;
        ck_assert_str_eq(b, A.ops[k].compute_bound ? "compute" : "memory");
    }
    /* The inputs come along, in the scenario-file form. */
    ck_assert_str_eq(jpath(j, "scenario", "model")->valuestring, "llama2-7b");
    ck_assert_rel(jnum(j, "scenario", "gpus"), 64, 1e-14);
    cJSON_Delete(j);
    free(text);
}
END_TEST

START_TEST(test_text_lecture)
{
    check_scenario(&S, &A, "--params 70B --tokens 15T --gpus 1024 --gpu h100-sxm --mfu 0.5 --flops 6nd");
    char *t = check_render(&S, &A, REPORT_TEXT);
    ck_assert_msg(strstr(t, "143.9 days") != NULL, "%s", t);
    static const char *const want[] = {
        "Memory per GPU", "parameters", "gradients", "optimizer state", "master weights",
        "activations", "total", "Parameters", "FLOPs", "6ND, whole run 6.30e24", "Time",
        "GPU-hours", "tokens/s", "step time", "MFU 0.5", "HFU 0.5", "Operations", "bound",
        "Roofline", "989 TFLOP/s", "3.35 TB/s", "ridge 295 FLOP/byte", "MFU bound",
        "70000000000",
    };
    /* Each line's label and value, spaces between them squeezed to one. */
    char *sq = strdup(t);
    ck_assert(sq != NULL);
    size_t o = 0;
    for (size_t i = 0; t[i] != '\0'; i++)
        if (t[i] != ' ' || o == 0 || sq[o - 1] != ' ')
            sq[o++] = t[i];
    sq[o] = '\0';
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(sq, want[i]) != NULL, "no \"%s\" in the report", want[i]);
    free(sq);
    ck_assert(!has_nonfinite(t));
    free(t);

    /* Too big: the total row says by how much it overflows. 70B with AdamW on one GPU. */
    check_scenario(&S, &A, "--params 70B --gpus 1 --tp 1 --zero 0 --batch 1 --sp off");
    t = check_render(&S, &A, REPORT_TEXT);
    ck_assert(!A.memory.fits);
    /* Against the usable memory: 80 GB less the 2 GB reserve. */
    ck_assert_msg(strstr(t, "does not fit: ") != NULL && strstr(t, " over 78 GB usable"), "%s", t);
    free(t);
}
END_TEST

/* Splits one CSV record (RFC 4180) at *p into fields; returns the count, -1 if malformed. */
static int csv_record(const char **p, char fields[][256], int max)
{
    int n = 0;
    const char *c = *p;
    for (;;) {
        if (n == max)
            return -1;
        size_t len = 0;
        if (*c == '"') {
            c++;
            for (;;) {
                if (*c == '\0')
                    return -1;
                if (*c == '"') {
                    if (c[1] == '"') {
                        c += 2;
                        if (len < 255)
                            fields[n][len++] = '"';
                        continue;
                    }
                    c++;
                    break;
                }
                if (len < 255)
                    fields[n][len++] = *c;
                c++;
            }
            if (*c != ',' && *c != '\n')
                return -1;
        } else {
            while (*c != ',' && *c != '\n' && *c != '\0') {
                if (*c == '"')
                    return -1;
                if (len < 255)
                    fields[n][len++] = *c;
                c++;
            }
        }
        fields[n][len] = '\0';
        n++;
        if (*c == ',') {
            c++;
            continue;
        }
        if (*c == '\n')
            c++;
        *p = c;
        return n;
    }
}

START_TEST(test_csv)
{
    check_scenario(&S, &A, "--model gpt2-small --gpus 8 --tp 1 --flops detailed");
    snprintf(S.name, sizeof S.name, "a, \"quoted\" name");
    char *t = check_render(&S, &A, REPORT_CSV);
    const char *p = t;
    char f[8][256];
    ck_assert_int_eq(csv_record(&p, f, 8), 4);
    ck_assert_str_eq(f[0], "section");
    ck_assert_str_eq(f[1], "key");
    ck_assert_str_eq(f[2], "value");
    ck_assert_str_eq(f[3], "unit");
    int rows = 0;
    bool saw_days = false, saw_total = false, saw_name = false, saw_op = false;
    while (*p != '\0') {
        int n = csv_record(&p, f, 8);
        ck_assert_msg(n == 4, "record %d has %d fields", rows + 2, n);
        rows++;
        if (strcmp(f[0], "time") == 0 && strcmp(f[1], "days") == 0) {
            saw_days = true;
            ck_assert_rel(strtod(f[2], NULL), A.time.days, 1e-15);
            ck_assert_str_eq(f[3], "days");
        }
        if (strcmp(f[0], "params") == 0 && strcmp(f[1], "total") == 0) {
            saw_total = true;
            ck_assert_str_eq(f[2], "124439808");
        }
        if (strcmp(f[0], "scenario") == 0 && strcmp(f[1], "name") == 0) {
            saw_name = true;
            ck_assert_str_eq(f[2], "a, \"quoted\" name");
        }
        if (strcmp(f[0], "ops") == 0 && strstr(f[1], ".bound") != NULL) {
            saw_op = true;
            ck_assert(strcmp(f[2], "memory") == 0 || strcmp(f[2], "compute") == 0);
        }
    }
    ck_assert(saw_days && saw_total && saw_name && saw_op);
    ck_assert(rows > 50);
    ck_assert(!has_nonfinite(t));
    free(t);
}
END_TEST

/* Number of cells of a Markdown table row "| a | b |" (escaped "\|" is not a separator). */
static int md_cells(const char *line, size_t len)
{
    int bars = 0;
    for (size_t i = 0; i < len; i++)
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
            bars++;
    return bars - 1;
}

START_TEST(test_markdown)
{
    check_scenario(&S, &A, "--model mixtral-8x7b --gpus 64 --tp 8 --zero 1");
    snprintf(S.name, sizeof S.name, "pipes | in | name");
    char *t = check_render(&S, &A, REPORT_MD);
    ck_assert(strncmp(t, "# pipes \\| in \\| name\n", 22) == 0);
    int tables = 0, cols = 0, line_no = 0;
    bool in_table = false, need_sep = false;
    for (const char *p = t; *p != '\0';) {
        const char *e = strchr(p, '\n');
        ck_assert_msg(e != NULL, "last line unterminated");
        size_t len = (size_t)(e - p);
        line_no++;
        if (len > 0 && p[0] == '|') {
            ck_assert_msg(p[len - 1] == '|', "line %d does not end with |", line_no);
            int n = md_cells(p, len);
            if (!in_table) {
                in_table = true;
                need_sep = true;
                cols = n;
                tables++;
            } else if (need_sep) {
                /* The separator row: only '-', ':', '|' and spaces. */
                for (size_t i = 0; i < len; i++)
                    ck_assert_msg(strchr("-:| ", p[i]) != NULL, "line %d: bad separator", line_no);
                ck_assert_int_eq(n, cols);
                need_sep = false;
            } else {
                ck_assert_msg(n == cols, "line %d: %d cells, table has %d", line_no, n, cols);
            }
        } else {
            ck_assert_msg(!need_sep, "table header without separator before line %d", line_no);
            in_table = false;
        }
        p = e + 1;
    }
    /* the scenario; memory's rows and totals; parameters, FLOPs, time, cost; the predicted
     * step's headline, parts and assumptions; operations, contracts, roofline */
    ck_assert_int_eq(tables, 13);
    ck_assert(strstr(t, "| router |") != NULL);     /* an MoE model has routers */
    ck_assert(strstr(t, "| mlp (active) |") != NULL);
    ck_assert(!has_nonfinite(t));
    free(t);
}
END_TEST

START_TEST(test_never_nonfinite)
{
    /* Extremes: a 10-trillion-parameter model on a million GPUs, a tiny one on one GPU, fp4,
     * every recompute mode. No format may print NaN or infinity. */
    static const char *const lines[] = {
        "--params 10T --gpus 1048576 --tp 8 --pp 16 --batch 65536 --tokens 1e15",
        "--params 2M --gpus 1 --tp 1 --sp off --batch 1 --seq 16 --tokens 1",
        "--model gpt2-small --dtype fp4 --gpu b200 --gpus 8 --tp 1 --recompute sqrt",
        "--model llama3.1-405b --recompute full --flash off --dropout on --flops detailed",
        "--model gpt3-175b --dtype fp32 --gpu v100 --gpus 1024 --tp 8 --pp 8 --zero 2",
        "--model mixtral-8x7b --optimizer adam8bit --dtype fp8-e5m2 --gpu rtx-4090",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        check_scenario(&S, &A, lines[i]);
        for (int f = REPORT_TEXT; f <= REPORT_MD; f++) {
            char *t = check_render(&S, &A, (enum report_format)f);
            ck_assert_msg(!has_nonfinite(t), "%s --format %s:\n%s", lines[i],
                          report_format_name((enum report_format)f), t);
            if (f == REPORT_JSON) {
                cJSON *j = cJSON_Parse(t);
                ck_assert_msg(j != NULL, "%s: JSON does not parse", lines[i]);
                ck_assert(cJSON_IsNumber(jpath(j, "memory", "total")));
                cJSON_Delete(j);
            }
            free(t);
        }
    }
}
END_TEST

START_TEST(test_write_failure)
{
    /* A stream that cannot be written: report_write says so instead of pretending. */
    check_scenario(&S, &A, "");
    FILE *f = fopen("/dev/full", "w");
    if (f == NULL)
        return; /* no /dev/full on this system: nothing to exercise */
    setvbuf(f, NULL, _IONBF, 0);
    struct evaluation *ev = malloc(sizeof *ev);
    ck_assert(ev != NULL);
    evaluation_run(&S, NULL, ev);
    for (int fmt = REPORT_TEXT; fmt <= REPORT_MD; fmt++) {
        clearerr(f);
        ck_assert_msg(!report_write(f, ev, (enum report_format)fmt), "format %d", fmt);
    }
    free(ev);
    fclose(f);
}
END_TEST

/* The exact count printed on the Parameters row `label` ("  label  short (exact)"). */
static long long param_row(const char *text, const char *label)
{
    char key[64];
    snprintf(key, sizeof key, "\n  %s ", label);
    const char *p = strstr(strstr(text, "Parameters\n"), key);
    ck_assert_msg(p != NULL, "no row %s in:\n%s", label, text);
    p += strlen(key);
    char shortv[32];
    long long v = -1;
    ck_assert_msg(sscanf(p, " %31s (%lld)", shortv, &v) == 2, "row %s unreadable", label);
    return v;
}

START_TEST(test_params_parts_sum)
{
    /* Issue 8: --params 70B printed parts summing to 67.48B under a 70B total. The total row
     * is now the sum of the rows above it; the count typed (6ND's N) is said beside it. */
    check_scenario(&S, &A, "--params 70B --tokens 15T --gpus 1024 --gpu h100-sxm --mfu 0.5 --flops 6nd");
    char *t = check_render(&S, &A, REPORT_TEXT);
    long long parts = param_row(t, "embedding") + param_row(t, "attention") +
                      param_row(t, "mlp") + param_row(t, "norms") + param_row(t, "lm head");
    ck_assert_int_eq(param_row(t, "total"), parts);
    ck_assert_rel((double)parts, 70e9, 1e-4);
    ck_assert_int_eq(param_row(t, "typed (6ND)"), 70000000000LL);
    ck_assert_msg(strstr(t, "6ND uses the 70000000000 typed") != NULL, "%s", t);
    ck_assert_msg(strstr(t, "143.9 days") != NULL, "%s", t);
    free(t);

    cJSON *j = cJSON_Parse(t = check_render(&S, &A, REPORT_JSON));
    ck_assert(j != NULL);
    ck_assert_rel(jnum(j, "params", "total"), (double)parts, 1e-14);
    ck_assert_rel(jnum(j, "params", "typed"), 70e9, 1e-14);
    ck_assert_rel(jnum(j, "params", "six_nd_n"), 70e9, 1e-14);
    ck_assert_rel(jnum(j, "flops", "six_nd"), 6 * 70e9 * 15e12, 1e-14);
    cJSON_Delete(j);
    free(t);

    /* A preset architecture: no typed count, 6ND's N is its own total. */
    check_scenario(&S, &A, "--model llama2-7b --gpus 8");
    t = check_render(&S, &A, REPORT_TEXT);
    ck_assert_msg(strstr(t, "typed") == NULL, "%s", t);
    free(t);
    j = cJSON_Parse(t = check_render(&S, &A, REPORT_JSON));
    ck_assert(cJSON_IsNull(jpath(j, "params", "typed")));
    ck_assert_rel(jnum(j, "params", "six_nd_n"), 6738415616.0, 1e-14);
    cJSON_Delete(j);
    free(t);
}
END_TEST

START_TEST(test_format_names)
{
    enum report_format f;
    for (int i = REPORT_TEXT; i <= REPORT_MD; i++) {
        ck_assert(report_format_parse(report_format_name((enum report_format)i), &f));
        ck_assert_int_eq(f, i);
    }
    ck_assert(report_format_parse("markdown", &f) && f == REPORT_MD);
    ck_assert(!report_format_parse("xml", &f));
    ck_assert(!report_format_parse("", &f));
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("formats");
    tcase_add_test(tc, test_json_keys);
    tcase_add_test(tc, test_text_lecture);
    tcase_add_test(tc, test_csv);
    tcase_add_test(tc, test_markdown);
    tcase_add_test(tc, test_never_nonfinite);
    tcase_add_test(tc, test_write_failure);
    tcase_add_test(tc, test_format_names);
    tcase_add_test(tc, test_params_parts_sum);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(report_suite());
}
