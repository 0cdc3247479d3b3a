# shellcheck shell=bash
# The rails of rails.sbatch: which NICs to measure, the variables that select one in each stack,
# the pairs of nodes, and the checks. Sourced after common.sh; no Slurm needed to source it.
#
# A rail is an RDMA port ("mlx5_0:1", or "mlx5_0" for its first port) or a network interface
# ("eth1"). Its kind comes from sysfs: a name under $FABPERF_SYSFS/class/infiniband is RDMA.
#
# Environment:
#   FABPERF_RAILS        rails, space or comma separated [discovered on this node]
#   FABPERF_RAIL_STACK   tcp | ucx | ofi | nccl [ucx when a rail is an RDMA port, else tcp]
#   FABPERF_RAIL_ENV     more VAR=VAL words for every rail; a name the stack sets is replaced
#   FABPERF_RAIL_NODES   the nodes, space or comma separated [the allocation's]
#   FABPERF_RAIL_SWEEP   "PROGRAM [ARGS]": each rail runs PROGRAM once over all nodes, one rank
#                        on each, instead of the pairs
#   FABPERF_RAIL_CROSS   1: every rail of the first node against every rail of the other node of
#                        each pair (the cross-rail matrix), not only each rail against itself [0]
#   FABPERF_RAIL_CROSS_PAIRS   how many pairs (the first node with the next ones) get the
#                        cross-rail cells [1]; every pair gets the same-rail ones
#   FABPERF_RAIL_CROSS_STARTUP  the cross-rail launches' --startup-timeout, seconds [60]: a rail
#                        that does not reach the other may leave the ranks waiting to connect
#   FABPERF_OFI_PROVIDER FI_PROVIDER of the ofi stack [verbs;ofi_rxm for RDMA, tcp otherwise]
#   FABPERF_SYSFS        sysfs root read for discovery, kinds and the RDMA port state [/sys]
#   FABPERF_RAIL_SUMMARY, FABPERF_RAIL_SUMMARY_ARGS  the summary command and its options

# fp_rails_given: FABPERF_RAILS, one a line, an RDMA device without a port given its port 1
fp_rails_given() {
    local words=() r
    read -r -a words <<<"${FABPERF_RAILS//,/ }"
    for r in "${words[@]}"; do
        if [[ $(fp_rail_kind "$r") == rdma && $r != *:* ]]; then
            echo "$r:1"
        else
            echo "$r"
        fi
    done
}

# fp_rail_kind RAIL: "rdma" or "net"
fp_rail_kind() {
    if [[ -d ${FABPERF_SYSFS:-/sys}/class/infiniband/${1%%:*} ]]; then
        echo rdma
    else
        echo net
    fi
}

# fp_rails_rdma: the ACTIVE RDMA ports of this node, "device:port", one a line
fp_rails_rdma() {
    local p dev
    for p in "${FABPERF_SYSFS:-/sys}"/class/infiniband/*/ports/*; do
        [[ -r $p/state && $(<"$p/state") == *ACTIVE* ]] || continue
        dev=${p%/ports/*}
        echo "${dev##*/}:${p##*/}"
    done
}

# fp_rails_net: the network interfaces of this node that are up, neither loopback nor a bridge
fp_rails_net() {
    local d
    for d in "${FABPERF_SYSFS:-/sys}"/class/net/*; do
        [[ -r $d/operstate && $(<"$d/operstate") == up ]] || continue
        [[ ${d##*/} == lo || $(cat "$d/type" 2>/dev/null) == 772 || -d $d/bridge ]] && continue
        echo "${d##*/}"
    done
}

# fp_rails_discover STACK: the rails of this node, one a line: RDMA ports (unless STACK is tcp),
# else network interfaces
fp_rails_discover() {
    local found=''
    [[ $1 != tcp ]] && found=$(fp_rails_rdma)
    [[ -n $found ]] || found=$(fp_rails_net)
    [[ -n $found ]] && printf '%s\n' "$found"
}

