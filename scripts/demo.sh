#!/bin/sh
# One command from a fresh Debian/Ubuntu machine: packages, build, and a 2-rank local run of
# latency, bw and bibw over shared memory (Open MPI).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
cd "$top"
[ -x configure ] || autoreconf -fi
mkdir -p build
cd build
[ -f Makefile ] || ../configure
make -j"$(nproc)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for program in latency bw bibw; do
    echo
    mpirun -np 2 --mca btl self,vader "pt2pt/fabperf_$program" -m 1:1M -c
done
