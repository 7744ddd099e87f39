#!/bin/sh
# device-check.sh - the one command to run on a lent GPU (H100/H200): builds the CUDA probe,
# checks that it sees the GPU, runs the full probe once and --quick once (each under its own
# time limit), validates every point, and prints a short table last: measured bandwidth and
# each format's peak as a percentage of the datasheet (specs/gpus/h200.json or h100-*.json,
# chosen from the device name), the issue's targets, and each part's time beside the
# estimate in probes/NOTES.md. When `rooftop` itself can be built there (its Debian packages
# present), `rooftop probe --backend cuda --quick` is run too, through the child process.
#
#   sh probes/device-check.sh            # from any directory; OUT=dir keeps the files
#
# Needs only the CUDA toolkit (nvcc; make if present, else nvcc is called directly) and a
# POSIX shell with awk; python3 (there with PyTorch) gives the full table, awk a short one.
# Exit status 0 when the probe ran, every point validated and the targets were met; 1
# otherwise. Every step has a time limit: worst case 120 + 30 + 110 + 50 + 90 + 40 s (build,
# --check, full, quick, rooftop's build and run), 7.5 minutes; expected about a minute with
# the builds (the probe runs themselves 4-8 s and 3-6 s: estimate in probes/NOTES.md).
#
# Files under $OUT (at most 7, as the device tool returns at most 8): build.log, log.txt
# (nvidia-smi before/after, stderr, exit codes), full.jsonl, quick.jsonl, points.json (the
# full run as a points document for `rooftop --points`), summary.txt (the table), and
# rooftop-quick.json when rooftop was built.
set -u
cd "$(dirname "$0")/.." || exit 1

OUTDIR=${OUT:-}
if [ -z "$OUTDIR" ]; then
    OUTDIR=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-device-check.XXXXXX") || exit 1
fi
mkdir -p "$OUTDIR" || exit 1
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-device-work.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
B=${B:-build-device}
EXE=$B/rooftop-probe-cuda
BUILD_LIMIT=${BUILD_LIMIT:-120}   # seconds for nvcc (about 15 s on 2 cores here)
FULL_LIMIT=${FULL_LIMIT:-90}      # the probe's own --time-limit; the target is < 60 s
QUICK_LIMIT=${QUICK_LIMIT:-30}    # the target is < 10 s
LOG=$OUTDIR/log.txt
: >"$LOG"

say() { printf 'device-check: %s\n' "$*" | tee -a "$LOG"; }

# Runs a command under a wall-clock limit (seconds) when coreutils' timeout is there.
limit() {
    s=$1
    shift
    if command -v timeout >/dev/null 2>&1; then
        timeout -k 10 "$s" "$@"
    else
        "$@"
    fi
}

