# shellcheck shell=bash
# Common code of the fabperf sbatch templates; sourced, not executed.
#
# A template defines, then calls fp_main:
#   FP_MATRIX         array of "label|ENV=VAL ENV2=VAL2|launcher-args"
#                     (values and arguments must not contain spaces or "|")
#   FP_PROGRAMS       array of program names (found in $FABPERF_BIN or PATH)
#   fp_check_config   function ENV=VAL...: return 0 if the configuration can run
#                     on the allocated nodes, else print the reason and return 1
#                     (FP_CHECK_LABEL holds the configuration's label)
#   fp_launcher_args  optional function: prints extra launcher arguments for
#                     the current MPI_FLAVOR, one a line
#   fp_program_args   optional function PROGRAM: prints extra program arguments,
#                     one a line
#
# The launcher-args field may also hold these words, which are not passed on:
#   @same-node  all ranks are placed on the first allocated node (shared memory)
#   @nodes=A,B  one rank on each listed node, and only there (a pair of nodes)
#   @gpu        the programs get $FABPERF_GPU_ARGS [-d cuda] (device buffers)
#   @node-env   each rank runs through node-env.sh (beside this file), which exports the
#               FABPERF_SIDE<S>_* variables of its node's side S in FABPERF_NODE_SIDES
#   @arg=WORD   WORD is added to the programs' arguments (after FABPERF_ARGS)
#
# Environment (all optional):
#   FABPERF_BIN       directory holding the programs (else PATH)
#   FABPERF_ARGS      extra arguments for every program, e.g. "-m 1:4M -i 1000 -x 100"
#   REPEATS           launches per configuration and program [5]
#   MPI_FLAVOR        openmpi (mpirun) | mpich | intelmpi (mpiexec -genv) | srun [openmpi]
#   MPIRUN            launcher program [mpirun, or mpiexec for mpich/intelmpi, srun]
#   MPIRUN_ARGS       extra launcher arguments for every launch
#   SRUN_MPI          --mpi= type for MPI_FLAVOR=srun [pmix]
#   FABPERF_ONLY      extended regex; run only configurations whose label matches
#   FABPERF_EXTRA_CONFIGS  more matrix lines, newline separated
#   FABPERF_RUN_ROOT  where the run folder is created [$SLURM_SUBMIT_DIR or .]
#   FABPERF_RUN_DIR   run folder [FABPERF_RUN_ROOT/fabperf-<jobname>-<jobid>]
#   FABPERF_TIMEOUT   seconds per launch [900]
#   FABPERF_CHECK_LOCAL=1  check providers/transports on this node only, not via srun
#   FABPERF_PREFLIGHT      the preflight run before the matrix, one rank per node: "off", or
#                          the program's path [fabperf_preflight in FABPERF_BIN or PATH]
#   FABPERF_PREFLIGHT_ARGS extra arguments for fabperf_preflight
#   FABPERF_PREFLIGHT_STOP 1: a preflight that exits non-zero stops the job before the matrix
#                          (exit 1); 0: the matrix runs anyway, the failure is recorded [0]
#
# Output: RUN_DIR/<label-sanitised>.<repeat>.<program>.json (and .log with the
# launcher's output), RUN_DIR/launches.tsv (one line per launch; status ok,
# expect-failed(3) when the results are complete but an --expect/--expect-nic
# failed, expect-inconclusive(4) when they are complete and an --expect size was
# inconclusive, or failed(EXIT)), RUN_DIR/skipped.txt; RUN_DIR/preflight.json (its
# JSON Lines), preflight.log and preflight.status (its exit status, or "off",
# "not found").

REPEATS=${REPEATS:-5}
# this file's folder: node-env.sh lies beside it (a path every node sees, as the templates' own)
FP_SLURM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MPI_FLAVOR=${MPI_FLAVOR:-openmpi}
FABPERF_TIMEOUT=${FABPERF_TIMEOUT:-900}
SRUN_MPI=${SRUN_MPI:-pmix}

