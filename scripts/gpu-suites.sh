#!/usr/bin/env bash
# Every gpu suite but the real-world corpus (scripts/gpu-fidelity.sh runs that), and the CUPTI
# metrics pass of `cuwb measure` on a sample, in one device call from a bundle made by
# bundle-portable (HACKING.md, "Running on a GPU") with cuwb and tests/gpu_tests:
#   scripts/gpu-suites.sh BUNDLE.tar.xz OUTDIR
# Writes suites.log: each suite's summary line and every failure.
set -uo pipefail
bundle=$1 out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
R=/tmp/portable/run
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
# As under ctest (tests/CMakeLists.txt): every test compiles what it checks.
export CUWB_CACHE_DIR=off
{
    echo "# $(date -u +%FT%TZ) on $(hostname), commit $(git rev-parse --short HEAD 2>/dev/null)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
    for t in tst_devices tst_runner tst_checks tst_samples tst_measure tst_metrics tst_inspect \
        tst_sweep; do
        echo "### gpu_tests $t"
        start=$(date +%s)
        timeout 400 $R gpu_tests "$t" 2>&1 | grep -E "^(FAIL|SKIP|Totals)|Loc: " || true
        echo "($(($(date +%s) - start)) s)"
    done
    echo "### cuwb measure --metrics (the Range Profiler)"
    $R cuwb measure --metrics samples/matmul/matmul_tiled.cuwb 2>&1 | tail -15
} > "$out/suites.log" 2>&1
cat "$out/suites.log"
