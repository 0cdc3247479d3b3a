#!/bin/bash
# Makes the golden run folder of the report tests by running the real programs through the
# sbatch templates' own launch code (scripts/slurm/common.sh, outside Slurm, Open MPI on one host):
#   shm            fabperf_latency 6 launches (between-launch CI needs 6), fabperf_bw 2 launches
#   tcp            fabperf_latency and fabperf_bw, 2 launches each
#   tcp-stalled    rank 1 stalls at 4 KiB (tests/faults/libfpcorrupt.so): the program's --timeout
#                  (1 s) ends the job; rows up to 2 KiB and an end line "cut short: ..."
#   bad-btl        a BTL that does not exist: MPI_Init fails, no result file
#   expect         fabperf_bw with --expect: pass up to 64 B, fail at 4 KiB (exit 3)
#   mixed-env      one launch whose two ranks see a different UCX_TLS (env_differs)
#   preflight.json this machine; preflight-testnodes.json three test-data nodes, two failing
# launches.tsv records every launch with its exit status; the logs keep the exact command with
# this build's paths replaced by BUILD.
#
# Usage: tests/report/make-golden.sh BUILD-DIR [OUT-DIR]
#   BUILD-DIR: a configured and built tree (make; make check builds the fault library)
#   OUT-DIR:   [tests/report/golden/run] (replaced)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: make-golden.sh BUILD-DIR [OUT-DIR]}
build=$(cd "$build" && pwd) || exit 2
golden=${2:-$here/golden/run}
fault_lib=$build/tests/faults/libfpcorrupt.so
[[ -r $fault_lib ]] || make -C "$build" tests/faults/libfpcorrupt.so >/dev/null || exit 1

rm -rf "$golden"
mkdir -p "$golden" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-golden.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# One template per program set: common.sh runs every configuration REPEATS times.
run_template() {
    local repeats=$1 programs=$2 matrix=$3 timeout=${4:-60} extra=${5:-}
    (
        export FABPERF_BIN=$build/pt2pt FABPERF_RUN_DIR=$work/run REPEATS=$repeats
        export FABPERF_ARGS="-m 1:4K -i 100 -x 10 --timeout $timeout$extra" FABPERF_TIMEOUT=120
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export MPIRUN_ARGS='--mca pml ob1 --mca oob_tcp_if_include lo --mca odls_base_sigkill_timeout 0'
        # shellcheck source=../../scripts/slurm/common.sh
        . "$here/../../scripts/slurm/common.sh"
        read -r -a FP_PROGRAMS <<<"$programs"
        mapfile -t FP_MATRIX <<<"$matrix"
        fp_check_config() { return 0; }
        fp_main
    ) >>"$work/job.out" 2>&1
    mkdir -p "$golden"
    cp "$work/run/"*.json "$work/run/"*.log "$golden/" 2>/dev/null
    tail -n +2 "$work/run/launches.tsv" >>"$work/launches.body"
    rm -rf "$work/run"
}

run_template 6 fabperf_latency 'shm|OMPI_MCA_btl=self,vader|'
run_template 2 fabperf_bw 'shm|OMPI_MCA_btl=self,vader|'
run_template 2 "fabperf_latency fabperf_bw" \
    'tcp|OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo|'
run_template 1 fabperf_latency \
    "tcp-stalled|OMPI_MCA_btl=self,tcp OMPI_MCA_btl_tcp_if_include=lo LD_PRELOAD=$fault_lib FP_STALL_SIZE=4096|" 1
run_template 1 fabperf_latency 'bad-btl|OMPI_MCA_btl=self,no-such-btl|'
# expect: thresholds met up to 64 B, one no link reaches at 4 KiB: exit 3, expect-failed(3)
run_template 2 fabperf_bw 'expect|OMPI_MCA_btl=self,vader|' 60 ' --expect bw>=0.001@1:64,bw>=1e12@4K'

# mixed-env: two ranks launched with a different UCX_TLS each (MPMD), so the meta line's
# env_differs is the program's own; outside the template, so its log is written here.
mixed_env() {
    local out=$work/run/mixed-env.1.fabperf_latency.json prog=$build/pt2pt/fabperf_latency
    local args=(--format json --output "$out" --label mixed-env -m 1:64 -i 100 -x 10 --timeout 60)
    local cmd=(mpirun --allow-run-as-root --bind-to none --mca pml ob1 --mca btl 'self,vader'
               --mca oob_tcp_if_include lo -np 1 -x UCX_TLS=tcp "$prog" "${args[@]}"
               : -np 1 -x UCX_TLS=sm "$prog" "${args[@]}")
    mkdir -p "$work/run"
    printf '# %s\n' "${cmd[*]}" >"$golden/mixed-env.1.fabperf_latency.log"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${cmd[@]}" \
        >>"$golden/mixed-env.1.fabperf_latency.log" 2>&1
    cp "$out" "$golden/"
    rm -rf "$work/run"
}
mixed_env

# Preflight: this machine as it is (one node), and three test-data nodes in one job
# (tests/data/sysfs; each rank reads its own tree): nodeE with a port down and locked memory
# limited, nodeF with its GPU's link at half width and a CPU governor powersave.
preflight_nodes() {
    local data=$work/data
    sh "$here/../data/sysfs/prepare.sh" "$data" || return 1
    for node in nodeA nodeE nodeF; do
        cp -a "$data/nodeA" "$work/$node"
        echo "$node" >"$work/$node/proc/sys/kernel/hostname"
    done
    sed -i 's/unlimited            unlimited/65536                65536    /' "$work/nodeE/proc/self/limits"
    echo "1: DOWN" >"$work/nodeE/sys/class/infiniband/mlx5_1/ports/1/state"
    echo "2: Polling" >"$work/nodeE/sys/class/infiniband/mlx5_1/ports/1/phys_state"
    local gpu_dir=$work/nodeF/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0
    echo 8 >"$gpu_dir/current_link_width"
    echo powersave >"$work/nodeF/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
    ln -s "$work/nodeA" "$work/r0"
    ln -s "$work/nodeE" "$work/r1"
    ln -s "$work/nodeF" "$work/r2"
    "$build/tests/launch.sh" 3 sm "$build/preflight/fabperf_preflight" --format json \
        --output "$golden/preflight-testnodes.json" --sysfs-root "$work/r%r/sys" --proc-root "$work/r%r/proc"
}
"$build/tests/launch.sh" 1 sm "$build/preflight/fabperf_preflight" --format json --output "$golden/preflight.json"
preflight_nodes >>"$work/job.out" 2>&1
[[ -s $golden/preflight.json && -s $golden/preflight-testnodes.json ]] || { cat "$work/job.out"; exit 1; }

{
    printf 'label\trepeat\tprogram\tstatus\tseconds\tfile\n'
    sort -t "$(printf '\t')" -k1,1 -k3,3 -k2,2n "$work/launches.body"
} >"$golden/launches.tsv"
# Paths of this build tree (the programs, the stall's preload) become BUILD, the run folder RUN.
sed -i -e "s|$build|BUILD|g" -e "s|$work/run|RUN|g" -e "s|$work|WORK|g" "$golden"/*.json "$golden"/*.log
echo "make-golden.sh: $(($(wc -l <"$golden/launches.tsv") - 1)) launches in $golden:"
cut -f 1-4 "$golden/launches.tsv" | column -t
