#!/usr/bin/env bash
# The real GPU worker through the remote path, on a GPU machine without an SSH server: every
# command runs once with the local worker and once with `--on 'command:RUN cuwb'`, a local
# command as the transport — the same code as SSH apart from the command line (docs/remote.md).
# Writes OUTDIR/remote-check.log. RUN starts a packed cuwb (default /tmp/portable/run).
#   scripts/remote-command-check.sh OUTDIR [RUN]
set -uo pipefail
out=$1 run=${2:-/tmp/portable/run}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$repo"
on=(--on "command:$run cuwb")

# A kernel that faults and one that never ends, from vector_add (deadline 2 s).
python3 - "$work" <<'PY'
import json, sys
base = json.load(open("samples/vector_add/vector_add.cuwb"))
src = open("samples/vector_add/vector_add.cu").read()
for name, body in [("fault", "__trap();"), ("hang", "while (true) { __nanosleep(1000); }")]:
    p = dict(base)
    p["source"] = {"inline": 'extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n)\n{\n    ' + body + '\n}\n'}
    p["launch"] = dict(base["launch"], deadlineSeconds=2)
    p.pop("sweep", None)
    json.dump(p, open(f"{sys.argv[1]}/{name}.cuwb", "w"))
PY

step() { echo; echo "### $*"; local s=$(date +%s%N); "$@"; local rc=$?; echo "(exit $rc, $(( ($(date +%s%N) - s) / 1000000 )) ms)"; }
both() { step "$run" cuwb "$@"; step "$run" cuwb "$@" "${on[@]}"; }
{
    echo "# $(date -u +%FT%TZ) on $(hostname)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    step "$run" cuwb --version
    both devices
    both run samples/vector_add/vector_add.cuwb
    both run tests/realworld/ktt_coulomb/CoulombSum3d.cuwb  # an input file sent along
    both measure samples/copy/copy.cuwb
    both sweep samples/vector_add/vector_add.cuwb --csv "$work/sweep.csv"
    both inspect samples/transpose/transpose.cuwb
    both compare samples/transpose/transpose.cuwb samples/transpose/transpose_shared.cuwb
    both run "$work/fault.cuwb"   # reported exactly as locally
    both run "$work/hang.cuwb"
    # Ctrl+C reaches the remote worker: a sweep interrupted after 3 s keeps what it measured.
    echo; echo "### sweep, SIGINT after 3 s, over the command transport"
    "$run" cuwb sweep tests/realworld/ktt_coulomb/CoulombSum3d.cuwb "${on[@]}" &
    pid=$!; sleep 3; kill -INT $pid; wait $pid; echo "(exit $?)"
} 2>&1 | tee "$out/remote-check.log"
