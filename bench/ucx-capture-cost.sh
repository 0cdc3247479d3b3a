#!/bin/sh
# What capturing UCX's log costs at start-up: PAIRS interleaved launches of MPI_Init without and
# with the capture (bench/ucx_init.c), 2 ranks, UCX over tcp/lo; prints the medians and the median
# of the paired differences (with - without) with its 95% interval (order statistics), and the
# median time to read the log. Extra arguments go to the launcher before the program (Open MPI:
# --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any).
#
#   bench/ucx-capture-cost.sh BUILD_DIR [LAUNCHER-ARGS...]      PAIRS [40]
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR [LAUNCHER-ARGS...]}" && pwd) || exit 2
shift
out=$(mktemp "${TMPDIR:-/tmp}/fabperf-ucx-cost.XXXXXX")
UCX_TLS=${UCX_TLS:-tcp,self} UCX_NET_DEVICES=${UCX_NET_DEVICES:-lo}
export UCX_TLS UCX_NET_DEVICES
pair=0
while [ "$pair" -lt "${PAIRS:-40}" ]; do
    for capture in 0 1; do
        timeout 120 sh "$build/tests/launch.sh" 2 default "$@" "$build/bench/fabperf_ucx_init" "$capture" \
            </dev/null >>"$out" 2>/dev/null
    done
    pair=$((pair + 1))
done
python3 - "$out" <<'PY'
import math, statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if len(line.split()) == 4]
off = [float(r[1]) for r in rows if r[0] == "0"]
on = [float(r[1]) for r in rows if r[0] == "1"]
d = sorted(b - a for a, b in zip(off, on))
n = len(d)
if n < 6:
    sys.exit(f"only {n} pairs completed")
k = max(0, math.floor(n / 2 - 1.96 * math.sqrt(n) / 2))
print(f"{n} pairs: MPI_Init median {statistics.median(off):.1f} ms without, {statistics.median(on):.1f} ms with;"
      f" paired difference median {statistics.median(d):+.1f} ms, 95% CI [{d[k]:+.1f}, {d[n - 1 - k]:+.1f}]")
print(f"reading the log before the header: median {statistics.median(float(r[2]) for r in rows if r[0] == '1'):.3f} ms;"
      f" items read: {sorted(set(r[3] for r in rows if r[0] == '1'))}")
PY
rm -f "$out"
