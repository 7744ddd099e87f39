/* keys.c - the names of keys, and the parser of snapshot key sequences. */
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "screen.h"

const char *const keys_help_text =
    "KEYS: characters stand for themselves; whitespace is ignored. Special keys in <...>:\n"
    "  <Up> <Down> <Left> <Right> <S-Left> <S-Right> <PgUp> <PgDn> <Home> <End>\n"
    "  <Enter> <Tab> <S-Tab> <Esc> <BS> <Del> <F1> <Space> <lt> <gt> <C-a>..<C-z> (Ctrl)\n"
    "  <Resize COLSxROWS>  <Click X,Y> <Drag X,Y> <Release X,Y> <WheelUp X,Y> <WheelDown X,Y>\n"
    "  <Repeat N KEY>  (N up to 100000; KEY: one name without brackets, or one character)\n"
    "  e.g. --keys \"<Tab><Tab><Right>n\" or --keys \"g<Down><Enter>\"\n";

static const struct {
    const char *name;
    uint32_t key;
} key_names[] = {
    {"Up", UK_UP}, {"Down", UK_DOWN}, {"Left", UK_LEFT}, {"Right", UK_RIGHT},
    {"S-Left", UK_SLEFT}, {"S-Right", UK_SRIGHT}, {"PgUp", UK_PGUP}, {"PgDn", UK_PGDN},
    {"Home", UK_HOME}, {"End", UK_END}, {"Enter", UK_ENTER}, {"Tab", UK_TAB},
    {"S-Tab", UK_BTAB}, {"Esc", UK_ESC}, {"BS", UK_BS}, {"Del", UK_DEL}, {"F1", UK_F1},
    {"Space", ' '}, {"lt", '<'}, {"gt", '>'},
};

static const struct {
    const char *name;
    enum mouse_kind kind;
} mouse_names[] = {
    {"Click", MOUSE_PRESS}, {"Drag", MOUSE_DRAG}, {"Release", MOUSE_RELEASE},
    {"WheelUp", MOUSE_WHEEL_UP}, {"WheelDown", MOUSE_WHEEL_DOWN},
};

static bool lookup_key(const char *name, size_t len, uint32_t *key)
{
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
        if (strlen(key_names[i].name) == len && strncasecmp(key_names[i].name, name, len) == 0) {
            *key = key_names[i].key;
            return true;
        }
    return false;
}

bool keys_parse_size(const char *s, int max, int *cols, int *rows)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)s[0]))
        return false;
    long c = strtol(s, &end, 10);
    if (errno || (*end != 'x' && *end != 'X') || !isdigit((unsigned char)end[1]))
        return false;
    const char *r0 = end + 1;
    long r = strtol(r0, &end, 10);
    if (errno || *end || c < 1 || r < 1 || c > max || r > max)
        return false;
    *cols = (int)c;
    *rows = (int)r;
    return true;
}

/* A non-negative integer at *p (advanced past it). */
static bool read_int(const char **p, int *out)
{
    if (!isdigit((unsigned char)**p))
        return false;
    errno = 0;
    char *end;
    long v = strtol(*p, &end, 10);
    if (errno || v > 100000)
        return false;
    *out = (int)v;
    *p = end;
    return true;
}

static bool push(struct event *out, int max, int *n, struct event ev, char *err, size_t errlen)
{
    if (*n >= max) {
        snprintf(err, errlen, "--keys: more than %d keys", max);
        return false;
    }
    out[(*n)++] = ev;
    return true;
}

