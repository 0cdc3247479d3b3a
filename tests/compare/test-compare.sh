#!/bin/sh
# fabperf-compare: comparisons of synthetic results with known numbers (ratios, marks,
# crossovers, statistics over launches, declared columns), the error exits, the PNG plot, and,
# when FABPERF_BIN is set and an MPI launcher exists, real latency and bandwidth results over
# shared memory and TCP.
#
# Environment: FABPERF_COMPARE (the script) [$(dirname "$0")/../../tools/fabperf-compare],
# PYTHON3 [python3], FABPERF_BIN (folder of the programs; optional), FABPERF_LAUNCH
# (tests/launch.sh; optional, else mpirun with Open MPI's options).
# Exit status: 0 pass, 1 failure, 77 everything else passed but gnuplot is missing.

# The assertion functions run through check, which shellcheck does not follow.
# shellcheck disable=SC2317
set -u
FABPERF_COMPARE=${FABPERF_COMPARE:-$(dirname "$0")/../../tools/fabperf-compare}
# shellcheck source=tests/checks.sh
. "$(dirname "$0")/../checks.sh"
plot_skipped=

if [ ! -f "$FABPERF_COMPARE" ]; then
    echo "not ok - fabperf-compare not found at $FABPERF_COMPARE"
    exit 1
fi

