#!/bin/bash
# Makes the golden run folder of the report tests by running the real programs through the
# sbatch templates' own launch code (scripts/slurm/common.sh, outside Slurm, Open MPI on one host):
#   shm            fabperf_latency 6 launches (between-launch CI needs 6), fabperf_bw 2 launches
#   tcp            fabperf_latency and fabperf_bw, 2 launches each
#   tcp-stalled    rank 1 stalls at 4 KiB (tests/faults/libfpcorrupt.so): the program's --timeout
#                  (1 s) ends the job; rows up to 2 KiB and an end line "cut short: ..."
#   bad-btl        a BTL that does not exist: MPI_Init fails, no result file
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
    local repeats=$1 programs=$2 matrix=$3 timeout=${4:-60}
    (
        export FABPERF_BIN=$build/pt2pt FABPERF_RUN_DIR=$work/run REPEATS=$repeats
        export FABPERF_ARGS="-m 1:4K -i 100 -x 10 --timeout $timeout" FABPERF_TIMEOUT=120
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

{
    printf 'label\trepeat\tprogram\tstatus\tseconds\tfile\n'
    sort -t "$(printf '\t')" -k1,1 -k3,3 -k2,2n "$work/launches.body"
} >"$golden/launches.tsv"
# Paths of this build tree (the programs, the stall's preload) become BUILD, the run folder RUN.
sed -i -e "s|$build|BUILD|g" -e "s|$work/run|RUN|g" "$golden"/*.json "$golden"/*.log
echo "make-golden.sh: $(($(wc -l <"$golden/launches.tsv") - 1)) launches in $golden:"
cut -f 1-4 "$golden/launches.tsv" | column -t
