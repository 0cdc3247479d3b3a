#!/bin/bash
# N "hosts" on one machine: network namespaces, each joined by a veth pair to one Linux bridge that
# lives in a namespace of its own (the "switch"), so nothing is added to the machine's own network.
#
#   netns-bridge.sh up N [LEAVES]           create N hosts (2..64), the switch, veths, hosts files;
#                                           with LEAVES (2..8) the hosts hang in order from LEAVES
#                                           leaf bridges, each joined to a spine bridge by a veth
#                                           uplink (all in the switch's namespace)
#   netns-bridge.sh topology                print the leaves' tree in fabperf's topology format
#   netns-bridge.sh shape-uplink L RATE DIR tc tbf on leaf L's uplink: DIR "up" limits what leaf L
#                                           sends to the spine, "down" what it receives
#   netns-bridge.sh down                    remove everything created by "up" (idempotent)
#   netns-bridge.sh hosts                   print the host names, one a line
#   netns-bridge.sh exec HOST CMD...        run CMD in HOST (its namespace and host name)
#   netns-bridge.sh counters                print "HOST RX_BYTES TX_BYTES" of each host's veth end
#   netns-bridge.sh shape HOST RATE DIR     tc tbf on one host: DIR "send" limits what HOST sends
#                                           (its own veth end), "receive" what it receives (the
#                                           switch's end of its veth)
#   netns-bridge.sh unshape                 remove every rate limit
#   netns-bridge.sh mpirun ARGS...          Open MPI: one rank in each host, TCP over the veths
#
# Settings (environment):
#   FABPERF_BRIDGE_PREFIX  namespace/host name prefix [fpbr] -> fpbr-h1.., switch fpbr-sw
#   FABPERF_BRIDGE_NET     first three octets of the /24  [10.78.0] -> .1, .2, ...
#   FABPERF_BRIDGE_STATE   state directory                [/run/fabperf-bridge]
#   MPIRUN                 launcher program               [mpirun]
#
# Exit status: 0 ok, 1 failure, 77 a required capability is missing ("SKIP:" line).

BR_PREFIX=${FABPERF_BRIDGE_PREFIX:-fpbr}
BR_NET=${FABPERF_BRIDGE_NET:-10.78.0}
BR_STATE=${FABPERF_BRIDGE_STATE:-/run/fabperf-bridge}
BR_SWITCH=$BR_PREFIX-sw
BR_DEV=fpeth0
BR_MAP=$BR_STATE/map
BR_LEAVES=$BR_STATE/leaves # "HOST LEAF" per host, with LEAVES
BR_SSH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ns-ssh
BR_OWN_SESSION=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/own-session

_br_log() {
    echo "netns-bridge: $*" >&2
}

# host names of the current setup (from the map file)
_br_hosts() {
    [[ -r $BR_MAP ]] && awk '{ print $1 }' "$BR_MAP"
}

_br_index() {
    local i=0 h
    for h in $(_br_hosts); do
        i=$((i + 1))
        if [[ $h == "$1" ]]; then
            echo "$i"
            return 0
        fi
    done
    _br_log "unknown host: $1 (hosts: $(_br_hosts | tr '\n' ' '))"
    return 1
}

_br_check_caps() {
    local p
    if [[ $(id -u) -ne 0 ]]; then
        echo "SKIP: network namespaces need root"
        return 77
    fi
    for p in ip tc unshare hostname awk; do
        command -v "$p" >/dev/null 2>&1 || { echo "SKIP: $p not installed"; return 77; }
    done
    if ! ip netns add "$BR_PREFIX-probe$$" 2>/dev/null; then
        echo "SKIP: 'ip netns add' not permitted here"
        return 77
    fi
    if ! ip -n "$BR_PREFIX-probe$$" link add fpprobe type bridge 2>/dev/null; then
        ip netns del "$BR_PREFIX-probe$$"
        echo "SKIP: Linux bridges not available"
        return 77
    fi
    ip netns del "$BR_PREFIX-probe$$"
}

netns_bridge_down() {
    local ns
    for ns in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
        if [[ $ns == "$BR_SWITCH" || $ns =~ ^$BR_PREFIX-h[0-9]+$ ]]; then
            ip netns del "$ns" 2>/dev/null # also deletes its veth ends and qdiscs
            if [[ -f $BR_STATE/etc-netns-$ns ]]; then
                rm -f "/etc/netns/$ns/hosts" "$BR_STATE/etc-netns-$ns"
                rmdir "/etc/netns/$ns" 2>/dev/null
            fi
        fi
    done
    rmdir /etc/netns 2>/dev/null
    rm -f "$BR_MAP" "$BR_LEAVES"
    rmdir "$BR_STATE" 2>/dev/null
    return 0
}

