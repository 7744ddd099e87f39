/* term.c - ncurses (wide-character) output of the cell grid, and input as events. */
#include "term.h"

#include <curses.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <wchar.h>

struct term {
    SCREEN *scr;
    bool color;
    bool bright;           /* 16 colours available */
    FILE *out;
    int in_fd;             /* the input terminal, watched for a hang-up */
    const struct theme *styled; /* the theme the colour pairs were made for */
    struct screen prev;    /* what the terminal shows, to send only changes */
    bool valid;            /* prev matches the terminal */
    bool skipped;          /* frames not drawn at one column: curses must repaint all */
    attr_t attr[E_COUNT];
    short pair[E_COUNT];
};

/* Mouse: button-event tracking (1002) so a drag reports motion while the button is held. */
static const char mouse_on[] = "\033[?1002h";
static const char mouse_off[] = "\033[?1002l";

static attr_t to_attr(unsigned a)
{
    attr_t r = A_NORMAL;
    if (a & TATTR_BOLD)
        r |= A_BOLD;
    if (a & TATTR_DIM)
        r |= A_DIM;
    if (a & TATTR_UNDERLINE)
        r |= A_UNDERLINE;
    if (a & TATTR_REVERSE)
        r |= A_REVERSE;
    return r;
}

static void setup_styles(struct term *t, const struct theme *th)
{
    for (int i = 0; i < E_COUNT; i++) {
        const struct style *st = &th->style[i];
        t->attr[i] = to_attr(st->attr);
        t->pair[i] = 0;
        if (!t->color)
            continue;
        int fg = st->fg, bg = st->bg;
        /* Eight-colour terminals: bright colours become bold normal ones. */
        if (!t->bright) {
            if (fg >= 8) {
                fg -= 8;
                t->attr[i] |= A_BOLD;
            }
            if (bg >= 8)
                bg -= 8;
        }
        if (init_pair((short)(i + 1), (short)fg, (short)bg) == OK)
            t->pair[i] = (short)(i + 1);
    }
}

struct term *term_open(const char *termname, FILE *out, FILE *in, bool want_color,
                       bool *color_out, char *err, size_t errlen)
{
    struct term *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->scr = newterm(termname, out, in);
    if (!t->scr) {
        const char *tn = termname ? termname : getenv("TERM");
        snprintf(err, errlen, "cannot use the terminal type '%s'", tn ? tn : "(unset)");
        free(t);
        return NULL;
    }
    set_term(t->scr);
    t->out = out;
    t->in_fd = fileno(in);
    (void)cbreak();
    (void)noecho();
    (void)nonl();
    (void)intrflush(stdscr, FALSE);
    (void)keypad(stdscr, TRUE);
    (void)leaveok(stdscr, TRUE);
    (void)curs_set(0);
    set_escdelay(25);
    if (want_color && has_colors() && start_color() == OK) {
        (void)use_default_colors();
        t->color = true;
        t->bright = COLORS >= 16;
    }
    mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED |
                  REPORT_MOUSE_POSITION,
              NULL);
    mouseinterval(0);
    fputs(mouse_on, out);
    fflush(out);
    if (color_out)
        *color_out = t->color;
    return t;
}

void term_close(struct term *t)
{
    if (!t)
        return;
    set_term(t->scr);
    mousemask(0, NULL);
    (void)curs_set(1);
    endwin();
    /* endwin does not know about the tracking mode switched on by hand. */
    fputs(mouse_off, t->out);
    fflush(t->out);
    delscreen(t->scr);
    screen_free(&t->prev);
    free(t);
}

void term_invalidate(struct term *t)
{
    t->valid = false;
}

void term_draw(struct term *t, const struct screen *s, const struct theme *th)
{
    if (t->styled != th) {
        setup_styles(t, th);
        t->styled = th;
    }
    int rows = getmaxy(stdscr), cols = getmaxx(stdscr);
    /* One column: ncurses' update of the lower-right corner reads the cell before it, at
     * column -1, outside its line (valgrind: "invalid read ... 4 bytes before a block
     * alloc'd by wresize", every time at 1x1). Nothing can be read there anyway: send no
     * frame, leave stdscr untouched so wget_wch does not refresh it either, and repaint the
     * whole screen once the terminal is wider. */
    if (cols < 2) {
        t->skipped = true;
        t->valid = false;
        (void)untouchwin(stdscr);
        return;
    }
    if (t->skipped) {
        t->skipped = false;
        (void)clearok(curscr, TRUE);
    }
    bool full = !t->valid || t->prev.cols != s->cols || t->prev.rows != s->rows;
    if (full) {
        if (!screen_resize(&t->prev, s->cols, s->rows))
            full = true;
        werase(stdscr);
    }
    for (int y = 0; y < s->rows && y < rows; y++) {
        for (int x = 0; x < s->cols && x < cols; x++) {
            const struct cell *c = screen_cell(s, x, y);
            struct cell *p = screen_at(&t->prev, x, y);
            if (!full && p && p->ch == c->ch && p->elem == c->elem && p->attr == c->attr)
                continue;
            if (p)
                *p = *c;
            int e = c->elem < E_COUNT ? c->elem : 0;
            attr_t a = t->attr[e];
            if (c->attr & CATTR_REVERSE)
                a ^= A_REVERSE;
            wchar_t wc[2] = {(wchar_t)c->ch, 0};
            cchar_t cc;
            if (setcchar(&cc, wc, a, t->pair[e], NULL) == OK)
                (void)mvwadd_wch(stdscr, y, x, &cc);
        }
    }
    t->valid = t->prev.cols == s->cols && t->prev.rows == s->rows;
    wnoutrefresh(stdscr);
    doupdate();
}

