/* fuzz_scenario.c - libFuzzer target for scenario files: arbitrary bytes applied as a scenario
 * give either a scenario or one line of error naming the origin; an accepted scenario that
 * validates is analysed and reported in every format without NaN or infinity, and saving it
 * as JSON and reading that back gives the same inputs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "evaluation.h"
#include "infer.h"
#include "infer_report.h"
#include "inputs.h"
#include "report.h"
#include "scenario.h"
#include "scenario_check.h"
#include "scenario_file.h"

#include "fuzz_keys_work.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ORIGIN "fuzz.json"

/* Model and GPU values may name files; the fuzzer must not read /dev/stdin or wander the
 * disk (what a file holds is fuzz_spec's business). Inputs naming a path are skipped. */
static bool names_a_path(const cJSON *root)
{
    static const char *const keys[] = {"model", "gpu"};
    for (size_t i = 0; i < 2; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, keys[i]);
        if (cJSON_IsString(v) && v->valuestring != NULL &&
            (strchr(v->valuestring, '/') != NULL || strstr(v->valuestring, ".json") != NULL))
            return true;
    }
    return false;
}

/* A finite figure, or a finding. The report prints only these (model and GPU names are user
 * text and may spell "nan" themselves, so the figures are checked rather than the text). */
static void must_be_finite(double v)
{
    if (!isfinite(v))
        abort();
}

static void check_analysis(const struct analysis *a)
{
    for (int k = 0; k < MEM_COUNT; k++) {
        must_be_finite(a->memory.row[k].bytes);
        must_be_finite(a->memory.row[k].elements);
    }
    must_be_finite(a->memory.total);
    must_be_finite(a->memory.activations_per_layer);
    must_be_finite(a->flops.per_step);
    must_be_finite(a->flops.total);
    must_be_finite(a->flops.six_nd);
    must_be_finite(a->flops.detailed);
    must_be_finite(a->time.seconds);
    must_be_finite(a->time.mfu);
    must_be_finite(a->time.hfu);
    must_be_finite(a->time.tokens_per_s);
    must_be_finite(a->roofline.ridge);
    must_be_finite(a->roofline.step_seconds);
    must_be_finite(a->roofline.mfu_bound);
    for (int k = 0; k < a->n_ops; k++) {
        must_be_finite(a->ops[k].flops);
        must_be_finite(a->ops[k].bytes);
        must_be_finite(a->ops[k].intensity);
        must_be_finite(a->ops[k].seconds);
    }
}

/* The serving figures, when the scenario serves too: finite, and rooftop infer's JSON of them
 * is built. */
static void check_serving(const struct evaluation *ev)
{
    const struct infer_result *r = &ev->serving;
    must_be_finite(r->memory.total);
    must_be_finite(r->kv_bytes_per_token);
    must_be_finite(r->ttft);
    must_be_finite(r->tpot);
    must_be_finite(r->end_to_end);
    must_be_finite(r->tokens_per_s);
    for (int k = 0; k < r->decode.n_ops; k++)
        must_be_finite(r->decode.ops[k].seconds);
    cJSON *j = infer_report_json(&ev->sc, r);
    if (j == NULL)
        abort();
    cJSON_Delete(j);
}

static void check_report(const struct scenario *s, const struct analysis *a)
{
    static struct evaluation ev;
    char err[512];
    /* The one evaluation, with the serving figures when the scenario also serves. */
    struct eval_input in = {.serve = infer_validate(s, err, (int)sizeof err)};
    evaluation_run(s, &in, &ev);
    if (ev.an.params.total != a->params.total || ev.an.memory.total != a->memory.total ||
        ev.an.n_ops != a->n_ops)
        abort(); /* the evaluation's analysis is analysis_run's */
    if (ev.have_serving != in.serve)
        abort();
    if (ev.have_serving)
        check_serving(&ev);
    for (int f = REPORT_TEXT; f <= REPORT_MD; f++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m == NULL)
            abort();
        if (!report_write(m, &ev, (enum report_format)f))
            abort();
        if (fclose(m) != 0)
            abort();
        if (f == REPORT_JSON) {
            cJSON *j = cJSON_Parse(buf);
            if (j == NULL)
                abort();
            cJSON_Delete(j);
        }
        free(buf);
    }
}

static char *inputs_text(const struct scenario *s)
{
    cJSON *j = scenario_to_json(s);
    if (j == NULL)
        abort();
    char *t = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    if (t == NULL)
        abort();
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_keys_work(data, size);
    cJSON *probe = cJSON_ParseWithLength((const char *)data, size);
    bool skip = probe != NULL && names_a_path(probe);
    cJSON_Delete(probe);
    if (skip)
        return 0;

    struct scenario s, before;
    inputs_defaults(&s);
    before = s;
    char err[1024];
    if (!scenario_parse((const char *)data, size, ORIGIN, &s, err, sizeof err)) {
        if (strncmp(err, ORIGIN ": ", sizeof ORIGIN + 1) != 0 || strchr(err, '\n') != NULL)
            abort();
        if (memcmp(&s, &before, sizeof s) != 0)
            abort(); /* a refused file leaves the scenario as it was */
        return 0;
    }
    if (!scenario_validate(&s, err, (int)sizeof err)) {
        if (err[0] == '\0' || strchr(err, '\n') != NULL)
            abort();
        return 0;
    }
    static struct analysis a;
    analysis_run(&s, &a);
    check_analysis(&a);
    check_report(&s, &a);

    /* Round trip through the saved form. */
    char *t1 = inputs_text(&s);
    struct scenario back;
    inputs_defaults(&back);
    if (!scenario_parse(t1, strlen(t1), "roundtrip", &back, err, sizeof err))
        abort();
    char *t2 = inputs_text(&back);
    if (strcmp(t1, t2) != 0)
        abort();
    free(t1);
    free(t2);
    return 0;
}
