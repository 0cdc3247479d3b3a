#!/bin/bash
# The rails of scripts/slurm/rails.sh without launching anything: discovery on a recorded sysfs
# tree (tests/data/sysfs/nodeA: RDMA ports mlx5_0:1 and mlx5_1:1, ACTIVE; eth0 and ens1f0 up; lo),
# the default stack, the variables each stack sets for each kind of rail, FABPERF_RAIL_ENV, the
# node list, the labels, the cross-rail lines and node-env.sh, the programs and their arguments, and
# the launch placement of @nodes= for each MPI_FLAVOR.
# Exit status: 0 pass, 1 fail.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/slurm/common.sh
. "$top/scripts/slurm/common.sh"
# shellcheck source=scripts/slurm/rails.sh
. "$top/scripts/slurm/rails.sh"
unset FABPERF_RAILS FABPERF_RAIL_STACK FABPERF_RAIL_ENV FABPERF_RAIL_NODES FABPERF_OFI_PROVIDER \
    FABPERF_RAIL_SWEEP FABPERF_PROGRAMS FABPERF_RAIL_CROSS FABPERF_RAIL_CROSS_STARTUP FABPERF_RAIL_CROSS_PAIRS FABPERF_NODE_SIDES \
    SLURM_JOB_NODELIST SLURM_NTASKS SLURM_NTASKS_PER_NODE MPIRUN_ARGS
export FABPERF_SYSFS=$top/tests/data/sysfs/nodeA/sys

fail=0
checks=0
# same DESCRIPTION GOT WANT
same() {
    checks=$((checks + 1))
    if [[ $2 == "$3" ]]; then
        echo "ok - $1"
    else
        echo "not ok - $1: got '$2', expected '$3'"
        fail=1
    fi
}

lines() {
    "$@" | tr '\n' ' ' | sed 's/ $//'
}

same "discovery: the ACTIVE RDMA ports" "$(lines fp_rails_discover '')" "mlx5_0:1 mlx5_1:1"
same "discovery for tcp: interfaces that are up, not lo" "$(lines fp_rails_discover tcp)" "ens1f0 eth0"
same "discovery: interfaces when no RDMA port is ACTIVE" \
    "$(FABPERF_SYSFS=$top/tests/data/sysfs/vm/sys lines fp_rails_discover ucx)" "eth0"
same "given rails: an RDMA device gets port 1, an interface stays" \
    "$(FABPERF_RAILS="mlx5_0,mlx5_1:1 eth0" lines fp_rails_given)" "mlx5_0:1 mlx5_1:1 eth0"
same "kinds" "$(fp_rail_kind mlx5_1:1) $(fp_rail_kind eth0)" "rdma net"
same "default stack with an RDMA port: ucx" "$(fp_rail_stack eth0 mlx5_0:1)" ucx
same "default stack with interfaces only: tcp" "$(fp_rail_stack eth0 ens1f0)" tcp
same "FABPERF_RAIL_STACK wins" "$(FABPERF_RAIL_STACK=ofi fp_rail_stack eth0)" ofi

same "tcp: btl_tcp_if_include" "$(fp_rail_env tcp eth0)" "OMPI_MCA_btl_tcp_if_include=eth0"
same "tcp on an RDMA port: refused with the reason" "$(fp_rail_env tcp mlx5_0:1)" \
    "the tcp stack takes network interfaces; mlx5_0:1 is an RDMA port (give its IPoIB or RoCE interface)"
fp_rail_env tcp mlx5_0:1 >/dev/null
same "tcp on an RDMA port: status 1" "$?" 1
same "ucx: UCX_NET_DEVICES, port included" "$(fp_rail_env ucx mlx5_1:1)" "UCX_NET_DEVICES=mlx5_1:1"
same "ucx on an interface" "$(fp_rail_env ucx eth0)" "UCX_NET_DEVICES=eth0"
same "nccl on an RDMA port: NCCL_IB_HCA, exact match" "$(fp_rail_env nccl mlx5_0:1)" \
    "NCCL_IB_DISABLE=0 NCCL_IB_HCA==mlx5_0:1"
same "nccl on an interface: sockets on it" "$(fp_rail_env nccl eth0)" \
    "NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME==eth0"
same "ofi on an RDMA port: verbs device" "$(fp_rail_env ofi mlx5_1:1)" \
    "FI_PROVIDER=verbs;ofi_rxm FI_VERBS_DEVICE_NAME=mlx5_1"