fp_log() {
    printf '%s fabperf: %s\n' "$(date +%H:%M:%S)" "$*"
}

# label -> file name part
fp_sanitise() {
    local s=$1
    s=${s//[^A-Za-z0-9._-]/_}
    printf '%s\n' "$s"
}

# Find a program in $FABPERF_BIN, then PATH; print its path.
fp_find_program() {
    local p=$1
    if [[ -n ${FABPERF_BIN:-} ]]; then
        if [[ -x $FABPERF_BIN/$p ]]; then
            printf '%s\n' "$FABPERF_BIN/$p"
            return 0
        fi
        return 1
    fi
    command -v "$p"
}

# Run a command once on every allocated node (or locally outside Slurm or
# with FABPERF_CHECK_LOCAL=1); succeeds only if it succeeds everywhere.
fp_on_all_nodes() {
    if [[ -n ${SLURM_JOB_ID:-} && ${FABPERF_CHECK_LOCAL:-0} != 1 ]] && command -v srun >/dev/null; then
        srun --quiet --nodes="${SLURM_JOB_NUM_NODES:-1}" --ntasks="${SLURM_JOB_NUM_NODES:-1}" \
            --ntasks-per-node=1 --kill-on-bad-exit=0 "$@"
    else
        "$@"
    fi
}

# Value of VAR in a list of VAR=VAL words.
fp_env_get() {
    local name=$1 kv
    shift
    for kv in "$@"; do
        if [[ ${kv%%=*} == "$name" ]]; then
            printf '%s\n' "${kv#*=}"
            return 0
        fi
    done
    return 1
}

# fp_have_ofi_provider "tcp;ofi_rxm": fi_info knows the provider on all nodes
fp_have_ofi_provider() {
    command -v fi_info >/dev/null || { echo "fi_info not found"; return 1; }
    if ! fp_on_all_nodes fi_info -p "$1" >/dev/null 2>&1; then
        echo "libfabric provider '$1' not available (fi_info -p '$1')"
        return 1
    fi
}

# ucx_info transport names matching one UCX_TLS entry (aliases as in UCX)
_fp_ucx_alias() {
    case $1 in
    sm | shm) echo 'posix|sysv|xpmem|cma|knem' ;;
    rc) echo 'rc_verbs|rc_mlx5' ;;
    rc_x) echo 'rc_mlx5' ;;
    rc_v) echo 'rc_verbs' ;;
    dc | dc_x) echo 'dc_mlx5' ;;
    ud) echo 'ud_verbs|ud_mlx5' ;;
    ud_x) echo 'ud_mlx5' ;;
    ud_v) echo 'ud_verbs' ;;
    ib) echo 'rc_verbs|rc_mlx5|ud_verbs|ud_mlx5|dc_mlx5' ;;
    mm) echo 'posix|sysv|xpmem' ;;
    cuda) echo 'cuda_copy|cuda_ipc|gdr_copy' ;;
    rocm) echo 'rocm_copy|rocm_ipc|rocm_gdr' ;;
    *) echo "$1" ;;
    esac
}

# fp_have_ucx_tls "rc,sm,self": every entry has a transport in ucx_info -d
# on all nodes ("all" and negated lists are accepted as they are)
fp_have_ucx_tls() {
    local tls=$1 t pat list missing=() script
    command -v ucx_info >/dev/null || { echo "ucx_info not found"; return 1; }
    [[ -z $tls || $tls == all || $tls == ^* ]] && return 0
    IFS=, read -r -a list <<<"$tls"
    for t in "${list[@]}"; do
        t=${t%%:*}
        [[ $t == all ]] && continue
        pat=$(_fp_ucx_alias "$t")
        # shellcheck disable=SC2016
        script='ucx_info -d | grep -E "^#[[:space:]]+Transport:[[:space:]]+($1)\$" >/dev/null'
        if ! fp_on_all_nodes sh -c "$script" sh "$pat" 2>/dev/null; then
            missing+=("$t")
        fi
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        echo "UCX transport(s) ${missing[*]} not available (ucx_info -d | grep Transport)"
        return 1
    fi
}

