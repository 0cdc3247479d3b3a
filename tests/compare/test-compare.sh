#!/bin/sh
# fabperf-compare: comparisons of synthetic results with known numbers (ratios, marks,
# crossovers, repeats), the error exits, the PNG plot, and, when FABPERF_BIN is set and an
# MPI launcher exists, real latency and bandwidth results over shared memory and TCP.
#
# Environment: FABPERF_COMPARE (the script) [$(dirname "$0")/../../tools/fabperf-compare],
# PYTHON3 [python3], FABPERF_BIN (folder of the programs; optional), FABPERF_LAUNCH
# (tests/launch.sh; optional, else mpirun with Open MPI's options).
# Exit status: 0 pass, 1 failure, 77 everything else passed but gnuplot is missing.

# The assertion functions run through check, which shellcheck does not follow.
# shellcheck disable=SC2317
set -u
PYTHON3=${PYTHON3:-python3}
FABPERF_COMPARE=${FABPERF_COMPARE:-$(dirname "$0")/../../tools/fabperf-compare}
failures=0
checks=0
plot_skipped=
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-compare-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

if [ ! -f "$FABPERF_COMPARE" ]; then
    echo "not ok - fabperf-compare not found at $FABPERF_COMPARE"
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

# compare ARGS...: runs the script; stdout in $work/out, stderr in $work/err, status in $rc.
compare() {
    "$PYTHON3" "$FABPERF_COMPARE" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

rc_is() {
    [ "$rc" -eq "$1" ] || {
        echo "  exit status $rc, expected $1; stderr:"
        sed 's/^/    /' "$work/err" | head -20
        return 1
    }
}

# One line on stderr naming the problem, nothing on stdout.
one_error_line() {
    if [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] &&
        grep -q "^fabperf-compare: error: .*$1" "$work/err"; then
        return 0
    fi
    echo "  expected one error line matching '$1'; stderr:"
    sed 's/^/    /' "$work/err" | head -5
    return 1
}

# help_explains WORD...: --help output (in $work/out) mentions every WORD.
help_explains() {
    for word in "$@"; do
        grep -q -e "$word" "$work/out" || { echo "  --help does not mention $word"; return 1; }
    done
}

# json_holds EXPRESSION: evaluates a Python expression over the JSON output in $work/out.
# d: the document; row(program, size): that row; ratio(program, size, name): its ratio entry;
# value(program, size, name): its cell; near(a, b): a equals b within 1e-9 relative.
json_holds() {
    "$PYTHON3" - "$work/out" "$1" <<'EOF'
import json, math, sys
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
except (OSError, ValueError) as e:
    print(f"  output is not JSON: {e}")
    sys.exit(1)
def table(program):
    return next(t for t in d["tables"] if t["program"] == program)
def row(program, size):
    return next(r for r in table(program)["rows"] if r["size"] == size)
def ratio(program, size, name):
    return row(program, size)["ratios"][name]
def value(program, size, name):
    return row(program, size)["values"][name]
def near(a, b):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
try:
    ok = eval(sys.argv[2])
except Exception as e:  # a missing table or row is a failed check
    print(f"  {sys.argv[2]}: {type(e).__name__}: {e}")
    sys.exit(1)
if not ok:
    print(f"  does not hold: {sys.argv[2]}")
sys.exit(0 if ok else 1)
EOF
}

# ---- synthetic inputs -------------------------------------------------------------------

# meta PROGRAM METRIC LABEL(json): the first line of a result file.
meta() {
    printf '{"type":"meta","program":"%s","version":"0.1.0","benchmark":"x","metric":"%s","label":%s,"env":{},"hosts":[{"name":"node","ranks":2}],"date":"2026-01-02T03:04:05Z"}\n' \
        "$1" "$2" "$3"
}
# lat SIZE P50 LO HI: a latency row.
lat() {
    printf '{"type":"row","size":%s,"avg_us":%s,"p50_us":%s,"p50_ci_lo_us":%s,"p50_ci_hi_us":%s,"samples":100}\n' \
        "$1" "$2" "$2" "$3" "$4"
}
# bw SIZE P50 LO HI: a bandwidth row (MB/s).
bw() {
    printf '{"type":"row","size":%s,"bw_mbps":%s,"bw_p50_mbps":%s,"bw_ci_lo_mbps":%s,"bw_ci_hi_mbps":%s,"avg_us":1,"p50_us":1,"p50_ci_lo_us":1,"p50_ci_hi_us":1,"samples":100}\n' \
        "$1" "$2" "$2" "$3" "$4"
}
end() {
    printf '{"type":"end","status":"complete","failures":0}\n'
}

# alpha against beta: 1 beta slower (*), 2 overlapping (~), 4 and 8 beta faster (*),
# 16 beta slower (*), 32 no CI (?). Crossovers: between 1 and 4 (size 2 not significant),
# between 8 and 16.
{
    meta fabperf_latency latency '"alpha"'
    lat 1 1.0 0.9 1.1
    lat 2 1.0 0.9 1.1
    lat 4 2.0 1.9 2.1
    lat 8 4.0 3.9 4.1
    lat 16 4.0 3.9 4.1
    printf '{"type":"row","size":32,"p50_us":5.0,"p50_ci_lo_us":null,"p50_ci_hi_us":null,"samples":3}\n'
    end
} >"$work/alpha.json"
{
    meta fabperf_latency latency '"beta"'
    lat 1 2.0 1.9 2.1
    lat 2 1.05 0.95 1.15
    lat 4 1.0 0.9 1.1
    lat 8 2.0 1.9 2.1
    lat 16 8.0 7.9 8.1
    lat 32 5.0 4.9 5.1
    end
} >"$work/beta.json"

# A run folder: three repeats of gamma (no label recorded: taken from the file name).
mkdir "$work/run"
for r in 1:3.0:2.9:3.1 2:5.0:4.8:5.2 3:4.0:3.9:4.1; do
    IFS=: read -r n p lo hi <<EOF
$r
EOF
    { meta fabperf_latency latency null; lat 1 "$p" "$lo" "$hi"; end; } \
        >"$work/run/gamma.$n.fabperf_latency.json"
done

# Bandwidth: higher is better.
{ meta fabperf_bw bandwidth '"alpha"'; bw 1 100 95 105; bw 2 100 95 105; end; } >"$work/alpha-bw.json"
{ meta fabperf_bw bandwidth '"beta"'; bw 1 200 190 210; bw 2 98 90 110; end; } >"$work/beta-bw.json"

# ---- comparisons ------------------------------------------------------------------------

compare --format json "$work/alpha.json" "$work/beta.json"
check "json comparison of two latency files exits 0" rc_is 0
check "baseline is the first configuration" json_holds 'd["tables"][0]["baseline"] == "alpha"'
check "latency quantity is p50_us, lower is better" \
    json_holds 'table("fabperf_latency")["quantity"] == "p50_us" and table("fabperf_latency")["better"] == "lower"'
check "values and CI kept" \
    json_holds 'value("fabperf_latency", 1, "beta") == {"value": 2.0, "ci_lo": 1.9, "ci_hi": 2.1, "min": 2.0, "max": 2.0, "repeats": 1}'
check "size 1: ratio 2, significant, slower" \
    json_holds 'near(ratio("fabperf_latency", 1, "beta")["ratio"], 2.0) and ratio("fabperf_latency", 1, "beta")["mark"] == "*" and ratio("fabperf_latency", 1, "beta")["verdict"] == "slower"'
check "size 2: overlapping CIs, ratio 1.05, no significant difference" \
    json_holds 'near(ratio("fabperf_latency", 2, "beta")["ratio"], 1.05) and ratio("fabperf_latency", 2, "beta")["mark"] == "~" and ratio("fabperf_latency", 2, "beta")["significant"] is False'
check "size 4: ratio 0.5, significant, faster" \
    json_holds 'near(ratio("fabperf_latency", 4, "beta")["ratio"], 0.5) and ratio("fabperf_latency", 4, "beta")["verdict"] == "faster" and ratio("fabperf_latency", 4, "beta")["significant"] is True'
check "size 16: ratio 2, slower" \
    json_holds 'near(ratio("fabperf_latency", 16, "beta")["ratio"], 2.0) and ratio("fabperf_latency", 16, "beta")["verdict"] == "slower"'
check "size 32: no CI, significance unknown" \
    json_holds 'ratio("fabperf_latency", 32, "beta")["mark"] == "?" and ratio("fabperf_latency", 32, "beta")["significant"] is None'
check "two crossovers: 1..4 (beta overtakes), 8..16 (alpha overtakes)" \
    json_holds '[(x["from_size"], x["to_size"], x["after"]) for x in table("fabperf_latency")["crossovers"]] == [(1, 4, "beta"), (8, 16, "alpha")]'

compare "$work/alpha.json" "$work/beta.json"
check "text comparison exits 0" rc_is 0
check "text names the crossover between 8 and 16" \
    grep -q '^crossover between 8 and 16: alpha overtakes beta$' "$work/out"
check "text shows absolute values with CI next to the ratio" \
    grep -Eq '^ +1 +1\.000 \[0\.9000, 1\.100\] +2\.000 \[1\.900, 2\.100\] +2\.000 \* slower$' "$work/out"
check "text marks overlapping CIs with ~" grep -Eq '^ +2 .* 1\.050 ~$' "$work/out"

compare --format json --baseline beta "$work/alpha.json" "$work/beta.json"
check "--baseline beta: ratio alpha/beta at 1 is 0.5, faster" \
    json_holds 'table("fabperf_latency")["baseline"] == "beta" and near(ratio("fabperf_latency", 1, "alpha")["ratio"], 0.5) and ratio("fabperf_latency", 1, "alpha")["verdict"] == "faster"'

compare --format json "$work/alpha.json" "$work/run"
check "run folder with repeats exits 0" rc_is 0
check "repeats grouped under the file name's label" \
    json_holds '[(c["name"], c["repeats"]) for c in table("fabperf_latency")["configurations"]] == [("alpha", 1), ("gamma", 3)]'
check "repeats: median value, min..max spread, union CI" \
    json_holds 'value("fabperf_latency", 1, "gamma") == {"value": 4.0, "ci_lo": 2.9, "ci_hi": 5.2, "min": 3.0, "max": 5.0, "repeats": 3}'
check "repeats: ratio 4 against alpha, slower" \
    json_holds 'near(ratio("fabperf_latency", 1, "gamma")["ratio"], 4.0) and ratio("fabperf_latency", 1, "gamma")["verdict"] == "slower"'

compare --format json "$work/alpha-bw.json" "$work/beta-bw.json"
check "bandwidth: MB/s, higher is better" \
    json_holds 'table("fabperf_bw")["unit"] == "MB/s" and table("fabperf_bw")["better"] == "higher"'
check "bandwidth: ratio 2 at size 1 is faster, 0.98 at size 2 is ~" \
    json_holds 'near(ratio("fabperf_bw", 1, "beta")["ratio"], 2.0) and ratio("fabperf_bw", 1, "beta")["verdict"] == "faster" and near(ratio("fabperf_bw", 2, "beta")["ratio"], 0.98) and ratio("fabperf_bw", 2, "beta")["mark"] == "~"'

compare --format csv "$work/alpha.json" "$work/beta.json"
check "csv: header and one row per size and configuration" \
    "$PYTHON3" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = [x for x in rows if x["size"] == "4" and x["configuration"] == "beta"]
sys.exit(0 if len(rows) == 12 and len(r) == 1 and float(r[0]["ratio"]) == 0.5 and r[0]["verdict"] == "faster" else 1)' "$work/out"

# ---- errors -----------------------------------------------------------------------------

printf '{"hello":"world"}\n' >"$work/other.json"
printf 'this is not json\n' >"$work/text.json"
mkdir "$work/empty"

compare
check "no input: exit 2" rc_is 2
check "no input: one line" one_error_line "no input"
compare "$work/alpha.json" "$work/missing.json"
check "missing file: exit 2" rc_is 2
check "missing file: one line" one_error_line "cannot read .*missing.json"
if [ "$(id -u)" -ne 0 ]; then
    cp "$work/beta.json" "$work/locked.json"
    chmod 000 "$work/locked.json"
    compare "$work/alpha.json" "$work/locked.json"
    check "unreadable file: exit 2" rc_is 2
    check "unreadable file: one line" one_error_line "cannot read .*locked.json"
fi
compare "$work/alpha.json" "$work/other.json"
check "JSON that is not fabperf's: exit 2" rc_is 2
check "JSON that is not fabperf's: one line" one_error_line "other.json is not a fabperf JSON result"
compare "$work/alpha.json" "$work/text.json"
check "text file: exit 2" rc_is 2
check "text file: one line" one_error_line "text.json is not a fabperf JSON result"
compare "$work/alpha.json" "$work/beta-bw.json"
check "latency against bandwidth: exit 2" rc_is 2
check "latency against bandwidth: one line" one_error_line "cannot compare"
compare "$work/alpha.json"
check "one configuration: exit 2" rc_is 2
check "one configuration: one line" one_error_line "fewer than two configurations"
compare "$work/run"
check "repeats of one configuration only: exit 2" rc_is 2
compare "$work/empty"
check "folder without results: exit 2" rc_is 2
check "folder without results: one line" one_error_line "holds no fabperf result"
compare --baseline nosuch "$work/alpha.json" "$work/beta.json"
check "unknown baseline: exit 2" rc_is 2
check "unknown baseline: one line" one_error_line "no such configuration"
compare --format xml "$work/alpha.json" "$work/beta.json"
check "bad --format: exit 2, one line" one_error_line "invalid choice"
compare --help
check "--help exits 0" rc_is 0
check "--help explains repeats, marks, crossovers, formats, plots and exits" \
    help_explains median union "do not overlap" crossover "--format" "--plot" "--baseline" "exit status"

# ---- plot -------------------------------------------------------------------------------

is_png() {
    if [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e47" ]; then
        return 0
    fi
    echo "  $1 is not a PNG image"
    return 1
}

if command -v gnuplot >/dev/null 2>&1; then
    compare --plot "$work/plots" "$work/alpha.json" "$work/beta.json" "$work/alpha-bw.json" "$work/beta-bw.json"
    check "--plot exits 0" rc_is 0
    check "--plot writes a latency PNG" is_png "$work/plots/fabperf_latency.png"
    check "--plot writes a bandwidth PNG" is_png "$work/plots/fabperf_bw.png"
else
    echo "# gnuplot not found: plot checks skipped"
    plot_skipped=1
fi

# ---- real results over shared memory and TCP ---------------------------------------------

# launch TRANSPORT PROGRAM ARGS...: transport sm or tcp.
launch() {
    transport=$1
    shift
    if [ -n "${FABPERF_LAUNCH:-}" ]; then
        timeout 300 "$FABPERF_LAUNCH" 2 "$transport" "$@"
    else
        case $transport in
        sm) set -- --mca btl self,vader "$@" ;;
        tcp) set -- --mca btl self,tcp --mca btl_tcp_if_include lo "$@" ;;
        esac
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            timeout 300 mpirun -np 2 "$@"
    fi
}