same "ofi on an interface: tcp interface" "$(fp_rail_env ofi eth0)" "FI_PROVIDER=tcp FI_TCP_IFACE=eth0"
same "FABPERF_OFI_PROVIDER" "$(FABPERF_OFI_PROVIDER='tcp;ofi_rxm' fp_rail_env ofi eth0)" \
    "FI_PROVIDER=tcp;ofi_rxm FI_TCP_IFACE=eth0"
same "FABPERF_RAIL_ENV adds words and replaces the stack's of the same name" \
    "$(FABPERF_RAIL_ENV='UCX_TLS=rc,self FI_PROVIDER=efa' fp_rail_env ofi eth0)" \
    "FI_TCP_IFACE=eth0 UCX_TLS=rc,self FI_PROVIDER=efa"
same "unknown stack: the reason" "$(fp_rail_env psm eth0)" "unknown FABPERF_RAIL_STACK 'psm' (tcp, ucx, ofi, nccl)"

# A tree of its own for what nodeA lacks: a bridge that is up, and an interface that is down.
fake=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-rails-sysfs.XXXXXX")
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/class/net/br0/bridge" "$fake/class/net/eth1" "$fake/class/net/eth2" "$fake/class/net/lo"
echo up >"$fake/class/net/br0/operstate"
echo up >"$fake/class/net/eth1/operstate"
echo down >"$fake/class/net/eth2/operstate"
echo unknown >"$fake/class/net/lo/operstate"
same "discovery: neither a bridge nor an interface that is down" "$(FABPERF_SYSFS=$fake lines fp_rails_discover '')" "eth1"

same "check: an ACTIVE port passes to the stack's own check (ofi: fi_info -p)" \
    "$(FABPERF_OFI_PROVIDER=fabperf-none fp_rail_check ofi mlx5_0:1)" \
    "libfabric provider 'fabperf-none' not available (fi_info -p 'fabperf-none')"
same "check: a port that is not ACTIVE" "$(fp_rail_check ofi mlx5_0:2)" \
    "RDMA port mlx5_0:2 not ACTIVE on every node ($FABPERF_SYSFS/class/infiniband/mlx5_0/ports/2/state)"
same "check: an interface that does not exist" "$(fp_rail_check tcp fpnone0)" "network interface(s) fpnone0 not present"
same "check: loopback has an IPv4 address and passes with tcp" "$(fp_rail_check tcp lo; echo "status $?")" "status 0"

same "matrix: the first node with each other node, per rail" \
    "$(lines fp_rail_matrix tcp "eth0 eth1" "a b c")" \
    "eth0@a-b|OMPI_MCA_btl_tcp_if_include=eth0|@nodes=a,b eth0@a-c|OMPI_MCA_btl_tcp_if_include=eth0|@nodes=a,c eth1@a-b|OMPI_MCA_btl_tcp_if_include=eth1|@nodes=a,b eth1@a-c|OMPI_MCA_btl_tcp_if_include=eth1|@nodes=a,c"
same "matrix of a sweep: one line a rail over all the nodes" \
    "$(FABPERF_RAIL_SWEEP=fabperf_allpairs lines fp_rail_matrix ucx "mlx5_0:1 mlx5_1:1" "a b c")" \
    "mlx5_0:1@all|UCX_NET_DEVICES=mlx5_0:1|@nodes=a,b,c mlx5_1:1@all|UCX_NET_DEVICES=mlx5_1:1|@nodes=a,b,c"
same "matrix: a rail the stack refuses has no variables (its check says why)" \
    "$(lines fp_rail_matrix tcp "mlx5_0:1" "a b")" "mlx5_0:1@a-b||@nodes=a,b"

same "cross-rail matrix: each rail against itself, then against each other rail, side by side" \
    "$(FABPERF_RAIL_CROSS=1 FABPERF_RAIL_CROSS_STARTUP=20 lines fp_rail_matrix tcp "eth0 eth1" "a b")" \
    "eth0@a-b|OMPI_MCA_btl_tcp_if_include=eth0|@nodes=a,b eth0->eth1@a-b|FABPERF_NODE_SIDES=a,b FABPERF_SIDE0_OMPI_MCA_btl_tcp_if_include=eth0 FABPERF_SIDE1_OMPI_MCA_btl_tcp_if_include=eth1|@nodes=a,b @node-env @arg=--startup-timeout @arg=20 eth1@a-b|OMPI_MCA_btl_tcp_if_include=eth1|@nodes=a,b eth1->eth0@a-b|FABPERF_NODE_SIDES=a,b FABPERF_SIDE0_OMPI_MCA_btl_tcp_if_include=eth1 FABPERF_SIDE1_OMPI_MCA_btl_tcp_if_include=eth0|@nodes=a,b @node-env @arg=--startup-timeout @arg=20"
