#!/bin/sh
# All-pairs sweeps on oversubscribed ranks: for each mode the matrix is complete, ordered and
# symmetric where it must be, every cell of one batch (tests/mpi/check_matrix.py); text output
# streams a line per round; --expect judges every cell (exit 3, a verdict record per failed cell);
# bad options exit 2 with one line.
# Sizes: Open MPI yields the processor when oversubscribed: 16 ranks in every mode, 64 ranks in
# shift and sampled mode (isolated is 4032 one-pair steps). MPICH ch4:ucx polls without yielding:
# each barrier of 16 ranks on 2 cores costs ~0.1 s, so there 8 ranks in every mode and 16 ranks
# sampled.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}

matrix_ok() {
    "$PYTHON3" "$FABPERF_TESTS_DIR/mpi/check_matrix.py" "$work/out" "$1" "$2"
}

# sweep NP MODE: both programs in MODE, the matrix checked.
sweep() {
    run_job "$1" sm fabperf_allpairs -m 4K:4K -i 2 -x 1 -W 4 --mode "$2" --rounds 3 --format json
    check "allpairs $1 ranks --mode $2: exit 0" rc_is 0
    check "allpairs $1 ranks --mode $2: matrix complete, ordered, symmetric, one batch" matrix_ok "$1" "$2"
    run_job "$1" sm fabperf_allpairs_lat -m 8:8 -i 2 -x 1 --mode "$2" --rounds 3 --format json
    check "allpairs_lat $1 ranks --mode $2: exit 0" rc_is 0
    check "allpairs_lat $1 ranks --mode $2: matrix complete, ordered, symmetric, one batch" matrix_ok "$1" "$2"
}

if [ "${FABPERF_MPI_FLAVOR:-openmpi}" = mpich ]; then
    small=8 large=16 large_modes=sampled
else
    small=16 large=64 large_modes="shift sampled"
fi
for mode in shift sampled isolated; do
    sweep "$small" "$mode"
done
for mode in $large_modes; do
    run_job "$large" sm fabperf_allpairs -m 4K:4K -i 1 -x 1 -W 4 --mode "$mode" --rounds 2 --format json
    check "allpairs $large ranks --mode $mode: exit 0" rc_is 0
    check "allpairs $large ranks --mode $mode: matrix complete, ordered, symmetric, one batch" matrix_ok "$large" "$mode"
done

run_job 4 sm fabperf_allpairs -m 4K:4K -i 2 -x 1 -W 4
check "allpairs text: exit 0, a line per round, the matrix, one row" sh -c \
    "[ $rc -eq 0 ] && [ \$(grep -c '^# round [1-3]/3 (shift [1-3]): median ' '$work/out') -eq 3 ] && grep -q '^# matrix at 4096 bytes, bandwidth (MB/s)' '$work/out' && [ \$(grep -c '^4096 ' '$work/out') -eq 1 ]"

# --expect per cell: a threshold no cell reaches fails all 12, one that every cell passes fails none.
run_job 4 sm fabperf_allpairs -m 4K:8K -i 8 -x 1 -W 4 --expect 'bw>=1e9@8K' --format json
check "allpairs --expect bw>=1e9@8K: exit 3" rc_is 3
check "allpairs --expect bw>=1e9@8K: 12 failed cells at 8K, none at 4K; the 8K row fails, 4K unjudged" json_check "$work/out" \
    "sorted((r['size'], tuple(r['ranks'])) for r in records if r['type'] == 'verdict') == sorted((8192, (i, j)) for i in range(4) for j in range(4) if i != j) and all(r['threshold'] == 1e9 and r['value'] < 1e9 for r in records if r['type'] == 'verdict') and [(r['size'], r['verdict']) for r in rows] == [(4096, None), (8192, 'fail')]"
check "allpairs --expect: one line on standard error, naming the cells" sh -c \
    "[ \$(grep -c 'expectation failed' '$work/err') -eq 1 ] && grep -q 'size 8192: fail: .*cells: 12 fail' '$work/err'"
# A batch of 1, so that each cell has its 8 samples and a CI: the automatic batch (>= 100 timer
# overheads) grows to 2-8 where MPICH's polling ranks answer an 8-byte ping in 0.3 us, and a cell of
# under 6 samples is rightly inconclusive (seen in CI: exit 4, 12 cells inconclusive).
run_job 4 sm fabperf_allpairs_lat -m 8:8 -i 8 -x 1 --batch 1 --expect 'lat<=1e6' --format json
lat_passes() {
    [ "$rc" -eq 0 ] && ! grep -q '"type":"verdict"' "$work/out" && grep -q '"verdict":"pass"' "$work/out" && return 0
    echo "  exit $rc; stderr:"
    head -5 "$work/err" | sed 's/^/    /'
    grep -E '"type":"(row|verdict|finding|judge|end)"' "$work/out" | cut -c1-200 | sed 's/^/    /'
    return 1
}
check "allpairs_lat --expect lat<=1e6: exit 0, no failed cell, the row passes" lat_passes

# --backend nccl: device buffers only, no staging; a build without NCCL says how to get it.
if [ "${FABPERF_NCCL_BUILT:-no}" = yes ]; then
    run_job 2 sm fabperf_allpairs --backend nccl H H
    check "--backend nccl H H: exit 2, one line naming the placements accepted" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs:' '$work/err') -eq 1 ] && grep -q -- '--backend nccl: buffers must be on the GPU (accepted placements: D D' '$work/err'"
    run_job 2 sm fabperf_mbw_mr --backend nccl --staging
    check "mbw_mr --backend nccl --staging: exit 2, one line" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_mbw_mr:' '$work/err') -eq 1 ] && grep -q -- '--staging: --backend nccl moves device buffers itself' '$work/err'"
else
    run_job 2 sm fabperf_allpairs_lat --backend nccl
    check "--backend nccl without NCCL: exit 2, one line saying how to build it" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs_lat:' '$work/err') -eq 1 ] && grep -q 'built without NCCL (reconfigure with --with-cuda=PATH --with-nccl=PATH)' '$work/err'"
fi
run_job 2 sm fabperf_allpairs -T double
check "-T (a collective's option): exit 2" rc_is 2

run_job 2 sm fabperf_allpairs --mode diagonal
check "--mode diagonal: exit 2, one line naming the choices" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs:' '$work/err') -eq 1 ] && grep -q 'shift' '$work/err'"
run_job 2 sm fabperf_allpairs --expect 'bw>100'
check "--expect bw>100: exit 2, one line with the accepted forms" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs: --expect: ' '$work/err') -eq 1 ] && grep -q 'accepted: bw>=N' '$work/err'"
run_job 2 sm fabperf_allpairs_lat --expect 'bw>=100'
check "allpairs_lat --expect bw>=100: exit 2, latency only" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs_lat:' '$work/err') -eq 1 ] && grep -q 'measures latency: lat<=N' '$work/err'"
finish
