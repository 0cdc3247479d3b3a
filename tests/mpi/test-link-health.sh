#!/bin/sh
# Link health per size, on a sysfs fixture tree in the real kernel layout (--sysfs-root): nodeA's
# mlx5_0 port 1 with its port counters and some hw_counters, ens1f0 with its netdev statistics,
# mlx5_1 with no error counter at all. The counter-step library (tests/faults/counter_step.c)
# writes a counter's new value just before its N-th read: the benchmark reads each one before and
# after every size, so the 4th read is the one after the second size. Checked: the header lists
# what is read and what is absent; a counter that moved during 2 KiB is named with its NIC, node,
# delta and size (text, JSON, one line on standard error) and no other size has one; congestion
# counters are said without the error line; a bad --sysfs-root is refused (exit 2, one line).
# shellcheck source=../lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
: "${FABPERF_COUNTER_STEP_LIB:?run through make check}"
data=$work/data
sh "$FABPERF_TESTS_DIR/data/sysfs/prepare.sh" "$data" || { echo "not ok - test data trees"; exit 1; }
sys=$data/nodeA/sys
counters=$sys/class/infiniband/mlx5_0/ports/1/counters
hw=$sys/class/infiniband/mlx5_0/ports/1/hw_counters
mkdir -p "$hw"
ln -s "$sys" "$data/nodeA/sys0"

# reset: the fixture's counters at their starting values (the library writes into them)
reset() {
    for c in symbol_error link_error_recovery link_downed port_rcv_errors port_rcv_remote_physical_errors \
        port_xmit_discards excessive_buffer_overrun_errors local_link_integrity_errors; do
        echo 0 >"$counters/$c"
    done
    for c in out_of_buffer np_cnp_sent np_ecn_marked_roce_packets; do
        echo 7 >"$hw/$c"
    done
    for c in rx_crc_errors rx_frame_errors rx_errors tx_errors rx_dropped; do
        echo 0 >"$sys/class/net/ens1f0/statistics/$c"
    done
    echo 1 >"$sys/class/net/ens1f0/carrier_changes"
}

# step SETTINGS ARGS...: 2 ranks of fabperf_bw at 1, 2 and 4 KiB reading the fixture tree, with the
# counter-step library set by SETTINGS (FP_COUNTER_STEP=...)
step() {
    step_settings=$1
    shift
    reset
    # shellcheck disable=SC2086 # settings are words by design
    timeout 120 "$FABPERF_LAUNCH" 2 sm env LD_PRELOAD="$FABPERF_COUNTER_STEP_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" $step_settings \
        "$FABPERF_BIN/fabperf_bw" -m 1K:4K -i 20 -x 2 --sysfs-root "$sys" "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

step "FP_COUNTER_STEP=mlx5_0/ports/1/counters/link_downed:4:2,mlx5_0/ports/1/counters/symbol_error:4:11000"
check "link errors during 2 KiB: exit 0 (a finding, the figures kept)" rc_is 0
check "header: the counters read on rank 0's node, the absent ones said" grep -qx \
    "# link counters (rank 0's node, read around each size): ens1f0 6 of 10 netdev counters; eth0 0 of 10 netdev counters; mlx5_0:1 8 of 8 port, 3 of 9 hw counters; mlx5_1:1 0 of 8 port, 0 of 9 hw counters; pause frames: not in sysfs (ethtool -S)" \
    "$work/out"
check "text: the size, NIC, node and counters that moved; no other size" sh -c \
    "grep '^# link ' '$work/out' | grep -qx '# link 2048: mlx5_0:1@[^:]*: 11000 symbol errors, 2 link downed' &&
     [ \"\$(grep -c '^# link [0-9]' '$work/out')\" -eq 1 ]"
check "standard error: one line naming size, NIC and counters" sh -c \
    "[ \"\$(grep -c '^fabperf_bw: link errors during size 2048: mlx5_0:1@[^:]*: 11000 symbol errors, 2 link downed; its figures may be disturbed\$' '$work/err')\" -eq 1 ]"

step "FP_COUNTER_STEP=mlx5_0/ports/1/counters/link_downed:6:1,ports/1/hw_counters/np_cnp_sent:2:907" --format json
check "JSON: each row's link records; errors at 4 KiB, congestion at 1 KiB" json_check "$work/out" \
    "([(r['size'], [(l['nic'], l['counter'], l['delta'], l['error']) for l in r['path']['link']],
        r['path']['link_errors']) for r in rows] == [(1024, [('mlx5_0:1', 'CNPs sent', 900, False)], 0),
        (2048, [], 0), (4096, [('mlx5_0:1', 'link downed', 1, True)], 1)]
      and meta['link_counters'].startswith('ens1f0 6 of 10 netdev counters'))"