now() { date +%s.%N 2>/dev/null || date +%s; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The text of the last {"error": "..."} line of a JSON-lines file.
error_of() { sed -n 's/^{"error": "\(.*\)"}$/\1/p' "$1" | tail -n 1; }

# The toolkit's own nvcc first: one found on PATH may be a wrapper script elsewhere, which
# says nothing about where the toolkit's include/ and lib64/ are.
if [ -z "${NVCC:-}" ]; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        NVCC=/usr/local/cuda/bin/nvcc
    else
        NVCC=$(command -v nvcc 2>/dev/null)
        NVCC=$(readlink -f "$NVCC" 2>/dev/null || echo "$NVCC")
    fi
fi
if [ -z "$NVCC" ] || [ ! -x "$NVCC" ]; then
    say "nvcc not found (/usr/local/cuda/bin, PATH): cannot build the CUDA probe"
    exit 1
fi
CUDA_ROOT=$(dirname "$(dirname "$NVCC")")

# cuBLASLt: the toolkit's, else the copy a pip-installed PyTorch brings (nvidia/cublas).
CUBLASLT_INC=""
CUBLASLT_LIBS="-L$CUDA_ROOT/lib64 -Xlinker -rpath=$CUDA_ROOT/lib64 -lcublasLt"
custom_cublas=no
if [ ! -f "$CUDA_ROOT/include/cublasLt.h" ] || [ ! -e "$CUDA_ROOT/lib64/libcublasLt.so" ]; then
    hdr=$(find "$CUDA_ROOT" /usr/local /opt /usr -name cublasLt.h -print -quit 2>/dev/null)
    lib=$(find "$CUDA_ROOT" /usr/local /opt /usr -name 'libcublasLt.so*' -print -quit 2>/dev/null)
    if [ -z "$hdr" ] || [ -z "$lib" ]; then
        say "cuBLASLt not found (no cublasLt.h or libcublasLt.so under $CUDA_ROOT, /usr, /opt)"
        exit 1
    fi
    # -lcublasLt wants the unversioned name: link through a symlink, run from the real dir.
    mkdir -p "$B/cublaslt" && ln -sf "$lib" "$B/cublaslt/libcublasLt.so" || exit 1
    CUBLASLT_INC="-I$(dirname "$hdr")"
    CUBLASLT_LIBS="-L$B/cublaslt -Xlinker -rpath=$(dirname "$lib") -lcublasLt"
    custom_cublas=yes
    say "cuBLASLt from $hdr and $lib"
fi

say "building $EXE with $NVCC ($("$NVCC" --version | tail -n 1))"
tb=$(now)
if command -v make >/dev/null 2>&1; then
    # Only the probe's own target: it needs none of rooftop's Debian packages.
    set -- B="$B" NVCC="$NVCC"
    if [ "$custom_cublas" = yes ]; then
        set -- "$@" CUBLASLT_INC="$CUBLASLT_INC" CUBLASLT_LIBS="$CUBLASLT_LIBS"
    fi
    limit "$BUILD_LIMIT" make -s "$@" "$EXE" >"$OUTDIR/build.log" 2>&1
else
    # The Makefile's rule, by hand.
    mkdir -p "$B"
    # shellcheck disable=SC2086 # the flags are meant to split into words
    limit "$BUILD_LIMIT" "$NVCC" -O3 -std=c++17 -gencode arch=compute_80,code=sm_80 \
        -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
        -Iprobes $CUBLASLT_INC -cudart static -o "$EXE" probes/*.cu $CUBLASLT_LIBS \
        >"$OUTDIR/build.log" 2>&1
fi
rc=$?
if [ $rc -ne 0 ] || [ ! -x "$EXE" ]; then
    tail -n 20 "$OUTDIR/build.log"
    say "build failed (exit $rc); log in $OUTDIR/build.log"
    exit 1
fi
say "built in $(since "$tb") s"

# Does it see a GPU? One device line, or one error line saying why not (seconds at most).
limit 30 "$EXE" --check >"$WORK/check.jsonl" 2>>"$LOG"
rc=$?
cat "$WORK/check.jsonl" >>"$LOG"
if [ $rc -ne 0 ]; then
    why=$(error_of "$WORK/check.jsonl")
    say "the CUDA probe cannot run here: ${why:-no answer} (exit $rc); nothing measured"
    exit 1
fi
say "device: $(cat "$WORK/check.jsonl")"

# What the card says about itself, read only (never change its settings).
smi() {
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "nvidia-smi $1:" >>"$LOG"
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,memory.used \
            --format=csv >>"$LOG" 2>&1
    fi
}
smi before

run_probe() { # tag, probe time limit, extra args
    tag=$1
    lim=$2
    shift 2
    t0=$(now)
    echo "== $tag: $EXE --time-limit $lim $*" >>"$LOG"
    limit $((lim + 20)) "$EXE" --time-limit "$lim" "$@" >"$OUTDIR/$tag.jsonl" 2>>"$LOG"
    code=$?
    secs=$(since "$t0")
    echo "$code $secs" >"$WORK/$tag.status"
    echo "== $tag: exit $code after $secs s" >>"$LOG"
    err=$(error_of "$OUTDIR/$tag.jsonl")
    say "$tag probe: exit $code, $secs s${err:+: $err}"
}

# The full run includes a scenario's own shapes (GPT-2 small's QKV and MLP GEMMs at 8 x 1024
# tokens), as the dashboard passes them.
run_probe full "$FULL_LIMIT" --shapes "qkv=8192,2304,768;mlp_up=8192,3072,768;mlp_down=8192,768,3072"
run_probe quick "$QUICK_LIMIT" --quick
smi after

# rooftop itself, only where its Debian packages are already there (no installs on a
# machine without a network): the child-process path the dashboard and `rooftop probe` use.
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists ncursesw libcjson check 2>/dev/null &&
    command -v make >/dev/null 2>&1; then
    jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 4)
    if limit 90 make -s -j"$jobs" B="$B" NVCC="$NVCC" "$B/rooftop-bin" >>"$OUTDIR/build.log" 2>&1; then
        t0=$(now)
        ROOFTOP_SPECS=$PWD/specs limit 40 "$B/rooftop-bin" probe --backend cuda --quick --time-limit 30 \
            --out "$OUTDIR/rooftop-quick.json" >"$WORK/rooftop.out" 2>>"$LOG"
        code=$?
        echo "$code $(since "$t0")" >"$WORK/rooftop.status"
        say "rooftop probe --backend cuda --quick: exit $code, $(since "$t0") s"
    else
        echo "1 0" >"$WORK/rooftop.status"
        say "rooftop did not build (see build.log): only the probe executable was checked"
    fi
else
    say "rooftop not built (its Debian packages are not here): only the probe executable was checked"
fi

if ! command -v python3 >/dev/null 2>&1; then
    # No python3: a short check with awk. Every point valid, a done line, exit 0.
    awk -v dir="$OUTDIR" -v work="$WORK" '
        function check(tag,   f, line, n, bad, done, st) {
            f = dir "/" tag ".jsonl"
            while ((getline line < f) > 0) {
                if (line ~ /^\{"name": /) { n++; if (line !~ /"valid": true\}$/) bad++ }
                if (line ~ /^\{"done": /) done = 1
            }
            getline st < (work "/" tag ".status")
            split(st, a, " ")
            printf "%-6s %4d points, %d invalid, exit %s, %s s%s\n", tag, n, bad, a[1], a[2], done ? "" : ", no done line"
            return bad == 0 && done && a[1] == 0
        }
        BEGIN { ok = check("full"); ok = check("quick") && ok; exit ok ? 0 : 1 }' >"$OUTDIR/summary.txt"
    rc=$?
    cat "$OUTDIR/summary.txt"
    exit $rc
fi

python3 - "$OUTDIR" "$WORK" <<'PY'
import json, os, re, sys, time

out, work = sys.argv[1], sys.argv[2]
problems = []
KEYS = ("name", "dtype", "flops", "bytes", "seconds", "intensity", "flops_per_s",
        "bytes_per_s", "valid")

def status(tag):
    try:
        code, secs = open(os.path.join(work, tag + ".status")).read().split()
        return int(code), float(secs)
    except (OSError, ValueError):
        return None, 0.0

def load(tag):
    pts, dev, err, done, parts = [], None, [], None, {}
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
                missing = [k for k in KEYS if k not in d]
                if missing:
                    problems.append(f"{tag}: {d.get('name')}: no {', '.join(missing)}")
                    continue
                if not (d["seconds"] > 0 and d["bytes"] > 0 and d["flops"] >= 0):
                    problems.append(f"{tag}: {d['name']}: seconds and bytes must be positive")
                else:
                    for k, want in (("intensity", d["flops"] / d["bytes"]),
                                    ("flops_per_s", d["flops"] / d["seconds"]),
                                    ("bytes_per_s", d["bytes"] / d["seconds"])):
                        if abs(d[k] - want) > 1e-3 * max(abs(want), 1e-30):
                            problems.append(f"{tag}: {d['name']}: {k} is not derived")
                if d["valid"] is not True:
                    problems.append(f"{tag}: {d['name']} ({d['dtype']}): failed its check")
                pts.append(d)
            elif "device" in d:
                dev = d["device"]
            elif "error" in d:
                err.append(d["error"])
            elif "done" in d:
                done = d["done"]
            elif "status" in d:
                m = re.match(r"part (\w+): ([\d.]+) s", d["status"])
                if m:
                    parts[m.group(1)] = float(m.group(2))
                m = re.match(r"started in ([\d.]+) s", d["status"])
                if m:
                    parts["start"] = float(m.group(1))
    code, secs = status(tag)
    if code != 0 or err or done is None:
        problems.append(f"{tag}: exit {code}" + (f": {err[-1]}" if err else "") +
                        ("" if done else " (no done line)"))
    elif done.get("points") != len(pts):
        problems.append(f"{tag}: done line says {done.get('points')} points, {len(pts)} seen")
    return pts, dev, secs, parts

full, dev, t_full, parts_full = load("full")
quick, _, t_quick, parts_quick = load("quick")

name = (dev or {}).get("name", "")
spec_file = "h200.json" if "H200" in name else (
    "h100-pcie.json" if "PCIe" in name else "h100-nvl.json" if "NVL" in name else "h100-sxm.json")
spec = json.load(open(os.path.join("specs", "gpus", spec_file)))

with open(os.path.join(out, "points.json"), "w") as f:
    json.dump({"device": dev, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "points": full}, f, indent=1)

rq, _ = status("rooftop")
if rq is not None:
    try:
        doc = json.load(open(os.path.join(out, "rooftop-quick.json")))
        bad = [p["name"] for p in doc.get("points", []) if not p.get("valid")]
        if rq != 0 or not doc.get("points") or bad:
            problems.append(f"rooftop probe --backend cuda: exit {rq}, "
                            f"{len(doc.get('points', []))} points, invalid: {bad[:5]}")
    except (OSError, ValueError) as e:
        problems.append(f"rooftop probe --backend cuda: exit {rq}, no document ({e})")

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
        ("fp64", lambda p: p["name"].startswith("sweep.fp64."), None),
        ("fp32", lambda p: p["name"].startswith("sweep.fp32."), 0.85),
        ("tf32", lambda p: p["dtype"] == "tf32", None),
        ("bf16", lambda p: p["dtype"] == "bf16", 0.70),
        ("fp16", lambda p: p["dtype"] == "fp16", None),
        ("fp8", lambda p: p["dtype"].startswith("fp8"), None)):
    v, who = best(full, pred, "flops_per_s")
    rows.append((fmt, v, spec["peak_flops"].get(fmt), who, target))

# The estimate in probes/NOTES.md, seconds (H200; an H100 is about the same but bandwidth).
EST = {"start": 2.0, "bandwidth": 0.35, "sweep": 1.3, "ops": 1.0, "gemms": 1.2, "shapes": 0.1}
EST_Q = {"start": 2.0, "bandwidth": 0.25, "sweep": 0.4, "ops": 1.0, "gemms": 0.7}

lines = [""]
lines += [f"PROBLEM: {p}" for p in problems]
lines.append(f"device: {name} (cc {(dev or {}).get('cc', '?')}, {(dev or {}).get('sms', '?')} SMs, "
             f"driver {(dev or {}).get('driver_version', '?')}), datasheet specs/gpus/{spec_file}")
lines.append("part times, full (estimate): " + ", ".join(
    f"{k} {parts_full.get(k, float('nan')):.2f} s ({EST[k]})" for k in EST))
lines.append("part times, quick (estimate): " + ", ".join(
    f"{k} {parts_quick.get(k, float('nan')):.2f} s ({EST_Q[k]})" for k in EST_Q))
for p in (q for q in full if q["name"].startswith("shape.")):
    lines.append(f"{p['name']:40} {p['flops_per_s'] / 1e12:8.1f} TFLOP/s bf16 "
                 f"({100 * p['flops_per_s'] / spec['peak_flops']['bf16']:.0f}% of peak)")
lines.append(f"{'ceiling':10} {'measured':>17} {'datasheet':>17} {'%':>7}  {'target':>7}  from")
for fmt, v, ds, who, target in rows:
    unit = "TB/s" if fmt == "bandwidth" else "TFLOP/s"
    pct = 100 * v / ds if ds else float("nan")
    tgt = f">={int(target * 100)}%" if target else ""
    mark = "" if not target else ("  ok" if pct >= 100 * target else "  MISSED")
    if target and not pct >= 100 * target:
        problems.append(f"{fmt} {pct:.1f}% < {target * 100:.0f}%")
    dss = f"{ds / 1e12:9.1f} {unit:7}" if ds else f"{'n/a':>17}"
    lines.append(f"{fmt:10} {v / 1e12:9.2f} {unit:7} {dss} {pct:6.1f}%  {tgt:>7}{mark}  {who}")
for tag, t, lim, est in (("full probe", t_full, 60, "4-8"), ("--quick", t_quick, 10, "3-6")):
    ok = "ok" if 0 < t < lim else "MISSED"
    if not 0 < t < lim:
        problems.append(f"{tag} took {t:.1f} s (target < {lim} s)")
    lines.append(f"{tag:10} {t:9.1f} s   target < {lim} s  {ok}   (estimate {est} s)")
lines.append(f"points: {len(full)} full, {len(quick)} quick; problems: {len(problems)}")
print("\n".join(lines))
with open(os.path.join(out, "summary.txt"), "w") as f:
    f.write("\n".join(lines + [f"PROBLEM: {p}" for p in problems]) + "\n")
sys.exit(1 if problems else 0)
PY
