#!/bin/bash
# Measures how often the watchdog's roll call (engine/rollcall.c, engine/guard.c) names the right
# rank and how often it names a wrong one. Faults come from the test library
# tests/faults/libfpcorrupt.so (LD_PRELOAD), for np 2 3 4 6 and every culprit rank:
#   hang-<prog>  FP_HANG_AFTER_SIZE=4096 on allreduce, bcast, alltoall: the culprit alone must be
#                named as never arrived where the others wait, no other rank named anywhere
#   freeze       FP_FREEZE_SIZE=4096 on allreduce: the culprit named under "did not answer",
#                nobody named as never arrived
#   stall        FP_STALL_SIZE=4096 on allreduce: every rank begun the same step, nobody named
#   slow         no fault, 64 KiB allreduce longer than --timeout 2: nobody named
#   latency      fabperf_latency np 2, FP_HANG_AFTER_SIZE=4096: culprit 0 named, culprit 1 not
# A run counts as false naming when a rank is named that is not the culprit (or any rank where
# none should be), as missed when the culprit is not named where expected. Each run is guarded by
# `timeout 60`. Prints one row per case and np, then the detection rate (over the runs where a
# name is expected) and the false-naming rate (over all runs); wrong verdicts with their roll
# call line go to stderr.
# Usage: bench/rollcall-power.sh BUILD_DIR [REPEATS]
#   BUILD_DIR  a configured and built tree (build-openmpi, build-mpich)
#   REPEATS    runs per case, np and culprit (default 3)
# Environment: NPS (default "2 3 4 6"), CASES (default "hang-allreduce hang-bcast hang-alltoall
# freeze stall slow latency").
set -u

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 BUILD_DIR [REPEATS]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
repeats=${2:-3}
nps=${NPS:-2 3 4 6}
cases=${CASES:-hang-allreduce hang-bcast hang-alltoall freeze stall slow latency}
launch=$build/tests/launch.sh
faults=$build/tests/faults/libfpcorrupt.so
for f in "$launch" "$faults"; do
    [ -e "$f" ] || { echo "$0: missing $f" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

total_runs=0 total_false=0 expect_runs=0 expect_found=0
rows=()

# Ranks named in a piece of the roll call line, one per line, sorted.
ranks_in() { grep -o 'rank [0-9]* (' | grep -o '[0-9]*' | sort -un; }

# One run: $1 expectation (behind:R, noanswer:R, none), $2 np, $3 program path, rest: env+args.
# Sets verdict_false and verdict_missed (0/1).
one_run() {
    local expect=$1 np=$2 prog=$3
    shift 3
    timeout 60 "$launch" "$np" sm env "$@" "$prog" "${args[@]}" >/dev/null 2>"$work/err"
    local rc=$?
    local line behind noanswer named want=${expect#*:}
    line=$(grep -m1 '^fabperf_[a-z_0-9]*: rank 0: roll call: ' "$work/err")
    named=$(printf '%s\n' "$line" | sed 's/^[^:]*: rank 0: roll call: //' | ranks_in)
    behind=$(printf '%s\n' "$line" | grep -o 'never arrived where the others wait.*' |
        sed 's/; did not answer.*//' | ranks_in)
    noanswer=$(printf '%s\n' "$line" | grep -o 'did not answer.*' | ranks_in)
    verdict_false=0 verdict_missed=0
    case $expect in
    behind:*)
        [ "$(printf '%s\n' "$named" | grep -cvx "$want")" -gt 0 ] && [ -n "$named" ] && verdict_false=1
        printf '%s\n' "$behind" | grep -qx "$want" || verdict_missed=1
        ;;
    noanswer:*)
        [ -n "$behind" ] && verdict_false=1
        [ -n "$named" ] && [ "$(printf '%s\n' "$named" | grep -cvx "$want")" -gt 0 ] && verdict_false=1
        printf '%s\n' "$noanswer" | grep -qx "$want" || verdict_missed=1
        ;;
    none)
        [ -n "$named" ] && verdict_false=1
        ;;
    esac
    if [ "$verdict_false" = 1 ] || [ "$verdict_missed" = 1 ]; then
        echo "WRONG ($expect, np $np, $(basename "$prog") $*, rc $rc, false=$verdict_false missed=$verdict_missed):" \
            "${line:-no roll call line; stderr tail: $(tail -n 3 "$work/err" | tr '\n' ' ')}" >&2
    fi
}

