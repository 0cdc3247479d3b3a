#!/bin/sh
# fabperf-report: the golden run folder (made by the programs, tests/report/make-golden.sh) and
# folders derived from it (tests/report/derive.py: verdicts, preflight and all-pairs in the
# formats the report assumes, damaged files, a 100-node matrix) and a folder that the pairs
# programs write here render to pages that parse as HTML5 and hold the expected rows; bad usage
# exits 2 with one line.
#
# Environment: FABPERF_REPORT [tools/fabperf-report], FABPERF_TESTS_DIR [tests], PYTHON3.

# The assertion functions run through check, which shellcheck does not follow.
# shellcheck disable=SC2317
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=${FABPERF_TESTS_DIR:-$here/..}
report=${FABPERF_REPORT:-$tests/../tools/fabperf-report}
golden=$tests/report/golden/run
# shellcheck source=tests/checks.sh
. "$tests/checks.sh"

# python_with MODULE: the first Python that imports MODULE ($PYTHON3, else the system one, where
# Debian's python3-* packages live), or nothing.
python_with() {
    for p in "$PYTHON3" /usr/bin/python3; do
        "$p" -c "import $1" 2>/dev/null && { echo "$p"; return; }
    done
}

# The page checker needs html5lib.
html_python=$(python_with html5lib)
if [ -z "$html_python" ]; then
    echo "not ok - no Python with html5lib (apt-get install python3-html5lib; scripts/install-deps.sh)"
    exit 1
fi

# run_report ARGS...: stdout in $work/out, stderr in $work/err, status in $rc.
run_report() {
    "$PYTHON3" "$report" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

holds() {
    "$html_python" "$tests/report/check_report.py" "$@"
}

# ---- the golden folder as the programs left it ----------------------------------------------
# The launch logs are test data too (the launch command, the end of a failed launch's log):
# a *.log ignore rule once kept them out of the repository.
golden_logs_present() {
    missing=$(tail -n +2 "$golden/launches.tsv" | cut -f 6 | while read -r file; do
        [ -s "$golden/${file%.json}.log" ] || echo "${file%.json}.log"
    done)
    [ -z "$missing" ] || { echo "  missing: $(echo "$missing" | tr "\n" " ")"; return 1; }
}
check "golden folder: a launch log for every launch in launches.tsv" golden_logs_present
run_report "$golden" -o "$work/golden.html"
check "golden folder: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$work/err' ]"
# The path column names each launch's path once: nothing where no launch names a NIC (shm: six
# launches), one NIC where the launches agree (tcp: two launches on vm:lo).
check "size tables: no empty path joined per launch, a path the launches share shown once" \
    holds "$work/golden.html" '[sorted({r["cells"][10] for r in rows(config(label, program) + "-sizes")})
        for label, program in (("shm", "fabperf_latency"), ("shm", "fabperf_bw"), ("tcp", "fabperf_latency"),
                               ("tcp", "fabperf_bw"))] == [[""], [""], ["vm:lo"], ["vm:lo"]]'
check "golden page parses as HTML5, every link resolves, nothing external" \
    holds "$work/golden.html" 'set(fragments) <= ids and not external and svgs == 2'
check "summary: exactly the cut-short and the failed configuration are listed as not ok" \
    holds "$work/golden.html" '[(r["attrs"]["data-config"], r["attrs"]["data-state"], r["cells"][3:6])
        for r in rows("summary-launches")] == [("tcp-stalled", "partial", ["0", "1", "0"]),
        ("bad-btl", "failed", ["0", "0", "1"])]'
check "summary: all 8 configurations, 17 launches, none dropped" \
    holds "$work/golden.html" 'len(rows("summary-all-launches")) == 8 and
        sum(int(r["cells"][2]) for r in rows("summary-all-launches")) == 17 and
        len([i for i in ids if __import__("re").fullmatch(r"c[0-9]+-l[0-9]+", i)]) == 17'
check "cut-short launch: its state, the end line's reason, rows up to 2K kept" \
    holds "$work/golden.html" 'any(r["cells"][2] == "cut short" and "timed out after 1 s at size 4096 B" in r["cells"][5]
        for t in (config("tcp-stalled", "fabperf_latency") + "-launches",) for r in rows(t)) and [r["cells"][0] for r in rows(config("tcp-stalled", "fabperf_latency") + "-sizes")][-1] == "2K"'
check "failed launch: no result file, the launcher's exit status and the end of its log" \
    holds "$work/golden.html" '[(r["cells"][2], r["cells"][3], r["cells"][5]) for r in rows(config("bad-btl", "fabperf_latency") + "-launches")] ==
        [("failed", "1", "no result file (launcher exit 1)")] and "mpi_errors_are_fatal" in rows(config("bad-btl", "fabperf_latency") + "-launches")[0]["cells"][6].lower()
        and rows(config("bad-btl", "fabperf_latency") + "-launches")[0]["cells"][6].endswith(" ".join(open("'"$golden/bad-btl.1.fabperf_latency.log"'").read().split("\n")[-2].split()))'

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
    holds "$work/golden.html" "[(float(r['cells'][1]), r['cells'][2]) for r in rows(config('shm', 'fabperf_latency') + '-sizes') if r['cells'][0] == '1'][0]
        and abs(float(rows(config('shm', 'fabperf_latency') + '-sizes')[0]['cells'][1]) / $1 - 1) < 1e-3
        and [abs(float(x) / y - 1) < 1e-3 for x, y in zip(rows(config('shm', 'fabperf_latency') + '-sizes')[0]['cells'][2].strip('[]').split(', '), ($2, $3))] == [True, True]"
check "launches disagree exactly where two launches' own CIs do not overlap" \
    holds "$work/golden.html" "''.join('d' if r['cells'][5] == 'launches disagree' else 'a' for r in rows(config('shm', 'fabperf_latency') + '-sizes')) == '$4'"
check "fewer than 6 launches: the interval is min..max of the launch medians, with its coverage" \
    holds "$work/golden.html" 'rows(config("tcp", "fabperf_latency") + "-sizes")[0]["cells"][3] == "min..max of 2 launch medians, coverage 50.0%"
        and rows(config("shm", "fabperf_latency") + "-sizes")[0]["cells"][3] == "order statistics of 6 launch medians, coverage 96.9%"
        and rows(config("tcp-stalled", "fabperf_latency") + "-sizes")[0]["cells"][3] == "within-launch 95% CI (1 launch)"
        and sorted(float(x) for x in rows(config("tcp", "fabperf_latency") + "-sizes")[0]["cells"][4].split(" | ")) ==
            [float(x) for x in rows(config("tcp", "fabperf_latency") + "-sizes")[0]["cells"][2].strip("[]").split(", ")]'

