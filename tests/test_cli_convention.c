/* test_cli_convention.c - one convention for every command (issue 17): bad input exits 2 with
 * one line naming the option at fault, misspelt names get the nearest known ones, and the
 * values a message or --help offers are the ones then accepted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "nearest.h"
#include "spec.h"

static struct check_run R;

/* Runs the binary with args; R holds what it printed until the next call. */
static int bin(const char *args)
{
    check_run_free(&R);
    return check_run_bin(&R, args);
}

/* Bad input: exit 2, nothing on stdout, exactly one line on stderr that starts with want. */
static void refused(const char *args, const char *want)
{
    int st = bin(args);
    ck_assert_msg(st == 2, "%s: exit %d, want 2 (%s)", args, st, R.err);
    ck_assert_msg(R.out[0] == '\0', "%s: printed %s", args, R.out);
    char *nl = strchr(R.err, '\n');
    ck_assert_msg(nl != NULL && nl[1] == '\0', "%s: not one line: %s", args, R.err);
    ck_assert_msg(strncmp(R.err, want, strlen(want)) == 0, "%s: \"%s\", want \"%s...\"", args,
                  R.err, want);
}

/* `import` exited 1 on a file it could not read or parse, every other command 2. */
START_TEST(import_bad_input_exits_2)
{
    refused("import /nonexistent/config.json",
            "rooftop import: /nonexistent/config.json: cannot read");
    refused("import no-such-model", "rooftop import: no-such-model: no such model preset");
    refused("import --out x.json", "rooftop import: the file comes first");
}
END_TEST

/* The tiers of "did you mean": the names it begins first, then the letters in order, then
 * two edits; nothing for what is near nothing. */
START_TEST(nearest_tiers)
{
    static const char *const gpus[] = {"a100-40gb", "a100-80gb", "h100-nvl", "h100-pcie",
                                       "h100-sxm", "h200", "b200"};
    char buf[256];
    ck_assert(nearest_suggest("h100", gpus, 7, "", buf, sizeof buf));
    ck_assert_str_eq(buf, "h100-nvl, h100-pcie, h100-sxm");
    ck_assert(nearest_suggest("h100-sxm5", gpus, 7, "", buf, sizeof buf));
    ck_assert_str_eq(buf, "h100-sxm");
    ck_assert(nearest_suggest("H200", gpus, 7, "", buf, sizeof buf));
    ck_assert_str_eq(buf, "h200");
    static const char *const models[] = {"llama2-70b", "llama3.1-70b", "llama3.1-8b",
                                         "llama3.3-70b"};
    ck_assert(nearest_suggest("llama3-70", models, 4, "", buf, sizeof buf));
    ck_assert_str_eq(buf, "llama3.1-70b, llama3.3-70b");
    static const char *const flags[] = {"d-model", "model", "micro-batch", "tp", "pp"};
    ck_assert(nearest_suggest("modle", flags, 5, "--", buf, sizeof buf));
    ck_assert_str_eq(buf, "--model");
    ck_assert(nearest_suggest("model", flags, 5, "--", buf, sizeof buf)); /* "-model" */
    ck_assert_str_eq(buf, "--model");
    ck_assert(nearest_suggest("micro", flags, 5, "--", buf, sizeof buf));
    ck_assert_str_eq(buf, "--micro-batch");
    /* One letter is two edits from "tp": not a typo of it. */
    ck_assert(!nearest_suggest("x", flags, 5, "--", buf, sizeof buf));
    ck_assert_str_eq(buf, "");
    ck_assert_int_eq(nearest_distance("modle", "model"), 1); /* a swap is one edit */
    ck_assert_int_eq(nearest_distance("kitten", "sitting"), 3);
    ck_assert_int_eq(nearest_distance("CA", "abc"), 3);      /* no edit twice on one letter */
}
END_TEST

/* `--gpu h100` offered h200 (one edit) rather than the three H100s it begins. */
START_TEST(presets_prefix_first)
{
    struct gpu_spec g;
    char err[SPEC_ERR_MAX];
    ck_assert(!spec_find_gpu("h100", &g, err, sizeof err));
    ck_assert_msg(strstr(err, "did you mean") && strstr(err, "h100-sxm") && !strstr(err, "h200"),
                  "%s", err);
    struct model_arch m;
    ck_assert(!spec_find_model("llama3-70", &m, err, sizeof err));
    ck_assert_msg(strstr(err, "llama3.1-70b") && !strstr(err, "llama2-70b"), "%s", err);
    refused("report --gpu h100", "rooftop report: --gpu: h100: no such GPU preset (did you mean "
                                 "h100-nvl, h100-pcie, h100-sxm?");
}
END_TEST