check "congestion alone: no error line on standard error; errors at 4 KiB: one" sh -c \
    "[ \"\$(grep -c 'link errors during size' '$work/err')\" -eq 1 ] && grep -q 'link errors during size 4096' '$work/err'"

run_job 2 sm fabperf_bw -m 1K:1K --sysfs-root "$work/nonexistent"
check "--sysfs-root not a directory: exit 2" rc_is 2
check "--sysfs-root not a directory: one line naming option, path and rank" sh -c \
    "[ \"\$(grep -c \"^fabperf_bw: --sysfs-root: '$work/nonexistent' (rank 0) is not a directory (accepted: a directory; %r rank, %h host)\$\" '$work/err')\" -eq 1 ]"
run_job 2 sm fabperf_bw -m 1K:1K --sysfs-root "$data/nodeA/sys%r"
check "--sysfs-root with %r: exit 2" rc_is 2
check "--sysfs-root with %r: rank 1's tree missing is named, once" sh -c \
    "[ \"\$(grep -c \"^fabperf_bw: --sysfs-root: '$data/nodeA/sys1' (rank 1) is not a directory\" '$work/err')\" -eq 1 ]"
# An all-pairs sweep of 4 ranks (3 shift rounds): the counters are read around each round too, so
# the 5th read (after round 2) moves link_downed during round 2 only; the round's record names the
# counter and the cells whose ends sit on that node (all four: one host). Open MPI only, as the
# other all-pairs fault tests (MPICH's polling ranks share 2 cores slowly).
if [ "${FABPERF_MPI_FLAVOR:-openmpi}" = openmpi ] && [ -x "${FABPERF_PAIRS_BIN:-}/fabperf_allpairs" ]; then
    for format in text json; do
        reset
        timeout 120 "$FABPERF_LAUNCH" 4 sm env LD_PRELOAD="$FABPERF_COUNTER_STEP_LIB" \
            ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
            FP_COUNTER_STEP=mlx5_0/ports/1/counters/link_downed:5:3 "$FABPERF_PAIRS_BIN/fabperf_allpairs" -m 4K:4K \
            -i 10 -x 2 --sysfs-root "$sys" --format "$format" </dev/null >"$work/pairs.$format" 2>"$work/err"
    done
    check "all pairs, text: one round's line, the counter and the round's cells on that node" sh -c \
        "[ \"\$(grep -c '^# link round' '$work/pairs.text')\" -eq 1 ] &&
         grep -Eqx '# link round 2/3 \(shift 2\): mlx5_0:1@([^:]*): 3 link downed; cells \\1:0 -> \\1:2, \\1:1 -> \\1:3, \\1:2 -> \\1:0, \\1:3 -> \\1:1' '$work/pairs.text'"
    check "all pairs, JSON: one link record, round 2, its four cells" json_check "$work/pairs.json" \
        "[(r['size'], r['round'], r['shift'], r['errors'], [(l['nic'], l['counter'], l['delta']) for l in r['links']], r['cells'])
          for r in result.of('link')] == [(4096, 2, 2, 1, [('mlx5_0:1', 'link downed', 3)], [[0, 2], [1, 3], [2, 0], [3, 1]])]"
else
    echo "# all pairs: not checked (Open MPI with the pairs programs only)"
fi

ln -s "$sys" "$data/host-$(hostname)"
run_job 2 sm fabperf_bw -m 1K:1K --sysfs-root "$data/host-%h"
check "--sysfs-root with %h: the host's tree read (exit 0, its counters listed)" sh -c \
    "[ $rc -eq 0 ] && grep -q \"^# link counters (rank 0's node, read around each size): ens1f0 6 of 10 netdev counters;\" '$work/out'"
run_job 2 sm fabperf_bw -m 1K:1K --sysfs-root "$sys" --path-evidence off
check "--sysfs-root with --path-evidence off: exit 2" rc_is 2
check "--sysfs-root with --path-evidence off: one line" sh -c \
    "[ \"\$(grep -cx 'fabperf_bw: --sysfs-root needs the path evidence: drop --path-evidence off' '$work/err')\" -eq 1 ]"

finish