# The page and fabperf-compare say the same thing: every value and interval of its JSON output.
"$PYTHON3" - "$(dirname "$report")/fabperf-compare" "$golden"/*.*.fabperf_*.json >"$work/compare-cells" <<'EOF'
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("fabperf_compare", sys.argv[1])
module = importlib.util.module_from_spec(importlib.util.spec_from_loader("fabperf_compare", loader))
loader.exec_module(module)
tables, _ = module.compare(sys.argv[2:])
f = module.fmt_num
print(repr([(c, t["program"], module.fmt_size(r["size"]), f(v["value"]), f"[{f(v['ci_lo'])}, {f(v['ci_hi'])}]")
            for t in tables for r in t["rows"] for c, v in r["values"].items() if v]))
EOF
compare_cells=$(cat "$work/compare-cells")
check "every value and interval on the page is fabperf-compare's (its JSON output for the same folder)" \
    holds "$work/golden.html" "len($compare_cells) == 13 * 3 + 13 * 3 - 1 + 7 and [x for x in $compare_cells
        if not any(r['cells'][:3] == list(x[2:]) for r in rows({(r['attrs']['data-config'], r['attrs']['data-program']):
            r['links'][0][1:] for r in rows('summary-all-launches')}[x[:2]] + '-sizes'))] == []"
check "provenance: MPI library, placement and the launch command" \
    holds "$work/golden.html" '"mpi_library Open MPI v4.1.4" in text and "hosts vm (2 ranks)" in text
        and "mpirun --allow-run-as-root" in text'

check "provenance: the placement of every rank as the meta line has it, and where each ended" \
    holds "$work/golden.html" "[r['cells'] for r in rows(config('shm', 'fabperf_latency') + '-placement')] == $("$PYTHON3" -c '
import json, sys
lines = [json.loads(x) for x in open(sys.argv[1])]
end = {e["rank"]: e for e in lines[-1]["placement_end"]}
print([[str(p["rank"]), p["host"], p["cpus"], str(p["cpu_start"]), str(p["numa_start"]),
        str(end[p["rank"]]["cpu_end"]), str(end[p["rank"]]["numa_end"]), "none", p["nic"]] for p in lines[0]["placement"]])' \
    "$golden/shm.1.fabperf_latency.json") and [r['cells'][5:7] for r in rows(config('tcp-stalled', 'fabperf_latency') + '-placement')] == [['-', '-']] * 2"
check "provenance: a variable set differently on the ranks of a launch is named with its ranks" \
    holds "$work/golden.html" '"mixed-env.1.fabperf_latency.json: UCX_TLS: UCX_TLS=tcp on ranks 0; UCX_TLS=sm on ranks 1" in text
        and config("mixed-env", "fabperf_latency") + "-env-differs" in ids and config("shm", "fabperf_latency") + "-env-differs" not in ids'

check "verdicts of the real --expect launches: pass up to 64 B, fail at 4K, thresholds shown; not a launch failure" \
    holds "$work/golden.html" '[(r["cells"][2], r["cells"][3], r["cells"][4]) for r in rows("summary-verdicts")] ==
            [(s, "pass", "bw>=0.001@1:64") for s in ("1", "2", "4", "8", "16", "32", "64")] + [("4K", "fail", "bw>=1e12@4K")]
        and "complete; an --expect threshold failed (exit 3)" in rows(config("expect", "fabperf_bw") + "-launches")[0]["cells"][5]'
run_report "$golden"
check "no -o: the same page on standard output" cmp -s "$work/out" "$work/golden.html"
run_report --title "fabric acceptance" "$golden" -o "$work/title.html"
check "8 configurations: the table of all is open" grep -q '<details open><summary>All 8 configurations' "$work/golden.html"
cp -r "$golden" "$work/differ"
sed -i 's/"mpi_library":"Open MPI v4.1.4/"mpi_library":"Open MPI v9/' "$work/differ/shm.2.fabperf_bw.json"
sed -i 's/"placement":\[{"rank":0,"host":"vm"/"placement":[{"rank":0,"host":"other"/' "$work/differ/shm.2.fabperf_latency.json"
"$PYTHON3" -c 'import json, sys
lines = open(sys.argv[1]).read().splitlines()
meta = json.loads(lines[0])
meta["placement"] = [dict(meta["placement"][0], rank=k) for k in range(100)]
open(sys.argv[1], "w").write("\n".join([json.dumps(meta)] + lines[1:]) + "\n")' "$work/differ/tcp.1.fabperf_bw.json"
run_report "$work/differ" -o "$work/differ.html"
check "placement of 100 ranks: the first 64 listed, the rest said to be in the meta line" \
    holds "$work/differ.html" '[r["cells"][0] for r in rows(config("tcp", "fabperf_bw") + "-placement")] == [str(k) for k in range(64)]
        and "36 more ranks are in the meta line of tcp.1.fabperf_bw.json." in text
        and "tcp.2.fabperf_bw.json: 2 ranks, not 100" in text'
check "provenance: a launch whose rank ran on another host is named with that rank" \
    holds "$work/differ.html" '"shm.2.fabperf_latency.json: ranks 0 on another host, CPU set, GPU or NIC" in text
        and config("shm", "fabperf_bw") + "-placement-differs" not in ids'
check "provenance: a meta field that differs between launches is marked" \
    holds "$work/differ.html" '"(differs in shm.2.fabperf_bw.json)" in text'
check "--title sets the title" holds "$work/title.html" 'text.startswith("fabric acceptance fabric acceptance Run folder")'

# ---- sections the programs do not write yet, damaged files, a large matrix ------------------
"$PYTHON3" "$tests/report/derive.py" assumed "$golden" "$work/assumed" 100
run_report "$work/assumed" -o "$work/assumed.html"
check "derived folder: exit 0" rc_is 0
check "six launches: line rate and efficiency are the medians over launches (17.5 Gb/s, 15.0%), not means" \
    holds "$work/assumed.html" 'all((r["cells"][8], r["cells"][9]) == ("17.50", "15.0%") for r in rows(config("shm", "fabperf_latency") + "-sizes"))'
check "derived page parses as HTML5, every link resolves, the heatmap is one embedded PNG" \
    holds "$work/assumed.html" 'set(fragments) <= ids and not external and len(images) == 1
        and images[0].startswith("data:image/png;base64,")'
check "verdicts as fabperf-compare words them: size 1 fails, launches that disagree at size 2 are mixed; rows linked" \
    holds "$work/assumed.html" '[(r["cells"][2], r["attrs"]["data-verdict"]) for r in rows("summary-verdicts")
            if r["attrs"]["data-config"] == "tcp"][:3] == [("1", "fail"), ("2", "mixed"), ("4", "pass")]
        and [r["cells"][3] for r in rows("summary-verdicts") if r["attrs"]["data-config"] == "tcp"][1] == "mixed (pass 1, fail 1)"
        and rows("summary-verdicts")[0]["links"][1] in ["#" + i for i in ids]'
check "path evidence: the NIC that carried each size, once for the launches that agree on it" \
    holds "$work/assumed.html" 'all(r["cells"][10] == "vm:lo 100%" for r in rows(config("tcp", "fabperf_bw") + "-sizes"))'
check "preflight: nodeE and nodeF fail (6 and 3 findings), listed first, each finding linked to its row" \
    holds "$work/assumed.html" '[(r["attrs"]["data-node"], r["attrs"]["data-status"], r["cells"][2])
        for r in rows("summary-pf1")] == [("nodeE", "fail", "6"), ("nodeF", "fail", "3"), ("nodeA", "pass", "0")]
        and sorted(l for r in rows("summary-pf1") for l in r["links"][1:]) == sorted("#pf1-f%d" % k for k in range(1, 10))
        and [r["cells"][1] for r in rows("pf1-node-nodeF-findings")] == ["warn", "fail", "warn"]
        and "preflight-testnodes.json: 3 nodes, fail: 6 failures, 3 warnings." in text'
check "preflight: this machine passes; the facts that differ between nodes name the nodes of each value" \
    holds "$work/assumed.html" '[(r["attrs"]["data-node"], r["attrs"]["data-status"]) for r in rows("summary-pf2")] == [("vm", "pass")]
        and ["mlx5_1:1", "state", "differs", "DOWN on nodeE; ACTIVE on nodeA, nodeF"] in [r["cells"] for r in rows("pf1-facts")]
        and len(rows("pf1-facts")) == '"$(grep -c '"type":"fact"' "$golden/preflight-testnodes.json")"
check "all pairs: slow node n002 and link n000 <-> n003 stand, n005 cleared last; linked to the cells behind them" \
    holds "$work/assumed.html" '[(r["attrs"]["data-kind"], r["attrs"]["data-where"], r["cells"][2], r["cells"][5])
            for r in rows("summary-pairs")] == [("slow_node", "n002", "1M", "stands"),
            ("slow_link", "n000 <-> n003", "1M", "found"), ("slow_node", "n005", "1M", "cleared")]
        and [(r["cells"], r["links"]) for r in rows("p1-f2-rows")] == [(["n000 → n003", "3000"], ["#p1-m1-m-0-3"]),
            (["n003 → n000", "3000"], ["#p1-m1-m-3-0"])]
        and len(rows("p1-f1-rows")) == 2 * 99 and "#p1-m1-m-99-2" in rows("p1-f1-rows")[-1]["links"]
        and [r["cells"][0] for r in rows("p1-f3-rows")][:2] == ["n005 → n000", "n005 → n001"] and len(rows("p1-f3-rows")) == 99'
check "all pairs: a cell that failed a threshold, linked to its cell; the sweep's row is a configuration" \
    holds "$work/assumed.html" '[(r["cells"], r["links"]) for r in rows("p1-thresholds")] ==
            [(["n000 → n001", "1M", "bw>=9000", "fail", "3000", "[2990, 3010]"], ["#p1-m1-m-0-1"])]
        and "1 cells failed an --expect threshold" in text
        and [r["cells"][:2] for r in rows(config("allpairs", "fabperf_allpairs") + "-sizes")] == [["1M", "10000"]]'
check "damaged files: cut mid-line and a killed launch's FILE.tmp.PID are cut short, empty and not-JSON are failed" \
    holds "$work/assumed.html" '[(r["cells"][0], r["cells"][2]) for r in rows(config("tcp", "fabperf_latency") + "-launches")] ==
        [("tcp.1.fabperf_latency.json", "ok"), ("tcp.2.fabperf_latency.json", "ok"),
         ("tcp.3.fabperf_latency.json", "cut short"), ("tcp.4.fabperf_latency.json", "failed"),
         ("tcp.5.fabperf_latency.json", "failed"), ("tcp.6.fabperf_latency.json.tmp.4242", "cut short")]
        and "last line is cut short" in rows(config("tcp", "fabperf_latency") + "-launches")[2]["cells"][5]
        and "line 1 is not JSON" in rows(config("tcp", "fabperf_latency") + "-launches")[4]["cells"][5]
        and "killed before it renamed this file to tcp.6.fabperf_latency.json" in rows(config("tcp", "fabperf_latency") + "-launches")[5]["cells"][5]'

"$PYTHON3" "$tests/report/derive.py" assumed "$golden" "$work/small" 8
run_report "$work/small" -o "$work/small.html"
check "8-node matrix: SVG cells with their values, no image" \
    holds "$work/small.html" 'not images and "p1-m1-0-3" in ids and "p1-m1-7-6" in ids
        and "n000 → n003: 3000 MB/s" in text'
# --topology in the sweep's meta (odd nodes on leaf-b, even ones on leaf-a; n007 on no listed
# switch): rows and columns ordered by switch (a cell of 24 pixels), the blocks outlined, the order
# said above the heatmap, each cell keeping its id
"$PYTHON3" -c 'import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
records[0]["topology"] = {"file": "topo.conf", "format": "slurm", "switches": 3, "nodes": 7, "not_in_topology": 1,
    "job": [{"switch": "leaf-b", "parent": "spine", "listed": True, "hosts": ["n001", "n003", "n005"]},
            {"switch": "leaf-a", "parent": "spine", "listed": True, "hosts": ["n000", "n002", "n004", "n006"]},
            {"switch": "n007 (not in the topology)", "parent": None, "listed": False, "hosts": ["n007"]}]}
open(sys.argv[1], "w").write("".join(json.dumps(r) + "\n" for r in records))' "$work/small/pairs.json"
run_report "$work/small" -o "$work/switches.html"
check "--topology: heatmap rows and columns by switch, blocks outlined, the order said, ids kept" \
    holds "$work/switches.html" '(attrs("p1-m1-1-0")["x"], attrs("p1-m1-1-0")["y"]) == ("72", "0")
        and (attrs("p1-m1-7-2")["x"], attrs("p1-m1-7-2")["y"]) == ("96", "168")
        and [(b["x"], b["width"]) for b in classed("switch-block")] == [("0", "72"), ("72", "96"), ("168", "24")]
        and len(classed("switch-edge")) == 4
        and "Ordered by switch (--topology topo.conf, slurm), blocks outlined: leaf-b under spine (3: n001 … n005); leaf-a under spine (4: n000 … n006); n007 (not in the topology) (1: n007)." in text'
check "--topology: the tree drawn small, each leaf under its parent with its hosts, the unlisted host at the top" \
    holds "$work/switches.html" 'classed_text("topo-tree") == ["spine leaf-b : 3 hosts (n001 … n005) leaf-a : 4 hosts (n000 … n006) n007 (not in the topology) : 1 host (n007)"]
        and classed_text("topo-switch") == ["spine", "leaf-b", "leaf-a", "n007 (not in the topology)"]'
"$PYTHON3" -c 'import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
json.dump(records, open(sys.argv[1], "w"))' "$work/small/preflight-testnodes.json"
run_report "$work/small" -o "$work/array.html"
check "preflight as one JSON document (an array): the same rows" \
    holds "$work/array.html" '[r["attrs"]["data-node"] for r in rows("summary-pf1")] == ["nodeE", "nodeF", "nodeA"]'

"$PYTHON3" "$tests/report/derive.py" scale "$golden" "$work/scale" 80 70
run_report "$work/scale" -o "$work/scale.html"
check "80 configurations and the all-pairs sweep: 4 plots of 8 per program, the rest said to be in the tables" \
    holds "$work/scale.html" 'svgs == 2 * 4 + 1 + 1 and "fabperf_bw: 8 more configurations are not plotted" in text
        and "fabperf_latency: 8 more configurations are not plotted" in text'
check "81 configurations: the table of all of them is collapsed, none is listed as not ok" \
    holds "$work/scale.html" '"All 241 launches of 81 configurations ended ok." in text and len(rows("summary-all-launches")) == 81'
check "1040 verdicts: only the one that did not pass is listed in the summary" \
    holds "$work/scale.html" '[(r["cells"][0], r["cells"][2]) for r in rows("summary-verdicts")] == [("cfg0079", "64")]
        and "1039 of 1040 verdicts are pass" in text'
check "the configuration with a failing size is plotted first, though last of 40" \
    holds "$work/scale.html" '"cfg0079" in [t for t in svg_texts if "fabperf_latency" in t][0]'
check "70-node matrix: an embedded PNG" holds "$work/scale.html" 'len(images) == 1'
"$PYTHON3" -c 'import sys; sys.exit(0 if "<details><summary>All 81 configurations" in open(sys.argv[1]).read() else 1)' \
    "$work/scale.html"
check "81 configurations: the table of all is closed (<details> without open)" [ $? -eq 0 ]

# ---- judged sweeps: the re-test's status of each finding, the judge's record of each size ----
# (derive.py judged: iso p1/c1, judged p2/c2, sampled p3/c3, slowcol p4/c4, three p5/c5 in file order)
"$PYTHON3" "$tests/report/derive.py" judged "$work/judged"
run_report "$work/judged" -o "$work/judged.html"
check "judged sweeps: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$work/err' ]"
check "judged page parses as HTML5, every link resolves" holds "$work/judged.html" 'set(fragments) <= ids and not external'
check "slow column, no finding standing (undecided, then not decided): no green pass anywhere for that sweep" \
    holds "$work/judged.html" 'all([sorted(set(c for b in mine for c in b["cls"])), len(mine)] == [["cannot-judge", "undecided"], 2 * 4 + 2 * 2]
        for mine in [[b for b in badges if b["row"].get("data-config") == "slowcol" or b["row"].get("data-file", "").startswith("slowcol.")
            or (b["owner"] or "").startswith((config("slowcol", "fabperf_allpairs") + "-", "p4-"))]])'
check "slow column: the summary says undecided (64K, its row said pass) and cannot judge (1M) with the reasons, linked to the column" \
    holds "$work/judged.html" '[(b["row"]["data-size"], b["cls"], b["text"], b["href"]) for b in badges
            if b["table"] == "summary-verdicts" and b["row"].get("data-config") == "slowcol"] ==
            [("65536", ["undecided"], "undecided", "#p4-m1-m-0-2"), ("1048576", ["cannot-judge"], "cannot judge", "#p4-m2-m-0-2")]
        and [(r["attrs"]["data-verdict"], r["links"][2:]) for r in rows("summary-verdicts") if r["attrs"]["data-config"] == "slowcol"] ==
            [(v, ["#p4-m%d-m-0-2" % m, "#p4-m%d-m-0-2" % m, "#p4-m%d-m-1-2" % m, "#p4-m%d-m-3-2" % m]) for v, m in (("undecided", 1), ("cannot-judge", 2))]
        and all(x[1:] in ids for r in rows("summary-verdicts") for x in r["links"])
        and [r["cells"][3].split(" (cells: ")[0] for r in rows("summary-verdicts") if r["attrs"]["data-config"] == "slowcol"] ==
            ["undecided 1 suspect neither stood nor cleared: alone, between the sweep'"'"'s value and the healthy pairs alone: "
             "neither stands nor clears", "cannot judge re-test budget spent: 1 suspects not re-measured"]'
check "slow column: the configuration table, the judge table and the all-pairs section say the same" \
    holds "$work/judged.html" '[(b["owner"], b["cls"], b["href"]) for b in badges if b["table"] == config("slowcol", "fabperf_allpairs") + "-sizes"] ==
            [(config("slowcol", "fabperf_allpairs") + "-s65536", ["undecided"], "#p4-m1-m-0-2"),
             (config("slowcol", "fabperf_allpairs") + "-s1048576", ["cannot-judge"], "#p4-m2-m-0-2")]
        and [(r["attrs"]["data-size"], r["attrs"]["data-verdict"], r["cells"][3]) for r in rows("summary-sweeps")
             if r["attrs"]["data-file"] == "slowcol.1.fabperf_allpairs.json"][1] ==
            ("1048576", "cannot-judge", "re-test budget spent: 1 suspects not re-measured")
        and [(b["owner"], b["cls"], b["href"]) for b in badges if (b["owner"] or "").startswith("p4-j")] ==
            [("p4-j1", ["undecided"], "#p4-m1-m-0-2"), ("p4-j2", ["cannot-judge"], "#p4-m2-m-0-2")]'
check "slow column: each finding shows its status, linked to its first cell, and alone against the healthy pairs alone" \
    holds "$work/judged.html" '[(r["cells"][2], r["cells"][5], r["links"][1], r["cells"][6]) for r in rows("summary-pairs") if r["attrs"]["data-where"] == "node3"] ==
            [("64K", "undecided", "#p4-m1-m-0-2", "alone 6000 [4000, 9500] MB/s against healthy pairs alone 9800 [9500, 10100] MB/s; "
              "alone, between the sweep'"'"'s value and the healthy pairs alone: neither stands nor clears"),
             ("1M", "undecided", "#p4-m2-m-0-2", "not re-measured: the re-test budget was spent")]
        and [b["cls"] for b in badges if b["owner"] in ("p4-f1", "p4-f2")] == [["undecided"], ["undecided"]]'
check "too few nodes to judge (3 < 4): cannot judge wherever its size shows, though every cell passes, linked to its heatmap" \
    holds "$work/judged.html" '[(b["table"] or b["owner"], b["cls"], b["href"]) for b in badges if b["row"].get("data-config") == "three"
            or b["row"].get("data-file", "").startswith("three.") or (b["owner"] or "").startswith((config("three", "fabperf_allpairs_lat") + "-", "p5-"))] ==
            [("summary-verdicts", ["cannot-judge"], "#p5-m1"), ("summary-sweeps", ["cannot-judge"], "#p5-m1"),
             ("p5-j1", ["cannot-judge"], "#p5-m1"), (config("three", "fabperf_allpairs_lat") + "-sizes", ["cannot-judge"], "#p5-m1")]
        and "p5-m1" in ids and [r["cells"][3] for r in rows("summary-verdicts") if r["attrs"]["data-config"] == "three"] ==
            ["cannot judge too few nodes to judge (3 < 4)"]'
check "an inconclusive uniform term with no suspect: cannot judge; a sampled sweep says which faults it cannot place" \
    holds "$work/judged.html" '[(r["attrs"]["data-verdict"], r["cells"][3]) for r in rows("summary-verdicts") if r["attrs"]["data-config"] == "sampled"] ==
            [("cannot-judge", "cannot judge the uniform term is inconclusive")]
        and "can place a slow sender, receiver (not a slow link: too few rounds)" in text'
check "a finding that stands fails its size though the row passed; stands, cleared and a slow round each linked to their cells" \
    holds "$work/judged.html" '[(r["attrs"]["data-size"], r["attrs"]["data-verdict"], r["links"][2]) for r in rows("summary-verdicts")
            if r["attrs"]["data-config"] == "judged"] == [("4096", "pass", "#p2-m1"), ("1048576", "fail", "#p2-m2-m-1-0")]
        and [(r["attrs"]["data-where"], r["cells"][5], r["links"][1]) for r in rows("summary-pairs")
            if r["attrs"]["data-file"] == "judged.1.fabperf_allpairs.json"] ==
            [("n001", "stands", "#p2-m2-m-1-0"), ("round 3 (shift 3)", "stands", "#p2-m2-m-0-3"), ("n004", "cleared", "#p2-m2-m-4-0")]
        and [r["links"][0] for r in rows("p2-f3-rows")] == ["#p2-m2-m-%d-%d" % (i, (i + 3) % 6) for i in range(6)]
        and "2 findings stand: slow node n001 as sender" in [r["cells"][3] for r in rows("summary-verdicts") if r["attrs"]["data-config"] == "judged"][-1]'
check "isolated latency sweep: a node slow in round trips (its row and column), a link both ways undecided; no --expect, the size fails" \
    holds "$work/judged.html" '[r["links"][0] for r in rows("p1-f1-rows")] == ["#p1-m1-m-2-%d" % j for j in (0, 1, 3)] + ["#p1-m1-m-%d-2" % j for j in (0, 1, 3)]
        and [r["links"][0] for r in rows("p1-f2-rows")] == ["#p1-m1-m-0-3", "#p1-m1-m-3-0"]
        and [(r["attrs"]["data-where"], r["attrs"]["data-status"]) for r in rows("summary-pairs") if r["cells"][2] == "8"] ==
            [("i002", "stands"), ("i000 <-> i003", "undecided")]
        and [r["attrs"]["data-verdict"] for r in rows("summary-verdicts") if r["attrs"]["data-config"] == "iso"] == ["fail"]'
check "the one green pass on the page: the size the judge decided with no suspect (4K of judged)" \
    holds "$work/judged.html" 'sorted((str(b["table"]), b["owner"], b["href"]) for b in badges if "pass" in b["cls"]) == sorted([
            ("summary-verdicts", "summary-verdicts", "#p2-m1"), ("summary-sweeps", "summary-sweeps", "#p2-m1"), ("None", "p2-j1", "#p2-m1"),
            (config("judged", "fabperf_allpairs") + "-sizes", config("judged", "fabperf_allpairs") + "-s4096", "#p2-m1")])
        and [r["attrs"]["data-size"] for r in rows("summary-sweeps") if r["attrs"]["data-verdict"] == "pass"] == ["4096"]'
mkdir "$work/judged-three"
cp "$work/judged/three.1.fabperf_allpairs_lat.json" "$work/judged-three/"
run_report "$work/judged-three" -o "$work/judged-three.html"
check "a sweep without findings that could not be judged does not say it found nothing" \
    holds "$work/judged-three.html" '"No finding, but the sweep could not be judged at 1 size" in text
        and "found no slow node or link" not in text and [r["attrs"]["data-verdict"] for r in rows("summary-sweeps")] == ["cannot-judge"]'
check "a sweep written before the judge: no judge table or line, statuses as the file says, each linked to its first cell" \
    holds "$work/assumed.html" '"summary-sweeps" not in ids and not [i for i in ids if i.startswith("p1-j")]
        and [(b["cls"], b["href"]) for b in badges if b["table"] == "summary-pairs"] ==
            [(["stands"], "#p1-m1-m-2-0"), (["found"], "#p1-m1-m-0-3"), (["cleared"], "#p1-m1-m-5-0")]'

# ---- the pairs programs' own output -----------------------------------------------------------
# The derived folders above follow the documented format; here the programs write it, so that the
# report and the programs cannot drift apart unseen. Needs the MPI test environment (make check).
pairs_bin=${FABPERF_PAIRS_BIN:-}
if [ -n "$pairs_bin" ] && [ -x "$pairs_bin/fabperf_allpairs" ] && [ -n "${FABPERF_LAUNCH:-}" ]; then
    mkdir "$work/real"
    timeout 120 "$FABPERF_LAUNCH" 4 sm "$pairs_bin/fabperf_allpairs" -m 4K:4K -i 20 -x 2 --label real-pairs \
        --format json --output "$work/real/real-pairs.1.fabperf_allpairs.json" </dev/null >/dev/null 2>"$work/err"
    rc=$?
    check "real sweep: 4 ranks, exit 0 (or 3: a finding on these shared cores)" sh -c "[ $rc -eq 0 ] || [ $rc -eq 3 ]"
    timeout 120 "$FABPERF_LAUNCH" 2 sm "$pairs_bin/fabperf_mbw_mr" -m 1:1K -i 20 -x 2 --label real-mbw \
        --format json --output "$work/real/real-mbw.1.fabperf_mbw_mr.json" </dev/null >/dev/null 2>"$work/err"
    rc=$?
    check "real fabperf_mbw_mr: exit 0" rc_is 0
    findings=$(grep -c '"type":"finding"' "$work/real/real-pairs.1.fabperf_allpairs.json")
    # the node names the program wrote (host:rank here: four ranks on one host)
    nodes=$("$PYTHON3" -c 'import json, sys
print(next(json.loads(l)["nodes"] for l in open(sys.argv[1]) if "\"matrix\"" in l))' "$work/real/real-pairs.1.fabperf_allpairs.json")
    run_report "$work/real" -o "$work/real.html"
    check "real pairs output: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$work/err' ]"
    check "real sweep: its 4 x 4 matrix as SVG cells named by the run's nodes, every finding in the summary" \
        holds "$work/real.html" 'set(fragments) <= ids and not images
            and all("p1-m1-%d-%d" % (a, b) in ids for a in range(4) for b in range(4) if a != b)
            and all("%s → %s: " % (n[a], n[b]) in text for n in ['"$nodes"'] for a, b in ((0, 1), (3, 2)))
            and (len(rows("summary-pairs")) if "summary-pairs" in ids else 0) == '"$findings"'
            and ('"$findings"' > 0 or "all-pairs sweep found no slow node or link" in text
                 or "No finding, but the sweep could not be judged" in text)
            and [r["cells"][0] for r in rows(config("real-pairs", "fabperf_allpairs") + "-sizes")] == ["4K"]'
    # The judge's record of each size, where the program writes one: [size, what the page must say]
    # (fail: a finding stands; open: it could not decide or left a suspect undecided, never pass).
    judged=$("$PYTHON3" -c 'import json, sys
records = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print([[r["size"], "fail" if r.get("stands") else "open" if r.get("decided") is False or r.get("undecided") else "any"]
       for r in records if r.get("type") == "judge"])' "$work/real/real-pairs.1.fabperf_allpairs.json")
    check "real sweep: every judged size is on the page; one where a finding stands fails, one not decided never passes" \
        holds "$work/real.html" 'all(len([r for r in rows("summary-sweeps") if r["attrs"]["data-size"] == str(size)]) == 1
                and (e == "any" or [r["attrs"]["data-verdict"] for r in rows("summary-sweeps") if r["attrs"]["data-size"] == str(size)]
                     in ([["fail"]] if e == "fail" else [["cannot-judge"], ["undecided"]]))
                and (e == "any" or [r["attrs"]["data-verdict"] for r in rows("summary-verdicts")
                     if (r["attrs"]["data-config"], r["attrs"]["data-size"]) == ("real-pairs", str(size))]
                     in ([["fail"]] if e == "fail" else [["cannot-judge"], ["undecided"]]))
                for size, e in '"$judged"') and (bool('"$judged"') or "summary-sweeps" not in ids)'
    check "real fabperf_mbw_mr: a configuration with its 11 sizes" \
        holds "$work/real.html" '[r["cells"][0] for r in rows(config("real-mbw", "fabperf_mbw_mr") + "-sizes")]
            == ["1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1K"]'
else
    echo "# the pairs programs' own output: not checked (run through make check with the pairs built)"
fi

# ---- a soak, as a program writes it ------------------------------------------------------------
# Under the known clock the latency steps from 1 to 2 us part-way through 20 cycles at 8 and 16 B:
# the page says the soak's summary and both steps as the program did, and draws each size's
# series over time with a mark at each step.
if [ -n "${FABPERF_BIN:-}" ] && [ -n "${FABPERF_KNOWN_CLOCK_LIB:-}" ] && [ -n "${FABPERF_LAUNCH:-}" ]; then
    mkdir "$work/soak"
    timeout 120 "$FABPERF_LAUNCH" 2 sm env LD_PRELOAD="$FABPERF_KNOWN_CLOCK_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" FP_KNOWN_US=2 FP_KNOWN_AFTER_STEPS=3000 \
        FP_KNOWN_AFTER_US=2 "$FABPERF_BIN/fabperf_latency" -m 8:16 -i 100 -x 10 --batch 1 --cycles 20 --format json \
        --label soak --output "$work/soak/soak.1.fabperf_latency.json" </dev/null >/dev/null 2>"$work/err"
    rc=$?
    check "soak: exit 3 (a step)" rc_is 3
    said=$("$PYTHON3" -c 'import json, sys
records = [json.loads(l) for l in open(sys.argv[1])]
print(repr(([r["line"] for r in records if r["type"] == "soak"], [r["line"] for r in records if r["type"] == "step"])))' \
        "$work/soak/soak.1.fabperf_latency.json")
    run_report "$work/soak" -o "$work/soak.html"
    check "soak: the page says the summary and the steps as the program did" \
        holds "$work/soak.html" '(classed_text("soak-line"), classed_text("soak-step")) == '"$said"' and "soaks" in ids'
    check "soak: one plot over time, a series per size (beside the one of the sizes plot), a mark per step" \
        holds "$work/soak.html" 'len(classed("soak-plot")) == 1 and len(classed("soak-step-mark")) == 2
            and len(classed("series")) == 1 + 2 and "seconds since the soak began" in svg_texts[-1]'
fi

# An all-pairs soak under the known clock: rank 1's samples take twice as long from cycle 15 of 30,
# so its three cells step (tests/mpi/test-soak.sh); the page draws those three cells over time.
if [ -n "${FABPERF_PAIRS_BIN:-}" ] && [ -n "${FABPERF_KNOWN_CLOCK_LIB:-}" ] && [ -n "${FABPERF_LAUNCH:-}" ]; then
    mkdir "$work/pairs-soak"
    tag=$(sed -n 's/.*FP_TAG_ACK = \([0-9]*\).*/\1/p' "$tests/../engine/comm.h")
    timeout 120 "$FABPERF_LAUNCH" 4 sm env LD_PRELOAD="$FABPERF_KNOWN_CLOCK_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" FP_KNOWN_TAG="$tag" FP_KNOWN_US=4 \
        FP_KNOWN_AFTER_RANK=1 FP_KNOWN_AFTER_STEPS=210 FP_KNOWN_AFTER_US=4 "$FABPERF_PAIRS_BIN/fabperf_allpairs" \
        -m 4096:4096 -W 4 -i 3 -x 2 --batch 1 --cycles 30 --format json --label pairs-soak \
        --output "$work/pairs-soak/pairs-soak.1.fabperf_allpairs.json" </dev/null >/dev/null 2>"$work/err"
    rc=$?
    check "all-pairs soak: exit 3 (three cells step)" rc_is 3
    run_report "$work/pairs-soak" -o "$work/pairs-soak.html"
    check "all-pairs soak: a plot of the three cells that stepped, 4096 then 2048 MB/s, a mark per step" \
        holds "$work/pairs-soak.html" 'len(classed("soak-plot")) == 2 and len(classed("soak-step")) == 3
            and len(classed("soak-step-mark")) == 3 + 3
            and [sorted(set(re.findall(r":(\d) -> \S+:(\d) at 4K", t))) for t in svg_texts if "the cells that stepped" in t]
            == [[("1", "0"), ("1", "2"), ("1", "3")]]'
