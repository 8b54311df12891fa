#!/usr/bin/env bash
# Every sample project on a GPU: runs and verifies each (`cuwb run --json`, the grading
# command), then runs each project's own sweep and keeps its results. From a bundle made by
# bundle-portable (HACKING.md) with cuwb:
#   scripts/gpu-samples.sh BUNDLE.tar.xz OUTDIR
set -uo pipefail
bundle=$1 out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tar -xJf "$bundle" -C /tmp
R=/tmp/portable/run
cd "$repo"
{
    echo "# $(date -u +%FT%TZ) on $(hostname)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    echo "### cuwb run --json samples/*/*.cuwb"
    $R cuwb run --json samples/*/*.cuwb > "$out/samples-run.json"
    echo "(exit $?)"
    for p in samples/*/*.cuwb; do
        grep -q '"sweep"' "$p" || continue
        name=$(basename "$p" .cuwb)
        echo; echo "### cuwb sweep $p --verify"
        $R cuwb sweep "$p" --verify --json "$out/sweep-$name.json" --csv "$out/sweep-$name.csv" 2>&1 |
            grep -E "best|skipped|failed|wrong|measured [0-9]|error" | head -20
        echo "(exit ${PIPESTATUS[0]})"
    done
} > "$out/samples.log" 2>&1
cat "$out/samples.log"
