#!/bin/sh
# How long a rejected command line takes, against a clean launch, on 2 ranks over shared memory:
# the figure behind docs/tests.md's sentence on hostile input (tests/mpi/test-hostile-input.sh only
# asserts that a rejection ends). The options are judged before MPI starts, so a rejection costs
# the launcher's start-up and the second a silent rank waits for rank 0 to speak
# (engine/guard.c). Rejected and clean launches alternate, ROUNDS times each; printed: median,
# min and max in ms. mpirun's own grace after a non-zero exit (odls_base_sigkill_timeout) is set
# to 0, as in the test.
# Usage: bench/reject-time.sh [BUILD-DIR]   (environment: ROUNDS, default 10)
set -eu
build=$(cd "${1:-build}" && pwd)
rounds=${ROUNDS:-10}
out=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-reject.XXXXXX")
trap 'rm -rf "$out"' EXIT
OMPI_MCA_odls_base_sigkill_timeout=0
export OMPI_MCA_odls_base_sigkill_timeout

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}

# timed NAME EXPECTED-EXIT ARGS...: one launch of fabperf_latency, its time appended to NAME.
timed() {
    name=$1 want=$2
    shift 2
    start=$(now_ms)
    rc=0
    timeout 120 "$build/tests/launch.sh" 2 sm "$build/pt2pt/fabperf_latency" "$@" \
        </dev/null >/dev/null 2>"$out/err" || rc=$?
    [ "$rc" -eq "$want" ] || { echo "reject-time: $name: exit $rc, expected $want" >&2; cat "$out/err" >&2; exit 1; }
    echo $(($(now_ms) - start)) >>"$out/$name"
}

# summary NAME: median, min and max of NAME's times.
summary() {
    sort -n "$out/$1" | awk -v name="$1" '{ t[NR] = $1 }
        END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
              printf "%-10s median %6.0f ms  min %6d ms  max %6d ms  (%d launches)\n", name, m, t[1], t[NR], NR }'
}

i=1
while [ "$i" -le "$rounds" ]; do
    timed rejected 2 --bogus
    timed clean 0 -m 1:1 -i 10 -x 1 --path-evidence off
    i=$((i + 1))
done
echo "# fabperf_latency, 2 ranks, shared memory, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
summary rejected
summary clean
