#!/bin/sh
# fabperf_mbw_mr with 2, 4 and 8 ranks over shared memory and TCP: pairs placement, rows, message
# rate consistent with bandwidth, every message validated; one corrupted message among a window's
# is caught at its size only; OSU's exact row; --expect on the aggregate; bad input exits 2 with
# one line.
# MPICH 4.0 with UCX 1.13 over TCP: MPI_Finalize of 4 or more ranks hangs at times (a plain MPI
# program of 20 MPI_Allreduce calls does too: a rank waits for a flush its peers no longer
# progress), so TCP runs 2 ranks there.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}

for transport in sm tcp; do
    sizes="2 4 8"
    [ "$transport" = tcp ] && [ "${FABPERF_MPI_FLAVOR:-openmpi}" = mpich ] && sizes=2
    for np in $sizes; do
        half=$((np / 2))
        run_job "$np" "$transport" fabperf_mbw_mr -m 1K:64K -i 8 -x 2 -W 16 -c --format json
        check "mbw_mr $np ranks $transport: exit 0" rc_is 0
        check "mbw_mr $np ranks $transport: $half pairs, rank i -> i + $half, every size validated" json_check "$work/out" \
            "meta['pairs'].count(' -> ') == $half and meta['pairs'].startswith('0 (') and ' -> $half (' in meta['pairs'] and [r['size'] for r in rows] == [1024 << k for k in range(7)] and all(r['validation'] == 'pass' and r['wrong'] == 0 for r in rows) and end['status'] == 'complete'"
        # -i 8 in batches of 2 (a loaded machine) is 4 samples: no interval, null, never min..max.
        check "mbw_mr $np ranks $transport: messages/s = MB/s x 1e6 / size, both positive, CI around the median or null below 6 samples" json_check "$work/out" \
            "all(r['bw_mbps'] > 0 and abs(r['msgs_per_s'] - r['bw_mbps'] * 1e6 / r['size']) <= 1e-6 * r['msgs_per_s'] and r['samples'] == -(-8 // r['batch']) and (r['bw_ci_lo_mbps'] <= r['bw_p50_mbps'] <= r['bw_ci_hi_mbps'] if r['samples'] >= 6 else r['bw_ci_lo_mbps'] is None is r['bw_ci_hi_mbps']) for r in rows)"
    done
done

# One message, the third of rank 3's validation window at 4K, has one byte flipped (4 ranks: 1 -> 3).
run_with_fault 4 sm "FP_CORRUPT_SIZE=4096 FP_CORRUPT_NTH=3 FP_FAULT_RANK=3" fabperf_mbw_mr \
    -m 1K:16K -i 8 -x 2 -W 16 -c --format json
check "mbw_mr -c, one message of a window corrupted: exit 1" rc_is 1
check "mbw_mr -c: Fail at 4K with exactly 1 wrong byte, Pass elsewhere" json_check "$work/out" \
    "[(r['size'], r['validation'], r['wrong']) for r in rows] == [(1024, 'pass', 0), (2048, 'pass', 0), (4096, 'fail', 1), (8192, 'pass', 0), (16384, 'pass', 0)]"

run_job 4 sm fabperf_mbw_mr -m 1K:4K -i 8 -x 2 -W 16 --layout osu
check "mbw_mr --layout osu: osu_mbw_mr's header and rows (%-10d%18.2f%18.2f), messages/s = MB/s x 1e6 / size" \
    "$PYTHON3" -c '
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if not l.startswith("# ") or l.startswith("# Size")]
head, rows = lines[0], lines[1:]
ok = head == "%-10s%18s%18s" % ("# Size", "MB/s", "Messages/s") and [int(r[:10]) for r in rows] == [1024, 2048, 4096]
ok = ok and all(len(r) == 46 and re.fullmatch(r"\s*\d+\.\d\d", r[10:28]) and re.fullmatch(r"\s*\d+\.\d\d", r[28:]) for r in rows)
ok = ok and all(abs(float(r[28:]) - float(r[10:28]) * 1e6 / int(r[:10])) <= 0.01 + 0.005e6 / int(r[:10]) for r in rows)
sys.exit(0 if ok else 1)' "$work/out"
run_job 2 sm fabperf_mbw_mr -m 1K:2K -i 8 -x 2 --expect 'bw>=1e9@2K' --format json
check "mbw_mr --expect bw>=1e9@2K: exit 3" rc_is 3
check "mbw_mr --expect bw>=1e9@2K: the 2K row fails on its aggregate, 1K unjudged" json_check "$work/out" \
    "[(r['size'], r['verdict']) for r in rows] == [(1024, None), (2048, 'fail')]"
run_job 2 sm fabperf_mbw_mr --expect uniform
check "mbw_mr --expect uniform: exit 2, one line (a sweep's term)" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_mbw_mr:' '$work/err') -eq 1 ] && grep -q \"'uniform' applies to the all-pairs sweeps\" '$work/err'"

run_job 1 sm fabperf_mbw_mr -m 1K:1K
check "mbw_mr on 1 rank: exit 2" rc_is 2
check "mbw_mr on 1 rank: one line naming the range" sh -c \
    "[ \$(grep -c '^fabperf_mbw_mr:' '$work/err') -eq 1 ] && grep -q 'needs at least 2 ranks, got 1 (accepted: mpirun -np N with N >= 2)' '$work/err'"
run_job 2 sm fabperf_mbw_mr --mode isolated
check "mbw_mr --mode (an all-pairs option): exit 2" rc_is 2
finish