/* A misspelt flag got "unknown option" and nothing more. */
START_TEST(flags_get_nearest_names)
{
    refused("report --modle llama2-7b",
            "rooftop report: unknown option '--modle' (did you mean --model?)\n");
    refused("report -model llama2-7b",
            "rooftop report: unknown option '-model' (did you mean --model?)\n");
    refused("plan --topp 3", "rooftop plan: unknown option '--topp' (did you mean --top?)\n");
    refused("list gpus --fromat json",
            "rooftop list: unknown option '--fromat' (did you mean --format?)\n");
    refused("infer --modle llama2-7b",
            "rooftop infer: unknown option '--modle' (did you mean --model?)\n");
    refused("snapshot --asci", "rooftop snapshot: unknown option '--asci' (did you mean --ascii?)\n");
    refused("probe --thread 2", "rooftop probe: unknown option '--thread' (did you mean --threads?");
    /* Nothing near: no guess. */
    refused("report --x 1", "rooftop report: unknown option '--x'\n");
    /* snapshot's options given to the dashboard. */
    refused("--size 80x24", "rooftop: unknown option '--size' (a snapshot option: rooftop "
                            "snapshot --size COLSxROWS; the dashboard fills the terminal)\n");
    /* A misspelt command ("unexpected argument 'reprot'" before). */
    refused("reprot --gpus 8",
            "rooftop: 'reprot' is not a command (did you mean report? rooftop --help lists "
            "them)\n");
    refused("lst gpus", "rooftop: 'lst' is not a command (did you mean list?");
    refused("xyz", "rooftop: 'xyz' is not a command (rooftop --help lists them)\n");
}
END_TEST

/* `infer --gpus 4` said "unknown option" without a word of --tp (and the nearest name alone
 * would be --gpu). */
START_TEST(infer_gpus_points_to_tp)
{
    refused("infer --gpus 4", "rooftop infer: unknown option '--gpus' (did you mean --tp?");
    ck_assert_msg(strstr(R.err, "--tp GPUs"), "%s", R.err);
    refused("infer --seq 4096", "rooftop infer: unknown option '--seq' (did you mean --prompt?");
}
END_TEST

/* `report --tp 3` blamed --gpus, where infer names --tp. */
START_TEST(degree_at_fault_named)
{
    refused("report --tp 3", "rooftop report: --tp: 3 does not divide the 1024 GPUs\n");
    refused("report --pp 3 --model llama3.1-70b",
            "rooftop report: --pp: 3 does not divide the 1024 GPUs\n");
    /* The model's own bound before the GPU count's, as infer checks it. */
    refused("report --tp 3 --model llama2-7b",
            "rooftop report: --tp: 3 does not divide the 32 attention heads\n");
    refused("infer --tp 3 --model llama2-7b",
            "rooftop infer: --tp: 3 does not divide the model's 32 heads\n");
    /* Each degree divides 1000 and their product 64 does not: the GPU count is at fault. */
    refused("report --gpus 1000 --tp 8 --pp 4 --cp 2 --seq 8192 --model llama3.1-70b",
            "rooftop report: --gpus: 1000 is not a multiple of tp x pp x cp = 8 x 4 x 2\n");
}
END_TEST

/* The words between "is not one of " and the closing parenthesis, split on ", " and " or ". */
static int listed_words(const char *msg, char words[][32], int max)
{
    const char *p = strstr(msg, "is not one of ");
    ck_assert_msg(p != NULL, "%s", msg);
    p += strlen("is not one of ");
    int n = 0;
    while (*p && *p != ' ' && *p != '(' && *p != '\n' && n < max) {
        size_t len = strcspn(p, ", (\n");
        ck_assert(len > 0 && len < 32);
        memcpy(words[n], p, len);
        words[n++][len] = '\0';
        p += len;
        if (strncmp(p, ", ", 2) == 0)
            p += 2;
        else if (strncmp(p, " or ", 4) == 0)
            p += 4;
        else
            break;
    }
    return n;
}

