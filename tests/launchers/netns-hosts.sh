#!/bin/bash
# Two "hosts" on one machine: network namespaces joined by a veth pair.
#
#   netns-hosts.sh up                 create the namespaces, veth and hosts files
#   netns-hosts.sh down               remove everything created by "up" (idempotent)
#   netns-hosts.sh env                print shell exports for the settings below
#   netns-hosts.sh hosts              print the host names, one a line
#   netns-hosts.sh exec HOST CMD...   run CMD in HOST (its namespace and host name)
#   netns-hosts.sh counters [HOST]    print "HOST RX_BYTES TX_BYTES" of the veth end(s)
#   netns-hosts.sh link DEV NET       one more veth pair DEV between the hosts, on NET.1 and NET.2
#                                     (another rail; "down" removes it with the namespaces)
#   netns-hosts.sh shape RATE         rate-limit both veth ends (tc tbf, e.g. 1gbit)
#   netns-hosts.sh unshape            remove the rate limit
#   netns-hosts.sh mpirun ARGS...     Open MPI: one rank in each host, TCP over the veth
#   netns-hosts.sh mpiexec ARGS...    MPICH (hydra + UCX over TCP): one rank in each host
#
# It can also be sourced; the subcommands are then functions named
# netns_hosts_<subcommand>.
#
# Settings (environment):
#   FABPERF_NETNS_PREFIX  namespace/host name prefix      [fabperf]  -> fabperf-h1, fabperf-h2
#   FABPERF_NETNS_NET     first three octets of the /24   [10.77.0]  -> .1 and .2
#   FABPERF_NETNS_DEV     veth name inside both namespaces [fpveth0]
#   FABPERF_NETNS_STATE   state directory (map file)       [/run/fabperf-netns]
#   MPIRUN, MPIEXEC_MPICH  launcher programs [mpirun, mpiexec.mpich]
#
# Addresses exist only inside the two namespaces. Host names resolve through
# /etc/netns/<ns>/hosts, which "ip netns exec" mounts over /etc/hosts.
#
# Exit status when executed: 0 ok, 1 failure, 77 a required capability is
# missing (not root, "ip netns" or "unshare --uts" not permitted); the reason
# is printed on a line starting with "SKIP:".

NETNS_PREFIX=${FABPERF_NETNS_PREFIX:-fabperf}
NETNS_NET=${FABPERF_NETNS_NET:-10.77.0}
NETNS_DEV=${FABPERF_NETNS_DEV:-fpveth0}
NETNS_STATE=${FABPERF_NETNS_STATE:-/run/fabperf-netns}
NETNS_HOSTS=("$NETNS_PREFIX-h1" "$NETNS_PREFIX-h2")
NETNS_ADDRS=("$NETNS_NET.1" "$NETNS_NET.2")
NETNS_MAP=$NETNS_STATE/map
NETNS_SSH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ns-ssh
NETNS_OWN_SESSION=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/own-session

_nh_skip() {
    echo "SKIP: $*"
    return 77
}

_nh_log() {
    echo "netns-hosts: $*" >&2
}

# namespace of a host name (host names and namespace names are the same)
_nh_ns() {
    local h
    for h in "${NETNS_HOSTS[@]}"; do
        if [[ $h == "$1" ]]; then
            echo "$h"
            return 0
        fi
    done
    _nh_log "unknown host: $1 (hosts: ${NETNS_HOSTS[*]})"
    return 1
}

_nh_check_caps() {
    local p probe=$NETNS_PREFIX-probe$$
    if [[ $(id -u) -ne 0 ]]; then
        _nh_skip "network namespaces need root"
        return
    fi
    for p in ip tc unshare hostname awk; do
        if ! command -v "$p" >/dev/null 2>&1; then
            _nh_skip "$p not installed"
            return
        fi
    done
    if ! ip netns add "$probe" 2>/dev/null; then
        _nh_skip "'ip netns add' not permitted here"
        return
    fi
    if ! ip netns exec "$probe" unshare --uts sh -c 'hostname probe' 2>/dev/null; then
        ip netns del "$probe" 2>/dev/null
        _nh_skip "'ip netns exec' or 'unshare --uts' not permitted here"
        return
    fi
    ip netns del "$probe"
    return 0
}

