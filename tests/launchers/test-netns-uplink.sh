#!/bin/bash
# Six network-namespace hosts on two leaf bridges of three, joined by veth uplinks to a spine bridge
# (netns-bridge.sh up 6 2), one rank each, fabperf_allpairs --topology over Open MPI's TCP BTL.
# Unshaped: no finding stands. Leaf 1's uplink limited (tc tbf, "up") to a twentieth of the
# unshaped sweep's typical cell: the standing findings are that uplink, direction up (or, the
# same cells, leaf 2's down), and at most its other way (its acknowledgements queue there), no
# node. Then one host's own veth limited instead, sending: that host stands as a slow node (as
# sender, and may as receiver: see test-netns-allpairs.sh), and no uplink stands. Last, every host
# shaped and leaf 1's uplink at 1.2 of their rate, congested by the sweep's own flows only: nothing
# stands. fabperf-report lists the standing uplink first, by switch.
#
# Environment: FABPERF_PAIRS_BIN  directory with fabperf_allpairs built with Open MPI
# Exit status: 0 pass, 1 fail, 77 skip (automake convention).

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/launchers/netns-test.sh
. "$here/netns-test.sh"
netns_need_openmpi fabperf_allpairs "${FABPERF_PAIRS_BIN:-}"
allpairs=$program_path
netns_bridge_start netns-uplink 6 2
"$nb" topology >"$work/topo.txt" || failed "no topology from netns-bridge.sh"

# sweep NAME: one sweep of 128K cells with the leaves' topology; exit status in $rc, JSON in
# $work/NAME.json, what stands in $work/NAME.txt ("kind direction element" per standing finding)
sweep() {
    timeout 300 "$nb" mpirun "$allpairs" -m 128K:128K -i 6 -x 1 -W 8 --expect uniform --topology "$work/topo.txt" \
        --format json --output "$work/$1.json" >"$work/$1.log" 2>&1
    rc=$?
    [[ -s $work/$1.json ]] || { failed "$1: no result"; tail -n 20 "$work/$1.log"; return; }
    python3 - "$work/$1.json" >"$work/$1.txt" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for r in recs:
    if r["type"] == "finding":
        element = r["switch"] + ("/" + r["also"]["switch"] + ":" + r["also"]["direction"] if r.get("also") else "") \
            if r["kind"] == "slow_uplink" else ",".join(r["nodes"])
        print(r["status"], r["kind"], r["direction"], element)
        print("  " + r["message"])
    if r["type"] == "judge":
        print("judge: decided" if r["decided"] else "judge: not decided: " + r["reason"], "uplinks", r["uplinks"])
print("typical", [r["bw_p50_mbps"] for r in recs if r["type"] == "row"][0])
PY
    echo "$1: exit $rc"
    cat "$work/$1.txt"
}
standing() {
    grep '^stands ' "$1" | sort
}

# A sweep too noisy to judge is inconclusive (exit 4): run again, at most three times.
for _ in 1 2 3; do
    sweep plain
    [[ $rc -eq 4 ]] || break
done
[[ $rc -eq 0 ]] || failed "unshaped: exit $rc, expected 0"
[[ -z $(standing "$work/plain.txt") ]] || failed "unshaped: a finding stands"
grep -q "uplinks {'judged': 2, 'unjudged': 0}" "$work/plain.txt" || failed "unshaped: not both leaves' uplinks judged"
typical=$(awk '/^typical/ { print $2 }' "$work/plain.txt")
rate=$(awk -v t="$typical" 'BEGIN { printf "%dkbit", t * 8 * 1000 / 20 }')
echo "typical cell $typical MB/s; shaping to $rate"

"$nb" shape-uplink 1 "$rate" up || failed "tc tbf on leaf 1's uplink failed"
sweep uplink
[[ $rc -eq 3 ]] || failed "leaf 1's uplink shaped: exit $rc, expected 3"
# The shaped way carries the acknowledgements of the other way's data too (TCP's, and MPI's
# rendezvous replies), so the other way may stand as well, slower alone (0.50x seen once): the same
# uplink pair. Anything else standing is a false alarm.
found=$(standing "$work/uplink.txt" | grep -v -x -e "stands slow_uplink down leaf1/leaf2:up" -e "stands slow_uplink up leaf2/leaf1:down")
[[ $found == "stands slow_uplink up leaf1/leaf2:down" || $found == "stands slow_uplink down leaf2/leaf1:up" ]] ||
    failed "leaf 1's uplink shaped: what stands is not only that uplink, up (and maybe back): '$found'"
"$nb" unshape
# fabperf-report lists the uplink by its switch, standing, first among the findings
mkdir "$work/report" && cp "$work/uplink.json" "$work/report/"
python3 "$here/../../tools/fabperf-report" "$work/report" -o "$work/report.html" >"$work/report.err" 2>&1 ||
    { failed "fabperf-report on the uplink sweep failed"; cat "$work/report.err"; }
python3 - "$work/report.html" <<'PY' || failed "fabperf-report: the standing uplink is not the first finding, by its switch"
import re, sys
rows = re.findall(r'data-kind="([^"]*)" data-where="([^"]*)" data-status="([^"]*)"', open(sys.argv[1]).read())
print("report rows:", rows)
sys.exit(0 if rows and rows[0][0] == "slow_uplink" and rows[0][2] == "stands"
         and rows[0][1] in ("uplink of leaf1 (or leaf2&#x27;s, down)", "uplink of leaf2 (or leaf1&#x27;s, up)") else 1)
PY

"$nb" shape fpbr-h2 "$rate" send || failed "tc tbf on fpbr-h2 failed"
sweep host
[[ $rc -eq 3 ]] || failed "fpbr-h2 shaped: exit $rc, expected 3"
found=$(standing "$work/host.txt")
[[ $found == "stands slow_node send fpbr-h2" ||
    $found == "$(printf 'stands slow_node receive fpbr-h2\nstands slow_node send fpbr-h2')" ]] ||
    failed "fpbr-h2 shaped: what stands is not only the node fpbr-h2 as sender: '$found'"
"$nb" unshape

# Congested, not slow: every host sends at most at the shaped rate, leaf 1's uplink carries 1.2 of
# it. Alone a pair across it runs at its hosts' rate; in the rounds where two or three of the
# sweep's flows cross it, each gets 0.6 or 0.4 of it. Nothing may stand; a suspect uplink must be
# cleared as congestion.
for h in $("$nb" hosts); do
    "$nb" shape "$h" "$rate" send || failed "tc tbf on $h failed"
done
"$nb" shape-uplink 1 "$(awk -v t="$typical" 'BEGIN { printf "%dkbit", t * 8 * 1000 / 20 * 1.2 }')" up ||
    failed "tc tbf on leaf 1's uplink failed"
sweep congested
[[ -z $(standing "$work/congested.txt") ]] || failed "congested uplink: a finding stands"
grep -q '^cleared slow_uplink up leaf1' "$work/congested.txt" || grep -q '^cleared slow_uplink down leaf2' "$work/congested.txt" ||
    echo "congested uplink: no suspect (the rounds' slowdown under the screen's bounds)"
"$nb" unshape

if [[ $fail -eq 0 ]]; then
    echo "PASS: namespace leaves: a slow uplink named, a slow host not blamed on its switch, clean sweeps clean"
    exit 0
fi
exit 1
