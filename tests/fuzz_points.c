/* fuzz_points.c - libFuzzer target: points documents and streamed lines never crash the parser,
 * whatever parses survives a write and a re-parse unchanged in count, and its shape points
 * (names parsed by measured_parse_name) match a scenario's GEMMs to finite figures. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "inputs.h"
#include "measured.h"
#include "points.h"
#include "scenario.h"

#include "fuzz_keys_work.h"

/* The lecture's scenario, analysed once: the shapes the points are matched to. */
static struct scenario sc;
static struct analysis an;
static bool ready;

static void check_measured(const struct points_doc *d)
{
    if (!ready) {
        inputs_defaults(&sc);
        analysis_run(&sc, &an);
        ready = true;
    }
    struct measured m;
    measured_match(&sc, &an, d, true, &m); /* match whatever the device */
    if (!isfinite(m.efficiency) || m.efficiency < 0 || !isfinite(m.seconds) || m.seconds < 0 ||
        m.n_ops_measured > m.n_gemm_ops || m.n_found > m.n_gemms)
        abort();
    for (int i = 0; i < m.n_ops; i++)
        if (!(m.op_seconds[i] == -1 || (m.op_seconds[i] > 0 && isfinite(m.op_seconds[i]))))
            abort();
    char line[512];
    measured_describe(&m, &sc, line, sizeof line);
    if (strchr(line, '\n'))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_keys_work(data, size);
    const char *text = (const char *)data;
    char err[POINTS_ERR_MAX];
    struct points_doc d;
    points_init(&d);
    if (points_parse(text, size, "fuzz.json", &d, err, sizeof err)) {
        /* What parses must write and parse back to the same number of points. */
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            bool wrote = points_write(f, &d);
            fclose(f);
            if (wrote) {
                struct points_doc e;
                points_init(&e);
                if (!points_parse(buf, len, "rewritten", &e, err, sizeof err) || e.n != d.n)
                    abort();
                struct points_ceilings c;
                points_ceilings(&e, &c);
                struct gpu_spec g;
                (void)points_to_gpu_spec(&e, &g, err, sizeof err);
                points_free(&e);
            }
            free(buf);
        }
        check_measured(&d);
        points_free(&d);
    } else if (err[0] == '\0' || strchr(err, '\n')) {
        abort(); /* a refusal always says why, on one line */
    }
    /* Each input also as one streamed line. */
    struct points_line ev;
    (void)points_parse_line(text, size, &ev, err, sizeof err);
    return 0;
}
