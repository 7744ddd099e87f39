#!/bin/sh
# tmux-test.sh - the real binary in a real terminal: start the dashboard in tmux, change a
# slider, resize (also below the minimum, to 1x1, and back), quit with q, with Ctrl-C and with the
# terminating signals (TERM, HUP, QUIT, USR1, PIPE: exit status 128 + the signal's number), and
# check each time that the terminal is restored (tty modes, main screen, cursor, mouse).
# usage: sh tests/tmux-test.sh [BINARY]   (run from the source tree; default ./rooftop)
set -u
BIN=${1:-./rooftop}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
SPECS=$(pwd)/specs
[ -x "$BIN" ] || { echo "tmux-test: $BIN is not an executable"; exit 1; }
command -v tmux >/dev/null 2>&1 || { echo "tmux-test: tmux is not installed"; exit 1; }

work=$(mktemp -d /tmp/rooftop-tmux-XXXXXX) || exit 1
sock="rooftop-test-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { T kill-server >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT INT TERM

pane() { T capture-pane -p -t t:0 2>/dev/null; }
# The message comes again after the pane: a CI log that keeps only its last lines keeps it.
fail() {
    echo "tmux-test: FAIL: $*"
    echo "--- pane:"
    pane
    echo "--- tmux-test: FAIL: $*"
    exit 1
}
# Each wait's limit in seconds times SLOW: a loaded CI runner with a sanitizer build draws and
# probes several times slower than a desk; a wait that passes returns as soon as it sees its text.
SLOW=${TMUX_TEST_SLOW:-4}
# wait_for TEXT [SECONDS]: until the pane shows TEXT.
wait_for() {
    n=0
    lim=$(( ${2:-10} * 10 * SLOW ))
    while ! pane | grep -qF -- "$1"; do
        n=$((n + 1))
        [ "$n" -gt "$lim" ] && return 1
        sleep 0.1
    done
    return 0
}
# wait_gone TEXT [SECONDS]
wait_gone() {
    n=0
    lim=$(( ${2:-10} * 10 * SLOW ))
    while pane | grep -qF -- "$1"; do
        n=$((n + 1))
        [ "$n" -gt "$lim" ] && return 1
        sleep 0.1
    done
    return 0
}
# wait_last TEXT [SECONDS]: until the pane's bottom line shows TEXT (after a resize, once the
# dashboard has drawn the new size).
wait_last() {
    n=0
    lim=$(( ${2:-10} * 10 * SLOW ))
    while ! pane | tail -n 1 | grep -qF -- "$1"; do
        n=$((n + 1))
        [ "$n" -gt "$lim" ] && return 1
        sleep 0.1
    done
    return 0
}
flag() { T display-message -p -t t:0 "#{$1}"; }
# child_of PID: the first process whose parent is PID, read from /proc (no procps needed: a
# fresh Debian may lack pgrep).
child_of() {
    for st in /proc/[0-9]*/stat; do
        # Field 4 is the parent's pid; the name in field 2 has no spaces for our processes.
        if [ "$(awk '{print $4}' "$st" 2>/dev/null)" = "$1" ]; then
            pid=${st#/proc/}
            echo "${pid%/stat}"
            return
        fi
    done
}

# A plain shell in a 120x40 terminal; rooftop runs inside it, so what it leaves behind can be
# inspected afterwards.
T new-session -d -s t -x 120 -y 40 \
    "env -i PATH=/usr/bin:/bin HOME=$work TERM=screen-256color LANG=C.UTF-8 ROOFTOP_SPECS=$SPECS PS1='$ ' sh" ||
    fail "cannot start tmux"
T set-option -g window-size manual >/dev/null 2>&1
wait_for '$' 5 || fail "no shell prompt"

# start: notes the tty modes, then runs rooftop as the pane shell's foreground job, as a user
# would. finish NAME: after rooftop has ended, notes its exit status and the tty modes again.
start() {
    T send-keys -t t:0 "clear; stty -g > $work/before" Enter
    T send-keys -t t:0 "$BIN" Enter
}
# The marker is typed as END-""NAME so that only the shell's output, not the echo of the typed
# command line, reads END-NAME: waiting for it waits for the command to have run.
finish() {
    T send-keys -t t:0 "echo exit=\$?; stty -g > $work/after; echo END-\"\"$1" Enter
}

# run_case NAME HOW STATUS: starts rooftop, checks the first frame, ends it by HOW (q, C-c, or
# a signal's name), and checks the exit status and that the terminal came back as it was.
run_case() {
    name=$1
    how=$2
    status=$3
    start
    wait_for "143.9 days" 10 || fail "$name: the dashboard did not show 143.9 days"
    [ "$(flag alternate_on)" = 1 ] || fail "$name: not on the alternate screen while running"
    [ "$(flag mouse_button_flag)" = 1 ] || fail "$name: mouse tracking is not on while running"
    [ "$(flag cursor_flag)" = 0 ] || fail "$name: the cursor shows while running"
    case $how in
    q) T send-keys -t t:0 q ;;
    C-c) T send-keys -t t:0 C-c ;;
    *)
        shell=$(flag pane_pid)
        child=$(child_of "$shell")
        [ -n "$child" ] || fail "$name: no rooftop process under the pane's shell"
        kill -"$how" "$child"
        ;;
    esac
    wait_gone "143.9 days" 10 || fail "$name: rooftop did not end after $how"
    finish "$name"
    wait_for "END-$name" 10 || fail "$name: the shell did not come back after $how"
    pane | grep -q "exit=$status" || fail "$name: exit status was not $status"
    cmp -s "$work/before" "$work/after" || fail "$name: tty modes differ after exit ($(cat "$work/before") vs $(cat "$work/after"))"
    [ "$(flag alternate_on)" = 0 ] || fail "$name: still on the alternate screen"
    [ "$(flag cursor_flag)" = 1 ] || fail "$name: cursor left hidden"
    [ "$(flag mouse_any_flag)" = 0 ] || fail "$name: mouse reporting left on"
    [ "$(flag mouse_button_flag)" = 0 ] || fail "$name: mouse button tracking left on"
    pane | grep -q "143.9 days" && fail "$name: the dashboard is still on the main screen"
    echo "tmux-test: $name: quit with $how, terminal restored"
}

