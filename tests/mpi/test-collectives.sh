#!/bin/sh
# Every collective on the MPI backend with 1, 2 and 4 ranks (4 oversubscribe a small machine):
# validation on, nccl-tests text layout parsed, algbw and busbw checked against the printed time
# and each collective's busbw factor; JSON checked at full precision.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_COLL_BIN:?run through make check}

# factor NAME NP: busbw / algbw of that collective with NP ranks.
factor() {
    case $1 in
    allreduce) "$PYTHON3" -c "print(2 * ($2 - 1) / $2)" ;;
    allgather | reduce_scatter | alltoall) "$PYTHON3" -c "print(($2 - 1) / $2)" ;;
    *) echo 1 ;;
    esac
}

# unit NAME NP SIZE: the sizes of a collective round down to whole elements per rank.
unit() {
    case $1 in
    allgather | reduce_scatter | alltoall) echo $(($3 * $2)) ;;
    *) echo "$3" ;;
    esac
}

# options NAME NP TYPE OP: the options each collective takes.
options() {
    case $1 in
    allreduce | reduce_scatter) echo "-T $3 -o $4" ;;
    # Root 0: another root's in-place form is not run on MPICH 4.0 (checked below).
    reduce) echo "-T $3 -o $4 -r 0" ;;
    bcast) echo "-T $3 -r $(($2 - 1))" ;;
    *) echo "-T $3" ;;
    esac
}

for np in 1 2 4; do
    for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
        case $np in
        1) type=float op=sum size=4 ;;
        2) type=int64 op=max size=8 ;;
        *) type=int32 op=prod size=4 ;;
        esac
        [ "$program" = alltoall ] && [ "$np" = 4 ] && type=double size=8
        f=$(factor "$program" "$np")
        one=""
        [ "$np" = 1 ] && one=--one-rank
        u=$(unit "$program" "$np" "$size")
        root=-1
        case $program in bcast) root=$((np - 1)) ;; reduce) root=0 ;; esac
        # shellcheck disable=SC2046 # options are a word list by design
        run_job "$np" sm "fabperf_$program" -m 1:256K -f 8 -i 20 -x 2 -c --layout full $(options "$program" "$np" "$type" "$op")
        check "$program np=$np $type: exit 0" rc_is 0
        # shellcheck disable=SC2086 # $one is empty or one word
        check "$program np=$np $type: nccl-tests rows, #wrong 0, busbw = size / time x $f" \
            check_output text "$work/out" --metric collective --max 262144 --factor 8 --unit "$u" \
            --busbw-factor "$f" --validated --type "$type" --root "$root" $one
        # shellcheck disable=SC2046
        run_job "$np" sm "fabperf_$program" -m 64:4K -f 4 -i 20 -x 2 -c --format json \
            $(options "$program" "$np" double sum)
        check "$program np=$np --format json: exit 0" rc_is 0
        # shellcheck disable=SC2086
        check "$program np=$np --format json: meta collective, rows exact algbw/busbw" \
            check_output json "$work/out" --metric collective --min 64 --max 4096 --factor 4 \
            --unit "$(unit "$program" "$np" 8)" --busbw-factor "$f" --validated --program "fabperf_$program" $one
    done
done

# Reduce in place at a root other than 0: run and validated, except on the MPICH releases that
# crash in it (4.0 to 4.1.1, Debian's 4.0.2 among them), where the in-place variant is not called,
# its columns stay empty and the backend line says why; the out-of-place variant still runs.
run_job 2 sm fabperf_reduce -r 1 -m 8K:8K -i 20 -x 2 -c --format json
check "reduce -r 1 from 8K: exit 0" rc_is 0
check "the header's batch rule is whole, not cut at its buffer's end (it ends '(batch means)')" \
    json_check "$work/out" "meta['batch'].endswith('no min/p99/max/stddev (batch means)')"
if [ "${FABPERF_MPI_FLAVOR:-}" = mpich ]; then
    check "reduce -r 1 on MPICH 4.0: in place not run, named in the backend line; out of place validated" \
        json_check "$work/out" "('pmodels/mpich#6540' in meta['backend'] and rows[0]['ip_p50_us'] is None
                                 and rows[0]['ip_wrong'] is None and rows[0]['oop_wrong'] == 0)"
else
    check "reduce -r 1: in place run and validated" \
        json_check "$work/out" "('in-place not run' not in meta['backend'] and rows[0]['ip_p50_us'] > 0
                                 and rows[0]['ip_wrong'] == 0 and rows[0]['oop_wrong'] == 0)"
fi

# One rank: no busbw (nothing crosses between ranks), and the header says so.
run_job 1 sm fabperf_allreduce -m 1K:1K -i 10 -x 2
check "allreduce np=1: header explains busbw n/a" grep -q "^# busbw: n/a with n = 1 (no data crosses between ranks)" "$work/out"

# Options of the collectives: refused where they do not apply or cannot work, exit 2.
expect_usage() {
    expected=$1 np=$2 program=$3
    shift 3
    run_job "$np" sm "$program" "$@"
    if [ "$rc" -ne 2 ] || ! grep -F -q -- "$expected" "$work/err"; then
        echo "  exit $rc; stderr:"
        sed 's/^/    /' "$work/err" | head -5
        return 1
    fi
}
check "-T half with --backend mpi -> exit 2" \
    expect_usage "half is not available with --backend mpi" 2 fabperf_allreduce -T half
check "-r beyond the ranks -> exit 2" expect_usage "-r/--root: 2 is out of range (accepted: 0 to 1" 2 fabperf_bcast -r 2
check "-o on bcast -> exit 2" expect_usage "-o/--op does not apply to fabperf_bcast" 2 fabperf_bcast -o sum
check "-W on allreduce -> exit 2" expect_usage "-W/--window does not apply" 2 fabperf_allreduce -W 4
check "--backend nccl with H H -> exit 2" \
    expect_usage "--backend nccl" 2 fabperf_allreduce --backend nccl H H
FABPERF_BIN=${FABPERF_PT2PT_BIN:?}
check "--backend on a point-to-point program -> exit 2" \
    expect_usage "--backend does not apply to fabperf_latency" 2 fabperf_latency --backend mpi
finish
