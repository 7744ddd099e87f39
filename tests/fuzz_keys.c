/* fuzz_keys.c - libFuzzer target for the snapshot key-sequence parser (`--keys "<Tab>x"`).
 * Any bytes: no crash, never more events than asked for, a message on refusal. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = malloc(size + 1);
    if (!spec)
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    enum { MAX = 64 };
    struct event ev[MAX];
    char err[256];
    err[0] = '\0';
    int n = keys_parse(spec, ev, MAX, err, sizeof err);
    if (n > MAX)
        __builtin_trap();
    if (n < 0 && err[0] == '\0')
        __builtin_trap();
    free(spec);
    return 0;
}
