/* charset.c - paired UTF-8 and ASCII character tables, chosen once from the locale. */
#include "charset.h"

#include <langinfo.h>
#include <string.h>
#include <strings.h>

bool charset_locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

void charset_init(struct charset *c, bool utf8)
{
    memset(c, 0, sizeof *c);
    c->utf8 = utf8;
    if (utf8) {
        c->hline = 0x2500;       /* ─ */
        c->vline = 0x2502;       /* │ */
        c->tl = 0x250C;
        c->tr = 0x2510;
        c->bl = 0x2514;
        c->br = 0x2518;
        c->track = 0x2500;       /* ─ */
        c->track_fill = 0x2501;  /* ━ */
        c->knob = 0x25CF;        /* ● */
        c->bar = 0x2588;         /* █ */
        c->part[MEM_PARAMS] = 0x2588;      /* █ */
        c->part[MEM_GRADS] = 0x2593;       /* ▓ */
        c->part[MEM_OPTIMIZER] = 0x2592;   /* ▒ */
        c->part[MEM_MASTER] = 0x2591;      /* ░ */
        c->part[MEM_BUFFERS] = 0x2584;     /* ▄ */
        c->part[MEM_ACTIVATIONS] = 0x2573; /* ╳ */
        c->free_mem = 0x00B7;    /* · */
        c->cap_mark = 0x2503;    /* ┃ */
        c->ridge = 0x2506;       /* ┆ */
        c->point = 0x25C6;       /* ◆ */
        c->group = 0x25CF;       /* ● */
        c->axis_h = 0x2500;
        c->axis_v = 0x2502;
        c->axis_origin = 0x2514; /* └ */
        c->tick = 0x253C;        /* ┼ */
        c->ellipsis = 0x2026;    /* … */
        c->progress = 0x2588;
        c->progress_empty = 0x2591;
        c->plot_dx = 2;
        c->plot_dy = 4;
        c->times = "\xC3\x97";
        c->le = "\xE2\x89\xA4";
        c->arrow = "\xE2\x86\x92";
        c->dot = "\xC2\xB7";
    } else {
        c->hline = '-';
        c->vline = '|';
        c->tl = c->tr = c->bl = c->br = '+';
        c->track = '-';
        c->track_fill = '=';
        c->knob = 'O';
        c->bar = '#';
        c->part[MEM_PARAMS] = '#';
        c->part[MEM_GRADS] = '=';
        c->part[MEM_OPTIMIZER] = '%';
        c->part[MEM_MASTER] = '+';
        c->part[MEM_BUFFERS] = ':';
        c->part[MEM_ACTIVATIONS] = '~';
        c->free_mem = '.';
        c->cap_mark = '|';
        c->ridge = '|';
        c->point = '@';
        c->group = '*';
        c->axis_h = '-';
        c->axis_v = '|';
        c->axis_origin = '+';
        c->tick = '+';
        c->ellipsis = '~';
        c->progress = '#';
        c->progress_empty = '.';
        c->plot_dx = 1;
        c->plot_dy = 2;
        c->times = "x";
        c->le = "<=";
        c->arrow = "->";
        c->dot = ".";
    }
}

uint32_t charset_plot(const struct charset *c, unsigned bits)
{
    if (!bits)
        return ' ';
    if (c->utf8) {
        /* Braille dot numbering: left column dots 1,2,3,7, right column 4,5,6,8. */
        static const unsigned dot_bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
        unsigned b = 0;
        for (int dy = 0; dy < 4; dy++)
            for (int dx = 0; dx < 2; dx++)
                if (bits & (1u << (dy * 2 + dx)))
                    b |= dot_bit[dy][dx];
        return 0x2800 + b;
    }
    /* ASCII: an upper dot, a lower dot, or both. */
    switch (bits & 3u) {
    case 1:
        return '\'';
    case 2:
        return '.';
    default:
        return ':';
    }
}