fi

# ---- JUnit ----------------------------------------------------------------------------------
# Read back by junitparser (Debian's python3-junitparser), a reader the tool does not share.
junit_python=$(python_with junitparser)
junit_holds() {
    "$junit_python" "$tests/report/check_junit.py" "$@"
}
if [ -z "$junit_python" ]; then
    check "a Python with junitparser (apt-get install python3-junitparser; scripts/install-deps.sh)" false
else
    run_report "$golden" --junit "$work/golden.xml"
    check "--junit without -o: exit 0, the XML written, no page on standard output" \
        sh -c "[ $rc -eq 0 ] && [ ! -s '$work/out' ] && [ ! -s '$work/err' ] && [ -s '$work/golden.xml' ]"
    # 8 sizes of the --expect configuration (fail at 4K), the cut-short and the failed launch as
    # errors, 3 preflight nodes with 9 findings (6 fail: nodeE 5, nodeF 1) and this machine's node.
    check "golden folder: 23 cases; 9 failures, 2 errors, none skipped; as junitparser counts them" \
        junit_holds "$work/golden.xml" 'totals == {"tests": 23, "failures": 9, "errors": 2, "skipped": 0}
            and suites["expect fabperf_bw"] == {"tests": 8, "failures": 1, "errors": 0, "skipped": 0}
            and suites["preflight preflight-testnodes.json"] == {"tests": 12, "failures": 8, "errors": 0, "skipped": 0}'
    check "a failed size: the value, its interval over launches and the threshold in the message" \
        junit_holds "$work/golden.xml" '[(c[2], c[3]) for c in cases if c[3] == "failure" and c[0].startswith("expect")]
            == [("4096 B", "failure")] and any(c[2] == "4096 B" and c[4].startswith("fail: 2105 [1913, 2296] MB/s over 2 launches")
            and c[4].endswith("threshold bw>=1e12@4K") for c in cases)'
    check "launches not ok are errors with their state and exit status" \
        junit_holds "$work/golden.xml" 'sorted(c[4] for c in cases if c[3] == "error") == ["cut short, exit 1", "failed, exit 1"]'
    check "preflight: a node fails when one of its findings fails; a warning passes and says so" \
        junit_holds "$work/golden.xml" '[c[3] for c in cases if c[2] == "preflight"] == ["pass", "failure", "failure", "pass"]
            and all(c[3] == "pass" and c[4].startswith("warn: ") for c in cases if "powersave" in c[2])'
    run_report "$golden" --junit - -o "$work/golden-too.html"
    check "--junit - with -o: the XML on standard output, the same page in the file" \
        sh -c "[ $rc -eq 0 ] && head -1 '$work/out' | grep -q '^<?xml' && cmp -s '$work/golden-too.html' '$work/golden.html'"
    run_report "$work/assumed" --junit "$work/assumed.xml"
    check "mixed launches (one failed its expectation) are a failure, never a pass" \
        junit_holds "$work/assumed.xml" '[c[3] for c in cases if c[0] == "tcp fabperf_bw" and c[2] in ("1 B", "2 B")]
            == ["failure", "failure"] and any(c[4].startswith("mixed (pass 1, fail 1)") for c in cases)'
    # derive.py's sweep: n002 stands, the link n000 <-> n003 was found but not re-tested (an older
    # file), n005 was cleared by its re-test.
    check "all-pairs findings: the one that stands and the one found fail, the cleared one passes" \
        junit_holds "$work/assumed.xml" 'sorted((c[2], c[3]) for c in cases if c[0] == "all-pairs findings pairs.json")
            == [("1048576 B: slow_link both-ways n000,n003", "failure"), ("1048576 B: slow_node both n002", "failure"),
                ("1048576 B: slow_node send n005", "pass")]
            and any(c[4].startswith("found, not re-tested: slow link n000 <-> n003") for c in cases)'
    run_report "$work/judged" --junit "$work/judged.xml"
    check "judged sweeps: the slow column's undecided (64K) and cannot judge (1M) are skipped with the judge's reason, never a pass" \
        junit_holds "$work/judged.xml" '[(c[2], c[3], c[4].split(":")[0]) for c in cases if c[0] == "slowcol fabperf_allpairs"]
            == [("65536 B", "skipped", "undecided"), ("1048576 B", "skipped", "cannot judge")]
            and "re-test budget spent" in [c[4] for c in cases if c[0] == "slowcol fabperf_allpairs"][1]'
    # ---- drain list and summary line (the same counts as the JUnit file) ----
    run_report "$golden" --drain "$work/drain.txt" --summary
    check "--summary: exit 3 (failures, nodes to drain), no page without -o, one line on stderr" \
        sh -c "[ $rc -eq 3 ] && [ ! -s '$work/out' ] && [ \$(wc -l <'$work/err') -eq 1 ]"
    check "--summary: PASS 12, FAIL 11 (9 failures, 2 launches not ok), INCONCLUSIVE 0; nodeE and nodeF to drain" \
        test "$(cat "$work/err")" = "fabperf: PASS 12, FAIL 11, INCONCLUSIVE 0; nodes to drain: nodeE nodeF"
    check "--drain: the two nodes whose preflight failed, each with its failing findings (5 and 1), nothing else" \
        sh -c "[ \$(grep -vc '^#' '$work/drain.txt') -eq 2 ] &&
            [ \$(awk -F'\t' '\$1 == \"nodeE\" { print gsub(/preflight: /, \"\") }' '$work/drain.txt') -eq 5 ] &&
            grep -q '^nodeF	preflight: gpu0: PCIe link width x8 below its maximum x16' '$work/drain.txt'"
    run_report "$work/assumed" --drain - --slurm-drain
    check "--drain: a standing slow node is drained; a slow link names two nodes and is only a comment" \
        sh -c "[ $rc -eq 0 ] && grep -q '^n002	all-pairs at 1048576 B: slow node n002 as sender and receiver' '$work/out' &&
            grep -q '^# not drained: n000 <-> n003: ' '$work/out' && ! grep -q '^n00[03]	' '$work/out'"
    check "--slurm-drain: one scontrol line per node, first reason and how many more, printed only" \
        sh -c "grep -c '^scontrol update nodename=' '$work/out' | grep -qx 3 &&
            grep -qx 'scontrol update nodename=nodeE state=drain reason=\"fabperf: preflight: mlx5_1:1: port state is DOWN, not ACTIVE (and 4 more)\"' '$work/out'"
    run_report "$work/judged" --drain - --summary
    check "--summary of the judged sweeps: undecided and cannot judge are INCONCLUSIVE; only standing slow nodes drained" \
        sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$work/err')\" = 'fabperf: PASS 2, FAIL 5, INCONCLUSIVE 7; nodes to drain: i002 n001' ]"
    mkdir "$work/clean"
    cp "$golden"/shm.*.json "$golden/preflight.json" "$work/clean/"
    run_report "$work/clean" --summary --junit "$work/clean.xml"
    check "--summary of a clean folder: exit 0, no node to drain; its JUnit agrees" \
        sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$work/err')\" = 'fabperf: PASS 1, FAIL 0, INCONCLUSIVE 0; nodes to drain: none' ] &&
            grep -q '<testsuites name=\"[^\"]*\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\"' '$work/clean.xml'"
    run_report "$golden" --junit "$work/no-such-dir/run.xml"
    check "--junit to an unwritable file: exit 1, one line naming it" \
        sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'cannot write .*run.xml' '$work/err'"
