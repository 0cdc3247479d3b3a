#!/bin/sh
# fabperf-baseline: a baseline built from 60 healthy launches (tests/tools/baseline_fixtures.py:
# values drawn from a known distribution) holds, per size, the median launch and the worst one
# (the 95 %/95 % tolerance bound of 60 launches is their minimum); fewer launches are refused;
# runs are judged pass, fail or inconclusive on their interval, a different placement is not
# compared and a different MPI library is said; over 20 healthy and 20 slowed runs the false alarms
# and detections stay within what the bound promises; expect prints the bounds as --expect terms,
# which fabperf_bw (2 ranks) judges its sizes by.
#
# Environment: FABPERF_TESTS_DIR [tests], PYTHON3, FABPERF_LAUNCH, FABPERF_BIN.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=${FABPERF_TESTS_DIR:-$here/..}
tool=$tests/../tools/fabperf-baseline
fixtures=$tests/tools/baseline_fixtures.py
# shellcheck source=tests/checks.sh
. "$tests/checks.sh"

run_tool() {
    "$PYTHON3" "$tool" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

"$PYTHON3" "$fixtures" "$work/healthy" 60 1.0 1
run_tool build "$work/healthy" -o "$work/base.json"
check "build from 60 launches: exit 0, nothing said" sh -c "[ $rc -eq 0 ] && [ ! -s '$work/err' ] && [ -s '$work/base.json' ]"
# The expected values, from the launch files themselves.
"$PYTHON3" - "$work/healthy" "$work/base.json" >"$work/bounds.txt" <<'PY'
import glob, json, statistics, sys
values = {}
for path in glob.glob(sys.argv[1] + "/*.json"):
    for r in map(json.loads, open(path)):
        if r["type"] == "row":
            values.setdefault(r["size"], []).append(r["bw_p50_mbps"])
base = json.load(open(sys.argv[2]))
ok = len(base["entries"]) == 2
for e in base["entries"]:
    v = values[e["size"]]
    ok &= (e["launches"] == 60 and e["order"] == 1 and e["bound"] == min(v) and e["centre"] == statistics.median(v)
           and e["placement"] == "H H, 2 ranks on 2 host(s)" and e["higher_is_better"] is True)
ok &= base["built_from"]["mpi_library"] == ["Open MPI v4.1.4"] and base["built_from"]["hosts"] == ["h1", "h2"]
print("ok" if ok else "wrong")
PY
check "each size: the bound is the worst of the 60 launches (k = 1), the centre their median; provenance kept" \
    grep -qx ok "$work/bounds.txt"

"$PYTHON3" "$fixtures" "$work/few" 58 1.0 2
run_tool build "$work/few" -o "$work/few.json"
check "58 launches: exit 2, one line naming the entry and the 59 it needs, nothing written" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'too few launches: 58 of fabperf_bw fabric 1024 B (H H, 2 ranks on 2 host(s)) (and 1 more entries); a 0.95/0.95 bound needs 59' '$work/err' && [ ! -e '$work/few.json' ]"
run_tool build "$work/few" -o "$work/few.json" --coverage 0.9 --confidence 0.9
check "--coverage 0.9 --confidence 0.9: 22 launches are enough" sh -c "[ $rc -eq 0 ]"
run_tool build "$work/few" -o "$work/x.json" --coverage 1.5
check "--coverage 1.5: exit 2, one line with the accepted range" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'coverage.*accepted: a fraction from 0.5 to below 1' '$work/err'"

"$PYTHON3" "$fixtures" "$work/ok" 6 1.0 4
run_tool check "$work/base.json" "$work/ok"
check "a healthy run: both sizes pass, exit 0, the summary line last" \
    sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^pass ' '$work/out') -eq 2 ] && tail -1 '$work/out' | grep -qx 'fabperf: PASS 2, FAIL 0, INCONCLUSIVE 0; nodes to drain: none'"
"$PYTHON3" "$fixtures" "$work/slow" 6 0.5 3
run_tool check "$work/base.json" "$work/slow"
check "a run at half speed: both sizes fail with the interval and the bound, exit 3" \
    sh -c "[ $rc -eq 3 ] && [ \$(grep -c '^fail .* MB/s against the bound .* MB/s (0.95 of healthy launches better than it, confidence 0.95, from 60' '$work/out') -eq 2 ]"
"$PYTHON3" "$fixtures" "$work/near" 6 0.885 6
run_tool check "$work/base.json" "$work/near"
check "a run whose interval straddles the bound: inconclusive, exit 0" \
    sh -c "[ $rc -eq 0 ] && grep -q '^inconclusive  fabperf_bw fabric' '$work/out'"
"$PYTHON3" "$fixtures" "$work/dd" 6 1.0 5 "D D" "MPICH Version: 4.0.2"
run_tool check "$work/base.json" "$work/dd"
check "other buffers: not compared, said with both placements; another MPI library said" \
    sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^inconclusive  .*: not compared: placement D D, 2 ranks on 2 host(s) here, H H, 2 ranks on 2 host(s) in the baseline' '$work/out') -eq 2 ] &&
        grep -q \"^# software differs: MPI library 'MPICH Version: 4.0.2' here, the baseline was built with 'Open MPI v4.1.4'\" '$work/out'"

# What the bound promises, measured: 20 healthy runs of 6 launches fail a size at most rarely (a
# 6-launch interval wholly below the 5 % point: far under 5 %); runs at 0.8 x fail at every size.
rates() {
    alarms=0 found=0
    for seed in $(seq 100 119); do
        "$PYTHON3" "$fixtures" "$work/h$seed" 6 1.0 "$seed"
        "$PYTHON3" "$tool" check "$work/base.json" "$work/h$seed" >"$work/h.out" 2>&1
        alarms=$((alarms + $(grep -c '^fail ' "$work/h.out")))
        "$PYTHON3" "$fixtures" "$work/s$seed" 6 0.8 "$seed"
        "$PYTHON3" "$tool" check "$work/base.json" "$work/s$seed" >"$work/s.out" 2>&1
        found=$((found + $(grep -c '^fail ' "$work/s.out")))
    done
    echo "  false alarms $alarms of 40 healthy sizes, detected $found of 40 sizes at 0.8 x"
    [ "$alarms" -le 2 ] && [ "$found" -eq 40 ]
}
check "20 healthy and 20 slowed runs: at most 2 of 40 healthy sizes fail, all 40 slowed ones do" rates

# expect: the bounds as the programs' --expect terms, read by a program's own parser.
# expected_terms BASELINE TOLERANCE [PLACEMENT]: the terms, from the file's entries, in $work/terms.txt
expected_terms() {
    "$PYTHON3" - "$@" >"$work/terms.txt" <<'PY'
import json, sys
entries = sorted((e for e in json.load(open(sys.argv[1]))["entries"] if sys.argv[3:] in ([], [e["placement"]])),
                 key=lambda e: e["size"])
print(",".join("bw>=%.10g@%d" % (e["bound"] * (1 - float(sys.argv[2])), e["size"]) for e in entries))
PY
}
run_tool expect "$work/base.json" --program fabperf_bw
expected_terms "$work/base.json" 0
check "expect: one bw>= term per size, the bound at the size in bytes, exit 0" \
    sh -c "[ $rc -eq 0 ] && cmp -s '$work/out' '$work/terms.txt'"
run_tool expect "$work/base.json" --program fabperf_bw --tolerance 0.1
expected_terms "$work/base.json" 0.1
check "expect --tolerance 0.1: each bound at 0.9 of itself" sh -c "[ $rc -eq 0 ] && cmp -s '$work/out' '$work/terms.txt'"
terms=$(cat "$work/out")
timeout 300 "$FABPERF_LAUNCH" 2 sm "$FABPERF_BIN/fabperf_bw" -m 1K:1M -i 3 -x 1 --format json --expect "$terms" \
    >"$work/bw.json" 2>"$work/bw.err"
rc=$?
check "fabperf_bw --expect with the printed terms: judged at 1 KiB and 1 MiB only, each against its term (exit $rc, not 2)" \
    "$PYTHON3" - "$work/bw.json" "$terms" "$rc" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if '"row"' in l]
