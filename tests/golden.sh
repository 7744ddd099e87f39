#!/bin/sh
# golden.sh - the outputs of a corpus of varied commands (report, plan, infer, solve, intensity,
# list, snapshot) in every format, for restructurings that must not change a figure.
# usage: sh tests/golden.sh write DIR [BINARY]   write the corpus's outputs into DIR
#        sh tests/golden.sh check DIR [BINARY]   compare with DIR; lists each file that differs
# Run from the source tree. A figure a bug fix changes is a listed difference, named in the note.
set -u
mode=$1
dir=$2
BIN=${3:-./rooftop}
export ROOFTOP_SPECS="${ROOFTOP_SPECS:-$(pwd)/specs}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# run NAME ARGS...: stdout, stderr and the exit status of one command into $tmp/NAME
run() {
    name=$1
    shift
    "$BIN" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
    n=$((n + 1))
}

# every format of one command
all() {
    base=$1
    shift
    run "$base" "$@"
    for f in json csv md; do run "$base.$f" "$@" --format $f; done
}

all r-default report
all r-70b-64 report --model llama3.1-70b --gpus 64 --seq 8192 --tp 8 --pp 2
all r-8b-1 report --model llama3.1-8b --gpus 1 --batch 8 --seq 4096 --zero 0
all r-405b-8 report --model llama3.1-405b --gpus 8
all r-gpt3 report --model gpt3-175b --gpus 1024 --tp 8 --pp 8 --recompute full --flops detailed
all r-mixtral report --model mixtral-8x7b --gpus 64 --tp 2 --ep 8 --sp on --seq 4096
all r-dsv3 report --model deepseek-v3 --gpus 256 --tp 8 --pp 4 --ep 8 --sp on
all r-gpt2 report --model gpt2-small --gpus 1 --dtype fp32 --optimizer sgd --batch 32 --seq 1024
all r-qwen-a100 report --model qwen2.5-72b --gpu a100-80gb --gpus 128 --tp 8 --pp 4 --recompute selective --master-weights on
all r-fp8 report --model llama3.1-70b --gpus 512 --dtype fp8 --tp 4 --pp 4 --cp 2 --sp on
all r-vpp report --model llama2-70b --gpus 256 --tp 8 --pp 4 --vpp 5 --dp-overlap 0.5
all r-nof report --model llama2-7b --gpus 8 --flash off --dropout on --recompute sqrt
all r-mfu report --model llama3.1-8b --gpus 16 --mfu 0.4 --tokens 1T --attention-flops causal
all r-h200 report --model llama3.1-70b --gpu h200 --gpus 32 --zero 1 --micro-batch 2 --batch 256
all r-mi300 report --model llama3.1-405b --gpu mi300x --gpus 512 --tp 8 --pp 8 --zero 1
all r-gemma report --model gemma2-9b --gpus 8 --seq 8192 --vocab-pad 128
all r-adam8 report --model llama2-13b --gpus 16 --optimizer adam8bit --zero 2
all r-bad report --tp 3
all r-bad2 report --model nosuch
all p-70b plan --model llama3.1-70b --gpus 64 --seq 8192
all p-70b-1k plan --model llama3.1-70b --gpus 1024 --batch 2048 --seq 8192 --top 5
all p-dsv3 plan --model deepseek-v3 --gpus 64
all p-8b plan --model llama3.1-8b --gpus 8 --top 3
all p-gpt3 plan --model gpt3-175b --gpus 512 --batch 1536 --seq 2048
all i-8b infer --model llama3.1-8b
all i-8b-256 infer --model llama3.1-8b --gpu h200 --batch 256 --prompt 1024
all i-70b infer --model llama3.3-70b --tp 2 --dtype fp8 --batch 64
all i-dsv3 infer --model deepseek-v3 --tp 8 --gpu h200 --batch 32
all i-mistral infer --model mistral-7b --prompt 4096 --generate 512 --kv-dtype fp8
all i-bad infer --tp 3
all s-max solve max-params
all s-max2 solve max-params --gpus 16 --optimizer adamw
all s-min solve min-gpus --model llama3.1-70b --seq 8192
all s-min2 solve min-gpus --model llama3.1-405b --gpu h200
for op in relu gelu dot matvec matmul; do all "x-$op" intensity $op; done
all x-mm2 intensity matmul --n 4096 --dtype fp8 --gpu h100-sxm
all x-mv2 intensity matvec --n 8192 --gpu a100-80gb
all l-gpus list gpus
all l-models list models
for sz in 120x40 80x24 200x60; do
    run "snap-$sz" snapshot --size $sz
    run "snap-70b-$sz" snapshot --size $sz --model llama3.1-70b --gpus 64 --keys "<Down><Down><Right>"
    run "snap-b-$sz" snapshot --size $sz --model llama2-70b --gpus 256 --batch 512 --seq 4096 --tp 8 --zero 1 --keys "b"
    run "snap-i-$sz" snapshot --size $sz --model llama3.1-8b --gpu h200 --keys "i<Down><Down><Down><Down><Left><Up>"
    run "snap-t-$sz" snapshot --size $sz --keys "t"
done
i=0
while [ $i -le 8 ]; do
    keys=$(printf '%*s' $i '' | tr ' ' n)
    run "snap-lecture-$i" snapshot --size 120x40 --scenario specs/scenarios/lecture.json --keys "$keys"
    run "snap-inference-$i" snapshot --size 120x40 --scenario specs/scenarios/inference.json --keys "$keys"
    i=$((i + 1))
done

case $mode in
write)
    rm -rf "$dir" && mkdir -p "$dir" && cp "$tmp"/* "$dir"/ && echo "golden: $n commands into $dir"
    ;;
check)
    bad=0
    for f in "$tmp"/*; do
        b=$(basename "$f")
        if ! cmp -s "$f" "$dir/$b"; then echo "golden: differs: $b"; bad=$((bad + 1)); fi
    done
    echo "golden: $n commands, $bad files differ"
    [ $bad -eq 0 ]
    ;;
*) echo "usage: sh tests/golden.sh write|check DIR [BINARY]" >&2; exit 2 ;;
esac
