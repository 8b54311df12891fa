#!/usr/bin/env bash
# Runs the GPU-facing checks on a machine with an NVIDIA GPU, from a bundle made by
# bundle-portable (HACKING.md, "Running on a GPU"). Writes logs and screenshots to OUTDIR.
#   scripts/gpu-check.sh BUNDLE.tar.xz OUTDIR [foundation|run|all]
set -uo pipefail
bundle=$1 out=$2 what=${3:-all}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
run=/tmp/portable/run
# The tests were built with the repository at /work/main; point that path at this checkout.
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
step() { echo; echo "### $*"; "$@"; echo "(exit $?)"; }
header() {
    echo "# $(date -u +%FT%TZ) on $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    step $run cuwb --version
    step $run cuwb devices
}

if [ "$what" = foundation ] || [ "$what" = all ]; then
    {
        header
        step $run cuwb compile --arch sm_90 samples/vector_add/vector_add.cu
        step $run gpu_tests tst_devices
        for t in core:tst_kernelcompiler core:tst_samples core:tst_occupancy core:tst_compileoptions \
            gui:tst_mainwindow gui:tst_compilecontroller gui:tst_sourceeditor; do
            step $run "${t%%:*}_tests" "${t#*:}" -silent
        done
        step $run bench_compile --repeat 20
        step $run bench_gui
    } > "$out/gpu-check.log" 2>&1
    $run cuwb devices --json > "$out/devices.json" 2>>"$out/gpu-check.log"
    $run cuda-workbench --screenshot "$out/workbench-h200.png" --cursor-line 16 \
        docs/images/diagnostics_demo.cu >>"$out/gpu-check.log" 2>&1
    echo "screenshot exit $?" >> "$out/gpu-check.log"
fi

if [ "$what" = run ] || [ "$what" = all ]; then
    {
        header
        step $run gpu_tests tst_runner
        step $run gpu_tests tst_devices -silent
        for p in samples/*/*.cuwb; do step $run cuwb check "$p"; done
        step $run cuwb run samples/*/*.cuwb
    } > "$out/run-check.log" 2>&1
    $run cuwb run --json samples/*/*.cuwb > "$out/samples-run.json" 2>>"$out/run-check.log"
    echo "cuwb run --json exit $?" >> "$out/run-check.log"
    $run cuda-workbench --run --screenshot "$out/workbench-run-h200.png" \
        samples/vector_add/vector_add.cuwb >>"$out/run-check.log" 2>&1
    echo "run screenshot exit $?" >> "$out/run-check.log"
fi
cat "$out"/*.log