# fp_have_ucx_devices "mlx5_0:1,eth0": every device is listed by ucx_info -d
fp_have_ucx_devices() {
    local devs=$1 d list missing=() script
    [[ -z $devs || $devs == all ]] && return 0
    IFS=, read -r -a list <<<"$devs"
    for d in "${list[@]}"; do
        # shellcheck disable=SC2016
        script='ucx_info -d | grep -E "^#[[:space:]]+Device:[[:space:]]+$1\$" >/dev/null'
        if ! fp_on_all_nodes sh -c "$script" sh "$d" 2>/dev/null; then
            missing+=("$d")
        fi
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        echo "UCX device(s) ${missing[*]} not present (ucx_info -d | grep Device)"
        return 1
    fi
}

# fp_have_netdev "eth0,ib0": network interfaces exist on all nodes
fp_have_netdev() {
    local d list missing=()
    [[ -z $1 ]] && return 0
    IFS=, read -r -a list <<<"$1"
    for d in "${list[@]}"; do
        d=${d#^}
        d=${d#=}
        if ! fp_on_all_nodes test -e "/sys/class/net/$d" 2>/dev/null; then
            missing+=("$d")
        fi
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        echo "network interface(s) ${missing[*]} not present"
        return 1
    fi
}

# fp_have_ib_hca "mlx5_0:1,mlx5_1": InfiniBand/RoCE devices exist on all nodes
fp_have_ib_hca() {
    local d list missing=()
    [[ -z $1 ]] && return 0
    IFS=, read -r -a list <<<"${1#=}"
    for d in "${list[@]}"; do
        d=${d#^}
        d=${d%%:*}
        if ! fp_on_all_nodes test -e "/sys/class/infiniband/$d" 2>/dev/null; then
            missing+=("$d")
        fi
    done
    if [[ ${#missing[@]} -gt 0 ]]; then
        echo "InfiniBand device(s) ${missing[*]} not present (/sys/class/infiniband)"
        return 1
    fi
}

fp_default_launcher() {
    case $MPI_FLAVOR in
    openmpi) echo mpirun ;;
    mpich | intelmpi) echo mpiexec ;;
    srun) echo srun ;;
    *) return 1 ;;
    esac
}

# fp_strip_markers LAUNCH-WORDS...: FP_KEPT, the words without the markers (@same-node, @nodes=,
# @gpu, @node-env); FP_SAME_NODE, the node that @same-node asks for, FP_NODES the nodes of @nodes=
# (comma separated); FP_WRAPPER, node-env.sh for @node-env; each empty without its marker.
fp_strip_markers() {
    local w
    FP_SAME_NODE=''
    FP_NODES=''
    FP_WRAPPER=()
    FP_KEPT=()
    for w in "$@"; do
        if [[ $w == @same-node ]]; then
            FP_SAME_NODE=$(scontrol show hostnames "${SLURM_JOB_NODELIST:-}" 2>/dev/null | head -n 1)
            FP_SAME_NODE=${FP_SAME_NODE:-localhost}
        elif [[ $w == @nodes=* ]]; then
            FP_NODES=${w#@nodes=}
        elif [[ $w == @node-env ]]; then
            FP_WRAPPER=("$FP_SLURM_DIR/node-env.sh")
        elif [[ $w != @gpu && $w != @arg=* ]]; then
            FP_KEPT+=("$w")
        fi
    done
}

# fp_flavour_args SAME-NODE ENV-WORDS...: appends the launcher's own options of MPI_FLAVOR to
# FP_CMD (rank count, placement, environment); FP_NODES (fp_strip_markers) places one rank on
# each of its nodes.
fp_flavour_args() {
    local same_node=$1 kv nodes=${FP_NODES:-} ntasks=${SLURM_NTASKS:-2}
    shift
    [[ -n $nodes ]] && ntasks=$(($(tr -cd , <<<"$nodes" | wc -c) + 1))
    case $MPI_FLAVOR in
    openmpi)
        if [[ $(id -u) -eq 0 ]]; then FP_CMD+=(--allow-run-as-root); fi
        FP_CMD+=(-np "$ntasks")
        if [[ -n $same_node ]]; then
            FP_CMD+=(--host "$same_node:$ntasks" --oversubscribe)
        elif [[ -n $nodes ]]; then
            FP_CMD+=(--host "${nodes//,/:1,}:1")
        elif [[ -n ${SLURM_NTASKS_PER_NODE:-} ]]; then
            FP_CMD+=(--map-by "ppr:${SLURM_NTASKS_PER_NODE}:node")
        fi
        FP_CMD+=(--bind-to none)
        for kv in "$@"; do FP_CMD+=(-x "$kv"); done
        ;;
    mpich | intelmpi)
        FP_CMD+=(-n "$ntasks")
        if [[ -n $same_node ]]; then
            FP_CMD+=(-hosts "$same_node")
        elif [[ -n $nodes ]]; then
            FP_CMD+=(-hosts "$nodes" -ppn 1)
        elif [[ -n ${SLURM_NTASKS_PER_NODE:-} ]]; then
            FP_CMD+=(-ppn "$SLURM_NTASKS_PER_NODE")
        fi
        for kv in "$@"; do FP_CMD+=(-genv "${kv%%=*}" "${kv#*=}"); done
        ;;
    srun)
        FP_CMD+=("--mpi=$SRUN_MPI" --kill-on-bad-exit=1)
        if [[ -n $same_node ]]; then
            FP_CMD+=(--nodes=1 --ntasks="$ntasks" --nodelist="$same_node" --overcommit)
        elif [[ -n $nodes ]]; then
            FP_CMD+=(--nodes="$ntasks" --ntasks="$ntasks" --ntasks-per-node=1 --nodelist="$nodes")
        fi
        ;;
    *)
        fp_log "unknown MPI_FLAVOR '$MPI_FLAVOR' (openmpi, mpich, intelmpi, srun)"
        return 1
        ;;
    esac
}

