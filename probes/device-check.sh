#!/bin/sh
# device-check.sh - the one command to run on a lent GPU (H100/H200): builds the CUDA probe,
# runs the full probe once and --quick once (each with a time limit well under 5 minutes),
# validates every point, and prints a short table last: measured bandwidth and each format's
# peak as a percentage of the datasheet (specs/gpus/h200.json or h100-*.json, chosen from the
# device name), the targets, and the probe's times. Full output goes under $OUT when set.
#
#   sh probes/device-check.sh            # from the repository root
#
# Needs nvcc (PATH or /usr/local/cuda) and python3 (for the table). Exit status 0 when the
# probe ran, every point validated and the targets were met; 1 otherwise.
set -u
cd "$(dirname "$0")/.." || exit 1
OUTDIR=${OUT:-$(mktemp -d /tmp/rooftop-device-check.XXXXXX)}
mkdir -p "$OUTDIR"
B=${B:-build-device}
EXE=$B/rooftop-probe-cuda
LIMIT=${LIMIT:-200}

say() { printf 'device-check: %s\n' "$*"; }

NVCC=$(command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
if [ -z "$NVCC" ]; then
    say "nvcc not found: cannot build the CUDA probe"
    exit 1
fi
say "building $EXE with $NVCC"
tb=$(date +%s)
if command -v make >/dev/null 2>&1; then
    make -s B="$B" NVCC="$NVCC" "$EXE" >"$OUTDIR/build.log" 2>&1
else
    # The Makefile's rule, by hand.
    lib=$(dirname "$(dirname "$NVCC")")/lib64
    mkdir -p "$B"
    "$NVCC" -O3 -std=c++17 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
        -gencode arch=compute_90,code=compute_90 -Iprobes -cudart static -o "$EXE" probes/*.cu \
        -L"$lib" -Xlinker -rpath="$lib" -lcublasLt >"$OUTDIR/build.log" 2>&1
fi
rc=$?
if [ $rc -ne 0 ]; then
    tail -n 20 "$OUTDIR/build.log"
    say "build failed (exit $rc); log in $OUTDIR/build.log"
    exit 1
fi
say "built in $(( $(date +%s) - tb )) s"

# What the card says about itself, read only (never change its settings).
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
        --format=csv >"$OUTDIR/nvidia-smi-before.csv" 2>&1
fi

run_probe() { # tag, extra args
    tag=$1
    shift
    t0=$(date +%s.%N)
    timeout -k 10 $((LIMIT + 30)) "$EXE" --time-limit "$LIMIT" "$@" >"$OUTDIR/$tag.jsonl" 2>"$OUTDIR/$tag.stderr"
    code=$?
    t1=$(date +%s.%N)
    echo "$code $(echo "$t1 - $t0" | bc 2>/dev/null || python3 -c "print($t1 - $t0)")" >"$OUTDIR/$tag.status"
    say "$tag probe: exit $code, $(cut -d' ' -f2 "$OUTDIR/$tag.status") s"
}

# The full run includes a scenario's own shapes (GPT-2 small's QKV and MLP GEMMs at 8 x 1024
# tokens), as the dashboard passes them.
run_probe full --shapes "qkv=8192,2304,768;mlp_up=8192,3072,768;mlp_down=8192,768,3072"
run_probe quick --quick

if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
        --format=csv >"$OUTDIR/nvidia-smi-after.csv" 2>&1
fi

python3 - "$OUTDIR" <<'PY'
import json, os, sys

out = sys.argv[1]
problems = []

def load(tag):
    pts, dev, err, done = [], None, [], None
    path = os.path.join(out, tag + ".jsonl")
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                d = json.loads(line)
            except ValueError:
                problems.append(f"{tag}.jsonl:{n}: not JSON: {line[:80]}")
                continue
            if "name" in d:
                for k in ("name", "dtype", "flops", "bytes", "seconds", "intensity",
                          "flops_per_s", "bytes_per_s", "valid"):
                    if k not in d:
                        problems.append(f"{tag}: {d.get('name')}: no {k}")
                if d.get("seconds", 0) <= 0 or d.get("bytes", 0) <= 0:
                    problems.append(f"{tag}: {d['name']}: seconds and bytes must be positive")
                elif abs(d["flops_per_s"] - d["flops"] / d["seconds"]) > 1e-3 * max(d["flops_per_s"], 1e-30):
                    problems.append(f"{tag}: {d['name']}: flops_per_s inconsistent")
                if d.get("valid") is not True:
                    problems.append(f"{tag}: {d['name']} ({d['dtype']}): failed its check")
                pts.append(d)
            elif "device" in d:
                dev = d["device"]
            elif "error" in d:
                err.append(d["error"])
            elif "done" in d:
                done = d["done"]
    code, secs = open(os.path.join(out, tag + ".status")).read().split()
    if int(code) != 0 or err or done is None:
        problems.append(f"{tag}: exit {code}" + (f": {err[-1]}" if err else "") +
                        ("" if done else " (no done line)"))
    return pts, dev, float(secs)

full, dev, t_full = load("full")
quick, _, t_quick = load("quick")

name = (dev or {}).get("name", "")
spec_file = "h200.json" if "H200" in name else (
    "h100-pcie.json" if "PCIe" in name else "h100-nvl.json" if "NVL" in name else "h100-sxm.json")
spec = json.load(open(os.path.join("specs", "gpus", spec_file)))

def best(points, pred, key):
    v, who = 0.0, "-"
    for p in points:
        if p.get("valid") and pred(p) and p[key] > v:
            v, who = p[key], p["name"]
    return v, who

rows = []
bw, bw_from = best(full, lambda p: p["name"].startswith("bw."), "bytes_per_s")
rows.append(("bandwidth", bw, spec["bandwidth"], bw_from, 0.90))
for fmt, pred, target in (
        ("fp64", lambda p: p["dtype"] == "fp64", None),
        ("fp32", lambda p: p["name"].startswith("sweep.fp32."), 0.85),
        ("tf32", lambda p: p["dtype"] == "tf32", None),
        ("bf16", lambda p: p["dtype"] == "bf16", 0.70),
        ("fp16", lambda p: p["dtype"] == "fp16", None),
        ("fp8", lambda p: p["dtype"].startswith("fp8"), None)):
    v, who = best(full, pred, "flops_per_s")
    rows.append((fmt, v, spec["peak_flops"].get(fmt), who, target))

with open(os.path.join(out, "points.json"), "w") as f:
    import time
    json.dump({"device": dev, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "points": full}, f, indent=1)

print()
for p in problems:
    print("PROBLEM:", p)
print(f"device: {name} (cc {dev.get('cc') if dev else '?'}, {dev.get('sms') if dev else '?'} SMs, "
      f"driver {dev.get('driver_version') if dev else '?'}), datasheet specs/gpus/{spec_file}")
print(f"{'ceiling':10} {'measured':>17} {'datasheet':>17} {'%':>7}  {'target':>7}  from")
for fmt, v, ds, who, target in rows:
    unit, scale = ("TB/s", 1e12) if fmt == "bandwidth" else ("TFLOP/s", 1e12)
    pct = 100 * v / ds if ds else float("nan")
    tgt = f">={int(target * 100)}%" if target else ""
    mark = "" if not target else ("  ok" if pct >= 100 * target else "  MISSED")
    if target and not pct >= 100 * target:
        problems.append(f"{fmt} {pct:.1f}% < {target * 100:.0f}%")
    dss = f"{ds / scale:9.1f} {unit:7}" if ds else f"{'n/a':>17}"
    print(f"{fmt:10} {v / scale:9.2f} {unit:7} {dss} {pct:6.1f}%  {tgt:>7}{mark}  {who}")
for tag, t, limit in (("full probe", t_full, 60), ("--quick", t_quick, 10)):
    ok = "ok" if t < limit else "MISSED"
    if t >= limit:
        problems.append(f"{tag} took {t:.1f} s (target < {limit} s)")
    print(f"{tag:10} {t:9.1f} s   target < {limit} s  {ok}")
sh = [p for p in full if p["name"].startswith("shape.")]
for p in sh:
    print(f"{p['name']:40} {p['flops_per_s'] / 1e12:8.1f} TFLOP/s bf16 ({100 * p['flops_per_s'] / spec['peak_flops']['bf16']:.0f}% of peak)")
print(f"points: {len(full)} full ({len(sh)} shapes), {len(quick)} quick; problems: {len(problems)}")
sys.exit(1 if problems else 0)
PY
