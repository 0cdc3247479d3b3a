#!/bin/sh
# Exact figures of the point-to-point programs and of fabperf_mbw_mr under a known clock
# (tests/faults/known_clock.c): every step of rank 0's clock (the senders' clocks for mbw_mr) is
# T + j*S for j = 0..N-1, the last one E more, so the samples, and from them every column in text,
# CSV and JSON, OSU's layout, the median's interval, batch means, the adaptive rule's sample count
# and --expect's verdicts, have one value, computed here from the programs' definitions
# (docs/running.md): latency = round trip / 2, bw = window x size per step (MB/s = bytes per us),
# bibw twice that, mbw_mr the pairs' sum over the senders' mean time. E makes mean and median
# differ.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
: "${FABPERF_KNOWN_CLOCK_LIB:?run through make check}" "${FABPERF_PAIRS_BIN:?}"

# The expected figures: python3 kc.py MODE [NAME=VALUE...] (see the end of the program).
cat >"$work/kc.py" <<'EOF'
import csv, json, math, sys
from math import comb

args = dict(a.split("=", 1) for a in sys.argv[2:])
mode = sys.argv[1]
prog = args["program"]
T, S, E = (float(args.get(k, 0)) for k in ("T", "S", "E"))
N = int(args.get("N", 1))
D = float(args.get("D", 0))                 # the slow rank's extra per step, where its clock counts
P = int(args.get("P", 1))                   # pairs (senders whose times are averaged)
W = int(args.get("W", 64))                  # window
B = int(args.get("B", 1))                   # batch
PB = float(args.get("PB", 0))               # ps per byte of the received size, added to each step
DIV = 2 if prog == "latency" else 1         # operations per step: a round trip is two
DIRS = {"latency": 0, "bw": 1, "bibw": 2, "mbw_mr": 1}[prog]
RES = 0.001                                 # the clock's tick, us (widens the interval)
sizes = [int(s) for s in args.get("sizes", "0").split(",")]

def ci_ranks(n):
    """stats.c: the largest l with P(Binomial(n, 1/2) <= l - 1) <= 0.025; ranks l, n - l + 1."""
    l, below = 0, 0
    for k in range(n):
        below += comb(n, k)
        if 40 * below > 2 ** n:
            break
        l = k + 1
    return (l, n - l + 1) if l >= 1 else None