/* `infer --dtype 2048` listed fp4 and tf32, then refused both on an H100: each word a
 * refusal lists is now one the command takes on that GPU, and the others are refused. */
START_TEST(dtype_lists_what_is_taken)
{
    static const struct {
        const char *cmd, *gpu;
        int want;
    } cases[] = {
        {"infer", "h100-sxm", 5},   /* fp32, bf16, fp16, fp8-e4m3, fp8-e5m2 */
        {"infer", "a100-80gb", 3},  /* no fp8 on an A100 */
        {"report", "h100-sxm", 6},  /* training also takes tf32; no fp4 on an H100 */
        {"report", "a100-80gb", 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1024];
        snprintf(args, sizeof args, "%s --gpu %s --dtype 2048", cases[i].cmd, cases[i].gpu);
        char want[64];
        snprintf(want, sizeof want, "rooftop %s: --dtype: '2048' is not one of", cases[i].cmd);
        refused(args, want);
        char words[16][32];
        int n = listed_words(R.err, words, 16);
        ck_assert_msg(n == cases[i].want, "%s: %d words: %s", args, n, R.err);
        for (int k = 0; k < n; k++) {
            snprintf(args, sizeof args, "%s --gpu %s --dtype %s --format json", cases[i].cmd,
                     cases[i].gpu, words[k]);
            ck_assert_msg(bin(args) == 0, "%s listed, then refused: %s", args, R.err);
        }
        for (const char *const *w = (const char *const[]){"fp4", "tf32", NULL}; *w; w++) {
            bool listed = false;
            for (int k = 0; k < n; k++)
                listed = listed || strcmp(words[k], *w) == 0;
            snprintf(args, sizeof args, "%s --gpu %s --dtype %s --format json", cases[i].cmd,
                     cases[i].gpu, *w);
            ck_assert_msg((bin(args) == 0) == listed, "%s: exit %d, listed %d: %s", args,
                          R.status, listed, R.err);
        }
    }
}
END_TEST

/* `infer --compute-eff 0` meant auto while the range said 0.001 to 1: typed, 0 is out of the
 * range the help states, and auto is written auto. */
START_TEST(efficiency_range_is_the_help)
{
    refused("infer --compute-eff 0",
            "rooftop infer: --compute-eff: 0 is out of range (0.001 to 1, or auto)\n");
    refused("infer --memory-eff 0",
            "rooftop infer: --memory-eff: 0 is out of range (0.001 to 1, or auto)\n");
    ck_assert_int_eq(bin("infer --compute-eff 0.001 --memory-eff 1"), 0);
    ck_assert_int_eq(bin("infer --compute-eff auto --memory-eff auto"), 0);
    ck_assert_msg(strstr(R.out, "efficiency compute 0.8"), "%s", R.out);
    ck_assert_int_eq(bin("infer --help"), 0);
    ck_assert_msg(strstr(R.out, "--compute-eff E|auto    fraction of the dense peak reached, "
                                "0.001 to 1"),
                  "%s", R.out);
    ck_assert_msg(strstr(R.out, "--memory-eff E|auto     fraction of the memory bandwidth "
                                "reached, 0.001 to 1"),
                  "%s", R.out);
    /* The same rule for the other auto inputs whose range starts above 0. */
    refused("report --node-gpus 0", "rooftop report: --node-gpus: 0 is out of range (1 to 100M, "
                                    "or auto)\n");
}
END_TEST

static Suite *convention_suite(void)
{
    Suite *s = suite_create("cli_convention");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, nearest_tiers);
    tcase_add_test(tc, presets_prefix_first);
    suite_add_tcase(s, tc);
    tc = tcase_create("binary");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, import_bad_input_exits_2);
    tcase_add_test(tc, flags_get_nearest_names);
    tcase_add_test(tc, infer_gpus_points_to_tp);
    tcase_add_test(tc, degree_at_fault_named);
    tcase_add_test(tc, dtype_lists_what_is_taken);
    tcase_add_test(tc, efficiency_range_is_the_help);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    int rc = check_run_suite(convention_suite());
    check_run_free(&R);
    return rc;
}
