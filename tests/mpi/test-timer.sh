#!/bin/sh
# The clock and the batch: a clock of 1 us steps (tests/faults/coarse_clock.c) must still give a
# resolved, non-zero latency and never a 0 % interval or a target met on unresolved samples; the
# automatic batch only goes down as sizes grow; with batch > 1 no per-operation tails are claimed;
# --timer cuda is refused where events cannot see the operation.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

# CUDA events time what is enqueued on fabperf's stream: MPI operations enqueue nothing there.
for program in latency bw bibw allreduce; do
    bin=$FABPERF_BIN
    [ "$program" != allreduce ] || bin=$FABPERF_BIN/../collective
    [ -x "$bin/fabperf_$program" ] || continue
    FABPERF_BIN=$bin run_job 2 sm "fabperf_$program" --timer cuda -m 1:8 -i 10
    check "$program --timer cuda: exit 2, one line saying MPI operations enqueue nothing on the stream" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_$program: ' '$work/err') -eq 1 ] && grep -q '^fabperf_$program: --timer cuda: CUDA events time work enqueued on a CUDA stream .*MPI operations are driven by the host' '$work/err'"
done
run_job 2 sm fabperf_latency --help
check "--help: --timer cuda only with --backend nccl" help_has '--timer T .*cuda (CUDA events.*only with --backend nccl)'

# A clock of 1 us steps, found by reading it (MPI_Wtick is left alone).
FABPERF_FAULT_LIB=$FABPERF_CLOCK_FAULT_LIB
for mode in "-a" "-i 100000"; do
    # shellcheck disable=SC2086 # mode is words
    run_with_fault 2 sm "FP_CLOCK_TICK_US=1" fabperf_latency -m 1:64 $mode --format json
    check "coarse clock, $mode: exit 0" rc_is 0
    check "coarse clock, $mode: resolution 1 us found; every sample >= ~100 ticks; P50 > 0; CI width > 0" json_check "$work/out" "
0.9 <= meta['timer_resolution_us'] <= 1.1 and len(rows) == 7 and all(
    r['p50_us'] > 0.02 and r['batch'] * 2 * r['p50_us'] >= 90 and r['ci_halfwidth_pct'] is not None
    and r['ci_halfwidth_pct'] > 0 and r['p50_ci_hi_us'] - r['p50_ci_lo_us'] >= 2 * 1.0 / (2 * r['batch']) * 0.999
    for r in rows)"
    [ "$mode" != -a ] || check "coarse clock, -a: no target met with a side beyond 1 %" json_check "$work/out" "
all(r['p50_ci_hi_us'] <= r['p50_us'] * 1.01 + 1e-9 and r['p50_ci_lo_us'] >= r['p50_us'] * 0.99 - 1e-9
    for r in rows if r['target_met'])"
done

# A clock of 4 us steps on rank 1 only: the ranks measure different clocks, yet every decision
# of the batch is rank 0's and the same on all ranks (ranks that disagreed would run different
# counts of operations and hang until --timeout).
run_with_fault 2 sm "FP_CLOCK_TICK_US=4 FP_CLOCK_TICK_RANK=1" fabperf_latency -m 1:64K -i 2000 --timeout 30 --format json
check "clock coarse on rank 1 only: exit 0, complete, every size" json_check "$work/out" \
    "$rc == 0 and len(rows) == 17 and end['status'] == 'complete'"

# The clock reads operations 8 times slower while the batch is chosen, then true (a machine leaving
# a slow latency mode): the batch doubles until the median sample is resolved, in both modes, or
# reaches the automatic batch's limit (1024, FP_BATCH_LIMIT): the resolution, read while the clock
# is stretched, can come out at 4 steps, and 1024 round trips of 0.15 us do not fill 400 of them.
for mode in "-a" "-i 50000"; do
    # shellcheck disable=SC2086 # mode is words
    run_with_fault 2 sm "FP_CLOCK_TICK_US=1 FP_CLOCK_STRETCH=8 FP_CLOCK_STRETCH_S=0.05" fabperf_latency -m 1:4 $mode \
        --format json
    check "operations faster after the batch was chosen, $mode: exit 0" rc_is 0
    check "operations faster after the batch was chosen, $mode: the median sample still >= ~100 clock steps, or the batch at its limit" \
        json_check "$work/out" \
        "len(rows) == 3 and all(r['batch'] * 2 * r['p50_us'] >= 90 * meta['timer_resolution_us'] or r['batch'] == 1024 for r in rows)"
done

# The automatic batch does not alternate between neighbouring values (a step down near the clock's
# limit is not taken; a step down past it is, which a latency that grows with size makes lasting):
# across three neighbouring sizes it never falls and rises again, nor rises and falls; batch means
# carry no per-operation tails.
# A second job on the cores inflates a size's warm-up median now and then, and its batch then
# truly differs: a try that alternates beside one (tests/foreign_cpu.py: a quarter of the cores or
# more busy) is printed and tried again, up to three tries; one that alternates on a quiet machine
# fails.
steady_batch() {
    json_check "$work/out" "len(rows) == 17 and not any((a['batch'] > b['batch'] < c['batch']) or
        (a['batch'] < b['batch'] > c['batch']) for a, b, c in zip(rows, rows[1:], rows[2:]))"
}
batch_never_alternates() {
    for batch_try in 1 2 3; do
        run_watched 2 sm "$FABPERF_BIN/fabperf_latency" -m 1:64K -i 2000 --format json
        steady_batch && return 0
        echo "  try $batch_try: foreign load $foreign, batches by size: $(json_check "$work/out" \
            "print(' '.join(f\"{r['size']}:{r['batch']}\" for r in rows)) or True")"
        loaded || return 1
        echo "  a second job shared the cores: not counted"
    done
    echo "  every try ran beside a second job: cannot tell"
}
check "latency: the batch never alternates across neighbouring sizes" batch_never_alternates
check "latency: min, p99, max, stddev only at batch 1" json_check "$work/out" "all(
    (r['batch'] > 1) == (r['min_us'] is None and r['max_us'] is None and r['p99_us'] is None and r['stddev_us'] is None)
    for r in rows) and any(r['batch'] > 1 for r in rows)"
run_job 2 sm fabperf_latency -m 8:8 -i 2000 --batch 1 --format json
check "latency --batch 1: tails printed" json_check "$work/out" \
    "rows[0]['batch'] == 1 and rows[0]['min_us'] > 0 and rows[0]['p99_us'] >= rows[0]['p50_us'] and rows[0]['stddev_us'] is not None"
finish
