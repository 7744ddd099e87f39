/* fuzz_hfconfig.c - libFuzzer target for the Hugging Face config.json reader: arbitrary bytes,
 * parsed as JSON, must give either a model or one line of error naming a key, never a crash,
 * a leak or an overflow; what is accepted counts to a positive total, and written as rooftop's
 * model JSON (rooftop import) reads back to the same counts. The same bytes through the spec
 * loader (which branches on model_type) must agree with the reader. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hfconfig.h"
#include "spec.h"

#include "fuzz_keys_work.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts (a finding) when an error message is empty or spans lines. */
static void check_message(const char *err)
{
    if (err[0] == '\0' || strchr(err, '\n') != NULL)
        abort();
}

static void round_trip(const struct model_arch *m, const struct param_counts *pa)
{
    cJSON *o = spec_model_to_json(m, NULL);
    if (o == NULL)
        abort();
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (text == NULL)
        abort();
    struct model_arch b;
    char err[SPEC_ERR_MAX];
    if (!spec_parse_model(text, strlen(text), "fuzz.json", &b, err, sizeof err))
        abort();
    free(text);
    struct param_counts pb;
    model_params(&b, &pb);
    if (pa->total != pb.total || pa->active != pb.active || pa->mtp != pb.mtp ||
        strcmp(b.name, m->name) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_keys_work(data, size);
    cJSON *root = cJSON_ParseWithLength((const char *)data, size);
    char err[SPEC_ERR_MAX];
    struct model_arch m;
    bool ok = false;
    if (root != NULL) {
        ok = hfconfig_read(root, "dir/config.json", &m, NULL, 0, err, sizeof err);
        if (ok) {
            char why[256];
            struct param_counts pc;
            model_params(&m, &pc);
            if (!model_validate(&m, why, (int)sizeof why) || pc.total <= 0 || pc.active <= 0 ||
                pc.active > pc.total || m.name[0] == '\0')
                abort();
            round_trip(&m, &pc);
        } else {
            check_message(err);
        }
    }
    /* Through the loader: a config it takes, the reader took (and to the same count). */
    struct model_arch s;
    if (spec_parse_model((const char *)data, size, "dir/config.json", &s, err, sizeof err)) {
        if (hfconfig_is(root)) {
            struct param_counts a, b;
            model_params(&s, &a);
            if (!ok)
                abort();
            model_params(&m, &b);
            if (a.total != b.total)
                abort();
        }
    } else {
        check_message(err);
    }
    cJSON_Delete(root);
    return 0;
}