# Build the launch command into the array FP_CMD.
# fp_build_cmd PROGRAM_PATH "ENV=VAL ..." "launcher-args" PROGRAM-ARGS...
fp_build_cmd() {
    local prog=$1 envs=$2 largs=$3 launcher extra=() mline
    shift 3
    local env_words=() larg_words=() run_words=()
    read -r -a env_words <<<"$envs"
    read -r -a larg_words <<<"$largs"
    fp_strip_markers "${larg_words[@]}"
    read -r -a run_words <<<"${MPIRUN_ARGS:-}"
    if declare -F fp_launcher_args >/dev/null; then
        while IFS= read -r mline; do
            [[ -n $mline ]] && extra+=("$mline")
        done < <(fp_launcher_args)
    fi
    launcher=${MPIRUN:-$(fp_default_launcher)}
    FP_CMD=(env "${env_words[@]}" "$launcher")
    fp_flavour_args "$FP_SAME_NODE" "${env_words[@]}" || return 1
    FP_CMD+=("${extra[@]}" "${run_words[@]}" "${FP_KEPT[@]}" "${FP_WRAPPER[@]}" "$prog" "$@")
}

# Check that FILE holds a complete fabperf JSON Lines run.
fp_json_complete() {
    [[ -s $1 ]] && tail -n 1 "$1" | grep -q '"type" *: *"end"' &&
        tail -n 1 "$1" | grep -q '"status" *: *"complete"'
}

