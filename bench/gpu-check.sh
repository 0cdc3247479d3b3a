#!/bin/sh
# shellcheck disable=SC2030,SC2031 # the CUDA-aware environment is meant to stay in its subshells
# The whole GPU check in one command, on a machine with a GPU and the CUDA toolkit:
#  1. builds fabperf twice: against the system MPI, and against a CUDA-aware Open MPI prefix
#     (scripts/build-cuda-aware-mpi.sh makes one; carry it to the GPU machine);
#  2. runs make check in both (tests/gpu/test-gpu.sh: D D, H D, D H, M M with -c through the
#     CUDA-aware MPI; --staging and the refusal through the system MPI; tests/gpu/test-pairs-gpu.sh:
#     the pairs programs the same ways, and the NCCL backend's refusal of two ranks on one GPU);
#  3. measures D D bandwidth at 64 MiB against cudaMemcpy device-to-device (the ceiling on one
#     card), and staged against direct at 4 KiB, 64 KiB, 1 MiB and 64 MiB; fabperf_allpairs' D D
#     cells against fabperf_bw at 16 and 64 MiB (one operation: a window and its ack, both from
#     device memory); the NCCL backend's 512 MiB allreduce against nccl-tests' all_reduce_perf
#     when NCCL_TESTS names its build folder. Ratios are given as ranges over LAUNCHES interleaved
#     launches (default 5): one launch against one says little.
# Usage: [NCCL_TESTS=DIR] [LAUNCHES=N] bench/gpu-check.sh CUDA-AWARE-PREFIX [LOG-DIR]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(cd "${1:?usage: gpu-check.sh CUDA-AWARE-PREFIX [LOG-DIR]}" && pwd)
logs=${2:-$top/gpu-check-logs}
mkdir -p "$logs"
jobs=$(nproc)
launches=${LAUNCHES:-5}
status=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Silences a harmless cuMemHostRegister warning of Open MPI's shared-memory segment in /tmp.
export OMPI_MCA_orte_tmpdir_base=/dev/shm

cd "$top" || exit 1
[ -x configure ] || autoreconf -fi >"$logs/autoreconf.log" 2>&1

build() { # NAME CONFIGURE-ARGS...
    name=$1
    shift
    rm -rf "build-$name" && mkdir "build-$name"
    (cd "build-$name" && ../configure "$@" >"$logs/configure-$name.log" 2>&1 &&
        make -j"$jobs" >"$logs/make-$name.log" 2>&1) || { echo "build $name failed: see $logs"; return 1; }
    echo "built $name"
}

build system CC=mpicc --with-cuda=/usr/local/cuda || exit 1
(
    export OPAL_PREFIX="$prefix" PATH="$prefix/bin:$PATH" LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}"
    build aware CC="$prefix/bin/mpicc" --with-cuda=/usr/local/cuda
) || exit 1

# The core's tests and the GPU tests (the host-only tests run in CI); NCCL's once.
unit="tests/unit/test_stats tests/unit/test_sizes tests/unit/test_options tests/unit/test_report"
for name in system aware; do
    tests="$unit tests/gpu/test-gpu.sh tests/gpu/test-pairs-gpu.sh"
    [ "$name" = system ] && tests="$tests tests/gpu/test-nccl.sh"
    (
        if [ "$name" = aware ]; then
            export OPAL_PREFIX="$prefix" PATH="$prefix/bin:$PATH" LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}"
        fi
        cd "build-$name" && make -j1 check TESTS="$tests" >"$logs/check-$name.log" 2>&1
    ) || status=1
    echo "== make check ($name MPI)"
    grep -E "^(PASS|FAIL|SKIP|ERROR|# )" "$logs/check-$name.log"
    cp "build-$name/tests/gpu/test-gpu.log" "$logs/test-gpu-$name.log" 2>/dev/null
    cp "build-$name/tests/gpu/test-nccl.log" "$logs/test-nccl-$name.log" 2>/dev/null
    cp "build-$name/tests/gpu/test-pairs-gpu.log" "$logs/test-pairs-gpu-$name.log" 2>/dev/null
done

