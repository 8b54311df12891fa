#!/usr/bin/env bash
# cuwb sweep against the auto-tuner's loop (bench/tuner_loop.py, CuPy) on the same spaces, same
# GPU, same run: wall time and best configuration of each. Needs a bundle made by
# bundle-portable (HACKING.md) (with cuwb) and CuPy on the GPU machine.
#   scripts/tuner-comparison.sh BUNDLE.tar.xz OUTDIR [ROUNDS]
set -uo pipefail
bundle=$1 out=$2 rounds=${3:-2}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
run=/tmp/portable/run
cd "$repo"
declare -A project=([matmul]=kt_matmul/matmul.cuwb [reduction]=kt_reduction/reduction.cuwb
                    [convolution]=kt_convolution/convolution.cuwb)
{
    echo "# $(date -u +%FT%TZ) on $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
    for round in $(seq 1 "$rounds"); do
        for space in matmul reduction convolution; do
            # Alternate which goes first, so neither always meets a warmer GPU.
            order="cuwb python"
            [ $((round % 2)) -eq 0 ] && order="python cuwb"
            for tool in $order; do
                start=$(date +%s.%N)
                if [ "$tool" = cuwb ]; then
                    $run cuwb sweep "tests/realworld/${project[$space]}" --verify \
                        --json "$out/cuwb-$space-$round.json" > "$out/cuwb-$space-$round.log" 2>&1
                else
                    python3 bench/tuner_loop.py "$space" --json "$out/python-$space-$round.json" \
                        > "$out/python-$space-$round.log" 2>&1
                fi
                rc=$?
                end=$(date +%s.%N)
                printf 'round %s %-11s %-6s exit %s wall %s s\n' "$round" "$space" "$tool" \
                    "$rc" "$(python3 -c "print(f'{$end - $start:.2f}')")"
            done
        done
    done
} > "$out/comparison.log" 2>&1
cat "$out/comparison.log"
for f in "$out"/cuwb-*-1.log; do echo "== $f"; tail -5 "$f"; done
for f in "$out"/python-*-1.log; do echo "== $f"; cat "$f"; done
