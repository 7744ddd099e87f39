#!/bin/sh
# valgrind.sh - runs the rooftop binary's scriptable commands under valgrind and fails on any
# memory error or leak. Usage: sh tests/valgrind.sh [BINARY] (default: build/rooftop-bin).
# Not for sanitizer builds (valgrind and ASan do not mix). Run from the repository root so
# that ./specs is found (or set ROOFTOP_SPECS).
bin=${1:-build/rooftop-bin}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2
    exit 1
fi
if [ ! -x "$bin" ]; then
    echo "valgrind.sh: no binary at $bin" >&2
    exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '%s\n' '{"model": "llama2-7b", "gpus": 16, "tp": 2, "zero": 3, "batch": 512}' >"$tmp/s.json"

# Each line: the arguments, then the exit status the command must give.
cat >"$tmp/cases" <<CASES
report|0
report --params 70B --tokens 15T --gpus 1024 --gpu h100-sxm --mfu 0.5 --flops 6nd|0
report --model mixtral-8x7b --gpus 64 --tp 8 --recompute full --flops detailed --format json|0
report --model gpt2-small --gpus 8 --tp 1 --format csv|0
report --model llama3.1-8b --gpus 8 --tp 2 --format md|0
report --scenario $tmp/s.json --mfu 0.4|0
solve max-params --gpu h100-sxm --gpus 8 --zero 3 --master-weights off|0
solve max-params --gpu h100-sxm --gpus 8 --zero 3 --activations on --format json|0
solve min-gpus --model llama2-70b --format json|0
intensity matvec --format json|0
intensity matmul --n 8k --dtype fp8 --gpu h200|0
report --points tests/corpus/fuzz_points/shape-doc.json --points-any-device --mfu measured --format json|0
report --points tests/corpus/fuzz_points/shape-doc.json --points-any-device --format md|0
report --points tests/corpus/fuzz_points/shape-doc.json --format md|2
report --points specs/points/cpu-amd-epyc-2vcpu.json --mfu measured|2
infer|0
infer --model llama2-70b --tp 4 --batch 8 --prompt 1k --generate 128 --format json|0
infer --model deepseek-v2-lite --kv-dtype fp8 --weights-dtype int4 --format csv|0
infer --model mistral-7b --prompt 6k --generate 2k --format md|0
infer --model llama2-7b --tp 2 --probe-shapes 1,8,64|0
infer --probe-shapes 1,x|2
infer --batch 12x|2
infer --tp 3|2
report --model llama2-70b --gpus 64 --tp 8 --pp 4 --vpp 2 --batch 64 --mfu predicted --format json|0
plan --model llama2-7b --gpus 64 --batch 256 --top 3|0
plan --model llama2-70b --gpu a100-80gb --gpus 128 --batch 256 --format json|0
plan --model llama2-7b --gpus 3 --batch 7|0
plan --top 0|2
import tests/data/hf/DeepSeek-V3/config.json|0
import tests/data/hf/gemma-3-4b-it/config.json --out $tmp/g3.json|0
report --model tests/data/hf/gpt-oss-20b/config.json --format json|0
import tests/data/hf/nope/config.json|2
list gpus|0
list models --format json|0
report --gpus 12x|2
report --model nope|2
report --scenario /nonexistent.json|2
solve max-size|2
CASES

fail=0
n=0
while IFS='|' read -r args want; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # the arguments are meant to split
    valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
        "$bin" $args >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "valgrind.sh: FAIL ($rc, want $want): rooftop $args"
        grep -v '^rooftop ' "$tmp/err" | head -20
        fail=$((fail + 1))
    fi
done <"$tmp/cases"
echo "valgrind.sh: $((n - fail)) of $n commands clean"
[ "$fail" -eq 0 ]
