#!/usr/bin/env bash
# H200 accuracy check of `cuwb measure` against ncu (run from the repository root).
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
tar -xJf ${BUNDLE:-gpu-bundle/q.tar.xz} -C /tmp
run=/tmp/portable/run
[ -e /work/main ] || { mkdir -p /work && ln -s "$(pwd)" /work/main; }
p=/tmp/qp; mkdir -p $p
cp samples/copy/copy.cu samples/copy/copy_float4.cu $p/
for b in 128 256 1024; do
  sed -e 's/"1 << 26"/"1 << 28"/' -e "s/\"block\": \[ \"256\"/\"block\": [ \"$b\"/" \
    samples/copy/copy.cuwb > $p/copy_b$b.cuwb
done
sed -e 's/"1 << 26"/"1 << 28"/' samples/copy/copy_float4.cuwb > $p/copy_float4.cuwb
{
  echo "# $(date -u +%FT%TZ) on $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  ncu --version | tail -1
  $run cuwb --version
  grep -h '"N"\|"block"\|"grid"' $p/*.cuwb
  for b in 128 256 1024; do
    echo "### cuwb measure $p/copy_b$b.cuwb --cold --json"
    $run cuwb measure $p/copy_b$b.cuwb --cold --json > "$out/measure-b$b.json"; echo "(exit $?)"
    $run cuwb measure $p/copy_b$b.cuwb --cold | tail -n +2
  done
  echo "### cuwb measure $p/copy_float4.cuwb --cold --json"
  $run cuwb measure $p/copy_float4.cuwb --cold --json > "$out/measure-float4.json"; echo "(exit $?)"
  for b in 128 256 1024; do
    echo "### ncu --target-processes all --clock-control none --metrics gpu__time_duration.sum -k copy cuwb run (x7) copy_b$b"
    ncu --target-processes all --clock-control none --metrics gpu__time_duration.sum -k copy \
      --csv --page raw --log-file /tmp/ncu-b$b.csv \
      $run cuwb run $p/copy_b$b.cuwb $p/copy_b$b.cuwb $p/copy_b$b.cuwb $p/copy_b$b.cuwb \
      $p/copy_b$b.cuwb $p/copy_b$b.cuwb $p/copy_b$b.cuwb | grep -c PASSED; echo "(exit $?)"
    echo "## b$b" >> "$out/ncu.csv"; cat /tmp/ncu-b$b.csv >> "$out/ncu.csv"
  done
  echo "### gpu_tst_measure"
  $run gpu_tst_measure 2>&1 | tail -25
} > "$out/console.log" 2>&1
python3 docs/results/h200-measure/accuracy-summary.py "$out" > "$out/summary.txt" 2>&1
cat "$out/summary.txt"; tail -40 "$out/console.log"
