#!/bin/bash
# fabperf_preflight as Slurm's HealthCheckProgram on the tests' throw-away two-node cluster
# (slurm-cluster.sh): slurmd runs a script every 2 s that runs `fabperf_preflight --health-check
# --drain` on a test node's sysfs/proc tree. Both nodes start healthy (idle); then node n1's tree
# becomes faulty (a port DOWN, locked memory limited): n1 is drained within a minute with the
# first failure as its reason, n2 stays idle.
# Exit status: 0 pass, 1 fail, 77 skip (automake convention).

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${FABPERF_PREFLIGHT:?run through make check}"
[[ -x $FABPERF_PREFLIGHT ]] || { echo "SKIP: $FABPERF_PREFLIGHT not built"; exit 77; }

# shellcheck source=tests/launchers/slurm-test.sh
. "$here/slurm-test.sh"
slurm_test_work slurm-health
sh "$top/tests/data/sysfs/prepare.sh" "$work/data" || { echo "FAIL: test data trees"; exit 1; }
cp -a "$work/data/nodeA" "$work/data/faulty"
sed -i 's/unlimited            unlimited/65536                65536    /' "$work/data/faulty/proc/self/limits"
echo "1: DOWN" >"$work/data/faulty/sys/class/infiniband/mlx5_1/ports/1/state"

# The node's tree: the faulty one for n1 once $work/fault exists. slurmd names the node it runs
# the check for in SLURMD_NODENAME; the script records it.
# SLURM_CONF: this cluster's configuration is not the default one scontrol would read.
cat >"$work/health.sh" <<SCRIPT
#!/bin/sh
echo "\$SLURMD_NODENAME" >>"$work/ran"
export SLURM_CONF="$work/cluster/slurm.conf"
exec 2>>"$work/health.err"
tree=nodeA
if [ "\$SLURMD_NODENAME" = n1 ] && [ -e "$work/fault" ]; then tree=faulty; fi
exec "$FABPERF_PREFLIGHT" --health-check --drain --sysfs-root "$work/data/\$tree/sys" --proc-root "$work/data/\$tree/proc"
SCRIPT
chmod 0755 "$work/health.sh"

export SLURM_CLUSTER_CONF_EXTRA="HealthCheckProgram=$work/health.sh
HealthCheckInterval=2"
slurm_test_up

state_of() { # NODE: its state and reason, as sinfo gives them
    sinfo -h -N -n "$1" -o '%T|%E' 2>/dev/null | head -1
}

[[ $(state_of n1) == idle* && $(state_of n2) == idle* ]] ||
    failed "healthy trees: n1 '$(state_of n1)', n2 '$(state_of n2)', expected idle"
if ! grep -qx n1 "$work/ran" 2>/dev/null || ! grep -qx n2 "$work/ran"; then
    failed "slurmd ran the script with SLURMD_NODENAME n1 and n2: $(sort -u "$work/ran" 2>/dev/null | tr '\n' ' ')"
fi
touch "$work/fault"
want="fabperf_preflight: mlx5_1:1: port state is DOWN, not ACTIVE"
for _ in $(seq 1 600); do # hang guard: 60 s
    case $(state_of n1) in drain*"$want"*) break ;; esac
    sleep 0.1
done
case $(state_of n1) in
drain*"$want"*) echo "ok: n1 drained: $(state_of n1)" ;;
*)
    failed "n1 after its tree turned faulty: '$(state_of n1)', expected drained with reason '$want ...'"
    echo "the check's standard error:"
    tail -5 "$work/health.err"
    echo "times run per node: $(sort "$work/ran" | uniq -c | tr '\n' ' ')"
    ;;
esac
[[ $(state_of n2) == idle* ]] || failed "n2 stays healthy: '$(state_of n2)', expected idle"
[[ $(state_of n1) == *"(+1 more)"* ]] || failed "n1's reason counts its other failure: '$(state_of n1)'"
[[ $fail -eq 0 ]] && echo "PASS: HealthCheckProgram drained the faulty node only"
exit "$fail"
