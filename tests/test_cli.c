/* test_cli.c - scenario options, scenario files, and the rooftop binary's commands. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check_util.h"
#include "cli.h"
#include "commands.h"
#include "inputs.h"
#include "model.h"
#include "scenario.h"
#include "scenario_check.h"
#include "scenario_file.h"
#include "spec.h"

#define ERR 1024

/* ---- helpers ------------------------------------------------------------------------------- */

/* Splits a command line on spaces into argv (argv[0] = "report"); no quoting needed here. */
struct args {
    char buf[2048];
    char *argv[64];
    int argc;
};

static void args_make(struct args *a, const char *line)
{
    snprintf(a->buf, sizeof a->buf, "report %s", line);
    a->argc = 0;
    for (char *tok = strtok(a->buf, " "); tok != NULL && a->argc < 63; tok = strtok(NULL, " "))
        a->argv[a->argc++] = tok;
    a->argv[a->argc] = NULL;
}

/* Parses a line of scenario options onto the default scenario. */
static bool parse_line(struct scenario *s, const char *line, char *err)
{
    struct args a;
    args_make(&a, line);
    inputs_defaults(s);
    err[0] = '\0';
    return cli_parse_scenario(s, a.argc, a.argv, 1, err, ERR);
}

static void parse_ok(struct scenario *s, const char *line)
{
    char err[ERR];
    ck_assert_msg(parse_line(s, line, err), "\"%s\" refused: %s", line, err);
}

/* The line must be refused (by the parser or scenario_validate) with an error that starts
 * with want_prefix and contains want_part. */
static void parse_fails(const char *line, const char *want_prefix, const char *want_part)
{
    struct scenario s;
    char err[ERR];
    bool ok = parse_line(&s, line, err);
    if (ok)
        ok = scenario_validate(&s, err, ERR);
    ck_assert_msg(!ok, "\"%s\" was accepted", line);
    ck_assert_msg(strncmp(err, want_prefix, strlen(want_prefix)) == 0,
                  "\"%s\": error \"%s\" does not start with \"%s\"", line, err, want_prefix);
    ck_assert_msg(strstr(err, want_part) != NULL, "\"%s\": error \"%s\" lacks \"%s\"", line, err,
                  want_part);
    ck_assert_msg(strchr(err, '\n') == NULL, "\"%s\": error is not one line: %s", line, err);
}

static char tmpdir[256];

static void make_tmpdir(void)
{
    check_tmpdir(tmpdir, sizeof tmpdir, "cli");
}

static void remove_tmpdir(void)
{
    check_rmtree(tmpdir);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    ck_assert(fputs(text, f) >= 0);
    ck_assert(fclose(f) == 0);
}

/* ---- scenario options ---------------------------------------------------------------------- */

START_TEST(test_options_set_fields)
{
    struct scenario s;
    parse_ok(&s, "--gpus 64 --tp 4 --pp 2 --zero 3 --dtype fp8 --master-weights on "
                 "--optimizer sgd --batch 4k --micro-batch 2 --seq 8Ki --tokens 2T --mfu 0.4 "
                 "--recompute selective --flash off --dropout on --flops detailed --sp off");
    ck_assert_int_eq(s.gpus, 64);
    ck_assert_int_eq(s.tp, 4);
    ck_assert_int_eq(s.pp, 2);
    ck_assert_int_eq(s.zero, 3);
    ck_assert_int_eq(s.dtype, DTYPE_FP8_E4M3);
    ck_assert(s.master_weights);
    ck_assert_int_eq(s.optimizer, OPT_SGD);
    ck_assert_int_eq(s.batch, 4000);
    ck_assert_int_eq(s.micro_batch, 2);
    ck_assert_int_eq(s.seq, 8192); /* "8Ki" is 8192; "8k" would be 8000: one rule for all */
    ck_assert(s.tokens == 2e12);
    ck_assert(s.mfu == 0.4);
    ck_assert_int_eq(s.recompute, RECOMPUTE_SELECTIVE);
    ck_assert(!s.flash);
    ck_assert(s.dropout);
    ck_assert_int_eq(s.flops_mode, FLOPS_DETAILED);
    ck_assert(!s.sp);

    /* --flag=value reads the same as --flag value. */
    struct scenario t;
    parse_ok(&t, "--gpus=64 --tp=4 --pp=2 --zero=3 --dtype=fp8 --master-weights=on "
                 "--optimizer=sgd --batch=4k --micro-batch=2 --seq=8Ki --tokens=2T --mfu=0.4 "
                 "--recompute=selective --flash=off --dropout=on --flops=detailed --sp=off");
    ck_assert(memcmp(&s, &t, sizeof s) == 0);

    parse_ok(&s, "--sp off --sp");
    ck_assert(s.sp);
    parse_ok(&s, "--sp off");
    ck_assert(!s.sp);
    parse_ok(&s, "--mfu 40%");
    ck_assert(s.mfu == 0.4);
    parse_ok(&s, "--dtype fp8-e5m2");
    ck_assert_int_eq(s.dtype, DTYPE_FP8_E5M2);
    parse_ok(&s, "--dtype tf32");
    ck_assert_int_eq(s.dtype, DTYPE_TF32);
    parse_ok(&s, "--dtype fp4 --optimizer adam8bit --recompute sqrt --flops 6nd");
    ck_assert_int_eq(s.dtype, DTYPE_FP4);
    ck_assert_int_eq(s.optimizer, OPT_ADAM8BIT);
    ck_assert_int_eq(s.recompute, RECOMPUTE_SQRT);
    ck_assert_int_eq(s.flops_mode, FLOPS_6ND);
}
END_TEST