if [ -n "${FABPERF_BIN:-}" ] && { [ -n "${FABPERF_LAUNCH:-}" ] || command -v mpirun >/dev/null 2>&1; }; then
    real=$work/real
    mkdir "$real"
    launched=0
    for label in shm tcp; do
        transport=$label
        [ "$label" = shm ] && transport=sm
        for repeat in 1 2; do
            for prog in fabperf_latency fabperf_bw; do
                iterations=200
                [ "$prog" = fabperf_bw ] && iterations=20  # a window of messages per operation
                if launch "$transport" "$FABPERF_BIN/$prog" -m 1:64K -i "$iterations" --format json \
                    --label "$label" --output "$real/$label.$repeat.$prog.json" >"$work/launch.log" 2>&1; then
                    launched=$((launched + 1))
                else
                    echo "  $prog over $label failed:"
                    sed 's/^/    /' "$work/launch.log" | tail -5
                fi
            done
        done
    done
    check "real runs: 8 launches over shm and tcp" [ "$launched" -eq 8 ]
    compare "$real"
    check "real comparison (text) exits 0" rc_is 0
    sed 's/^/# /' "$work/out"
    compare --format json --baseline tcp "$real"
    check "real comparison (json) exits 0" rc_is 0
    check "real: both programs compared, 2 repeats each" \
        json_holds 'sorted(t["program"] for t in d["tables"]) == ["fabperf_bw", "fabperf_latency"] and all(c["repeats"] == 2 for t in d["tables"] for c in t["configurations"])'
    check "real: shm latency at 8 B significantly faster than tcp" \
        json_holds 'ratio("fabperf_latency", 8, "shm")["significant"] is True and ratio("fabperf_latency", 8, "shm")["verdict"] == "faster" and ratio("fabperf_latency", 8, "shm")["ratio"] < 1'
else
    echo "# FABPERF_BIN not set or no MPI launcher: real shm/tcp comparison skipped"
fi

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ] || exit 1
if [ -n "$plot_skipped" ]; then
    echo "# all other checks passed; skipped because gnuplot is missing"
    exit 77
fi
exit 0
