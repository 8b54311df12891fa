#!/usr/bin/env bash
# The multi-GPU code paths on the one H200 we have (docs/results/multigpu-h200/README.md).
# Run on the GPU machine from the repository root with the portable bundle in gpu-bundle/.
set -u
# The gpu tests read their data through the source folder they were built from.
mkdir -p /work && ln -sfn "$PWD" /work/wt-rel && ln -sfn "$PWD" /work/main
mkdir -p /tmp/wb && tar -xJf gpu-bundle/wb-portable.tar.xz -C /tmp/wb
P=$(ls -d /tmp/wb/cuda-workbench-*)
export CUWB_CACHE_DIR=off QT_QPA_PLATFORM=offscreen
C=$P/cuwb
R=docs/results/multigpu-h200
step() { echo "== $*" >&2; }
nvidia-smi -L > "$OUT/nvidia-smi.txt"
step devices; $C devices > "$OUT/devices.txt" 2>&1; echo "exit $?" >> "$OUT/devices.txt"
for run in 1 2; do
    step "one GPU, --device 0 ($run)"
    /usr/bin/time -f "%e s" $C sweep samples/copy/copy.cuwb --preset block-32-step-32 --device 0 \
        --json "$OUT/device0-$run.json" > "$OUT/device0-$run.txt" 2>&1; echo "exit $?" >> "$OUT/device0-$run.txt"
    step "one GPU, --devices all ($run)"
    /usr/bin/time -f "%e s" $C sweep samples/copy/copy.cuwb --preset block-32-step-32 --devices all \
        --json "$OUT/devicesall-$run.json" > "$OUT/devicesall-$run.txt" 2>&1; echo "exit $?" >> "$OUT/devicesall-$run.txt"
done
step "a fault at block 128, --devices all"
$C sweep $R/fault_at_128.cuwb --devices all --json "$OUT/fault.json" > "$OUT/fault.txt" 2>&1
echo "exit $?" >> "$OUT/fault.txt"
step "--per-device"
$C sweep samples/vector_add/vector_add.cuwb --devices 0 --per-device --json "$OUT/per.json" \
    > "$OUT/perdevice.txt" 2>&1; echo "exit $?" >> "$OUT/perdevice.txt"; ls "$OUT" >> "$OUT/perdevice.txt"
step "refusals"
{ $C sweep samples/vector_add/vector_add.cuwb --devices 0,1; echo "exit $?";
  $C sweep samples/vector_add/vector_add.cuwb --devices 0,0; echo "exit $?"; } > "$OUT/refusals.txt" 2>&1
step "grading the samples on every GPU"
/usr/bin/time -f "%e s" $C run samples/ --devices all --summary --json > "$OUT/grade.json" 2> "$OUT/grade.err"
echo "exit $?" >> "$OUT/grade.err"
step "gpu suite"
for t in "$P"/gpu_tst_*; do
    [ -x "$t" ] || continue
    "$t" > "$OUT/$(basename "$t").log" 2>&1; echo "$(basename "$t") exit $?" >> "$OUT/gpu-suite.txt"
done
cat "$OUT/gpu-suite.txt" >&2
# One archive: the device tool brings back a few files only.
tar -czf /tmp/multigpu-h200.tar.gz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/multigpu-h200.tar.gz "$OUT/"
