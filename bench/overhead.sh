#!/bin/sh
# Does fabperf perturb what it measures? Runs the bare reference loops and fabperf's programs
# interleaved, ROUNDS times, on shared memory (Open MPI), and prints per size the medians over
# rounds and the ratio fabperf / reference. Then times a default 1 B - 4 MiB latency sweep in
# fixed and in adaptive mode, with the CI half-widths each reached.
# Usage: bench/overhead.sh [BUILD-DIR]   (environment: ROUNDS, default 5)
set -eu
build=$(cd "${1:-build}" && pwd)
rounds=${ROUNDS:-5}
out=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-overhead.XXXXXX")
trap 'rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi() { mpirun -np 2 --mca pml ob1 --mca btl self,vader "$@"; }

reference() { # MODE SIZES ITERATIONS WARMUP
    # All sizes in one process, in order, as fabperf sweeps them.
    mpi "$build/bench/fabperf_reference" "$1" "$2" "$3" "$4" |
        awk -v m="$1" -v r="$round" '{ print r, m, "reference", $1, $2 }' >>"$out/results"
}

fabperf() { # MODE MIN:MAX ITERATIONS WARMUP
    mpi "$build/pt2pt/fabperf_$1" -m "$2" -i "$3" -x "$4" --format json >"$out/run.json"
    python3 - "$1" "$round" "$out/run.json" >>"$out/results" <<'PY'
import json, sys
mode, rnd, path = sys.argv[1:]
for r in map(json.loads, open(path)):
    if r["type"] != "row":
        continue
    if mode == "latency":
        print(rnd, mode, "fabperf-mean", r["size"], r["avg_us"])
        print(rnd, mode, "fabperf-p50", r["size"], r["p50_us"])
    else:
        print(rnd, mode, "fabperf-osu", r["size"], r["bw_mbps"])
        print(rnd, mode, "fabperf-p50", r["size"], r["bw_p50_mbps"])
PY
}

round=1
while [ "$round" -le "$rounds" ]; do
    # Alternate who goes first so that drift over time does not favour one side.
    if [ $((round % 2)) -eq 1 ]; then
        reference latency 1,2,4,8 100000 1000; fabperf latency 1:8 100000 1000
        reference bw 1048576,2097152,4194304 100 10; fabperf bw 1M:4M 100 10
        reference bibw 1048576,2097152,4194304 100 10; fabperf bibw 1M:4M 100 10
    else
        fabperf latency 1:8 100000 1000; reference latency 1,2,4,8 100000 1000
        fabperf bw 1M:4M 100 10; reference bw 1048576,2097152,4194304 100 10
        fabperf bibw 1M:4M 100 10; reference bibw 1048576,2097152,4194304 100 10
    fi
    round=$((round + 1))
done

python3 - "$out/results" <<'PY'
import collections, statistics, sys
values = collections.defaultdict(dict)  # (mode, size, kind) -> {round: value}
for line in open(sys.argv[1]):
    rnd, mode, kind, size, value = line.split()
    values[(mode, int(size), kind)][int(rnd)] = float(value)
print("per size: medians over rounds; ratio = median over rounds of (fabperf / reference, same round);")
print("best = ratio of the best round of each side (launches here are bimodal: a pair of ranks")
print("sometimes lands on a slow core pair for a whole launch, so the best rounds compare like with like)")
print(f"{'test':8} {'size':>8} {'reference':>12} {'fabperf':>12} {'ratio':>7} {'fp p50':>12} {'p50/ref':>8} {'best':>7} {'best p50':>9}")
for (mode, size, kind) in sorted(k for k in values if k[2] == "reference"):
    ref = values[(mode, size, "reference")]
    main = values[(mode, size, "fabperf-mean" if mode == "latency" else "fabperf-osu")]
    p50 = values[(mode, size, "fabperf-p50")]
    common = sorted(set(ref) & set(main))
    ratio = statistics.median(main[r] / ref[r] for r in common)
    ratio50 = statistics.median(p50[r] / ref[r] for r in common)
    pick = min if mode == "latency" else max  # the best round: lowest time, highest bandwidth
    best, best50 = pick(main.values()) / pick(ref.values()), pick(p50.values()) / pick(ref.values())
    print(f"{mode:8} {size:>8} {statistics.median(ref.values()):>12.3f} {statistics.median(main.values()):>12.3f} "
          f"{ratio:>7.3f} {statistics.median(p50.values()):>12.3f} {ratio50:>8.3f} {best:>7.3f} {best50:>9.3f}")
PY

echo
echo "default 1 B - 4 MiB latency sweep: fixed (OSU counts) against adaptive (1% target, 2 s budget)"
for mode in fixed adaptive; do
    flag=""
    [ "$mode" = adaptive ] && flag=-a
    start=$(date +%s.%N)
    # shellcheck disable=SC2086 # flag is empty or one word
    mpi "$build/pt2pt/fabperf_latency" $flag --format json >"$out/$mode.json"
    end=$(date +%s.%N)
    python3 - "$mode" "$start" "$end" "$out/$mode.json" <<'PY'
import json, statistics, sys
mode, start, end, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
rows = [r for r in map(json.loads, open(path)) if r["type"] == "row"]
ci = [r["ci_halfwidth_pct"] for r in rows if r["ci_halfwidth_pct"] is not None]
met = sum(1 for r in rows if r["target_met"])
print(f"{mode:9} wall {end - start:6.1f} s, {sum(r['samples'] for r in rows):7d} samples, CI half-width "
      f"median {statistics.median(ci):.2f}% max {max(ci):.2f}%" + (f", target met at {met}/{len(rows)} sizes" if mode == "adaptive" else ""))
PY
done
