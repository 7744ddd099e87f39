/* fuzz_demo.c - libFuzzer target for the lecture-demo file parser (steps of scenario
 * overrides with captions). Any bytes: no crash, no leak, a message on refusal. */
#include <stddef.h>
#include <stdint.h>

#include "demo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct demo l;
    char err[512];
    err[0] = '\0';
    if (demo_parse((const char *)data, size, "fuzz.json", &l, err, sizeof err)) {
        if (l.n < 1)
            __builtin_trap(); /* a loaded demo has at least one step */
        demo_free(&l);
    } else if (err[0] == '\0') {
        __builtin_trap(); /* every refusal says why */
    }
    return 0;
}
