#!/bin/bash
# --isolate over a real network: six network-namespace hosts on one Linux bridge (netns-bridge.sh),
# one rank each, the collectives over Open MPI's TCP BTL on the veths. Unshaped, an allreduce
# search names no member that stands (exit 0, or 4 when a round's noise leaves it undecided). Then
# fpbr-h3 (rank 2) sends and receives through tc tbf at 20 Mbit/s: in each of the six collectives
# the search names rank 2 on fpbr-h3, and only it, as the member that stands (exit 3). A search
# left undecided (exit 4, nothing standing) is run once more; naming another rank fails at once.
# (Shaped one way only, a bcast can miss it: in the job's tree rank 2 forwards data, in a half of
# three ranks it only receives; docs/collectives.md says so.)
#
# Environment: FABPERF_COLL_BIN  directory with the collectives built with Open MPI
# Exit status: 0 pass, 1 fail, 77 skip (automake convention).

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/launchers/netns-test.sh
. "$here/netns-test.sh"
netns_need_openmpi fabperf_allreduce "${FABPERF_COLL_BIN:-}"
bin=$(dirname "$program_path")
netns_bridge_start netns-isolate 6

# search PROGRAM: one search at 64 KiB; exit status in $rc, what stands in $standing ("kind ranks
# nodes" per finding), the search's line in $said.
search() {
    timeout 300 "$nb" mpirun "$bin/$1" -m 64K:64K -i 10 -x 2 --isolate --format json \
        --output "$work/$1.json" >"$work/$1.log" 2>&1
    rc=$?
    standing=$(python3 - "$work/$1.json" <<'PY'
import json, sys
for r in (json.loads(l) for l in open(sys.argv[1]) if l.strip()):
    if r["type"] == "isolate_finding" and r["status"] == "stands":
        print(r["kind"], ",".join(map(str, r["ranks"])), ",".join(r["nodes"]))
PY
)
    said=$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if "\"isolate\"" in l][-1]
print("%s, %d rounds in %.1f s, %s" % (r["mode"], r["rounds"], r["seconds"], "decided" if r["decided"] else "undecided: " + r["reason"]))' \
        "$work/$1.json" 2>/dev/null)
    echo "$1: exit $rc; ${said:-no search record}; standing: ${standing:-none}"
}

search fabperf_allreduce
if [[ -n $standing || ($rc -ne 0 && $rc -ne 4) ]]; then
    failed "unshaped allreduce: exit $rc, standing '${standing}' (expected no member)"
    tail -n 20 "$work/fabperf_allreduce.log"
fi

for direction in send receive; do
    "$nb" shape fpbr-h3 20mbit "$direction" || failed "tc tbf on fpbr-h3 ($direction) failed"
done
for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
    for try in 1 2; do
        search "fabperf_$program"
        [[ $rc -eq 4 && -z $standing && $try -eq 1 ]] || break
        echo "  undecided with nothing standing: once more"
    done
    if [[ $rc -ne 3 || $standing != "member 2 fpbr-h3" ]]; then
        failed "$program, fpbr-h3 shaped: exit $rc, standing '${standing}' (expected exit 3 and member 2 fpbr-h3 alone)"
        grep '^{"type":"isolate' "$work/fabperf_$program.json" | cut -c1-220
    fi
done
"$nb" unshape

if [[ $fail -eq 0 ]]; then
    echo "PASS: six namespace hosts, the shaped host's rank the one member found in each collective"
    exit 0
fi
exit 1
