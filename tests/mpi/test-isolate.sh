#!/bin/sh
# --isolate, the search for the member that slows a collective, against a known fault: the member
# role of tests/faults/slow.c makes one rank enter every collective call late, by 3 ms or 9x a
# clean search's typical call where longer (late_us), so every group it is in waits for it.
# - each of the six collectives, 8 ranks, the slow rank moving: exit 3, that rank the one finding
#   (a member, standing), named with its host on standard error and in the JSON; the search tree's
#   records: every round's groups disjoint, the slow rank's groups slow or confirmed slow;
# - clean searches (allreduce, 8 ranks): no finding stands, exit 0, or 4 with the reason said;
# - slow half the time (spells of 50 ms): found, or undecided, never another rank;
# - 3 ranks: too few to search, inconclusive (exit 4), the reason in the record and on stderr;
# - --suspects: only the listed ranks, confirmed; --expect met at the size: no search;
# - text: the rounds and the finding as comment lines; CSV: no search lines, the exit status;
# - --isolate with --backend nccl or a point-to-point program: exit 2, one line.
# First, under the known clock, every figure of the search exactly.
# A faulty search runs until it names the slow rank and fails at the third miss; a try that was
# inconclusive with nothing standing while a second job kept the cores busy (tests/foreign_cpu.py)
# is not a miss (tests/lib.sh, until_named, says why). Open MPI only: MPICH ch4:ucx polls
# without yielding, and with more ranks than cores its groups' times are the scheduler's.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_COLL_BIN:?run through make check}
if [ "${FABPERF_MPI_FLAVOR:-openmpi}" != openmpi ]; then
    echo "SKIP: fault-injection searches need ranks that yield when oversubscribed (Open MPI)"
    exit 77
fi
search="-m 64K:64K -i 20 -x 2 --isolate --format json"

# findings_are RANKS: the standing findings are one member finding per rank of RANKS, none else
findings_are() {
    echo "sorted((f['kind'], f['ranks']) for f in records if f['type'] == 'isolate_finding' and f['status'] == 'stands') == [('member', [r]) for r in $1]"
}

# tree_ok: every round's groups are disjoint, each record has its figures or says why not
tree_ok="all(len(set(sum([g['ranks'] for g in records if g['type'] == 'isolate_group' and g['round'] == k], []))) == sum(len(g['ranks']) for g in records if g['type'] == 'isolate_group' and g['round'] == k) for k in {g['round'] for g in records if g['type'] == 'isolate_group'}) and [i['rounds'] for i in records if i['type'] == 'isolate'] == [max([g['round'] for g in records if g['type'] == 'isolate_group'] or [0])]"

# Under the known clock (tests/faults/known_clock.c: each collective call moves MPI_Wtime by 4 us,
# 24 on rank 6), every figure of the search has one value: a group's time 24 us with rank 6 in it,
# else 4; a judged group's threshold max(reference / 0.75, reference's CI high end): 16/3 us
# against groups of 4 us, 32 against the slow half; the tree exactly as below.
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "FP_KNOWN_US=4 FP_KNOWN_SLOW_RANK=6 FP_KNOWN_SLOW_US=20" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --format json
known_tree="[(0, 1, [0, 1, 2, 3], 32, 'fine'), (0, 1, [4, 5, 6, 7], 16 / 3, 'slow'), (1, 2, [0, 1], None, 'reference'), (1, 2, [2, 3], None, 'reference'), (1, 2, [4, 5], 16 / 3, 'fine'), (1, 2, [6, 7], 16 / 3, 'slow'), (2, 'confirm', [0, 6], 16 / 3, 'slow'), (2, 'confirm', [1, 7], 16 / 3, 'fine'), (2, 'confirm', [2, 3], None, 'reference'), (3, 'confirm', [3, 6], 16 / 3, 'slow'), (3, 'confirm', [2, 7], 16 / 3, 'fine'), (3, 'confirm', [0, 1], None, 'reference')]"
check "known clock: exit 3, the search tree's groups, thresholds and statuses exactly" json_check "$work/out" \
    "$rc == 3 and [(g['round'] - 1, g['level'], g['ranks'], g['threshold_us'] if g['threshold_us'] is None else round(g['threshold_us'], 6), g['status']) for g in records if g['type'] == 'isolate_group'] == [(r, l, k, t if t is None else round(t, 6), s) for r, l, k, t, s in $known_tree]"
