/* fuzz_spec.c - libFuzzer target for the spec loader: arbitrary bytes as a GPU file and as a
 * model file must give either a spec or one line of error, never a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts (a finding) when an error message is empty or spans lines. */
static void check_message(const char *err)
{
    if (err[0] == '\0' || strchr(err, '\n') != NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SPEC_ERR_MAX];
    struct gpu_spec g;
    struct model_arch m;
    struct spec_model_meta meta;
    const char *text = (const char *)data;

    if (spec_parse_gpu(text, size, "fuzz.json", &g, err, sizeof err)) {
        /* An accepted GPU has a rate to run at and figures that divide cleanly. */
        if (g.bandwidth <= 0 || g.memory_bytes <= 0 || g.name[0] == '\0')
            abort();
        for (int p = 0; p < PEAK_COUNT; p++)
            if (g.peak_valid[p] && !(g.peak_flops[p] > 0))
                abort();
    } else {
        check_message(err);
    }

    if (spec_parse_model_meta(text, size, "fuzz.json", &m, &meta, err, sizeof err)) {
        /* An accepted model is one the core can count without overflow. */
        struct param_counts pc;
        model_params(&m, &pc);
        if (pc.total <= 0 || pc.active <= 0 || pc.active > pc.total)
            abort();
        if (m.d_model % m.heads != 0 || m.heads % m.kv_heads != 0)
            abort();
    } else {
        check_message(err);
    }
    return 0;
}
