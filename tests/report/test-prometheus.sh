#!/bin/sh
# fabperf-report --prometheus: the golden run folder and a folder derived from it in Prometheus'
# text format, checked by promtool (Debian's prometheus) and served by a real node_exporter
# (Debian's prometheus-node-exporter, textfile collector only, on 127.0.0.1) whose scrape is read
# back: the values a test knows (a failed size, the nodes to drain, an all-pairs node's median
# cells) arrive as the exporter serves them, and the exporter reports no error reading the file.
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

for tool in promtool prometheus-node-exporter; do
    command -v "$tool" >/dev/null || {
        echo "not ok - $tool is not installed (apt-get install prometheus prometheus-node-exporter; scripts/install-deps.sh)"
        exit 1
    }
done
exporter=
cleanup() {
    [ -z "$exporter" ] || kill "$exporter" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# metric FILE NAME [LABEL=VALUE...]: the value of the series with exactly those labels, in a file
# or a scrape (the exporter reorders labels: they are compared as sets).
metric() {
    "$PYTHON3" - "$@" <<'PY'
import re, sys
path, name, want = sys.argv[1], sys.argv[2], dict(a.split("=", 1) for a in sys.argv[3:])
for line in open(path, encoding="utf-8"):
    m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line.strip())
    if not m or m.group(1) != name:
        continue
    labels = {k: re.sub(r'\\(.)', r'\1', v) for k, v in re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or "")}
    if labels == want:
        print(m.group(3))
        break
PY
}

# is FILE VALUE NAME [LABEL=VALUE...]: that series has that value.
is() {
    file=$1 want=$2 name=$3
    shift 3
    got=$(metric "$file" "$name" "$@")
    [ "$got" = "$want" ] || { echo "  $name $*: '$got', expected $want"; return 1; }
}

# ---- the file, by promtool ----
"$PYTHON3" "$report" "$golden" --prometheus "$work/golden.prom" >"$work/out" 2>"$work/err"
rc=$?
check "--prometheus without -o: exit 0, the file written, no page" \
    sh -c "[ $rc -eq 0 ] && [ ! -s '$work/out' ] && [ ! -s '$work/err' ] && [ -s '$work/golden.prom' ]"
check "promtool check metrics: the golden folder's file is valid and lint-clean" \
    sh -c "promtool check metrics <'$work/golden.prom' >'$work/promtool.txt' 2>&1 || { cat '$work/promtool.txt'; exit 1; }"
p=$work/golden.prom
verdicts() {
    is "$p" 1 fabperf_size_verdict config=expect program=fabperf_bw size=4096 &&
        is "$p" 0 fabperf_size_verdict config=expect program=fabperf_bw size=64
}
check "the 4K size of the --expect configuration is a failed verdict (1); 64 B passed (0)" verdicts
preflight_and_drain() {
    is "$p" 5 fabperf_preflight_findings file=preflight-testnodes.json node=nodeE level=fail &&
        is "$p" 0 fabperf_preflight_findings file=preflight-testnodes.json node=nodeA level=fail &&
        is "$p" 1 fabperf_drain node=nodeE && is "$p" 1 fabperf_drain node=nodeF && is "$p" "" fabperf_drain node=nodeA
}
check "nodeE's preflight: 5 failing findings; nodeA none; nodeE and nodeF to drain, nodeA not" preflight_and_drain
results() {
    is "$p" 12 fabperf_results result=pass && is "$p" 11 fabperf_results result=fail &&
        is "$p" 0 fabperf_results result=inconclusive
}
check "results: pass 12, fail 11, inconclusive 0, as --summary counts them" results

# A folder with an all-pairs sweep: node medians from its matrix, findings per status.
"$PYTHON3" "$tests/report/derive.py" assumed "$golden" "$work/assumed" 8
mkdir "$work/textfile"
# Written under a temporary name and renamed, as the textfile collector asks.
"$PYTHON3" "$report" "$work/assumed" --prometheus "$work/textfile/fabperf.prom.tmp" >"$work/out" 2>"$work/err"
rc=$?
mv "$work/textfile/fabperf.prom.tmp" "$work/textfile/fabperf.prom"
check "derived folder with a sweep: exit 0; promtool accepts it" \
    sh -c "[ $rc -eq 0 ] && promtool check metrics <'$work/textfile/fabperf.prom' >/dev/null 2>&1"
# Expected from the sweep's own matrix record: each node's median over its row and its column.
"$PYTHON3" - "$work/assumed/pairs.json" >"$work/expected.txt" <<'PY'
import json, statistics, sys
m = next(r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "matrix")
n, v = m["nodes"], m["values"]
for i, node in enumerate(n):
    row = [v[i][j] for j in range(len(n)) if j != i and v[i][j] is not None]
    col = [v[j][i] for j in range(len(n)) if j != i and v[j][i] is not None]
    print(node, m["size"], m.get("unit", ""), repr(float(statistics.median(row))), repr(float(statistics.median(col))))
PY
node_values_match() {
    while read -r node size unit send receive; do
        for pair in "send $send" "receive $receive"; do
            role=${pair% *} want=${pair#* }
            got=$(metric "$1" fabperf_pairs_node_value sweep=pairs.json "size=$size" "node=$node" "role=$role" "unit=$unit")
            "$PYTHON3" -c "import sys; sys.exit(0 if abs(float('$got') - float('$want')) <= 1e-9 * abs(float('$want')) else 1)" ||
                { echo "  $node $role: $got, expected $want"; return 1; }
        done
    done <"$work/expected.txt"
}
check "all-pairs: every node's median cell as sender and as receiver, from its matrix" \
    node_values_match "$work/textfile/fabperf.prom"

# ---- served by node_exporter on loopback ----
port=$("$PYTHON3" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$work/textfile" --web.listen-address="127.0.0.1:$port" \
    >"$work/exporter.log" 2>&1 &
exporter=$!
scrape() {
    "$PYTHON3" - "$port" "$work/scrape.txt" <<'PY'
import sys, time, urllib.request
for _ in range(100):  # up to 10 s for the exporter to listen: a hang guard
    try:
        text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
        open(sys.argv[2], "w").write(text)
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
PY
}
check "node_exporter serves the file on 127.0.0.1" scrape
check "node_exporter read it without error (node_textfile_scrape_error 0)" is "$work/scrape.txt" 0 node_textfile_scrape_error
scrape_holds() {
    s=$work/scrape.txt
    node_values_match "$s" && is "$s" 1 fabperf_size_verdict config=tcp program=fabperf_bw size=1 &&
        is "$s" 1 fabperf_drain node=n002 &&
        is "$s" 1 fabperf_pairs_findings sweep=pairs.json size=1048576 kind=slow_node direction=send nodes=n005 status=cleared
}
check "the scrape holds the sweep's node medians, the verdicts and the nodes to drain as written" scrape_holds
finish