# fp_rail_stack RAIL...: the stack, FABPERF_RAIL_STACK or the default for these rails
fp_rail_stack() {
    local r
    if [[ -n ${FABPERF_RAIL_STACK:-} ]]; then
        echo "$FABPERF_RAIL_STACK"
        return
    fi
    for r in "$@"; do
        if [[ $(fp_rail_kind "$r") == rdma ]]; then
            echo ucx
            return
        fi
    done
    echo tcp
}

# fp_rail_selection STACK RAIL: the VAR=VAL words that select RAIL in STACK; prints the reason and
# returns 1 when the stack cannot select that kind of rail
fp_rail_selection() {
    local stack=$1 rail=$2 kind dev
    kind=$(fp_rail_kind "$rail")
    dev=${rail%%:*}
    case $stack:$kind in
    tcp:net) echo "OMPI_MCA_btl_tcp_if_include=$rail" ;;
    tcp:rdma)
        echo "the tcp stack takes network interfaces; $rail is an RDMA port (give its IPoIB or RoCE interface)"
        return 1
        ;;
    ucx:*) echo "UCX_NET_DEVICES=$rail" ;;
    nccl:rdma) echo "NCCL_IB_DISABLE=0 NCCL_IB_HCA==$rail" ;;
    nccl:net) echo "NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME==$rail" ;;
    ofi:rdma) echo "FI_PROVIDER=${FABPERF_OFI_PROVIDER:-verbs;ofi_rxm} FI_VERBS_DEVICE_NAME=$dev" ;;
    ofi:net) echo "FI_PROVIDER=${FABPERF_OFI_PROVIDER:-tcp} FI_TCP_IFACE=$rail" ;;
    *)
        echo "unknown FABPERF_RAIL_STACK '$stack' (tcp, ucx, ofi, nccl)"
        return 1
        ;;
    esac
}

# fp_rail_env STACK RAIL: the selection words with FABPERF_RAIL_ENV's added (a name given there
# replaces the stack's); returns 1 with the reason as fp_rail_selection does
fp_rail_env() {
    local sel words=() extra=() w e out=()
    sel=$(fp_rail_selection "$1" "$2") || { echo "$sel"; return 1; }
    read -r -a words <<<"$sel"
    read -r -a extra <<<"${FABPERF_RAIL_ENV:-}"
    for w in "${words[@]}"; do
        for e in "${extra[@]}"; do
            [[ ${e%%=*} == "${w%%=*}" ]] && continue 2
        done
        out+=("$w")
    done
    echo "${out[*]} ${extra[*]}" | sed 's/ *$//'
}

# fp_rail_nodes: the nodes, one a line (FABPERF_RAIL_NODES, else the Slurm allocation)
fp_rail_nodes() {
    local words=()
    if [[ -n ${FABPERF_RAIL_NODES:-} ]]; then
        read -r -a words <<<"${FABPERF_RAIL_NODES//,/ }"
        printf '%s\n' "${words[@]}"
    elif [[ -n ${SLURM_JOB_NODELIST:-} ]]; then
        scontrol show hostnames "$SLURM_JOB_NODELIST"
    fi
}

# fp_rail_check STACK RAIL: RAIL is usable on every node; else prints the reason, returns 1
fp_rail_check() {
    local stack=$1 rail=$2 envs script
    envs=$(fp_rail_env "$stack" "$rail") || { echo "$envs"; return 1; }
    if [[ $(fp_rail_kind "$rail") == rdma ]]; then
        local state=${FABPERF_SYSFS:-/sys}/class/infiniband/${rail%%:*}/ports/${rail#*:}/state
        # shellcheck disable=SC2016 # expanded by the inner sh
        if ! fp_on_all_nodes sh -c 'grep -q ACTIVE "$1"' sh "$state" 2>/dev/null; then
            echo "RDMA port $rail not ACTIVE on every node ($state)"
            return 1
        fi
    else
        fp_have_netdev "$rail" || return 1
        # shellcheck disable=SC2016 # expanded by the inner sh
        script='ip -o -4 addr show dev "$1" | grep -q inet'
        if command -v ip >/dev/null && ! fp_on_all_nodes sh -c "$script" sh "$rail" 2>/dev/null; then
            echo "network interface $rail has no IPv4 address on every node (ip -4 addr show dev $rail)"
            return 1
        fi
    fi
    fp_rail_stack_check "$stack" "$envs"
}

# fp_rail_stack_check STACK "ENV-WORDS": the stack itself can use the rail on every node
fp_rail_stack_check() {
    local words=()
    read -r -a words <<<"$2"
    case $1 in
    ucx) fp_have_ucx_devices "$(fp_env_get UCX_NET_DEVICES "${words[@]}")" ;;
    ofi) fp_have_ofi_provider "$(fp_env_get FI_PROVIDER "${words[@]}")" ;;
    nccl) fp_have_gpus ;;
    *) return 0 ;;
    esac
}