def samples(n, size=0):
    """us per operation of each sample: one step per operation (a window, a round trip)."""
    steps = [T + size * PB * 1e-6 + j * S + (E if j == N - 1 else 0) for j in range(N)]
    if B == 1:
        assert n % N == 0, "the ramp must divide the samples"
        per_sample = steps * (n // N)
    else:
        assert B % N == 0, "the ramp must divide the batch"
        per_sample = [sum(steps) * (B // N)] * n
    return [(s + D * B / P) / (B * DIV) for s in per_sample]

def stats(x):
    x, n = sorted(x), len(x)
    mean = sum(x) / n
    r = ci_ranks(n)
    lo, hi = (x[r[0] - 1], x[r[1] - 1]) if r else (x[0], x[-1])
    res = RES / (B * DIV)
    lo, hi = max(lo - res, 0.0), hi + res
    p50 = x[n // 2] if n % 2 else (x[n // 2 - 1] + x[n // 2]) / 2
    return {"mean": mean, "min": x[0], "max": x[-1], "p50": p50, "lo": lo, "hi": hi,
            "sd": math.sqrt(sum((v - mean) ** 2 for v in x) / (n - 1)),
            "p99": x[-(-99 * n // 100) - 1] if n >= 100 else None}

def within(s, target):
    return (s["p50"] - s["lo"]) / s["p50"] * 100 <= target and (s["hi"] - s["p50"]) / s["p50"] * 100 <= target

def adaptive_count(target):
    """adaptive.c: the pilot checks at 32, then every max(n/4, 16) more, until both sides of the
    interval are within the target (the virtual clock never spends the budget); then 1.5x as many
    fresh samples are taken and reported."""
    n = 32
    while not within(stats(samples(n)), target):
        n += max(n // 4, 16)
        assert n <= 1000
    return n + n // 2

def expected(size, n):
    s = stats(samples(n, size))
    row = {"size": size, "samples": n, "batch": B, "avg_us": s["mean"], "p50_us": s["p50"],
           "p50_ci_lo_us": s["lo"], "p50_ci_hi_us": s["hi"],
           "ci_halfwidth_pct": (s["hi"] - s["lo"]) / 2 / s["p50"] * 100,
           "min_us": s["min"], "max_us": s["max"], "stddev_us": s["sd"], "p99_us": s["p99"]}
    if B > 1:  # batch means: no extremes, no spread of single operations
        for k in ("min_us", "max_us", "stddev_us", "p99_us"):
            row[k] = None
    if DIRS:  # MB/s = bytes per microsecond; OSU's from the mean, fabperf's from the median
        moved = size * W * DIRS * P
        row.update(bw_mbps=moved / s["mean"], bw_p50_mbps=moved / s["p50"], bw_ci_lo_mbps=moved / s["hi"],
                   bw_ci_hi_mbps=moved / s["lo"])
    if prog == "mbw_mr":
        row.update(msgs_per_s=row["bw_mbps"] * 1e6 / size, msgs_p50_per_s=row["bw_p50_mbps"] * 1e6 / size)
    if "target" in args:
        row["target_met"] = within(s, float(args["target"]))
    return row

def counts():
    if "target" in args:
        return [adaptive_count(float(args["target"]))] * len(sizes)
    c = [int(v) for v in args["samples"].split(",")]
    return c * len(sizes) if len(c) == 1 else c

STATS = ["avg_us", "min_us", "p50_us", "p50_ci_lo_us", "p50_ci_hi_us", "p99_us", "max_us", "stddev_us",
         "ci_halfwidth_pct", "samples", "batch"]
TEXT = {"latency": ["size"] + STATS,
        "bw": ["size", "bw_mbps", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps"] + STATS,
        "mbw_mr": ["size", "bw_mbps", "msgs_per_s", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps",
                   "msgs_p50_per_s"] + STATS}
TEXT["bibw"] = TEXT["bw"]
SUMMARY_STATS = ["p50_us", "p50_ci_lo_us", "p50_ci_hi_us", "ci_halfwidth_pct", "samples", "batch"]
SUMMARY = {"latency": ["size", "avg_us"] + SUMMARY_STATS,
           "bw": ["size", "bw_mbps", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps"] + SUMMARY_STATS[3:],
           "mbw_mr": ["size", "bw_mbps", "msgs_per_s", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps"] + SUMMARY_STATS[3:]}
SUMMARY["bibw"] = SUMMARY["bw"]
OSU = {"latency": ["size", "avg_us"], "bw": ["size", "bw_mbps"], "bibw": ["size", "bw_mbps"],
       "mbw_mr": ["size", "bw_mbps", "msgs_per_s"]}

def number(text):
    if text in ("", "-", "null"):
        return None
    try:
        return float(text)
    except ValueError:  # flags, names: not compared
        return text

def rows_of(fmt, path):
    lines = open(path).read().splitlines()
    if fmt == "json":
        records = [json.loads(l) for l in lines]
        assert records[0]["timer_resolution_us"] == RES, "the clock's tick is not the model's"
        return [r for r in records if r["type"] == "row"], 1e-8, 0.0
    body = [l for l in lines if l and not l.startswith("#")]
    if fmt == "csv":
        return [{k: number(v) for k, v in r.items() if k != "path"} for r in csv.DictReader(body)], 1e-8, 0.0
    keys = OSU[prog] if fmt == "osu" else SUMMARY[prog] if fmt == "summary" else TEXT[prog]
    rows = []
    for line in body:
        values = [number(v) for v in line.split()[:len(keys)]]
        if fmt == "osu":  # OSU's exact row: "%-10d%18.2f" (mbw_mr: "%-10d%18.2f%18.2f")
            width = 18
            assert line == "%-10d" % values[0] + "".join("%*.2f" % (width, v) for v in values[1:]), line
        rows.append(dict(zip(keys, values)))
    return rows, 1e-12, 0.005 * (1 + 1e-9)  # two decimals: exact to the printed digit

def close(got, want, rel, absolute):
    if want is None or got is None:
        return got is None and want is None
    if isinstance(want, bool):
        return got is want
    return abs(got - want) <= max(absolute, rel * abs(want))

if mode == "rows":  # rows FORMAT FILE: every column the format has, against the model
    fmt, path = args["format"], args["file"]
    rows, rel, absolute = rows_of(fmt, path)
    want = [expected(size, n) for size, n in zip(sizes, counts())]
    bad = [] if len(rows) == len(want) else ["%d rows, expected %d" % (len(rows), len(want))]
    for got, exp in zip(rows, want):
        for key in got.keys() & exp.keys() if fmt != "json" else exp.keys():
            # A batch's interval is its sample +- one tick: the width cancels digits of the clock.
            slack = max(absolute, 1e-6) if key == "ci_halfwidth_pct" else absolute
            if not close(got.get(key), exp[key], rel, slack):
                bad.append("size %s %s: %r, expected %r" % (exp["size"], key, got.get(key), exp[key]))
    for b in bad:
        print("  " + b)
    sys.exit(1 if bad else 0)

if mode == "terms":  # thresholds just inside and outside the headline's interval, per size
    quantity = "lat" if prog == "latency" else "bw"
    terms = []
    for size, n, verdict in zip(sizes, counts(), args["verdicts"].split(",")):
        r = expected(size, n)
        lo, hi = r["p50_ci_lo_us"], r["p50_ci_hi_us"]
        if prog != "latency":
            lo, hi = r["bw_ci_lo_mbps"], r["bw_ci_hi_mbps"]
        d = 1e-5 * hi
        if quantity == "lat":  # lat<=X: pass when hi <= X, fail when lo > X
            x = {"pass": hi + d, "inconclusive": hi - d, "fail": lo - d}[verdict]
            terms.append("lat<=%.10g@%d" % (x, size))
        else:  # bw>=X: pass when lo >= X, fail when hi < X
            x = {"pass": lo - d, "inconclusive": lo + d, "fail": hi + d}[verdict]
            terms.append("bw>=%.10g@%d" % (x, size))
    print(",".join(terms))
EOF

# kc MODE [NAME=VALUE...]: the model of the main clock's settings, unless the words say otherwise.
kc() {
    kc_mode=$1
    shift
    "$PYTHON3" "$work/kc.py" "$kc_mode" "T=$T" "S=$S" "N=$N" "E=$E" "$@"
}

# run_known NP SETTINGS PROGRAM [ARGS...]: one job over shared memory with the known clock; the
# clock's settings as NAME=VALUE words; PROGRAM with its path.
run_known() {
    kc_np=$1 kc_settings=$2 kc_program=$3
    shift 3
    # shellcheck disable=SC2086 # settings are words by design
    timeout 120 "$FABPERF_LAUNCH" "$kc_np" sm env LD_PRELOAD="$FABPERF_KNOWN_CLOCK_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" $kc_settings \
        "$kc_program" "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

lat=$FABPERF_BIN/fabperf_latency bw=$FABPERF_BIN/fabperf_bw bibw=$FABPERF_BIN/fabperf_bibw
mr=$FABPERF_PAIRS_BIN/fabperf_mbw_mr

# Round trips of 4, 5, 6 and 11 us (T = 4, S = 1, N = 4, E = 4): one-way mean 3.25, median 2.75.
T=4 S=1 N=4 E=4
clock="FP_KNOWN_US=$T FP_KNOWN_RAMP_US=$S FP_KNOWN_RAMP_N=$N FP_KNOWN_LAST_US=$E"

# The clock needs MPI_Wtime through the profiling interface; an MPI whose MPI_Wtime a preloaded
# library cannot replace has nothing to test here. Whether the clock rules is told by equal
# samples, not by their value, so that a wrong figure is a failure there too.
run_known 2 "FP_KNOWN_US=$T" "$lat" -m 1:1 -i 4 -x 2 --format json
if ! json_check "$work/out" "len(rows) == 1 and rows[0]['min_us'] == rows[0]['max_us']" >/dev/null 2>&1 &&
    [ "${FABPERF_MPI_FLAVOR:-openmpi}" = mpich ]; then
    echo "SKIP: MPI_Wtime of this MPICH is not replaced by a preloaded library"
    exit 77
fi
check "probe: the known clock's round trip of $T us reads $T / 2 us one way" \
    json_check "$work/out" "len(rows) == 1 and rows[0]['min_us'] == rows[0]['max_us'] == $T / 2"

# Every column of every format, 32 samples (8 of each step) at 1K and 2K.
for program in latency bw bibw; do
    case $program in
    latency) path=$lat ;;
    bw) path=$bw ;;
    *) path=$bibw ;;
    esac
    for format in json csv text summary osu; do
        case $format in
        osu) options="--layout osu" ;;
        text) options="--layout full" ;;
        summary) options="--format text" ;;
        *) options="--format $format" ;;
        esac
        # shellcheck disable=SC2086 # options are words
        run_known 2 "$clock" "$path" -m 1K:2K -i 32 -x 4 $options
        check "$program $format: exit 0" rc_is 0
        check "$program $format: every figure exact (mean, min, median and its CI, max, stddev; MB/s)" \
            kc rows program="$program" sizes=1024,2048 samples=32 format="$format" file="$work/out"
    done
done

# Order statistics: 120 steps all different (4..123 us, the last 4 more), so that the median's
# interval ranks, its middle pair and p99's rank (ceil(0.99 n), not floor) each pick a value of
# its own.
run_known 2 "FP_KNOWN_US=$T FP_KNOWN_RAMP_US=$S FP_KNOWN_RAMP_N=120 FP_KNOWN_LAST_US=$E" "$lat" \
    -m 1K:1K -i 120 -x 4 --format json
check "latency, 120 distinct steps: exit 0" rc_is 0
check "latency, 120 distinct steps: median, CI ranks 49 and 72, p99 rank 119, exact" \
    kc rows program=latency N=120 sizes=1024 samples=120 format=json file="$work/out"

# A point-to-point sample is rank 0's clock: a slower rank 0 shows in every figure, a slower
# rank 1 in none.
run_known 2 "$clock FP_KNOWN_SLOW_RANK=0 FP_KNOWN_SLOW_US=10" "$lat" -m 1K:1K -i 32 -x 4 --format json
check "latency, rank 0 10 us slower per step: exit 0" rc_is 0
check "latency, rank 0 10 us slower per step: 5 us more one way, exact" \
    kc rows program=latency D=10 sizes=1024 samples=32 format=json file="$work/out"
run_known 2 "$clock FP_KNOWN_SLOW_RANK=1 FP_KNOWN_SLOW_US=10" "$bw" -m 1K:1K -i 32 -x 4 --format json
check "bw, rank 1 10 us slower per step: exit 0" rc_is 0
check "bw, rank 1 10 us slower per step: figures of rank 0's clock alone, exact" \
    kc rows program=bw sizes=1024 samples=32 format=json file="$work/out"

# mbw_mr, 2 pairs of window 16: a sample is the mean of the two senders' times, rank 1 (a sender)
# 2 us slower per step; receivers' clocks give nothing.
for format in json csv text summary osu; do
    case $format in
    osu) options="--layout osu" ;;
    text) options="--layout full" ;;
    summary) options="--format text" ;;
    *) options="--format $format" ;;
    esac
    # shellcheck disable=SC2086 # options are words
    run_known 4 "$clock FP_KNOWN_SLOW_RANK=1 FP_KNOWN_SLOW_US=2" "$mr" -m 1K:2K -i 32 -x 4 -W 16 $options
    check "mbw_mr $format: exit 0" rc_is 0
    check "mbw_mr $format: aggregate MB/s and messages/s of 2 pairs from the senders' mean time, exact" \
        kc rows program=mbw_mr D=2 P=2 W=16 sizes=1024,2048 samples=32 format="$format" file="$work/out"
done

# OSU's size classes: without -i, 100 windows up to 8 KiB and 20 above (p99 from 100 samples).
run_known 2 "$clock" "$bw" -m 4K:16K --format json
check "bw OSU defaults: exit 0" rc_is 0
check "bw OSU defaults: 100, 100, 20 samples at 4K, 8K, 16K, every figure exact" \
    kc rows program=bw sizes=4096,8192,16384 samples=100,100,20 format=json file="$work/out"

# Batch means: a sample of B = 4 operations is one whole ramp, the same every time.
run_known 2 "$clock" "$lat" -m 1K:2K -i 128 -x 4 --batch 4 --format json
check "latency --batch 4: exit 0" rc_is 0
check "latency --batch 4: 32 samples of 4 round trips, mean exact, no min/max/stddev/p99" \
    kc rows program=latency B=4 sizes=1024,2048 samples=32 format=json file="$work/out"
run_known 2 "$clock" "$bw" -m 1K:2K -i 64 -x 4 --batch 8 --format csv
check "bw --batch 8: exit 0" rc_is 0
check "bw --batch 8: 8 samples of 8 windows, exact" \
    kc rows program=bw B=8 sizes=1024,2048 samples=8 format=csv file="$work/out"

# The half-batch rule: steps of 20 ns + 20 ns per byte, 40 ns at 1 byte, 60 ns at 2 bytes, against
# a resolved sample of 100 ns (100 ticks of 1 ns): batch 4 at 1 byte; 2 bytes alone would take 2,
# half the previous batch, which is not taken, so 4 again.
run_known 2 "FP_KNOWN_US=0.02 FP_KNOWN_PER_BYTE_PS=20000" "$lat" -m 1:2 -i 128 -x 4 --format json
check "latency, 40 and 60 ns steps: exit 0" rc_is 0
check "latency, 40 and 60 ns steps: batch 4 at both sizes, not 4 then 2" \
    json_check "$work/out" "[r['batch'] for r in rows] == [4, 4]"
check "latency, 40 and 60 ns steps: 32 samples of 4 round trips, 0.02 and 0.03 us one way, exact" \
    kc rows program=latency T=0.02 S=0 N=1 E=0 PB=20000 B=4 sizes=1,2 samples=32 format=json file="$work/out"

# Adaptive: steps of 8..15 us; the interval is 13 % wide up to 64 samples and 4.4 % from 80 on,
# so a 5 % target stops the pilot at 80 and reports 120 fresh samples.
aclock="FP_KNOWN_US=8 FP_KNOWN_RAMP_US=1 FP_KNOWN_RAMP_N=8"
run_known 2 "$aclock" "$lat" -m 1K:2K -x 8 -a --ci-target 5 --format json
check "latency -a --ci-target 5: exit 0" rc_is 0
check "latency -a --ci-target 5: the model's count (120), target met, every figure exact" \
    kc rows program=latency T=8 S=1 N=8 E=0 target=5 sizes=1024,2048 format=json file="$work/out"
check "latency -a --ci-target 5: the count is 120" \
    json_check "$work/out" "[r['samples'] for r in rows] == [120, 120]"

# --expect: thresholds 1e-5 inside and outside the exact interval decide pass, inconclusive, fail.
for program in latency bw; do
    path=$bw
    [ "$program" = latency ] && path=$lat
    terms=$(kc terms program="$program" sizes=1024,2048,4096 samples=32 verdicts=pass,inconclusive,fail)
    run_known 2 "$clock" "$path" -m 1K:4K -i 32 -x 4 --format json --expect "$terms"
    check "$program --expect $terms: exit 3 (a fail)" rc_is 3
    check "$program --expect: verdicts pass, inconclusive, fail" \
        json_check "$work/out" "[r['verdict'] for r in rows] == ['pass', 'inconclusive', 'fail']"
    terms=$(kc terms program="$program" sizes=1024,2048 samples=32 verdicts=pass,pass)
    run_known 2 "$clock" "$path" -m 1K:2K -i 32 -x 4 --format json --expect "$terms"
    check "$program --expect $terms: exit 0 (all pass)" rc_is 0
    check "$program --expect: verdicts pass, pass" \
        json_check "$work/out" "[r['verdict'] for r in rows] == ['pass', 'pass']"
done

# --expect baseline=FILE: a fabperf-baseline file whose bounds are the thresholds above (entries of
# this placement, label 'fabric', plus decoys of another label and placement) judges exactly as the
# terms do; a tolerance of 0.5 moves every bound past the interval; another label has no entry.
# baseline_of TERMS: $work/base.json with one entry per term.
baseline_of() {
    "$PYTHON3" - "$1" "fabperf_$program" >"$work/base.json" <<'PY'
import json, sys
entries = []
for term in sys.argv[1].split(","):
    cond, size = term.split("@")
    lat = cond.startswith("lat")
    for label, placement in (("fabric", "H H, 2 ranks on 1 host(s)"), ("other", "H H, 2 ranks on 1 host(s)"),
                             ("fabric", "D D, 2 ranks on 1 host(s)")):
        bound = float(cond.split("=")[1]) * (1 if label == "fabric" and placement.startswith("H") else 9)
        entries.append({"program": sys.argv[2], "label": label, "size": int(size), "placement": placement,
                        "quantity": "latency" if lat else "bandwidth", "unit": "us" if lat else "MB/s",
                        "higher_is_better": not lat, "launches": 59, "centre": bound, "bound": bound, "order": 1})
print(json.dumps({"type": "fabperf-baseline", "version": 1, "coverage": 0.95, "confidence": 0.95,
                  "built_from": {"mpi_library": ["an MPI of another build"], "fabperf": ["0.0.1"]},
                  "entries": entries}))
PY
}
for program in latency bw; do
    path=$bw
    [ "$program" = latency ] && path=$lat
    terms=$(kc terms program="$program" sizes=1024,2048,4096 samples=32 verdicts=pass,inconclusive,fail)
    baseline_of "$terms"
    run_known 2 "$clock" "$path" -m 1K:8K -i 32 -x 4 --format json --label fabric --expect "baseline=$work/base.json"
    check "$program --expect baseline=FILE: exit 3 (a fail)" rc_is 3
    check "$program --expect baseline=FILE: the entry's sizes judged pass, inconclusive, fail; 8K has none" \
        json_check "$work/out" "[r['verdict'] for r in rows] == ['pass', 'inconclusive', 'fail', None]"
    check "$program --expect baseline=FILE: each row names its bound; the header the entry and the software that differs" \
        json_check "$work/out" "(all(r['expect'].endswith('@%d (baseline)' % r['size']) for r in rows[:3]) and
            meta['baseline'].startswith('$work/base.json: fabperf_$program ') and
            ' (H H, 2 ranks on 1 host(s)), 3 size(s), bounds from 59 launches' in meta['baseline'] and
            'software differs: fabperf' in meta['baseline'] and 'software differs: MPI library' in meta['baseline'])"
    run_known 2 "$clock" "$path" -m 1K:4K -i 32 -x 4 --format json --label fabric --expect "baseline=$work/base.json:0.5"
    check "$program --expect baseline=FILE:0.5: exit 0" rc_is 0
    check "$program --expect baseline=FILE:0.5: every bound relaxed by half, all pass" \
        json_check "$work/out" "[r['verdict'] for r in rows] == ['pass'] * 3"
    run_known 2 "$clock" "$path" -m 1K:4K -i 32 -x 4 --format json --label nope --expect "baseline=$work/base.json"
    check "$program --expect baseline=FILE --label nope: exit 2, one line naming what the baseline has" \
        sh -c "[ $rc -eq 2 ] && [ ! -s '$work/out' ] && [ \$(grep -c '^fabperf_$program: ' '$work/err') -eq 1 ] && grep -q \"no entry of this run, fabperf_$program 'nope' (H H, 2 ranks on 1 host(s)); the baseline has: fabperf_$program 'fabric' (H H\" '$work/err'"
    run_known 2 "$clock" "$path" -m 1K:4K -i 32 -x 4 --format json --expect "baseline=$work/base.json"
    check "$program --expect baseline=FILE, two labels of this placement and no --label: exit 2, name one" \
        sh -c "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_$program: ' '$work/err') -eq 1 ] && grep -q 'give --label to name one' '$work/err'"
    run_known 2 "$clock" "$path" -m 16K:32K -i 32 -x 4 --format json --label fabric --expect "baseline=$work/base.json"
    check "$program --expect baseline=FILE, no size of the run in it: exit 2, one line with both ranges" \
        sh -c "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_$program: ' '$work/err') -eq 1 ] && grep -q 'none of the 2 size(s) this run measures (16384 to 32768 B) has an entry there (accepted: -m/--message-size holding the baseline.s sizes; it has 1024 to 4096 B)' '$work/err'"
done
finish