# host i (1-based): namespace, veth to its bridge (BRIDGE, default the one switch), address
_br_add_host() {
    local i=$1 h=$BR_PREFIX-h$1 bridge=${2:-fpbr0}
    ip netns add "$h" &&
        ip -n "$h" link set lo up &&
        ip link add "$BR_DEV" netns "$h" type veth peer name "fpp$i" netns "$BR_SWITCH" &&
        ip -n "$h" link set "$BR_DEV" addrgenmode none &&
        ip -n "$h" addr add "$BR_NET.$i/24" dev "$BR_DEV" &&
        ip -n "$h" link set "$BR_DEV" up &&
        ip -n "$BR_SWITCH" link set "fpp$i" master "$bridge" &&
        ip -n "$BR_SWITCH" link set "fpp$i" up
}

_br_hosts_files() {
    local n=$1 i h
    mkdir -p "$BR_STATE"
    : >"$BR_MAP"
    for ((i = 1; i <= n; i++)); do
        echo "$BR_PREFIX-h$i $BR_PREFIX-h$i $BR_NET.$i $BR_DEV" >>"$BR_MAP"
    done
    for ((i = 1; i <= n; i++)); do
        h=$BR_PREFIX-h$i
        mkdir -p "/etc/netns/$h"
        touch "$BR_STATE/etc-netns-$h"
        {
            echo "127.0.0.1 localhost"
            awk '{ print $3, $1 }' "$BR_MAP"
        } >"/etc/netns/$h/hosts"
    done
}

# leaf l (1-based): a bridge fpl<l> and its uplink, the veth fpu<l> (leaf side) - fpd<l> (spine side)
_br_add_leaf() {
    local l=$1
    ip -n "$BR_SWITCH" link add "fpl$l" type bridge &&
        ip -n "$BR_SWITCH" link set "fpl$l" up &&
        ip -n "$BR_SWITCH" link add "fpu$l" type veth peer name "fpd$l" &&
        ip -n "$BR_SWITCH" link set "fpu$l" master "fpl$l" &&
        ip -n "$BR_SWITCH" link set "fpd$l" master fpbr0 &&
        ip -n "$BR_SWITCH" link set "fpu$l" up &&
        ip -n "$BR_SWITCH" link set "fpd$l" up
}

netns_bridge_up() {
    local n=$1 leaves=${2:-0} i ports
    if ! [[ $n =~ ^[0-9]+$ ]] || ((n < 2 || n > 64)); then
        _br_log "up N: N must be 2..64"
        return 1
    fi
    if ! [[ $leaves =~ ^[0-9]+$ ]] || ((leaves != 0 && (leaves < 2 || leaves > 8 || leaves > n))); then
        _br_log "up N LEAVES: LEAVES must be 2..8 and at most N"
        return 1
    fi
    _br_check_caps || return
    netns_bridge_down
    mkdir -p "$BR_STATE"
    if ! { ip netns add "$BR_SWITCH" && ip -n "$BR_SWITCH" link add fpbr0 type bridge &&
        ip -n "$BR_SWITCH" link set fpbr0 up; }; then
        _br_log "creating the switch namespace failed"
        netns_bridge_down
        return 1
    fi
    for ((i = 1; i <= leaves; i++)); do
        if ! _br_add_leaf "$i"; then
            _br_log "creating leaf $i failed"
            netns_bridge_down
            return 1
        fi
    done
    for ((i = 1; i <= n; i++)); do
        local bridge=fpbr0
        ((leaves)) && bridge=fpl$(((i - 1) * leaves / n + 1))
        if ! _br_add_host "$i" "$bridge"; then
            _br_log "creating host $i failed"
            netns_bridge_down
            return 1
        fi
    done
    _br_hosts_files "$n"
    if ((leaves)); then
        for ((i = 1; i <= n; i++)); do
            echo "$BR_PREFIX-h$i leaf$(((i - 1) * leaves / n + 1))"
        done >"$BR_LEAVES"
    fi
    # wait until every port of every bridge forwards (hosts' ports and both ends of each uplink)
    ports=$((n + 2 * leaves))
    for ((i = 0; i < 50; i++)); do
        if [[ $(ip -d -n "$BR_SWITCH" link show | grep -c 'state forwarding') -eq $ports ]]; then
            return 0
        fi
        sleep 0.1
    done
    _br_log "the bridge's ports do not forward"
    netns_bridge_down
    return 1
}

netns_bridge_hosts() {
    _br_hosts
}