fi

# ---- a collective's --isolate search --------------------------------------------------------
# tests/report/golden/isolate: fabperf_allreduce --isolate on 8 ranks under the known clock
# (tests/faults/known_clock.c, rank 6 20 us late a call): the tree of tests/mpi/test-isolate.sh.
mkdir "$work/iso"
cp "$tests/report/golden/isolate/isolate.1.fabperf_allreduce.json" "$work/iso/"
run_report "$work/iso" -o "$work/iso.html" --junit "$work/iso.xml" --drain "$work/iso-drain.txt" --summary
check "--isolate search: exit 3 (a member stands), the summary line counts its two failures and drains its node" \
    sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$work/err')\" = 'fabperf: PASS 0, FAIL 2, INCONCLUSIVE 0; nodes to drain: vm' ]"
check "--isolate search: the tree, every group of every round with its figures and status, in order" \
    holds "$work/iso.html" '[(r["attrs"]["id"], r["cells"][3].count("("), r["cells"][4], r["cells"][7]) for r in rows("iso1-tree")] == [
        ("iso1-r1-g1", 4, "4.000", "fine"), ("iso1-r1-g2", 4, "24.00", "slow"), ("iso1-r2-g1", 2, "4.000", "reference"),
        ("iso1-r2-g2", 2, "4.000", "reference"), ("iso1-r2-g3", 2, "4.000", "fine"), ("iso1-r2-g4", 2, "24.00", "slow"),
        ("iso1-r3-g1", 2, "24.00", "slow"), ("iso1-r3-g2", 2, "4.000", "fine"), ("iso1-r3-g3", 2, "4.000", "reference"),
        ("iso1-r4-g1", 2, "24.00", "slow"), ("iso1-r4-g2", 2, "4.000", "fine"), ("iso1-r4-g3", 2, "4.000", "reference")]'
