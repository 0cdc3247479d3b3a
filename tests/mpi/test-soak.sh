#!/bin/sh
# A soak (--cycles, --soak): the sweep repeated, every row with its cycle and time, and each size's
# series (and each all-pairs cell's) searched for steps at the end. Under the known clock (tests/faults/known_clock.c) a
# round trip takes 2 us until rank 0's clock has stepped 1500 times and 4 us after: the latency
# rows read exactly 1 us, then exactly 2 us from one cycle on; the one step record names that
# cycle, the size, 1 -> 2 us, +100%, and Pettitt's bound computed here from the rows; exit 3. The
# same soak without the change: no step, exit 0. Too few cycles for a step to show: undecided,
# exit 4, one line. --soak DURATION runs cycles until it has passed; bad durations are refused
# (exit 2, one line); a soak stopped by a signal keeps every finished cycle in --output.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
: "${FABPERF_KNOWN_CLOCK_LIB:?run through make check}"

# known SETTINGS ARGS...: 2 ranks of fabperf_latency at 8 B under the known clock (T = 2 us)
known() {
    known_settings=$1
    shift
    # shellcheck disable=SC2086 # settings are words by design
    timeout 120 "$FABPERF_LAUNCH" 2 sm env LD_PRELOAD="$FABPERF_KNOWN_CLOCK_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" FP_KNOWN_US=2 $known_settings \
        "$FABPERF_BIN/fabperf_latency" -m 8:8 -i 100 -x 10 --batch 1 "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

# The step the rows show, computed here: the first cycle at 2 us, and Pettitt's bound from ranks.
cat >"$work/step.py" <<'EOF'
import json, math, re, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in recs if r["type"] == "row"]
steps = [r for r in recs if r["type"] == "step"]
soak = [r for r in recs if r["type"] == "soak"]
x = [r["p50_us"] for r in rows]
n = len(x)
assert [r["cycle"] for r in rows] == list(range(1, n + 1)), "a row per cycle, in order"
assert set(x) <= {1.0, 2.0}, x
first = next(i for i, v in enumerate(x) if v == 2.0)
assert all(v == 1.0 for v in x[:first]) and all(v == 2.0 for v in x[first:]), x
order = sorted(x)
ranks = [(order.index(v) + 1 + len(order) - order[::-1].index(v)) / 2 for v in x]
k = max(abs(2 * sum(ranks[:j]) - j * (n + 1)) for j in range(3, n - 2))
p = min(1.0, 2 * math.exp(-6 * k * k / (n ** 3 + n ** 2)))
s = steps[0]
ok = (len(steps) == 1 and s["size"] == 8 and s["cycle"] == first + 1 and s["before"] == 1 and s["after"] == 2
      and s["change"] == 1 and abs(s["p"] - p) <= 1e-6 * p and s["unit"] == "us" and s["worse"]
      and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", s["time"])
      and soak[0]["steps"] == 1 and soak[0]["decided"] and soak[0]["cycles"] == n)
if not ok:
    print("  expected the step at cycle", first + 1, "p", p, "got", steps, soak)
sys.exit(0 if ok else 1)
EOF

known "FP_KNOWN_AFTER_STEPS=1500 FP_KNOWN_AFTER_US=2" --cycles 20 --format json
check "a step: exit 3" rc_is 3
check "a step: one record at the cycle the rows change, 1 -> 2 us, +100%, Pettitt's bound" \
    "$PYTHON3" "$work/step.py" "$work/out"
check "a step: one line on standard error naming size, cycle and values" sh -c \
    "[ \"\$(grep -c '^fabperf_latency: latency at 8 steps up 100.0% at cycle [0-9]* (+[0-9.]* s, 20[0-9-]*T[0-9:]*Z): 1 -> 2 us (p = [0-9.e-]*), worse\$' '$work/err')\" -eq 1 ]"

known "FP_KNOWN_AFTER_STEPS=1500 FP_KNOWN_AFTER_US=2" --cycles 20
check "a step, text: the cycle lines, the step and the soak's summary" sh -c \
    "[ \"\$(grep -c '^# cycle [0-9]*: +[0-9.]* s\$' '$work/out')\" -eq 20 ] &&
     grep -q '^# step latency at 8 steps up 100.0% at cycle ' '$work/out' &&
     grep -q '^# soak: 20 cycles in [0-9.]* s, 1 sizes each searched for steps (false-alarm budget 0.05 each, a change of 10% or more): 1 step\$' '$work/out'"

known "" --cycles 20 --format json
check "no change: exit 0" rc_is 0
check "no change: no step, the soak decided" json_check "$work/out" \
    "not result.of('step') and [(s['decided'], s['steps'], s['cycles'], s['needed']) for s in result.of('soak')] == [(True, 0, 20, 12)] and len(rows) == 20"

known "" --cycles 5 --format json
check "5 cycles: exit 4 (a step could not have shown)" rc_is 4
check "5 cycles: the soak undecided, the cycles a step needs said" json_check "$work/out" \
    "[(s['decided'], s['needed']) for s in result.of('soak')] == [(False, 12)]"
check "5 cycles: one line on standard error" sh -c \
    "[ \"\$(grep -c '^fabperf_latency: soak 5 cycles in [0-9.]* s: undecided, a step in 1 sizes needs at least 12 cycles to show (budget 0.05 each)\$' '$work/err')\" -eq 1 ]"

