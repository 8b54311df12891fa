#!/usr/bin/env bash
# Grading on a GPU (docs/grading.md): the softmax false verdict and its test, 50 gradings of the
# samples folder in fresh processes, the timing cheats measured plain and guarded, a lab of 30
# submissions graded and measured, and the hostile class with a GPU present. From bundles made
# by bundle-portable (HACKING.md):
#   scripts/gpu-grading.sh BUNDLE.tar.xz OUTDIR [verdicts|cheats|class|all] [BEFORE.tar.xz]
# BEFORE.tar.xz, optional: the same programs built before a fix, run first on the fresh machine.
set -uo pipefail
bundle=$1 out=$2 what=${3:-all} before=${4:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
R=/tmp/portable/run
# The tests were built with the repository at /work/main; point that path at this checkout.
[ -e /work/main ] || { mkdir -p /work && ln -s "$repo" /work/main; }
cd "$repo"
step() { echo; echo "### $*"; "$@"; echo "(exit $?)"; }
# "passed/projects" and the failures of one `cuwb run --json --summary` document.
verdicts() {
    python3 -c 'import json,sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("unreadable:", e); sys.exit(0)
s = d.get("summary", d)
print("%s/%s passed" % (s.get("passed"), s.get("projects")),
      "; ".join(f["project"].split("/")[-1] + ": " + f["reason"][:300] for f in s.get("failed", [])))' "$1"
}
echo "# $(date -u +%FT%TZ) on $(hostname)" > "$out/grading.log"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pstate --format=csv >> "$out/grading.log"

if [ "$what" = verdicts ] || [ "$what" = all ]; then
    {
        if [ -n "$before" ]; then
            mkdir -p /tmp/before && tar -xJf "$before" -C /tmp/before
            B=/tmp/before/portable/run
            echo "## before the fix, first on the fresh machine"
            for i in 1 2 3; do
                start=$(date +%s%N)
                $B cuwb run samples --json --summary > "$out/before-$i.json" 2> "$out/before-$i.err"
                echo "before grading $i: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms: $(verdicts "$out/before-$i.json")"
            done
            for i in 1 2 3; do
                $B gpu_tests_before tst_runner verificationWaitsForItsCopies 2>&1 | grep -E "PASS|FAIL|Totals|differ" | head -4
            done
        fi
        echo "## after the fix"
        step $R gpu_tests tst_runner
        echo "## 50 gradings of the samples folder, each a fresh cuwb (5 at a time)"
        start=$(date +%s)
        seq 1 50 | xargs -P 5 -I{} sh -c \
            "$R cuwb run samples --json --summary > $out/grading-{}.json 2> $out/grading-{}.err; echo \$? > $out/grading-{}.rc"
        echo "50 gradings in $(( $(date +%s) - start )) s"
        for i in $(seq 1 50); do
            echo "grading $i: exit $(cat "$out/grading-$i.rc" 2>/dev/null): $(verdicts "$out/grading-$i.json")"
        done | sort -k4 | uniq -c -f3 | head -20
    } >> "$out/grading.log" 2>&1
    mkdir -p "$out/gradings" && mv "$out"/grading-*.json "$out"/grading-*.err "$out"/grading-*.rc "$out/gradings/" 2>/dev/null
    (cd "$out" && tar -cJf gradings.tar.xz gradings && rm -rf gradings)
fi

if [ "$what" = cheats ] || [ "$what" = all ]; then
    {
        step timeout 200 $R gpu_tests tst_measure
        echo "## the timing cheats: cuwb measure, plain and --guarded"
        for d in 01-honest 19-first-launch-only 20-cached-result 21-recognises-inputs \
            22-stash-in-input 23-sometimes-wrong; do
            for guard in "" --guarded; do
                echo "# $d $guard"
                timeout 60 $R cuwb measure "tests/hostile/class/$d/project.cuwb" --no-verify $guard 2>&1 |
                    grep -E "median|guarded|void|stopped"
            done
        done
        step timeout 300 $R cli_tests tst_hostilegrading
    } >> "$out/grading.log" 2>&1
fi

if [ "$what" = class ] || [ "$what" = all ]; then
    {
        python3 scripts/make-lab-class.py samples/reduction 30 /tmp/class30
        echo "## a lab of 30 submissions: compile, check, run, verify, measure"
        start=$(date +%s%N)
        $R cuwb run /tmp/class30 --measure --json --summary --report "$out/class30-report" \
            > "$out/class30.json" 2> "$out/class30.err"
        echo "exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms: $(verdicts "$out/class30.json")"
        tail -5 "$out/class30.err"
        echo "## the hostile class with a GPU"
        step $R cli_tests tst_hostilegrading
        echo "## every gpu suite"
        for t in ${SUITES:-tst_checks tst_devices tst_measure tst_sweep}; do
            step timeout 300 $R gpu_tests $t -silent
        done
    } >> "$out/grading.log" 2>&1
fi
cat "$out/grading.log"