check "--isolate search: the finding stands, linked to the groups that held rank 6 (and only those are marked)" \
    holds "$work/iso.html" '[b["text"] for b in badges if b["owner"] == "iso1-f1"] == ["stands"] and
        sorted(f for f in fragments if f.startswith("iso1-r")) == ["iso1-r1-g2", "iso1-r2-g4", "iso1-r3-g1", "iso1-r4-g1"] and
        sorted(r["attrs"]["id"] for r in rows("iso1-tree") if r["attrs"].get("class") == "differs") == ["iso1-r1-g2", "iso1-r2-g4", "iso1-r3-g1", "iso1-r4-g1"]
        and set(fragments) <= ids and "At 64K on 8 ranks, searched: 4 round(s)" in text'
check "--isolate search: JUnit has the finding and the search as failures; the drain list names the node and why" \
    sh -c "grep -q '<testsuite name=\"--isolate isolate.1.fabperf_allreduce.json\" tests=\"2\" failures=\"2\"' '$work/iso.xml' &&
        grep -q '^vm	fabperf_allreduce --isolate at 65536 B: rank 6 (vm) slows fabperf_allreduce' '$work/iso-drain.txt'"

# ---- a cross-rail run folder (rails.sbatch with FABPERF_RAIL_CROSS=1) -------------------------
"$PYTHON3" "$tests/compare/rails_fixtures.py" "$work/cross" cross
run_report "$work/cross" -o "$work/cross.html" --junit "$work/cross.xml" --summary
check "cross-rail: exit 0; the failed cross launches are cells, one not decided (INCONCLUSIVE 1)" \
    sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$work/err')\" = 'fabperf: PASS 8, FAIL 0, INCONCLUSIVE 1; nodes to drain: none' ]"