# All-pairs: each cell's series searched too. Under the known clock (one step per sample: the
# acknowledgement's tag) rank 1's samples take 4 us more from its 210th step on: 15 steps per
# cycle (3 rounds of 2 warm-up and 3 timed samples), so from cycle 15 its three cells (1 -> x) read
# 4096 x 4 / 8 = 2048 MB/s instead of 4096; no other cell and not the size's median move.
pairs_known() {
    tag=$(sed -n 's/.*FP_TAG_ACK = \([0-9]*\).*/\1/p' "$FABPERF_TESTS_DIR/../engine/comm.h")
    # shellcheck disable=SC2086 # settings are words by design
    timeout 120 "$FABPERF_LAUNCH" 4 sm env LD_PRELOAD="$FABPERF_KNOWN_CLOCK_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" FP_KNOWN_TAG="$tag" FP_KNOWN_US=4 $1 \
        "$FABPERF_PAIRS_BIN/fabperf_allpairs" -m 4096:4096 -W 4 -i 3 -x 2 --batch 1 --cycles "$2" --format json \
        </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}
pairs_known "FP_KNOWN_AFTER_RANK=1 FP_KNOWN_AFTER_STEPS=210 FP_KNOWN_AFTER_US=4" 30
check "all-pairs, rank 1 slower from cycle 15: exit 3" rc_is 3
check "all-pairs: exactly the three cells 1 -> x step, at cycle 15, 4096 -> 2048 MB/s; the size does not" \
    json_check "$work/out" "sorted((s['cell']['from'], s['cell']['to'], s['cycle'], s['before'], s['after'], s['change']) for s in result.of('step')) == [(1, t, 15, 4096, 2048, -0.5) for t in (0, 2, 3)] and [(s['cells'], s['steps'], s['decided']) for s in result.of('soak')] == [(12, 3, True)] and all(r['bw_p50_mbps'] == 4096 for r in rows)"
check "all-pairs: one line per cell step on standard error, naming the cell" sh -c \
    "[ \"\$(grep -c '^fabperf_allpairs: bandwidth of cell 1 -> [023] ([^)]*) at 4096 steps down 50.0% at cycle 15 ' '$work/err')\" -eq 3 ]"
pairs_known "" 30
check "all-pairs, no change: exit 0, no step, 12 cells searched" json_check "$work/out" \
    "$rc == 0 and not result.of('step') and [(s['cells'], s['steps'], s['decided']) for s in result.of('soak')] == [(12, 0, True)]"
pairs_known "" 16
check "all-pairs, 16 cycles: the size decided, the cells not: exit 4, the cycles the cells need said" json_check "$work/out" \
    "$rc == 4 and [(s['decided'], s['needed'], s['cell_needed']) for s in result.of('soak')] == [(False, 14, 20)] and 'cells undecided: a step in 12 cells needs at least 20 cycles to show' in result.of('soak')[0]['line']"

run_job 2 sm fabperf_latency -m 8:64 -i 100 --soak 2s --format json
check "--soak 2s: cycles until 2 s had passed, every size in each, in order" json_check "$work/out" \
    "rows[-1]['t_s'] >= 2 and [r['cycle'] for r in rows] == [c for c in range(1, rows[-1]['cycle'] + 1) for _ in range(4)] and meta['soak'] == {'cycles': None, 'seconds': 2}"
run_job 2 sm fabperf_latency -m 8:8 -i 100 --soak 1h --cycles 3 --format json
check "--soak with --cycles: at most that many cycles" json_check "$work/out" "[r['cycle'] for r in rows] == [1, 2, 3]"

for bad in 10x 0.5s 31d -3m; do
    run_job 2 sm fabperf_latency -m 8:8 --soak "$bad"
    check "--soak $bad: exit 2" rc_is 2
    check "--soak $bad: one line naming option and range" sh -c \
        "[ \"\$(grep -c \"^fabperf_latency: --soak: '$bad' is not a duration (accepted: 1 s to 30 d, suffixes s m h d, e.g. 90s, 10m, 2h)\$\" '$work/err')\" -eq 1 ]"
done

# Stopped by a signal part-way: every finished cycle, with all its sizes, is in --output (the file
# in place with an end record saying why where the launcher passes SIGTERM on, as Open MPI's does;
# only the temporary file, whole lines, where it kills at once, as MPICH's hydra may).
rm -f "$work"/killed.json*
timeout 120 "$FABPERF_LAUNCH" 2 sm "$FABPERF_BIN/fabperf_latency" -m 8:64 -i 200 --soak 60s --format json \
    --output "$work/killed.json" </dev/null >"$work/out" 2>"$work/err" &
launcher=$!
sleep 3
kill -TERM "$launcher"
wait "$launcher"
kept=$(find "$work" -maxdepth 1 -name 'killed.json*' | sort | head -n 1)
whole="len(rows) >= 8 and all([r['size'] for r in rows if r['cycle'] == c] == [8, 16, 32, 64] for c in range(1, rows[-1]['cycle']))"
if [ "$kept" = "$work/killed.json" ]; then
    check "stopped by a signal: the finished cycles complete, the end record says why" json_check "$kept" \
        "$whole and end and end['status'].startswith('cut short: stopped by signal 15')"
elif [ -n "$kept" ]; then
    check "stopped by a signal (killed at once): the temporary file holds the finished cycles, whole" \
        json_check "$kept" "$whole and end is None"
else
    check "stopped by a signal: the results file or its temporary file kept" false
fi

finish
