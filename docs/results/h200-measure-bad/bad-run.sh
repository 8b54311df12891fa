#!/usr/bin/env bash
# Issue 4's bad inputs on a GPU, from a bundle made by bundle-portable (HACKING.md):
#   docs/results/h200-measure-bad/bad-run.sh BUNDLE.tar.xz OUTDIR
set -uo pipefail
bundle=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
run=/tmp/portable/run
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
d=docs/results/h200-measure-bad
step() { echo; echo "### $*"; local t0=$(date +%s%N); "$@"; local rc=$?; echo "(exit $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms)"; }
{
    echo "# $(date -u +%FT%TZ) on $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv
    grep -i profiling /proc/driver/nvidia/params
    step $run cuwb --version
    # A kernel too short for events: CUPTI's figure, the events beside it, "launch-bound".
    step $run cuwb measure $d/short_copy.cuwb --hot --samples 500
    # 30 s per launch, 15 s cap (the default): one warm-up, one sample, then the cap.
    step $run cuwb measure $d/spin_30s_deadline120.cuwb
    # 30 s per launch, 10 s deadline: the worker is stopped, the reason is given.
    step $run cuwb measure $d/spin_30s_deadline10.cuwb
    # Traps at the fifth sample: the fault and the four samples before it.
    step $run cuwb measure $d/trap_fifth.cuwb
    step $run cuwb measure --json $d/trap_fifth.cuwb
    # A metric the chip does not have, on the device path.
    step $run cuwb measure samples/copy/copy.cuwb --samples 20 --metric dram__bytes_read.sum \
        --metric sm__no_such_metric.sum
    # Ctrl+C after 4 s of a measurement that would take 60 s: the samples taken are reported.
    step timeout -s INT 4 $run cuwb measure samples/copy/copy.cuwb --min-time 60 --cap 60 --noise 0.000001
    # Without profiling permission (an unprivileged user): the reason and the fix; timing works.
    chmod -R a+rX /tmp/portable "$repo" 2>/dev/null
    step setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp XDG_RUNTIME_DIR=/tmp/rt-nobody \
        $run cuwb measure samples/copy/copy.cuwb --samples 20 --metrics
    step $run gpu_tst_measure
    step $run gpu_tst_metrics
    step $run gpu_tst_runner -silent
} > "$out/bad-run.log" 2>&1
cat "$out/bad-run.log"
