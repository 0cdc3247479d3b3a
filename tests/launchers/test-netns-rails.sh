#!/bin/bash
# scripts/slurm/rails.sbatch on two network-namespace hosts joined by two veth pairs, two rails
# on different subnets (netns-hosts.sh up, then link): fprail0 shaped by tc tbf to 100 Mbit/s and
# fprail1 to a tenth of that, 10 Mbit/s. The template runs in the first host outside Slurm
# (FABPERF_RAIL_NODES, launched through the ns-ssh stand-in):
#  - Open MPI's TCP BTL on the discovered rails, 4 launches each: exit 3, the summary names
#    fprail1 and only it as slow; every result records its btl_tcp_if_include, and its path
#    evidence shows the payload on its rail alone;
#  - UCX (UCX_NET_DEVICES) through FABPERF_RAIL_SWEEP without a summary command (exit 0), and
#    libfabric's tcp provider (FI_TCP_IFACE) with a rail that does not exist, one without an
#    address and a launch that fails (exit 1): one launch per rail, each recorded and on its rail,
#    the others skipped with their reasons;
#  - NCCL on a machine without a GPU: the rail skipped with the reason, exit 1.
# Environment: FABPERF_BIN (directory with fabperf_bw, Open MPI build).
# Exit status: 0 pass, 1 fail, 77 skip.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# Names of its own, so that the other namespace tests can run at the same time.
export FABPERF_NETNS_PREFIX=fabperf-rails FABPERF_NETNS_NET=10.78.0 FABPERF_NETNS_DEV=fprail0 \
    FABPERF_NETNS_STATE=/run/fabperf-netns-rails

# shellcheck source=tests/launchers/netns-test.sh
. "$here/netns-test.sh"
netns_need_openmpi fabperf_bw
bin=$(dirname "$program_path")
for p in fi_info ucx_info; do
    command -v "$p" >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
done
netns_start netns-rails
pair="${hosts[0]},${hosts[1]}"
"$nh" link fprail1 10.78.1 || failed "second veth pair"
# 100 and 10 Mbit/s: rates that hold on a loaded 2-core machine (1 Gbit/s did not).
"$nh" shape 100mbit || failed "tc tbf 100mbit on fprail0"
FABPERF_NETNS_DEV=fprail1 "$nh" shape 10mbit || failed "tc tbf 10mbit on fprail1"

# template NAME VAR=VAL...: rails.sbatch in the first host into $work/NAME; its output in
# $work/NAME.out; sets rc
template() {
    local name=$1 t0
    shift
    t0=$(date +%s)
    timeout 300 "$nh" exec "${hosts[0]}" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        FABPERF_NETNS_MAP="$FABPERF_NETNS_STATE/map" FABPERF_RAIL_NODES="${hosts[*]}" \
        MPIRUN_ARGS="--mca plm rsh --mca plm_rsh_agent $here/ns-ssh --mca oob_tcp_if_include fprail0" \
        FABPERF_BIN="$bin" FABPERF_PREFLIGHT=off FABPERF_RUN_DIR="$work/$name" FABPERF_PROGRAMS=fabperf_bw \
        "$@" bash "$top/scripts/slurm/rails.sbatch" >"$work/$name.out" 2>&1 </dev/null
    rc=$?
    echo "$name: exit $rc in $(($(date +%s) - t0)) s"
    sed 's/^/    /' "$work/$name.out"
}

template tcp REPEATS=4 FABPERF_ARGS="-m 64K:64K -W 4 -i 6 -x 1"
[[ $rc -eq 3 ]] || failed "tcp: exit $rc, expected 3 (a slow rail)"
[[ $(cat "$work/tcp/summary/rails.status" 2>/dev/null) == 3 ]] || failed "tcp: summary/rails.status is not 3"
grep -q '^[0-9:]* fabperf: rails: fprail0 fprail1 (stack tcp)$' "$work/tcp.out" ||
    failed "tcp: the discovered rails are not fprail0 and fprail1 with the tcp stack"
if [[ $(grep -c '^slow ' "$work/tcp/summary/rails.txt") -ne 1 ]] ||
    ! grep -q '^slow rail fprail1: slower than the best rail at every node pair (1 of 1): ' "$work/tcp/summary/rails.txt"; then
    failed "tcp: the summary does not name fprail1, and only it, as slow"
fi
python3 "$here/check-rails.py" "$work/tcp" --rails fprail0,fprail1 --launches 4 --hosts "$pair" \
    --set 'OMPI_MCA_btl_tcp_if_include={rail}' --set OMPI_MCA_pml=ob1 --set OMPI_MCA_btl=tcp,self \
    --slow fprail1 --max-ratio 0.5 --path ||
    failed "tcp: the run folder or its summary does not check"

