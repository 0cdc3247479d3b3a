# shellcheck shell=bash
# Common code of the fabperf sbatch templates; sourced, not executed.
#
# A template defines, then calls fp_main:
#   FP_MATRIX         array of "label|ENV=VAL ENV2=VAL2|launcher-args"
#                     (values and arguments must not contain spaces or "|")
#   FP_PROGRAMS       array of program names (found in $FABPERF_BIN or PATH)
#   fp_check_config   function ENV=VAL...: return 0 if the configuration can run
#                     on the allocated nodes, else print the reason and return 1
#   fp_launcher_args  optional function: prints extra launcher arguments for
#                     the current MPI_FLAVOR, one a line
#   fp_program_args   optional function PROGRAM: prints extra program arguments,
#                     one a line
#
# The launcher-args field may also hold these words, which are not passed on:
#   @same-node  all ranks are placed on the first allocated node (shared memory)
#   @gpu        the programs get $FABPERF_GPU_ARGS [-d cuda] (device buffers)
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
# failed, or failed(EXIT)), RUN_DIR/skipped.txt; RUN_DIR/preflight.json (its
# JSON Lines), preflight.log and preflight.status (its exit status, or "off",
# "not found").

REPEATS=${REPEATS:-5}
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

# Build the launch command into the array FP_CMD.
# fp_build_cmd PROGRAM_PATH "ENV=VAL ..." "launcher-args" PROGRAM-ARGS...
fp_build_cmd() {
    local prog=$1 envs=$2 largs=$3 kv launcher extra=() mline
    shift 3
    local env_words=() larg_words=() run_words=()
    read -r -a env_words <<<"$envs"
    read -r -a larg_words <<<"$largs"
    local same_node='' w kept=()
    for w in "${larg_words[@]}"; do
        if [[ $w == @same-node ]]; then
            same_node=$(scontrol show hostnames "${SLURM_JOB_NODELIST:-}" 2>/dev/null | head -n 1)
            same_node=${same_node:-localhost}
        elif [[ $w == @gpu ]]; then
            :
        else
            kept+=("$w")
        fi
    done
    larg_words=("${kept[@]}")
    read -r -a run_words <<<"${MPIRUN_ARGS:-}"
    if declare -F fp_launcher_args >/dev/null; then
        while IFS= read -r mline; do
            [[ -n $mline ]] && extra+=("$mline")
        done < <(fp_launcher_args)
    fi
    launcher=${MPIRUN:-$(fp_default_launcher)}
    FP_CMD=(env "${env_words[@]}" "$launcher")
    case $MPI_FLAVOR in
    openmpi)
        if [[ $(id -u) -eq 0 ]]; then
            FP_CMD+=(--allow-run-as-root)
        fi
        FP_CMD+=(-np "${SLURM_NTASKS:-2}")
        if [[ -n $same_node ]]; then
            FP_CMD+=(--host "$same_node:${SLURM_NTASKS:-2}" --oversubscribe)
        elif [[ -n ${SLURM_NTASKS_PER_NODE:-} ]]; then
            FP_CMD+=(--map-by "ppr:${SLURM_NTASKS_PER_NODE}:node")
        fi
        FP_CMD+=(--bind-to none)
        for kv in "${env_words[@]}"; do
            FP_CMD+=(-x "$kv")
        done
        ;;
    mpich | intelmpi)
        FP_CMD+=(-n "${SLURM_NTASKS:-2}")
        if [[ -n $same_node ]]; then
            FP_CMD+=(-hosts "$same_node")
        elif [[ -n ${SLURM_NTASKS_PER_NODE:-} ]]; then
            FP_CMD+=(-ppn "$SLURM_NTASKS_PER_NODE")
        fi
        for kv in "${env_words[@]}"; do
            FP_CMD+=(-genv "${kv%%=*}" "${kv#*=}")
        done
        ;;
    srun)
        FP_CMD+=("--mpi=$SRUN_MPI" --kill-on-bad-exit=1)
        if [[ -n $same_node ]]; then
            FP_CMD+=(--nodes=1 --ntasks="${SLURM_NTASKS:-2}" --nodelist="$same_node" --overcommit)
        fi
        ;;
    *)
        fp_log "unknown MPI_FLAVOR '$MPI_FLAVOR' (openmpi, mpich, intelmpi, srun)"
        return 1
        ;;
    esac
    FP_CMD+=("${extra[@]}" "${run_words[@]}" "${larg_words[@]}" "$prog" "$@")
}