# fp_preflight_cmd PROGRAM: FP_CMD = the launch of PROGRAM with one rank per node.
fp_preflight_cmd() {
    local nodes launcher run_words=() pargs=()
    nodes=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-1}}
    launcher=${MPIRUN:-$(fp_default_launcher)}
    case $MPI_FLAVOR in
    openmpi)
        FP_CMD=("$launcher")
        [[ $(id -u) -eq 0 ]] && FP_CMD+=(--allow-run-as-root)
        FP_CMD+=(-np "$nodes" --map-by node --bind-to none)
        ;;
    mpich | intelmpi) FP_CMD=("$launcher" -n "$nodes" -ppn 1) ;;
    srun) FP_CMD=("$launcher" "--mpi=$SRUN_MPI" --ntasks="$nodes" --ntasks-per-node=1) ;;
    esac
    read -r -a run_words <<<"${MPIRUN_ARGS:-}"
    read -r -a pargs <<<"${FABPERF_PREFLIGHT_ARGS:-}"
    FP_CMD+=("${run_words[@]}" "$1" --format json --output "$FABPERF_RUN_DIR/preflight.json" "${pargs[@]}")
}

# fp_preflight: fabperf_preflight, one rank per node, into the run folder. Returns 1 only when it
# failed and FABPERF_PREFLIGHT_STOP=1.
fp_preflight() {
    local prog rc dir=$FABPERF_RUN_DIR
    prog=${FABPERF_PREFLIGHT:-}
    if [[ $prog == off ]]; then
        echo off >"$dir/preflight.status"
        return 0
    fi
    if [[ -z $prog ]] && ! prog=$(fp_find_program fabperf_preflight) || [[ ! -x $prog ]]; then
        fp_log "preflight: ${prog:-fabperf_preflight} not found (FABPERF_PREFLIGHT, FABPERF_BIN, PATH); not run"
        echo "not found" >"$dir/preflight.status"
        return 0
    fi
    fp_preflight_cmd "$prog"
    {
        printf '#'
        printf ' %q' "${FP_CMD[@]}"
        printf '\n'
    } >"$dir/preflight.log"
    timeout "$FABPERF_TIMEOUT" "${FP_CMD[@]}" >>"$dir/preflight.log" 2>&1 </dev/null
    rc=$?
    echo "$rc" >"$dir/preflight.status"
    if [[ $rc -eq 0 ]]; then
        fp_log "preflight: passed, $dir/preflight.json"
        return 0
    fi
    fp_log "preflight: exit $rc, see $dir/preflight.log"
    tail -n 5 "$dir/preflight.log" | sed 's/^/    /'
    if [[ ${FABPERF_PREFLIGHT_STOP:-0} == 1 ]]; then
        fp_log "preflight failed and FABPERF_PREFLIGHT_STOP=1: the matrix is not run"
        return 1
    fi
    fp_log "preflight failed; the matrix runs anyway (FABPERF_PREFLIGHT_STOP=1 stops it)"
}

# fp_run_folder: makes FABPERF_RUN_DIR with its empty skipped.txt and launches.tsv.
fp_run_folder() {
    FABPERF_RUN_DIR=${FABPERF_RUN_DIR:-${FABPERF_RUN_ROOT:-${SLURM_SUBMIT_DIR:-.}}/fabperf-${SLURM_JOB_NAME:-local}-${SLURM_JOB_ID:-$$}}
    mkdir -p "$FABPERF_RUN_DIR" || return 1
    : >"$FABPERF_RUN_DIR/skipped.txt"
    printf 'label\trepeat\tprogram\tstatus\tseconds\tfile\n' >"$FABPERF_RUN_DIR/launches.tsv"
    fp_log "run folder $FABPERF_RUN_DIR; MPI_FLAVOR=$MPI_FLAVOR REPEATS=$REPEATS nodes=${SLURM_JOB_NODELIST:-local}"
}

