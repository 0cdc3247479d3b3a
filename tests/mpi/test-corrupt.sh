#!/bin/sh
# Injected corruption: one byte of every received message of 4096 bytes is flipped (PMPI library).
# With -c the row of exactly that size says Fail and the exit code is 1; without -c the output says
# validation was off, so that nobody takes its rows for checked ones.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
bad=4096

for program in latency bw bibw; do
    run_with_fault 2 sm "FP_CORRUPT_SIZE=$bad" "fabperf_$program" -m 1K:16K -c -i 20 -x 2 --format json
    check "$program -c, byte flipped at $bad B: exit 1" rc_is 1
    check "$program -c: Fail at exactly $bad B, Pass elsewhere, run complete" json_check "$work/out" \
        "[(r['size'], r['validation']) for r in rows] == [(s, 'fail' if s == $bad else 'pass') for s in (1024, 2048, 4096, 8192, 16384)] and all(r['wrong'] > 0 for r in rows if r['size'] == $bad) and end['status'] == 'complete' and end['failures'] == 1"

    run_with_fault 2 sm "FP_CORRUPT_SIZE=$bad" "fabperf_$program" -m 1K:16K -c -i 20 -x 2
    check "$program -c, text: Check column Fail at $bad B and 'validation: FAILED'" sh -c \
        "grep -q '^$bad .* Fail ' '$work/out' && grep -q '^# validation: FAILED' '$work/out' && [ \$(grep -c ' Fail ' '$work/out') -eq 1 ]"

    run_with_fault 2 sm "FP_CORRUPT_SIZE=$bad" "fabperf_$program" -m 1K:16K -i 20 -x 2 --format json
    check "$program without -c: exit 0" rc_is 0
    check "$program without -c: meta says validation off, rows have no verdict" json_check "$work/out" \
        "meta['validation'] is False and all(r['validation'] is None for r in rows) and len(rows) == 5"
    run_with_fault 2 sm "FP_CORRUPT_SIZE=$bad" "fabperf_$program" -m 1K:16K -i 20 -x 2
    check "$program without -c, text: '# validation: off'" grep -q '^# validation: off' "$work/out"
done

# Collectives, when this tree has them: the same contract.
for program in allreduce reduce bcast; do
    [ -x "$FABPERF_BIN/../collective/fabperf_$program" ] || continue
    FABPERF_BIN=$FABPERF_BIN/../collective run_with_fault 2 sm "FP_CORRUPT_SIZE=$bad" "fabperf_$program" \
        -m 1K:16K -c -i 20 -x 2 --format json
    check "$program -c, corrupted at $bad B: exit 1" rc_is 1
    check "$program -c: Fail at exactly $bad B" json_check "$work/out" \
        "[r['size'] for r in rows if r['validation'] == 'fail'] == [$bad]"
done
finish