# Check that FILE holds a complete fabperf JSON Lines run.
fp_json_complete() {
    [[ -s $1 ]] && tail -n 1 "$1" | grep -q '"type" *: *"end"' &&
        tail -n 1 "$1" | grep -q '"status" *: *"complete"'
}

# One rank per node of fabperf_preflight into the run folder. Returns 1 only when it failed and
# FABPERF_PREFLIGHT_STOP=1.
fp_preflight() {
    local prog nodes launcher rc cmd=() run_words=() pargs=() dir=$FABPERF_RUN_DIR
    if [[ ${FABPERF_PREFLIGHT:-} == off ]]; then
        echo off >"$dir/preflight.status"
        return 0
    fi
    prog=${FABPERF_PREFLIGHT:-}
    if [[ -z $prog ]] && ! prog=$(fp_find_program fabperf_preflight); then
        fp_log "preflight: fabperf_preflight not found in ${FABPERF_BIN:-PATH}; not run"
        echo "not found" >"$dir/preflight.status"
        return 0
    fi
    nodes=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-1}}
    launcher=${MPIRUN:-$(fp_default_launcher)}
    case $MPI_FLAVOR in
    openmpi)
        cmd=("$launcher")
        [[ $(id -u) -eq 0 ]] && cmd+=(--allow-run-as-root)
        cmd+=(-np "$nodes" --map-by node --bind-to none)
        ;;
    mpich | intelmpi) cmd=("$launcher" -n "$nodes" -ppn 1) ;;
    srun) cmd=("$launcher" "--mpi=$SRUN_MPI" --ntasks="$nodes" --ntasks-per-node=1) ;;
    esac
    read -r -a run_words <<<"${MPIRUN_ARGS:-}"
    read -r -a pargs <<<"${FABPERF_PREFLIGHT_ARGS:-}"
    if [[ ! -x $prog ]]; then
        fp_log "preflight: $prog is not an executable; not run"
        echo "not found" >"$dir/preflight.status"
        return 0
    fi
    cmd+=("${run_words[@]}" "$prog" --format json --output "$dir/preflight.json" "${pargs[@]}")
    {
        printf '#'
        printf ' %q' "${cmd[@]}"
        printf '\n'
    } >"$dir/preflight.log"
    timeout "$FABPERF_TIMEOUT" "${cmd[@]}" >>"$dir/preflight.log" 2>&1 </dev/null
    rc=$?
    echo "$rc" >"$dir/preflight.status"
    if [[ $rc -eq 0 ]]; then
        fp_log "preflight: passed on $nodes node(s), $dir/preflight.json"
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

