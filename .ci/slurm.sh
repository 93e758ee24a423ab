#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, from Debian's packages, for tests/workflow/test_slurm.py.
#
#   bash .ci/slurm.sh up      install (as root, with apt) and start munged, slurmctld, slurmd;
#                             wait until the node is idle
#   bash .ci/slurm.sh down    stop the daemons that `up` started (by the pids they wrote)
#   bash .ci/slurm.sh status  print sinfo
#
# Both are idempotent. `up` exits 0 without doing anything, and says why, when it cannot
# run here (not root, no apt, a slurm.conf that it did not write); the test then skips.
# No systemd is needed: the daemons run in the background and write pid files.
# The cluster has no accounting database (accounting_storage/none), so `sacct` knows no
# jobs: Snakemake's SLURM plugin must be told `--slurm-status-command squeue`.
set -euo pipefail

MARKER="# Written by wordle-pipeline .ci/slurm.sh: a single-node test cluster."
CONF=/etc/slurm/slurm.conf
STATE=/run/wordle-slurm            # names of the daemons this script started
PARTITION="${WORDLE_SLURM_PARTITION:-local}"
PACKAGES=(munge slurmctld slurmd slurm-client)

say() { echo "slurm.sh: $*"; }

node_state() {
    # The node's state as sinfo prints it (idle, mix, alloc, down*, ...), or nothing.
    timeout 10 sinfo --noheader --Node --format '%T' 2>/dev/null | head -n 1 || true
}

running() { # pid file -> 0 when the pid in it is alive
    [[ -s "$1" ]] && [[ -d "/proc/$(cat "$1")" ]]
}

install_packages() {
    local missing=()
    for package in "${PACKAGES[@]}"; do
        dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$package")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    say "installing ${missing[*]} with apt"
    # apt-get update only when the package lists do not know the packages yet.
    local log
    log="$(mktemp)"
    if ! apt-cache show "${missing[@]}" > /dev/null 2>&1; then
        apt-get update -q > "$log" 2>&1 || { cat "$log"; rm -f "$log"; return 1; }
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}" > "$log" 2>&1 || { cat "$log"; rm -f "$log"; return 1; }
    rm -f "$log"
}

write_config() {
    local node
    # slurmd -C prints this machine's real CPU layout and memory as a NodeName line.
    node="$(slurmd -C | head -n 1)"
    local name="${node#NodeName=}"
    name="${name%% *}"
    mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
    cat > "$CONF.tmp" << EOF
$MARKER
# Stop it with \`bash .ci/slurm.sh down\`; delete this file to let the script leave it alone.
ClusterName=wordle-test
SlurmctldHost=$name(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
# No cgroups in a container: track job processes through /proc, bind no tasks.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# No accounting database: sacct knows no jobs here.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
# Finished jobs stay visible to squeue for 5 minutes (the squeue status check needs that).
MinJobAge=300
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=$PARTITION Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    mv "$CONF.tmp" "$CONF"
}

up() {
    local start=$SECONDS
    local state=""
    # Ask sinfo only when some slurmctld may answer: without one it retries for 9 s.
    if [[ -e "$CONF" ]] && { ! grep -qxF "$MARKER" "$CONF" || running /run/slurmctld.pid; }; then
        state="$(node_state)"
    fi
    if [[ "$state" == idle* || "$state" == mix* ]]; then
        say "a cluster is already up (node $state)"
        return 0
    fi
    if [[ $EUID -ne 0 ]]; then
        say "not starting a cluster: needs root (to install packages and run the daemons)"
        return 0
    fi
    if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null ||
        ! command -v munged > /dev/null || ! command -v sinfo > /dev/null; then
        if ! command -v apt-get > /dev/null; then
            say "not starting a cluster: SLURM is not installed and there is no apt-get"
            return 0
        fi
        install_packages
    fi
    if [[ -e "$CONF" ]] && ! grep -qxF "$MARKER" "$CONF"; then
        say "not starting a cluster: $CONF exists and was not written by this script"
        return 0
    fi
    write_config
    mkdir -p "$STATE"

    # munge: the key comes with the package; make one if it is missing.
    if [[ ! -s /etc/munge/munge.key ]]; then
        mungekey --create --keyfile /etc/munge/munge.key
        chown munge:munge /etc/munge/munge.key
        chmod 0400 /etc/munge/munge.key
    fi
    mkdir -p /run/munge && chown munge:munge /run/munge
    if ! running /run/munge/munged.pid; then
        runuser -u munge -- /usr/sbin/munged
        echo munged >> "$STATE/started"
    fi
    if ! running /run/slurmctld.pid; then
        /usr/sbin/slurmctld < /dev/null > /dev/null 2>&1
        echo slurmctld >> "$STATE/started"
    fi
    # slurmd registers with slurmctld when it starts, and retries only seconds later if
    # slurmctld is not listening yet: wait for it first.
    for _ in $(seq 1 60); do
        timeout 5 scontrol ping 2> /dev/null | grep -q "is UP" && break
        sleep 0.5
    done
    if ! running /run/slurmd.pid; then
        /usr/sbin/slurmd < /dev/null > /dev/null 2>&1
        echo slurmd >> "$STATE/started"
    fi

    for _ in $(seq 1 120); do
        state="$(node_state)"
        if [[ "$state" == idle* ]]; then
            say "cluster up in $((SECONDS - start)) s: partition $PARTITION, node idle"
            sinfo
            return 0
        fi
        # A node left down by an earlier, killed cluster comes back on request.
        if [[ "$state" == down* || "$state" == drain* ]]; then
            scontrol update NodeName=ALL State=RESUME > /dev/null 2>&1 || true
        fi
        sleep 0.5
    done
    say "the node did not become idle within 60 s (state: ${state:-unknown}); logs:"
    tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
    return 1
}

stop_pid() { # name pidfile
    local pidfile=$2 pid
    running "$pidfile" || return 0
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || { say "stopped $1 ($pid)"; return 0; }
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
    say "killed $1 ($pid)"
}

down() {
    if [[ $EUID -ne 0 ]]; then
        say "not stopping anything: needs root"
        return 0
    fi
    if [[ ! -s "$STATE/started" ]]; then
        say "nothing to stop: this script started no daemon"
        return 0
    fi
    # Reverse order of starting; only what `up` started.
    grep -qx slurmd "$STATE/started" && stop_pid slurmd /run/slurmd.pid
    grep -qx slurmctld "$STATE/started" && stop_pid slurmctld /run/slurmctld.pid
    grep -qx munged "$STATE/started" && stop_pid munged /run/munge/munged.pid
    rm -f "$STATE/started"
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    status) sinfo ;;
    *)
        echo "usage: $0 up|down|status" >&2
        exit 2
        ;;
esac
