#!/bin/sh
# fabperf-report: the golden run folder (made by the programs, tests/report/make-golden.sh) and
# folders derived from it (tests/report/derive.py: verdicts, preflight and all-pairs in the
# formats the report assumes, damaged files, a 100-node matrix) render to pages that parse as
# HTML5 and hold the expected rows; bad usage exits 2 with one line.
#
# Environment: FABPERF_REPORT [tools/fabperf-report], FABPERF_TESTS_DIR [tests], PYTHON3.

# The assertion functions run through check, which shellcheck does not follow.
# shellcheck disable=SC2317
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=${FABPERF_TESTS_DIR:-$here/..}
report=${FABPERF_REPORT:-$tests/../tools/fabperf-report}
golden=$tests/report/golden/run
PYTHON3=${PYTHON3:-python3}
failures=0
checks=0
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-report-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# The page checker needs html5lib: Debian's python3-html5lib lives in the system Python.
html_python=
for p in "$PYTHON3" /usr/bin/python3; do
    if "$p" -c 'import html5lib' 2>/dev/null; then
        html_python=$p
        break
    fi
done
if [ -z "$html_python" ]; then
    echo "not ok - no Python with html5lib (apt-get install python3-html5lib; scripts/install-deps.sh)"
    exit 1
fi

check() {
    description=$1
    shift
    checks=$((checks + 1))
    if "$@"; then
        echo "ok - $description"
    else
        echo "not ok - $description"
        failures=$((failures + 1))
    fi
}

# run_report ARGS...: stdout in $work/out, stderr in $work/err, status in $rc.
run_report() {
    "$PYTHON3" "$report" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

rc_is() {
    [ "$rc" -eq "$1" ] || { echo "  exit status $rc, expected $1:"; sed 's/^/    /' "$work/err"; return 1; }
}

one_error_line() {
    if [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^fabperf-report: error: .*$1" "$work/err"; then
        return 0
    fi
    echo "  expected one error line matching '$1':"
    sed 's/^/    /' "$work/err"
    return 1
}

holds() {
    "$html_python" "$tests/report/check_report.py" "$@"
}

# ---- the golden folder as the programs left it ----------------------------------------------
run_report "$golden" -o "$work/golden.html"
check "golden folder: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$work/err' ]"
check "golden page parses as HTML5, every link resolves, nothing external" \
    holds "$work/golden.html" 'set(fragments) <= ids and not external and svgs == 2'
check "summary: exactly the cut-short and the failed configuration are listed as not ok" \
    holds "$work/golden.html" '[(r["attrs"]["data-config"], r["attrs"]["data-state"], r["cells"][3:6])
        for r in rows("summary-launches")] == [("tcp-stalled", "partial", ["0", "1", "0"]),
        ("bad-btl", "failed", ["0", "0", "1"])]'
check "summary: all 6 configurations, 14 launches, none dropped" \
    holds "$work/golden.html" 'len(rows("summary-all-launches")) == 6 and
        sum(int(r["cells"][2]) for r in rows("summary-all-launches")) == 14 and
        len([i for i in ids if __import__("re").fullmatch(r"c[0-9]+-l[0-9]+", i)]) == 14'
check "cut-short launch: its state, the end line's reason, rows up to 2K kept" \
    holds "$work/golden.html" 'any(r["cells"][2] == "cut short" and "timed out after 1 s at size 4096 B" in r["cells"][5]
        for t in ("c3-launches",) for r in rows(t)) and [r["cells"][0] for r in rows("c3-sizes")][-1] == "2K"'
check "failed launch: no result file, the launcher's exit status and the end of its log" \
    holds "$work/golden.html" '[(r["cells"][2], r["cells"][3], r["cells"][5]) for r in rows("c6-launches")] ==
        [("failed", "1", "no result file (launcher exit 1)")] and "mpi_init:startup:internal-failure" in rows("c6-launches")[0]["cells"][6]'

# The between-launch interval of shm latency at 1 B, from the six files themselves.
expected=$("$PYTHON3" - "$golden" <<'EOF'
import json, os, statistics, sys
values, launch_rows = [], []
for k in range(1, 7):
    with open(os.path.join(sys.argv[1], f"shm.{k}.fabperf_latency.json")) as f:
        rows = [json.loads(line) for line in f if '"type":"row"' in line]
    values.append(next(r["p50_us"] for r in rows if r["size"] == 1))
    launch_rows.append({r["size"]: r for r in rows})
disagree = []
for size in sorted(launch_rows[0]):
    los = [x[size]["p50_ci_lo_us"] for x in launch_rows]
    his = [x[size]["p50_ci_hi_us"] for x in launch_rows]
    disagree.append(max(los) > min(his))
print(statistics.median(values), min(values), max(values), "".join("d" if d else "a" for d in disagree))
EOF
)
# shellcheck disable=SC2086 # three numbers and the agreement per size (a or d)
set -- $expected
check "between launches: median of 6 launch medians, CI = [lowest, highest] (order statistics)" \
    holds "$work/golden.html" "[(float(r['cells'][1]), r['cells'][2]) for r in rows('c2-sizes') if r['cells'][0] == '1'][0]
        and abs(float(rows('c2-sizes')[0]['cells'][1]) / $1 - 1) < 1e-3
        and [abs(float(x) / y - 1) < 1e-3 for x, y in zip(rows('c2-sizes')[0]['cells'][2].strip('[]').split(', '), ($2, $3))] == [True, True]"