fp_main() {
    local line label envs largs name repeat prog path base out rc t0 t1 i status
    local configs=() launches=() skipped=0 failed=0 ran=0 reason env_words
    declare -A prog_path=()

    if [[ -n ${FABPERF_EXTRA_CONFIGS:-} ]]; then
        while IFS= read -r line; do
            [[ -n $line ]] && FP_MATRIX+=("$line")
        done <<<"$FABPERF_EXTRA_CONFIGS"
    fi
    FABPERF_RUN_DIR=${FABPERF_RUN_DIR:-${FABPERF_RUN_ROOT:-${SLURM_SUBMIT_DIR:-.}}/fabperf-${SLURM_JOB_NAME:-local}-${SLURM_JOB_ID:-$$}}
    mkdir -p "$FABPERF_RUN_DIR" || return 1
    : >"$FABPERF_RUN_DIR/skipped.txt"
    printf 'label\trepeat\tprogram\tstatus\tseconds\tfile\n' >"$FABPERF_RUN_DIR/launches.tsv"
    fp_log "run folder $FABPERF_RUN_DIR; MPI_FLAVOR=$MPI_FLAVOR REPEATS=$REPEATS nodes=${SLURM_JOB_NODELIST:-local}"

    if ! fp_default_launcher >/dev/null; then
        fp_log "unknown MPI_FLAVOR '$MPI_FLAVOR' (openmpi, mpich, intelmpi, srun)"
        return 1
    fi
    fp_preflight || return 1

    for prog in "${FP_PROGRAMS[@]}"; do
        if path=$(fp_find_program "$prog"); then
            prog_path[$prog]=$path
        else
            fp_log "SKIP program $prog: not found in ${FABPERF_BIN:-PATH}"
            echo "program $prog: not found in ${FABPERF_BIN:-PATH}" >>"$FABPERF_RUN_DIR/skipped.txt"
        fi
    done
    if [[ ${#prog_path[@]} -eq 0 ]]; then
        fp_log "no program to run"
        return 0
    fi

    declare -A seen=()
    for line in "${FP_MATRIX[@]}"; do
        IFS='|' read -r label envs largs <<<"$line"
        [[ -n $label ]] || continue
        if [[ -n ${FABPERF_ONLY:-} && ! $label =~ $FABPERF_ONLY ]]; then
            continue
        fi
        name=$(fp_sanitise "$label")
        if [[ -n ${seen[$name]:-} ]]; then
            fp_log "configuration '$label' listed twice; the second one is ignored"
            continue
        fi
        seen[$name]=1
        read -r -a env_words <<<"$envs"
        if ! reason=$(fp_check_config "${env_words[@]}"); then
            fp_log "SKIP $label: ${reason:-not available}"
            echo "$label: ${reason:-not available}" >>"$FABPERF_RUN_DIR/skipped.txt"
            skipped=$((skipped + 1))
            continue
        fi
        configs+=("$line")
    done

    for ((i = 0; i < ${#configs[@]}; i++)); do
        for ((repeat = 1; repeat <= REPEATS; repeat++)); do
            for prog in "${FP_PROGRAMS[@]}"; do
                [[ -n ${prog_path[$prog]:-} ]] && launches+=("$i $repeat $prog")
            done
        done
    done
    fp_log "${#configs[@]} configuration(s), $skipped skipped, ${#launches[@]} launch(es) in shuffled order"

    while read -r i repeat prog; do
        [[ -n $i ]] || continue
        IFS='|' read -r label envs largs <<<"${configs[$i]}"
        base=$(fp_sanitise "$label").$repeat.$prog
        out=$FABPERF_RUN_DIR/$base.json
        local pargs=() gargs=() pline
        read -r -a pargs <<<"${FABPERF_ARGS:-}"
        if [[ " $largs " == *" @gpu "* ]]; then
            read -r -a gargs <<<"${FABPERF_GPU_ARGS:--d cuda}"
            pargs+=("${gargs[@]}")
        fi
        if declare -F fp_program_args >/dev/null; then
            while IFS= read -r pline; do
                [[ -n $pline ]] && pargs+=("$pline")
            done < <(fp_program_args "$prog")
        fi
        fp_build_cmd "${prog_path[$prog]}" "$envs" "$largs" \
            --format json --output "$out" --label "$label" "${pargs[@]}" || return 1
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
        if [[ $rc -eq 0 ]] && fp_json_complete "$out"; then
            status=ok
            ran=$((ran + 1))
        elif [[ $rc -eq 3 ]] && fp_json_complete "$out"; then
            status="expect-failed(3)"
            ran=$((ran + 1))
            fp_log "expectation failed: $label repeat $repeat $prog, see $FABPERF_RUN_DIR/$base.log"
        else
            status="failed($rc)"
            failed=$((failed + 1))
            fp_log "FAILED $label repeat $repeat $prog (exit $rc), see $FABPERF_RUN_DIR/$base.log"
            tail -n 5 "$FABPERF_RUN_DIR/$base.log" | sed 's/^/    /'
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$repeat" "$prog" "$status" \
            "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" "$base.json" \
            >>"$FABPERF_RUN_DIR/launches.tsv"
    done < <(printf '%s\n' "${launches[@]}" | shuf)

    fp_log "done: $ran launch(es) ok, $failed failed, $skipped configuration(s) skipped; results in $FABPERF_RUN_DIR"
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
