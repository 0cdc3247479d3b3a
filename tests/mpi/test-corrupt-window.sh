#!/bin/sh
# -c checks every message of a window: one message per window of 4096 B arrives corrupted
# (tests/faults/window.c), the first or a middle one, and the row of 4096 B must say Fail at every
# window size, in bw and bibw; latency (one message per operation) as well. Each check is a run.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
bad=4096
FABPERF_FAULT_LIB=$FABPERF_WINDOW_FAULT_LIB
export FABPERF_FAULT_LIB

# verdicts FILE: "size:verdict ..." of the rows
verdicts() {
    "$PYTHON3" -c 'import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "row"]
print(" ".join("%d:%s" % (r["size"], r["validation"]) for r in rows))' "$1"
}
expected="2048:pass 4096:fail 8192:pass"

for program in bw bibw; do
    for window in 1 2 64; do
        indices=0
        [ "$window" -eq 1 ] || indices="0 $((window / 2))"
        for index in $indices; do
            run_with_fault 2 sm "FP_WINDOW_CORRUPT_SIZE=$bad FP_WINDOW_CORRUPT_INDEX=$index" "fabperf_$program" \
                -m 2K:8K -W "$window" -c -i 4 -x 1 --format json
            got="$rc $(verdicts "$work/out")"
            check "$program -W $window, message $index of each window corrupted at $bad B: exit 1, Fail there only ($got)" \
                test "$got" = "1 $expected"
        done
    done
done
# A window larger than the validation slots (64 MiB): several validation windows; the message in
# the middle is in the second of them.
run_with_fault 2 sm "FP_WINDOW_CORRUPT_SIZE=4194304 FP_WINDOW_CORRUPT_INDEX=20" fabperf_bw -m 4M:4M -W 32 -c -i 2 -x 1 \
    --format json
got="$rc $(verdicts "$work/out")"
check "bw -W 32 at 4 MiB (two validation windows), message 20 corrupted: Fail ($got)" test "$got" = "1 4194304:fail"
run_with_fault 2 sm "FP_WINDOW_CORRUPT_SIZE=$bad" fabperf_latency -m 2K:8K -c -i 4 -x 1 --format json
got="$rc $(verdicts "$work/out")"
check "latency, message corrupted at $bad B: exit 1, Fail there only ($got)" test "$got" = "1 $expected"
# Without corruption every size passes, with windows of every size.
for window in 1 3 64; do
    run_job 2 sm fabperf_bibw -m 1:64K -W "$window" -c -i 4 -x 1 --format json
    check "bibw -W $window without corruption: exit 0, every size Pass" json_check "$work/out" \
        "len(rows) == 17 and all(r['validation'] == 'pass' for r in rows) and end['failures'] == 0"
done
finish
