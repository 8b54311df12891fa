#!/usr/bin/env bash
# The GPU evidence of issues 4 and 5 in one device call, from a bundle made by
# bundle-portable (HACKING.md) with cuwb, cuda-workbench and the gpu tests:
#   scripts/gpu-evidence.sh BUNDLE.tar.xz OUTDIR
# Writes evidence.log, the sweep results (JSON, CSV, T4), the speed comparison against a CuPy
# loop, and screenshots: the measurement card, the copy sample's block-size sweep, the
# transpose heatmap and a baseline comparison.
set -uo pipefail
bundle=$1 out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
R=/tmp/portable/run
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
step() { echo; echo "### $*"; local t0=$(date +%s%N); "$@"; local rc=$?; echo "(exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms)"; }
{
    echo "# $(date -u +%FT%TZ) on $(hostname), commit $(git rev-parse --short HEAD 2>/dev/null)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
    step $R cuwb --version
    for t in tst_devices tst_runner tst_metrics tst_sweep tst_measure; do
        step $R gpu_tests $t -silent
    done

    # Issue 4: the measurement card with metrics, from the GUI against a real worker.
    step $R cuda-workbench --measure --metrics --screenshot "$out/measure-copy-h200.png" \
        samples/copy/copy.cuwb

    # Issue 5: sweeps. The copy with the metrics pass at every point (DRAM bytes, achieved
    # occupancy), the float4 copy as the "new version", the transpose's block shapes.
    step $R cuwb sweep samples/copy/copy.cuwb --preset block-32-step-32 --metrics --verify \
        --json "$out/copy-step32.json" --csv "$out/copy-step32.csv" --t4 "$out/copy-step32-t4.json"
    step $R cuwb sweep samples/copy/copy_float4.cuwb --preset block-32-step-32 \
        --json "$out/copy-float4-step32.json"
    step $R cuwb sweep samples/transpose/transpose.cuwb --verify --json "$out/transpose-2d.json" \
        --csv "$out/transpose-2d.csv"
    step $R cuda-workbench --sweep --preset block-32-step-32 --screenshot "$out/sweep-live-h200.png" \
        samples/copy/copy.cuwb
    step $R cuda-workbench --open-sweep "$out/copy-step32.json" --screenshot "$out/sweep-copy-h200.png" \
        samples/copy/copy.cuwb
    step $R cuda-workbench --open-sweep "$out/transpose-2d.json" \
        --screenshot "$out/sweep-transpose-heatmap-h200.png" samples/transpose/transpose.cuwb
    step $R cuda-workbench --open-sweep "$out/copy-float4-step32.json" \
        --baseline "$out/copy-step32.json" --screenshot "$out/sweep-baseline-h200.png" \
        samples/copy/copy_float4.cuwb

    # Speed: the same 32-point sweep, 20 hot samples per point, by cuwb and by a CuPy loop,
    # alternating, three times each.
    python3 -c "import cupy; print('cupy', cupy.__version__)"
    for k in 1 2 3; do
        step $R cuwb sweep samples/copy/copy.cuwb --preset block-32-step-32 \
            --json "$out/speed-cuwb-$k.json" > "$out/speed-cuwb-$k.log" 2>&1
        tail -3 "$out/speed-cuwb-$k.log"
        step python3 bench/python_sweep.py --backend cupy > "$out/speed-cupy-$k.log" 2>&1
        tail -1 "$out/speed-cupy-$k.log"
    done
} > "$out/evidence.log" 2>&1
cat "$out/evidence.log" | tail -150
