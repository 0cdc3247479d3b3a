#!/bin/sh
# fabperf-heatmap on a synthetic allpairs result with a known slow sender: the text table holds
# the matrix in rank order, the PNG is written, bad input exits 2 with one line.
#
# Environment: FABPERF_HEATMAP (the script) [$(dirname "$0")/../../tools/fabperf-heatmap],
# PYTHON3 [python3]. Exit status: 0 pass, 1 failure, 77 the rest passed but gnuplot is missing.
# shellcheck disable=SC2317 # assertion functions run through check
set -u
PYTHON3=${PYTHON3:-python3}
FABPERF_HEATMAP=${FABPERF_HEATMAP:-$(dirname "$0")/../../tools/fabperf-heatmap}
failures=0
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-heatmap-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

check() {
    description=$1
    shift
    if "$@"; then
        echo "ok - $description"
    else
        echo "not ok - $description"
        failures=$((failures + 1))
    fi
}

heatmap() {
    "$PYTHON3" "$FABPERF_HEATMAP" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

# 4 nodes, node n3 sends at a tenth; a latency matrix of another size beside it.
"$PYTHON3" - "$work/r.jsonl" <<'PY'
import json, sys
nodes = ["n1", "n2", "n3", "n4"]
def m(quantity, size, f):
    med = [[None if i == j else f(i, j) for j in range(4)] for i in range(4)]
    return {"type": "matrix", "size": size, "quantity": quantity, "unit": "MB/s" if quantity == "bandwidth" else "us",
            "better": "higher" if quantity == "bandwidth" else "lower", "mode": "shift", "nodes": nodes,
            "values": med, "ci_lo": med, "ci_hi": med}
with open(sys.argv[1], "w") as out:
    out.write(json.dumps({"type": "meta", "program": "fabperf_allpairs"}) + "\n")
    out.write(json.dumps(m("bandwidth", 1048576, lambda i, j: 11.5 if i == 2 else 115.0 + j)) + "\n")
    out.write(json.dumps(m("latency", 8, lambda i, j: 20.0 + i)) + "\n")
PY

heatmap --table --quantity bandwidth "$work/r.jsonl"
check "table exits 0" [ "$rc" -eq 0 ]
check "table row of n3 holds its slow cells" grep -qx 'n3          11.5    11.5       -    11.5' "$work/out"
check "table row of n1: the diagonal, then receivers in order" \
    grep -qx 'n1             -     116     117     118' "$work/out"
check "only the bandwidth matrix" [ "$(grep -c '^#' "$work/out")" -eq 1 ]

heatmap --size 3 "$work/r.jsonl"
check "no matrix of that size: exit 2" [ "$rc" -eq 2 ]
check "no matrix: one line" [ "$(wc -l <"$work/err")" -eq 1 ]
printf '{"type":"matrix","size":1,"quantity":"latency","unit":"us","nodes":["a","b"],"values":[[1]],"ci_lo":[],"ci_hi":[]}\n' >"$work/bad.jsonl"
heatmap "$work/bad.jsonl"
check "malformed matrix: exit 2" [ "$rc" -eq 2 ]
check "malformed matrix: names the field" grep -q "'values' is not 2 x 2" "$work/err"

if command -v gnuplot >/dev/null; then
    heatmap -o "$work/png" "$work/r.jsonl"
    check "plot exits 0" [ "$rc" -eq 0 ]
    check "two PNG files named by metric and size" [ "$(cat "$work/out")" = "$work/png/bandwidth-1048576.png
$work/png/latency-8.png" ]
    check "the PNG files are PNG images" "$PYTHON3" -c 'import sys
for p in sys.argv[1:]:
    assert open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n", p' "$work/png/bandwidth-1048576.png" "$work/png/latency-8.png"
fi

[ "$failures" -eq 0 ] || exit 1
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot not installed (the rest passed)"; exit 77; }
exit 0
