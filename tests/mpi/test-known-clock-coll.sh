#!/bin/sh
# The six collectives under a known clock (tests/faults/known_clock.c): every call moves MPI_Wtime
# by T + (k mod N) x S (E more at the ramp's top, so that its mean is not its median), and by D
# more on one rank, so each reported figure has one exact value, computed here from T, S, N, E,
# D, the rounded size, the ranks and the busbw factors of DESIGN.md:
#   time  = median of the per-iteration maximum over ranks = the slow rank's median (a minimum
#           over ranks, or any one rank but the slow one, gives D less);
#   algbw = size / time with size the total buffer (allgather, reduce_scatter, alltoall: all
#           ranks' parts), busbw = algbw x 2(n-1)/n (allreduce), (n-1)/n (allgather,
#           reduce_scatter, alltoall) or 1 (bcast, reduce).
# Checked at 2, 3 and 4 ranks, sizes rounded to whole elements per rank, in JSON and CSV (full
# precision) and in the full text layout and nccl-tests' (the printed digits); the batch (auto:
# 1, and --batch K: K calls a sample, whose mean over a whole ramp is exact again).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_COLL_BIN:?run through make check}

T=4 S=1 N=3 E=3 D=2
SAMPLES=9 # a multiple of N: each ramp step equally often