/* Parses the inside of <...> (without brackets, len bytes). */
static bool parse_bracket(const char *in, size_t len, struct event *out, int max, int *n,
                          char *err, size_t errlen)
{
    char name[64];
    if (len >= sizeof name) {
        snprintf(err, errlen, "--keys: '<%.*s>' is too long", (int)(len > 40 ? 40 : len), in);
        return false;
    }
    memcpy(name, in, len);
    name[len] = '\0';
    uint32_t key;
    if (lookup_key(name, len, &key))
        return push(out, max, n, (struct event){.type = EV_KEY, .key = key}, err, errlen);
    /* <C-u>: a control character, as the terminal sends Ctrl and the letter. */
    if (len == 3 && (name[0] == 'C' || name[0] == 'c') && name[1] == '-' &&
        isalpha((unsigned char)name[2]))
        return push(out, max, n,
                    (struct event){.type = EV_KEY, .key = (uint32_t)(tolower((unsigned char)name[2]) - 'a' + 1)},
                    err, errlen);

    const char *sp = strchr(name, ' ');
    size_t wlen = sp ? (size_t)(sp - name) : len;
    const char *arg = sp ? sp + 1 : "";
    if (wlen == 6 && strncasecmp(name, "Resize", 6) == 0) {
        int c, r;
        const char *p = arg;
        if (read_int(&p, &c) && (*p == 'x' || *p == 'X') && (p++, read_int(&p, &r)) && !*p &&
            c >= 1 && r >= 1 && c <= 10000 && r <= 10000)
            return push(out, max, n, (struct event){.type = EV_RESIZE, .x = c, .y = r}, err,
                        errlen);
        snprintf(err, errlen, "--keys: <%s>: want <Resize COLSxROWS>, e.g. <Resize 80x24>", name);
        return false;
    }
    for (size_t i = 0; i < sizeof mouse_names / sizeof mouse_names[0]; i++) {
        if (strlen(mouse_names[i].name) == wlen && strncasecmp(name, mouse_names[i].name, wlen) == 0) {
            int x, y;
            const char *p = arg;
            if (read_int(&p, &x) && *p == ',' && (p++, read_int(&p, &y)) && !*p)
                return push(out, max, n,
                            (struct event){.type = EV_MOUSE, .mouse = mouse_names[i].kind, .x = x, .y = y},
                            err, errlen);
            snprintf(err, errlen, "--keys: <%s>: want <%s X,Y>", name, mouse_names[i].name);
            return false;
        }
    }
    if (wlen == 6 && strncasecmp(name, "Repeat", 6) == 0) {
        int count;
        const char *p = arg;
        /* The count's cap named, not a bare "want <Repeat N KEY>". */
        if (isdigit((unsigned char)*p) && strtod(p, NULL) > KEYS_REPEAT_MAX) {
            snprintf(err, errlen, "--keys: <%s>: repeats a key at most %d times", name,
                     KEYS_REPEAT_MAX);
            return false;
        }
        if (read_int(&p, &count) && *p == ' ' && p[1] && count <= KEYS_REPEAT_MAX) {
            p++;
            uint32_t k;
            size_t klen = strlen(p);
            if (!lookup_key(p, klen, &k)) {
                const char *q = p;
                k = utf8_decode(&q);
                if (*q) {
                    snprintf(err, errlen, "--keys: <%s>: unknown key '%s'", name, p);
                    return false;
                }
            }
            for (int i = 0; i < count; i++)
                if (!push(out, max, n, (struct event){.type = EV_KEY, .key = k}, err, errlen))
                    return false;
            return true;
        }
        snprintf(err, errlen, "--keys: <%s>: want <Repeat N KEY>, e.g. <Repeat 3 Right>", name);
        return false;
    }
    snprintf(err, errlen, "--keys: unknown key name '<%s>' (see rooftop snapshot --help)", name);
    return false;
}

int keys_parse(const char *spec, struct event *out, int max, char *err, size_t errlen)
{
    int n = 0;
    const char *p = spec;
    while (*p) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '<') {
            const char *close = strchr(p + 1, '>');
            if (!close) {
                snprintf(err, errlen, "--keys: '<' without '>' (write <lt> for a '<')");
                return -1;
            }
            if (!parse_bracket(p + 1, (size_t)(close - p - 1), out, max, &n, err, errlen))
                return -1;
            p = close + 1;
            continue;
        }
        uint32_t k = utf8_decode(&p);
        if (!push(out, max, &n, (struct event){.type = EV_KEY, .key = k}, err, errlen))
            return -1;
    }
    return n;
}
