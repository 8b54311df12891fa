#!/usr/bin/env bash
# The cost of the SSH link per sweep point, on loopback: the same sweep of POINTS points (one
# compiled variant, so no compiles) against the stand-in GPU worker, once started locally
# (--worker) and once through a throwaway sshd on 127.0.0.1 (--on). Needs openssh-server and
# openssh-client and, for sshd's /run/sshd, root. Prints, for POINTS and POINTS/10 points, the
# wall time, what cuwb reports a point took beyond its samples (median), and the marginal cost
# of a point, (T(POINTS) - T(POINTS/10)) / (POINTS - POINTS/10), which leaves out the start
# (ssh's connection and key exchange). docs/results/remote-loopback/README.md holds a run.
#   scripts/remote-loopback-bench.sh BUILD_DIR [POINTS] [REPEATS]
set -euo pipefail
build=$(cd "$1" && pwd) points=${2:-1000} repeats=${3:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
cuwb=$build/bin/cuwb fake=$build/tests/cuwb_fakesweepworker
work=$(mktemp -d)
trap 'kill $sshd_pid 2>/dev/null || true; rm -rf "$work"' EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$work/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$work/userkey"
cp "$work/userkey.pub" "$work/authorized"
cat > "$work/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $work/hostkey
AuthorizedKeysFile $work/authorized
PidFile none
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel ERROR
CONF
echo "[127.0.0.1]:$port $(cat "$work/hostkey.pub")" > "$work/known_hosts"
cat > "$work/ssh_config" <<CONF
Host *
  IdentityFile $work/userkey
  IdentitiesOnly yes
  UserKnownHostsFile $work/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  LogLevel ERROR
CONF
printf '#!/bin/sh\n[ "$1" = worker ] && shift\nexport CUWB_FAKE_WORKER_VERSION=%s\nexec %s\n' \
    "$("$cuwb" --version | head -1 | awk '{print $NF}')" "$fake" > "$work/remote-cuwb"
chmod +x "$work/remote-cuwb"
cat > "$work/targets.json" <<CONF
{"targets": [{"name": "loopback", "host": "127.0.0.1", "port": $port,
              "cuwb": "$work/remote-cuwb", "sshOptions": ["-F", "$work/ssh_config"]}]}
CONF
export CUWB_TARGETS=$work/targets.json CUWB_CACHE_DIR=off
/usr/sbin/sshd -D -e -f "$work/sshd_config" 2> "$work/sshd.log" & sshd_pid=$!
for _ in $(seq 50); do (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done

# sweep_add_one with its block.x axis replaced by values of N: one variant, COUNT points.
project() { # COUNT FILE
    python3 - "$repo/tests/cli/data/sweep_add_one.cuwb" "$2" "$1" <<'PY'
import json, sys
project = json.load(open(sys.argv[1]))
n = int(sys.argv[3])
project["sweep"] = {"axes": [{"target": "N", "kind": "range", "from": 1024, "to": 1024 * n,
                              "step": 1024}]}
json.dump(project, open(sys.argv[2], "w"))
PY
}
few=$((points / 10))
project "$points" "$work/many.cuwb"
project "$few" "$work/few.cuwb"

seconds() { # FILE, worker options...: wall seconds of one sweep; keeps its output
    local file=$1; shift
    local start end
    start=$(date +%s.%N)
    "$cuwb" sweep "$file" --samples 10 "$@" > "$work/out.txt"
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}
run() { # label, worker options...
    local label=$1; shift
    for r in $(seq "$repeats"); do
        local many few_s median
        few_s=$(seconds "$work/few.cuwb" "$@")
        many=$(seconds "$work/many.cuwb" "$@")
        median=$(grep -o 'a point took [0-9.]* ms (median' "$work/out.txt" | awk '{print $4}')
        printf '%-6s run %d: %d points %.3f s, %d points %.3f s; marginal %.3f ms a point; cuwb: beyond its samples a point took %s ms (median)\n' \
            "$label" "$r" "$few" "$few_s" "$points" "$many" \
            "$(echo "($many - $few_s) * 1000 / ($points - $few)" | bc -l)" "$median"
    done
}
echo "# $(date -u +%FT%TZ) on $(hostname), $(nproc) cores, $(ssh -V 2>&1); $repeats runs each"
run local --worker "$fake"
run ssh --on loopback