# run_known NP SLOW PROGRAM [ARGS...]: PROGRAM on NP ranks under the known clock, rank SLOW D us
# slower per call.
run_known() {
    known_np=$1 known_slow=$2 known_program=$3
    shift 3
    # The library is not instrumented: a sanitizer build must not insist on coming first.
    timeout 120 "$FABPERF_LAUNCH" "$known_np" sm env LD_PRELOAD="$FABPERF_KNOWN_CLOCK_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" FP_KNOWN_US=$T FP_KNOWN_RAMP_US=$S \
        FP_KNOWN_RAMP_N=$N FP_KNOWN_LAST_US=$E FP_KNOWN_SLOW_RANK="$known_slow" FP_KNOWN_SLOW_US=$D \
        "$FABPERF_BIN/$known_program" "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

# expect_exact FORMAT PROGRAM NP BATCH: every row of $work/out has the exact figures.
expect_exact() {
    "$PYTHON3" - "$work/out" "$1" "$2" "$3" "$4" "$T" "$S" "$N" "$E" "$D" "$SAMPLES" <<'EOF'
import csv, json, statistics, sys

path, fmt, program, n, batch = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
T, S, N, E, D = (float(x) for x in sys.argv[6:11])
samples = int(sys.argv[11])
N = int(N)
name = program.replace("fabperf_", "")
scattered = name in ("allgather", "reduce_scatter", "alltoall")
factor = {"allreduce": 2 * (n - 1) / n, "bcast": 1.0, "reduce": 1.0}.get(name, (n - 1) / n)
requested = [1000, 4000, 16000]
unit = 4 * n if scattered else 4  # floats, and one part per rank
sizes = [s // unit * unit for s in requested]

# One call of the slow rank: T + (k mod N) S (+ E at the top) + D; a sample is the mean of
# `batch` calls, the maximum over ranks is the slow rank's.
calls = [T + (k % N) * S + (E if k % N == N - 1 else 0) + D for k in range(samples * batch)]
timed = [statistics.mean(calls[i * batch:(i + 1) * batch]) for i in range(samples)]
single = calls[:samples]  # iso: one call per sample
want = {"time": statistics.median(timed), "min": min(timed), "max": max(timed), "avg": statistics.mean(timed),
        "iso": statistics.median(single)}
errors = []

def same(what, got, expected, digits=None):
    """Equal to full precision, or to the printed digits (half a unit of the last one)."""
    if got is None:
        errors.append(f"{what}: missing, expected {expected:.9g}")
        return
    if digits is None:
        ok = abs(got - expected) <= 1e-8 * max(1.0, abs(expected))
    else:
        ok = abs(got - expected) <= 0.5 * 10 ** -digits + 1e-9
    if not ok:
        errors.append(f"{what}: {got!r}, expected {expected:.9g}")

def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0

def expect_row(size, get):
    """get(column) -> (value, printed decimals or None for full precision)."""
    t = want["time"]
    algbw = size / t * 1e-3
    for col, expected in (("count", size // 4 // (n if scattered else 1)),
                          ("oop_time", t), ("ip_time", t), ("iso_time", want["iso"]),
                          ("oop_algbw", algbw), ("ip_algbw", algbw),
                          ("oop_busbw", algbw * factor), ("ip_busbw", algbw * factor),
                          ("samples", samples), ("batch", batch)):
        value, digits = get(col)
        # nccl-tests' layout has no iso, samples, batch; the summary no iso, and must have the rest
        if value is not None or (fmt != "nccl-tests" and not (fmt == "summary" and col == "iso_time")):
            same(f"size {size} {col}", value, expected, digits)

lines = open(path).read().splitlines()
got_sizes = []
if fmt == "json":
    records = [json.loads(l) for l in lines]
    meta = records[0]
    same("meta busbw_factor", meta.get("busbw_factor"), factor, 9 - 1)
    keys = {"count": "count", "oop_time": "oop_p50_us", "ip_time": "ip_p50_us", "iso_time": "iso_p50_us",
            "oop_algbw": "oop_algbw_gbps", "ip_algbw": "ip_algbw_gbps", "oop_busbw": "oop_busbw_gbps",
            "ip_busbw": "ip_busbw_gbps", "samples": "samples", "batch": "batch"}
    rows = [r for r in records if r.get("type") == "row"]
    for r in rows:
        got_sizes.append(r["size"])
        expect_row(r["size"], lambda c, r=r: (r.get(keys[c]), None))
        if batch == 1:  # per-sample statistics exist only for single calls
            for col in ("min", "max", "avg"):
                same(f"size {r['size']} {col}_us", r.get(col + "_us"), want[col])
    end = records[-1]
    same("end avg_busbw_gbps", end.get("avg_busbw_gbps"),
         statistics.mean(s / want["time"] * 1e-3 * factor for s in sizes))
elif fmt == "csv":
    table = list(csv.DictReader(l for l in lines if not l.startswith("#")))
    keys = {"count": "count", "oop_time": "oop_p50_us", "ip_time": "ip_p50_us", "iso_time": "iso_p50_us",
            "oop_algbw": "oop_algbw_gbps", "ip_algbw": "ip_algbw_gbps", "oop_busbw": "oop_busbw_gbps",
            "ip_busbw": "ip_busbw_gbps", "samples": "samples", "batch": "batch"}
    for r in table:
        got_sizes.append(int(r["size"]))
        expect_row(int(r["size"]), lambda c, r=r: (float(r[keys[c]]), None))
elif fmt == "osu":  # OSU's two columns: the size and the mean time (OSU averages its iterations)
    if not any(l.startswith("# Size") and "Avg Latency(us)" in l for l in lines):
        errors.append("no OSU header '# Size ... Avg Latency(us)'")
    for line in lines:
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split()
        got_sizes.append(int(fields[0]))
        same(f"size {fields[0]} OSU column (mean)", float(fields[1]), want["avg"], decimals(fields[1]))
else:  # text: summary, full or nccl-tests layout; columns by their position under the header's names
    header = [l for l in lines if l.startswith("#") and l[1:].split()[:2] == ["size", "count"]]
    if len(header) != 1:
        errors.append(f"{len(header)} column header lines")
        header = ["# size count type redop root time algbw busbw #wrong time algbw busbw #wrong"]
    names = header[0][1:].split()
    first = names.index("time") if "time" in names else 5  # the summary leaves type, redop and root to the header
    names[first:first + 8] = ["oop_time", "oop_algbw", "oop_busbw", "oop_wrong", "ip_time", "ip_algbw", "ip_busbw", "ip_wrong"]
    names = [{"iso:time": "iso_time"}.get(x, x) for x in names]
    if fmt == "nccl-tests" and len(names) != 13:
        errors.append(f"nccl-tests layout has {len(names)} columns, expected 13")
    for line in lines:
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split()
        if len(fields) != len(names):
            errors.append(f"row {line!r}: {len(fields)} fields under {len(names)} names")
            continue
        row = dict(zip(names, fields))
        got_sizes.append(int(row["size"]))
        expect_row(int(row["size"]), lambda c, row=row: (float(row[c]), decimals(row[c])) if c in row else (None, None))
    avg = [l for l in lines if l.startswith("# Avg bus bandwidth    : ")]
    if len(avg) != 1:
        errors.append("no '# Avg bus bandwidth' line")
    else:
        expected = statistics.mean(s / want["time"] * 1e-3 * factor for s in sizes)
        got = float(avg[0].split(":")[1])
        if abs(got - expected) > 5e-6 * expected:  # %g: 6 significant digits
            errors.append(f"Avg bus bandwidth {got}, expected {expected:.6g}")
if got_sizes != sizes:
    errors.append(f"sizes {got_sizes}, expected {sizes}")
for e in errors:
    print(f"  {program} np={n} {fmt}: {e}")
sys.exit(1 if errors else 0)
EOF
}

# One run per collective and rank count, the rendering in turn: each collective is seen in JSON,
# CSV and text over its three rank counts, the text in the summary, the full layout or nccl-tests' own.
p=0
for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
    for np in 2 3 4; do
        slow=$((p % np)) # the slow rank moves, rank 0 included
        case $(((p + np) % 3)) in
        0) format=json set="--format json" ;;
        1) format=csv set="--format csv" ;;
        *) case $((p % 4)) in
           0) format=text set="--layout full" ;;
           2) format=summary set="--format text" ;;
           *) format=nccl-tests set="--layout nccl-tests" ;;
           esac ;;
        esac
        # shellcheck disable=SC2086 # $set is an option and its value
        run_known "$np" "$slow" "fabperf_$program" -m 1000:16000 -f 4 -i "$SAMPLES" -x 2 $set
        check "$program np=$np slow rank $slow $format: exit 0" rc_is 0
        check "$program np=$np $format: time = the slow rank's median; algbw, busbw, avg busbw exact" \
            expect_exact "$format" "fabperf_$program" "$np" 1
        if [ "$format" = nccl-tests ]; then
            check "$program np=$np nccl-tests layout: nccl-tests' own row format" \
                "$PYTHON3" "$FABPERF_TESTS_DIR/coll_layouts.py" nccl-tests "$work/out"
        fi
        if [ "$format" = text ]; then
            check "$program np=$np text: header says the batch is automatic" \
                grep -q '^# batch: auto: per size, a sample >= 100 timer overheads and clock steps' "$work/out"
        fi
    done
    p=$((p + 1))
