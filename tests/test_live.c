/* test_live.c - the live dashboard (ui/live.c) on a real pseudo-terminal: what it does when
 * its terminal goes away. */
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <time.h>

#include "check_util.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads what the dashboard draws until it has drawn a frame (some kilobytes, then a quiet
 * 200 ms) or 20 s passed; returns the bytes read. */
static size_t read_first_frame(int master)
{
    size_t got = 0;
    double start = now_s();
    char buf[4096];
    while (now_s() - start < 20) {
        struct pollfd p = {.fd = master, .events = POLLIN};
        int r = poll(&p, 1, 200);
        if (r == 0 && got > 2000)
            break;
        if (r <= 0)
            continue;
        ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

/* The terminal closes and no signal comes (a tmux pane killed under `make run`: make keeps
 * the session, and the SIGHUP with it). The dashboard used to poll the hung-up terminal
 * forever at a core's worth of CPU; it must end with 129, as a SIGHUP would, within a second
 * (it looks after each wait of at most 250 ms). */
START_TEST(test_terminal_gone_without_a_signal)
{
    int master, slave;
    struct winsize ws = {.ws_row = 40, .ws_col = 120};
    ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, &ws), 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        /* A session of its own without a controlling terminal: the pty's hang-up signals
         * nobody. */
        if (setsid() < 0 || dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
            _exit(126);
        close(master);
        close(slave);
        setenv("TERM", "xterm", 1);
        execl(check_bin(), "rooftop", (char *)NULL);
        _exit(127);
    }
    close(slave);
    size_t drawn = read_first_frame(master);
    ck_assert_msg(drawn > 2000, "the dashboard drew only %zu bytes", drawn);
    ck_assert_int_eq(waitpid(pid, NULL, WNOHANG), 0); /* still running */
    close(master);
    double t0 = now_s();
    int status = 0;
    pid_t done = 0;
    while (done == 0 && now_s() - t0 < 1.0) {
        done = waitpid(pid, &status, WNOHANG);
        if (done == 0)
            usleep(10000);
    }
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    ck_assert_msg(done == pid, "the dashboard still ran 1 s after its terminal closed");
    ck_assert_msg(WIFEXITED(status), "ended by signal %d", WTERMSIG(status));
    ck_assert_int_eq(WEXITSTATUS(status), 129);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("live");
    TCase *tc = tcase_create("pty");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_terminal_gone_without_a_signal);
    suite_add_tcase(s, tc);
    return check_run_suite(s);
}
