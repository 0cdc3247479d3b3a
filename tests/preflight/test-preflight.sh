#!/bin/sh
# fabperf_preflight against this machine and against sysfs/proc trees kept as test data: each rank
# reads its own tree (--sysfs-root DIR/%r), so a two-rank job here is two different nodes.
# shellcheck source=../lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
: "${FABPERF_PREFLIGHT:?run through make check}"
data=$work/data
sh "$FABPERF_TESTS_DIR/data/sysfs/prepare.sh" "$data" || { echo "not ok - test data trees"; exit 1; }

# preflight NP [ARGS...]: runs the program; output in $work/out, $work/err; sets $rc.
preflight() {
    pf_np=$1
    shift
    timeout 120 "$FABPERF_LAUNCH" "$pf_np" sm "$FABPERF_PREFLIGHT" "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

# node NAME [FROM]: a copy of test node FROM (default nodeA) under $work/NAME, with host name NAME.
node() {
    rm -rf "${work:?}/$1"
    cp -a "$data/${2:-nodeA}" "$work/$1"
    echo "$1" >"$work/$1/proc/sys/kernel/hostname"
}

# pair A B: ranks 0 and 1 read nodes A and B; then runs preflight in JSON.
pair() {
    rm -f "$work/r0" "$work/r1"
    ln -s "$work/$1" "$work/r0"
    ln -s "$work/$2" "$work/r1"
    preflight 2 --format json --sysfs-root "$work/r%r/sys" --proc-root "$work/r%r/proc"
}

# findings LEVEL NODE DEVICE WORD: exactly the findings of that level name that node and device,
# with WORD in the message, and there is at least one.
findings_only() {
    json_check "$work/out" "[f for f in records if f['type'] == 'finding' and f['level'] == '$1'] and \
all(f['node'] == '$2' and f['device'] == '$3' and '$4' in f['message'] \
    for f in records if f['type'] == 'finding' and f['level'] == '$1')"
}

# fact DEVICE FACT VALUE: every node reports that value.
fact_is() {
    json_check "$work/out" "[r['values'] for r in records if r['type'] == 'fact' and r['device'] == '$1' \
and r['fact'] == '$2'] == [[\"$3\"] * len(meta['nodes'])]"
}

# This machine, as it is (NCCL_NET_PLUGIN names a plugin that is nowhere).
NCCL_NET_PLUGIN=nosuch preflight 1 --format json
check "this machine: exit 0 (no RDMA, so no failure applies)" rc_is 0
check "this machine: JSON Lines, meta first, end last, verdict pass" \
    json_check "$work/out" "meta and end and end['result'] == 'pass' and end['failures'] == 0"
if [ -r /sys/class/net/lo/mtu ]; then
    check "this machine: lo MTU as sysfs says" fact_is lo mtu "$(cat /sys/class/net/lo/mtu)"
fi
# shellcheck disable=SC3045 # dash and bash both have ulimit -l
limit=$(ulimit -l)
[ "$limit" = unlimited ] || limit="$((limit * 1024)) bytes"
check "this machine: memlock is the shell's ulimit -l" fact_is node memlock "$limit"
check "this machine: libfabric providers through fi_getinfo include tcp (or not built)" json_check "$work/out" \
    "[r['values'][0].startswith('not built') or 'tcp' in r['values'][0].replace(';', ' ').split() \
for r in records if r.get('fact') == 'libfabric providers'] == [True]"
check "this machine: UCX transports through UCT include tcp on lo (or not built)" json_check "$work/out" \
    "[r['values'][0].startswith('not built') or 'tcp/lo' in r['values'][0].split() \
for r in records if r.get('fact') == 'ucx transports'] == [True]"
if [ "${FABPERF_NCCL_BUILT:-}" = yes ]; then nccl_expect="__import__('re').fullmatch(r'\d+\.\d+\.\d+', v)"
else nccl_expect="v == 'not built (configure --with-cuda --with-nccl)'"; fi
check "this machine: NCCL version from ncclGetVersion (or not built)" json_check "$work/out" \
    "[bool($nccl_expect) for r in records if r.get('fact') == 'nccl' for v in r['values']] == [True]"
check "this machine: NCCL_NET_PLUGIN=nosuch is looked for as libnccl-net-nosuch.so" json_check "$work/out" \
    "[r['values'][0].startswith('libnccl-net-nosuch.so not found') for r in records if r.get('fact') == 'nccl net plugin'] \
== [True]"
ls /sys/class/infiniband >/dev/null 2>&1 || check "this machine: no RDMA port" fact_is node "rdma ports" none

# Two nodes alike: pass, nothing to say.
node nodeA
node nodeB
pair nodeA nodeB
check "clean pair: exit 0" rc_is 0
check "clean pair: no finding" json_check "$work/out" "end['result'] == 'pass' and end['warnings'] == 0 and \
not [r for r in records if r['type'] == 'finding'] and meta['nodes'] == ['nodeA', 'nodeB']"
check "clean pair: the GPU's path to its switch-mate NIC is PIX, to another socket's SYS" \
    json_check "$work/out" "[r['values'][0] for r in records if r['type'] == 'fact' and r['device'] == 'gpu0' \
and r['fact'].startswith('path to')] == ['SYS', 'PHB', 'PIX', 'SYS']"
check "clean pair: RDMA rate read" fact_is mlx5_0:1 rate "200 Gb/sec (4X HDR)"
check "clean pair: RDMA link layer" fact_is mlx5_1:1 "link layer" Ethernet
check "clean pair: RDMA firmware" fact_is mlx5_1:1 firmware 28.39.1002
check "clean pair: RoCE port's netdev" fact_is mlx5_1:1 netdev ens1f0
check "clean pair: GPU model from the driver" fact_is gpu0 model "NVIDIA H200"
check "clean pair: huge pages counted, with their size apart" fact_is node "huge pages" "0 (2048 kB each)"
check "clean pair: lo is virtual, so it has no speed" fact_is lo speed "none (virtual)"
check "clean pair: each rank's GPU is its local rank modulo the GPUs" json_check "$work/out" \
    "[r['values'] for r in records if r.get('fact') == 'gpu of local rank'] == [['rank %d -> gpu0 (0000:03:00.0), \
nearest NIC mlx5_0:1' % i for i in (0, 1)]]"

check "clean pair: error counters the tree lacks are said absent, never read as 0" fact_is mlx5_0:1 "link errors" \
    "no error counters"

# Link errors: nodeL's mlx5_0 port 1 went down 3 times with 12000 symbol errors, its ens1f0 counted
# 50 CRC errors and 4 carrier changes; nodeK's counters exist, all 0 but 2 transmit discards.
# nodeA's tree has no error counter files: said absent.
node nodeK
node nodeL
for n in nodeK nodeL; do
    counters=$work/$n/sys/class/infiniband/mlx5_0/ports/1/counters
    for c in symbol_error link_error_recovery link_downed port_rcv_errors port_rcv_remote_physical_errors \
        port_xmit_discards excessive_buffer_overrun_errors local_link_integrity_errors; do
        echo 0 >"$counters/$c"
    done
    for c in rx_crc_errors rx_frame_errors rx_errors tx_errors; do
        echo 0 >"$work/$n/sys/class/net/ens1f0/statistics/$c"
    done
    echo 1 >"$work/$n/sys/class/net/ens1f0/carrier_changes"
done
echo 2 >"$work/nodeK/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_discards"
echo 0 >"$work/nodeK/sys/class/net/ens1f0/carrier_changes"
echo 3 >"$work/nodeL/sys/class/infiniband/mlx5_0/ports/1/counters/link_downed"
echo 12000 >"$work/nodeL/sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error"
echo 50 >"$work/nodeL/sys/class/net/ens1f0/statistics/rx_crc_errors"
echo 4 >"$work/nodeL/sys/class/net/ens1f0/carrier_changes"
pair nodeK nodeL
check "link errors: exit 0 (warnings)" rc_is 0
check "link errors: nodeL's two NICs warned, with each counter and its threshold; nodeK's 2 discards below it" \
    json_check "$work/out" "sorted((f['level'], f['node'], f['device'], f['message'][:f['message'].index(';')]) \
for f in records if f['type'] == 'finding') == [('warn', 'nodeL', 'ens1f0', \
'link errors since the counters were cleared: CRC errors 50 (warn at 1)'), ('warn', 'nodeL', 'mlx5_0:1', \
'link errors since the counters were cleared: symbol errors 12000 (warn at 10), link downed 3 (warn at 1)')]"
check "link errors: the facts per node (the nonzero counters listed, all at 0 said)" json_check "$work/out" \
    "sorted((r['device'], r['values']) for r in records if r.get('fact') == 'link errors') == \
[('ens1f0', ['none (5 counters at 0)', 'CRC errors 50, carrier changes 4']), ('eth0', ['no error counters'] * 2), \
 ('mlx5_0:1', ['transmit discards 2', 'symbol errors 12000, link downed 3']), ('mlx5_1:1', ['no error counters'] * 2)]"

# One node's port at half rate: that node is named, exit 1.
node nodeC
echo "100 Gb/sec (4X EDR)" >"$work/nodeC/sys/class/infiniband/mlx5_0/ports/1/rate"
pair nodeA nodeC
check "rate differs: exit 1" rc_is 1
check "rate differs: one failure, on nodeC's mlx5_0:1, about its rate" findings_only fail nodeC mlx5_0:1 rate
check "rate differs: the row is marked" json_check "$work/out" \
    "[r['differs'] for r in records if r['type'] == 'fact' and r['fact'] == 'rate' and r['device'] == 'mlx5_0:1'] == [True]"
rm -f "$work/r0" "$work/r1"
ln -s "$work/nodeC" "$work/r0"
ln -s "$work/nodeA" "$work/r1"
preflight 2 --sysfs-root "$work/r%r/sys" --proc-root "$work/r%r/proc"
check "rate differs, slow node as rank 0, text: one FAIL line naming nodeC, mlx5_0:1 and the fix" \
    sh -c "[ \$(grep -c '^FAIL' '$work/out') -eq 1 ] && grep -q '^FAIL nodeC mlx5_0:1: rate .*fix: ' '$work/out'"
check "rate differs, text: the rate row, and only rows of that port, marked <- differs" sh -c \
    "grep '<- differs' '$work/out' | grep -q '^mlx5_0:1  *rate  *100 Gb/sec (4X EDR)  *200 Gb/sec (4X HDR)' && \
! grep '<- differs' '$work/out' | grep -v -q -e '^mlx5_0:1 ' -e '^node  *gpu of local rank '"

# Three faulty nodes beside a good one, in one job (a failing job costs mpirun seconds):
# nodeD: GPU and RDMA but no nvidia_peermem; nodeE: locked memory limited to 64 KiB and a port
# down; nodeF: GPU link at half width (a failure), half speed and one CPU's governor powersave
# (warnings).
node nodeD
rm -r "$work/nodeD/sys/module/nvidia_peermem"
grep -v '^nvidia_peermem ' "$data/nodeA/proc/modules" >"$work/nodeD/proc/modules"
node nodeE
sed -i 's/unlimited            unlimited/65536                65536    /' "$work/nodeE/proc/self/limits"
echo "1: DOWN" >"$work/nodeE/sys/class/infiniband/mlx5_1/ports/1/state"
echo "2: Polling" >"$work/nodeE/sys/class/infiniband/mlx5_1/ports/1/phys_state"
node nodeF
gpu_dir=$work/nodeF/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0
echo 8 >"$gpu_dir/current_link_width"
echo "16.0 GT/s PCIe" >"$gpu_dir/current_link_speed"
echo powersave >"$work/nodeF/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
rm -f "$work"/r[0-9]
for pair_rank in 0:nodeA 1:nodeD 2:nodeE 3:nodeF; do
    ln -s "$work/${pair_rank#*:}" "$work/r${pair_rank%%:*}"
done
preflight 4 --format json --sysfs-root "$work/r%r/sys" --proc-root "$work/r%r/proc"
check "faulty nodes: exit 1" rc_is 1
check "faulty nodes: failures exactly on nodeD (GPUDirect, module), nodeE (memlock, port), nodeF (gpu0)" \
    json_check "$work/out" "sorted((f['node'], f['device']) for f in records if f['type'] == 'finding' and \
f['level'] == 'fail') == [('nodeD', 'gpu'), ('nodeD', 'node'), ('nodeE', 'memlock')] + [('nodeE', 'mlx5_1:1')] * 4 \
+ [('nodeF', 'gpu0')]"
check "port down: state and physical state named, here and as differences" json_check "$work/out" \
    "sorted(f['message'][:f['message'].index(';')] for f in records if f['type'] == 'finding' and \
f['device'] == 'mlx5_1:1') == sorted(['port state is DOWN, not ACTIVE', 'physical state is Polling, not LinkUp', \
\"state is 'DOWN' here but 'ACTIVE' on nodeA, nodeD, nodeF\", \"phys state is 'Polling' here but 'LinkUp' on nodeA, \
nodeD, nodeF\"])"
check "no nvidia_peermem: the finding names the fix" json_check "$work/out" \
    "[f['node'] for f in records if f['type'] == 'finding' and 'modprobe nvidia_peermem' in f['message'] \
and f['device'] == 'gpu'] == ['nodeD']"
check "low memlock: the finding gives the limit" json_check "$work/out" \
    "[f['message'].startswith('locked-memory limit is 65536 bytes') for f in records \
if f['type'] == 'finding' and f['device'] == 'memlock'] == [True]"
check "GPU link x8 of x16: the finding names the width" json_check "$work/out" \
    "[f['message'].startswith('PCIe link width x8 below its maximum x16') for f in records \
if f['type'] == 'finding' and f['device'] == 'gpu0' and f['level'] == 'fail'] == [True]"
check "governor powersave, link at half speed: warnings on nodeF, and no finding at all on nodeA" \
    json_check "$work/out" "[f['level'] for f in records if f['type'] == 'finding' and f['device'] == 'cpu'] == \
['warn'] and [f['message'][:21] for f in records if f.get('device') == 'gpu0' and f.get('level') == 'warn'] == \
['PCIe link speed 16.0 '] and not [f for f in records if f['type'] == 'finding' and f['node'] == 'nodeA']"
node nodeG
echo powersave >"$work/nodeG/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
echo 1 >"$work/nodeG/proc/sys/kernel/numa_balancing"
pair nodeA nodeG
check "governor and NUMA balancing: exit 0 (warnings only)" rc_is 0
check "governor and NUMA balancing: every warning names nodeG (the known good value wins a tie)" \
    json_check "$work/out" "sorted((f['level'], f['node'], f['device']) for f in records if f['type'] == 'finding') \
== [('warn', 'nodeG', 'cpu'), ('warn', 'nodeG', 'kernel'), ('warn', 'nodeG', 'node'), ('warn', 'nodeG', 'node')]"

# An interface without a device (bond, VLAN, veth) at another MTU on one node: a failure naming it.
for n in nodeH nodeI; do
    node "$n"
    mkdir -p "$work/$n/sys/class/net/bond0/statistics"
    echo up >"$work/$n/sys/class/net/bond0/operstate"
    echo 20000 >"$work/$n/sys/class/net/bond0/speed"
done
echo 9000 >"$work/nodeH/sys/class/net/bond0/mtu"
echo 1500 >"$work/nodeI/sys/class/net/bond0/mtu"
pair nodeI nodeH
check "virtual NIC's MTU differs: exit 1" rc_is 1
check "virtual NIC's MTU differs: one failure, on the odd node's bond0, about its MTU" findings_only fail nodeI bond0 mtu
check "virtual NIC: its nominal speed is no line rate" fact_is bond0 speed "none (virtual)"

# The GPU machine as seen from inside: numa_node -1, virtio NIC with speed -1, no RDMA.
preflight 1 --format json --sysfs-root "$data/vm/sys" --proc-root "$data/vm/proc"
check "GPU VM: exit 0" rc_is 0
check "GPU VM: NUMA node unknown" fact_is gpu0 "numa node" "unknown (-1)"
check "GPU VM: PCIe link now and at most" json_check "$work/out" "[r['values'] for r in records \
if r.get('device') == 'gpu0' and r.get('fact') in ('pcie link', 'pcie max')] == [['32.0 GT/s PCIe x16']] * 2"
check "GPU VM: eth0 speed unknown" fact_is eth0 speed unknown
check "GPU VM: no driver, so the model is the PCI id" fact_is gpu0 model "NVIDIA device 0x2335 (name unknown: driver not loaded)"
check "GPU VM: GPU to eth0 is PHB (same host bridge)" fact_is gpu0 "path to eth0" PHB
check "GPU VM: rank 0 takes gpu0, its nearest NIC said to be virtio" fact_is node "gpu of local rank" \
    "rank 0 -> gpu0 (0000:00:06.0), nearest NIC eth0 (virtio: a paravirtual NIC of the hypervisor, not a fabric NIC)"

# %h: per-host roots.
mkdir -p "$work/hosts"
ln -s "$work/nodeB" "$work/hosts/$(hostname)"
preflight 2 --format json --sysfs-root "$work/hosts/%h/sys" --proc-root "$work/hosts/%h/proc"
check "%h: the host's own tree is read" json_check "$work/out" "meta['nodes'] == ['nodeB', 'nodeB']"
preflight 2 --sysfs-root "$work/hosts/%h/sys" --proc-root "$work/hosts/%h/proc"
check "two ranks on one node, text: the header says so" grep -q '^# fabperf_preflight .*: 1 node(s), 2 ranks each$' "$work/out"
preflight 2 --format json --sysfs-root "$work/hosts/%h/sys" --proc-root "$work/hosts/%h/proc"
check "two ranks on one node: a warning, exit 0" json_check "$work/out" "end['result'] == 'pass' and \
[(f['level'], f['node']) for f in records if f['type'] == 'finding' and 'two ranks on one node' in f['message']] \
== [('warn', 'nodeB')]"

# --output: the report goes to the file, nothing to standard output.
preflight 1 --format json --output "$work/report.jsonl" --sysfs-root "$data/vm/sys" --proc-root "$data/vm/proc"
check "--output: exit 0, empty stdout" sh -c "[ $rc -eq 0 ] && [ ! -s '$work/out' ]"
check "--output: the file holds the report" json_check "$work/report.jsonl" "meta and end and end['result'] == 'pass'"

# Bad usage: one line from rank 0 naming the option and what it accepts, exit 2 on every rank.
preflight 2 --format xml
check "--format xml: exit 2" rc_is 2
check "--format xml: one line naming the option and the accepted values" sh -c \
    "[ \$(grep -c '^fabperf_preflight: ' '$work/err') -eq 1 ] && grep -q -- \"--format: 'xml' is not a format (accepted: text, json)\" '$work/err'"
preflight 2 --sysfs-root "$work/none-%r"
check "--sysfs-root missing: exit 2, one line naming the option" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_preflight: ' '$work/err') -eq 1 ] && grep -q -- '--sysfs-root: .*none-0.* is not a directory' '$work/err'"
preflight 1 --speed
check "unknown option: exit 2, one line listing the options" sh -c \
    "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_preflight: ' '$work/err') -eq 1 ] && grep -q -- \"'--speed' is not an option (accepted: --format\" '$work/err'"
preflight 1 --help
check "--help: exit 0, every option listed" sh -c "[ $rc -eq 0 ] && grep -q -- '--sysfs-root DIR' '$work/out' && \
grep -q -- '--proc-root DIR' '$work/out' && grep -q -- '--output FILE' '$work/out' && grep -q -- '--health-check' '$work/out' && \
grep -q -- '--drain' '$work/out' && grep -q 'Exit status' '$work/out'"

# --health-check: one node, no MPI (run directly, as Slurm runs a HealthCheckProgram): silent and 0
# on a healthy tree; on nodeE's (memlock 64 KiB, mlx5_1 port down and polling) one line per failure
# on stderr, exit 1; --drain calls scontrol (here a stand-in on PATH that records its arguments).
health() {
    "$FABPERF_PREFLIGHT" --health-check "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}
health --sysfs-root "$work/nodeA/sys" --proc-root "$work/nodeA/proc"
check "--health-check, healthy node: exit 0, nothing printed" sh -c "[ $rc -eq 0 ] && [ ! -s '$work/out' ] && [ ! -s '$work/err' ]"
health --sysfs-root "$work/nodeE/sys" --proc-root "$work/nodeE/proc"
check "--health-check, nodeE: exit 1, its three local failures, one line each, nothing on stdout" sh -c \
    "[ $rc -eq 1 ] && [ ! -s '$work/out' ] && [ \$(grep -c '^fabperf_preflight: nodeE: ' '$work/err') -eq 3 ] && [ \$(wc -l <'$work/err') -eq 3 ] && grep -q '^fabperf_preflight: nodeE: memlock: locked-memory limit is 65536 bytes' '$work/err' && grep -q '^fabperf_preflight: nodeE: mlx5_1:1: port state is DOWN' '$work/err'"
mkdir -p "$work/bin"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\n' "$work/scontrol.args" >"$work/bin/scontrol"
chmod +x "$work/bin/scontrol"
SLURMD_NODENAME=n7 PATH="$work/bin:$PATH" health --drain --sysfs-root "$work/nodeE/sys" --proc-root "$work/nodeE/proc"
check "--health-check --drain: scontrol update NodeName=\$SLURMD_NODENAME State=DRAIN, the first failure and the count" sh -c \
    "[ $rc -eq 1 ] && [ \"\$(sed -n 1,4p '$work/scontrol.args' | tr '\\n' '|')\" = 'update|NodeName=n7|State=DRAIN|Reason=fabperf_preflight: mlx5_1:1: port state is DOWN, not ACTIVE; fix: check the cable and that a subnet manager runs (ibstat mlx5_1 1) (+2 more)|' ]"
rm -f "$work/scontrol.args"
PATH="$work/bin:$PATH" health --drain --sysfs-root "$work/nodeA/sys" --proc-root "$work/nodeA/proc"
check "--health-check --drain, healthy node: exit 0, scontrol not run" sh -c "[ $rc -eq 0 ] && [ ! -e '$work/scontrol.args' ]"
printf '#!/bin/sh\nexit 1\n' >"$work/bin/scontrol"
PATH="$work/bin:$PATH" health --drain --sysfs-root "$work/nodeE/sys" --proc-root "$work/nodeE/proc"
check "--health-check --drain, scontrol failing: exit 1, said" sh -c \
    "[ $rc -eq 1 ] && grep -q '^fabperf_preflight: --drain: scontrol update NodeName=.* State=DRAIN failed (exit 1)' '$work/err'"
"$FABPERF_PREFLIGHT" --drain </dev/null >"$work/out" 2>"$work/err"
rc=$?
check "--drain without --health-check: exit 2, one line" sh -c \
    "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '--drain: drains the node a health check finds failing; give --health-check too' '$work/err'"
health --format json
check "--health-check --format json: exit 2, one line" sh -c \
    "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '--health-check: prints only its failures' '$work/err'"
health --sysfs-root "$work/no-such-dir"
check "--health-check, a missing root: exit 2, one line" sh -c \
    "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '--sysfs-root: .*no-such-dir.* is not a directory' '$work/err'"
finish
