#!/bin/sh
# fabperf-rails on synthetic run folders with known medians (rails_fixtures.py): a slow rail, a
# slow node, a slow link, nothing slow, too few launches, latency, rails named from the env, sweeps,
# the cross-rail matrix, --size, --expect and --line-rate, path evidence, the programs' verdicts,
# JSON, bad input.
#
# Environment: FABPERF_RAILS_TOOL (the script) [$(dirname "$0")/../../tools/fabperf-rails],
# PYTHON3 [python3].
# Exit status: 0 pass, 1 failure.

# The assertion functions run through check, which shellcheck does not follow.
# shellcheck disable=SC2317
here=$(dirname "$0")
tool=${FABPERF_RAILS_TOOL:-$here/../../tools/fabperf-rails}
# shellcheck source=tests/checks.sh
. "$here/../checks.sh"

# rails ARGS...: runs the tool; stdout in $work/out, stderr in $work/err, status in $rc.
rails() {
    "$PYTHON3" "$tool" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

# scenario NAME: the fixture folder of that scenario (made once)
scenario() {
    [ -d "$work/$1" ] || "$PYTHON3" "$here/rails_fixtures.py" "$work/$1" "$1"
    echo "$work/$1"
}

# out_lines REGEX COUNT: exactly COUNT lines of the output match REGEX
out_lines() {
    n=$(grep -c -E -e "$1" "$work/out")
    [ "$n" -eq "$2" ] || { echo "  $n lines match '$1', expected $2:"; sed 's/^/    /' "$work/out"; return 1; }
}

# findings "KIND:RAIL:NODE ..." (JSON output in $work/out): exactly these findings, in any order
# ("-" for a field that is null).
findings() {
    "$PYTHON3" - "$work/out" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted(f"{f['kind']}:{f['rail'] or '-'}:{f['node'] or '-'}" for t in d["tables"] for f in t["findings"])
want = sorted(sys.argv[2].split())
if got != want or d["findings"] != len(want):
    print(f"  findings {got} (count {d['findings']}), expected {want}")
    sys.exit(1)
EOF
}

# json_holds EXPRESSION: a Python expression over the JSON output; t = the first table,
# cell(rail, node) = its cell at the pair n1-node.
json_holds() {
    "$PYTHON3" - "$work/out" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tables"][0]
def cell(rail, node):
    return next(c for c in t["cells"] if c["rail"] == rail and c["pair"] == f"n1-{node}")
try:
    ok = eval(sys.argv[2])
except Exception as e:
    print(f"  {sys.argv[2]}: {type(e).__name__}: {e}")
    sys.exit(1)
if not ok:
    print(f"  does not hold: {sys.argv[2]}")
sys.exit(0 if ok else 1)
EOF
}

# one_error OPTION-TEXT: exit 2, and one line on stderr naming it (fixed text), nothing on stdout
one_error() {
    rc_is 2 && one_error_line fabperf-rails "$(printf '%s' "$1" | sed 's/[][\.*^$]/\\&/g')"
}

# ---- a slow rail: mlx5_1:1 at a tenth at both pairs
rails "$(scenario rail)"
check "slow rail: exit status 3" rc_is 3
check "slow rail: one line names mlx5_1:1" out_lines '^slow rail mlx5_1:1: slower than the best rail at every node pair \(2 of 2\); ratio 0\.1000$' 1
check "slow rail: nothing else is named slow" out_lines '^slow ' 1
check "slow rail: columns named by node beside the reference node" \
    out_lines '^# node pairs: the reference node n1 with each node named in a column$' 1
check "slow rail: header and cells at the largest size" out_lines '^rail +selection +n2 +n3$' 1
check "slow rail: its cells marked SLOW with median, interval and launches" \
    out_lines '^mlx5_1:1 +UCX_NET_DEVICES=mlx5_1:1 +100\.0 \[98\.00, 102\.0\] x5 SLOW +100\.0 \[98\.00, 102\.0\] x5 SLOW$' 1
rails --format json "$(scenario rail)"
check "slow rail (json): one finding, the rail" findings "rail:mlx5_1:1:-"
check "slow rail (json): size, unit and reference node" \
    json_holds 't["size"] == 1048576 and t["unit"] == "MB/s" and t["reference_node"] == "n1" and [p["node"] for p in t["pairs"]] == ["n2", "n3"]'
check "slow rail (json): the cell against the best rail at its pair" \
    json_holds 'cell("mlx5_1:1", "n2")["vs_best_rail"]["against"] == "mlx5_0:1" and cell("mlx5_1:1", "n2")["vs_best_rail"]["verdict"] == "slower" and abs(cell("mlx5_1:1", "n2")["vs_best_rail"]["ratio"] - 0.1) < 1e-9'
check "slow rail (json): median and interval over 5 launches (min..max)" \
    json_holds 'cell("mlx5_0:1", "n3")["value"] == 1000 and cell("mlx5_0:1", "n3")["ci_lo"] == 980 and cell("mlx5_0:1", "n3")["ci_hi"] == 1020 and cell("mlx5_0:1", "n3")["repeats"] == 5'
check "slow rail (json): the rail's selection as recorded" \
    json_holds 't["rails"][1] == {"name": "mlx5_1:1", "selection": [{"UCX_NET_DEVICES": "mlx5_1:1"}], "files": 10}'
check "slow rail (json): every key --help lists" json_holds 'set(d) == {"tables", "findings", "warnings"} and {"program", "metric", "quantity", "unit", "better", "size", "reference_node", "rails", "pairs", "cells", "findings", "notes"} <= set(t) and set(t["pairs"][0]) == {"name", "nodes", "node"} and all({"rail", "pair", "value", "ci_lo", "ci_hi", "interval", "coverage", "repeats", "values", "vs_best_rail", "vs_best_pair", "expect", "path", "path_mismatch", "program_verdict", "slow"} <= set(c) for c in t["cells"]) and set(t["findings"][0]) == {"kind", "rail", "node", "pair", "text"}'
check "slow rail (json): slow cells flagged, the others not" \
    json_holds '[c["slow"] for c in t["cells"]] == [False, False, True, True]'

# ---- a slow node: n3 at a tenth on both rails
rails --format json "$(scenario node)"
check "slow node: exit status 3" rc_is 3
check "slow node (json): one finding, node n3" findings "node:-:n3"
rails "$(scenario node)"
check "slow node: the line names n3 and its pair" \
    out_lines '^slow node n3: its pair n1-n3 is slower than the best pair on every rail \(2 of 2\); ratio 0\.1000$' 1

# ---- a slow link: mlx5_1:1 at n4 only
rails --format json "$(scenario link)"
check "slow link: exit status 3" rc_is 3
check "slow link (json): one finding, rail mlx5_1:1 at n4" findings "link:mlx5_1:1:n4"
rails "$(scenario link)"
check "slow link: the line names rail, node, values and what it was compared with" \
    out_lines '^slow link: rail mlx5_1:1 at node n4 \(pair n1-n4\): 100\.0 \[98\.00, 102\.0\] MB/s x5 against 1000 \[980\.0, 1020\] on rail mlx5_0:1 at the same pair; ratio 0\.1000$' 1

# ---- nothing slow
rails "$(scenario same)"
check "nothing slow: exit status 0" rc_is 0
check "nothing slow: says so" out_lines '^no slow rail, node or link$' 1
check "nothing slow: no cell marked" out_lines 'SLOW' 0

# ---- too few launches to call a tenth
rails "$(scenario few)"
check "two launches each: exit status 0" rc_is 0
check "two launches each: a note says the intervals separate but cannot be called" \
    out_lines '^note: cannot tell: mlx5_1:1 at n1-n2 \(98\.50\) and mlx5_0:1 \(985\.0\) separate, but too few launches to call it \(2 and 2; 4 or more each\)$' 1

# ---- latency: lower is better, smallest size by default
rails "$(scenario latency)"
check "latency: exit status 3" rc_is 3
check "latency: the table is at the smallest size, in us" \
    out_lines '^# fabperf_latency \(latency\): p50 latency in us at 8, lower is better' 1
check "latency: the rail with ten times the latency is slow" \
    out_lines '^slow rail mlx5_1:1: .*; ratio 10\.00$' 1

# ---- rails named from the env when labels have no '@'
rails "$(scenario envrail)"
check "rails from env: exit status 3" rc_is 3
check "rails from env: btl_tcp_if_include names the rails, eth2 is slow" \
    out_lines '^slow rail eth2: slower than the best rail at every node pair \(1 of 1\): 100\.0 \[98\.00, 102\.0\] MB/s x5 at n1-n2 against 1000 \[980\.0, 1020\] on eth1; ratio 0\.1000$' 1
check "rails from env: the selection column" out_lines '^eth1 +OMPI_MCA_btl_tcp_if_include=eth1 ' 1

# ---- files of a rail that recorded different selections
rails "$(scenario mixedsel)"
check "different selections: a warning per rail" \
    sh -c "grep -c '^fabperf-rails: warning: rail mlx5_.:1: its files recorded different selections' '$work/err' | grep -qx 2"

# ---- --size
rails --size 64K --format json "$(scenario rail)"
check "--size 64K: the table is at 64K" json_holds 't["size"] == 65536'
rails --size 2M "$(scenario rail)"
check "--size 2M: not measured, one line" one_error "--size 2M: not measured by fabperf_bw (sizes: 64K, 1M)"
rails --size 0 "$(scenario rail)"
check "--size 0: one line with the accepted range" one_error "--size: '0' is not a size (accepted: a positive number of bytes"

# ---- --expect and --line-rate
rails --expect 'bw>=500' "$(scenario rail)"
check "--expect bw>=500: exit status 3" rc_is 3
check "--expect bw>=500: each failing cell named with its interval and threshold" \
    out_lines '^expect failed: rail mlx5_1:1 at n1-n[23]: median 100\.0, interval \[98\.00, 102\.0\] MB/s against bw>=500 \(threshold 500\.0 MB/s\)$' 2
check "--expect bw>=500: the passing cells say pass" out_lines '^mlx5_0:1 .*x5 pass +1000 .*x5 pass$' 1
rails --expect 'bw>=90' --format json "$(scenario same)"
check "--expect bw>=90 on equal rails: exit status 0, every cell passes" \
    json_holds 'd["findings"] == 0 and all(c["expect"]["verdict"] == "pass" for c in t["cells"])'
rails --expect 'bw>=1000' --format json "$(scenario same)"
check "--expect bw>=1000 inside the intervals: every cell inconclusive" \
    json_holds 'd["findings"] == 0 and all(c["expect"]["verdict"] == "inconclusive" for c in t["cells"])'
check "--expect bw>=1000 inside the intervals: exit 4 and one line saying so" \
    sh -c "[ $rc -eq 4 ] && grep -qx \"fabperf-rails: inconclusive: 4 cell(s)' --expect could not be decided (exit 4, --inconclusive status)\" '$work/err'"
rails --expect 'bw>=1000' --inconclusive fail "$(scenario same)"
check "--inconclusive fail: exit 3" rc_is 3
rails --expect 'bw>=1000' --inconclusive pass "$(scenario same)"
check "--inconclusive pass: exit 0, the line still on stderr" \
    sh -c "[ $rc -eq 0 ] && grep -q '^fabperf-rails: inconclusive: 4 cell' '$work/err'"
rails --format json "$(scenario undecided)"
check "a sweep its judge could not decide, nothing else: exit 4, a note, the line" \
    sh -c "[ $rc -eq 4 ] && grep -qx \"fabperf-rails: inconclusive: 1 sweep(s) could not be decided (exit 4, --inconclusive status)\" '$work/err'" &&
    json_holds 'd["findings"] == 0 and t["undecided"] == 1 and t["notes"][0].startswith("rail mlx5_1:1: cannot judge at 1M")'
rails --expect 'lat<=5' --format json "$(scenario latency)"
check "--expect lat<=5: the slow rail's cells fail" \
    json_holds '[c["expect"]["verdict"] for c in t["cells"]] == ["pass", "pass", "fail", "fail"]'
rails --expect 'lat<=5' --format json "$(scenario rail)"
check "--expect lat<=5 on bandwidth: does not apply" json_holds 'all(c["expect"] is None for c in t["cells"])'
rails --expect '90%line' --format json "$(scenario evidence)"
check "--expect 90%line: the rows' line rate (100 Gb/s: threshold 11250 MB/s), every cell fails" \
    json_holds 'all(c["expect"]["verdict"] == "fail" and c["expect"]["terms"][0]["threshold"] == 11250 for c in t["cells"])'
rails --expect '90%line' --line-rate 8G --format json "$(scenario evidence)"
check "--expect 90%line --line-rate 8G: threshold 900 MB/s, every cell passes" \
    json_holds 'd["findings"] == 0 and all(c["expect"]["terms"][0]["threshold"] == 900 and c["expect"]["verdict"] == "pass" for c in t["cells"])'
rails --expect '90%line' --format json "$(scenario rail)"
check "--expect 90%line without a line rate: no verdict" json_holds 'all(c["expect"] is None for c in t["cells"])'
rails --expect 'busbw>=50,bw>=1' --format json "$(scenario coll)"
check "--expect busbw>=50 on a collective (GB/s): the slow rail's cell fails, bw>= does not apply" \
    json_holds 't["unit"] == "GB/s" and [(c["expect"]["verdict"], len(c["expect"]["terms"])) for c in t["cells"]] == [("pass", 1), ("fail", 1)]'
check "--expect busbw>=50 on a collective: a finding for the rail and one for the failed cell" \
    findings "rail:mlx5_1:1:- expect:mlx5_1:1:-"
rails --expect 'bw>=10@1M' "$(scenario rail)"
check "--expect with @SIZES: one line naming the option" \
    one_error "--expect: 'bw>=10@1M' is not a threshold (accepted: bw>=N, busbw>=N, lat<=N or PCT%line"
rails --line-rate fast "$(scenario rail)"
check "--line-rate fast: one line with the accepted range" one_error "--line-rate: 'fast' is not a rate (accepted: bits/s > 0"

# ---- path evidence and the programs' verdicts
rails "$(scenario evidence)"
check "path evidence on another NIC: a note" \
    out_lines '^note: path: rail mlx5_1:1 at n1-n2: the payload crossed mlx5_0:1 100%, not mlx5_1:1$' 1
check "path evidence on another NIC: not a finding (exit 0)" rc_is 0
rails --format json "$(scenario evidence)"
check "path evidence and verdicts (json): path_mismatch and program_verdict per cell" \
    json_holds '[(c["path"], c["path_mismatch"], c["program_verdict"]) for c in t["cells"]] == [("mlx5_0:1 100%", False, "pass"), ("mlx5_0:1 100%", True, "fail")]'

# ---- a program whose files have no size rows
rails --format json "$(scenario norows)"
check "no size rows: that program left out with a warning, the other summarised" \
    sh -c "[ $rc -eq 0 ] && grep -qx 'fabperf-rails: warning: fabperf_sweep: its files have no size rows and no matrix; not summarised' '$work/err'"
check "no size rows: one table" json_holds '[x["program"] for x in d["tables"]] == ["fabperf_bw"]'
mkdir "$work/onlysweep"
cp "$(scenario norows)"/*fabperf_sweep.json "$work/onlysweep/"
rails "$work/onlysweep"
check "no size rows at all: one line" one_error "no size rows or matrix to summarise in fabperf_sweep"

# ---- sweeps per rail (fabperf_allpairs): node x rail, each sweep's own findings under its rail
rails --format json "$(scenario sweep)"
check "sweep: exit 3 (a slow node and a failed --expect on mlx5_1:1)" rc_is 3
check "sweep: the rows table, then the sweep table" \
    json_holds '[x.get("kind", "rows") for x in d["tables"]] == ["rows", "sweep"] and d["findings"] == 2'
check "sweep: its findings are the sweeps' own, under their rail; a suspect cleared alone is a note" \
    json_holds 'sorted((f["kind"], f["rail"], f["node"]) for f in d["tables"][1]["findings"]) == [("expect", "mlx5_1:1", None), ("slow_node", "mlx5_1:1", "n3")] and len(d["tables"][1]["notes"]) == 1 and d["tables"][1]["notes"][0].startswith("rail mlx5_0:1: slow link n1 -> n2")'
check "sweep: the largest size, each node's row and column medians per rail" \
    json_holds 'd["tables"][1]["size"] == 1048576 and {(c["rail"], c["node"]): (round(c["send"], 1), round(c["receive"], 1)) for c in d["tables"][1]["cells"]} == {("mlx5_0:1", "n1"): (1020.0, 1000.0), ("mlx5_0:1", "n2"): (1020.0, 1010.0), ("mlx5_0:1", "n3"): (1010.0, 1020.0), ("mlx5_0:1", "n4"): (1010.0, 1030.0), ("mlx5_1:1", "n1"): (1020.0, 1000.0), ("mlx5_1:1", "n2"): (1020.0, 1010.0), ("mlx5_1:1", "n3"): (101.0, 1020.0), ("mlx5_1:1", "n4"): (1010.0, 1030.0)}'
rails "$(scenario sweep)"
check "sweep (text): one line per node, the slow node's send a tenth" \
    out_lines '^n3 +1010 / 1020 x1 +101.0 / 1020 x1$' 1
check "sweep (text): the finding under its rail" out_lines '^rail mlx5_1:1: slow node n3 as sender: ' 1
rails --size 64K --format json "$(scenario sweep)"
check "sweep: --size picks the matrix" json_holds 'd["tables"][1]["size"] == 65536'
rails --size 4K "$(scenario sweep)"
check "sweep: --size that no matrix has: one line" one_error "--size 4K: not measured by fabperf_allpairs"
rails --format json "$(scenario sweeponly)"
check "sweep without size rows: the sweep table alone" \
    sh -c "[ $rc -eq 3 ] && [ ! -s '$work/err' ]" && json_holds '[x.get("kind") for x in d["tables"]] == ["sweep"]'

# ---- the cross-rail matrix (FABPERF_RAIL_CROSS=1): failed launches read from launches.tsv and logs
rails --format json "$(scenario cross)"
check "cross-rail: exit 4 (one cell not decided), nothing named" sh -c "[ $rc -eq 4 ] && grep -qx 'fabperf-rails: inconclusive: 1 cross-rail cell(s) could not be decided (exit 4, --inconclusive status)' '$work/err'"
check "cross-rail: the same-rail table without the cross launches, then the NIC x NIC table" \
    json_holds '[x.get("kind", "rows") for x in d["tables"]] == ["rows", "cross"] and [r["name"] for r in t["rails"]] == ["eth0", "eth1", "eth2"] and d["findings"] == 0'
check "cross-rail: every cell's status and median, same-rail cells from the rows table" \
    json_holds '[(c["local"], c["remote"], c["status"], c["value"], c["repeats"]) for c in d["tables"][1]["cells"]] == [("eth0", "eth0", "path", 1000.0, 5), ("eth0", "eth1", "path", 500.0, 5), ("eth0", "eth2", "no-path", None, 0), ("eth1", "eth0", "path", 500.0, 5), ("eth1", "eth1", "path", 1000.0, 5), ("eth1", "eth2", "no-path", None, 0), ("eth2", "eth0", "no-path", None, 0), ("eth2", "eth1", "undecided", None, 0), ("eth2", "eth2", "path", 1000.0, 5)]'
check "cross-rail: reach, fabric, pair, nodes and the failed launches' reasons" \
    json_holds '(x := d["tables"][1])["reach"] == {"eth0": ["eth0", "eth1"], "eth1": ["eth0", "eth1"], "eth2": ["eth2"]} and x["pair"] == "n1-n2" and x["nodes"] == ["n1", "n2"] and x["undecided"] == 1 and [c["reason"] for c in x["cells"] if c["failed"]] == ["from n2 to: n1 Unable to connect to the peer 10.0.0.1 on port 1024: No route to host"] * 2 + ["WARNING: Open MPI failed to TCP connect to a peer MPI process: Message: connect() to 10.2.0.1:1026 failed", "exit 1: fabperf_bw: rank 1: MPI_Init failed: Other MPI error"] and [c["failed"] for c in x["cells"]] == [0, 0, 2, 0, 0, 2, 2, 2, 0]'
rails "$(scenario cross)"
check "cross-rail (text): rows by the first node's rail, a cell per rail of the other" \
    out_lines '^eth2 +no path +not decided +1000 \[980.0, 1020\] x5$' 1
check "cross-rail (text): what reaches what, and the fabric" sh -c \
    "grep -qx 'reach: eth0 -> eth0 eth1; eth1 -> eth0 eth1; eth2 -> eth2' '$work/out' && grep -qx 'fabric: partly cross-rail: 2 of 6 pairs of different rails have a path (1 pair(s) not decided)' '$work/out'"
check "cross-rail (text): a note per cell without a path, one for the undecided" \
    out_lines '^note: (no path|not decided): rail eth[0-2] of n1 to rail eth[0-2] of n2: ' 4
rails --cross-rail required --inconclusive pass --format json "$(scenario cross)"
check "--cross-rail required: each pair of rails without a path is a finding (exit 3)" \
    json_holds 'sorted((f["kind"], f["rail"], f["remote_rail"]) for f in d["tables"][1]["findings"]) == [("no_path", "eth0", "eth2"), ("no_path", "eth1", "eth2"), ("no_path", "eth2", "eth0")] and d["findings"] == 3'
check "--cross-rail required: exit 3" rc_is 3
rails --inconclusive pass "$(scenario crossfull)"
check "cross-rail, every rail reaches every other: exit 0, said" \
    sh -c "[ $rc -eq 0 ] && grep -qx 'fabric: cross-rail: every rail reaches every other rail' '$work/out'"
rails --format json "$(scenario crossoff)"
check "cross-rail: a cell whose bytes crossed other NICs is off-rail, not a path (exit 4); one on its rails is" \
    json_holds '[(c["local"], c["remote"], c["status"]) for c in d["tables"][1]["cells"] if c["local"] != c["remote"] and "eth2" not in (c["local"], c["remote"])] == [("eth0", "eth1", "off-rail"), ("eth1", "eth0", "path")] and d["tables"][1]["reach"]["eth0"] == ["eth0", "eth2"] and d["tables"][1]["undecided"] == 1 and d["tables"][1]["cells"][1]["reason"] == "the payload crossed eth0@n1, eth0@n2, not eth0 on n1 and eth1 on n2"'
check "cross-rail: off-rail cell: exit 4" rc_is 4
rails "$(scenario railonly)"
check "rail-only fabric: a rail that does not reach itself is a finding (exit 3)" \
    sh -c "[ $rc -eq 3 ] && grep -qx 'fabric: rail-only: no rail reaches another rail' '$work/out' && grep -qx 'no path: rail eth2 does not reach itself between n1 and n2: from n2 to: n1 Unable to connect to the peer 10.0.0.1 on port 1024: No route to host' '$work/out'"
rails --cross-rail sometimes "$(scenario cross)"
check "--cross-rail: a value outside any, required: exit 2" rc_is 2

# ---- output file, bad input
rails --output "$work/summary.txt" "$(scenario rail)"
check "--output: the summary in the file, nothing on stdout" \
    sh -c "[ ! -s '$work/out' ] && grep -q '^slow rail mlx5_1:1' '$work/summary.txt'"
rails
check "no input: one line" one_error "no input; give a run folder or result files"
mkdir "$work/empty"
rails "$work/empty"
check "a folder without results: one line" one_error "folder $work/empty holds no fabperf result"
rails --help
check "--help: exit 0, lists every option" \
    sh -c "[ $rc -eq 0 ] && for o in --size --expect --line-rate --format --output --cross-rail; do grep -q -e \"\$o\" '$work/out' || exit 1; done"

finish