check "known clock: each group's median and CI 24 us with rank 6, else 4" json_check "$work/out" \
    "all((g['us'], g['us_lo'], g['us_hi']) == ((24, 24, 24) if 6 in g['ranks'] else (4, 4, 4)) for g in records if g['type'] == 'isolate_group')"
check "known clock: one finding, rank 6, 24 us against 4, 4 rounds, decided" json_check "$work/out" \
    "[(f['kind'], f['status'], f['ranks'], f['round'], f['us'], f['us_lo'], f['us_hi'], f['reference_us']) for f in records if f['type'] == 'isolate_finding'] == [('member', 'stands', [6], 4, 24, 24, 24, 4)] and [(i['rounds'], i['decided'], i['samples'], i['min_effect']) for i in records if i['type'] == 'isolate'] == [(4, True, 24, 0.25)]"
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "FP_KNOWN_US=4 FP_KNOWN_SLOW_RANK=6 FP_KNOWN_SLOW_US=20" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate
check "known clock, text: the confirming round and the finding with their figures" sh -c \
    "grep -q '^# isolate round 4 (confirm) group 1: 24.00 us \\[24.00, 24.00\\] slow: 3 (.*), 6 (' '$work/out' && grep -q '^# isolate finding (round 4): rank 6 (.*) slows fabperf_allreduce: beside a known-good partner 24.00 us a call \\[24.00, 24.00\\] against 4.00 us' '$work/out'"

# --suspects under the known clock: no levels, each suspect twice beside a known-good partner (the
# ranks not listed, in order, then in reverse), the partners left over as references.
known="FP_KNOWN_US=4 FP_KNOWN_SLOW_RANK=6 FP_KNOWN_SLOW_US=20"
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "$known" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --suspects 2,6 --format json
suspects_tree="[(1, [0, 2], 'fine'), (1, [1, 6], 'slow'), (1, [3, 4], 'reference'), (1, [5, 7], 'reference'), (2, [2, 7], 'fine'), (2, [5, 6], 'slow'), (2, [3, 4], 'reference'), (2, [0, 1], 'reference')]"
check "known clock, --suspects 2,6: exit 3, two confirming rounds exactly, rank 6 the one finding" json_check "$work/out" \
    "$rc == 3 and [(g['round'], g['ranks'], g['status']) for g in records if g['type'] == 'isolate_group'] == $suspects_tree and all(g['level'] == 'confirm' for g in records if g['type'] == 'isolate_group') and [(f['ranks'], f['status'], f['round'], f['us'], f['reference_us']) for f in records if f['type'] == 'isolate_finding'] == [([6], 'stands', 2, 24, 4)] and [(i['mode'], i['suspects']['ranks'], i['rounds'], i['decided']) for i in records if i['type'] == 'isolate'] == [('suspects', [2, 6], 2, True)]"
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "$known" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --suspects 2 --format json
check "known clock, --suspects 2 (healthy): exit 0, no finding, decided, 2 rounds" json_check "$work/out" \
    "$rc == 0 and not [f for f in records if f['type'] == 'isolate_finding'] and [(i['mode'], i['rounds'], i['decided']) for i in records if i['type'] == 'isolate'] == [('suspects', 2, True)]"
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "$known" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --suspects "$(hostname)" --format json
check "known clock, --suspects HOST (every rank): exit 4, no partner left, said" sh -c \
    "[ $rc -eq 4 ] && grep -q 'first: isolate: every rank is a suspect: no known-good partner' '$work/err' && grep -q '\"mode\":\"suspects\",\"suspects\":{\"ranks\":\[0,1,2,3,4,5,6,7\]' '$work/out'"