# compare ARGS...: runs the script; stdout in $work/out, stderr in $work/err, status in $rc.
compare() {
    "$PYTHON3" "$FABPERF_COMPARE" "$@" >"$work/out" 2>"$work/err"
    rc=$?
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

LAT_COLUMNS='["size","avg_us","p50_us","p50_ci_lo_us","p50_ci_hi_us","samples"]'
BW_COLUMNS='["size","bw_mbps","bw_p50_mbps","bw_ci_lo_mbps","bw_ci_hi_mbps","avg_us","p50_us","p50_ci_lo_us","p50_ci_hi_us","samples"]'

# meta PROGRAM METRIC LABEL(json) [COLUMNS(json)]: the first line of a result file; the columns
# default to those of the metric's rows below.
meta() {
    columns=${4:-}
    if [ -z "$columns" ]; then
        columns=$LAT_COLUMNS
        [ "$2" = bandwidth ] && columns=$BW_COLUMNS
    fi
    printf '{"type":"meta","program":"%s","version":"0.1.0","benchmark":"x","metric":"%s","label":%s,"env":{},"hosts":[{"name":"node","ranks":2}],"date":"2026-01-02T03:04:05Z","columns":%s}\n' \
        "$1" "$2" "$3" "$columns"
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

# launches PROGRAM NAME COUNT "SIZE:VALUE ..." [FOLDER] [SCALE] [SLOW]: COUNT launch files
# FOLDER/NAME.<j>.PROGRAM.json of configuration NAME (label recorded; "-" as NAME's first
# character: no label, taken from the file name). Launch j's median is VALUE * SCALE *
# (0.97 + 0.01 j), i.e. 0.98, 0.99, 1.00, 1.01, 1.02, with a within-launch CI of +-3% of VALUE,
# so the launches agree within their CIs; launch SLOW instead sits at 2.4 VALUE (a launch in
# another mode).
launches() {
    program=$1 name=$2 count=$3 spec=$4
    folder=${5:-$work/$name} scale=${6:-1} slow=${7:-0}
    metric=latency row=lat label="\"$name\""
    [ "$program" = fabperf_bw ] && metric=bandwidth row=bw
    case $name in -*) name=${name#-} label=null ;; esac
    mkdir -p "$folder"
    j=1
    while [ "$j" -le "$count" ]; do
        {
            meta "$program" "$metric" "$label"
            for pair in $spec; do
                # shellcheck disable=SC2046
                "$row" $(awk -v s="${pair%%:*}" -v v="${pair#*:}" -v j="$j" -v k="$scale" -v slow="$slow" \
                    'BEGIN { f = (j == slow) ? 2.4 : 0.97 + 0.01 * j; p = v * k * f;
                             printf "%s %.10g %.10g %.10g", s, p, p - 0.03 * v, p + 0.03 * v }')
            done
            end
        } >"$folder/$name.$j.$program.json"
        j=$((j + 1))
    done
}

# Five launches each. alpha against beta: 1 beta slower (*), 2 overlapping (~), 4 and 8 beta
# faster (*), 16 beta slower (*). Crossovers: between 1 and 4 (size 2 not significant),
# between 8 and 16.
launches fabperf_latency alpha 5 "1:1.0 2:1.0 4:2.0 8:4.0 16:4.0"
launches fabperf_latency beta 5 "1:2.0 2:1.01 4:1.0 8:2.0 16:8.0"

# A run folder: five launches of gamma (no label recorded: taken from the file name), the
# third in another mode (2.4 times slower, like this machine's slow latency mode).
launches fabperf_latency -gamma 5 "1:3.0" "$work/run" 1 3

# The same configuration launched twice five times, the second set 1.5% slower.
launches fabperf_latency delta 5 "1:1.0 64:2.0 4096:9.0" "$work/old"
launches fabperf_latency delta 5 "1:1.0 64:2.0 4096:9.0" "$work/new" 1.015

# Clearly different, three and four launches each.
launches fabperf_latency eps 3 "1:1.0" "$work/three"
launches fabperf_latency zeta 3 "1:5.0" "$work/three"
launches fabperf_latency eps 4 "1:1.0" "$work/four"
launches fabperf_latency zeta 4 "1:5.0" "$work/four"

# Bandwidth, five launches each: higher is better.
launches fabperf_bw alpha-bw 5 "1:100 2:100"
launches fabperf_bw beta-bw 5 "1:200 2:98"

# One launch each: 1 within-launch CIs separate, 2 overlap, 32 no CI.
{
    meta fabperf_latency latency '"one-a"'
    lat 1 1.0 0.9 1.1
    lat 2 1.0 0.9 1.1
    printf '{"type":"row","size":32,"p50_us":5.0,"p50_ci_lo_us":null,"p50_ci_hi_us":null,"samples":3}\n'
    end
} >"$work/one-a.json"
{
    meta fabperf_latency latency '"one-b"'
    lat 1 2.0 1.9 2.1
    lat 2 1.05 0.95 1.15
    lat 32 5.0 4.9 5.1
    end
} >"$work/one-b.json"

# ---- comparisons ------------------------------------------------------------------------

compare --format json "$work/alpha" "$work/beta"
check "json comparison of two five-launch configurations exits 0" rc_is 0
check "baseline is the first configuration" json_holds 'd["tables"][0]["baseline"] == "alpha"'
check "latency quantity is p50_us, lower is better" \
    json_holds 'table("fabperf_latency")["quantity"] == "p50_us" and table("fabperf_latency")["better"] == "lower"'
check "five launches: median of launch medians, min..max interval over launches, coverage 1 - 2/32" \
    json_holds 'all(value("fabperf_latency", 1, "beta")[k] == x for k, x in {"value": 2.0, "ci_lo": 1.96, "ci_hi": 2.04, "min": 1.96, "max": 2.04, "repeats": 5, "interval": "between launches", "coverage": 0.9375, "disagree": False}.items())'
check "size 1: ratio 2, significant, slower; false alarm 2/252" \
    json_holds 'near(ratio("fabperf_latency", 1, "beta")["ratio"], 2.0) and ratio("fabperf_latency", 1, "beta")["mark"] == "*" and ratio("fabperf_latency", 1, "beta")["verdict"] == "slower" and near(ratio("fabperf_latency", 1, "beta")["false_alarm"], 2 / 252)'
check "size 2: overlapping intervals, ratio 1.01, no significant difference" \
    json_holds 'near(ratio("fabperf_latency", 2, "beta")["ratio"], 1.01) and ratio("fabperf_latency", 2, "beta")["mark"] == "~" and ratio("fabperf_latency", 2, "beta")["significant"] is False'
check "size 4: ratio 0.5, significant, faster" \
    json_holds 'near(ratio("fabperf_latency", 4, "beta")["ratio"], 0.5) and ratio("fabperf_latency", 4, "beta")["verdict"] == "faster" and ratio("fabperf_latency", 4, "beta")["significant"] is True'
check "size 16: ratio 2, slower" \
    json_holds 'near(ratio("fabperf_latency", 16, "beta")["ratio"], 2.0) and ratio("fabperf_latency", 16, "beta")["verdict"] == "slower"'
check "two crossovers: 1..4 (beta overtakes), 8..16 (alpha overtakes)" \
    json_holds '[(x["from_size"], x["to_size"], x["after"]) for x in table("fabperf_latency")["crossovers"]] == [(1, 4, "beta"), (8, 16, "alpha")]'

compare "$work/alpha" "$work/beta"
check "text comparison exits 0" rc_is 0
check "text names the crossover between 8 and 16" \
    grep -q '^crossover between 8 and 16: alpha overtakes beta$' "$work/out"
check "text shows the values with their intervals over launches next to the ratio" \
    grep -Eq '^ +1 +1\.000 \[0\.9800, 1\.020\] +2\.000 \[1\.960, 2\.040\] +2\.000 \* slower +\+4\.1%$' "$work/out"
check "text marks overlapping intervals with ~ cannot tell, and the detectable difference" \
    grep -Eq '^ +2 .* 1\.010 ~ cannot tell +\+4\.1%$' "$work/out"
check "text states launches, method and coverage" \
    grep -q '^# launches: alpha x5 (min..max of launch medians, coverage 93.8%), beta x5' "$work/out"

compare --format json --baseline beta "$work/alpha" "$work/beta"
check "--baseline beta: ratio alpha/beta at 1 is 0.5, faster" \
    json_holds 'table("fabperf_latency")["baseline"] == "beta" and near(ratio("fabperf_latency", 1, "alpha")["ratio"], 0.5) and ratio("fabperf_latency", 1, "alpha")["verdict"] == "faster"'

compare --format json "$work/alpha" "$work/run"
check "run folder of launches exits 0" rc_is 0
check "launches grouped under the file name's label" \
    json_holds '[(c["name"], c["repeats"]) for c in table("fabperf_latency")["configurations"]] == [("alpha", 5), ("gamma", 5)]'
check "one launch in another mode: flagged, the median stays with the other four" \
    json_holds 'value("fabperf_latency", 1, "gamma")["disagree"] is True and near(value("fabperf_latency", 1, "gamma")["value"], 3.03) and near(value("fabperf_latency", 1, "gamma")["ci_hi"], 7.2) and table("fabperf_latency")["configurations"][1]["disagree_sizes"] == 1'
check "launches that agree within their CIs are not flagged" \
    json_holds 'value("fabperf_latency", 1, "alpha")["disagree"] is False'
# The sbatch templates keep the preflight records in the run folder: they describe nodes, not a
# measurement, and a folder read whole skips them.
printf '%s\n' '{"type":"meta","program":"fabperf_preflight","version":"0.1.0","nodes":["vm"]}' \
    '{"type":"end","result":"pass","failures":0,"warnings":0}' >"$work/run/preflight.json"
compare --format json "$work/alpha" "$work/run"
check "run folder with the preflight records: exits 0" rc_is 0
check "run folder with the preflight records: the same configurations, the records skipped" \
    json_holds '[(c["name"], c["repeats"]) for c in table("fabperf_latency")["configurations"]] == [("alpha", 5), ("gamma", 5)]'
rm "$work/run/preflight.json"
compare "$work/alpha" "$work/run"
check "text flags the disagreeing launches with !" grep -Eq '^ +1 .*\[2\.940, 7\.200\] ! ' "$work/out"

compare --format json "$work/old" "$work/new"
check "five against five launches of one configuration: no significant difference at any size (cannot tell)" \
    json_holds '[(r["size"], r["ratios"]["new/delta"]["verdict"]) for r in table("fabperf_latency")["rows"]] == [(1, "cannot tell"), (64, "cannot tell"), (4096, "cannot tell")]'

compare --format json "$work/three"
check "three against three launches, intervals apart: too few launches, not significant" \
    json_holds 'ratio("fabperf_latency", 1, "zeta")["verdict"] == "too few launches" and ratio("fabperf_latency", 1, "zeta")["significant"] is None and ratio("fabperf_latency", 1, "zeta")["mark"] == "?" and near(ratio("fabperf_latency", 1, "zeta")["false_alarm"], 0.1)'
compare --format json "$work/four"
check "four against four launches, intervals apart: significant (false alarm 2/70)" \
    json_holds 'ratio("fabperf_latency", 1, "zeta")["verdict"] == "slower" and near(ratio("fabperf_latency", 1, "zeta")["false_alarm"], 2 / 70)'

compare --format json "$work/alpha-bw" "$work/beta-bw"
check "bandwidth: MB/s, higher is better" \
    json_holds 'table("fabperf_bw")["unit"] == "MB/s" and table("fabperf_bw")["better"] == "higher"'
check "bandwidth: ratio 2 at size 1 is faster, 0.98 at size 2 is ~" \
    json_holds 'near(ratio("fabperf_bw", 1, "beta-bw")["ratio"], 2.0) and ratio("fabperf_bw", 1, "beta-bw")["verdict"] == "faster" and near(ratio("fabperf_bw", 2, "beta-bw")["ratio"], 0.98) and ratio("fabperf_bw", 2, "beta-bw")["mark"] == "~"'

# One launch per configuration: separate within-launch CIs are not a significant difference.
compare --format json "$work/one-a.json" "$work/one-b.json"
check "one launch each, within-launch CIs apart: verdict one launch, not significant" \
    json_holds 'ratio("fabperf_latency", 1, "one-b")["verdict"] == "one launch" and ratio("fabperf_latency", 1, "one-b")["significant"] is None and near(ratio("fabperf_latency", 1, "one-b")["ratio"], 2.0)'
check "one launch each, within-launch CIs overlap: not significant, cannot tell" \
    json_holds 'ratio("fabperf_latency", 2, "one-b")["verdict"] == "cannot tell" and ratio("fabperf_latency", 2, "one-b")["significant"] is False'
check "one launch: the within-launch CI is kept and named so" \
    json_holds 'value("fabperf_latency", 1, "one-b")["interval"] == "within launch" and value("fabperf_latency", 1, "one-b")["ci_lo"] == 1.9'
check "size 32 without CI: significance unknown" \
    json_holds 'ratio("fabperf_latency", 32, "one-b")["mark"] == "?" and ratio("fabperf_latency", 32, "one-b")["verdict"] == "unknown"'
check "one launch: no crossover claimed" json_holds 'table("fabperf_latency")["crossovers"] == []'
compare "$work/one-a.json" "$work/one-b.json"
check "text: one launch cannot speak to launch-to-launch variation" \
    grep -q '^# one launch of one-a, one-b: .*cannot speak to launch-to-launch variation' "$work/out"
check "text: separate within-launch CIs of single launches read ? one launch" \
    grep -Eq '^ +1 .* 2\.000 \? one launch +never$' "$work/out"

compare --format csv "$work/alpha" "$work/beta"
check "csv: header and one row per size and configuration, with the launch statistics" \
    "$PYTHON3" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = [x for x in rows if x["size"] == "4" and x["configuration"] == "beta"]
ok = len(rows) == 10 and len(r) == 1 and float(r[0]["ratio"]) == 0.5 and r[0]["verdict"] == "faster"
ok = ok and r[0]["interval"] == "between launches" and float(r[0]["coverage"]) == 0.9375
ok = ok and r[0]["disagree"] == "false" and abs(float(r[0]["false_alarm"]) - 2 / 252) < 1e-12
sys.exit(0 if ok else 1)' "$work/out"

# ---- columns declared by the meta line -----------------------------------------------------

COLL_COLUMNS='["size","oop_p50_us","oop_busbw_gbps","oop_p50_ci_lo_us","oop_p50_ci_hi_us","p50_us","p50_ci_lo_us","p50_ci_hi_us"]'
# coll LABEL BUSBW: a collective file; the bus-bandwidth CI comes from the out-of-place time CI
# (2.0 us in 1.9..2.1); the row's stray oop_busbw_ci_* keys are not what the programs write.
coll() {
    meta fabperf_allreduce collective "\"$1\"" "$COLL_COLUMNS"
    printf '{"type":"row","size":1024,"oop_p50_us":2.0,"oop_busbw_gbps":%s,"oop_p50_ci_lo_us":1.9,"oop_p50_ci_hi_us":2.1,"oop_busbw_ci_lo_gbps":0.001,"oop_busbw_ci_hi_gbps":1000,"p50_us":2.0,"p50_ci_lo_us":1.9,"p50_ci_hi_us":2.1}\n' "$2"
    end
}
coll c1 10 >"$work/c1.json"
coll c2 10 >"$work/c2.json"
compare --format json "$work/c1.json" "$work/c2.json"
check "collective: bus bandwidth CI carried over from the out-of-place time CI" \
    json_holds 'table("fabperf_allreduce")["quantity"] == "oop_busbw_gbps" and near(value("fabperf_allreduce", 1024, "c2")["ci_lo"], 10 * 2.0 / 2.1) and near(value("fabperf_allreduce", 1024, "c2")["ci_hi"], 10 * 2.0 / 1.9)'

{ meta fabperf_latency latency '"nop50"' '["size","avg_us","samples"]'; lat 1 1.0 0.9 1.1; end; } >"$work/nop50.json"
compare "$work/one-a.json" "$work/nop50.json"
check "value column missing from the meta line's columns: exit 2" rc_is 2
check "value column missing: one line naming the file and the column" \
    one_error_line fabperf-compare "nop50.json: column p50_us (p50 latency) is not among the columns of its meta line"
{ meta fabperf_latency latency '"noci"' '["size","p50_us","samples"]'; lat 1 1.0 0.9 1.1; end; } >"$work/noci.json"
compare --format json "$work/one-a.json" "$work/noci.json"
check "CI columns missing: exit 0" rc_is 0
check "CI columns missing: a warning naming them" \
    grep -q '^fabperf-compare: warning: .*noci.json: column(s) p50_ci_lo_us, p50_ci_hi_us not among the columns' "$work/err"
check "CI columns missing: that file's values have no CI, significance unknown" \
    json_holds 'value("fabperf_latency", 1, "noci")["ci_lo"] is None and ratio("fabperf_latency", 1, "noci")["verdict"] == "unknown"'
sed 's/,"columns":\[[^]]*\]//' "$work/one-b.json" >"$work/nocolumns.json"
compare "$work/one-a.json" "$work/nocolumns.json"
check "meta line without columns: exit 0 with a warning" rc_is 0
check "meta line without columns: the warning says the keys are not checked" \
    grep -q 'nocolumns.json: the meta line has no columns list; keys not checked' "$work/err"

# ---- the statistics themselves -------------------------------------------------------------

check "between-launch statistics: exact coverage, ranks, false-alarm rates (by enumeration and simulation)" \
    "$PYTHON3" "$(dirname "$0")/launch_stats_check.py" "$FABPERF_COMPARE"

# ---- sensitivity: the detectable difference ------------------------------------------------

# text_holds EXPRESSION: evaluates a Python expression over the text output in $work/out.
# lines: its lines; cell(size, header[, table]): the text of that row's column in the table-th
# table (from 0; the header as printed, e.g. "slow detectable"); pct(text): the number in "+135.3%"; line(regex): the groups of the
# first line matching regex (a failed check when none does). Tables come in the order of the
# programs' first files: in $work/modes, fabperf_bw (0) before fabperf_latency (1).
text_holds() {
    "$PYTHON3" - "$work/out" "$1" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
def cell(size, header, table=0):
    heads = [i for i, x in enumerate(lines) if x.startswith("size  ")]
    head = lines[heads[table]]
    start = head.index("  " + header + "  " if "  " + header + "  " in head else "  " + header) + 2
    end = heads[table + 1] if table + 1 < len(heads) else len(lines)
    row = next(x for x in lines[heads[table] + 1:end] if x.split()[0] == size)
    return row[start:].split("  ")[0].strip()
def pct(text):
    return float(re.fullmatch(r"([+-]?[0-9.]+)%", text).group(1))
def line(regex):
    return next(m.groups() for m in (re.fullmatch(regex, x) for x in lines) if m)
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

# modes PROGRAM NAME PATTERN FACTOR "SIZE:FAST:SLOW ...": one launch file per letter of PATTERN in
# $work/modes/NAME.<j>.PROGRAM.json; launch j runs in the fast mode (F) or the slow one (S)
# at every size: its median is FAST or SLOW times FACTOR, its within-launch CI +-1% of that.
modes() {
    program=$1 name=$2 pattern=$3 factor=$4 spec=$5
    metric=latency row=lat folder=$work/modes
    [ "$program" = fabperf_bw ] && metric=bandwidth row=bw
    mkdir -p "$folder"
    j=1
    while [ -n "$pattern" ]; do
        mode=${pattern%"${pattern#?}"}
        pattern=${pattern#?}
        {
            meta "$program" "$metric" "\"$name\""
            for triple in $spec; do
                # shellcheck disable=SC2046
                "$row" $(echo "$triple" | awk -F: -v m="$mode" -v k="$factor" \
                    '{ p = (m == "F" ? $2 : $3) * k; printf "%s %.10g %.10g %.10g", $1, p, p * 0.99, p * 1.01 }')
            done
            end
        } >"$folder/$name.$j.$program.json"
        j=$((j + 1))
    done
}

# Five against five launches on a machine whose launches land in a fast or a slow mode (0.17 or
# 0.40 us; 0.25 or 0.50 us at 64 B), three of five fast in each; "slow" is 15% slower (latency
# times 1.15, bandwidth times 1/1.15 = 0.8695652174). Each interval over launches is min..max, from the
# fast mode to the slow one, so by hand: latency hi = (0.40/0.17) (0.1955/0.1955), detectable
# +135.3% (0.50/0.25: +100% at 64 B); bandwidth lo = (450/1000) (869.6/869.6), detectable -55%.
# The observed 15% is below both: cannot tell, at every size.
modes fabperf_latency base FFSFS 1 "1:0.17:0.40 8:0.17:0.40 64:0.25:0.50"
modes fabperf_latency slow FSFSF 1.15 "1:0.17:0.40 8:0.17:0.40 64:0.25:0.50"
modes fabperf_bw base FFSFS 1 "1024:1000:450 4096:2000:900 65536:4000:1800 1048576:8000:3600"
modes fabperf_bw slow SFFSF 0.8695652174 "1024:1000:450 4096:2000:900 65536:4000:1800 1048576:8000:3600"

compare --format json "$work/modes"
check "two modes, 15% slower, 5 + 5 launches: exit 0" rc_is 0
check "two modes: latency ratio 1.15, cannot tell (not same) at each of the 3 sizes" \
    json_holds 'all(near(ratio("fabperf_latency", s, "slow")["ratio"], 1.15) and ratio("fabperf_latency", s, "slow")["verdict"] == "cannot tell" and ratio("fabperf_latency", s, "slow")["mark"] == "~" for s in (1, 8, 64))'
check "two modes: latency detectable difference (0.40/0.17)(0.1955/0.1955) - 1 at 1 and 8 B, 0.50/0.25 - 1 at 64 B" \
    json_holds 'near(ratio("fabperf_latency", 1, "slow")["detectable"], 0.40 / 0.17 * (0.1955 / 0.1955) - 1) and near(ratio("fabperf_latency", 8, "slow")["detectable"], 0.40 / 0.17 - 1) and near(ratio("fabperf_latency", 64, "slow")["detectable"], 0.50 / 0.25 * (0.2875 / 0.2875) - 1)'
check "two modes: latency detectable ratios lo = (0.17/0.17)(0.1955/0.46), hi = (0.40/0.17)(0.1955/0.1955), the observed ratio between" \
    json_holds 'near(ratio("fabperf_latency", 1, "slow")["detectable_lo"], 0.1955 / 0.46) and near(ratio("fabperf_latency", 1, "slow")["detectable_hi"], 0.40 / 0.17) and ratio("fabperf_latency", 1, "slow")["detectable_lo"] < 1.15 < ratio("fabperf_latency", 1, "slow")["detectable_hi"] and ratio("fabperf_latency", 1, "slow")["launches_needed"] is None'
check "two modes: bandwidth ratio 1/1.15, cannot tell at each of the 4 sizes, detectable 1 - (450/1000)(869.6/869.6) = 0.55" \
    json_holds 'all(near(ratio("fabperf_bw", s, "slow")["ratio"], round(1000 / 1.15, 7) / 1000) and ratio("fabperf_bw", s, "slow")["verdict"] == "cannot tell" and near(ratio("fabperf_bw", s, "slow")["detectable"], 1 - 450 / 1000) for s in (1024, 4096, 65536, 1048576))'
check "two modes: the sensitivity summary per table (range, cannot tell at 3 of 3 and 4 of 4 sizes)" \
    json_holds '[(x["name"], x["baseline"], x["sizes"], x["cannot_tell_sizes"], x["significant_sizes"], x["launches_needed"]) for p in ("fabperf_latency", "fabperf_bw") for x in table(p)["sensitivity"]] == [("slow", "base", 3, 3, 0, None), ("slow", "base", 4, 4, 0, None)] and near(table("fabperf_latency")["sensitivity"][0]["detectable_min"], 1.0) and near(table("fabperf_latency")["sensitivity"][0]["detectable_max"], 0.40 / 0.17 - 1)'
compare "$work/modes"
check "two modes, text: 1.150 ~ cannot tell beside the detectable difference +135.3% (hand: 100 (0.40/0.17 - 1))" \
    text_holds 'cell("8", "slow vs base", 1) == "1.150 ~ cannot tell" and abs(pct(cell("8", "slow detectable", 1)) - 100 * (0.40 / 0.17 - 1)) <= 0.05 and pct(cell("8", "slow detectable", 1)) > 0 and abs(pct(cell("64", "slow detectable", 1)) - 100.0) <= 0.05'
check "two modes, text: bandwidth detectable -55.0%, the observed -13% below it, cannot tell" \
    text_holds 'cell("1K", "slow vs base") == "0.8696 ~ cannot tell" and abs(pct(cell("1K", "slow detectable")) - -100 * (1 - 450 / 1000)) <= 0.05 and abs(pct(cell("1K", "slow detectable"))) > 100 * (1 - 1 / 1.15)'
check "two modes, text: one sensitivity line per table with the range and the count of cannot tell" \
    text_holds '[(float(a), float(b), int(n), int(c), int(k)) for a, b, n, c, k in [line(r"# sensitivity of slow vs base \(x5 against x5\): smallest detectable difference ([0-9.]+)% to ([0-9.]+)% \(median [0-9.]+%\) over (\d+) size\(s\); observed difference below it \(cannot tell\) at (\d+) of (\d+) size\(s\)")]] == [(100.0, 135.3, 3, 3, 3)] and line(r"# sensitivity of slow vs base \(x5 against x5\): smallest detectable difference ([0-9.]+)% over (\d+) size\(s\); observed difference below it \(cannot tell\) at (\d+) of (\d+) size\(s\)") == ("55.0", "4", "4", "4")'
check "text: the legend says cannot tell where the difference is below the detectable one" \
    sh -c "grep -q '^~ cannot tell: the intervals overlap, i.e. the observed difference is smaller than the detectable' '$work/out' && grep -q '^detectable: the smallest difference' '$work/out'"

# A large shift with tight launches (alpha and beta above): significant, and far beyond the
# detectable difference. Size 1: alpha 1.0 [0.98, 1.02], beta 2.0 [1.96, 2.04]: hi =
# (1.02/1.0)(2.0/1.96); size 4 (beta faster): alpha 2.0 [1.96, 2.04], beta 1.0 [0.98, 1.02]:
# lo = (1.96/2.0)(1.0/1.02).
compare --format json "$work/alpha" "$work/beta"
check "tight launches, ratio 2: slower, detectable 1.02 * 2.0 / 1.96 - 1 (4.1%)" \
    json_holds 'ratio("fabperf_latency", 1, "beta")["significant"] is True and near(ratio("fabperf_latency", 1, "beta")["detectable"], 1.02 / 1.0 * 2.0 / 1.96 - 1) and ratio("fabperf_latency", 1, "beta")["ratio"] > ratio("fabperf_latency", 1, "beta")["detectable_hi"]'
check "tight launches, ratio 0.5: faster, detectable 1 - 1.96 / 2.0 * 1.0 / 1.02 (3.9%)" \
    json_holds 'ratio("fabperf_latency", 4, "beta")["verdict"] == "faster" and near(ratio("fabperf_latency", 4, "beta")["detectable"], 1 - 1.96 / 2.0 * 1.0 / 1.02) and ratio("fabperf_latency", 4, "beta")["ratio"] < ratio("fabperf_latency", 4, "beta")["detectable_lo"]'
check "tight launches: sensitivity summary, significant at 4 sizes, cannot tell at 1 (size 2)" \
    json_holds '[(x["sizes"], x["significant_sizes"], x["cannot_tell_sizes"], x["never_sizes"]) for x in table("fabperf_latency")["sensitivity"]] == [(5, 4, 1, 0)] and table("fabperf_latency")["configurations"][1]["launches_needed"] is None'
compare "$work/alpha" "$work/beta"
check "tight launches, text: 2.000 * slower with detectable +4.1%, 0.5000 * faster with -3.9%" \
    text_holds 'cell("1", "beta vs alpha") == "2.000 * slower" and abs(pct(cell("1", "beta detectable")) - 100 * (1.02 * 2.0 / 1.96 - 1)) <= 0.05 and cell("4", "beta vs alpha") == "0.5000 * faster" and abs(pct(cell("4", "beta detectable")) + 100 * (1 - 1.96 / 2.0 / 1.02)) <= 0.05'
compare --format csv "$work/alpha" "$work/beta"
check "csv: detectable, detectable_lo, detectable_hi and launches_needed per row; empty for the baseline" \
    "$PYTHON3" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = next(x for x in rows if x["size"] == "4" and x["configuration"] == "beta")
a = next(x for x in rows if x["size"] == "4" and x["configuration"] == "alpha")
ok = abs(float(r["detectable"]) - (1 - 1.96 / 2.0 / 1.02)) < 1e-12 and abs(float(r["detectable_lo"]) - 1.96 / 2.0 / 1.02) < 1e-12
ok = ok and abs(float(r["detectable_hi"]) - 2.04 / 2.0 / 0.98) < 1e-12 and r["launches_needed"] == ""
ok = ok and a["detectable"] == a["detectable_lo"] == a["launches_needed"] == ""
sys.exit(0 if ok else 1)' "$work/out"

# Launch counts that allow no call: never, and one line with the launches needed. By hand, L
# against L launches with min..max intervals separate by chance with probability 2/C(2L, L): 1/3
# at 2, 1/10 at 3, 2/70 at 4, so 4 of each; 2 against 5: 2/C(7, 2) = 2/21 = 9.5%, 3 against 5:
# 2/C(8, 3) = 2/56 = 3.6%, so 3 of the one launched twice.
launches fabperf_latency eta 5 "1:1.0" "$work/twofive"
launches fabperf_latency theta 2 "1:1.3" "$work/twofive"
compare --format json "$work/one-a.json" "$work/one-b.json"
check "1 + 1 launches: detectable never at every size with a CI, unknown without; 4 launches of each needed" \
    json_holds 'ratio("fabperf_latency", 1, "one-b")["detectable"] == "never" and ratio("fabperf_latency", 2, "one-b")["detectable"] == "never" and ratio("fabperf_latency", 32, "one-b")["detectable"] is None and ratio("fabperf_latency", 1, "one-b")["launches_needed"] == 4 and table("fabperf_latency")["configurations"][1]["launches_needed"] == 4 and table("fabperf_latency")["sensitivity"][0]["launches_needed"] == 4'
compare "$work/one-a.json" "$work/one-b.json"
check "1 + 1 launches, text: one line naming the launches needed (4 of each, by hand)" \
    text_holds 'int(line(r"# sensitivity of one-b vs one-a: never: with one-b x1 against one-a x1 no difference can be called at any size \(cannot tell\); launch one-a and one-b at least (\d+) times each")[0]) == 4 and sum(x.startswith("# sensitivity") for x in lines) == 1 and cell("2", "one-b detectable") == "never" and cell("32", "one-b detectable") == "-"'
compare "$work/three"
check "3 + 3 launches, text: never; 4 of each needed" \
    text_holds 'int(line(r"# sensitivity of zeta vs eps: never: with zeta x3 against eps x3 .*; launch eps and zeta at least (\d+) times each")[0]) == 4 and cell("1", "zeta detectable") == "never"'
compare "$work/twofive"
check "5 + 2 launches, text: never; only the configuration launched twice needs more, 3" \
    text_holds 'int(line(r"# sensitivity of theta vs eta: never: with theta x2 against eta x5 .*; launch theta at least (\d+) times")[0]) == 3 and cell("1", "theta detectable") == "never"'
compare --format json "$work/four"
check "4 + 4 launches: a call is possible, no launches needed" \
    json_holds 'isinstance(ratio("fabperf_latency", 1, "zeta")["detectable"], float) and ratio("fabperf_latency", 1, "zeta")["launches_needed"] is None'

# The definition against the rule itself: for two-mode launches with random shifts, the rule
# marks * exactly where the ratio lies outside detectable_lo..detectable_hi, and multiplying the
# configuration's launch medians so that the ratio lands just beyond the detectable one makes *
# appear, just short of it not.
check "detectable difference: the smallest ratio the rule marks (simulation, 5 + 5 and 4 + 6 launches)" \
    "$PYTHON3" - "$FABPERF_COMPARE" <<'EOF'
import importlib.util, random, sys
from importlib.machinery import SourceFileLoader
loader = SourceFileLoader("fabperf_compare", sys.argv[1])
fc = importlib.util.module_from_spec(importlib.util.spec_from_loader("fabperf_compare", loader))
loader.exec_module(fc)
rng = random.Random(3)
def launch():
    return (0.17 if rng.random() < 0.6 else 0.40) * rng.uniform(0.97, 1.03)
def cell(values):
    return fc.between_launches([(v, v * 0.99, v * 1.01) for v in values])
bad = 0
for trial in range(2000):
    m, n = (5, 5) if trial % 2 else (4, 6)
    base = [launch() for _ in range(m)]
    other = [launch() * rng.uniform(0.3, 3.0) for _ in range(n)]
    r = fc.compare_cells(cell(other), cell(base), "lower")
    outside = r["ratio"] < r["detectable_lo"] or r["ratio"] > r["detectable_hi"]
    bad += r["significant"] is not outside
    for target, want in ((r["detectable_hi"] * 1.001, True), (r["detectable_hi"] * 0.999, False),
                         (r["detectable_lo"] * 0.999, True), (r["detectable_lo"] * 1.001, False)):
        k = target / r["ratio"]
        bad += fc.compare_cells(cell([v * k for v in other]), cell(base), "lower")["significant"] is not want
if bad:
    print(f"  {bad} disagreements between the detectable difference and the rule")
sys.exit(1 if bad else 0)
EOF

# ---- errors -----------------------------------------------------------------------------

printf '{"hello":"world"}\n' >"$work/other.json"
printf 'this is not json\n' >"$work/text.json"
mkdir "$work/empty"

compare
check "no input: exit 2" rc_is 2
check "no input: one line" one_error_line fabperf-compare "no input"
compare "$work/one-a.json" "$work/missing.json"
check "missing file: exit 2" rc_is 2
check "missing file: one line" one_error_line fabperf-compare "cannot read .*missing.json"
if [ "$(id -u)" -ne 0 ]; then
    cp "$work/one-b.json" "$work/locked.json"
    chmod 000 "$work/locked.json"
    compare "$work/one-a.json" "$work/locked.json"
    check "unreadable file: exit 2" rc_is 2
    check "unreadable file: one line" one_error_line fabperf-compare "cannot read .*locked.json"
fi
compare "$work/one-a.json" "$work/other.json"
check "JSON that is not fabperf's: exit 2" rc_is 2
check "JSON that is not fabperf's: one line" one_error_line fabperf-compare "other.json is not a fabperf JSON result"
compare "$work/one-a.json" "$work/text.json"
check "text file: exit 2" rc_is 2
check "text file: one line" one_error_line fabperf-compare "text.json is not a fabperf JSON result"
compare "$work/one-a.json" "$work/beta-bw/beta-bw.1.fabperf_bw.json"
check "latency against bandwidth: exit 2" rc_is 2
check "latency against bandwidth: one line" one_error_line fabperf-compare "cannot compare"
compare "$work/one-a.json"
check "one configuration: exit 2" rc_is 2
check "one configuration: one line" one_error_line fabperf-compare "fewer than two configurations"
compare "$work/run"
check "repeats of one configuration only: exit 2" rc_is 2
compare "$work/empty"
check "folder without results: exit 2" rc_is 2
check "folder without results: one line" one_error_line fabperf-compare "holds no fabperf result"
compare --baseline nosuch "$work/one-a.json" "$work/one-b.json"
check "unknown baseline: exit 2" rc_is 2
check "unknown baseline: one line" one_error_line fabperf-compare "no such configuration"
compare --format xml "$work/one-a.json" "$work/one-b.json"
check "bad --format: exit 2, one line" one_error_line fabperf-compare "invalid choice"
compare --help
check "--help exits 0" rc_is 0
check "--help explains launches, marks, crossovers, formats, plots and exits" \
    help_explains "median of the launch medians" "order statistics" separate "one launch" "false alarm" disagree crossover "--format" "--plot" "--baseline" "exit status"
check "--help defines the detectable difference and cannot tell" \
    help_explains "sensitivity" "detectable = hi - 1" "hi = (bh / b) \\* (c / cl)" "lo = (bl / b) \\* (c / ch)" "cannot tell" "never" "launches needed"

# ---- path evidence and verdicts beside the figures -----------------------------------------

# evidence NAME J VERDICT PATH(json) [UCX(json)]: one launch of fabperf_bw at 1M with a verdict, a
# path and UCX's selection (meta "ucx").
evidence() {
    mkdir -p "$work/ev"
    {
        meta fabperf_bw bandwidth "\"$1\"" \
            '["size","bw_mbps","bw_p50_mbps","bw_ci_lo_mbps","bw_ci_hi_mbps","avg_us","p50_us","p50_ci_lo_us","p50_ci_hi_us","samples","verdict","expect","line_rate_gbps","efficiency","path"]' |
            sed "s|\"columns\":|\"ucx\":${5:-null},\"columns\":|"
        printf '{"type":"row","size":1048576,"bw_mbps":100,"bw_p50_mbps":100,"bw_ci_lo_mbps":99,"bw_ci_hi_mbps":101,"avg_us":1,"p50_us":1,"p50_ci_lo_us":1,"p50_ci_hi_us":1,"samples":100,"verdict":"%s","expect":"80%%line@1M:4M (>= 100)","line_rate_gbps":1,"efficiency":0.8,"path":%s}\n' "$3" "$4"
        end
    } >"$work/ev/$1.$2.fabperf_bw.json"
}
veth='{"payload_bytes":1e8,"summary":"s","nics":[{"node":"h1","name":"fpveth0","share":1.004,"bytes":1e8,"line_rate_gbps":null},{"node":"h2","name":"fpveth0","share":0.998,"bytes":1e8,"line_rate_gbps":null}]}'
none='{"payload_bytes":0,"summary":"s","nics":[]}'
ucx='{"version":"1.13.1","transports":"tcp/fpveth0","endpoints":[],"protocols":[],"note":null,"summary":"s"}'
evidence tcp 1 pass "$veth" "$ucx"
evidence tcp 2 fail "$veth" "$ucx"
evidence shm 1 fail "$none"
evidence shm 2 fail "$none"
compare --format json "$work/ev"
check "evidence: verdicts of the launches, mixed where they differ" \
    json_holds 'value("fabperf_bw", 1048576, "tcp")["verdict"] == "mixed (pass 1, fail 1)" and value("fabperf_bw", 1048576, "shm")["verdict"] == "fail" and value("fabperf_bw", 1048576, "shm")["verdicts"] == {"fail": 2}'
check "evidence: the path as NIC and lowest share, or no inter-node payload; UCX's transports where recorded" \
    json_holds 'value("fabperf_bw", 1048576, "tcp")["path"] == "fpveth0 100%; ucx tcp/fpveth0" and value("fabperf_bw", 1048576, "tcp")["ucx"] == "tcp/fpveth0" and value("fabperf_bw", 1048576, "shm")["path"] == "no inter-node payload; no NIC" and "ucx" not in value("fabperf_bw", 1048576, "shm") and value("fabperf_bw", 1048576, "tcp")["expect"] == "80%line@1M:4M (>= 100)"'
# A launch whose UCX configured more during the sweep: the end record's ucx_end is what it used.
mv "$work/ev" "$work/ev-all"
evidence early 1 pass "$veth" "$ucx"
evidence late 1 pass "$veth" "$ucx"
sed -i 's|^{"type":"end",|{"type":"end","ucx_end":{"transports":"rc_mlx5/mlx5_0:1"},|' "$work/ev/late.1.fabperf_bw.json"
compare --format json "$work/ev"
check "evidence: UCX's transports from ucx_end where the end record has one" \
    json_holds 'value("fabperf_bw", 1048576, "late")["path"] == "fpveth0 100%; ucx rc_mlx5/mlx5_0:1" and value("fabperf_bw", 1048576, "early")["path"] == "fpveth0 100%; ucx tcp/fpveth0"'
rm -r "$work/ev"
mv "$work/ev-all" "$work/ev"
compare "$work/ev"
check "evidence: text has verdict and path columns beside the figures" \
    sh -c "grep -q 'shm verdict  tcp verdict' '$work/out' && grep -Eq '^ *1M .*fail +mixed \\(pass 1, fail 1\\) +no inter-node payload; no NIC +fpveth0 100%; ucx tcp/fpveth0' '$work/out'"
compare --format csv "$work/ev"
check "evidence: CSV columns expect_verdict, expect, path" \
    sh -c "head -1 '$work/out' | grep -q ',expect_verdict,expect,path\$' && grep -q '^fabperf_bw,.*,tcp,.*,\"mixed (pass 1, fail 1)\",80%line@1M:4M (>= 100),fpveth0 100%; ucx tcp/fpveth0\$' '$work/out'"

# ---- plot -------------------------------------------------------------------------------

is_png() {
    if [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e47" ]; then
        return 0
    fi
    echo "  $1 is not a PNG image"
    return 1
}

if command -v gnuplot >/dev/null 2>&1; then
    compare --plot "$work/plots" "$work/one-a.json" "$work/one-b.json" "$work/alpha-bw" "$work/beta-bw"
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
        for repeat in 1 2 3 4; do
            for prog in fabperf_latency fabperf_bw; do
                # Four latency launches per configuration (significance needs them), two of bw.
                [ "$prog" = fabperf_bw ] && [ "$repeat" -gt 2 ] && continue
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
    check "real runs: 12 launches over shm and tcp" [ "$launched" -eq 12 ]
    compare "$real"
    check "real comparison (text) exits 0" rc_is 0
    sed 's/^/# /' "$work/out"
    compare --format json --baseline tcp "$real"
    check "real comparison (json) exits 0" rc_is 0
    check "real: both programs compared, 4 latency and 2 bandwidth launches each" \
        json_holds 'sorted(t["program"] for t in d["tables"]) == ["fabperf_bw", "fabperf_latency"] and [c["repeats"] for c in table("fabperf_latency")["configurations"] + table("fabperf_bw")["configurations"]] == [4, 4, 2, 2]'
    check "real: two bandwidth launches each are never called significant" \
        json_holds 'all(r["ratios"]["shm"]["significant"] is not True for r in table("fabperf_bw")["rows"])'
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
