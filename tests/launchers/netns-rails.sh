#!/bin/bash
# N "hosts" with one NIC on each of R rails: network namespaces, the rails Linux bridges in a
# namespace of their own (the "switch"), so nothing is added to the machine's own network.
#
#   netns-rails.sh up N R [ROUTED]   N hosts (2..8), R rails (2..4); host i's NIC fpr<k> on rail k
#                                    has NET.k.i/24. The first ROUTED rails (0, or 2..R) reach one
#                                    another through the switch, which routes between them (as a
#                                    routed fabric does); every other rail reaches only itself (a
#                                    rail-only fabric). Each host routes by source address, so a
#                                    socket bound to a rail's address leaves through that rail.
#   netns-rails.sh shape K RATE      tc tbf on rail K, both ways (each host's end and each switch port)
#   netns-rails.sh down              remove everything created by "up" (idempotent)
#   netns-rails.sh hosts             print the host names, one a line
#   netns-rails.sh exec HOST CMD...  run CMD in HOST (its namespace and host name)
#   netns-rails.sh counters          print "HOST NIC RX_BYTES TX_BYTES" per host and rail
#
# Settings (environment):
#   FABPERF_RAILS_PREFIX  namespace/host name prefix [fprl] -> fprl-h1.., switch fprl-sw
#   FABPERF_RAILS_NET     first two octets            [10.81] -> rail k is 10.81.k.0/24
#   FABPERF_RAILS_STATE   state directory             [/run/fabperf-rails]
#
# The map file for ns-ssh ($FABPERF_RAILS_STATE/map) names rail 0's address of each host.
# Exit status: 0 ok, 1 failure, 77 a required capability is missing ("SKIP:" line).

RL_PREFIX=${FABPERF_RAILS_PREFIX:-fprl}
RL_NET=${FABPERF_RAILS_NET:-10.81}
RL_STATE=${FABPERF_RAILS_STATE:-/run/fabperf-rails}

# The namespaces, the probe of what this machine permits, the hosts files, exec and down are
# netns-bridge.sh's, with this setup's names: its hosts are PREFIX-h<i>, its switch PREFIX-sw.
# shellcheck source=tests/launchers/netns-bridge.sh
FABPERF_BRIDGE_PREFIX=$RL_PREFIX FABPERF_BRIDGE_STATE=$RL_STATE FABPERF_BRIDGE_NET=$RL_NET.0 \
    . "$(dirname "${BASH_SOURCE[0]}")/netns-bridge.sh"
BR_DEV=fpr0 # the map names rail 0's NIC and address

_rl_log() {
    echo "netns-rails: $*" >&2
}

_rl_rails() {
    [[ -r $RL_STATE/rails ]] && cat "$RL_STATE/rails"
}

netns_rails_down() {
    rm -f "$RL_STATE/rails"
    netns_bridge_down
}

# _rl_nic I K ROUTED: host I's NIC on rail K, its address, and its routing table (100 + K): the
# rail's subnet, then the switch for a routed rail, else nothing (unreachable: no fall back to
# another rail's route in the main table)
_rl_nic() {
    local i=$1 k=$2 routed=$3 h=$RL_PREFIX-h$1 addr=$RL_NET.$2.$1
    ip link add "fpr$k" netns "$h" type veth peer name "fpp$k-$i" netns "$BR_SWITCH" &&
        ip -n "$h" link set "fpr$k" addrgenmode none &&
        ip -n "$h" addr add "$addr/24" dev "fpr$k" &&
        ip -n "$h" link set "fpr$k" up &&
        ip netns exec "$h" sysctl -q -w "net.ipv4.conf.fpr$k.rp_filter=0" &&
        ip -n "$BR_SWITCH" link set "fpp$k-$i" master "fprb$k" &&
        ip -n "$BR_SWITCH" link set "fpp$k-$i" up &&
        ip -n "$h" rule add from "$addr" lookup $((100 + k)) priority $((100 + k)) &&
        ip -n "$h" route add "$RL_NET.$k.0/24" dev "fpr$k" src "$addr" table $((100 + k)) || return 1
    if ((k < routed)); then
        ip -n "$h" route add default via "$RL_NET.$k.254" dev "fpr$k" table $((100 + k))
    else
        ip -n "$h" route add unreachable default table $((100 + k))
    fi
}

