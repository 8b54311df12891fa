#!/usr/bin/env bash
# The window's GPU paths in one device call, from a bundle made by bundle-portable (HACKING.md,
# "Running on a GPU") with cuwb and cuda-workbench: every path that takes its request, its
# settings or its sweep from the Workspace — Run, Measure with metrics, Inspect, a live sweep,
# Compare and a lesson's experiment — each driven as a user would, to a screenshot.
#   scripts/gpu-window.sh BUNDLE.tar.xz OUTDIR
# Writes window.log (each step's exit status and time) and the screenshots.
set -uo pipefail
bundle=$1 out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
R=/tmp/portable/run
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
step() {
    echo
    echo "### $*"
    local t0
    t0=$(date +%s%N)
    "$@"
    local rc=$?
    echo "(exit $rc, $((($(date +%s%N) - t0) / 1000000)) ms)"
}
W="$R cuda-workbench"
{
    echo "# $(date -u +%FT%TZ) on $(hostname), commit $(git rev-parse --short HEAD 2>/dev/null)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
    step $R cuwb --version
    step $W --run --screenshot "$out/run-vector-add.png" samples/vector_add/vector_add.cuwb
    step $W --measure --metrics --roofline --screenshot "$out/measure-copy.png" \
        samples/copy/copy.cuwb
    step $W --inspect --screenshot "$out/inspect-matmul.png" samples/matmul/matmul_naive.cuwb
    step $W --sweep --preset block-pow2 --screenshot "$out/sweep-copy.png" samples/copy/copy.cuwb
    step $W --compare samples/copy/copy_float4.cuwb --screenshot "$out/compare-copy.png" \
        samples/copy/copy.cuwb
    step $W --lesson --screenshot "$out/lesson-transpose.png" samples/transpose/transpose.cuwb
} > "$out/window.log" 2>&1
grep -E "^###|^\(exit|cuda-workbench:" "$out/window.log"