same "cross-rail matrix: the first pair only, unless FABPERF_RAIL_CROSS_PAIRS says more" \
    "$(FABPERF_RAIL_CROSS=1 fp_rail_matrix tcp "eth0 eth1" "a b c d" | grep -c -- '->') $(FABPERF_RAIL_CROSS=1 FABPERF_RAIL_CROSS_PAIRS=2 fp_rail_matrix tcp "eth0 eth1" "a b c d" | grep -- '->' | cut -d'|' -f1 | tr '\n' ' ')" \
    "2 eth0->eth1@a-b eth0->eth1@a-c eth1->eth0@a-b eth1->eth0@a-c "
same "cross-rail matrix: FABPERF_RAIL_ENV on both sides, NCCL's two words per side" \
    "$(FABPERF_RAIL_CROSS=1 FABPERF_RAIL_ENV=NCCL_DEBUG=INFO fp_rail_cross_line nccl mlx5_0:1 mlx5_1:1 a b)" \
    "mlx5_0:1->mlx5_1:1@a-b|FABPERF_NODE_SIDES=a,b FABPERF_SIDE0_NCCL_IB_DISABLE=0 FABPERF_SIDE0_NCCL_IB_HCA==mlx5_0:1 FABPERF_SIDE0_NCCL_DEBUG=INFO FABPERF_SIDE1_NCCL_IB_DISABLE=0 FABPERF_SIDE1_NCCL_IB_HCA==mlx5_1:1 FABPERF_SIDE1_NCCL_DEBUG=INFO|@nodes=a,b @node-env @arg=--startup-timeout @arg=60"

# node-env.sh: the side of this node by its host name, whatever the rank
me=$(hostname)
same "node-env.sh: this node's side's variables, values intact" \
    "$(FABPERF_NODE_SIDES="other,$me" FABPERF_SIDE0_SEL=no FABPERF_SIDE1_SEL='a;b =c' FABPERF_SIDE1_HCA='=mlx5_1:1' \
        "$top/scripts/slurm/node-env.sh" printenv SEL HCA | tr '\n' '|')" "a;b =c|=mlx5_1:1|"
same "node-env.sh: a node in neither side: exit 2, said" \
    "$(lines sh -c "FABPERF_NODE_SIDES=x,y '$top/scripts/slurm/node-env.sh' true 2>&1; echo status \$?")" \
    "node-env.sh: this node ($me) is not in FABPERF_NODE_SIDES (x,y) status 2"

same "nodes from FABPERF_RAIL_NODES" "$(FABPERF_RAIL_NODES='a,b c' lines fp_rail_nodes)" "a b c"
same "labels" "$(fp_rail_label mlx5_0:1 a b) $(fp_rail_label eth0)" "mlx5_0:1@a-b eth0@all"

same "Open MPI options: tcp" "$(lines fp_rail_mca tcp)" "pml ob1 btl tcp,self"
same "Open MPI options: ucx" "$(lines fp_rail_mca ucx)" "pml ucx pml_ucx_tls any pml_ucx_devices any osc ucx"
same "Open MPI options: ofi" "$(lines fp_rail_mca ofi)" "pml cm mtl ofi mtl_ofi_provider_exclude none"
same "Open MPI options: none for nccl" "$(lines fp_rail_mca nccl)" ""
same "Open MPI options for srun: OMPI_MCA_ variables" "$(lines fp_rail_ompi_env ofi)" \
    "OMPI_MCA_pml=cm OMPI_MCA_mtl=ofi OMPI_MCA_mtl_ofi_provider_exclude=none"
same "check: ucx must list the device (ucx_info -d)" "$(fp_rail_stack_check ucx UCX_NET_DEVICES=fpnone0)" \
    "UCX device(s) fpnone0 not present (ucx_info -d | grep Device)"