static uint32_t map_key(int k)
{
    switch (k) {
    case KEY_UP:
        return UK_UP;
    case KEY_DOWN:
        return UK_DOWN;
    case KEY_LEFT:
        return UK_LEFT;
    case KEY_RIGHT:
        return UK_RIGHT;
    case KEY_SLEFT:
        return UK_SLEFT;
    case KEY_SRIGHT:
        return UK_SRIGHT;
    case KEY_PPAGE:
        return UK_PGUP;
    case KEY_NPAGE:
        return UK_PGDN;
    case KEY_HOME:
        return UK_HOME;
    case KEY_END:
        return UK_END;
    case KEY_ENTER:
        return UK_ENTER;
    case KEY_BTAB:
        return UK_BTAB;
    case KEY_BACKSPACE:
        return UK_BS;
    case KEY_DC:
        return UK_DEL;
    case KEY_F(1):
        return UK_F1;
    default:
        return 0;
    }
}

bool term_read(struct term *t, struct event *ev, int timeout_ms)
{
    (void)t;
    wtimeout(stdscr, timeout_ms);
    wint_t wc;
    int r = wget_wch(stdscr, &wc);
    if (r == ERR)
        return false;
    memset(ev, 0, sizeof *ev);
    if (r == KEY_CODE_YES) {
        if (wc == KEY_RESIZE) {
            ev->type = EV_RESIZE;
            ev->x = getmaxx(stdscr);
            ev->y = getmaxy(stdscr);
            t->valid = false;
            return true;
        }
        if (wc == KEY_MOUSE) {
            MEVENT me;
            if (getmouse(&me) != OK)
                return false;
            ev->type = EV_MOUSE;
            ev->x = me.x;
            ev->y = me.y;
            if (me.bstate & BUTTON1_PRESSED)
                ev->mouse = MOUSE_PRESS;
            else if (me.bstate & BUTTON1_RELEASED)
                ev->mouse = MOUSE_RELEASE;
            else if (me.bstate & BUTTON4_PRESSED)
                ev->mouse = MOUSE_WHEEL_UP;
            else if (me.bstate & BUTTON5_PRESSED)
                ev->mouse = MOUSE_WHEEL_DOWN;
            else if (me.bstate & REPORT_MOUSE_POSITION)
                ev->mouse = MOUSE_DRAG;
            else
                return false;
            return true;
        }
        ev->type = EV_KEY;
        ev->key = map_key((int)wc);
        return ev->key != 0;
    }
    ev->type = EV_KEY;
    switch (wc) {
    case '\t':
        ev->key = UK_TAB;
        break;
    case '\r':
    case '\n':
        ev->key = UK_ENTER;
        break;
    case 27:
        ev->key = UK_ESC;
        break;
    case 127:
    case 8:
        ev->key = UK_BS;
        break;
    default:
        ev->key = (uint32_t)wc;
        break;
    }
    return true;
}

bool term_gone(const struct term *t)
{
    struct pollfd p = {.fd = t->in_fd, .events = POLLIN};
    int r = poll(&p, 1, 0);
    if (r < 0)
        return false; /* interrupted by a signal: the loop looks again */
    if (r == 0)
        return false;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
        return true;
    /* Readable with nothing to read: the end of input (a read would return 0). */
    int avail = 0;
    return (p.revents & POLLIN) && ioctl(t->in_fd, FIONREAD, &avail) == 0 && avail == 0;
}

void term_size(struct term *t, int *cols, int *rows)
{
    (void)t;
    *cols = getmaxx(stdscr);
    *rows = getmaxy(stdscr);
}

void term_suspend(struct term *t)
{
    fputs(mouse_off, t->out);
    fflush(t->out);
    endwin();
}

void term_resume(struct term *t)
{
    t->valid = false;
    clearok(curscr, TRUE);
    doupdate();
    /* After curses has set its own mouse mode again (1000), button-event tracking on top. */
    fputs(mouse_on, t->out);
    fflush(t->out);
}