echo "== performance (CUDA-aware MPI, 2 ranks on one GPU)"
(
    export OPAL_PREFIX="$prefix" PATH="$prefix/bin:$PATH" LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}"
    cd build-aware || exit 1
    mpi() { mpirun -np 2 "$@"; }
    p50() { python3 -c 'import json,sys; print([x for x in map(json.loads, open(sys.argv[1])) if x["type"]=="row"][0][sys.argv[2]])' "$@"; }
    : >"$logs/bw-64M-ratios.txt"
    for launch in $(seq "$launches"); do # the copy and the transfer side by side in each launch
        copy=$(bench/fabperf_cuda_copy 67108864 100 | awk '{ print $2 }')
        mpi pt2pt/fabperf_bw D D -m 64M:64M -i 50 -x 5 --format json >"$logs/bw-64M-direct.json"
        echo "$launch $(p50 "$logs/bw-64M-direct.json" bw_p50_mbps) $copy" >>"$logs/bw-64M-ratios.txt"
    done
    python3 - "$logs/bw-64M-ratios.txt" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
r = [float(d) / float(c) for _, d, c in rows]
print(f"D D bw / cudaMemcpy D2D at 64 MiB over {len(r)} launches: {min(r):.3f}-{max(r):.3f} "
      f"(bw {min(float(x[1]) for x in rows):.0f}-{max(float(x[1]) for x in rows):.0f} MB/s, "
      f"copy {min(float(x[2]) for x in rows):.0f}-{max(float(x[2]) for x in rows):.0f} MB/s)")
PY
    # One operation in every program: fabperf_allpairs' D D cell against fabperf_bw, interleaved.
    : >"$logs/allpairs-vs-bw.txt"
    for launch in $(seq "$launches"); do
        for size in 16M 64M; do
            mpi pt2pt/fabperf_bw D D -m "$size:$size" -i 50 -x 5 --format json >"$logs/bw-one.json"
            mpi pairs/fabperf_allpairs D D --mode isolated -m "$size:$size" -i 50 -x 5 --format json >"$logs/allpairs-one.json"
            echo "$size $(p50 "$logs/bw-one.json" bw_p50_mbps) $(python3 -c 'import json,sys; c=[x for x in map(json.loads, open(sys.argv[1])) if x["type"]=="cells"][0]; print(c["cells"][0][2] if isinstance(c["cells"][0], list) else c["cells"][0]["p50"])' "$logs/allpairs-one.json" 2>/dev/null || echo nan)" >>"$logs/allpairs-vs-bw.txt"
        done
    done
    python3 - "$logs/allpairs-vs-bw.txt" <<'PY'
import math, sys
by = {}
for size, bw, cell in (line.split() for line in open(sys.argv[1])):
    by.setdefault(size, []).append(float(cell) / float(bw))
for size, r in by.items():
    r = [x for x in r if not math.isnan(x)]
    print(f"allpairs D D cell / fabperf_bw D D at {size}: " + (f"{min(r):.3f}-{max(r):.3f} over {len(r)} launches" if r else "no cell read"))
PY
    for mode in direct staged; do
        flag=""
        [ "$mode" = staged ] && flag=--staging
        for size in 4K 64K 1M 64M; do
            # shellcheck disable=SC2086 # flag is empty or one word
            mpi pt2pt/fabperf_bw D D $flag -m "$size:$size" -i 100 -x 10 --format json
        done >"$logs/bw-$mode.jsonl"
    done
    python3 - "$logs/bw-direct.jsonl" "$logs/bw-staged.jsonl" <<'PY'
import json, sys
def rows(path):
    return {r["size"]: r for r in map(json.loads, open(path)) if r["type"] == "row"}
direct, staged = rows(sys.argv[1]), rows(sys.argv[2])
print(f"{'size':>10} {'direct MB/s':>14} {'staged MB/s':>14} {'staged/direct':>14}")
for size in sorted(direct):
    d, s = direct[size]["bw_p50_mbps"], staged[size]["bw_p50_mbps"]
    print(f"{size:>10} {d:>14.1f} {s:>14.1f} {s / d:>14.3f}")
PY
) 2>&1 | tee "$logs/performance.txt"

