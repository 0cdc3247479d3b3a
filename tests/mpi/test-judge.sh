#!/bin/sh
# The all-pairs judge against known faults (tests/faults/slow.c delays when a rank sees its data
# arrive, so only the faulty direction slows): each case a wrong verdict an earlier judge gave.
# - 3 ranks, a 40x slow sender: "uniform" passed; now the size cannot be judged and says so
#   (inconclusive: exit 4).
# - 6 ranks, shift mode, a 10x slow sender: cleared as congestion (its re-test compared with the
#   congested sweep); now it stands, beside healthy pairs measured alone.
# - 4 ranks, isolated mode, a 10x slow receiver: never found; clean isolated sweeps: false alarms.
# - sampled mode with --rounds 2: could not place a link; now at least 3 shifts, the link named.
# - shift mode, a slow link: its round named instead; now the link.
# - isolated latency: a direction claimed on round trips; now "round-trip" (a fixed 50 us per ping:
#   a factor of the time since the receive was posted would vary with the wait before each ping).
# - no re-test budget: suspects undecided, "uniform" inconclusive (exit 4), never a pass.
# Then the detection-power harness, small (bench/judge-power.py: clean and 10x faults, each mode).
# A sweep with a fault runs until its verdict is the expected one, and fails at the third miss:
# other work on a shared machine slows cells at random and the judge may then rightly say it cannot
# decide; a judge that names the wrong thing fails every try. An inconclusive try while a second job
# kept the cores busy (tests/foreign_cpu.py) is not a miss. Clean sweeps run once: no try may raise
# a false alarm.
# Open MPI only: MPICH ch4:ucx polls without yielding, and with more ranks than cores its cells
# are the scheduler's (a 4-rank sweep on 2 cores: 65 MB/s cells against Open MPI's 3700).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}
if [ "${FABPERF_MPI_FLAVOR:-openmpi}" != openmpi ]; then
    echo "SKIP: fault-injection sweeps need ranks that yield when oversubscribed (Open MPI)"
    exit 77
fi
bw="-m 128K:128K -W 8 -i 20 -x 2 --expect uniform --format json"

# standing KIND DIRECTION RANKS: exactly one standing finding, this one, and the size fails.
standing() {
    echo "[(f['kind'], f['direction'], f['ranks']) for f in records if f['type'] == 'finding' and f['status'] == 'stands'] == [('$1', '$2', $3)] and [r['verdict'] for r in rows] == ['fail']"
}

# shellcheck disable=SC2086 # option words
run_with_slow 3 sm "FP_SLOW_RANK=1 FP_SLOW_AS=sender FP_SLOW_FACTOR=40" fabperf_allpairs $bw
check "3 ranks, 40x slow sender: exit 4 (inconclusive), not a fail" rc_is 4
check "3 ranks: the judge record says it cannot judge, uniform is inconclusive, no finding" json_check "$work/out" \
    "[(j['decided'], j['reason'], j['places']) for j in records if j['type'] == 'judge'] == [(False, 'too few nodes to judge (3 < 4)', [])] and [r['verdict'] for r in rows] == ['inconclusive'] and not [f for f in records if f['type'] == 'finding']"

# shellcheck disable=SC2086
check "6 ranks shift, 10x slow sender 2: exit 3, slow node 2 as sender stands, alone below a quarter of healthy pairs alone" \
    until_named finding "RC == 3 and $(standing slow_node send "[2]") and all(f['alone']['value'] < 0.25 * f['healthy_alone']['value'] for f in records if f['type'] == 'finding' and f['status'] == 'stands')" \
    6 sm "FP_SLOW_RANK=2 FP_SLOW_AS=sender FP_SLOW_FACTOR=10" fabperf_allpairs $bw

# A slow link slows its whole round (its ranks wait on it while they serve other pairs): it was
# named as a slow round; now the link stands, and a round it explains is cleared.
# shellcheck disable=SC2086
check "6 ranks shift, link 4 -> 0 slow by 2.5 ms a window: exit 3, the link stands, nothing else, its round cleared" \
    until_named finding "RC == 3 and $(standing slow_link one-way "[4, 0]") and all(f['status'] == 'cleared' for f in records if f['type'] == 'finding' and f['kind'] == 'slow_round')" \
    6 sm "FP_SLOW_RANK=4 FP_SLOW_AS=link FP_SLOW_PEER=0 FP_SLOW_FACTOR=1 FP_SLOW_US=2500" fabperf_allpairs $bw