/* cli_args.given: the inputs a flag set (plan holds layout flags as constraints), by the
 * registry's index; room for every input of the registry. */
START_TEST(test_options_given)
{
    ck_assert_int_le(inputs_count(), CLI_INPUTS_MAX);
    struct args a;
    args_make(&a, "--gpus 64 --tp=4 --micro-batch auto --sp");
    struct scenario s;
    inputs_defaults(&s);
    struct cli_args ca;
    cli_args_init(&ca, a.argc, a.argv, 1, &s, NULL, 0);
    const struct cli_flag *f;
    const char *v;
    ck_assert_int_eq(cli_next(&ca, &f, &v), CLI_END);
    static const char *const given[] = {"gpus", "tp", "micro_batch", "sp"};
    static const char *const not_given[] = {"pp", "zero", "recompute", "batch"};
    for (size_t i = 0; i < sizeof given / sizeof given[0]; i++)
        ck_assert_msg(ca.given[inputs_index(inputs_find(given[i]))], "%s", given[i]);
    for (size_t i = 0; i < sizeof not_given / sizeof not_given[0]; i++)
        ck_assert_msg(!ca.given[inputs_index(inputs_find(not_given[i]))], "%s", not_given[i]);
}
END_TEST

START_TEST(test_options_model)
{
    struct scenario s;
    struct param_counts pc;
    parse_ok(&s, "--model llama2-7b");
    model_params(&s.model, &pc);
    ck_assert_int_eq(pc.total, 6738415616LL);
    ck_assert_str_eq(s.model.id, "llama2-7b");
    /* The model file's training tokens come with it... */
    ck_assert(s.tokens == 2e12);
    /* ...unless --tokens is given, before or after. */
    parse_ok(&s, "--tokens 1T --model llama2-7b");
    ck_assert(s.tokens == 1e12);
    parse_ok(&s, "--model=llama2-7b --tokens=3T");
    ck_assert(s.tokens == 3e12);

    /* --params: N as typed (6ND's), a shape from the documented rule within 0.01% of it. */
    parse_ok(&s, "--params 70B");
    model_params(&s.model, &pc);
    ck_assert_int_eq(pc.typed, 70000000000LL);
    ck_assert_rel(pc.total, 70e9, 1e-4);
    ck_assert_int_eq(s.model.exact_params, 70000000000LL);

    /* Model fields override a preset; editing the shape drops the exact count. */
    parse_ok(&s, "--model gpt2-small --layers 24 --d-model 1024 --heads 16 --kv-heads 8 "
                 "--ffn 4k --vocab 32000 --context 2048 --mlp swiglu --norm rmsnorm "
                 "--tied-embeddings off --bias off --qkv-bias on --positional rope");
    ck_assert_int_eq(s.model.layers, 24);
    ck_assert_int_eq(s.model.d_model, 1024);
    ck_assert_int_eq(s.model.heads, 16);
    ck_assert_int_eq(s.model.kv_heads, 8);
    ck_assert_int_eq(s.model.ffn, 4000);
    ck_assert_int_eq(s.model.vocab, 32000);
    ck_assert_int_eq(s.model.context, 2048);
    ck_assert_int_eq(s.model.mlp, MLP_SWIGLU);
    ck_assert_int_eq(s.model.norm, NORM_RMSNORM);
    ck_assert(!s.model.tied_embeddings);
    ck_assert(!s.model.bias);
    ck_assert(s.model.qkv_bias);
    ck_assert_int_eq(s.model.positional, POS_ROPE);
    parse_ok(&s, "--params 7B --layers 16");
    ck_assert_int_eq(s.model.exact_params, 0);
    ck_assert_int_eq(s.model.layers, 16);
    parse_ok(&s, "--model mixtral-8x7b --experts 16 --experts-active 4 --shared-experts 1 "
                 "--moe-ffn 7k --dense-layers 2");
    ck_assert_int_eq(s.model.experts, 16);
    ck_assert_int_eq(s.model.experts_active, 4);
    ck_assert_int_eq(s.model.shared_experts, 1);
    ck_assert_int_eq(s.model.moe_ffn, 7000);
    ck_assert_int_eq(s.model.dense_layers, 2);

    parse_ok(&s, "--gpu a100-80gb");
    ck_assert_str_eq(s.gpu.id, "a100-80gb");
    ck_assert(s.gpu.memory_bytes == 80e9);
}
END_TEST