# --suspects-from: an all-pairs results file (JSON Lines) whose findings that stand or are
# undecided name rank 2 and rank 6 of this host, and a node not in this job; a cleared finding names
# rank 0. The suspects are ranks 2 and 6: the same two rounds as --suspects 2,6 above.
host=$(hostname)
cat >"$work/pairs.json" <<EOF
{"type":"meta","program":"fabperf_allpairs","ranks":8}
{"type":"finding","kind":"slow_node","nodes":["$host:6"],"ranks":[6],"status":"stands"}
{"type":"finding","kind":"slow_link","nodes":["$host:2","elsewhere"],"ranks":[2,9],"status":"undecided"}
{"type":"finding","kind":"slow_node","nodes":["$host:0"],"ranks":[0],"status":"cleared"}
{"type":"end","status":"complete"}
EOF
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "$known" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --suspects-from "$work/pairs.json" --format json
check "known clock, --suspects-from: ranks 2 and 6 confirmed as --suspects 2,6, rank 6 stands, the node not in the job said" json_check "$work/out" \
    "$rc == 3 and [(g['round'], g['ranks'], g['status']) for g in records if g['type'] == 'isolate_group'] == $suspects_tree and [(i['mode'], i['suspects']['ranks'], i['suspects_from']) for i in records if i['type'] == 'isolate'] == [('suspects', [2, 6], 'suspects from $work/pairs.json: 2 finding(s) that stand or are undecided; in this job: $host:6 (rank 6), $host:2 (rank 2); not in this job: elsewhere')]"
printf '%s\n' '{"type":"meta","program":"fabperf_allpairs","ranks":8}' '{"type":"end","status":"complete"}' >"$work/clean.json"
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "$known" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --suspects-from "$work/clean.json"
check "known clock, --suspects-from a sweep with no finding: the whole job searched (4 rounds), said, exit 3" sh -c \
    "[ $rc -eq 3 ] && grep -q '^# isolate: suspects from $work/clean.json: 0 finding(s) that stand or are undecided; the whole job searched\$' '$work/out' && grep -q '^# isolate at 65536 bytes: 8 rank(s), 4 round(s)' '$work/out'"
printf '%s\n' '{"type":"meta"' >"$work/broken.json"
run_job 4 sm fabperf_allreduce -m 64K:64K --isolate --suspects-from "$work/broken.json"
check "--suspects-from a file that is not JSON: exit 2, one line with the line number" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allreduce: ' '$work/err') -eq 1 ] && grep -q 'suspects-from: $work/broken.json: line 1 is not JSON' '$work/err'"
run_job 4 sm fabperf_allreduce -m 64K:64K --isolate --suspects 1 --suspects-from "$work/clean.json"
check "--suspects and --suspects-from: exit 2, give one" sh -c "[ $rc -eq 2 ] && grep -q 'suspects-from: --suspects names the suspects too: give one' '$work/err'"

# --expect: no search where the whole communicator meets it at the search's size (64 KiB at 4 us
# a call: 28.672 GB/s busbw); a search where it fails (24 us: 4.78 GB/s).
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "FP_KNOWN_US=4" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --expect 'busbw>=10@64K' --format json
check "known clock, --expect met: exit 0, no round, the record says why" json_check "$work/out" \
    "$rc == 0 and not [g for g in records if g['type'] == 'isolate_group'] and [(i['mode'], i['rounds'], i['decided'], i['reason']) for i in records if i['type'] == 'isolate'] == [('met', 0, True, 'the whole communicator meets --expect at this size (pass)')]"
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "FP_KNOWN_US=4" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --expect 'busbw>=10@64K'
check "known clock, --expect met, text: the no-search line" grep -q \
    '^# isolate at 65536 bytes: no search: the whole communicator meets --expect at this size (pass)$' "$work/out"
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "$known" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --expect 'busbw>=10@64K' --format json
check "known clock, --expect failed: exit 3, the search runs and names rank 6" json_check "$work/out" \
    "$rc == 3 and $(findings_are "[6]") and [(i['mode'], i['rounds']) for i in records if i['type'] == 'isolate'] == [('search', 4)]"
# Each group is judged by --expect at its own size where it decides: a group of 4 meets 10 GB/s
# busbw at 9.8304 us a call (65536 B x 1.5 / 10 GB/s), a pair at 6.5536 (x 1): the thresholds are
# those bounds, the verdicts exact (the references' too, shown, not judged).
check "known clock, --expect failed: each group judged by --expect at its size, its bound the threshold" json_check "$work/out" \
    "[(g['round'], g['ranks'], round(g['threshold_us'], 6) if g['threshold_us'] else None, g.get('expect'), g['status']) for g in records if g['type'] == 'isolate_group' and g['round'] <= 2] == [(1, [0, 1, 2, 3], 9.8304, 'pass', 'fine'), (1, [4, 5, 6, 7], 9.8304, 'fail', 'slow'), (2, [0, 1], None, 'pass', 'reference'), (2, [2, 3], None, 'pass', 'reference'), (2, [4, 5], 6.5536, 'pass', 'fine'), (2, [6, 7], 6.5536, 'fail', 'slow')]"
