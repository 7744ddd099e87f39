#!/bin/sh
# bench-ir.sh BUILD_DIR: instruction counts for `make bench`, from valgrind's callgrind (exact
# and repeatable where timings on shared cores are not). Prints `name value unit` lines:
#   plan_instructions: one `rooftop plan` search (plan_search_fixed alone, not start-up or
#     output) of llama3.1-70b on 1,024 H100s, batch 2048, seq 8192 (issue 22: at most 80M);
#   frame_instructions: frame_draw per frame of bench_frame's key loop (the grid, not ncurses);
#   key_instructions: dash_handle per key of the same loop (the settle and the one evaluation).
# Skipped, with a line saying so, where valgrind is missing. ROOFTOP_SPECS must be set.
b=${1:-build}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "plan_instructions skipped: no valgrind (apt-get install valgrind)"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
collected() {
    sed -n 's/.*Collected : *\([0-9][0-9]*\).*/\1/p' "$1" | tail -n 1
}
valgrind --tool=callgrind --toggle-collect=plan_search_fixed --callgrind-out-file="$tmp/plan.out" \
    "$b/rooftop-bin" plan --model llama3.1-70b --gpu h100-sxm --gpus 1024 --batch 2048 \
    --seq 8192 >/dev/null 2>"$tmp/plan.log" || { cat "$tmp/plan.log" >&2; exit 1; }
n=$(collected "$tmp/plan.log")
[ -n "$n" ] || { echo "bench-ir: no instruction count from callgrind" >&2; exit 1; }
echo "plan_instructions $n instructions"
# per_call NAME FUNCTION: instructions in FUNCTION per call over bench_frame's key loop (it
# prints FUNCTION_calls, how many times it ran), as the line "NAME N instructions".
per_call() {
    ROOFTOP_BENCH_FRAMES=100 valgrind --tool=callgrind --toggle-collect="$2" \
        --callgrind-out-file="$tmp/$1.out" "$b/tests/bench_frame" >"$tmp/$1.txt" \
        2>"$tmp/$1.log" || { cat "$tmp/$1.log" >&2; exit 1; }
    n=$(collected "$tmp/$1.log")
    calls=$(sed -n "s/^$2_calls \([0-9][0-9]*\).*/\1/p" "$tmp/$1.txt")
    [ -n "$n" ] && [ -n "$calls" ] && [ "$calls" -gt 0 ] || { echo "bench-ir: no $1 count" >&2; exit 1; }
    echo "$1 $((n / calls)) instructions"
}
per_call frame_instructions frame_draw
# The key's own work: dash_handle (settle, one evaluation) per key of the same loop.
per_call key_instructions dash_handle