same "programs: fabperf_bw and fabperf_latency" "$(lines fp_rail_programs tcp)" "fabperf_bw fabperf_latency"
same "programs with nccl: fabperf_allreduce --backend nccl" \
    "$(lines fp_rail_programs nccl) $(lines fp_rail_program_args nccl)" "fabperf_allreduce --backend nccl"
same "programs: FABPERF_PROGRAMS" "$(FABPERF_PROGRAMS=fabperf_bibw lines fp_rail_programs ucx)" "fabperf_bibw"
same "a sweep: its program and arguments" \
    "$(FABPERF_RAIL_SWEEP='fabperf_allpairs --mode shift' FABPERF_PROGRAMS=fabperf_bibw lines fp_rail_programs ucx) $(FABPERF_RAIL_SWEEP='fabperf_allpairs --mode shift' lines fp_rail_program_args ucx)" \
    "fabperf_allpairs --mode shift"
same "no arguments but FABPERF_ARGS otherwise" "$(lines fp_rail_program_args ucx)" ""

# build LAUNCH-ARGS: the launch command of fabperf_bw for one matrix line
build() {
    fp_build_cmd /bin/fabperf_bw "UCX_NET_DEVICES=mlx5_0:1" "$1" -m 1M
    echo "${FP_CMD[*]}"
}
root=''
[[ $(id -u) -eq 0 ]] && root='--allow-run-as-root '
same "@nodes= with Open MPI: one rank on each node" "$(SLURM_NTASKS=8 SLURM_NTASKS_PER_NODE=1 build @nodes=a,b)" \
    "env UCX_NET_DEVICES=mlx5_0:1 mpirun ${root}-np 2 --host a:1,b:1 --bind-to none -x UCX_NET_DEVICES=mlx5_0:1 /bin/fabperf_bw -m 1M"
same "@nodes= with three nodes" "$(build @nodes=a,b,c)" \
    "env UCX_NET_DEVICES=mlx5_0:1 mpirun ${root}-np 3 --host a:1,b:1,c:1 --bind-to none -x UCX_NET_DEVICES=mlx5_0:1 /bin/fabperf_bw -m 1M"
same "@nodes= with MPICH" "$(MPI_FLAVOR=mpich build @nodes=a,b)" \
    "env UCX_NET_DEVICES=mlx5_0:1 mpiexec -n 2 -hosts a,b -ppn 1 -genv UCX_NET_DEVICES mlx5_0:1 /bin/fabperf_bw -m 1M"
same "@nodes= with srun" "$(MPI_FLAVOR=srun build @nodes=a,b)" \
    "env UCX_NET_DEVICES=mlx5_0:1 srun --mpi=pmix --kill-on-bad-exit=1 --nodes=2 --ntasks=2 --ntasks-per-node=1 --nodelist=a,b /bin/fabperf_bw -m 1M"
same "@node-env and @arg=: node-env.sh runs the program, the words follow FABPERF_ARGS" \
    "$(FABPERF_ARGS='-i 5' fp_program_words fabperf_bw '@nodes=a,b @node-env @arg=--startup-timeout @arg=9'; build '@nodes=a,b @node-env @arg=--startup-timeout @arg=9'; echo "${FP_PARGS[*]}")" \
    "env UCX_NET_DEVICES=mlx5_0:1 mpirun ${root}-np 2 --host a:1,b:1 --bind-to none -x UCX_NET_DEVICES=mlx5_0:1 $top/scripts/slurm/node-env.sh /bin/fabperf_bw -m 1M
-i 5 --startup-timeout 9"
same "without @nodes= the job's ranks as before" "$(SLURM_NTASKS=4 SLURM_NTASKS_PER_NODE=2 build '')" \
    "env UCX_NET_DEVICES=mlx5_0:1 mpirun ${root}-np 4 --map-by ppr:2:node --bind-to none -x UCX_NET_DEVICES=mlx5_0:1 /bin/fabperf_bw -m 1M"

# The summary step, on a synthetic run folder with a slow rail.
run=$fake/run
python3 "$top/tests/compare/rails_fixtures.py" "$run" rail
tool=${FABPERF_RAILS_TOOL:-$top/tools/fabperf-rails}
FABPERF_RUN_DIR=$run fp_rails_summary "$tool" >"$fake/summary.out"
same "summary: its exit status, returned and in summary/rails.status" "$? $(cat "$run/summary/rails.status")" "3 3"
same "summary: the text in summary/rails.txt and on standard output" \
    "$(grep -c '^slow rail mlx5_1:1' "$run/summary/rails.txt" "$fake/summary.out" | tr '\n' ' ')" \
    "$run/summary/rails.txt:1 $fake/summary.out:1 "
