#!/bin/sh
# screenshots.sh - regenerates screenshots/*.svg and *.txt with `rooftop snapshot` (the
# dashboard's own drawing code, no terminal): the default view, every step of the lecture (at
# 120x40, 80x24 and 160x50) and inference demos, a model that does not fit, an 80x24 terminal,
# a wide one, the fastest layouts (b), the inference view (i) at batch 1 and 256, a sweep (w),
# a pinned comparison (x), and the ASCII monochrome fallback.
# usage: sh tests/screenshots.sh [BINARY]   (run from the source tree; default ./rooftop;
#        SCREENSHOTS_OUT=DIR writes there instead of screenshots/, as test_screenshots does)
set -eu
BIN=${1:-${ROOFTOP_BIN:-./rooftop}}
OUT=${SCREENSHOTS_OUT:-screenshots}
export ROOFTOP_SPECS="${ROOFTOP_SPECS:-$(pwd)/specs}"
mkdir -p "$OUT"

# shot NAME SIZE [snapshot options...]: NAME.svg and NAME.txt
shot() {
    name=$1
    size=$2
    shift 2
    "$BIN" snapshot --size "$size" --format svg --out "$OUT/$name.svg" "$@"
    "$BIN" snapshot --size "$size" --format txt --out "$OUT/$name.txt" "$@"
    echo "screenshots: $OUT/$name.svg $OUT/$name.txt"
}

shot default 120x40
shot terminal-80x24 80x24
shot wide-200x60 200x60 --keys "<Repeat 7 Down>"
shot does-not-fit 120x40 --model llama3.1-405b --gpus 8 --keys "<Repeat 7 Down>"
shot ops-80x24 80x24 --keys "t"
# b: the fastest layouts of Llama 2 70B on 256 H100s, over the tp 8 layout's step bar.
shot plans 120x40 --model llama2-70b --gpus 256 --batch 512 --seq 4Ki --tp 8 --zero 1 --keys "b"
# i: the inference view of Llama 3.1 8B on an H200, 1024-token prompts: decode at batch 1 sits at
# intensity ~1 on the bandwidth slope; at batch 256 its weight GEMMs near the ridge.
shot inference-batch1 120x40 --model llama3.1-8b --gpu h200 --keys "i<Down><Down><Down><Down><Left><Up>"
shot inference-batch256 120x40 --model llama3.1-8b --gpu h200 \
    --keys "i<Down><Down><Down><Down><Left><Up><Repeat 8 Right>"
# w: memory and step against the sequence length (the seq slider's range) in the roofline's
# place; x pins the lecture's default, then tp 8, pp 4, ZeRO-1 (the README's `rooftop diff
# default --tp 8 --pp 4 --zero 1`) shows each figure's difference from the pinned one.
shot sweep-seq 120x40 --keys "<Repeat 4 Down>w"
shot sweep-seq-80x24 80x24 --keys "<Repeat 4 Down>w"
shot compare-layouts 120x40 --keys "x<Repeat 8 Down><Repeat 3 Right><Down><Down><Right><Right><Down><Down><Down><Left><Left>"
shot compare-layouts-80x24 80x24 --keys "x<Repeat 8 Down><Repeat 3 Right><Down><Down><Right><Right><Down><Down><Down><Left><Left>"
"$BIN" snapshot --size 100x30 --ascii --no-color --format txt --out "$OUT/ascii-mono.txt"
echo "screenshots: $OUT/ascii-mono.txt"

# The lecture at the projector's 80x24 and at 160x50, one picture per step.
steps=$(grep -c '"caption"' specs/scenarios/lecture.json)
i=1
keys=""
while [ "$i" -le "$steps" ]; do
    shot "lecture-$i-80x24" 80x24 --scenario specs/scenarios/lecture.json --keys "$keys"
    shot "lecture-$i-160x50" 160x50 --scenario specs/scenarios/lecture.json --keys "$keys"
    keys="${keys}n"
    i=$((i + 1))
done

# The lecture demo and the inference demo, one picture per step.
for demo in lecture inference; do
    steps=$(grep -c '"caption"' "specs/scenarios/$demo.json")
    i=1
    keys=""
    while [ "$i" -le "$steps" ]; do
        shot "$demo-$i" 120x40 --scenario "specs/scenarios/$demo.json" --keys "$keys"
        keys="${keys}n"
        i=$((i + 1))
    done
done