netns_hosts_down() {
    local h
    for h in "${NETNS_HOSTS[@]}"; do
        if ip netns list 2>/dev/null | awk '{ print $1 }' | grep -qxF -- "$h"; then
            # deleting the namespace also deletes its veth end and qdiscs
            ip netns del "$h" 2>/dev/null
        fi
        if [[ -f $NETNS_STATE/etc-netns-$h ]]; then
            rm -f "/etc/netns/$h/hosts" "$NETNS_STATE/etc-netns-$h"
            rmdir "/etc/netns/$h" 2>/dev/null
        fi
    done
    rmdir /etc/netns 2>/dev/null
    rm -f "$NETNS_MAP"
    rmdir "$NETNS_STATE" 2>/dev/null
    return 0
}

# _nh_wait_up DEV: wait (5 s at most) for carrier on both ends of DEV
_nh_wait_up() {
    local i
    for ((i = 0; i < 50; i++)); do
        if ip -n "${NETNS_HOSTS[0]}" -br link show "$1" | grep -q ' UP ' &&
            ip -n "${NETNS_HOSTS[1]}" -br link show "$1" | grep -q ' UP '; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

netns_hosts_up() {
    local i h rc
    _nh_check_caps || return
    netns_hosts_down
    rc=0
    for i in 0 1; do
        h=${NETNS_HOSTS[$i]}
        ip netns add "$h" || rc=1
        ip -n "$h" link set lo up || rc=1
    done
    [[ $rc -eq 0 ]] &&
        ip link add "$NETNS_DEV" netns "${NETNS_HOSTS[0]}" type veth \
            peer name "$NETNS_DEV" netns "${NETNS_HOSTS[1]}" || rc=1
    if [[ $rc -ne 0 ]]; then
        _nh_log "creating namespaces/veth failed"
        netns_hosts_down
        return 1
    fi
    mkdir -p "$NETNS_STATE"
    : >"$NETNS_MAP"
    for i in 0 1; do
        h=${NETNS_HOSTS[$i]}
        # no automatic IPv6 link-local address: the configured one is the only one
        ip -n "$h" link set "$NETNS_DEV" addrgenmode none || rc=1
        ip -n "$h" addr add "${NETNS_ADDRS[$i]}/24" dev "$NETNS_DEV" || rc=1
        ip -n "$h" link set "$NETNS_DEV" up || rc=1
        mkdir -p "/etc/netns/$h"
        touch "$NETNS_STATE/etc-netns-$h"
        {
            echo "127.0.0.1 localhost"
            echo "::1 localhost ip6-localhost ip6-loopback"
            echo "${NETNS_ADDRS[0]} ${NETNS_HOSTS[0]}"
            echo "${NETNS_ADDRS[1]} ${NETNS_HOSTS[1]}"
        } >"/etc/netns/$h/hosts"
        echo "$h $h ${NETNS_ADDRS[$i]} $NETNS_DEV" >>"$NETNS_MAP"
    done
    _nh_wait_up "$NETNS_DEV"
    if [[ $rc -ne 0 ]]; then
        _nh_log "configuring addresses failed"
        netns_hosts_down
        return 1
    fi
    return 0
}

# netns_hosts_link DEV NET: another veth pair between the two hosts, addresses NET.1 and NET.2
netns_hosts_link() {
    local dev=$1 net=$2 i h
    if [[ -z $dev || -z $net ]]; then
        _nh_log "usage: link DEV NET (e.g. link fprail1 10.78.1)"
        return 1
    fi
    ip link add "$dev" netns "${NETNS_HOSTS[0]}" type veth peer name "$dev" netns "${NETNS_HOSTS[1]}" ||
        return 1
    for i in 0 1; do
        h=${NETNS_HOSTS[$i]}
        ip -n "$h" link set "$dev" addrgenmode none &&
            ip -n "$h" addr add "$net.$((i + 1))/24" dev "$dev" &&
            ip -n "$h" link set "$dev" up || return 1
    done
    _nh_wait_up "$dev"
}

netns_hosts_env() {
    echo "export FABPERF_NETNS_MAP=$NETNS_MAP"
    echo "export FABPERF_NETNS_DEV=$NETNS_DEV"
    echo "export FABPERF_NETNS_HOSTS=\"${NETNS_HOSTS[*]}\""
    echo "export FABPERF_NS_SSH=$NETNS_SSH"
}

netns_hosts_hosts() {
    printf '%s\n' "${NETNS_HOSTS[@]}"
}

netns_hosts_exec() {
    local h=$1 ns
    shift
    ns=$(_nh_ns "$h") || return 1
    # shellcheck disable=SC2016 # expanded by the inner sh
    ip netns exec "$ns" unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' sh "$h" "$@"
}

netns_hosts_counters() {
    local h ns stats hosts=("$@")
    [[ ${#hosts[@]} -gt 0 ]] || hosts=("${NETNS_HOSTS[@]}")
    for h in "${hosts[@]}"; do
        ns=$(_nh_ns "$h") || return 1
        # "ip netns exec" mounts the namespace's own /sys
        stats=$(ip netns exec "$ns" cat "/sys/class/net/$NETNS_DEV/statistics/rx_bytes" \
            "/sys/class/net/$NETNS_DEV/statistics/tx_bytes") || return 1
        echo "$h ${stats//$'\n'/ }"
    done
}

netns_hosts_shape() {
    local rate=$1 burst=${2:-64kb} h
    [[ -n $rate ]] || { _nh_log "usage: shape RATE [BURST]"; return 1; }
    for h in "${NETNS_HOSTS[@]}"; do
        tc -n "$h" qdisc replace dev "$NETNS_DEV" root tbf rate "$rate" burst "$burst" latency 10ms || return 1
    done
}

netns_hosts_unshape() {
    local h
    for h in "${NETNS_HOSTS[@]}"; do
        tc -n "$h" qdisc del dev "$NETNS_DEV" root 2>/dev/null
    done
    return 0
}

# Open MPI, one rank in each namespace, ob1 + TCP BTL over the veth only; mpirun in a session of
# its own (own-session says why), as the other host's daemon is through ns-ssh.
netns_hosts_mpirun() {
    netns_hosts_exec "${NETNS_HOSTS[0]}" "$NETNS_OWN_SESSION" env \
        -u SLURM_JOB_ID -u SLURM_JOBID -u SLURM_NODELIST -u SLURM_JOB_NODELIST \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        FABPERF_NETNS_MAP="$NETNS_MAP" \
        "${MPIRUN:-mpirun}" -np 2 --host "${NETNS_HOSTS[0]}:1,${NETNS_HOSTS[1]}:1" \
        --bind-to none --mca plm rsh --mca plm_rsh_agent "$NETNS_SSH" \
        --mca pml ob1 --mca btl tcp,self \
        --mca btl_tcp_if_include "$NETNS_DEV" --mca oob_tcp_if_include "$NETNS_DEV" \
        "$@"
}

# MPICH (hydra, ch4:ucx), one rank in each namespace, UCX TCP over the veth only; mpiexec in a
# session of its own, as mpirun above.
netns_hosts_mpiexec() {
    netns_hosts_exec "${NETNS_HOSTS[0]}" "$NETNS_OWN_SESSION" env \
        -u SLURM_JOB_ID -u SLURM_JOBID -u SLURM_NODELIST -u SLURM_JOB_NODELIST \
        FABPERF_NETNS_MAP="$NETNS_MAP" \
        "${MPIEXEC_MPICH:-mpiexec.mpich}" -launcher ssh -launcher-exec "$NETNS_SSH" \
        -hosts "${NETNS_HOSTS[0]},${NETNS_HOSTS[1]}" -n 2 -ppn 1 -iface "$NETNS_DEV" \
        -genv UCX_TLS tcp -genv UCX_NET_DEVICES "$NETNS_DEV" \
        "$@"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    cmd=${1:-}
    shift
    case $cmd in
    up)
        # remove a half-built setup if interrupted
        trap 'netns_hosts_down; exit 1' INT TERM
        netns_hosts_up
        exit
        ;;
    down | env | hosts | exec | link | counters | shape | unshape | mpirun | mpiexec)
        "netns_hosts_$cmd" "$@"
        exit
        ;;
    *)
        echo "usage: $0 up|down|env|hosts|exec|link|counters|shape|unshape|mpirun|mpiexec [ARGS]" >&2
        exit 1
        ;;
    esac
fi