# No summary command: the job says so and ends as its launches did; the summary is made here.
template ucx REPEATS=1 FABPERF_RAIL_STACK=ucx FABPERF_RAILS="fprail0,fprail1" FABPERF_ARGS="-m 64K:64K" \
    FABPERF_RAIL_SWEEP="fabperf_bw -W 4 -i 6 -x 1" FABPERF_RAIL_SUMMARY=/nonexistent
[[ $rc -eq 0 ]] || failed "ucx: exit $rc, expected 0 (launches ok, no summary command)"
[[ $(cat "$work/ucx/summary/rails.status" 2>/dev/null) == "not found" ]] || failed "ucx: rails.status is not \"not found\""
grep -q 'rails: no summary: /nonexistent not found' "$work/ucx.out" || failed "ucx: the job does not say there is no summary"
python3 "$top/tools/fabperf-rails" --format json --output "$work/ucx/summary/rails.json" "$work/ucx" ||
    failed "ucx: fabperf-rails does not exit 0 with one launch a rail"
grep -q -e '--label fprail0@all -m 64K:64K -W 4 -i 6 -x 1$' "$work/ucx/fprail0_all.1.fabperf_bw.log" ||
    failed "ucx: the sweep's arguments do not follow FABPERF_ARGS"
python3 "$here/check-rails.py" "$work/ucx" --rails fprail0,fprail1 --launches 1 --hosts "$pair" --sweep \
    --set 'UCX_NET_DEVICES={rail}' --set OMPI_MCA_pml=ucx --set OMPI_MCA_pml_ucx_tls=any \
    --set OMPI_MCA_pml_ucx_devices=any --set OMPI_MCA_osc=ucx --path || failed "ucx: the run folder does not check"
python3 -c 'import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
sys.exit(records[0]["window"] != 4 or [r["size"] for r in records if r["type"] == "row"] != [65536])' \
    "$work"/ucx/fprail0_all.1.fabperf_bw.json ||
    failed "ucx: FABPERF_ARGS (-m 64K:64K) and the sweep's arguments (-W 4) did not both reach the program"

# An interface without an address (a veth pair inside the first host), made after the discovery above.
if ! ip -n "${hosts[0]}" link add fpnoaddr type veth peer name fpnoaddr1 ||
    ! ip -n "${hosts[0]}" link set fpnoaddr up || ! ip -n "${hosts[0]}" link set fpnoaddr1 up; then
    failed "interface without an address"
fi
# One more configuration whose launch fails (hosts that do not exist): the job ends 1.
template ofi REPEATS=1 FABPERF_RAIL_STACK=ofi FABPERF_RAILS="fprail0 fprail1 fpnone fpnoaddr" \
    FABPERF_ARGS="-m 64K:64K -W 4 -i 6 -x 1" FABPERF_EXTRA_CONFIGS="broken@x||@nodes=fabperf-none1,fabperf-none2"
[[ $rc -eq 1 ]] || failed "ofi: exit $rc, expected 1 (a launch failed)"
[[ $(cat "$work/ofi/summary/rails.status" 2>/dev/null) == 0 ]] || failed "ofi: the summary did not run, or found something"
grep -q $'^broken@x\t1\tfabperf_bw\tfailed(' "$work/ofi/launches.tsv" || failed "ofi: the failed launch is not in launches.tsv"
python3 "$here/check-rails.py" "$work/ofi" --rails fprail0,fprail1 --launches 1 --hosts "$pair" \
    --set 'FI_TCP_IFACE={rail}' --set FI_PROVIDER=tcp --set OMPI_MCA_pml=cm --set OMPI_MCA_mtl=ofi \
    --set OMPI_MCA_mtl_ofi_provider_exclude=none --path || failed "ofi: the run folder does not check"
grep -qx "fpnone@${hosts[0]}-${hosts[1]}: network interface(s) fpnone not present" "$work/ofi/skipped.txt" ||
    failed "ofi: the missing rail is not in skipped.txt with its reason"
grep -qx "fpnoaddr@${hosts[0]}-${hosts[1]}: network interface fpnoaddr has no IPv4 address on every node (ip -4 addr show dev fpnoaddr)" \
    "$work/ofi/skipped.txt" || failed "ofi: the rail without an address is not in skipped.txt with its reason"

# nccl without a GPU: every rail skipped with the reason, nothing to summarise: exit 1.
if ! nvidia-smi -L 2>/dev/null | grep -q GPU; then
    template nccl FABPERF_RAIL_STACK=nccl FABPERF_RAILS=fprail0
    [[ $rc -eq 1 ]] || failed "nccl without a GPU: exit $rc, expected 1"
    grep -q "^fprail0@${hosts[0]}-${hosts[1]}: no NVIDIA GPU visible on every node (nvidia-smi -L)" "$work/nccl/skipped.txt" ||
        failed "nccl without a GPU: the rail is not skipped with the reason"
fi

if [[ $fail -eq 0 ]]; then
    echo "PASS: every rail on two namespace hosts"
    exit 0
fi
exit 1
