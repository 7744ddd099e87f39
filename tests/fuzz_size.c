/* fuzz_size.c - libFuzzer target for terminal sizes ("COLSxROWS": snapshot --size, and the
 * keys' <Resize COLSxROWS>): text is refused or gives both numbers in 1..max, and what is
 * taken prints back as the same text (no signs, spaces or leading zeros slip through as a
 * different size). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[64];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    int cols = -1, rows = -1;
    if (!keys_parse_size(text, 1000, &cols, &rows))
        return 0;
    if (cols < 1 || rows < 1 || cols > 1000 || rows > 1000)
        abort();
    char back[64];
    snprintf(back, sizeof back, "%dx%d", cols, rows);
    int c2, r2;
    if (!keys_parse_size(back, 1000, &c2, &r2) || c2 != cols || r2 != rows)
        abort();
    return 0;
}
