/* fuzz_capture.c - libFuzzer target for the screenshot writers (txt, ANSI, SVG) fed hostile
 * free text: the bytes become a demo step's title and caption and the scenario's name (split on
 * NUL), drawn at a size from the first two bytes. Whatever the text, the txt output holds no
 * control character but newlines, the ANSI output no escape but rooftop's own colour changes,
 * and the SVG no control character, no markup but its own elements and no bare '&'. */
/* fuzz-src: UI PROBES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "dash.h"
#include "dash_demo.h"
#include "dash_keys.h"
#include "frame.h"
#include "inputs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_txt(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 && s[i] != '\n')
            abort();
}

static void check_ansi(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\033') {
            if ((unsigned char)s[i] < 0x20 && s[i] != '\n')
                abort();
            continue;
        }
        if (i + 1 >= n || s[i + 1] != '[')
            abort();
        i += 2;
        while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
            i++;
        if (i >= n || s[i] != 'm')
            abort();
    }
}

static void check_svg(const char *s, size_t n)
{
    static const char *const tags[] = {"<svg ", "</svg>", "<rect ", "<circle ", "<text ", "</text>"};
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 && c != '\n')
            abort();
        if (c == '&' && strncmp(s + i, "&amp;", 5) != 0 && strncmp(s + i, "&lt;", 4) != 0 &&
            strncmp(s + i, "&gt;", 4) != 0)
            abort();
        if (c == '<') {
            bool known = false;
            for (size_t k = 0; k < sizeof tags / sizeof tags[0]; k++)
                known = known || strncmp(s + i, tags[k], strlen(tags[k])) == 0;
            if (!known)
                abort();
        }
    }
}

static void write_all(const struct dash *d, const struct screen *s)
{
    static const enum capture_format fmts[] = {CAPTURE_TXT, CAPTURE_ANSI, CAPTURE_SVG};
    for (size_t k = 0; k < 3; k++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
            abort();
        if (!capture_write(f, s, &d->theme, fmts[k]))
            abort();
        fclose(f);
        if (fmts[k] == CAPTURE_TXT)
            check_txt(buf, len);
        else if (fmts[k] == CAPTURE_ANSI)
            check_ansi(buf, len);
        else
            check_svg(buf, len);
        free(buf);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Two bytes of size, then at least one of text (whose first byte also picks the charset). */
    if (size < 3)
        return 0;
    int cols = 80 + data[0] % 121, rows = 24 + data[1] % 37;
    data += 2;
    size -= 2;
    /* title NUL caption NUL name */
    const char *parts[3] = {"", "", ""};
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *p = text, *end = text + size;
    for (int k = 0; k < 3 && p <= end; k++) {
        parts[k] = p;
        p += strlen(p) + 1;
    }
    struct scenario sc;
    inputs_defaults(&sc);
    struct dash d;
    char err[512];
    if (!dash_init(&d, &sc, data[0] & 1, (size > 0 && (data[size - 1] & 1)), err, sizeof err))
        abort();
    struct demo_step *st = calloc(1, sizeof *st);
    if (!st)
        abort();
    snprintf(st->title, sizeof st->title, "%s", parts[0]);
    snprintf(st->caption, sizeof st->caption, "%s", parts[1]);
    st->scenario = d.sc;
    snprintf(st->scenario.name, sizeof st->scenario.name, "%s", parts[2]);
    d.demo.steps = st;
    d.demo.n = 1;
    dash_demo_show(&d, 0);
    struct event ev = {.type = EV_RESIZE, .x = cols, .y = rows};
    dash_handle(&d, &ev);
    struct screen s = {0};
    if (!screen_resize(&s, cols, rows))
        abort();
    frame_draw(&d, &s);
    write_all(&d, &s);
    /* The caption's other pages too. */
    ev = (struct event){.type = EV_KEY, .key = 'c'};
    dash_handle(&d, &ev);
    frame_draw(&d, &s);
    write_all(&d, &s);
    screen_free(&s);
    dash_free(&d);
    free(text);
    return 0;
}