check "cross-rail: the NIC x NIC table, first node's rails down, each cell's value or why not" \
    holds "$work/cross.html" '[r["cells"] for r in rows("cross1")] == [
        ["eth0", "1000 [980.0, 1020] x5", "500.0 [490.0, 510.0] x5", "no path"],
        ["eth1", "500.0 [490.0, 510.0] x5", "1000 [980.0, 1020] x5", "no path"],
        ["eth2", "no path", "not decided", "1000 [980.0, 1020] x5"]]
        and "Fabric: partly cross-rail: 2 of 6 pairs of different rails have a path (1 pair(s) not decided)." in text
        and "1 cell(s) not decided." in text and set(fragments) <= ids'
check "cross-rail: JUnit: a case per cell, the undecided one skipped, no launch an error" \
    sh -c "grep -q '<testsuite name=\"cross-rail fabperf_bw n1-n2\" tests=\"9\" failures=\"0\" errors=\"0\" skipped=\"1\"' '$work/cross.xml' &&
        ! grep -q '<error' '$work/cross.xml'"
"$PYTHON3" "$tests/compare/rails_fixtures.py" "$work/railonly" railonly
run_report "$work/railonly" -o "$work/railonly.html" --summary
check "rail-only: a rail that does not reach itself fails (its two launches and its cell)" \
    sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$work/err')\" = 'fabperf: PASS 8, FAIL 3, INCONCLUSIVE 0; nodes to drain: none' ]"