done

# OSU's layout: its column is the mean of the samples (the ramp's top step E makes it differ
# from the median every other figure shows).
for program in allreduce bcast; do
    run_known 3 2 "fabperf_$program" -m 1000:16000 -f 4 -i "$SAMPLES" -x 2 --layout osu
    check "$program np=3 --layout osu: exit 0" rc_is 0
    check "$program np=3 --layout osu: the column is the exact mean time" expect_exact osu "fabperf_$program" 3 1
done

# A fixed batch: a sample is the mean of its K calls; K = N spans the ramp, so every sample is
# the ramp's mean (the iso variant still one call a sample).
run_known 3 1 fabperf_allreduce -m 1000:16000 -f 4 -i $((SAMPLES * N)) -x 2 --batch "$N" --format json
check "allreduce --batch $N np=3: exit 0" rc_is 0
check "allreduce --batch $N np=3 --format json: exact time, algbw, busbw, batch $N" expect_exact json fabperf_allreduce 3 "$N"
run_known 4 3 fabperf_alltoall -m 1000:16000 -f 4 -i $((SAMPLES * N)) -x 2 --batch "$N" --layout full
check "alltoall --batch $N np=4: exit 0" rc_is 0
check "alltoall --batch $N np=4 full text: exact time, algbw, busbw, batch $N" expect_exact text fabperf_alltoall 4 "$N"
check "alltoall --batch $N np=4 text: header says $N operations per sample" grep -q "^# batch: $N operations per sample" "$work/out"
finish