# fp_rail_matrix STACK "RAILS" "NODES": the matrix lines (common.sh's FP_MATRIX), one a line: per
# rail, the first node with each other node, one rank on each; with FABPERF_RAIL_SWEEP, per rail
# one line over all the nodes, one rank on each; with FABPERF_RAIL_CROSS=1, also every rail of the
# first node against every other rail of the other node (fp_rail_cross_line), in the first
# FABPERF_RAIL_CROSS_PAIRS pairs
fp_rail_matrix() {
    local stack=$1 rails=() nodes=() r r2 n envs all crossed
    read -r -a rails <<<"$2"
    read -r -a nodes <<<"$3"
    all=${nodes[*]}
    for r in "${rails[@]}"; do
        envs=$(fp_rail_env "$stack" "$r") || envs=''
        if [[ -n ${FABPERF_RAIL_SWEEP:-} ]]; then
            echo "$(fp_rail_label "$r")|$envs|@nodes=${all// /,}"
            continue
        fi
        crossed=0
        for n in "${nodes[@]:1}"; do
            echo "$(fp_rail_label "$r" "${nodes[0]}" "$n")|$envs|@nodes=${nodes[0]},$n"
            [[ ${FABPERF_RAIL_CROSS:-0} == 1 ]] || continue
            ((crossed++ < ${FABPERF_RAIL_CROSS_PAIRS:-1})) || continue
            for r2 in "${rails[@]}"; do
                [[ $r2 == "$r" ]] || fp_rail_cross_line "$stack" "$r" "$r2" "${nodes[0]}" "$n"
            done
        done
    done
}

# fp_rail_cross_line STACK RAIL-A RAIL-B NODE-A NODE-B: the matrix line of RAIL-A on NODE-A against
# RAIL-B on NODE-B, labelled RAIL-A->RAIL-B@NODE-A-NODE-B. A launcher passes one environment to
# every rank, so each side's selection goes as FABPERF_SIDE<S>_* words, and node-env.sh
# (@node-env) exports them on its node.
fp_rail_cross_line() {
    local stack=$1 words=() w envs="FABPERF_NODE_SIDES=$4,$5" side=0 rail
    for rail in "$2" "$3"; do
        words=()
        w=$(fp_rail_env "$stack" "$rail") && read -r -a words <<<"$w"
        for w in "${words[@]}"; do
            envs+=" FABPERF_SIDE${side}_$w"
        done
        side=1
    done
    # a rail that cannot reach the other may leave the ranks waiting for a connection: bounded
    echo "$2->$3@$4-$5|$envs|@nodes=$4,$5 @node-env @arg=--startup-timeout @arg=${FABPERF_RAIL_CROSS_STARTUP:-60}"
}

# fp_rail_cross_failed RUN-DIR: 0 when every failed launch of launches.tsv is a cross-rail one (a
# label RAIL-A->RAIL-B@...), whose failure the summary reads as a finding (no path) or not decided
fp_rail_cross_failed() {
    awk -F'\t' 'NR > 1 && $4 ~ /^failed/ && $1 !~ /->/ { other = 1 } END { exit other }' "$1/launches.tsv"
}

