/* keys.h - input events (keys, mouse, resizes) as the dashboard sees them, and the key-name
 * syntax of `rooftop snapshot --keys`. */
#ifndef ROOFTOP_UI_KEYS_H
#define ROOFTOP_UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Keys: Unicode code points as themselves; special keys above the Unicode range. */
enum {
    UK_UP = 0x110000,
    UK_DOWN,
    UK_LEFT,
    UK_RIGHT,
    UK_PGUP,
    UK_PGDN,
    UK_HOME,
    UK_END,
    UK_ENTER,
    UK_TAB,
    UK_BTAB,     /* Shift-Tab */
    UK_ESC,
    UK_BS,
    UK_DEL,
    UK_F1,
    UK_SLEFT,    /* Shift-Left / Shift-Right: fine steps */
    UK_SRIGHT,
    UK_LAST
};
/* Control keys arrive as their code (^U 0x15): the prompts and pickers clear what was typed. */
#define UK_CTRL_U 0x15

enum event_type { EV_KEY, EV_MOUSE, EV_RESIZE };

/* The most times <Repeat N KEY> repeats a key. */
#define KEYS_REPEAT_MAX 100000
enum mouse_kind { MOUSE_PRESS, MOUSE_DRAG, MOUSE_RELEASE, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };

struct event {
    enum event_type type;
    uint32_t key;            /* EV_KEY */
    enum mouse_kind mouse;   /* EV_MOUSE */
    int x, y;                /* EV_MOUSE: cell; EV_RESIZE: cols, rows */
};

/*
 * Parses the --keys syntax into events. Characters stand for themselves; whitespace between
 * keys is ignored (use <Space> for a space). Names in angle brackets (case-insensitive):
 * <Up> <Down> <Left> <Right> <S-Left> <S-Right> <PgUp> <PgDn> <Home> <End> <Enter> <Tab>
 * <S-Tab> <Esc> <BS> <Del> <F1> <Space> <lt> (a '<'), <gt>, <C-a>..<C-z> (Ctrl and a
 * letter), <Resize COLSxROWS>,
 * <Click X,Y> <Drag X,Y> <Release X,Y> <WheelUp X,Y> <WheelDown X,Y> (cells from 0), and
 * <Repeat N KEY> for KEY (one name without brackets, or one character) N times.
 * Returns the number of events written to out (at most max), or -1 with one line in err.
 */
int keys_parse(const char *spec, struct event *out, int max, char *err, size_t errlen);

/* "COLSxROWS" (digits, x or X, digits; each 1..max) into cols and rows; false otherwise. */
bool keys_parse_size(const char *s, int max, int *cols, int *rows);

/* The syntax above as help text lines. */
extern const char *const keys_help_text;

#endif
