#!/bin/sh
# All-pairs sweeps under a known clock (tests/faults/known_clock.c). With FP_KNOWN_TAG the clock
# steps only when a sender's acknowledgement (bandwidth) or pong (latency) arrives, never for
# the windows or pings it serves meanwhile, so each sample is one step: sample k of a rank is
# T + (k mod N) x S (E more at the ramp's top: a mean is not the median), D more on the slow
# rank. Every cell is then exact, computed here:
#   fabperf_allpairs      cell = size x window / (the sender's median sample)   (MB/s)
#   fabperf_allpairs_lat  cell = half the sender's median round trip (one way)   (us)
# where the sender of a cell is its row's rank, but in isolated latency (each unordered pair
# once) the lower rank of the pair for both cells. For shift, isolated and sampled mode: the
# matrix and the per-round cells in JSON and the text matrix; --expect uniform passes (exit 0)
# on a clean sweep and fails (exit 3) on one where a rank's samples are 4 x longer, with the
# finding naming that rank's node.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}

T=4 S=1 N=3 E=3 D=15 # the slow rank: (T + S + D) / (T + S) = 4 x the median sample
SAMPLES=3 # a multiple of N
SIZE=4096 WINDOW=4
# The tag of an acknowledgement or pong: FP_TAG_ACK of the kernels.
TAG=$(sed -n 's/.*FP_TAG_ACK = \([0-9]*\).*/\1/p' "$FABPERF_TESTS_DIR/../engine/comm.h")
[ -n "$TAG" ] || { echo "no FP_TAG_ACK in engine/comm.h"; exit 99; } # every receive would step