netns_rails_up() {
    local n=$1 rails=$2 routed=${3:-0} i k h
    if ! [[ $n =~ ^[0-9]+$ && $rails =~ ^[0-9]+$ && $routed =~ ^[0-9]+$ ]] ||
        ((n < 2 || n > 8 || rails < 2 || rails > 4 || routed == 1 || routed > rails)); then
        _rl_log "up N R [ROUTED]: N 2..8, R 2..4, ROUTED 0 or 2..R"
        return 1
    fi
    _br_check_caps || return
    netns_rails_down
    mkdir -p "$RL_STATE"
    if ! ip netns add "$BR_SWITCH" || ! ip netns exec "$BR_SWITCH" sysctl -q -w net.ipv4.ip_forward=1; then
        _rl_log "creating the switch namespace failed"
        netns_rails_down
        return 1
    fi
    for ((k = 0; k < rails; k++)); do
        if ! ip -n "$BR_SWITCH" link add "fprb$k" type bridge || ! ip -n "$BR_SWITCH" link set "fprb$k" up ||
            { ((k < routed)) && ! ip -n "$BR_SWITCH" addr add "$RL_NET.$k.254/24" dev "fprb$k"; }; then
            _rl_log "creating rail $k failed"
            netns_rails_down
            return 1
        fi
    done
    for ((i = 1; i <= n; i++)); do
        h=$RL_PREFIX-h$i
        if ! ip netns add "$h" || ! ip -n "$h" link set lo up ||
            ! ip netns exec "$h" sysctl -q -w net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0; then
            _rl_log "creating host $i failed"
            netns_rails_down
            return 1
        fi
        for ((k = 0; k < rails; k++)); do
            if ! _rl_nic "$i" "$k" "$routed"; then
                _rl_log "creating host $i's NIC on rail $k failed"
                netns_rails_down
                return 1
            fi
        done
    done
    _br_hosts_files "$n"
    seq 0 $((rails - 1)) >"$RL_STATE/rails"
    # wait until every port of every rail forwards
    for ((i = 0; i < 50; i++)); do
        if [[ $(ip -d -n "$BR_SWITCH" link show | grep -c 'state forwarding') -eq $((n * rails)) ]]; then
            return 0
        fi
        sleep 0.1
    done
    _rl_log "the rails' ports do not forward"
    netns_rails_down
    return 1
}

netns_rails_hosts() {
    _br_hosts
}

netns_rails_exec() {
    netns_bridge_exec "$@"
}

netns_rails_shape() {
    local k=$1 rate=$2 h i=0
    if ! _rl_rails | grep -qxF -- "$k"; then
        _rl_log "shape: no rail $k"
        return 1
    fi
    for h in $(_br_hosts); do
        i=$((i + 1))
        tc -n "$h" qdisc replace dev "fpr$k" root tbf rate "$rate" burst 64kb latency 10ms &&
            tc -n "$BR_SWITCH" qdisc replace dev "fpp$k-$i" root tbf rate "$rate" burst 64kb latency 10ms ||
            return 1
    done
}

netns_rails_counters() {
    local h k stats
    for h in $(_br_hosts); do
        for k in $(_rl_rails); do
            stats=$(ip netns exec "$h" cat "/sys/class/net/fpr$k/statistics/rx_bytes" \
                "/sys/class/net/fpr$k/statistics/tx_bytes") || return 1
            echo "$h fpr$k ${stats//$'\n'/ }"
        done
    done
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    cmd=${1:-}
    shift
    case $cmd in
    up)
        trap 'netns_rails_down; exit 1' INT TERM
        netns_rails_up "$@"
        exit
        ;;
    down | hosts | exec | counters | shape)
        "netns_rails_$cmd" "$@"
        exit
        ;;
    *)
        echo "usage: $0 up N R [ROUTED]|down|hosts|exec|counters|shape [ARGS]" >&2
        exit 1
        ;;
    esac
fi
