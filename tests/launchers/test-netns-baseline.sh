#!/bin/bash
# A baseline of a namespace fabric, and runs judged against it: eight healthy launches of
# fabperf_bw between two network-namespace hosts (netns-hosts.sh) build an 80 %/80 % baseline (the
# 95 %/95 % default refuses them: too few); a healthy launch judged by --expect baseline=FILE
# fails no size; with the veth shaped to 50 Mbit/s every size fails (exit 3), by the program's
# own verdict and by fabperf-baseline check of such a launch (its own interval); a run on one host has
# another placement: refused by the program (exit 2, naming what the baseline has), not compared
# by fabperf-baseline check.
#
# Environment: FABPERF_BIN (fabperf_bw built with Open MPI), FABPERF_LAUNCH, PYTHON3.
# Exit status: 0 pass, 1 fail, 77 skip (automake convention).

here=$(cd "$(dirname "$0")" && pwd)
tool=$here/../../tools/fabperf-baseline
# shellcheck source=tests/launchers/netns-test.sh
. "$here/netns-test.sh"
netns_need_openmpi fabperf_bw
bw=$program_path
netns_start netns-baseline
python=${PYTHON3:-python3}
# Small windows keep a shaped size short: 16 x 256 KiB at 6 MB/s is 0.7 s a sample.
args=(-m 32K:256K -W 16 -i 8 -x 1 --label fabric --format json)

# launch FILE [ARGS...]: one launch between the two hosts, JSON in FILE; sets $rc.
launch() {
    local out=$1
    shift
    timeout 300 "$nh" mpirun "$bw" "${args[@]}" --output "$out" "$@" >"$out.log" 2>&1
    rc=$?
}

# verdicts FILE: the rows' verdicts, space-separated.
verdicts() {
    "$python" -c 'import json, sys
print(" ".join(str(r.get("verdict")) for r in map(json.loads, open(sys.argv[1])) if r["type"] == "row"))' "$1"
}

mkdir -p "$work/healthy" "$work/shaped" "$work/local"
for i in 1 2 3 4 5 6 7 8; do
    launch "$work/healthy/fabric.$i.fabperf_bw.json"
    [[ $rc -eq 0 ]] || { failed "healthy launch $i: exit $rc"; tail -5 "$work/healthy/fabric.$i.fabperf_bw.json.log"; }
done
rm -f "$work"/healthy/*.log

"$python" "$tool" build "$work/healthy" -o "$work/strict.json" >"$work/build.out" 2>&1
rc=$?
if [[ $rc -ne 2 ]] || ! grep -q 'too few launches: 8 of fabperf_bw fabric 32768 B (H H, 2 ranks on 2 host(s)) .*needs 59' "$work/build.out"; then
    failed "a 95 %/95 % baseline from 8 launches: exit $rc, expected 2 and the count it needs"
    cat "$work/build.out"
fi
"$python" "$tool" build "$work/healthy" -o "$work/base.json" --coverage 0.8 --confidence 0.8 >"$work/build.out" 2>&1 ||
    { failed "an 80 %/80 % baseline from 8 launches was refused"; cat "$work/build.out"; }
echo "baseline: $("$python" -c 'import json, sys
print("; ".join("%d B: bound %.0f MB/s, centre %.0f" % (e["size"], e["bound"], e["centre"]) for e in json.load(open(sys.argv[1]))["entries"]))' "$work/base.json")"

# A healthy launch against its fabric's baseline, with half of the bound as the margin for a
# loaded machine: no size fails.
launch "$work/judged.json" --expect "baseline=$work/base.json:0.5"
v=$(verdicts "$work/judged.json")
echo "healthy, judged: exit $rc, verdicts $v"
if [[ $rc -ne 0 && $rc -ne 4 ]] || [[ $v == *fail* ]] || [[ $v == *None* ]]; then
    failed "a healthy launch judged against the baseline: exit $rc, verdicts $v (expected no fail)"
fi
grep -q "\"baseline\":\"$work/base.json: fabperf_bw 'fabric' (H H, 2 ranks on 2 host(s)), 4 size(s), bounds from 8 launches" \
    "$work/judged.json" || failed "the header does not name the baseline's entry"

"$nh" shape 50mbit || failed "tc tbf failed"
launch "$work/shaped-judged.json" --expect "baseline=$work/base.json:0.5"
v=$(verdicts "$work/shaped-judged.json")
echo "shaped to 50 Mbit/s, judged: exit $rc, verdicts $v"
[[ $rc -eq 3 && $v == "fail fail fail fail" ]] ||
    failed "a shaped launch judged against the baseline: exit $rc, verdicts $v (expected exit 3, every size fail)"
launch "$work/shaped/fabric.1.fabperf_bw.json"
"$nh" unshape
rm -f "$work"/shaped/*.log
"$python" "$tool" check "$work/base.json" "$work/shaped" >"$work/check.out" 2>&1
rc=$?
echo "fabperf-baseline check of a shaped launch: exit $rc, $(tail -1 "$work/check.out")"
[[ $rc -eq 3 && $(grep -c '^fail ' "$work/check.out") -eq 4 ]] ||
    { failed "fabperf-baseline check of shaped launches: exit $rc, expected 3 and 4 sizes failed"; cat "$work/check.out"; }

# One host, two ranks: another placement.
timeout 300 "$FABPERF_LAUNCH" 2 tcp "$bw" "${args[@]}" --output "$work/local/fabric.1.fabperf_bw.json" \
    --expect "baseline=$work/base.json" </dev/null >"$work/local.out" 2>&1
rc=$?
if [[ $rc -ne 2 ]] || [[ $(grep -c '^fabperf_bw: ' "$work/local.out") -ne 1 ]] ||
    ! grep -q "no entry of this run, fabperf_bw 'fabric' (H H, 2 ranks on 1 host(s)); the baseline has: fabperf_bw 'fabric' (H H, 2 ranks on 2 host(s))" "$work/local.out"; then
    failed "a run on one host against a two-host baseline: exit $rc, expected 2 and one line naming both placements"
    cat "$work/local.out"
fi
timeout 300 "$FABPERF_LAUNCH" 2 tcp "$bw" "${args[@]}" --output "$work/local/fabric.1.fabperf_bw.json" \
    </dev/null >"$work/local.out" 2>&1
"$python" "$tool" check "$work/base.json" "$work/local" >"$work/check.out" 2>&1
rc=$?
[[ $rc -eq 0 && $(grep -c '^inconclusive  .*: not compared: placement H H, 2 ranks on 1 host(s) here, H H, 2 ranks on 2 host(s) in the baseline' "$work/check.out") -eq 4 ]] ||
    { failed "fabperf-baseline check of a one-host run: exit $rc, expected 0 and 4 sizes not compared"; cat "$work/check.out"; }

if [[ $fail -eq 0 ]]; then
    echo "PASS: a namespace fabric's baseline; healthy, shaped and one-host runs judged against it"
    exit 0
fi
exit 1
