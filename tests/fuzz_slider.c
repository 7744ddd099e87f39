/* fuzz_slider.c - libFuzzer target for the values typed into the dashboard's sliders
 * (slider_parse, Enter on a slider): the first byte picks the slider, the rest is the text, as
 * the value editor takes it (printable ASCII: each byte mapped into ' '..'~').
 * Text is either refused with one line, the scenario untouched, or taken; what is taken
 * formats (slider_format) into text that parses back to the same display. The presets come
 * from ./specs (make fuzz runs in the source tree). */
/* fuzz-src: ui/slider.c ui/presets.c */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "presets.h"
#include "scenario.h"
#include "slider.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct presets presets;
static bool loaded;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!loaded) {
        presets_load(&presets, NULL, NULL);
        loaded = true;
    }
    if (size < 1)
        return 0;
    int id = data[0] % slider_count();
    char text[256];
    size_t n = size - 1 < sizeof text - 1 ? size - 1 : sizeof text - 1;
    for (size_t i = 0; i < n; i++)
        text[i] = (char)(0x20 + data[1 + i] % 95);
    text[n] = '\0';
    struct scenario sc, before;
    inputs_defaults(&sc);
    before = sc;
    char err[512];
    err[0] = '\0';
    if (!slider_parse(&presets, &sc, id, text, err, sizeof err)) {
        /* Refused: one line, and nothing changed. */
        if (!err[0] || strchr(err, '\n') || memcmp(&sc, &before, sizeof sc) != 0)
            abort();
        return 0;
    }
    char shown[64], again[64];
    slider_format(&presets, &sc, id, shown, sizeof shown);
    if (!shown[0] || strlen(shown) >= sizeof shown - 1)
        abort();
    /* The display, typed back, shows the same (the "~" of a rounded long figure aside). A
     * custom model shows its size, which reads back as that model. */
    if (shown[0] == '~')
        return 0;
    struct scenario back = before;
    if (!slider_parse(&presets, &back, id, shown, err, sizeof err))
        abort();
    slider_format(&presets, &back, id, again, sizeof again);
    if (strcmp(shown, again) != 0)
        abort();
    return 0;
}