terms = dict((int(t.split("@")[1]), t) for t in sys.argv[2].split(","))
ok = sys.argv[3] != "2" and len(rows) == 11 and all(r.get("expect") == terms.get(r["size"]) for r in rows)
ok &= all((r.get("verdict") is not None) == (r["size"] in terms) for r in rows)
sys.exit(0 if ok else 1)
PY
run_tool expect "$work/base.json" --program fabperf_latency
check "expect for a program without entries: exit 2, one line naming what the baseline has" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'no entry of fabperf_latency; it has: fabperf_bw fabric (H H, 2 ranks on 2 host(s))' '$work/err'"
"$PYTHON3" "$fixtures" "$work/healthy-dd" 60 2.0 7 "D D"
run_tool build "$work/healthy" "$work/healthy-dd" -o "$work/two.json"
run_tool expect "$work/two.json" --program fabperf_bw
check "expect where two placements have entries: exit 2, one line naming both" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q \"2 configurations (--label 'fabric' --placement 'D D, 2 ranks on 2 host(s)'; --label 'fabric' --placement 'H H, 2 ranks on 2 host(s)'): name one\" '$work/err'"
run_tool expect "$work/two.json" --program fabperf_bw --placement 'D D, 2 ranks on 2 host(s)'
expected_terms "$work/two.json" 0 'D D, 2 ranks on 2 host(s)'
check "expect --placement: exactly that placement's bounds" sh -c "[ $rc -eq 0 ] && cmp -s '$work/out' '$work/terms.txt'"
run_tool expect "$work/base.json" --program fabperf_bw --tolerance 1
check "expect --tolerance 1: exit 2, one line with the accepted range" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'tolerance: 1: accepted: a fraction from 0 to below 1' '$work/err'"

run_tool check "$work/base.json" "$work/no-such-folder"
check "check of a missing folder: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ]"
run_tool check "$work/ok/fabric.1.fabperf_bw.json" "$work/ok"
check "a file that is not a baseline: exit 2, one line saying so" \
    sh -c "[ $rc -eq 2 ] && grep -q 'not a fabperf-baseline file\|cannot read a baseline' '$work/err'"
run_tool
check "no command: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ]"
finish
