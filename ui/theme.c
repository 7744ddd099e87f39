/* theme.c - the colour table: one style per semantic element, in colour and in monochrome. */
#include "theme.h"

#include <stdlib.h>

enum { BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE, BRIGHT = 8 };

/* Colours chosen to stay apart on a projector and on both dark and light backgrounds: the
 * memory parts use five distinct hues; red is kept for "over capacity" alone. */
static const struct style color_styles[E_COUNT] = {
    [E_NORMAL] = {-1, -1, 0},
    [E_DIM] = {BRIGHT + BLACK, -1, 0},
    [E_TITLE] = {WHITE, BLUE, TATTR_BOLD},
    [E_HEADER] = {CYAN, -1, TATTR_BOLD},
    [E_LABEL] = {-1, -1, 0},
    [E_VALUE] = {-1, -1, TATTR_BOLD},
    [E_FOCUS] = {BLACK, CYAN, 0},
    [E_TRACK] = {CYAN, -1, 0},
    [E_KNOB] = {BRIGHT + YELLOW, -1, TATTR_BOLD},
    [E_PARAMS] = {BRIGHT + BLUE, -1, 0},
    [E_GRADS] = {MAGENTA, -1, 0},
    [E_OPTIMIZER] = {YELLOW, -1, 0},
    [E_MASTER] = {CYAN, -1, 0},
    [E_BUFFERS] = {BRIGHT + CYAN, -1, 0},
    [E_ACTIVATIONS] = {GREEN, -1, 0},
    [E_CAPACITY] = {-1, -1, TATTR_BOLD},
    [E_OVER] = {BRIGHT + RED, -1, TATTR_BOLD},
    [E_OK] = {GREEN, -1, TATTR_BOLD},
    [E_MEMBOUND] = {BRIGHT + MAGENTA, -1, TATTR_BOLD},
    [E_COMPBOUND] = {BRIGHT + GREEN, -1, TATTR_BOLD},
    [E_ROOF] = {BRIGHT + CYAN, -1, 0},
    [E_CEILING] = {BRIGHT + BLACK, -1, 0},
    [E_RIDGE] = {YELLOW, -1, 0},
    [E_AXIS] = {-1, -1, 0},
    [E_POINT] = {BRIGHT + YELLOW, -1, TATTR_BOLD},
    [E_STATUS] = {BLACK, WHITE, 0},
    [E_ERROR] = {WHITE, RED, TATTR_BOLD},
    [E_CAPTION] = {BLACK, YELLOW, 0},
    [E_EXPLAIN] = {YELLOW, -1, 0},
    [E_OVERLAY] = {WHITE, BLUE, 0},
    [E_INPUT] = {BLACK, WHITE, 0},
};

/* Without colour, attributes tell the elements apart where it matters; the memory parts and
 * plot lines are told apart by their characters (charset.h). */
static const struct style mono_styles[E_COUNT] = {
    [E_NORMAL] = {-1, -1, 0},
    [E_DIM] = {-1, -1, TATTR_DIM},
    [E_TITLE] = {-1, -1, TATTR_REVERSE | TATTR_BOLD},
    [E_HEADER] = {-1, -1, TATTR_BOLD},
    [E_LABEL] = {-1, -1, 0},
    [E_VALUE] = {-1, -1, TATTR_BOLD},
    [E_FOCUS] = {-1, -1, TATTR_REVERSE},
    [E_TRACK] = {-1, -1, 0},
    [E_KNOB] = {-1, -1, TATTR_BOLD},
    [E_PARAMS] = {-1, -1, 0},
    [E_GRADS] = {-1, -1, 0},
    [E_OPTIMIZER] = {-1, -1, 0},
    [E_MASTER] = {-1, -1, 0},
    [E_BUFFERS] = {-1, -1, 0},
    [E_ACTIVATIONS] = {-1, -1, 0},
    [E_CAPACITY] = {-1, -1, TATTR_BOLD},
    [E_OVER] = {-1, -1, TATTR_BOLD | TATTR_REVERSE},
    [E_OK] = {-1, -1, TATTR_BOLD},
    [E_MEMBOUND] = {-1, -1, TATTR_UNDERLINE},
    [E_COMPBOUND] = {-1, -1, TATTR_BOLD},
    [E_ROOF] = {-1, -1, TATTR_BOLD},
    [E_CEILING] = {-1, -1, TATTR_DIM},
    [E_RIDGE] = {-1, -1, 0},
    [E_AXIS] = {-1, -1, 0},
    [E_POINT] = {-1, -1, TATTR_BOLD},
    [E_STATUS] = {-1, -1, TATTR_REVERSE},
    [E_ERROR] = {-1, -1, TATTR_REVERSE | TATTR_BOLD},
    [E_CAPTION] = {-1, -1, TATTR_REVERSE},
    [E_EXPLAIN] = {-1, -1, 0},
    [E_OVERLAY] = {-1, -1, TATTR_REVERSE},
    [E_INPUT] = {-1, -1, TATTR_UNDERLINE},
};

static const char *const elem_names[E_COUNT] = {
    [E_NORMAL] = "normal", [E_DIM] = "dim", [E_TITLE] = "title", [E_HEADER] = "header",
    [E_LABEL] = "label", [E_VALUE] = "value", [E_FOCUS] = "focus", [E_TRACK] = "track",
    [E_KNOB] = "knob", [E_PARAMS] = "params", [E_GRADS] = "grads",
    [E_OPTIMIZER] = "optimizer", [E_MASTER] = "master",
    [E_BUFFERS] = "buffers", [E_ACTIVATIONS] = "activations",
    [E_CAPACITY] = "capacity", [E_OVER] = "over", [E_OK] = "ok", [E_MEMBOUND] = "memory-bound",
    [E_COMPBOUND] = "compute-bound", [E_ROOF] = "roof", [E_CEILING] = "ceiling",
    [E_RIDGE] = "ridge", [E_AXIS] = "axis", [E_POINT] = "point", [E_STATUS] = "status",
    [E_ERROR] = "error", [E_CAPTION] = "caption", [E_EXPLAIN] = "explain",
    [E_OVERLAY] = "overlay", [E_INPUT] = "input",
};

void theme_init(struct theme *t, bool color)
{
    t->color = color;
    for (int i = 0; i < E_COUNT; i++)
        t->style[i] = color ? color_styles[i] : mono_styles[i];
}

bool theme_want_color(bool no_color_flag)
{
    const char *nc = getenv("NO_COLOR");
    return !no_color_flag && !(nc && *nc);
}

uint32_t theme_rgb(int c, uint32_t fallback)
{
    static const uint32_t xterm[16] = {
        0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
        0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
    };
    return c >= 0 && c < 16 ? xterm[c] : fallback;
}

const char *theme_elem_name(enum elem e)
{
    return (unsigned)e < E_COUNT ? elem_names[e] : "?";
}
