#!/bin/sh
# Stops what start-slurm.sh DIR started (slurmd, slurmctld, munged), by the pids it recorded
# in DIR; safe to run twice or after a start that failed half-way.
set -u
dir=${1:?usage: stop-slurm.sh DIR}
stop() {
    [ -f "$1" ] || return 0
    pid=$(cat "$1" 2>/dev/null)
    [ -n "$pid" ] || return 0
    kill "$pid" 2>/dev/null || return 0
    tries=0
    while kill -0 "$pid" 2>/dev/null && [ $tries -lt 50 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    kill -9 "$pid" 2>/dev/null
    rm -f "$1"
}
stop "$dir/slurmd.pid"
stop "$dir/slurmctld.pid"
stop "$dir/munge/munged.pid"
exit 0