# fp_find_programs: FP_PROG_PATH[program] for each program found; the others are skipped.
fp_find_programs() {
    local prog path
    declare -gA FP_PROG_PATH=()
    for prog in "${FP_PROGRAMS[@]}"; do
        if path=$(fp_find_program "$prog"); then
            FP_PROG_PATH[$prog]=$path
        else
            fp_log "SKIP program $prog: not found in ${FABPERF_BIN:-PATH}"
            echo "program $prog: not found in ${FABPERF_BIN:-PATH}" >>"$FABPERF_RUN_DIR/skipped.txt"
        fi
    done
}

# fp_select_configs: FP_CONFIGS, the matrix lines to run (FABPERF_ONLY, once each, available);
# FP_SKIPPED counts those whose check said no.
fp_select_configs() {
    local line label envs largs name reason env_words
    declare -A seen=()
    FP_CONFIGS=()
    FP_SKIPPED=0
    for line in "${FP_MATRIX[@]}"; do
        IFS='|' read -r label envs largs <<<"$line"
        [[ -n $label ]] || continue
        if [[ -n ${FABPERF_ONLY:-} && ! $label =~ $FABPERF_ONLY ]]; then continue; fi
        name=$(fp_sanitise "$label")
        if [[ -n ${seen[$name]:-} ]]; then
            fp_log "configuration '$label' listed twice; the second one is ignored"
            continue
        fi
        seen[$name]=1
        read -r -a env_words <<<"$envs"
        if ! reason=$(FP_CHECK_LABEL=$label fp_check_config "${env_words[@]}"); then
            fp_log "SKIP $label: ${reason:-not available}"
            echo "$label: ${reason:-not available}" >>"$FABPERF_RUN_DIR/skipped.txt"
            FP_SKIPPED=$((FP_SKIPPED + 1))
            continue
        fi
        FP_CONFIGS+=("$line")
    done
}

# fp_program_words PROGRAM LAUNCH-WORDS: FP_PARGS, the program's arguments (FABPERF_ARGS, the GPU
# arguments for @gpu configurations, the configuration's @arg= words, the template's
# fp_program_args).
fp_program_words() {
    local prog=$1 largs=$2 gargs=() pline w
    FP_PARGS=()
    read -r -a FP_PARGS <<<"${FABPERF_ARGS:-}"
    if [[ " $largs " == *" @gpu "* ]]; then
        read -r -a gargs <<<"${FABPERF_GPU_ARGS:--d cuda}"
        FP_PARGS+=("${gargs[@]}")
    fi
    read -r -a gargs <<<"$largs"
    for w in "${gargs[@]}"; do
        [[ $w == @arg=* ]] && FP_PARGS+=("${w#@arg=}")
    done
    if declare -F fp_program_args >/dev/null; then
        while IFS= read -r pline; do
            [[ -n $pline ]] && FP_PARGS+=("$pline")
        done < <(fp_program_args "$prog")
    fi
}