# run_known NP SLOW PROGRAM [ARGS...]: PROGRAM on NP ranks under the known clock; rank SLOW (none
# when empty) D us slower per step.
run_known() {
    known_np=$1 known_slow=$2 known_program=$3
    shift 3
    # The library is not instrumented: a sanitizer build must not insist on coming first.
    timeout 120 "$FABPERF_LAUNCH" "$known_np" sm env LD_PRELOAD="$FABPERF_KNOWN_CLOCK_LIB" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" FP_KNOWN_TAG="$TAG" FP_KNOWN_US=$T \
        FP_KNOWN_RAMP_US=$S FP_KNOWN_RAMP_N=$N FP_KNOWN_LAST_US=$E FP_KNOWN_SLOW_RANK="$known_slow" \
        FP_KNOWN_SLOW_US=$D \
        "$FABPERF_BIN/$known_program" "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

# expect_cells FORMAT PROGRAM NP MODE SLOW: the matrix of $work/out (json or text) is exact; in
# text with a slow rank, a finding names its node and stands.
expect_cells() {
    "$PYTHON3" - "$work/out" "$@" "$T" "$S" "$N" "$E" "$D" "$SAMPLES" "$SIZE" "$WINDOW" <<'EOF'
import json, statistics, sys

path, fmt, program, n, mode, slow = sys.argv[1:7]
n = int(n)
slow = int(slow) if slow else None
T, S, N, E, D = (float(x) for x in sys.argv[7:12])
samples, size, window = (int(x) for x in sys.argv[12:15])
latency = program.endswith("_lat")

def median_sample(rank):
    return statistics.median(T + (k % int(N)) * S + (E if k % int(N) == int(N) - 1 else 0) + (D if rank == slow else 0)
                             for k in range(samples))

def expected(i, j):
    sender = min(i, j) if latency and mode == "isolated" else i
    t = median_sample(sender)
    return t / 2 if latency else size * window / t

errors = []

def same(what, got, want, digits=None):
    if got is None:
        errors.append(f"{what}: missing, expected {want:.9g}")
    elif digits is None and abs(got - want) > 1e-8 * abs(want):
        errors.append(f"{what}: {got!r}, expected {want:.9g}")
    elif digits is not None and abs(got - want) > max(0.5 * 10 ** -digits, 5e-6 * abs(want)):
        errors.append(f"{what}: {got!r} printed, expected {want:.9g}")

def check_matrix(values, visited, digits):
    """values[i][j] (None: not measured), digits[i][j] printed decimals or None."""
    for i in range(n):
        for j in range(n):
            if (i, j) in visited:
                same(f"cell {i} -> {j}", values[i][j], expected(i, j), digits and digits[i][j])
            elif values[i][j] is not None:
                errors.append(f"cell {i} -> {j}: {values[i][j]!r}, expected none (not measured)")

lines = open(path).read().splitlines()
every = {(i, j) for i in range(n) for j in range(n) if i != j}
if fmt == "json":
    records = [json.loads(l) for l in lines]
    matrices = [r for r in records if r.get("type") == "matrix" and r["size"] == size]
    if len(matrices) != 1:
        errors.append(f"{len(matrices)} matrix records at {size} bytes")
    else:
        m = matrices[0]
        if m["mode"] != mode or len(m["values"]) != n:
            errors.append(f"matrix mode {m['mode']}, {len(m['values'])} rows")
        visited = every if mode == "isolated" else {(i, (i + k) % n) for i in range(n) for k in m["shifts"]}
        if mode == "sampled" and not 3 <= len(m["shifts"]) < n - 1:
            errors.append(f"sampled shifts {m['shifts']}: expected some, not all, of 1..{n - 1}")
        check_matrix(m["values"], visited, None)
        # Fewer than 6 samples give no interval of a median: none printed (lo..hi would be min..max).
        if samples < 6 and any(v is not None for f in ("ci_lo", "ci_hi") for row in m[f] for v in row):
            errors.append(f"matrix intervals {m['ci_lo']}..{m['ci_hi']} with {samples} samples: expected null")
        # Each round's cells: the same exact values, every visited cell once.
        seen = []
        for r in records:
            if r.get("type") == "cells" and r["size"] == size:
                for cell in r["cells"]:
                    a, b = cell["sender"], cell["receiver"]
                    seen.append((a, b))
                    same(f"round {r['round']} cell {a} -> {b}", cell["value"], expected(a, b))
                    if cell["samples"] != samples:
                        errors.append(f"round {r['round']} cell {a} -> {b}: {cell['samples']} samples")
                    if samples < 6 and (cell["ci_lo"], cell["ci_hi"]) != (None, None):
                        errors.append(f"round {r['round']} cell {a} -> {b}: interval "
                                      f"{cell['ci_lo']}..{cell['ci_hi']} with {samples} samples")
        if mode != "isolated" and sorted(seen) != sorted(visited):
            errors.append(f"round cells {sorted(seen)}, expected {sorted(visited)}")
    rows = [r for r in records if r.get("type") == "row" and r["size"] == size]
    if slow is None and len(rows) == 1:  # every cell alike: the row is one cell
        same("row p50_us", rows[0]["p50_us"], median_sample(0) / 2 if latency else median_sample(0))
        if not latency:
            same("row bw_mbps", rows[0]["bw_mbps"], expected(0, 1))
else:
    start = [k for k, l in enumerate(lines) if l.startswith(f"# matrix at {size} bytes, ")]
    if len(start) != 1:
        errors.append(f"{len(start)} text matrices at {size} bytes")
    else:
        values, digits, labels = [], [], []
        for i, line in enumerate(lines[start[0] + 1:start[0] + 1 + n]):
            fields = line[1:].split()
            if len(fields) != n + 2 or fields[0] != str(i):
                errors.append(f"matrix line {line!r}")
                fields = [str(i)] + ["-"] * n + ["?"]
            cells = fields[1:n + 1]
            values.append([None if c == "-" else float(c) for c in cells])
            digits.append([len(c.split(".")[1]) if "." in c else 0 for c in cells])
            labels.append(fields[-1])
        check_matrix(values, every if mode != "sampled" else {c for c in every if values[c[0]][c[1]] is not None}, digits)
        if slow is not None:
            want = f"# finding at {size} bytes: slow node {labels[slow]} "
            found = [l for l in lines if l.startswith(want)]
            if len(found) != 1 or not found[0].endswith(": stands"):
                errors.append(f"no finding '{want}...: stands'")
for e in errors:
    print(f"  {program} np={n} --mode {mode} {fmt}: {e}")
sys.exit(1 if errors else 0)
EOF
}

for mode in shift isolated sampled; do
    case $mode in
    sampled) np=8 slow=3 ;; # 8 ranks: the sweep visits some shifts, not all
    isolated) np=4 slow=1 ;; # below the top rank: it pings in isolated latency
    *) np=4 slow=2 ;;
    esac
    for program in fabperf_allpairs fabperf_allpairs_lat; do
        case $program in
        *_lat) set="-m $SIZE:$SIZE" ;;
        *) set="-m $SIZE:$SIZE -W $WINDOW" ;;
        esac
        # shellcheck disable=SC2086 # $set is a list of options
        run_known "$np" "" "$program" $set -i "$SAMPLES" -x 1 --mode "$mode" --rounds 3 --expect uniform --format json
        check "$program --mode $mode np=$np, every rank alike, --expect uniform: exit 0" rc_is 0
        check "$program --mode $mode: JSON matrix, round cells and row exact" expect_cells json "$program" "$np" "$mode" ""
        # shellcheck disable=SC2086
        run_known "$np" "$slow" "$program" $set -i "$SAMPLES" -x 1 --mode "$mode" --rounds 3 --expect uniform
        check "$program --mode $mode np=$np, rank $slow 4 x slower, --expect uniform: exit 3" rc_is 3
        check "$program --mode $mode rank $slow slow: text matrix exact, the finding names its node" \
            expect_cells text "$program" "$np" "$mode" "$slow"
    done
done
finish
