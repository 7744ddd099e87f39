/* fuzz_points.c - libFuzzer target: points documents and streamed lines never crash the parser,
 * and whatever parses survives a write and a re-parse unchanged in count. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "points.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
        points_free(&d);
    } else if (err[0] == '\0' || strchr(err, '\n')) {
        abort(); /* a refusal always says why, on one line */
    }
    /* Each input also as one streamed line. */
    struct points_line ev;
    (void)points_parse_line(text, size, &ev, err, sizeof err);
    return 0;
}