START_TEST(test_options_errors)
{
    /* Each kind of bad flag: one line naming the flag and what is wrong. */
    parse_fails("--foo 3", "unknown option '--foo'", "--foo");
    parse_fails("--dmodel 5", "unknown option '--dmodel'", "--dmodel");
    /* Flags and file keys are one word: --d_model reads as --d-model. */
    struct scenario a, b;
    char err[ERR];
    ck_assert(parse_line(&a, "--d_model 1024 --micro_batch 2", err));
    ck_assert(parse_line(&b, "--d-model 1024 --micro-batch 2", err));
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    parse_fails("stray", "unexpected argument 'stray'", "stray");
    parse_fails("--gpus", "--gpus: ", "needs a value");
    parse_fails("--gpus=", "--gpus: ", "needs a value");
    parse_fails("--gpus --tp 8", "--gpus: ", "needs a value");
    parse_fails("--gpus 12x", "--gpus: ", "'12x' is not a number");
    parse_fails("--batch 1.5", "--batch: ", "not a whole number");
    parse_fails("--tokens nan", "--tokens: ", "is not a number");
    parse_fails("--mfu inf", "--mfu: ", "is not a number");
    parse_fails("--zero 4", "--zero: ", "out of range");
    parse_fails("--tp -2", "--tp: ", "out of range");
    parse_fails("--mfu 1.5", "--mfu: ", "out of range");
    parse_fails("--mfu 0", "--mfu: ", "out of range");
    parse_fails("--gpus 0", "--gpus: ", "out of range");
    parse_fails("--seq 1e30", "--seq: ", "out of range");
    parse_fails("--params 10", "--params: ", "out of range");
    parse_fails("--dtype int8", "--dtype: ", "'int8'");
    parse_fails("--optimizer lion", "--optimizer: ", "'lion'");
    parse_fails("--recompute some", "--recompute: ", "'some'");
    parse_fails("--flash maybe", "--flash: ", "not on or off");
    parse_fails("--flops 8nd", "--flops: ", "'8nd'");
    parse_fails("--mlp swish", "--mlp: ", "'swish'");
    /* The parallel layout, checked by scenario_validate, names the flags too. */
    parse_fails("--gpus 1024 --tp 3", "--tp: ", "3 does not divide the 1024 GPUs");
    parse_fails("--model nope", "--model: ", "no such model");
    parse_fails("--gpu h100", "--gpu: ", "no such GPU");
    parse_fails("--model /nonexistent/m.json", "--model: ", "/nonexistent/m.json");
    parse_fails("--scenario /nonexistent/s.json", "--scenario: ", "/nonexistent/s.json");

    /* A bad model file: the flag, the file and the field. */
    make_tmpdir();
    char path[512], line[600];
    snprintf(path, sizeof path, "%s/bad-model.json", tmpdir);
    write_text(path, "{\"name\": \"x\", \"layers\": 0}");
    snprintf(line, sizeof line, "--model %s", path);
    parse_fails(line, "--model: ", path);
    snprintf(path, sizeof path, "%s/bad.json", tmpdir);
    write_text(path, "{not json");
    snprintf(line, sizeof line, "--gpu %s", path);
    parse_fails(line, "--gpu: ", path);
    snprintf(line, sizeof line, "--scenario %s", path);
    parse_fails(line, "--scenario: ", "not valid JSON");
    remove_tmpdir();
}
END_TEST

START_TEST(test_option_not_ours)
{
    /* A subcommand's own flags come back to it with their values; scenario options between
     * them are applied; nothing else is consumed. */
    char *argv[] = {"report", "--format", "json", "--gpus", "8", "--sp", "--tp=2", "--quick",
                    NULL};
    static const struct cli_flag own[] = {{"format", true}, {"quick", false}};
    struct scenario s;
    inputs_defaults(&s);
    struct cli_args a;
    cli_args_init(&a, 8, argv, 1, &s, own, 2);
    const struct cli_flag *f;
    const char *v;
    ck_assert_int_eq(cli_next(&a, &f, &v), CLI_OWN);
    ck_assert_ptr_eq(f, &own[0]);
    ck_assert_str_eq(v, "json");
    ck_assert_int_eq(cli_next(&a, &f, &v), CLI_OWN);
    ck_assert_ptr_eq(f, &own[1]);
    ck_assert_ptr_null(v);
    ck_assert_int_eq(s.gpus, 8);
    ck_assert(s.sp); /* an on/off flag alone is on */
    ck_assert_int_eq(s.tp, 2);
    ck_assert_int_eq(cli_next(&a, &f, &v), CLI_END);

    /* Without scenario options (intensity, list), a scenario flag is unknown. */
    cli_args_init(&a, 8, argv, 3, NULL, own, 2);
    ck_assert_int_eq(cli_next(&a, &f, &v), CLI_ERROR);
    ck_assert_str_eq(a.err, "unknown option '--gpus'");
}
END_TEST

/* ---- scenario files ------------------------------------------------------------------------ */

/* Two scenarios hold the same inputs when their JSON forms print the same. */
static void assert_same_inputs(const struct scenario *a, const struct scenario *b)
{
    cJSON *ja = scenario_to_json(a), *jb = scenario_to_json(b);
    ck_assert(ja != NULL && jb != NULL);
    char *ta = cJSON_PrintUnformatted(ja), *tb = cJSON_PrintUnformatted(jb);
    ck_assert_msg(strcmp(ta, tb) == 0, "inputs differ:\n%s\n%s", ta, tb);
    free(ta);
    free(tb);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
}

/* Saves s, checks nothing but the file is left in the directory, and loads it back. */
static void save_load(const struct scenario *s, struct scenario *back)
{
    char path[512], err[ERR];
    snprintf(path, sizeof path, "%s/s.json", tmpdir);
    ck_assert_msg(scenario_save(path, s, err, sizeof err), "save: %s", err);
    DIR *d = opendir(tmpdir);
    ck_assert(d != NULL);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            files++;
    closedir(d);
    ck_assert_int_eq(files, 1); /* no temporary file left behind */
    /* Load onto something different, so every input must come from the file. */
    inputs_defaults(back);
    char dummy[ERR];
    ck_assert(scenario_set_option(back, "model", "gpt2-small", dummy, sizeof dummy) == 1);
    back->gpus = 3;
    back->tp = 1;
    back->mfu = 0.1;
    ck_assert_msg(scenario_load(path, back, err, sizeof err), "load: %s", err);
}

