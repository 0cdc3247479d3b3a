#!/bin/sh
# Validation of the collectives sees an element the library never wrote (PMPI library
# tests/faults/unwritten.c puts back what the result buffer held before the call):
# - FP_UNWRITTEN=first: the first element of every result; every program, every size, Fail.
# - FP_UNWRITTEN=zeros: every element whose correct result is 0; with receive buffers pre-filled
#   with zeros these would pass unseen (about 1 in 9 int32 sums of two ranks is 0).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_COLL_BIN:?run through make check}
FABPERF_FAULT_LIB=${FABPERF_UNWRITTEN_LIB:?run through make check}

for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
    run_with_fault 2 sm FP_UNWRITTEN=first "fabperf_$program" -m 64:4K -f 4 -i 10 -x 2 -c -T int32 --format json
    check "$program, first element never written: exit 1" rc_is 1
    check "$program: every size Fail, out-of-place #wrong >= 1" json_check "$work/out" \
        "len(rows) == 4 and all(r['validation'] == 'fail' and r['oop_wrong'] >= 1 for r in rows) and end['failures'] == 4"
done

run_with_fault 2 sm FP_UNWRITTEN=zeros fabperf_allreduce -m 4K:16K -i 10 -x 2 -c -T int32 -o sum --format json
check "allreduce, zero results never written: exit 1" rc_is 1
check "allreduce: every size Fail, out-of-place #wrong (both ranks) about 1/9 of the elements" json_check "$work/out" \
    "len(rows) == 3 and all(r['validation'] == 'fail' and 0.07 < r['oop_wrong'] / (2 * r['count']) < 0.16 for r in rows)"

run_with_fault 2 sm FP_UNWRITTEN=zeros fabperf_allreduce -m 4K:4K -i 10 -x 2 -c -T float -o sum
check "allreduce float, text: Fail, 'Out of bounds values' counts them" sh -c \
    "grep -q '^# Out of bounds values : [1-9][0-9]* FAILED' '$work/out' && grep -q '^# validation: FAILED' '$work/out'"
# --rotate: each call on the next slice of the -m MAX buffers (on), or always the same (off).
# Sizes 4 B to 4 KiB, 100 timed and 2 warm-up calls per variant: rotating, the 4-byte calls alone
# use > 100 result addresses; not rotating, each variant uses one (rbuf, or rbuf in place).
for rotate in on off; do
    run_with_fault 2 sm "FP_UNWRITTEN=none FP_ADDRESS_LOG=$work/addresses.$rotate" fabperf_allreduce \
        -m 4:4K -f 4 -i 100 -x 2 --rotate "$rotate"
    check "--rotate $rotate: exit 0" rc_is 0
done
check "--rotate on: > 100 distinct result addresses on rank 0; --rotate off: at most 2" sh -c \
    "[ \$(cat '$work/addresses.on.0') -gt 100 ] && [ \$(cat '$work/addresses.off.0') -le 2 ]"
finish
