#!/usr/bin/env bash
# H200 check of `cuwb measure --metrics`, the SM clocks per sample and a project's "measure"
# section (run from the repository root; BUNDLE from bundle-portable, see README.md).
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
tar -xJf ${BUNDLE:-gpu-bundle-q/q.tar.xz} -C /tmp
run=/tmp/portable/run
[ -e /work/main ] || { mkdir -p /work && ln -s "$(pwd)" /work/main; }
p=/tmp/mp; mkdir -p $p
cp samples/copy/copy.cu samples/copy/copy_float4.cu samples/copy/*.cuwb $p/
# The copy with a "measure" section: bytes and FLOP expressions, 30 hot samples.
python3 - "$p" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p + "/copy.cuwb"))
d["measure"] = {"bytes": "2 * 4 * N", "flops": "N",
                "settings": {"mode": "hot", "fixedSamples": 30}}
json.dump(d, open(p + "/copy_section.cuwb", "w"), indent=2)
PY
{
  echo "# $(date -u +%FT%TZ) on $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  $run cuwb --version
  for f in copy copy_float4; do
    echo "### cuwb measure $f.cuwb --metrics"
    $run cuwb measure $p/$f.cuwb --metrics; echo "(exit $?)"
    echo "### cuwb measure $f.cuwb --json --metrics"
    $run cuwb measure $p/$f.cuwb --json --metrics > "$out/metrics-$f.json"; echo "(exit $?)"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d.get('metrics',{}); print('json:', d['statistics']['medianNs'], d['smClockMinMHz'], d['smClockMaxMHz'], d['throttled'], len(d['smClocksMHz']), m.get('passes'), m.get('values'), m.get('theoreticalOccupancy'), m.get('occupancyLimiter'), m.get('waves'), m.get('error'))" "$out/metrics-$f.json"
  done
  echo "### cuwb measure copy_section.cuwb (project measure section: bytes, flops, hot, 30 samples)"
  $run cuwb measure $p/copy_section.cuwb; echo "(exit $?)"
  echo "### gpu_tst_measure"
  $run gpu_tst_measure; echo "(exit $?)"
} > "$out/metrics-console.log" 2>&1
tail -c 6000 "$out/metrics-console.log"