# fp_rail_mca STACK: Open MPI's options for the stack, "NAME VALUE" a line, as ucx.sbatch and
# libfabric.sbatch force them (Debian's openmpi-mca-params.conf disables UCX; Open MPI 4.1 keeps
# libfabric's tcp provider from the OFI MTL unless mtl_ofi_provider_exclude says otherwise)
fp_rail_mca() {
    case $1 in
    tcp) printf '%s\n' 'pml ob1' 'btl tcp,self' ;;
    ucx) printf '%s\n' 'pml ucx' 'pml_ucx_tls any' 'pml_ucx_devices any' 'osc ucx' ;;
    ofi) printf '%s\n' 'pml cm' 'mtl ofi' 'mtl_ofi_provider_exclude none' ;;
    esac
    return 0
}

# fp_rail_ompi_env STACK: the same as OMPI_MCA_NAME=VALUE words, one a line (for srun)
fp_rail_ompi_env() {
    local name value
    fp_rail_mca "$1" | while read -r name value; do
        echo "OMPI_MCA_$name=$value"
    done
}

# fp_rail_label RAIL NODE-A NODE-B: the configuration label, RAIL@A-B (RAIL@all for a sweep)
fp_rail_label() {
    if [[ -n ${3:-} ]]; then
        echo "$1@$2-$3"
    else
        echo "$1@all"
    fi
}

# fp_rail_programs STACK: the programs, one a line: FABPERF_RAIL_SWEEP's, else FABPERF_PROGRAMS,
# else fabperf_allreduce for nccl and fabperf_bw fabperf_latency for the other stacks
fp_rail_programs() {
    local words=()
    read -r -a words <<<"${FABPERF_RAIL_SWEEP:-}"
    if [[ ${#words[@]} -gt 0 ]]; then
        echo "${words[0]}"
        return
    fi
    if [[ $1 == nccl ]]; then
        read -r -a words <<<"${FABPERF_PROGRAMS:-fabperf_allreduce}"
    else
        read -r -a words <<<"${FABPERF_PROGRAMS:-fabperf_bw fabperf_latency}"
    fi
    printf '%s\n' "${words[@]}"
}

# fp_rail_program_args STACK: the programs' arguments beside FABPERF_ARGS, one a line: --backend
# nccl for nccl, and FABPERF_RAIL_SWEEP's arguments
fp_rail_program_args() {
    local words=()
    [[ $1 == nccl ]] && printf '%s\n' --backend nccl
    read -r -a words <<<"${FABPERF_RAIL_SWEEP:-}"
    [[ ${#words[@]} -gt 1 ]] && printf '%s\n' "${words[@]:1}"
    return 0
}

# fp_rails_summary DEFAULT-COMMAND: the summary of FABPERF_RUN_DIR into its summary/ folder
# (rails.txt, rails.json, rails.status: a folder of its own, as the run folder's *.json are
# results) and onto standard output. The command is FABPERF_RAIL_SUMMARY, else DEFAULT-COMMAND,
# else fabperf-rails in PATH; FABPERF_RAIL_SUMMARY_ARGS adds its options. Returns its exit status,
# 127 when no command is found.
fp_rails_summary() {
    local tool=${FABPERF_RAIL_SUMMARY:-$1} dir=$FABPERF_RUN_DIR/summary args=() rc
    mkdir -p "$dir" || return 2
    [[ -x $tool ]] || tool=$(command -v "${FABPERF_RAIL_SUMMARY:-fabperf-rails}") || tool=''
    if [[ -z $tool ]]; then
        fp_log "rails: no summary: ${FABPERF_RAIL_SUMMARY:-fabperf-rails} not found (FABPERF_RAIL_SUMMARY)"
        echo "not found" >"$dir/rails.status"
        return 127
    fi
    read -r -a args <<<"${FABPERF_RAIL_SUMMARY_ARGS:-}"
    "$tool" "${args[@]}" --format json --output "$dir/rails.json" "$FABPERF_RUN_DIR" 2>/dev/null
    "$tool" "${args[@]}" --output "$dir/rails.txt" "$FABPERF_RUN_DIR"
    rc=$?
    echo "$rc" >"$dir/rails.status"
    [[ -r $dir/rails.txt ]] && cat "$dir/rails.txt"
    return "$rc"
}