START_TEST(test_file_round_trip)
{
    make_tmpdir();
    struct scenario s, back;

    inputs_defaults(&s);
    save_load(&s, &back);
    assert_same_inputs(&s, &back);
    ck_assert(back.gpus == 1024 && back.tp == 1 && back.zero == 3 && back.mfu == 0.5);
    ck_assert_int_eq(back.model.exact_params, 70000000000LL);

    /* A preset model is saved by its id. */
    parse_ok(&s, "--model llama3.1-8b --gpu h200 --gpus 16 --tp 2 --zero 2 --dtype fp16 "
                 "--master-weights on --optimizer adagrad --batch 512 --micro-batch 4 --seq 2k "
                 "--tokens 1.5T --mfu 0.37 --recompute full --flash off --dropout on "
                 "--flops detailed");
    save_load(&s, &back);
    assert_same_inputs(&s, &back);
    cJSON *j = scenario_to_json(&s);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "model")->valuestring, "llama3.1-8b");
    ck_assert_str_eq(cJSON_GetObjectItem(j, "gpu")->valuestring, "h200");
    cJSON_Delete(j);

    /* A modified model and GPU are saved whole, and come back exactly. */
    parse_ok(&s, "--model qwen2.5-7b --layers 20 --experts 4 --experts-active 2");
    s.gpu.memory_bytes = 96e9;
    s.gpu.peak_flops[PEAK_FP8] = 0;
    s.gpu.peak_valid[PEAK_FP8] = false;
    snprintf(s.name, sizeof s.name, "a \"quoted\", odd name");
    save_load(&s, &back);
    assert_same_inputs(&s, &back);
    ck_assert_int_eq(back.model.layers, 20);
    ck_assert_int_eq(back.model.experts, 4);
    ck_assert(back.model.qkv_bias);
    ck_assert(back.gpu.memory_bytes == 96e9);
    ck_assert(!back.gpu.peak_valid[PEAK_FP8]);
    ck_assert_str_eq(back.name, s.name);
    j = scenario_to_json(&s);
    ck_assert(cJSON_IsObject(cJSON_GetObjectItem(j, "model")));
    ck_assert(cJSON_IsObject(cJSON_GetObjectItem(j, "gpu")));
    cJSON_Delete(j);

    /* An exact --params model with its shape edited keeps the edit. */
    parse_ok(&s, "--params 13B --layers 30");
    save_load(&s, &back);
    assert_same_inputs(&s, &back);
    remove_tmpdir();
}
END_TEST

START_TEST(test_file_save_errors)
{
    struct scenario s;
    inputs_defaults(&s);
    char err[ERR];
    ck_assert(!scenario_save("/nonexistent-dir/x/s.json", &s, err, sizeof err));
    ck_assert_msg(strstr(err, "/nonexistent-dir/x/s.json") != NULL, "%s", err);

    /* Overwriting replaces the file whole. */
    make_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/s.json", tmpdir);
    write_text(path, "old contents that are not a scenario");
    ck_assert_msg(scenario_save(path, &s, err, sizeof err), "%s", err);
    struct scenario back;
    inputs_defaults(&back);
    ck_assert_msg(scenario_load(path, &back, err, sizeof err), "%s", err);
    remove_tmpdir();
}
END_TEST

/* Applying the JSON text must fail with an error starting "origin: " and naming want. */
static void apply_fails(const char *json, const char *want)
{
    struct scenario s, before;
    inputs_defaults(&s);
    before = s;
    char err[ERR];
    ck_assert_msg(!scenario_parse(json, strlen(json), "demo.json", &s, err, sizeof err),
                  "accepted: %s", json);
    ck_assert_msg(strncmp(err, "demo.json: ", 11) == 0, "%s: error \"%s\" lacks the file", json,
                  err);
    ck_assert_msg(strstr(err, want) != NULL, "%s: error \"%s\" lacks \"%s\"", json, err, want);
    ck_assert_msg(strchr(err, '\n') == NULL, "not one line: %s", err);
    ck_assert_msg(memcmp(&s, &before, sizeof s) == 0, "%s: scenario changed on error", json);
}

START_TEST(test_file_errors)
{
    apply_fails("{\"gpus\": 8", "not valid JSON");
    apply_fails("[1, 2]", "not a JSON object");
    apply_fails("{\"gpus\": 8, \"gpuz\": 4}", "gpuz: unknown key");
    apply_fails("{\"gpus\": \"12x\"}", "gpus: '12x' is not a number");
    apply_fails("{\"gpus\": -4}", "gpus: -4 is out of range");
    apply_fails("{\"gpus\": 1.5}", "gpus: '1.5' is not a whole number");
    apply_fails("{\"zero\": 7}", "zero: 7 is out of range");
    apply_fails("{\"flash\": \"sometimes\"}", "flash: 'sometimes' is not on or off");
    apply_fails("{\"gpus\": [8]}", "gpus: not a string, number or boolean");
    apply_fails("{\"gpus\": null}", "gpus: ");
    apply_fails("{\"gpus\": 8, \"gpus\": 16}", "gpus: given twice");
    apply_fails("{\"model\": \"nope\"}", "model: ");
    apply_fails("{\"gpu\": {\"name\": \"x\"}}", "gpu: memory_bytes");
    apply_fails("{\"model\": {\"name\": \"x\", \"layers\": 2}}", "model: d_model");
    apply_fails("{\"model\": {\"name\": \"x\", \"params\": -3}}", "model: params");
}
END_TEST

