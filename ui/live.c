/* live.c - `rooftop` with no subcommand: the dashboard live in a terminal (its loop, signals,
 * events and frames); dash.c holds its state, frame.c draws it. */
#include "live.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "analysis.h"
#include "dash.h"
#include "dash_keys.h"
#include "dash_points.h"
#include "files.h"
#include "frame.h"
#include "measured.h"
#include "options.h"
#include "points.h"
#include "report.h"
#include "term.h"

/* Signal handlers only set these; the loop acts on them. got_quit holds the number of the
 * terminating signal that ended the loop (the exit status is then 128 + it). */
static volatile sig_atomic_t got_quit, got_tstp, got_cont;

/* The signals whose default is to end the process: each restores the terminal on the way
 * out. (SIGKILL and SIGSTOP cannot be caught; the faults below go through on_fatal.) */
static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE,
                                   SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ};

/* For fatal signals and exit paths that never reach the loop's end. */
static struct termios saved_tty;
static bool have_saved_tty;
static struct term *live_term;

static void on_quit(int sig)
{
    got_quit = sig;
}

static void on_tstp(int sig)
{
    (void)sig;
    got_tstp = 1;
}

static void on_cont(int sig)
{
    (void)sig;
    got_cont = 1;
}

/* A crash must not leave the terminal raw, on the alternate screen and reporting the mouse:
 * restore it with async-signal-safe calls only, then die of the same signal. */
static void on_fatal(int sig)
{
    static const char restore[] = "\033[?1002l\033[?1000l\033[?1006l\033[?25h\033[0m\033[?1049l\r\n";
    if (have_saved_tty)
        (void)tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
    ssize_t w = write(STDOUT_FILENO, restore, sizeof restore - 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void restore_at_exit(void)
{
    if (live_term) {
        term_close(live_term);
        live_term = NULL;
    }
}

static void install(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    /* No SA_RESTART: a signal interrupts the wait for a key, so the loop sees it at once. */
    sa.sa_flags = 0;
    sigaction(sig, &sa, NULL);
}

/* Without a terminal: the text report of the one evaluation, with the measured column when
 * --points was given. */
static int print_report(const struct scenario *sc, const char *points, bool any_device)
{
    struct points_doc doc;
    points_init(&doc);
    if (points) {
        char err[POINTS_ERR_MAX];
        if (!points_load_file(points, &doc, err, sizeof err)) {
            fprintf(stderr, "rooftop: --points: %s\n", err);
            return 2;
        }
    }
    struct evaluation *ev = malloc(sizeof *ev);
    if (ev == NULL) {
        points_free(&doc);
        fprintf(stderr, "rooftop: out of memory\n");
        return 1;
    }
    struct eval_input in = {.points = points ? &doc : NULL, .any_device = any_device};
    evaluation_run(sc, &in, ev);
    points_free(&doc);
    int rc = 0;
    if (points && ev->meas.other_device && !any_device) {
        fprintf(stderr, "rooftop: --points: %s (--gpu to match them, or --points-any-device)\n",
                ev->meas.device_why);
        rc = 2;
    } else if (!report_write(stdout, ev, REPORT_TEXT) || fflush(stdout) != 0) {
        fprintf(stderr, "rooftop: writing the report failed\n");
        rc = 1;
    }
    free(ev);
    return rc;
}

/* The exit status when the terminal goes away without a signal (the pane closed, the SSH
 * connection dropped, but the session leader kept the SIGHUP to itself): as if it had come. */
#define GONE_STATUS (128 + SIGHUP)

static int run(struct dash *d, struct term *t)
{
    struct screen s = {0};
    int cols, rows;
    term_size(t, &cols, &rows);
    struct event ev = {.type = EV_RESIZE, .x = cols, .y = rows};
    dash_handle(d, &ev);
    bool dirty = true;
    int rc = 0;
    while (!d->quit && !got_quit) {
        if (got_tstp) {
            got_tstp = 0;
            term_suspend(t);
            install(SIGTSTP, SIG_DFL);
            raise(SIGTSTP);
            /* Stopped here until SIGCONT. */
            install(SIGTSTP, on_tstp);
            term_resume(t);
            got_cont = 1;
        }
        if (got_cont) {
            got_cont = 0;
            term_invalidate(t);
            term_size(t, &cols, &rows);
            ev = (struct event){.type = EV_RESIZE, .x = cols, .y = rows};
            dash_handle(d, &ev);
            dirty = true;
        }
        if (dirty) {
            if (!screen_resize(&s, d->cols, d->rows))
                break;
            frame_draw(d, &s);
            term_draw(t, &s, &d->theme);
            dirty = false;
        }
        /* Wait for a key; wake up for the probe's output and for signals. */
        int timeout = d->probe ? 50 : 250;
        if (term_read(t, &ev, timeout)) {
            dirty = dash_handle(d, &ev);
            if (ev.type == EV_RESIZE)
                term_invalidate(t);
        } else if (term_gone(t)) {
            /* Nobody is left to read the frames or type a key: end, instead of waking up
             * to an empty read forever. */
            rc = GONE_STATUS;
            break;
        }
        if (dash_probe_poll(d))
            dirty = true;
    }
    screen_free(&s);
    return rc;
}

int live_main(int argc, char **argv)
{
    char err[1024];
    struct ui_options o;
    setlocale(LC_ALL, "");
    /* Figures are formatted with '.' whatever the locale says. */
    setlocale(LC_NUMERIC, "C");
    if (!ui_options_parse(argc, argv, 1, false, &o, err, sizeof err)) {
        fprintf(stderr, "rooftop: %s\n", err);
        return 2;
    }
    if (o.help) {
        ui_options_help(stdout, false);
        return 0;
    }
    files_set_force(o.force);
    const char *term = getenv("TERM");
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO) || !term || !*term ||
        strcmp(term, "dumb") == 0)
        return print_report(&o.sc, o.points, o.points_any_device);

    bool utf8 = !o.ascii && charset_locale_utf8();
    struct dash d;
    if (!ui_dash_from_options(&d, &o, theme_want_color(o.no_color), utf8, err, sizeof err)) {
        fprintf(stderr, "rooftop: %s\n", err);
        return 2;
    }
    d.allow_probe = true;

    have_saved_tty = tcgetattr(STDIN_FILENO, &saved_tty) == 0;
    /* Our handlers go in before curses starts, so curses leaves them alone. */
    for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++)
        install(quit_signals[i], on_quit);
    install(SIGTSTP, on_tstp);
    install(SIGCONT, on_cont);
    signal(SIGSEGV, on_fatal);
    signal(SIGBUS, on_fatal);
    signal(SIGFPE, on_fatal);
    signal(SIGABRT, on_fatal);
    signal(SIGILL, on_fatal);

    bool color = false;
    struct term *t = term_open(NULL, stdout, stdin, d.theme.color, &color, err, sizeof err);
    if (!t) {
        fprintf(stderr, "rooftop: %s; printing the report instead\n", err);
        int rc = print_report(&d.sc, o.points, o.points_any_device);
        dash_free(&d);
        return rc;
    }
    /* A terminal without colours gets the monochrome scheme (and its characters). */
    if (!color)
        theme_init(&d.theme, false);
    live_term = t;
    atexit(restore_at_exit);
    int rc = run(&d, t);
    /* Ended by a signal: the shell's convention, 128 + its number, once the terminal is back. */
    if (got_quit)
        rc = 128 + got_quit;
    live_term = NULL;
    term_close(t);
    dash_free(&d);
    return rc;
}
