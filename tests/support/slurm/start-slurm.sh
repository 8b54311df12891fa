#!/bin/sh
# Starts a throwaway single-node Slurm for the tests: munged with its own key and socket,
# slurmctld and slurmd on free ports above 20000, everything (config, state, spool, logs) in
# DIR, which must exist and be empty. Prints the path of slurm.conf on success; the caller sets
# SLURM_CONF to it for sbatch/squeue/srun and runs stop-slurm.sh DIR afterwards, even on
# failure. Needs root (SlurmUser=root, as in CI) and Debian's munge, slurmctld, slurmd and
# slurm-client. Exit status: 0 the node is idle; 1 a daemon did not start (its log is printed);
# 4 a binary is missing.
set -u
dir=${1:?usage: start-slurm.sh DIR}
for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
    if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
        echo "start-slurm.sh: $tool is not installed (Debian: munge slurmctld slurmd slurm-client)" >&2
        exit 4
    fi
done
PATH=$PATH:/usr/sbin
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir/munge"

# A port pair no one listens on (ss is not everywhere; /proc/net/tcp is).
port_used() {
    hex=$(printf '%04X' "$1")
    grep -q ":$hex " /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
base=$(( 20000 + ($$ % 20000) ))
while port_used "$base" || port_used $((base + 1)); do
    base=$((base + 2))
done

dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
munged --socket="$socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" --force 2>"$dir/log/munged.err" || {
    echo "start-slurm.sh: munged did not start:" >&2
    cat "$dir/log/munged.err" "$dir/log/munged.log" >&2 2>/dev/null
    exit 1
}

node=$(hostname -s)
cpus=$(nproc)
cat >"$dir/slurm.conf" <<CONF
ClusterName=cuwbtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=defer_batch
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MaxArraySize=10001
MinJobAge=300
KillWait=2
SlurmdTimeout=30
InactiveLimit=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" -i 2>"$dir/log/slurmctld.err" || {
    echo "start-slurm.sh: slurmctld did not start:" >&2
    cat "$dir/log/slurmctld.err" "$dir/log/slurmctld.log" >&2 2>/dev/null
    exit 1
}
slurmd -f "$SLURM_CONF" 2>"$dir/log/slurmd.err" || {
    echo "start-slurm.sh: slurmd did not start:" >&2
    cat "$dir/log/slurmd.err" "$dir/log/slurmd.log" >&2 2>/dev/null
    exit 1
}
# The node reports itself within a few seconds; give it 30.
tries=0
while [ $tries -lt 60 ]; do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
    case $state in
    idle*|mix*|alloc*) echo "$SLURM_CONF"; exit 0 ;;
    esac
    tries=$((tries + 1))
    sleep 0.5
done
echo "start-slurm.sh: the node $node did not become idle (state '${state:-none}'):" >&2
tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 2>/dev/null
exit 1