check "launches disagree exactly where two launches' own CIs do not overlap" \
    holds "$work/golden.html" "''.join('d' if r['cells'][5] == 'launches disagree' else 'a' for r in rows('c2-sizes')) == '$4'"
check "fewer than 6 launches: no between-launch CI, said so" \
    holds "$work/golden.html" 'rows("c5-sizes")[0]["cells"][2] == "n=2: none below 6"'
check "provenance: MPI library, placement and the launch command" \
    holds "$work/golden.html" '"mpi_library Open MPI v4.1.4" in text and "hosts vm (2 ranks)" in text
        and "mpirun --allow-run-as-root" in text'

run_report "$golden"
check "no -o: the same page on standard output" cmp -s "$work/out" "$work/golden.html"
run_report --title "fabric acceptance" "$golden" -o "$work/title.html"
check "6 configurations: the table of all is open" grep -q '<details open><summary>All 6 configurations' "$work/golden.html"
cp -r "$golden" "$work/differ"
sed -i 's/"mpi_library":"Open MPI v4.1.4/"mpi_library":"Open MPI v9/' "$work/differ/shm.2.fabperf_bw.json"
run_report "$work/differ" -o "$work/differ.html"
check "provenance: a meta field that differs between launches is marked" \
    holds "$work/differ.html" '"(differs in shm.2.fabperf_bw.json)" in text'
check "--title sets the title" holds "$work/title.html" 'text.startswith("fabric acceptance fabric acceptance Run folder")'

# ---- sections the programs do not write yet, damaged files, a large matrix ------------------
"$PYTHON3" "$tests/report/derive.py" assumed "$golden" "$work/assumed" 100
run_report "$work/assumed" -o "$work/assumed.html"
check "derived folder: exit 0" rc_is 0
check "derived page parses as HTML5, every link resolves, the heatmap is one embedded PNG" \
    holds "$work/assumed.html" 'set(fragments) <= ids and not external and len(images) == 1
        and images[0].startswith("data:image/png;base64,")'
check "verdicts: size 1 fails, size 2 is inconclusive, 11 pass; thresholds shown; rows linked" \
    holds "$work/assumed.html" '[(r["cells"][2], r["attrs"]["data-verdict"]) for r in rows("summary-verdicts")][:3]
        == [("1", "fail"), ("2", "inconclusive"), ("4", "pass")]
        and len(rows("summary-verdicts")) == 13 and "1 fail, 1 inconclusive, 11 pass" in text
        and rows("summary-verdicts")[0]["cells"][4] == "bw_p50_mbps >= 1000000000000 MB/s"
        and rows("summary-verdicts")[0]["links"][1] in ["#" + i for i in ids]'
check "path evidence: the NIC that carried each size" \
    holds "$work/assumed.html" 'all(r["cells"][10] == "vm:lo 100%; vm:lo 100%" for r in rows("c4-sizes"))'
check "preflight: node-b fails with 2 findings, listed first, each linked to its row" \
    holds "$work/assumed.html" '[(r["attrs"]["data-node"], r["attrs"]["data-status"], r["cells"][2])
        for r in rows("summary-preflight")] == [("node-b", "fail", "2"), ("node-a", "pass", "0"), ("node-c", "pass", "0")]
        and rows("summary-preflight")[0]["links"] == ["#node-node-b", "#pf-1", "#pf-2"]'
check "all pairs: slow node n002, slow link n000-n003, slow rail, linked to the cells behind them" \
    holds "$work/assumed.html" '[(r["attrs"]["data-kind"], r["attrs"]["data-where"]) for r in rows("summary-pairs")]
        == [("slow_node", "n002"), ("slow_link", "n000, n003"), ("slow_rail", "rail mlx5_1")]
        and [r["cells"] for r in rows("p1-f3-rows")] == [["n000 → n001", "10003"]]
        and [(r["cells"], r["links"]) for r in rows("p1-f2-rows")] == [(["n000 → n003", "3000"], ["#p1-m1-m-0-3"]),
        (["n003 → n000", "3000"], ["#p1-m1-m-3-0"])] and len(rows("p1-f1-rows")) == 2 * 99'