START_TEST(test_file_apply_order)
{
    struct scenario a, b;
    char err[ERR];
    /* Whatever the key order: the model, then params, then its fields, then the rest. */
    const char *j1 = "{\"layers\": 16, \"model\": \"llama2-7b\", \"gpus\": 8, \"tp\": 8}";
    const char *j2 = "{\"tp\": 8, \"model\": \"llama2-7b\", \"gpus\": 8, \"layers\": 16}";
    inputs_defaults(&a);
    inputs_defaults(&b);
    ck_assert_msg(scenario_parse(j1, strlen(j1), "a", &a, err, sizeof err), "%s", err);
    ck_assert_msg(scenario_parse(j2, strlen(j2), "b", &b, err, sizeof err), "%s", err);
    ck_assert_int_eq(a.model.layers, 16);
    ck_assert_int_eq(a.model.d_model, 4096);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert(a.tokens == 2e12); /* the model file's tokens, no "tokens" key */

    const char *j3 = "{\"params\": \"7B\", \"model\": \"llama2-7b\", \"tokens\": \"1T\","
                     " \"caption\": \"ignored\", \"_comment\": 1, \"mfu\": \"45%\"}";
    ck_assert_msg(scenario_parse(j3, strlen(j3), "c", &a, err, sizeof err), "%s", err);
    ck_assert_int_eq(a.model.exact_params, 7000000000LL);
    ck_assert(a.tokens == 1e12);
    ck_assert(a.mfu == 0.45);

    /* Overrides apply onto what is there (a lecture step changes only what it names). */
    inputs_defaults(&a);
    const char *j4 = "{\"batch\": 64}";
    ck_assert(scenario_parse(j4, strlen(j4), "d", &a, err, sizeof err));
    ck_assert_int_eq(a.batch, 64);
    ck_assert_int_eq(a.gpus, 1024);
    ck_assert(a.master_weights == false);
    const char *j5 = "{\"master_weights\": true, \"sp\": \"off\"}";
    ck_assert(scenario_parse(j5, strlen(j5), "e", &a, err, sizeof err));
    ck_assert(a.master_weights);
    ck_assert(!a.sp);
}
END_TEST

/* ---- the binary ---------------------------------------------------------------------------- */

struct run {
    int status;
    char out[65536];
    char err[4096];
};

/* Runs the binary with args and keeps its stdout, stderr and exit status. */
static void run_bin(struct run *r, const char *args)
{
    struct check_run c;
    r->status = check_run_bin(&c, args);
    snprintf(r->out, sizeof r->out, "%s", c.out);
    snprintf(r->err, sizeof r->err, "%s", c.err);
    check_run_free(&c);
}

static cJSON *run_json(struct run *r, const char *args)
{
    run_bin(r, args);
    ck_assert_msg(r->status == 0, "%s: exit %d: %s", args, r->status, r->err);
    cJSON *j = cJSON_Parse(r->out);
    ck_assert_msg(j != NULL, "%s: output is not JSON:\n%s", args, r->out);
    return j;
}

static double jget(const cJSON *j, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, a);
    if (b != NULL)
        x = cJSON_GetObjectItemCaseSensitive(x, b);
    ck_assert_msg(cJSON_IsNumber(x), "missing number %s%s%s", a, b ? "." : "", b ? b : "");
    return x->valuedouble;
}

static struct run R; /* large: static rather than on the stack */

START_TEST(test_bin_lecture_time)
{
    /* The lecture: 6 x 70e9 x 15e12 / (1024 x 989.4e12 x 0.5) = 143.94 days. */
    const char *q = "report --params 70B --tokens 15T --gpus 1024 --gpu h100-sxm --mfu 0.5 "
                    "--flops 6nd";
    run_bin(&R, q);
    ck_assert_msg(R.status == 0, "exit %d: %s", R.status, R.err);
    ck_assert_msg(strstr(R.out, "143.9 days") != NULL, "no 143.9 days in:\n%s", R.out);
    ck_assert_str_eq(R.err, "");
    char q2[512];
    snprintf(q2, sizeof q2, "%s --format json", q);
    cJSON *j = run_json(&R, q2);
    ck_assert_rel(jget(j, "time", "days"), 6 * 70e9 * 15e12 / (1024 * 989.4e12 * 0.5) / 86400,
                  1e-9);
    ck_assert_rel(jget(j, "time", "days"), 143.94, 5e-4);
    ck_assert_rel(jget(j, "flops", "six_nd"), 6.3e24, 1e-12);
    ck_assert_rel(jget(j, "roofline", "ridge"), 295.3, 1e-3);
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_bin_solve)
{
    const char *base = "solve max-params --gpu h100-sxm --gpus 8 --optimizer adamw --dtype bf16 "
                       "--zero 3";
    char q[512];
    /* 2026: 2 + 2 + 8 = 12 bytes per parameter: 8 x 80e9 / 12 = 5.333e10. */
    snprintf(q, sizeof q, "%s --master-weights off --format json", base);
    cJSON *j = run_json(&R, q);
    ck_assert_rel(jget(j, "max_params", NULL), 8 * 80e9 / 12, 1e-3);
    cJSON_Delete(j);
    /* 16 bytes per parameter with master weights and bf16 gradients (ZeRO's 2 + 2 + 12): 4e10. */
    snprintf(q, sizeof q, "%s --master-weights on --grad-dtype bf16 --format json", base);
    j = run_json(&R, q);
    ck_assert_rel(jget(j, "max_params", NULL), 4e10, 1e-3);
    cJSON_Delete(j);
    /* Gradients auto beside master weights: fp32, as Megatron-LM and DeepSpeed (18 bytes). */
    snprintf(q, sizeof q, "%s --master-weights on --format json", base);
    j = run_json(&R, q);
    ck_assert_rel(jget(j, "max_params", NULL), 8 * 80e9 / 18, 1e-3);
    cJSON_Delete(j);

    snprintf(q, sizeof q, "%s --master-weights off", base);
    run_bin(&R, q);
    ck_assert_int_eq(R.status, 0);
    ck_assert_msg(strstr(R.out, "53.3B") != NULL, "%s", R.out);
    ck_assert_msg(strstr(R.out, "upper bound") != NULL, "%s", R.out);
    snprintf(q, sizeof q, "%s --master-weights on --grad-dtype bf16", base);
    run_bin(&R, q);
    ck_assert_msg(strstr(R.out, "40B") != NULL, "%s", R.out);

    /* Counting activations can only lower the answer. */
    snprintf(q, sizeof q, "%s --master-weights off --activations on --format json", base);
    j = run_json(&R, q);
    double with_act = jget(j, "max_params", NULL);
    ck_assert_msg(with_act > 0 && with_act < 8 * 80e9 / 12, "%g", with_act);
    cJSON_Delete(j);

    /* min-gpus: Llama-2-7B with AdamW, fp32 master weights, model state only:
     * 6,738,415,616 x 16 B = 107.8 GB: 2 H100s with ZeRO-3. */
    j = run_json(&R, "solve min-gpus --model llama2-7b --gpu h100-sxm --tp 1 --zero 3 "
                     "--master-weights on --activations off --format json");
    ck_assert_int_eq((int)jget(j, "min_gpus", NULL), 2);
    cJSON_Delete(j);
    run_bin(&R, "solve min-gpus --model llama2-7b --tp 1 --zero 3");
    ck_assert_int_eq(R.status, 0);
    ck_assert_msg(strstr(R.out, "min gpus: ") != NULL && strstr(R.out, "activations counted"),
                  "%s", R.out);
    /* Nothing fits: why (the batch of 8 caps data parallelism at 8 GPUs) and what to try. */
    run_bin(&R, "solve min-gpus --model llama2-70b --batch 8");
    ck_assert_msg(strstr(R.out, "min gpus: none up to 1048576 fits") != NULL, "%s", R.out);
    ck_assert_msg(strstr(R.out, "\nwhy: data parallelism cannot exceed the batch of 8 sequences: "
                                "at 8 GPUs (dp 8) each still needs ") != NULL, "%s", R.out);
    /* tp 2 no longer fits in 78 GB usable once ZeRO-3 gathers the embedding. */
    ck_assert_msg(strstr(R.out, "\ntry: --tp 4 (fits on 16 GPUs)") != NULL, "%s", R.out);
}
END_TEST

