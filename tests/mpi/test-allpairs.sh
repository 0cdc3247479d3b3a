#!/bin/sh
# All-pairs sweeps with 16 and 64 oversubscribed ranks: for each mode the matrix is complete,
# ordered and symmetric where it must be (tests/mpi/check_matrix.py); text output streams a line
# per round; bad options exit 2 with one line. 64 ranks: shift and sampled (isolated is 4032
# launches of one pair: minutes here).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}

matrix_ok() {
    "$PYTHON3" "$FABPERF_TESTS_DIR/mpi/check_matrix.py" "$work/out" "$1" "$2"
}

for mode in shift sampled isolated; do
    run_job 16 sm fabperf_allpairs -m 4K:4K -i 2 -x 1 -W 4 --mode "$mode" --rounds 3 --format json
    check "allpairs 16 ranks --mode $mode: exit 0" rc_is 0
    check "allpairs 16 ranks --mode $mode: matrix complete, ordered, symmetric" matrix_ok 16 "$mode"
    run_job 16 sm fabperf_allpairs_lat -m 8:8 -i 4 -x 1 --mode "$mode" --rounds 3 --format json
    check "allpairs_lat 16 ranks --mode $mode: exit 0" rc_is 0
    check "allpairs_lat 16 ranks --mode $mode: matrix complete, ordered, symmetric" matrix_ok 16 "$mode"
done
for mode in shift sampled; do
    run_job 64 sm fabperf_allpairs -m 4K:4K -i 2 -x 1 -W 4 --mode "$mode" --rounds 4 --format json
    check "allpairs 64 ranks --mode $mode: exit 0" rc_is 0
    check "allpairs 64 ranks --mode $mode: matrix complete, ordered, symmetric" matrix_ok 64 "$mode"
done

run_job 4 sm fabperf_allpairs -m 4K:4K -i 2 -x 1 -W 4
check "allpairs text: exit 0, a line per round, the matrix, one row" sh -c \
    "[ $rc -eq 0 ] && [ \$(grep -c '^# round [1-3]/3 (shift [1-3]): median ' '$work/out') -eq 3 ] && grep -q '^# matrix at 4096 bytes, bandwidth (MB/s)' '$work/out' && [ \$(grep -c '^4096 ' '$work/out') -eq 1 ]"

run_job 2 sm fabperf_allpairs --mode diagonal
check "--mode diagonal: exit 2, one line naming the choices" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs:' '$work/err') -eq 1 ] && grep -q 'shift' '$work/err'"
run_job 2 sm fabperf_allpairs --expect 'bw>100'
check "--expect bw>100: exit 2, one line with the accepted forms" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs: --expect: ' '$work/err') -eq 1 ] && grep -q 'accepted: bw>=N' '$work/err'"
finish