# A fabric slow everywhere (every call 4 us, 30 GB/s expected): no group meets --expect, so it
# tells none apart; the halves alike beside each other: one round, no finding; the whole fails
# (exit 3), so the search is undecided and says why, never "no member slows it".
FABPERF_SLOW_LIB=$FABPERF_KNOWN_CLOCK_LIB run_with_slow 8 sm "FP_KNOWN_US=4" \
    fabperf_allreduce -m 64K:64K -i 24 -x 2 --isolate --expect 'busbw>=30@64K' --format json
check "known clock, every group short of --expect: exit 3 (the size fails), no finding, the search undecided, said" json_check "$work/out" \
    "$rc == 3 and not [f for f in records if f['type'] == 'isolate_finding'] and [g['expect'] for g in records if g['type'] == 'isolate_group'] == ['fail', 'fail'] and [(i['rounds'], i['decided'], i['reason']) for i in records if i['type'] == 'isolate'] == [(1, False, \"the whole communicator fails --expect at this size, yet no member stands: the shortfall lies between the groups (a link between them), needs the whole job, or is everyone's (the fabric, or the expectation)\")]"

# late_us COLLECTIVE: how late the slow member enters each call: 3 ms, or 9 times a clean search's
# typical first-level call where that is longer, at most 40 ms (under the sanitizers, beside a
# second job, a call of 4 oversubscribed ranks can take 3 ms itself: a fixed 3 ms would be a 2x
# fault, not 10x). The slow rank must stand, alone; beside a second job a healthy rank that shared
# the slow one's groups may be left undecided (printed, not failed: it is not named).
late_us() {
    # shellcheck disable=SC2086 # option words
    run_job 8 sm "fabperf_$1" $search
    "$PYTHON3" -c '
import json, sys
us = sorted(r["us"] for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "isolate_group" and r["round"] == 1 and r["us"])
print(min(40000, max(3000, round(9 * us[len(us) // 2]))) if us else 3000)' "$work/out" 2>/dev/null || echo 3000
}

slow=1
for coll in allreduce allgather reduce_scatter bcast reduce alltoall; do
    slow=$(((slow + 3) % 8))
    late=$(late_us "$coll")
    # shellcheck disable=SC2086 # option words
    check "$coll, 8 ranks, rank $slow late into every call ($late us): exit 3, rank $slow the one standing finding, the tree's groups disjoint" \
        until_named isolate_finding "RC == 3 and $(findings_are "[$slow]") and $tree_ok" \
        8 sm "FP_SLOW_RANK=$slow FP_SLOW_AS=member FP_SLOW_US=$late" "fabperf_$coll" $search
    check "$coll: the finding on standard error, once, with its host" sh -c \
        "[ \$(grep -c '^fabperf_$coll: isolate: rank $slow (' '$work/err') -eq 1 ] || [ $rc -ne 3 ]"
done

for run in 1 2 3; do
    # shellcheck disable=SC2086
    run_job 8 sm fabperf_allreduce $search
    check "clean search $run (allreduce, 8 ranks): nothing stands; exit 0, or 4 with the reason" json_check "$work/out" \
        "not [f for f in records if f['type'] == 'isolate_finding' and f['status'] == 'stands'] and ($rc == 0 and [i['decided'] for i in records if i['type'] == 'isolate'] == [True] or $rc == 4 and [i['reason'] != '' for i in records if i['type'] == 'isolate'] == [True]) and $tree_ok"
done

# shellcheck disable=SC2086
run_with_slow 8 sm "FP_SLOW_RANK=5 FP_SLOW_AS=member FP_SLOW_US=3000 FP_SLOW_ON_S=0.05 FP_SLOW_OFF_S=0.05" \
    fabperf_allreduce $search
check "rank 5 slow half the time: found or undecided, never another rank" json_check "$work/out" \
    "$rc in (0, 3, 4) and all(f['ranks'] == [5] or f['kind'] != 'member' and 5 in f['ranks'] for f in records if f['type'] == 'isolate_finding' and f['status'] == 'stands')"

# shellcheck disable=SC2086
run_with_slow 3 sm "FP_SLOW_RANK=1 FP_SLOW_AS=member FP_SLOW_US=3000" fabperf_allreduce $search
check "3 ranks: too few to search, inconclusive (exit 4), said in the record and on stderr" sh -c \
    "[ $rc -eq 4 ] && grep -q 'first: isolate: too few ranks to search (3 < 4)' '$work/err' && grep -q '\"type\":\"isolate\".*\"rounds\":0,.*\"decided\":false,\"reason\":\"too few ranks to search (3 < 4)\"' '$work/out'"

run_with_slow 4 sm "FP_SLOW_RANK=2 FP_SLOW_AS=member FP_SLOW_US=3000" fabperf_allreduce -m 64K:64K -i 20 -x 2 --isolate
check "text, 4 ranks: exit 3, the rounds and the finding as comment lines (or inconclusive beside a second job)" sh -c \
    "{ [ $rc -eq 3 ] && grep -q '^# isolate round 1 (level 1) group 1: ' '$work/out' && grep -q '^# isolate finding (round [0-9]*): rank 2 (' '$work/out'; } || { [ $rc -eq 4 ] && [ $(loaded && echo 1 || echo 0) -eq 1 ]; }"
run_with_slow 4 sm "FP_SLOW_RANK=2 FP_SLOW_AS=member FP_SLOW_US=3000" fabperf_allreduce -m 64K:64K -i 20 -x 2 --isolate --format csv
check "csv: no search lines, the search's exit status 3 (or 4 beside a second job)" sh -c \
    "! grep -q isolate '$work/out' && { [ $rc -eq 3 ] || { [ $rc -eq 4 ] && [ $(loaded && echo 1 || echo 0) -eq 1 ]; }; }"

# --isolate with NCCL runs where NCCL is built (tests/gpu/test-nccl.sh); a host-only build says
# how to get it, as for any NCCL run.
if [ "${FABPERF_NCCL_BUILT:-no}" != yes ]; then
    run_job 2 sm fabperf_allreduce --backend nccl --isolate
    check "--isolate --backend nccl, built without NCCL: exit 2, one line saying how to build it" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allreduce:' '$work/err') -eq 1 ] && grep -q -- '--backend nccl: this fabperf was built without NCCL (reconfigure with --with-cuda=PATH --with-nccl=PATH)' '$work/err'"
fi
# refused OPTIONS MESSAGE: fabperf_allreduce with OPTIONS exits 2 with one line holding MESSAGE.
refused() {
    # shellcheck disable=SC2086 # option words
    run_job 2 sm fabperf_allreduce -m 4K:4K $1
    [ "$rc" -eq 2 ] && [ "$(grep -c '^fabperf_allreduce:' "$work/err")" -eq 1 ] && grep -q -F -- "$2" "$work/err" && return 0
    echo "  exit $rc; stderr:"
    sed 's/^/    /' "$work/err" | head -5
    return 1
}
check "--suspects without --isolate: exit 2, one line" \
    refused "--suspects 1" "--suspects: names the members --isolate confirms; give --isolate too"
check "--suspects 2 on 2 ranks: exit 2, the accepted range" \
    refused "--isolate --suspects 2" "--suspects: rank 2 is out of range (accepted: 0 to 1, the ranks of this job)"
check "--suspects naming a host of no rank: exit 2, the host and what is accepted" \
    refused "--isolate --suspects 0,no-such-host" \
    "--suspects: no rank of this job runs on host 'no-such-host' (accepted: rank numbers 0 to 1 and the job's host names"
check "--suspects with a word neither rank nor host: exit 2" \
    refused "--isolate --suspects a;b" "--suspects: 'a;b' is neither a rank number nor a host name"
check "--suspects with an empty word: exit 2" refused "--isolate --suspects 0," "--suspects: '0,' has an empty word"
FABPERF_BIN=$FABPERF_PT2PT_BIN run_job 2 sm fabperf_latency --isolate
check "--isolate on fabperf_latency: exit 2, one line" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_latency:' '$work/err') -eq 1 ] && grep -q -- '--isolate does not apply to fabperf_latency' '$work/err'"
finish
