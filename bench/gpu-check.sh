#!/bin/sh
# shellcheck disable=SC2030,SC2031 # the CUDA-aware environment is meant to stay in its subshells
# The whole GPU check in one command, on a machine with a GPU and the CUDA toolkit:
#  1. builds fabperf twice: against the system MPI, and against a CUDA-aware Open MPI prefix
#     (scripts/build-cuda-aware-mpi.sh makes one; carry it to the GPU machine);
#  2. runs make check in both (tests/gpu/test-gpu.sh: D D, H D, D H, M M with -c through the
#     CUDA-aware MPI; --staging and the refusal through the system MPI; tests/gpu/test-pairs-gpu.sh:
#     the pairs programs the same ways, and the NCCL backend's refusal of two ranks on one GPU);
#  3. measures D D bandwidth at 64 MiB against cudaMemcpy device-to-device (the ceiling on one
#     card), and staged against direct at 4 KiB, 64 KiB, 1 MiB and 64 MiB.
# Usage: bench/gpu-check.sh CUDA-AWARE-PREFIX [LOG-DIR]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(cd "${1:?usage: gpu-check.sh CUDA-AWARE-PREFIX [LOG-DIR]}" && pwd)
logs=${2:-$top/gpu-check-logs}
mkdir -p "$logs"
jobs=$(nproc)
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
    copy=$(bench/fabperf_cuda_copy 67108864 100 | awk '{ print $2 }')
    mpi pt2pt/fabperf_bw D D -m 64M:64M -i 50 -x 5 --format json >"$logs/bw-64M-direct.json"
    direct=$(python3 -c 'import json,sys; r=[x for x in map(json.loads, open(sys.argv[1])) if x["type"]=="row"][0]; print(r["bw_p50_mbps"])' "$logs/bw-64M-direct.json")
    python3 -c 'import sys; d,c=float(sys.argv[1]),float(sys.argv[2]); print(f"D D bw at 64 MiB: {d:.0f} MB/s; cudaMemcpy D2D 64 MiB: {c:.0f} MB/s; ratio {d/c:.3f}")' "$direct" "$copy"
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
    copy=$(bench/fabperf_cuda_copy 1073741824 20 | awk '{ print $2 }')
    mpirun -np 1 collective/fabperf_allreduce --backend nccl -b 1G -e 1G -i 20 -x 5 --format json >"$logs/nccl-1G.json"
    mpirun -np 1 collective/fabperf_allreduce --backend nccl -b 8 -e 8 -i 10000 -x 100 --format json >"$logs/nccl-8B.json"
    loop=$(bench/fabperf_nccl_loop 8 10000 | awk '{ print $2 }')
    python3 - "$logs/nccl-1G.json" "$logs/nccl-8B.json" "$copy" "$loop" <<'PY'
import json, sys
def row(path):
    return [r for r in map(json.loads, open(path)) if r["type"] == "row"][0]
big, small = row(sys.argv[1]), row(sys.argv[2])
copy_mbps, loop_us = float(sys.argv[3]), float(sys.argv[4])
copy_us = 1073741824 / copy_mbps
print(f"1 GiB allreduce (float sum, out-of-place) p50 {big['oop_p50_us']:.1f} us; cudaMemcpy D2D 1 GiB {copy_us:.1f} us; "
      f"copy/allreduce {copy_us / big['oop_p50_us']:.3f}")
print(f"8 B allreduce: fabperf per call {small['oop_p50_us']:.3f} us (batch {small['batch']}), isolated {small['iso_p50_us']:.3f} us; "
      f"bare loop {loop_us:.3f} us; fabperf/loop {small['oop_p50_us'] / loop_us:.3f}")
PY
) 2>&1 | tee "$logs/nccl-performance.txt"

echo "== MPI backend with device buffers (CUDA-aware build, 2 ranks on one GPU)"
(
    export OPAL_PREFIX="$prefix" PATH="$prefix/bin:$PATH" LD_LIBRARY_PATH="$prefix/lib:${LD_LIBRARY_PATH:-}"
    cd build-aware || exit 1
    for program in allreduce bcast; do
        mpirun -np 2 "collective/fabperf_$program" D D -c -m 4:16M -f 16 -i 20 -x 2 || status=1
    done
) 2>&1 | tee "$logs/mpi-device-collectives.txt" | tail -n 12
exit "$status"
