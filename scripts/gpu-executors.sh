#!/usr/bin/env bash
# The three sweep executors (core/sweep/sweepexecutor.h) on a GPU machine, in one device call,
# from a bundle made by bundle-portable with cuwb and cuda-workbench (HACKING.md, "Running on a
# GPU"): the same sweep on one worker (SweepRunner), on every GPU at once (MultiDeviceSweep),
# whole on each GPU (--per-device), Ctrl+C in the middle of each, the placement's refusals, and
# the window's sweep thread. With two GPUs, --devices all uses both.
#   scripts/gpu-executors.sh BUNDLE.tar.xz OUTDIR
# Writes executors.log (each step's output tail, exit status and time) and the JSON results.
set -uo pipefail
bundle=$1 out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
R=/tmp/portable/run
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
export CUWB_CACHE_DIR=off
C="$R cuwb"
sweep=(samples/copy/copy.cuwb --preset block-32-step-32)
step() {
    local name=$1
    shift
    echo
    echo "### $name: $*"
    local t0
    t0=$(date +%s%N)
    "$@" > "$out/$name.txt" 2>&1
    local rc=$?
    tail -n 8 "$out/$name.txt"
    echo "(exit $rc, $((($(date +%s%N) - t0) / 1000000)) ms)"
}
{
    echo "# $(date -u +%FT%TZ) on $(hostname), commit $(git rev-parse --short HEAD 2>/dev/null)"
    nvidia-smi --query-gpu=index,name,driver_version --format=csv
    step one-worker $C sweep "${sweep[@]}" --json "$out/one-worker.json"
    step every-gpu $C sweep "${sweep[@]}" --devices all --json "$out/every-gpu.json"
    step per-device $C sweep samples/vector_add/vector_add.cuwb --devices all --per-device \
        --json "$out/per-device.json"
    # Ctrl+C after 2 s of a long sweep: the point in flight stops sampling, the points measured
    # are kept and printed, exit 130.
    step interrupt-one timeout -s INT 2 $C sweep "${sweep[@]}" --samples 3000
    step interrupt-every timeout -s INT 2 $C sweep "${sweep[@]}" --samples 3000 --devices all
    step refuse-slurm-devices $C sweep "${sweep[@]}" --devices all --slurm
    step refuse-per-device $C sweep "${sweep[@]}" --per-device
    step refuse-all-elsewhere $C sweep "${sweep[@]}" --devices all --worker "$R cuwb worker"
    step refuse-device-devices $C run samples/copy/copy.cuwb --device 0 --devices 0
    step refuse-no-gpu-9 $C sweep "${sweep[@]}" --devices 0,9
    step window $R cuda-workbench --sweep --preset block-32-step-32 \
        --screenshot "$out/window-sweep.png" samples/copy/copy.cuwb
} > "$out/executors.log" 2>&1
cat "$out/executors.log"
