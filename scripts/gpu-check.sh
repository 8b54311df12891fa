#!/usr/bin/env bash
# Runs the GPU-facing checks on a machine with an NVIDIA GPU, from a bundle made by
# ../shared/tools/bundle-portable (see HACKING.md). Writes logs and a screenshot to $OUT.
#   scripts/gpu-check.sh BUNDLE.tar.xz OUTDIR
set -uo pipefail
bundle=$1 out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
run=/tmp/portable/run
# The tests were built with the repository at /work/main; point that path at this checkout.
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
log="$out/gpu-check.log"
step() { echo; echo "### $*"; "$@"; echo "(exit $?)"; }
{
    echo "# $(date -u +%FT%TZ) on $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    step $run cuwb --version
    step $run cuwb devices
    step $run cuwb compile --arch sm_90 samples/vector_add/vector_add.cu
    step $run gpu_tst_devices
    for t in core_tst_kernelcompiler core_tst_samples core_tst_occupancy core_tst_compileoptions \
        gui_tst_mainwindow gui_tst_compilecontroller gui_tst_sourceeditor; do
        step $run $t -silent
    done
    step $run bench_compile --repeat 20
    step $run bench_gui
} > "$log" 2>&1
$run cuwb devices --json > "$out/devices.json" 2>>"$log"
$run cuda-workbench --screenshot "$out/workbench-h200.png" --cursor-line 16 \
    docs/images/diagnostics_demo.cu >>"$log" 2>&1
echo "screenshot exit $?" >> "$log"
cat "$log"