# $1 case name, $2 np, $3 program, $4 fault variable ("" for none), $5 expectation kind
# (behind, noanswer, none), $6 culprit list; args in the array `args`.
run_case() {
    local name=$1 np=$2 prog=$3 var=$4 kind=$5 culprits=$6
    local runs=0 correct=0 falsen=0 missed=0 r c expect
    local -a envs
    for c in $culprits; do
        for ((r = 0; r < repeats; r++)); do
            if [ -n "$var" ]; then
                envs=("LD_PRELOAD=$faults" "$var=4096" "FP_FAULT_RANK=$c")
            else
                envs=("FP_NONE=1")
            fi
            if [ "$kind" = none ]; then expect=none; else expect=$kind:$c; fi
            one_run "$expect" "$np" "$prog" "${envs[@]}"
            runs=$((runs + 1))
            falsen=$((falsen + verdict_false))
            missed=$((missed + verdict_missed))
            [ "$verdict_false" = 0 ] && [ "$verdict_missed" = 0 ] && correct=$((correct + 1))
            if [ "$kind" != none ]; then
                expect_runs=$((expect_runs + 1))
                [ "$verdict_missed" = 0 ] && expect_found=$((expect_found + 1))
            fi
        done
    done
    total_runs=$((total_runs + runs))
    total_false=$((total_false + falsen))
    rows+=("$(printf '%-16s %3s %5s %8s %14s %7s' "$name" "$np" "$runs" "$correct" "$falsen" "$missed")")
    printf '%s\n' "${rows[-1]}" >&2
}

fault_args=(-m 1K:16K -i 20 -x 2 --batch 1 --timeout 3)
for case in $cases; do
    case $case in
    hang-*)
        prog=$build/collective/fabperf_${case#hang-}
        args=("${fault_args[@]}")
        for np in $nps; do
            run_case "$case" "$np" "$prog" FP_HANG_AFTER_SIZE behind "$(seq 0 $((np - 1)))"
        done
        ;;
    freeze)
        args=("${fault_args[@]}")
        for np in $nps; do
            run_case freeze "$np" "$build/collective/fabperf_allreduce" FP_FREEZE_SIZE noanswer "$(seq 0 $((np - 1)))"
        done
        ;;
    stall)
        args=("${fault_args[@]}")
        for np in $nps; do
            run_case stall "$np" "$build/collective/fabperf_allreduce" FP_STALL_SIZE none "$(seq 0 $((np - 1)))"
        done
        ;;
    slow)
        args=(-m 64K:64K -i 1000000 -x 2 --batch 1 --timeout 2)
        for np in $nps; do
            run_case slow "$np" "$build/collective/fabperf_allreduce" "" none 0
        done
        ;;
    latency)
        args=("${fault_args[@]}")
        run_case latency-r0 2 "$build/pt2pt/fabperf_latency" FP_HANG_AFTER_SIZE behind 0
        run_case latency-r1 2 "$build/pt2pt/fabperf_latency" FP_HANG_AFTER_SIZE none 1
        ;;
    *)
        echo "$0: unknown case $case" >&2
        exit 2
        ;;
    esac
done

printf '%-16s %3s %5s %8s %14s %7s\n' case np runs correct "false naming" missed
printf '%s\n' "${rows[@]}"
det=$(awk -v a="$expect_found" -v b="$expect_runs" 'BEGIN { if (b) printf "%.1f%%", 100 * a / b; else printf "n/a" }')
fal=$(awk -v a="$total_false" -v b="$total_runs" 'BEGIN { if (b) printf "%.1f%%", 100 * a / b; else printf "n/a" }')
echo "detection rate: $expect_found of $expect_runs runs where a name is expected ($det)"
echo "false-naming rate: $total_false of $total_runs runs ($fal)"