# ---- bad usage ------------------------------------------------------------------------------
run_report "$work/no-such-folder"
check "missing folder: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ ! -s '$work/out' ]"
check "missing folder: the line names it" one_error_line fabperf-report "no-such-folder: not a folder"
mkdir "$work/empty"
run_report "$work/empty"
check "empty folder: exit 2, one line" sh -c "[ $rc -eq 2 ]"
check "empty folder: the line says so" one_error_line fabperf-report "holds no fabperf result"
run_report
check "no folder: exit 2, one line naming the argument" sh -c "[ $rc -eq 2 ] && grep -q RUN_FOLDER '$work/err'"
run_report "$golden" -o "$work/no-such-dir/page.html"
check "unwritable output: exit 1, one line" sh -c "[ $rc -eq 1 ]"
check "unwritable output: the line names the file" one_error_line fabperf-report "cannot write .*page.html"
env FABPERF_COMPARE="$work/no-such-compare" "$PYTHON3" "$report" "$golden" >"$work/out" 2>"$work/err"
check "fabperf-compare missing: exit 2, one line naming it" one_error_line fabperf-report "cannot load fabperf-compare from .*no-such-compare"
run_report --help
check "--help: what is read and the exit status" \
    sh -c "grep -q launches.tsv '$work/out' && grep -q skipped.txt '$work/out' && grep -q 'exit status' '$work/out' \
        && grep -q 'computed by fabperf-compare (min..max below 6 launches' '$work/out'"

finish