START_TEST(test_bin_intensity)
{
    static const struct {
        const char *op;
        double want;
        const char *text;
        const char *bound;
    } cases[] = {
        {"relu", 0.25, "0.25 FLOP/byte", "memory"},
        {"gelu", 5.0, "5 FLOP/byte", "memory"},
        {"dot", 0.4999995, "0.5 FLOP/byte", "memory"},
        {"matvec", 0.9976, "0.998 FLOP/byte", "memory"},
        {"matmul", 341.17, "341 FLOP/byte", "compute"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char q[256];
        snprintf(q, sizeof q, "intensity %s --format json", cases[i].op);
        cJSON *j = run_json(&R, q);
        ck_assert_rel(jget(j, "intensity", NULL), cases[i].want, 1e-4);
        ck_assert_rel(jget(j, "intensity", NULL),
                      jget(j, "flops", NULL) / jget(j, "bytes", NULL), 1e-12);
        ck_assert_str_eq(cJSON_GetObjectItem(j, "bound")->valuestring, cases[i].bound);
        cJSON_Delete(j);
        snprintf(q, sizeof q, "intensity %s", cases[i].op);
        run_bin(&R, q);
        ck_assert_int_eq(R.status, 0);
        ck_assert_msg(strstr(R.out, cases[i].text) != NULL, "%s: no \"%s\" in\n%s", cases[i].op,
                      cases[i].text, R.out);
        ck_assert_msg(strstr(R.out, "295 FLOP/byte") != NULL, "no H100 ridge in\n%s", R.out);
    }
    /* Size and dtype: matmul at n = 8192 in fp32 has intensity about n/6. */
    cJSON *j = run_json(&R, "intensity matmul --n 8k --dtype fp32 --gpu a100-80gb --format json");
    ck_assert_rel(jget(j, "intensity", NULL), 8000.0 * 8000 * (2 * 8000 - 1) / (3 * 4.0 * 8000 * 8000),
                  1e-9);
    ck_assert_rel(jget(j, "ridge", NULL), 19.5e12 / 2.039e12, 1e-3);
    cJSON_Delete(j);
}
END_TEST

/* The counts in parentheses are exact integers (integer arithmetic), or absent: a double
 * printed 1999999999999000044371968 for n(2n-1) at n = 1e12. */
START_TEST(test_bin_intensity_exact)
{
    static const struct {
        const char *args, *want, *not;
    } cases[] = {
        /* n (2n - 1) = 2e24 - 1e12; bf16 bytes 2 (n^2 + 2n) */
        {"matvec --n 1e12", "(1999999999999000000000000)", NULL},
        {"matvec --n 1e12", "(2000000000004000000000000 read + written)", NULL},
        /* 2n - 1 and 2 (2n + 1) at n = 1e18 */
        {"dot --n 1e18", "(1999999999999999999)", NULL},
        {"dot --n 1e18", "(4000000000000000002 read + written)", NULL},
        {"dot --n 1e18", "n = 1000000000000000000,", NULL},
        /* Plain digits are read exactly past 2^53. */
        {"dot --n 9007199254740993", "n = 9007199254740993,", NULL},
        {"dot --n 9007199254740993", "(18014398509481985)", NULL},
        /* Written so that the double rounds it: no exact figure is claimed. */
        {"dot --n 9007199254740993e0", "flops       1.80e16\n", "(1801"},
        /* fp4 is 9/16 byte per value: 3 n^2 9/16 is whole at n = 8000, not at n = 8191. */
        {"matmul --n 8000 --dtype fp4 --gpu b200", "(108000000 read + written)", NULL},
        {"matmul --n 8191 --dtype fp4 --gpu b200", "(1099041931261)", "read + written)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char q[256];
        snprintf(q, sizeof q, "intensity %s", cases[i].args);
        run_bin(&R, q);
        ck_assert_int_eq(R.status, 0);
        ck_assert_msg(strstr(R.out, cases[i].want) != NULL, "%s: no \"%s\" in\n%s",
                      cases[i].args, cases[i].want, R.out);
        if (cases[i].not != NULL)
            ck_assert_msg(strstr(R.out, cases[i].not) == NULL, "%s: \"%s\" in\n%s",
                          cases[i].args, cases[i].not, R.out);
    }
}
END_TEST

START_TEST(test_bin_errors)
{
    static const struct {
        const char *args;
        const char *prefix;
    } cases[] = {
        {"report --foo", "rooftop report: unknown option '--foo'"},
        {"report --gpus", "rooftop report: --gpus: needs a value"},
        {"report --gpus 12x", "rooftop report: --gpus: '12x' is not a number"},
        {"report --zero 9", "rooftop report: --zero: 9 is out of range"},
        {"report --gpus 1024 --tp 3", "rooftop report: --"},
        {"report --model nope", "rooftop report: --model: "},
        {"report --gpu nope", "rooftop report: --gpu: "},
        {"report --scenario /nonexistent.json", "rooftop report: --scenario: /nonexistent.json"},
        {"report --format xml", "rooftop report: --format: 'xml'"},
        {"solve", "usage: rooftop solve"},
        {"solve max-size", "rooftop solve: 'max-size' is not max-params, min-gpus or flops"},
        {"solve max-params --activations maybe", "rooftop solve: --activations: 'maybe'"},
        {"solve min-gpus --gpus 8", "rooftop solve: --gpus: "},
        {"intensity conv", "rooftop intensity: 'conv' is not one of"},
        {"intensity relu --n 0", "rooftop intensity: --n: 0 is out of range"},
        {"intensity relu --n ten", "rooftop intensity: --n: 'ten' is not a number"},
        {"intensity relu --dtype fp12", "rooftop intensity: --dtype: 'fp12'"},
        {"intensity relu --gpu nope", "rooftop intensity: --gpu: "},
        {"list fonts", "rooftop list: 'fonts' is not gpus or models"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_bin(&R, cases[i].args);
        ck_assert_msg(R.status == 2, "%s: exit %d, want 2", cases[i].args, R.status);
        ck_assert_msg(strncmp(R.err, cases[i].prefix, strlen(cases[i].prefix)) == 0,
                      "%s: stderr \"%s\", want \"%s...\"", cases[i].args, R.err, cases[i].prefix);
        if (strncmp(cases[i].prefix, "usage", 5) != 0) {
            /* Exactly one line, and nothing on stdout. */
            char *nl = strchr(R.err, '\n');
            ck_assert_msg(nl != NULL && nl[1] == '\0', "%s: not one line: %s", cases[i].args,
                          R.err);
            ck_assert_msg(R.out[0] == '\0', "%s: printed %s", cases[i].args, R.out);
        }
    }
}
END_TEST

START_TEST(test_bin_help_list)
{
    static const char *const helps[] = {"report --help", "solve --help", "intensity --help",
                                        "list --help", "solve max-params --help", "--help"};
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        run_bin(&R, helps[i]);
        ck_assert_msg(R.status == 0, "%s: exit %d", helps[i], R.status);
        ck_assert_msg(strncmp(R.out, "usage: rooftop", 14) == 0, "%s:\n%s", helps[i], R.out);
    }
    run_bin(&R, "report --help");
    ck_assert(strstr(R.out, "--micro-batch") != NULL && strstr(R.out, "--dense-layers") != NULL);
    run_bin(&R, "--version");
    ck_assert_int_eq(R.status, 0);
    ck_assert_msg(strncmp(R.out, "rooftop ", 8) == 0, "%s", R.out);

    run_bin(&R, "list gpus");
    ck_assert_int_eq(R.status, 0);
    const char *h = strstr(R.out, "\nh100-sxm ");
    ck_assert_msg(h != NULL, "%s", R.out);
    const char *eol = strchr(h + 1, '\n');
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(eol - h - 1), h + 1);
    ck_assert_msg(strstr(line, "80 GB") && strstr(line, "3.35 TB/s") &&
                      strstr(line, "989 TFLOP/s") && strstr(line, " 295"),
                  "%s", line);
    run_bin(&R, "list models");
    ck_assert_int_eq(R.status, 0);
    ck_assert_msg(strstr(R.out, "6738415616") && strstr(R.out, "124439808") &&
                      strstr(R.out, "8030261248"),
                  "%s", R.out);
    cJSON *j = run_json(&R, "list gpus --format json");
    ck_assert(cJSON_IsArray(j) && cJSON_GetArraySize(j) >= 12);
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_bin_scenario_file)
{
    /* A scenario file, then flags after it override it. */
    make_tmpdir();
    char path[512], q[1024];
    snprintf(path, sizeof path, "%s/lecture.json", tmpdir);
    write_text(path, "{\"params\": \"70B\", \"tokens\": \"15T\", \"gpus\": 1024, \"gpu\": "
                     "\"h100-sxm\", \"mfu\": 0.5, \"flops\": \"6nd\"}");
    snprintf(q, sizeof q, "report --scenario %s --format json", path);
    cJSON *j = run_json(&R, q);
    ck_assert_rel(jget(j, "time", "days"), 143.94, 5e-4);
    cJSON_Delete(j);
    snprintf(q, sizeof q, "report --scenario=%s --gpus 2048 --format json", path);
    j = run_json(&R, q);
    ck_assert_rel(jget(j, "time", "days"), 143.94 / 2, 5e-4);
    cJSON_Delete(j);
    write_text(path, "{\"gpus\": 1024, \"tp\": \"eight\"}");
    snprintf(q, sizeof q, "report --scenario %s", path);
    run_bin(&R, q);
    ck_assert_int_eq(R.status, 2);
    char want[700];
    snprintf(want, sizeof want, "rooftop report: --scenario: %s: tp: 'eight' is not a number\n",
             path);
    ck_assert_str_eq(R.err, want);
    remove_tmpdir();
}
END_TEST

START_TEST(test_bin_infer)
{
    /* The JSON keys of issue 11, and figures that follow from the inputs: Llama-2-7B's KV
     * cache is 524,288 bytes per token (2 x 32 x 4096 x 2), 8 x (512 + 64) tokens of it. */
    cJSON *j = run_json(&R, "infer --model llama2-7b --gpu h100-sxm --tp 1 --batch 8 --prompt 512 "
                            "--generate 64 --dtype bf16 --format json");
    const char *keys[][2] = {
        {"memory", "weights"}, {"memory", "kv_cache"}, {"memory", "activations"},
        {"memory", "total"}, {"memory", "capacity"}, {"kv", "bytes_per_token"},
        {"prefill", "flops"}, {"prefill", "bytes"}, {"prefill", "intensity"},
        {"prefill", "seconds"}, {"decode", "flops"}, {"decode", "bytes"},
        {"decode", "intensity"}, {"decode", "seconds"}, {"latency", "ttft"},
        {"latency", "tpot"}, {"latency", "end_to_end"}, {"throughput", "tokens_per_s"},
        {"throughput", "tokens_per_s_per_gpu"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        ck_assert(jget(j, keys[i][0], keys[i][1]) > 0);
    ck_assert(jget(j, "kv", "bytes_per_token") == 524288.0);
    ck_assert(jget(j, "memory", "kv_cache") == 524288.0 * 8 * 576);
    ck_assert(jget(j, "max_batch", NULL) >= 8);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(j, "memory"), "fits")));
    const cJSON *ops = cJSON_GetObjectItemCaseSensitive(j, "ops");
    ck_assert(cJSON_IsArray(ops) && cJSON_GetArraySize(ops) >= 20);
    cJSON_Delete(j);

    run_bin(&R, "infer --model llama2-70b --tp 4");
    ck_assert_msg(R.status == 0, "%s", R.err);
    ck_assert_msg(strstr(R.out, "time to first token") != NULL, "%s", R.out);

    /* Bad input: one line naming the flag, exit 2. */
    run_bin(&R, "infer --batch 12x");
    ck_assert_int_eq(R.status, 2);
    ck_assert_str_eq(R.err, "rooftop infer: --batch: '12x' is not a number\n");
    run_bin(&R, "infer --model llama2-7b --tp 3");
    ck_assert_int_eq(R.status, 2);
    ck_assert_str_eq(R.err, "rooftop infer: --tp: 3 does not divide the model's 32 heads\n");
    run_bin(&R, "infer --kv-dtype fp7");
    ck_assert_int_eq(R.status, 2);
    ck_assert_msg(strncmp(R.err, "rooftop infer: --kv-dtype: 'fp7'", 32) == 0, "%s", R.err);
    run_bin(&R, "infer --nope 1");
    ck_assert_int_eq(R.status, 2);
    ck_assert_msg(strstr(R.err, "unknown option '--nope'") != NULL, "%s", R.err);
}
END_TEST

