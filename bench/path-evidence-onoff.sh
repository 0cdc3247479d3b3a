#!/bin/bash
# Path evidence on against off, side by side: LAUNCHES interleaved launches of each (on, off, on,
# off, ...) of fabperf_latency and fabperf_bw over shared memory, then fabperf-compare with "off"
# as the baseline: "~" at every size means no difference the launches can show.
#
#   bench/path-evidence-onoff.sh BUILD_DIR [OUT_DIR]      LAUNCHES [6]
set -u
build=$(cd "${1:?usage: $0 BUILD_DIR [OUT_DIR]}" && pwd) || exit 2
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/fabperf-onoff.XXXXXX")}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for ((k = 1; k <= ${LAUNCHES:-6}; k++)); do
    for mode in on off; do
        sh "$build/tests/launch.sh" 2 sm "$build/pt2pt/fabperf_latency" -m 1:64K -f 4 -i 3000 --format json \
            --path-evidence "$mode" --label "lat-$mode" --output "$out/lat-$mode.$k.fabperf_latency.json" >/dev/null 2>&1
        sh "$build/tests/launch.sh" 2 sm "$build/pt2pt/fabperf_bw" -m 1K:1M -f 4 -i 100 --format json \
            --path-evidence "$mode" --label "bw-$mode" --output "$out/bw-$mode.$k.fabperf_bw.json" >/dev/null 2>&1
    done
done
"$here/../tools/fabperf-compare" --baseline lat-off "$out"/lat-*.json
"$here/../tools/fabperf-compare" --baseline bw-off "$out"/bw-*.json
echo "results in $out"