check "damaged files: cut mid-line and a killed launch's FILE.tmp.PID are cut short, empty and not-JSON are failed" \
    holds "$work/assumed.html" '[(r["cells"][0], r["cells"][2]) for r in rows("c5-launches")] ==
        [("tcp.1.fabperf_latency.json", "ok"), ("tcp.2.fabperf_latency.json", "ok"),
         ("tcp.3.fabperf_latency.json", "cut short"), ("tcp.4.fabperf_latency.json", "failed"),
         ("tcp.5.fabperf_latency.json", "failed"), ("tcp.6.fabperf_latency.json.tmp.4242", "cut short")]
        and "last line is cut short" in rows("c5-launches")[2]["cells"][5]
        and "line 1 is not JSON" in rows("c5-launches")[4]["cells"][5]
        and "killed before it renamed this file to tcp.6.fabperf_latency.json" in rows("c5-launches")[5]["cells"][5]'

"$PYTHON3" "$tests/report/derive.py" assumed "$golden" "$work/small" 8
run_report "$work/small" -o "$work/small.html"
check "8-node matrix: SVG cells with their values, no image" \
    holds "$work/small.html" 'not images and "p1-m1-0-3" in ids and "p1-m1-7-6" in ids
        and "n000 → n003: 3000 MB/s" in text'
"$PYTHON3" -c 'import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
json.dump(records, open(sys.argv[1], "w"))' "$work/small/preflight.json"
run_report "$work/small" -o "$work/array.html"
check "preflight as one JSON document (an array): the same rows" \
    holds "$work/array.html" '[r["attrs"]["data-node"] for r in rows("summary-preflight")] == ["node-b", "node-a", "node-c"]'

"$PYTHON3" "$tests/report/derive.py" scale "$golden" "$work/scale" 80 70
run_report "$work/scale" -o "$work/scale.html"
check "80 configurations: 4 plots of 8 per program, the rest said to be in the tables" \
    holds "$work/scale.html" 'svgs == 2 * 4 + 1 and "fabperf_bw: 8 more configurations are not plotted" in text
        and "fabperf_latency: 8 more configurations are not plotted" in text'
check "80 configurations: the table of all of them is collapsed, none is listed as not ok" \
    holds "$work/scale.html" '"All 240 launches of 80 configurations ended ok." in text and len(rows("summary-all-launches")) == 80'
check "1040 verdicts: only the one that did not pass is listed in the summary" \
    holds "$work/scale.html" '[(r["cells"][0], r["cells"][2]) for r in rows("summary-verdicts")] == [("cfg0079", "64")]
        and "1039 of 1040 verdicts are pass" in text'
check "the configuration with a failing size is plotted first, though last of 40" \
    holds "$work/scale.html" '"cfg0079" in [t for t in svg_texts if "fabperf_latency" in t][0]'
check "70-node matrix: an embedded PNG" holds "$work/scale.html" 'len(images) == 1'
"$PYTHON3" -c 'import sys; sys.exit(0 if "<details><summary>All 80 configurations" in open(sys.argv[1]).read() else 1)' \
    "$work/scale.html"
check "80 configurations: the table of all is closed (<details> without open)" [ $? -eq 0 ]

# ---- bad usage ------------------------------------------------------------------------------
run_report "$work/no-such-folder"
check "missing folder: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ ! -s '$work/out' ]"
check "missing folder: the line names it" one_error_line "no-such-folder: not a folder"
mkdir "$work/empty"
run_report "$work/empty"
check "empty folder: exit 2, one line" sh -c "[ $rc -eq 2 ]"
check "empty folder: the line says so" one_error_line "holds no fabperf result"
run_report
check "no folder: exit 2, one line naming the argument" sh -c "[ $rc -eq 2 ] && grep -q RUN_FOLDER '$work/err'"
run_report "$golden" -o "$work/no-such-dir/page.html"
check "unwritable output: exit 1, one line" sh -c "[ $rc -eq 1 ]"
check "unwritable output: the line names the file" one_error_line "cannot write .*page.html"
env FABPERF_COMPARE="$work/no-such-compare" "$PYTHON3" "$report" "$golden" >"$work/out" 2>"$work/err"
check "fabperf-compare missing: exit 2, one line naming it" one_error_line "cannot load fabperf-compare from .*no-such-compare"
run_report --help
check "--help: what is read and the exit status" \
    sh -c "grep -q launches.tsv '$work/out' && grep -q skipped.txt '$work/out' && grep -q 'exit status' '$work/out'"

echo "1..$checks"
[ "$failures" -eq 0 ]