same "summary: the JSON in summary/rails.json" \
    "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["findings"])' "$run/summary/rails.json")" 1
FABPERF_RUN_DIR=$run FABPERF_RAIL_SUMMARY_ARGS="--size 64K --expect bw>=2000" fp_rails_summary "$tool" >/dev/null
same "summary: FABPERF_RAIL_SUMMARY_ARGS reach it" \
    "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["tables"][0]["size"], d["findings"])' "$run/summary/rails.json")" \
    "65536 5"
printf '#!/bin/sh\necho "$*" >"%s"\nexec "%s" "$@"\n' "$fake/called" "$tool" >"$fake/wrapper"
chmod +x "$fake/wrapper"
FABPERF_RUN_DIR=$run FABPERF_RAIL_SUMMARY=$fake/wrapper fp_rails_summary /nonexistent >/dev/null
same "summary: FABPERF_RAIL_SUMMARY names the command" "$(cat "$fake/called")" "--output $run/summary/rails.txt $run"
FABPERF_RUN_DIR=$run FABPERF_RAIL_SUMMARY=/nonexistent fp_rails_summary "$tool" >"$fake/summary.out"
same "summary: no command found: 127, said, and \"not found\" in rails.status" \
    "$? $(cat "$run/summary/rails.status") $(grep -c 'no summary: /nonexistent not found' "$fake/summary.out")" "127 not found 1"

# The template's early exits, before any launch.
# template VAR=VAL...: rails.sbatch outside Slurm; "STATUS LAST-LINE"
template() {
    env "$@" FABPERF_RUN_DIR="$fake/never" bash "$top/scripts/slurm/rails.sbatch" 2>&1 |
        tail -n 1 | sed 's/^[0-9:]* fabperf: //'
    echo "status ${PIPESTATUS[0]}"
}
same "template: no rail" "$(FABPERF_SYSFS=$fake/none lines template)" \
    "rails: none given (FABPERF_RAILS) and none found (ACTIVE RDMA ports, interfaces that are up) status 1"
same "template: tcp with MPICH refused" "$(lines template FABPERF_RAILS=eth0 MPI_FLAVOR=mpich)" \
    "rails: the tcp stack selects Open MPI's TCP BTL (MPI_FLAVOR openmpi or srun); with mpich use FABPERF_RAIL_STACK=ucx or ofi status 1"
same "template: tcp with srun passes the flavour check" \
    "$(lines template FABPERF_RAILS=eth0 MPI_FLAVOR=srun FABPERF_RAIL_NODES=a)" \
    "rails: two nodes or more needed (nodes: a; FABPERF_RAIL_NODES or the allocation) status 1"
same "template: one node" "$(lines template FABPERF_RAILS=eth0 FABPERF_RAIL_NODES=a)" \
    "rails: two nodes or more needed (nodes: a; FABPERF_RAIL_NODES or the allocation) status 1"
same "template: FABPERF_RAIL_CROSS is 0 or 1" "$(lines template FABPERF_RAILS=eth0 FABPERF_RAIL_CROSS=yes)" \
    "rails: FABPERF_RAIL_CROSS='yes' is not 0 or 1 status 1"
same "template: FABPERF_RAIL_CROSS_PAIRS is a whole number" "$(lines template FABPERF_RAILS=eth0 FABPERF_RAIL_CROSS=1 FABPERF_RAIL_CROSS_PAIRS=0)" \
    "rails: FABPERF_RAIL_CROSS_PAIRS='0' is not a whole number from 1 to 999999 status 1"
same "template: cross-rail pairs, a sweep does not" \
    "$(lines template FABPERF_RAILS=eth0 FABPERF_RAIL_CROSS=1 FABPERF_RAIL_SWEEP=fabperf_allpairs)" \
    "rails: FABPERF_RAIL_CROSS=1 pairs nodes; FABPERF_RAIL_SWEEP sweeps them: give one or the other status 1"
same "template: nothing launched" "$([[ -e $fake/never ]] && echo exists)" ""

echo "$checks checks"
if [[ $fail -eq 0 ]]; then
    echo "PASS: rail selection"
    exit 0
fi
exit 1