/* The command table is the one dispatch and the one list: every row's command runs (--help
 * exits 0 with its own usage line) and --help lists every row, nothing else dispatches. */
START_TEST(test_command_table)
{
    ck_assert_int_ge(commands_count(), 11);
    struct check_run top;
    ck_assert_int_eq(check_run_bin(&top, "--help"), 0);
    for (int i = 0; i < commands_count(); i++) {
        const struct command *c = commands_at(i);
        ck_assert_ptr_eq(commands_find(c->name), c);
        char line[256];
        snprintf(line, sizeof line, "rooftop %s", c->usage);
        ck_assert_msg(strstr(top.out, line) != NULL, "--help lacks %s", line);
        char args[64];
        snprintf(args, sizeof args, "%s --help", c->name);
        struct check_run r;
        ck_assert_msg(check_run_bin(&r, args) == 0, "%s: %s", args, r.err);
        snprintf(line, sizeof line, "usage: rooftop %s", c->name);
        ck_assert_msg(strstr(r.out, line) != NULL, "%s:\n%s", args, r.out);
        check_run_free(&r);
    }
    check_run_free(&top);
    ck_assert_ptr_null(commands_find("nosuch"));
    ck_assert_ptr_null(commands_at(commands_count()));
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, test_options_set_fields);
    tcase_add_test(tc, test_options_given);
    tcase_add_test(tc, test_options_model);
    tcase_add_test(tc, test_options_errors);
    tcase_add_test(tc, test_option_not_ours);
    suite_add_tcase(s, tc);
    tc = tcase_create("scenario_file");
    tcase_add_test(tc, test_file_round_trip);
    tcase_add_test(tc, test_file_save_errors);
    tcase_add_test(tc, test_file_errors);
    tcase_add_test(tc, test_file_apply_order);
    suite_add_tcase(s, tc);
    tc = tcase_create("binary");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bin_lecture_time);
    tcase_add_test(tc, test_bin_solve);
    tcase_add_test(tc, test_bin_intensity);
    tcase_add_test(tc, test_bin_intensity_exact);
    tcase_add_test(tc, test_bin_errors);
    tcase_add_test(tc, test_bin_help_list);
    tcase_add_test(tc, test_bin_scenario_file);
    tcase_add_test(tc, test_bin_infer);
    tcase_add_test(tc, test_command_table);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(cli_suite());
}
