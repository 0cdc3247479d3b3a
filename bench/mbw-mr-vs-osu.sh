#!/bin/bash
# fabperf_mbw_mr against OSU's osu_mbw_mr on the same MPI, launches interleaved (alternating which
# goes first): per size, the median over launches of each one's MB/s and messages/s, and the ratio.
#
#   bench/mbw-mr-vs-osu.sh BUILD_DIR OSU_MBW_MR [LAUNCHES [NP [MIN:MAX]]]
#
# Runs through BUILD_DIR/tests/launch.sh (shared memory). Sizes MIN:MAX in bytes (default 1:4194304),
# OSU's default iterations, window 64 for both.
set -eu
build=$1 osu=$2 launches=${3:-6} np=${4:-2} range=${5:-1:4194304}
work=$(mktemp -d "${TMPDIR:-/tmp}/mbw-vs-osu.XXXXXX")
trap 'rm -rf "$work"' EXIT
for ((i = 1; i <= launches; i++)); do
    first=osu
    ((i % 2 == 0)) && first=fabperf
    for who in $first $([[ $first == osu ]] && echo fabperf || echo osu); do
        if [[ $who == osu ]]; then
            "$build/tests/launch.sh" "$np" sm "$osu" -m "$range" >"$work/osu.$i.txt" 2>/dev/null
        else
            "$build/tests/launch.sh" "$np" sm "$build/pairs/fabperf_mbw_mr" -m "$range" --format json \
                --output "$work/fabperf.$i.json" >/dev/null 2>&1
        fi
    done
done
python3 - "$work" "$launches" <<'PY'
import json, statistics, sys
work, n = sys.argv[1], int(sys.argv[2])
osu, fab = {}, {}
for i in range(1, n + 1):
    for line in open(f"{work}/osu.{i}.txt"):
        f = line.split()
        if f and f[0].isdigit():
            osu.setdefault(int(f[0]), []).append((float(f[1]), float(f[2])))
    for line in open(f"{work}/fabperf.{i}.json"):
        r = json.loads(line)
        if r["type"] == "row":
            fab.setdefault(r["size"], []).append((r["bw_mbps"], r["msgs_per_s"]))
print(f"{'size':>8} {'osu MB/s':>12} {'fabperf MB/s':>12} {'ratio':>6} {'osu msg/s':>12} {'fabperf msg/s':>13} {'ratio':>6}")
for s in sorted(osu):
    o = [statistics.median(x) for x in zip(*osu[s])]
    f = [statistics.median(x) for x in zip(*fab[s])]
    print(f"{s:>8} {o[0]:>12.2f} {f[0]:>12.2f} {f[0] / o[0]:>6.3f} {o[1]:>12.0f} {f[1]:>13.0f} {f[1] / o[1]:>6.3f}")
PY
