#!/bin/bash
# --expect-nic judged per node, on two network-namespace hosts whose link has another name at each
# end (fpnic0 on the first host, fpnicz on the second):
#  - a name per node (HOST:NAME,...) and a glob (fpnic*) pass; one plain name, fpnic0, fails
#    (exit 3) naming the second host, where 0% of the payload crossed it;
#  - the veth is virtual: no line rate, no efficiency, and the text output says why;
#  - a malformed list exits 2 with one line naming the option.
# Environment: FABPERF_BIN (directory with fabperf_bw, Open MPI build).
# Exit status: 0 pass, 1 fail, 77 skip.

here=$(cd "$(dirname "$0")" && pwd)
# Names of its own, so that the other namespace tests can run at the same time.
export FABPERF_NETNS_PREFIX=fabperf-nicn FABPERF_NETNS_NET=10.79.0 FABPERF_NETNS_DEV=fpnic0 \
    FABPERF_NETNS_STATE=/run/fabperf-netns-nicn
# shellcheck source=tests/launchers/netns-test.sh
. "$here/netns-test.sh"
netns_need_openmpi fabperf_bw
bw=$program_path
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
netns_start netns-nic-names
h1=${hosts[0]} h2=${hosts[1]}
{ ip -n "$h2" link set fpnic0 down && ip -n "$h2" link set fpnic0 name fpnicz && ip -n "$h2" link set fpnicz up; } ||
    { failed "renaming the second host's end"; exit 1; }

# run WANT NAME ARGS...: fabperf_bw, one rank in each host, TCP on the link's subnet (the names
# differ); output in $work/NAME.{out,err}; checks the exit status.
run() {
    local want=$1 name=$2 got
    shift 2
    timeout 120 "$nh" exec "$h1" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        FABPERF_NETNS_MAP="$FABPERF_NETNS_STATE/map" \
        mpirun -np 2 --host "$h1:1,$h2:1" --bind-to none --mca plm rsh --mca plm_rsh_agent "$here/ns-ssh" \
        --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include 10.79.0.0/24 \
        --mca oob_tcp_if_include 10.79.0.0/24 "$bw" -m 1M:1M -W 4 -i 6 -x 1 "$@" \
        >"$work/$name.out" 2>"$work/$name.err"
    got=$?
    [[ $got -eq $want ]] && return 0
    failed "$name: exit status $got, expected $want"
    tail -n 5 "$work/$name.err"
    return 1
}

if run 0 per-node --format json --expect-nic "$h1:fpnic0,$h2:fpnicz"; then
    python3 -c 'import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "row"]
assert rows and all(r["path"]["nic_verdict"] == "pass" for r in rows), rows
nics = [n for r in rows for n in r["path"]["nics"]]
assert sorted(n["name"] for n in nics) == ["fpnic0", "fpnicz"], nics
assert all(n["virtual"] and n["line_rate_gbps"] is None and n["efficiency"] is None for n in nics), nics
assert all(r["line_rate_gbps"] is None and r["efficiency"] is None for r in rows), rows' "$work/per-node.out" ||
        failed "per node: not a pass, or a virtual NIC got a line rate"
fi
run 0 glob --expect-nic 'fpnic*' &&
    { grep -q '^# line rate 1048576: none: fpnic0 virtual (no device: a nominal speed only); efficiency not computed$' \
        "$work/glob.out" || failed "glob: no line saying why the efficiency is not computed"; }
run 3 one-name --expect-nic fpnic0 &&
    { [[ $(grep -c -- "--expect-nic failed: size 1048576: $h2 0.0% through fpnic0 (--expect-nic fpnic0 needs >= 90% of each node's inter-node payload)" \
        "$work/one-name.err") -eq 1 ]] || { failed "one name: no single line naming $h2"; cat "$work/one-name.err"; }; }
run 2 bad --expect-nic "$h1:" &&
    { [[ $(grep -c "^fabperf_bw: --expect-nic: '$h1:' has an empty NIC or node name (accepted: NAME, NODE:NAME" \
        "$work/bad.err") -eq 1 ]] || { failed "bad list: not one line naming the option"; cat "$work/bad.err"; }; }

if [[ $fail -eq 0 ]]; then
    echo "PASS: --expect-nic per node on a link named differently at each end"
    exit 0
fi
exit 1
