#!/bin/sh
# Builds the option/size parser (and JSON reader) fuzzer with clang's libFuzzer and runs it.
# Usage: tests/fuzz/run-fuzz.sh [SECONDS] [WORKDIR]   (default 60 s; WORKDIR default fuzz-work)
# Needs clang and libclang-rt-dev (Debian: apt-get install clang libclang-rt-14-dev).
# Crashes are left in WORKDIR as crash-*; exit status 1 when one was found.
set -eu
seconds=${1:-60}
work=${2:-fuzz-work}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cc=${FUZZ_CC:-clang}

command -v "$cc" >/dev/null 2>&1 || { echo "run-fuzz.sh: $cc not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 77; }
# options.c includes mpi.h for the types only: any MPI's headers do.
mpi_cflags=$(mpicc --showme:compile 2>/dev/null || pkg-config --cflags ompi mpich 2>/dev/null || echo "-I/usr/include/x86_64-linux-gnu/mpich")

mkdir -p "$work/corpus"
cp "$here"/seeds/* "$work/corpus/"
# shellcheck disable=SC2086 # mpi_cflags is a list of flags
"$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$top/base" -I"$top/topology" -I"$top/engine" -I"$top/report" -I"$top/evidence" -I"$top/collective" $mpi_cflags -o "$work/fuzz_options" \
    "$here/fuzz_options.c" "$top/engine/options.c" "$top/engine/plan.c" "$top/engine/expect.c" "$top/evidence/nic_expect.c" "$top/base/escape.c" \
    "$top/base/units.c" "$top/base/json_read.c" "$top/topology/hostlist.c" "$top/topology/name_index.c" "$top/topology/topo_model.c" \
    "$top/topology/topology.c" "$top/topology/topo_slurm.c" "$top/topology/topo_ibnet.c" -lm
cd "$work"
echo "run-fuzz.sh: fuzzing the option and size parsers for ${seconds} s in $(pwd)"
status=0
./fuzz_options -max_total_time="$seconds" -max_len=512 -timeout=5 -print_final_stats=1 corpus || status=$?
if ls crash-* leak-* timeout-* >/dev/null 2>&1; then
    echo "run-fuzz.sh: findings left in $(pwd):" >&2
    ls crash-* leak-* timeout-* 2>/dev/null >&2
    exit 1
fi
exit "$status"
