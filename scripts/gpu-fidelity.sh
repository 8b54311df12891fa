#!/usr/bin/env bash
# The GPU side of docs/results/h200-fidelity: on a machine with an NVIDIA GPU, nvcc and ncu,
# from a bundle made by bundle-portable (HACKING.md, "Running on a GPU"):
#
#   scripts/gpu-fidelity.sh BUNDLE.tar.xz OUTDIR [corpus|bench|tests|all]
#
#   corpus  the machine and its toolkit; every project of samples/ and tests/realworld/ run and
#           verified (`cuwb run DIR --json --summary`), compiled by nvcc as the user's build
#   tests   the gpu test suites that run the corpus and the samples
#   bench   scripts/realworld-bench.py: the collections' own programs, ncu and cuwb side by side
# Logs and JSON go to OUTDIR.
set -uo pipefail
bundle=$1 out=$2 what=${3:-all}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
[ -x /tmp/portable/run ] || tar -xJf "$bundle" -C /tmp
run=/tmp/portable/run
# The tests were built with the repository at /work/main; point that path at this checkout.
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
step() { echo; echo "### $*"; local t=$SECONDS; "$@"; echo "(exit $?, $((SECONDS - t)) s)"; }

if [ "$what" = corpus ] || [ "$what" = all ]; then
    {
        echo "# $(date -u +%FT%TZ) on $(hostname)"
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
        step nvcc --version
        step gcc --version
        step command -v ncu
        step $run cuwb --version
        step $run cuwb compile samples/transpose/transpose.cuwb
    } > "$out/env.log" 2>&1
    {
        step $run cuwb run samples --json --summary
    } > "$out/samples-run.log" 2>&1
    $run cuwb run tests/realworld --json --summary > "$out/realworld-run.json" \
        2> "$out/realworld-run.err"
    echo "cuwb run tests/realworld: exit $?" >> "$out/realworld-run.err"
fi

if [ "$what" = tests ] || [ "$what" = all ]; then
    {
        for t in tst_samples tst_runner tst_realworld; do
            step $run gpu_tests $t -silent
        done
    } > "$out/gpu-tests.log" 2>&1
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
    step python3 scripts/realworld-bench.py "$out/bench" --cuwb "$run cuwb" \
        > "$out/bench.log" 2>&1
    cp "$out"/bench/realworld-bench.md "$out"/bench/realworld-bench.json "$out"/ 2>/dev/null
    rm -rf "$out/bench/build"
fi
tail -n 5 "$out"/*.log