# fp_launch CONFIG-INDEX REPEAT PROGRAM: one launch, its log, its line in launches.tsv; returns 1
# when it failed, 2 when the command could not be built.
fp_launch() {
    local i=$1 repeat=$2 prog=$3 label envs largs base out rc t0 t1 status=ok
    IFS='|' read -r label envs largs <<<"${FP_CONFIGS[$i]}"
    base=$(fp_sanitise "$label").$repeat.$prog
    out=$FABPERF_RUN_DIR/$base.json
    fp_program_words "$prog" "$largs"
    fp_build_cmd "${FP_PROG_PATH[$prog]}" "$envs" "$largs" \
        --format json --output "$out" --label "$label" "${FP_PARGS[@]}" || return 2
    fp_log "launch $label repeat $repeat $prog"
    {
        printf '#'
        printf ' %q' "${FP_CMD[@]}"
        printf '\n'
    } >"$FABPERF_RUN_DIR/$base.log"
    t0=$(date +%s.%N)
    timeout "$FABPERF_TIMEOUT" "${FP_CMD[@]}" >>"$FABPERF_RUN_DIR/$base.log" 2>&1 </dev/null
    rc=$?
    t1=$(date +%s.%N)
    if [[ $rc -eq 3 ]] && fp_json_complete "$out"; then
        status="expect-failed(3)" # complete results; an --expect or --expect-nic failed
        fp_log "expectation failed: $label repeat $repeat $prog, see $FABPERF_RUN_DIR/$base.log"
    elif [[ $rc -eq 4 ]] && fp_json_complete "$out"; then
        status="expect-inconclusive(4)" # complete results; an --expect size was inconclusive
        fp_log "expectation inconclusive: $label repeat $repeat $prog, see $FABPERF_RUN_DIR/$base.log"
    elif [[ $rc -ne 0 ]] || ! fp_json_complete "$out"; then
        status="failed($rc)"
        fp_log "FAILED $label repeat $repeat $prog (exit $rc), see $FABPERF_RUN_DIR/$base.log"
        tail -n 5 "$FABPERF_RUN_DIR/$base.log" | sed 's/^/    /'
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$repeat" "$prog" "$status" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" "$base.json" \
        >>"$FABPERF_RUN_DIR/launches.tsv"
    [[ $status == ok || $status == expect-* ]]
}

fp_main() {
    local line i repeat prog rc launches=() failed=0 ran=0
    if [[ -n ${FABPERF_EXTRA_CONFIGS:-} ]]; then
        while IFS= read -r line; do
            [[ -n $line ]] && FP_MATRIX+=("$line")
        done <<<"$FABPERF_EXTRA_CONFIGS"
    fi
    fp_run_folder || return 1
    if ! fp_default_launcher >/dev/null; then
        fp_log "unknown MPI_FLAVOR '$MPI_FLAVOR' (openmpi, mpich, intelmpi, srun)"
        return 1
    fi
    fp_preflight || return 1
    fp_find_programs
    if [[ ${#FP_PROG_PATH[@]} -eq 0 ]]; then
        fp_log "no program to run"
        return 0
    fi
    fp_select_configs
    for ((i = 0; i < ${#FP_CONFIGS[@]}; i++)); do
        for ((repeat = 1; repeat <= REPEATS; repeat++)); do
            for prog in "${FP_PROGRAMS[@]}"; do
                [[ -n ${FP_PROG_PATH[$prog]:-} ]] && launches+=("$i $repeat $prog")
            done
        done
    done
    fp_log "${#FP_CONFIGS[@]} configuration(s), $FP_SKIPPED skipped, ${#launches[@]} launch(es) in shuffled order"
    while read -r i repeat prog; do
        [[ -n $i ]] || continue
        fp_launch "$i" "$repeat" "$prog"
        rc=$?
        [[ $rc -eq 2 ]] && return 1
        if [[ $rc -eq 0 ]]; then ran=$((ran + 1)); else failed=$((failed + 1)); fi
    done < <(printf '%s\n' "${launches[@]}" | shuf)
    fp_log "done: $ran launch(es) ok, $failed failed, $FP_SKIPPED configuration(s) skipped; results in $FABPERF_RUN_DIR"
    [[ $failed -eq 0 ]]
}

# fp_have_gpus: an NVIDIA GPU is visible on all nodes
fp_have_gpus() {
    if ! fp_on_all_nodes sh -c 'nvidia-smi -L 2>/dev/null | grep -q GPU' 2>/dev/null; then
        echo "no NVIDIA GPU visible on every node (nvidia-smi -L); add --gpus-per-node=1 if the cluster needs it"
        return 1
    fi
}

# fp_have_ib: at least one InfiniBand/RoCE device on all nodes
fp_have_ib() {
    # shellcheck disable=SC2016
    if ! fp_on_all_nodes sh -c 'ls /sys/class/infiniband/* >/dev/null 2>&1' 2>/dev/null; then
        echo "no InfiniBand/RoCE device on every node (/sys/class/infiniband)"
        return 1
    fi
}
