#!/bin/sh
# Hangs with names: when the watchdog fires, rank 0's roll call names the ranks that never arrived
# where the others wait, and those that did not answer; the line goes to stderr and into the
# results' end record, and the rows measured before stay in the file. Faults from
# tests/faults/corrupt.c: FP_HANG_AFTER_SIZE (a rank stuck outside MPI right after a call of that
# size returned: the others go on and wait for it at the next step), FP_FREEZE_SIZE (a rank
# stopped whole, its watchdog too), FP_STALL_SIZE (a rank stuck as it enters the call: every rank
# has begun the same step, which the roll call says it cannot resolve). Every rank may be the
# culprit, rank 0 included (its own watchdog thread still holds the roll call).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

roll_call() { # the roll call line on rank 0's stderr
    grep '^fabperf_[a-z_]*: rank 0: roll call: ' "$work/err"
}

# $1: the culprit named alone as behind, all ranks answered (np $2)
names_only() {
    line=$(roll_call)
    others=$(echo "$line" | sed 's/.*never arrived where the others wait ([^)]*): //' | grep -o 'rank [0-9]*' | sort -u)
    echo "$line" | grep -q "roll call: $2 of $2 ranks answered; never arrived where the others wait" &&
        [ "$others" = "rank $1" ]
}

COLL=$FABPERF_BIN/../collective
PAIRS=${FABPERF_PAIRS_BIN:-$FABPERF_BIN/../pairs}
for case in 2:0 2:1 4:0 4:2 4:3; do
    np=${case%:*} culprit=${case#*:}
    FABPERF_BIN=$COLL run_with_fault "$np" sm "FP_HANG_AFTER_SIZE=4096 FP_FAULT_RANK=$culprit" fabperf_allreduce \
        -m 1K:16K -i 20 -x 2 --batch 1 --timeout 3 --format json --output "$work/result.json"
    check "allreduce np=$np, rank $culprit stuck after its 4 KiB call: exit 1" rc_is 1
    check "allreduce np=$np: the roll call names rank $culprit alone, every rank answered" names_only "$culprit" "$np"
    check "allreduce np=$np: the end record carries the roll call; rows 1K and 2K kept" json_check "$work/result.json" \
        "[r['size'] for r in rows] == [1024, 2048] and 'roll call: $np of $np ranks answered; never arrived' in end['status'] and 'rank $culprit (' in end['status']"
done

# Point to point. Rank 0 stuck after the pong of 4 KiB: rank 1 has begun the next round trip and
# waits for it there, so rank 0 is named. Rank 1 stuck after the ping: it never sends the pong,
# and rank 0 waits for it inside the same round trip: one step, nobody named, the limit said.
run_with_fault 2 sm "FP_HANG_AFTER_SIZE=4096 FP_FAULT_RANK=0" fabperf_latency -m 1K:16K -i 20 -x 2 --batch 1 --timeout 3
check "latency, rank 0 stuck after the 4 KiB pong: exit 1, the roll call names rank 0" sh -c \
    "[ $rc -eq 1 ] && grep -q 'rank 0: roll call: 2 of 2 ranks answered; never arrived where the others wait (size 4096 B, .*): rank 0 (' '$work/err'"
run_with_fault 2 sm "FP_HANG_AFTER_SIZE=4096 FP_FAULT_RANK=1" fabperf_latency -m 1K:16K -i 20 -x 2 --batch 1 --timeout 3
check "latency, rank 1 stuck after the 4 KiB ping: exit 1, one step, nobody named, the limit said" sh -c \
    "[ $rc -eq 1 ] && grep -q 'rank 0: roll call: 2 of 2 ranks answered; no rank is a step behind: every rank has begun size 4096 B, .*(a rank late within one step is not told apart)' '$work/err'"

# A rank frozen whole (its watchdog too): named as not answering, nobody named as behind.
FABPERF_BIN=$COLL run_with_fault 3 sm "FP_FREEZE_SIZE=4096 FP_FAULT_RANK=1" fabperf_allreduce -m 1K:16K -i 20 -x 2 \
    --batch 1 --timeout 3
check "allreduce np=3, rank 1 frozen: exit 1" rc_is 1
check "allreduce np=3, rank 1 frozen: 2 of 3 answered, rank 1 did not answer, nobody behind" sh -c \
    "roll=\$(grep 'rank 0: roll call: ' '$work/err') && echo \"\$roll\" | grep -q '2 of 3 ranks answered; every rank that answered is at size 4096 B' &&
     echo \"\$roll\" | grep -q 'did not answer ([^)]*): rank 1 (' && ! echo \"\$roll\" | grep -q 'never arrived'"

# Stuck as it enters the call: every rank has begun the same step; nobody is named, and the
# roll call says what it cannot tell.
run_with_fault 2 sm "FP_STALL_SIZE=4096 FP_FAULT_RANK=1" fabperf_latency -m 1K:16K -i 20 -x 2 --batch 1 --timeout 3
check "latency, rank 1 stalled entering a 4 KiB receive: the roll call names nobody and says why" sh -c \
    "grep -q 'rank 0: roll call: 2 of 2 ranks answered; no rank is a step behind: every rank has begun size 4096 B, .*(a rank late within one step is not told apart)' '$work/err'"

# No fault, a size slower than --timeout: the ranks still take steps while they answer, so the
# roll call names nobody (snapshots of a moving run differ by a step without meaning anything).
FABPERF_BIN=$COLL run_job 3 sm fabperf_allreduce -m 64K:64K -i 1000000 -x 2 --batch 1 --timeout 2
check "allreduce np=3, no fault, a size longer than --timeout 2: exit 1, slow not stuck, nobody named" sh -c \
    "[ $rc -eq 1 ] && grep -q 'rank 0: roll call: 3 of 3 ranks answered; [123] of them still took steps while answering: the run is slower than the time limit, not stuck, and no rank is named' '$work/err'"

# A sweep, whose idle ranks are behind by design: nobody is named as behind; a frozen rank is
# still named as not answering.
FABPERF_BIN=$PAIRS run_with_fault 3 sm "FP_FREEZE_SIZE=4096 FP_FAULT_RANK=2" fabperf_allpairs -m 4K:4K -i 20 -x 2 \
    --timeout 3
check "allpairs np=3, rank 2 frozen: exit 1, nobody named as behind, rank 2 did not answer" sh -c \
    "[ $rc -eq 1 ] && grep -q 'rank 0: roll call: 2 of 3 ranks answered; this program.s ranks do not move in step, so none is named as behind; .*did not answer ([^)]*): rank 2 (' '$work/err'"
finish