# 1. Sliders, resizes, help and the probe, then q.
start
wait_for "143.9 days" 10 || fail "the dashboard did not start"
# Focus moves down from the model to the GPU count; Right doubles it.
T send-keys -t t:0 Down Down Down Down Down Down Down
wait_for "time = FLOPs / (GPUs" 5 || fail "the GPU-count slider did not get the focus"
T send-keys -t t:0 Right
wait_for "72.0 days" 5 || fail "2048 GPUs did not halve the time to 72.0 days"
T resize-window -t t:0 -x 90 -y 30
wait_for "72.0 days" 5 || fail "after resizing to 90x30 the figures are gone"
[ "$(pane | wc -l)" -eq 30 ] || fail "the pane is not 30 rows"
T resize-window -t t:0 -x 60 -y 20
wait_for "needs at least 80x24" 5 || fail "60x20 does not say the size it needs"
T resize-window -t t:0 -x 120 -y 40
wait_for "72.0 days" 5 || fail "back at 120x40 the dashboard did not come back"
wait_gone "needs at least" 5 || fail "the too-small message stayed"
# One column: no frame is sent there (ncurses reads outside its lines at that width); the
# whole screen is repainted once it is wide again.
T resize-window -t t:0 -x 1 -y 1
T send-keys -t t:0 Down Up
T resize-window -t t:0 -x 120 -y 40
wait_for "72.0 days" 5 || fail "back at 120x40 from 1x1 the dashboard did not come back"
# The help overlay opens and closes.
T send-keys -t t:0 '?'
wait_for "any key closes" 5 || fail "? did not open the help"
T send-keys -t t:0 Escape
wait_gone "any key closes" 5 || fail "the help did not close"
# 80x24 and 200x60: the header keeps the GPU count, nothing is cut short ("..."), the bottom
# bar keeps ? and q, the ? box holds every key whole; at 200 columns the bar has b and i.
for size in 80x24 200x60; do
    T resize-window -t t:0 -x "${size%x*}" -y "${size#*x}"
    wait_last "? help" 5 || fail "$size: no ? help on the bottom line"
    [ "$(pane | wc -l)" -eq "${size#*x}" ] || fail "$size: the pane is not ${size#*x} rows"
    pane | head -n 1 | grep -qF "2048 × h100-sxm" || fail "$size: no GPU count in the header"
    pane | grep -qF "…" && fail "$size: a figure or name is cut short"
    pane | tail -n 1 | grep -qF "q quit" || fail "$size: no q quit on the bottom line"
    T send-keys -t t:0 '?'
    wait_for "the fastest layouts that fit (Enter, 1-5 apply)" 5 || fail "$size: ? lacks b's line"
    pane | grep -qF "serving: KV cache, prefill, decode, tokens/s" || fail "$size: ? lacks i's line"
    T send-keys -t t:0 Escape
    wait_gone "any key closes" 5 || fail "$size: the help did not close"
