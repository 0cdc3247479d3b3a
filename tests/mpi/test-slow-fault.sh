#!/bin/sh
# A slow rank or link (tests/faults/slow.c: receives of data on the faulty side are seen complete
# 10x later) shows in the all-pairs matrix in its own direction only: a slow sender as its row, a
# slow receiver as its column, a slow link as its one cell; the reverse direction stays normal.
# The blocking path (MPI_Recv) slows a point-to-point ping-pong.
# Isolated mode for bandwidth: pairs measured one at a time do not slow each other, so that a cell
# shows only its own fault. 4 ranks on a 2-core machine: each run is well under a second.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
: "${FABPERF_SLOW_LIB:?run through make check}"
PT2PT_BIN=${FABPERF_PT2PT_BIN:?run through make check}
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}
# MPICH ch4:ucx polls without yielding: with more ranks than cores, its cells are the scheduler's.
if [ "${FABPERF_MPI_FLAVOR:-openmpi}" != openmpi ]; then
    echo "SKIP: fault-injection sweeps need ranks that yield when oversubscribed (Open MPI)"
    exit 77
fi

# direction_ok SLOW FAST_LIMIT FILE...: in the matrix of the sweeps FILE..., each cell its best over
# them (other work on a shared machine only slows a cell, where the fault slows its cells in every
# sweep), with m the median of the cells that do not involve rank 1 and a cell's slowdown m / cell
# (bandwidth) or cell / m (latency): every cell in SLOW (a Python expression of the cell (i, j)) has
# a slowdown of at least 4, every other cell with rank 1 at most FAST_LIMIT. Prints the slowdowns
# of rank 1's cells.
direction_ok() {
    "$PYTHON3" -c '
import json, statistics, sys
matrices = [[r for r in map(json.loads, open(f)) if r.get("type") == "matrix"][0] for f in sys.argv[3:]]
n, rate, quantity = len(matrices[0]["nodes"]), matrices[0]["better"] == "higher", matrices[0]["quantity"]
best = max if rate else min
cells = [(i, j) for i in range(n) for j in range(n) if i != j]
values = {c: best(m["values"][c[0]][c[1]] for m in matrices) for c in cells}
m = statistics.median(values[c] for c in cells if 1 not in c)
slowdown = {c: m / values[c] if rate else values[c] / m for c in cells if 1 in c}
slow = {c for c in slowdown if eval(sys.argv[1], {"i": c[0], "j": c[1]})}
print("  slowdowns (%s, best of %d sweep(s), median of the others %.4g): " % (quantity, len(matrices), m)
      + " ".join("%d->%d %.2f%s" % (i, j, s, "*" if (i, j) in slow else "") for (i, j), s in sorted(slowdown.items())))
ok = slow and all(s >= 4 if c in slow else s <= float(sys.argv[2]) for c, s in slowdown.items())
sys.exit(0 if ok else 1)' "$@"
}

# slow_sweep SLOW FAST_LIMIT SETTINGS PROGRAM [ARGS...]: 4-rank sweeps with the fault until their
# best cells show it (direction_ok), at most 3: a fault in the wrong direction fails every time.
slow_sweep() {
    sweep_slow=$1 sweep_limit=$2 sweep_settings=$3
    shift 3
    for sweep_try in 1 2 3; do
        run_with_slow 4 sm "$sweep_settings" "$@"
        rc_is 0 || return 1
        cp "$work/out" "$work/sweep$sweep_try"
        echo "  try $sweep_try (foreign load $foreign):"
        # shellcheck disable=SC2046 # the file names, without blanks
        direction_ok "$sweep_slow" "$sweep_limit" $(seq -f "$work/sweep%g" 1 "$sweep_try") && return 0
    done
    return 1
}

# Bandwidth, one pair at a time, windows of 8 x 64 KB. Not slowed: at least half the others' rate.
for fault in "sender:i == 1" "receiver:j == 1" "link FP_SLOW_PEER=2:(i, j) == (1, 2)"; do
    role=${fault%%:*} slow=${fault#*:}
    check "allpairs, rank 1 slow as $role: cells with $slow at most 1/4 of the others' median, rank 1's other cells at least 1/2" \
        slow_sweep "$slow" 2 "FP_SLOW_RANK=1 FP_SLOW_AS=$role FP_SLOW_FACTOR=10" \
        fabperf_allpairs -m 64K:64K -i 8 -x 1 -W 8 --mode isolated --format json
done

# Latency, all pairs at once. A sample is a single ping whose receive is posted as the sample starts,
# often after the ping has arrived: its wait, which the factor scales, is then about nothing, so the
# fixed 1 ms per ping carries the fault here. Cells of ~10 us on shared cores: the reverse direction
# may be up to 3x the median without the fault being wrong.
check "allpairs_lat, rank 1 slow as receiver: cells x -> 1 at least 4x the others' median, 1 -> x at most 3x" \
    slow_sweep "j == 1" 3 "FP_SLOW_RANK=1 FP_SLOW_AS=receiver FP_SLOW_FACTOR=10 FP_SLOW_US=1000" \
    fabperf_allpairs_lat -m 8:8 -i 8 -x 1 --mode shift --format json

# Point to point, blocking receives: rank 1 answers each ping 10x later (each receive is posted
# right after the previous answer, so the factor shows whole). Tries as above.
p50_us() {
    "$PYTHON3" -c 'import json, sys; print([r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "row"][0]["p50_us"])' "$work/out"
}
# Each median the lowest over the tries so far: other work on the machine only slows one.
slower_latency() {
    normal=1e30 slowed=1e30
    for latency_try in 1 2 3; do
        FABPERF_BIN=$PT2PT_BIN run_job 2 sm fabperf_latency -m 8:8 -i 200 -x 20 --format json
        rc_is 0 || return 1
        normal=$("$PYTHON3" -c "print(min($normal, $(p50_us)))")
        FABPERF_BIN=$PT2PT_BIN run_with_slow 2 sm "FP_SLOW_RANK=1 FP_SLOW_AS=receiver FP_SLOW_FACTOR=10" \
            fabperf_latency -m 8:8 -i 200 -x 20 --format json
        rc_is 0 || return 1
        slowed=$("$PYTHON3" -c "print(min($slowed, $(p50_us)))")
        echo "  try $latency_try: lowest median latency $normal us, with rank 1 slow $slowed us"
        "$PYTHON3" -c "import sys; sys.exit(0 if $slowed >= 3 * $normal else 1)" && return 0
    done
    return 1
}
check "latency, rank 1 slow as receiver: median at least 3x the normal one" slower_latency

# A misspelt role injects nothing, and says so.
FABPERF_BIN=$PT2PT_BIN run_with_slow 2 sm "FP_SLOW_RANK=1 FP_SLOW_AS=recever FP_SLOW_FACTOR=10" fabperf_latency -m 8:8 -i 20 -x 2
check "FP_SLOW_AS=recever: exit 0, one line saying no fault was injected" sh -c \
    "[ $rc -eq 0 ] && [ \$(grep -c '^libfpslow: FP_SLOW_AS=recever: no fault injected' '$work/err') -eq 1 ]"
finish