echo "== NCCL backend, one rank (system build)"
(
    cd build-system || exit 1
    mpirun -np 1 collective/fabperf_allreduce --backend nccl -c -b 8 -e 1G -f 32 -i 50 -x 5 >"$logs/nccl-allreduce.txt"
    tail -n 20 "$logs/nccl-allreduce.txt"
    : >"$logs/nccl-ratios.txt"
    for launch in $(seq "$launches"); do
        copy=$(bench/fabperf_cuda_copy 1073741824 20 | awk '{ print $2 }')
        mpirun -np 1 collective/fabperf_allreduce --backend nccl -b 1G -e 1G -i 20 -x 5 --format json >"$logs/nccl-1G.json"
        mpirun -np 1 collective/fabperf_allreduce --backend nccl -b 8 -e 8 -i 10000 -x 100 --format json >"$logs/nccl-8B.json"
        loop=$(bench/fabperf_nccl_loop 8 10000 | awk '{ print $2 }')
        mpirun -np 1 collective/fabperf_allreduce --backend nccl -b 512M -e 512M --format json >"$logs/nccl-512M.json"
        tests_us=nan
        if [ -n "${NCCL_TESTS:-}" ]; then # all_reduce_perf's out-of-place time, its default 20 iterations
            tests_us=$("$NCCL_TESTS/all_reduce_perf" -b 512M -e 512M -g 1 | awk '$1 == 536870912 { print $6 }')
        fi
        echo "$copy $loop ${tests_us:-nan} $(python3 -c 'import json,sys
for f in sys.argv[1:]:
    r = [x for x in map(json.loads, open(f)) if x["type"] == "row"][0]
    print(r["oop_p50_us"], r["iso_p50_us"], r["batch"], end=" ")' "$logs/nccl-1G.json" "$logs/nccl-8B.json" "$logs/nccl-512M.json")" >>"$logs/nccl-ratios.txt"
    done
    python3 - "$logs/nccl-ratios.txt" <<'PY'
import math, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
def span(values, fmt="{:.3f}"):
    values = [v for v in values if not math.isnan(v)]
    return (fmt.format(min(values)) + "-" + fmt.format(max(values))) if values else "n/a"
print(f"over {len(rows)} launches:")
print(f"1 GiB allreduce p50 {span([r[3] for r in rows], '{:.1f}')} us; cudaMemcpy D2D 1 GiB / allreduce "
      f"{span([1073741824 / r[0] / r[3] for r in rows])}")
print(f"8 B allreduce per call {span([r[6] for r in rows])} us (batch {span([r[8] for r in rows], '{:.0f}')}), isolated "
      f"{span([r[7] for r in rows])} us; bare loop {span([r[1] for r in rows])} us; fabperf/loop {span([r[6] / r[1] for r in rows])}")
print(f"512 MiB allreduce, default batch {span([r[11] for r in rows], '{:.0f}')}: {span([r[9] for r in rows], '{:.1f}')} us "
      f"(isolated call {span([r[10] for r in rows], '{:.1f}')} us); nccl-tests all_reduce_perf {span([r[2] for r in rows], '{:.1f}')} us; "
      f"fabperf/nccl-tests {span([r[9] / r[2] for r in rows])}")
PY
) 2>&1 | tee "$logs/nccl-performance.txt"

echo "== MPI backend with device buffers (CUDA-aware build, 2 ranks on one GPU)"
(
    export OPAL_PREFIX="$prefix" PATH="$prefix/bin:$PATH" LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}"
    cd build-aware || exit 1
    failed=0
    for program in allreduce bcast; do
        mpirun -np 2 "collective/fabperf_$program" D D -c -m 4:16M -f 16 -i 20 -x 2 || failed=1
    done
    exit "$failed"
) >"$logs/mpi-device-collectives.txt" 2>&1 || status=1
cat "$logs/mpi-device-collectives.txt"
# Two ranks on one GPU with NCCL: refused before NCCL starts (exit 2), in every family.
echo "== NCCL backend, two ranks on one GPU (system build)"
for program in collective/fabperf_allreduce pairs/fabperf_allpairs; do
    (cd build-system && mpirun -np 2 "$program" --backend nccl -m 8:8 -i 10 -x 1 >/dev/null)
    echo "$program: exit $?"
done 2>&1 | tee "$logs/nccl-shared-gpu.txt"
exit "$status"
