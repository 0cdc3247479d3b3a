#!/bin/bash
# Runs fabperf_bw with one rank in each of two network-namespace "hosts"
# (netns-hosts.sh), checks that the traffic crossed the veth (byte counters),
# then limits the veth with tc tbf and checks the measured bandwidth against what a plain TCP
# stream gets through the same shaped veth.
#
# Environment: FABPERF_BIN        directory with fabperf_bw built with Open MPI
#              FABPERF_BIN_MPICH  optional: the same built with MPICH (hydra, UCX)
#              FABPERF_TEST_RATE  tbf rate in Mbit/s [1000]
# Exit status: 0 pass, 1 fail, 77 skip (automake convention).

here=$(cd "$(dirname "$0")" && pwd)
rate_mbit=${FABPERF_TEST_RATE:-1000}
# shellcheck source=tests/launchers/netns-test.sh
. "$here/netns-test.sh"
netns_need_openmpi fabperf_bw
bw=$program_path
netns_start netns-test
hostlist="${hosts[0]},${hosts[1]}"


# tx bytes of the first host's veth end
tx_bytes() {
    "$nh" counters "${hosts[0]}" | awk '{ print $3 }'
}

# run LAUNCH PROGRAM OUT ARGS...: run, check JSON, the hosts and the counters
run_checked() {
    local launch=$1 prog=$2 out=$3 before after min
    shift 3
    before=$(tx_bytes)
    if ! timeout 300 "$nh" "$launch" "$prog" --format json --output "$out" "$@" >"$out.log" 2>&1; then
        failed "$launch $prog failed:"
        tail -n 20 "$out.log"
        return 1
    fi
    after=$(tx_bytes)
    python3 "$here/check-json.py" --hosts "$hostlist" --print "$out" ||
        { failed "$out does not check"; return 1; }
    # every sample moves each size at least once from rank 0 to rank 1
    min=$(python3 -c 'import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(sum(r["size"] for r in recs if r.get("type") == "row") * int(sys.argv[2]))' "$out" 5)
    echo "$launch: ${hosts[0]} sent $((after - before)) bytes over the veth (at least $min expected)"
    if ((after - before < min)); then
        failed "$launch: only $((after - before)) bytes crossed the veth, expected >= $min"
    fi
}

run_checked mpirun "$bw" "$work/ompi.json" -m 64K:1M -i 5 -x 2 --label netns-ompi

"$nh" shape "${rate_mbit}mbit" || failed "tc tbf failed"
# The bound is what a plain TCP stream gets through the same shaped veth here, not the nominal
# rate: tbf on a veth gives less than its rate on some machines (1 Gbit: 78-109 MB/s, not 125).
socket_mbps=$(netns_socket_mbps 67108864)
echo "tbf ${rate_mbit}mbit: a plain TCP stream moves ${socket_mbps:-?} MB/s (nominal $((rate_mbit / 8)) MB/s)"
[[ -n $socket_mbps ]] || failed "no plain TCP stream through the shaped veth"
if run_checked mpirun "$bw" "$work/ompi-tbf.json" -m 1M:2M -i 5 -x 2 --label netns-tbf && [[ -n $socket_mbps ]]; then
    if ! python3 "$here/check-json.py" --rate-mbps "$socket_mbps" \
        --min-size 1048576 --tolerance 0.25 "$work/ompi-tbf.json"; then
        failed "bandwidth under tbf ${rate_mbit}mbit not within 25% of a plain TCP stream's $socket_mbps MB/s"
    fi
fi
"$nh" unshape

if [[ -n ${FABPERF_BIN_MPICH:-} ]]; then
    if command -v mpiexec.mpich >/dev/null && [[ -x $FABPERF_BIN_MPICH/fabperf_bw ]]; then
        run_checked mpiexec "$FABPERF_BIN_MPICH/fabperf_bw" "$work/mpich.json" -m 64K:1M -i 5 -x 2 --label netns-mpich
    else
        echo "note: MPICH variant not run (mpiexec.mpich or $FABPERF_BIN_MPICH/fabperf_bw missing)"
    fi
fi

if [[ $fail -eq 0 ]]; then
    echo "PASS: two namespace hosts over veth"
    exit 0
fi
exit 1
