#!/bin/sh
# plan-corpus.sh BIN OUTDIR [REFDIR]: runs `rooftop plan --format json` on a fixed corpus of
# cases (dense and MoE models, GPU counts from 8 to 4096, short and long sequences, layouts
# where few or none fit, so that the closest misses are printed) and writes each output to
# OUTDIR/NN.json. With REFDIR, compares every output byte for byte with REFDIR's and exits 1
# on any difference: a change to the search's speed (issue 22) must leave them identical.
# The cases give no layout flag (--tp, --zero, ... are constraints of the search). ROOFTOP_SPECS
# must point at the specs (as `make test` sets it).
bin=${1:?usage: plan-corpus.sh BIN OUTDIR [REFDIR]}
out=${2:?usage: plan-corpus.sh BIN OUTDIR [REFDIR]}
ref=${3:-}
mkdir -p "$out" || exit 1
n=0
bad=0
while IFS= read -r args; do
    case "$args" in '' | '#'*) continue ;; esac
    n=$((n + 1))
    f=$(printf '%s/%02d.json' "$out" "$n")
    # shellcheck disable=SC2086 # the case's words are the options
    "$bin" plan --format json $args >"$f" 2>&1
    echo "exit $?" >>"$f"
    if [ -n "$ref" ] && ! cmp -s "$f" "$ref/$(basename "$f")"; then
        echo "plan-corpus: case $n differs: rooftop plan $args"
        bad=$((bad + 1))
    fi
done <<'CASES'
--model llama3.1-70b --gpu h100-sxm --gpus 1024 --batch 2048 --seq 8192
--model llama3.1-70b --gpu h100-sxm --gpus 64 --batch 512 --seq 8192 --top 20
--model llama3.1-8b --gpu h100-sxm --gpus 8 --batch 64 --seq 4096 --top 10
--model llama3.1-8b --gpu h100-sxm --gpus 256 --batch 256 --seq 131072
--model llama3.1-405b --gpu h100-sxm --gpus 2048 --batch 1024 --seq 8192 --top 3
--model llama3.1-405b --gpu a100-80gb --gpus 64 --batch 256 --seq 4096 --top 8
--model deepseek-v3 --gpu h100-sxm --gpus 64 --batch 512 --seq 4096 --top 5
--model deepseek-v3 --gpu h200 --gpus 1024 --batch 4096 --seq 4096 --dtype fp8
--model mixtral-8x7b --gpu h100-sxm --gpus 32 --batch 256 --seq 4096 --top 10
--model mixtral-8x22b --gpu a100-80gb --gpus 128 --batch 512 --seq 4096
--model qwen3-30b-a3b --gpu h100-sxm --gpus 16 --batch 128 --seq 8192 --top 12
--model gpt3-175b --gpu a100-80gb --gpus 1024 --batch 1536 --seq 2048 --flash off
--model gpt3-175b --gpu v100 --gpus 512 --batch 1536 --seq 2048 --dtype fp16 --top 4
--model gpt2-xl --gpu rtx-4090 --gpus 8 --batch 64 --seq 1024 --top 100
--model gemma2-27b --gpu mi300x --gpus 64 --batch 256 --seq 8192 --dropout on
--model qwen2.5-72b --gpu b200 --gpus 512 --batch 1024 --seq 32768 --top 6
--model llama2-70b --gpu h100-sxm --gpus 16 --batch 64 --seq 4096 --top 7
--model llama2-70b --gpu a100-40gb --gpus 8 --batch 8 --seq 4096 --top 5
--model gpt-oss-120b --gpu h100-sxm --gpus 128 --batch 512 --seq 8192 --optimizer sgd
--model olmo2-13b --gpu l40s --gpus 32 --batch 128 --seq 4096 --top 15
--model phi3-mini --gpu h100-pcie --gpus 4 --batch 16 --seq 4096 --flash off
--model llama3.1-70b --gpu gb200-nvl72 --gpus 4096 --batch 4096 --seq 8192 --top 2
--model llama3.1-8b --gpu h100-sxm --gpus 64 --batch 256 --seq 8192 --by cost --price 2.5 --top 8
--model mixtral-8x7b --gpu h100-sxm --gpus 32 --batch 128 --seq 4096 --by energy --top 4
--model llama3.1-405b --gpu h100-sxm --gpus 1024 --batch 1024 --seq 8192 --top 4
CASES
echo "plan-corpus: $n cases, $bad differ"
[ "$bad" -eq 0 ]