done
pane | tail -n 1 | grep -qF "b layouts" || fail "200x60: no b on the bottom line"
pane | tail -n 1 | grep -qF "i serving" || fail "200x60: no i on the bottom line"
T resize-window -t t:0 -x 120 -y 40
wait_for "72.0 days" 5 || fail "back at 120x40 the dashboard did not come back"
# Ctrl-Z suspends: the shell gets a normal terminal back; fg brings the dashboard back.
T send-keys -t t:0 C-z
wait_for "Stopped" 5 || fail "Ctrl-Z did not suspend"
[ "$(flag alternate_on)" = 0 ] || fail "suspended, but still on the alternate screen"
[ "$(flag mouse_button_flag)" = 0 ] || fail "suspended, but mouse tracking is still on"
[ "$(flag cursor_flag)" = 1 ] || fail "suspended, but the cursor is hidden"
T send-keys -t t:0 "fg" Enter
wait_for "72.0 days" 5 || fail "fg did not bring the dashboard back"
[ "$(flag alternate_on)" = 1 ] || fail "after fg, not on the alternate screen"
[ "$(flag mouse_button_flag)" = 1 ] || fail "after fg, mouse tracking is off"
# P probes this machine in the background; the points land on the roofline as they come.
T send-keys -t t:0 P
wait_for "points in" 90 || fail "P: the probe did not finish"
wait_for "measured: " 5 || fail "P: no measured points on the roofline"
pane | grep -q "probe failed" && fail "P: the probe failed"
T send-keys -t t:0 q
wait_gone "72.0 days" 10 || fail "q did not quit"
finish main
wait_for "END-main" 10 || fail "the shell did not come back after q"
pane | grep -q "exit=0" || fail "exit status was not 0"
cmp -s "$work/before" "$work/after" || fail "tty modes differ after q"
[ "$(flag alternate_on)" = 0 ] || fail "still on the alternate screen after q"
echo "tmux-test: sliders, resize to 90x30, 60x20 and back, 80x24 and 200x60 whole, help, Ctrl-Z and fg, probe (P): ok"

run_case ctrl-c C-c 130
run_case sigterm TERM 143
run_case sighup HUP 129
run_case sigquit QUIT 131
run_case sigusr1 USR1 138
run_case sigpipe PIPE 141

# TERM=dumb: the text report, no curses.
T send-keys -t t:0 "clear; TERM=dumb $BIN | head -n 3; echo END-\"\"dumb" Enter
wait_for "END-dumb" 10 || fail "TERM=dumb did not finish"
pane | grep -q "custom 70B on 1024" || fail "TERM=dumb did not print the report"
echo "tmux-test: TERM=dumb prints the report"
echo "tmux-test: all passed"