# shellcheck disable=SC2086
check "4 ranks isolated, 10x slow receiver 3: exit 3, slow node 3 as receiver stands" \
    until_named finding "RC == 3 and $(standing slow_node receive "[3]")" \
    4 sm "FP_SLOW_RANK=3 FP_SLOW_AS=receiver FP_SLOW_FACTOR=10" fabperf_allpairs $bw --mode isolated

for run in 1 2; do
    # shellcheck disable=SC2086
    run_job 4 sm fabperf_allpairs $bw --mode isolated
    check "4 ranks isolated, clean ($run): no finding stands, uniform passes (exit 0) or is inconclusive (exit 4)" json_check "$work/out" \
        "not [f for f in records if f['type'] == 'finding' and f['status'] == 'stands'] and ($rc, [r['verdict'] for r in rows]) in ((0, ['pass']), (4, ['inconclusive']))"
done
check "isolated: the title claims no shift rounds, the sweep line says isolated" json_check "$work/out" \
    "'shift' not in meta['title'] and meta['sweep'].startswith('isolated: one pair at a time') and meta['judge']['retest_budget_s'] == 'auto' and meta['judge']['min_nodes'] == 4"

# shellcheck disable=SC2086
check "6 ranks sampled --rounds 2: at least 3 shifts measured, every fault placeable, the link 1 -> 3 stands, nothing else" \
    until_named finding "[len(m['shifts']) >= 3 for m in records if m['type'] == 'matrix'] == [True] and [j['places'] for j in records if j['type'] == 'judge'] == [['sender', 'receiver', 'link']] and $(standing slow_link one-way "[1, 3]")" \
    6 sm "FP_SLOW_RANK=1 FP_SLOW_AS=link FP_SLOW_PEER=3 FP_SLOW_FACTOR=10" fabperf_allpairs $bw --mode sampled --rounds 2

check "isolated latency, receiver 2 slow by 50 us a ping: exit 3, node 2 stands as round trips, no direction claimed" \
    until_named finding "RC == 3 and [(f['kind'], f['direction'], f['ranks']) for f in records if f['type'] == 'finding' and f['status'] == 'stands'] == [('slow_node', 'round-trip', [2])]" \
    4 sm "FP_SLOW_RANK=2 FP_SLOW_AS=receiver FP_SLOW_FACTOR=1 FP_SLOW_US=50" fabperf_allpairs_lat -m 8:8 -i 200 -x 20 \
    --mode isolated --expect uniform --format json

# No budget: every suspect undecided (the slow sender among them), the reason counts them. Isolated
# mode: in shift mode a 10x sender holds up its partners' other pairs, and the judge may call the
# matrix too noisy instead.
# shellcheck disable=SC2086
check "--retest-budget 0: exit 4, the suspects undecided, node 4 among them, uniform inconclusive, the reason said" \
    until_named finding "RC == 4 and {f['status'] for f in records if f['type'] == 'finding'} == {'undecided'} and ('slow_node', 'send', [4]) in [(f['kind'], f['direction'], f['ranks']) for f in records if f['type'] == 'finding'] and [r['verdict'] for r in rows] == ['inconclusive'] and [j['reason'] for j in records if j['type'] == 'judge'] == ['re-test budget spent: %d suspect(s) not re-measured' % len([f for f in records if f['type'] == 'finding'])]" \
    6 sm "FP_SLOW_RANK=4 FP_SLOW_AS=sender FP_SLOW_FACTOR=10" fabperf_allpairs $bw --mode isolated --retest-budget 0

run_job 4 sm fabperf_allpairs --min-effect 1.5
check "--min-effect 1.5: exit 2, one line with the range" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs:' '$work/err') -eq 1 ] && grep -q -- '--min-effect: .1.5. is out of range (accepted: 0.01 to 0.9)' '$work/err'"
run_job 4 sm fabperf_allpairs --retest-budget soon
check "--retest-budget soon: exit 2, one line naming auto" sh -c \
    "[ $rc -eq 2 ] && grep -q -- '--retest-budget: .soon. is not a number (accepted: 0 to 86400 or auto)' '$work/err'"

# The harness, small: 6 ranks, each mode, 2 clean sweeps and a 10x sender, receiver and link.
if [ "${FABPERF_MPI_FLAVOR:-openmpi}" = openmpi ]; then
    "$PYTHON3" "$FABPERF_BENCH_DIR/judge-power.py" --build "$FABPERF_BUILD_DIR" --ranks 6 --clean 2 \
        --repeats 1 --factors 10 --check --smoke >"$work/power" 2>&1
    power_rc=$?
    cat "$work/power"
    check "judge-power (6 ranks, every mode): every sweep complete, at least 2 of 3 10x faults named" [ "$power_rc" -eq 0 ]
fi
finish