netns_bridge_exec() {
    local h=$1
    shift
    _br_index "$h" >/dev/null || return 1
    # shellcheck disable=SC2016 # expanded by the inner sh
    ip netns exec "$h" unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' sh "$h" "$@"
}

netns_bridge_counters() {
    local h stats
    for h in $(_br_hosts); do
        stats=$(ip netns exec "$h" cat "/sys/class/net/$BR_DEV/statistics/rx_bytes" \
            "/sys/class/net/$BR_DEV/statistics/tx_bytes") || return 1
        echo "$h ${stats//$'\n'/ }"
    done
}

netns_bridge_shape() {
    local h=$1 rate=$2 dir=$3 i
    i=$(_br_index "$h") || return 1
    case $dir in
    send) tc -n "$h" qdisc replace dev "$BR_DEV" root tbf rate "$rate" burst 64kb latency 10ms ;;
    receive) tc -n "$BR_SWITCH" qdisc replace dev "fpp$i" root tbf rate "$rate" burst 64kb latency 10ms ;;
    *)
        _br_log "shape HOST RATE send|receive"
        return 1
        ;;
    esac
}

netns_bridge_unshape() {
    local h i=0
    for h in $(_br_hosts); do
        i=$((i + 1))
        tc -n "$h" qdisc del dev "$BR_DEV" root 2>/dev/null
        tc -n "$BR_SWITCH" qdisc del dev "fpp$i" root 2>/dev/null
        tc -n "$BR_SWITCH" qdisc del dev "fpu$i" root 2>/dev/null
        tc -n "$BR_SWITCH" qdisc del dev "fpd$i" root 2>/dev/null
    done
    return 0
}

netns_bridge_topology() {
    [[ -r $BR_LEAVES ]] || { _br_log "topology: no leaves (up N LEAVES)"; return 1; }
    echo "switch spine"
    awk '{ print $2 }' "$BR_LEAVES" | uniq | awk '{ print "switch " $1 " parent=spine" }'
    awk '{ print "node " $1 " switch=" $2 }' "$BR_LEAVES"
}

netns_bridge_shape_uplink() {
    local l=$1 rate=$2 dir=$3
    if ! [[ -r $BR_LEAVES ]] || ! grep -q " leaf$l\$" "$BR_LEAVES"; then
        _br_log "shape-uplink: no leaf $l"
        return 1
    fi
    case $dir in
    up) tc -n "$BR_SWITCH" qdisc replace dev "fpu$l" root tbf rate "$rate" burst 64kb latency 10ms ;;
    down) tc -n "$BR_SWITCH" qdisc replace dev "fpd$l" root tbf rate "$rate" burst 64kb latency 10ms ;;
    *)
        _br_log "shape-uplink LEAF RATE up|down"
        return 1
        ;;
    esac
}

# Open MPI, one rank in each host, ob1 + TCP BTL over the veths only; the daemons are started
# from the first host (no tree spawn: each one through ns-ssh directly). The hosts share this
# machine's cores: a waiting rank yields its core (each host has one slot, so Open MPI would spin).
# mpirun runs in a session of its own (own-session says why), as every daemon does through ns-ssh.
netns_bridge_mpirun() {
    local hosts first
    hosts=$(_br_hosts | awk '{ printf "%s%s:1", sep, $1; sep = "," }')
    first=$(_br_hosts | head -n 1)
    netns_bridge_exec "$first" "$BR_OWN_SESSION" env \
        -u SLURM_JOB_ID -u SLURM_JOBID -u SLURM_NODELIST -u SLURM_JOB_NODELIST \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        FABPERF_NETNS_MAP="$BR_MAP" \
        "${MPIRUN:-mpirun}" -np "$(_br_hosts | wc -l)" --host "$hosts" \
        --bind-to none --mca plm rsh --mca plm_rsh_agent "$BR_SSH" --mca plm_rsh_no_tree_spawn 1 \
        --mca pml ob1 --mca btl tcp,self --mca mpi_yield_when_idle 1 \
        --mca btl_tcp_if_include "$BR_DEV" --mca oob_tcp_if_include "$BR_DEV" \
        "$@"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    cmd=${1:-}
    shift
    case $cmd in
    up)
        trap 'netns_bridge_down; exit 1' INT TERM
        netns_bridge_up "$@"
        exit
        ;;
    down | hosts | exec | counters | shape | unshape | mpirun | topology | shape-uplink)
        "netns_bridge_${cmd//-/_}" "$@"
        exit
        ;;
    *)
        echo "usage: $0 up N [LEAVES]|down|hosts|exec|counters|shape|shape-uplink|unshape|mpirun|topology [ARGS]" >&2
        exit 1
        ;;
    esac
fi
