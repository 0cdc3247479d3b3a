#!/bin/bash
# Runs scripts/slurm/libfabric.sbatch, ucx.sbatch and rails.sbatch with "sbatch -N 2" on a
# throw-away two-node Slurm cluster (slurm-cluster.sh) and checks the JSON.
#
# Environment: FABPERF_BIN  directory with fabperf_latency, fabperf_bw, fabperf_bibw
#              (built with Open MPI); FABPERF_TEST_ARGS program arguments
#              [-m 1:4K -i 5 -x 1]; FABPERF_TEST_KEEP=1 keeps the work folder.
# Exit status: 0 pass, 1 fail, 77 skip (automake convention).

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
programs=(fabperf_latency fabperf_bw fabperf_bibw)

if [[ ${FABPERF_MPI_FLAVOR:-openmpi} != openmpi ]]; then
    echo "SKIP: runs Open MPI's mpirun; this build uses ${FABPERF_MPI_FLAVOR}"
    exit 77
fi
if [[ -z ${FABPERF_BIN:-} ]]; then
    echo "SKIP: FABPERF_BIN (directory of the fabperf programs) not set"
    exit 77
fi
FABPERF_BIN=$(cd "$FABPERF_BIN" 2>/dev/null && pwd) || { echo "FAIL: no directory $FABPERF_BIN"; exit 1; }
for p in "${programs[@]}"; do
    if [[ ! -x $FABPERF_BIN/$p ]]; then
        echo "SKIP: $FABPERF_BIN/$p not built"
        exit 77
    fi
done
for p in mpirun fi_info ucx_info python3; do
    command -v "$p" >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
done

# shellcheck source=tests/launchers/slurm-test.sh
. "$here/slurm-test.sh"
slurm_test_work slurm-test
slurm_test_up

# run TEMPLATE: sbatch -N 2 --wait, prints the run folder
run_template() {
    local t=$1 jid
    jid=$(cd "$work" && FABPERF_BIN=$FABPERF_BIN REPEATS=2 \
        FABPERF_ARGS=${FABPERF_TEST_ARGS:--m 1:4K -i 5 -x 1} \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout 600 sbatch --parsable --wait -N 2 --ntasks-per-node=1 \
        "$top/scripts/slurm/$t.sbatch")
    local rc=$?
    jid=${jid%%;*}
    echo "$work/fabperf-$t-$jid"
    sed 's/^/    /' "$work/fabperf-$t-$jid.out" >&2
    return "$rc"
}

# expect DIR LABEL VAR=VAL: REPEATS x programs files, all valid
expect_runs() {
    local dir=$1 label=$2 env=$3 r p f
    for r in 1 2; do
        for p in "${programs[@]}"; do
            f=$dir/$label.$r.$p.json
            if [[ ! -f $f ]]; then
                failed "missing $f"
                continue
            fi
            python3 "$here/check-json.py" --label "$label" --env "$env" --ranks 2 "$f" ||
                failed "$f does not check"
        done
    done
}

# expect_skip DIR LABEL: skipped with a reason, no result files
expect_skip() {
    grep -q "^$2: .*not available" "$1/skipped.txt" || failed "$2 not reported as skipped in $1/skipped.txt"
    compgen -G "$1/$2.*.json" >/dev/null && failed "$2 has result files although skipped"
}

dir=$(run_template libfabric) || failed "libfabric.sbatch job failed"
expect_runs "$dir" tcp "FI_PROVIDER=tcp"
expect_runs "$dir" tcp-rxm "FI_PROVIDER=tcp;ofi_rxm"
if fi_info -p 'verbs;ofi_rxm' >/dev/null 2>&1; then
    expect_runs "$dir" verbs-rxm "FI_PROVIDER=verbs;ofi_rxm"
else
    expect_skip "$dir" verbs-rxm
fi

# The preflight step: its JSON and exit status kept in the run folder.
if [[ ! -s $dir/preflight.json ]] || ! grep -q '"type"' "$dir/preflight.json"; then
    failed "no preflight.json in $dir"
fi
[[ $(cat "$dir/preflight.status" 2>/dev/null) =~ ^[0-9]+$ ]] || failed "no preflight exit status in $dir"
# A failing preflight (bad usage here: exit 2) stops the matrix with FABPERF_PREFLIGHT_STOP=1 ...
dir=$(FABPERF_PREFLIGHT_STOP=1 FABPERF_PREFLIGHT_ARGS=--no-such-option FABPERF_ONLY='^tcp$' run_template libfabric) &&
    failed "a failing preflight with FABPERF_PREFLIGHT_STOP=1 did not fail the job"
[[ $(cat "$dir/preflight.status") == 2 ]] || failed "preflight status is not 2 in $dir"
compgen -G "$dir/*.fabperf_*.json" >/dev/null && failed "the matrix ran after a failing preflight with FABPERF_PREFLIGHT_STOP=1"
# ... and is only recorded without it.
dir=$(FABPERF_PREFLIGHT_ARGS=--no-such-option FABPERF_ONLY='^tcp$' run_template libfabric) ||
    failed "a failing preflight without FABPERF_PREFLIGHT_STOP stopped the job"
[[ $(cat "$dir/preflight.status") == 2 ]] || failed "preflight status is not 2 in $dir"
expect_runs "$dir" tcp "FI_PROVIDER=tcp"

dir=$(FABPERF_ONLY='^(tcp|tcp-put-zcopy|shm|rc|dc)$' run_template ucx) || failed "ucx.sbatch job failed"
expect_runs "$dir" tcp "UCX_TLS=tcp,self"
expect_runs "$dir" tcp-put-zcopy "UCX_RNDV_SCHEME=put_zcopy"
expect_runs "$dir" shm "UCX_TLS=sm,self"
for t in rc dc; do
    if ! ucx_info -d | grep -qE "Transport: ${t}_"; then
        expect_skip "$dir" "$t"
    fi
done

# rails.sbatch: the TCP BTL on loopback (both test nodes are 127.0.0.1), the default programs, one
# pair; two launches each cannot call a rail slow, so the job ends 0 with its summary.
dir=$(FABPERF_RAILS=lo run_template rails) || failed "rails.sbatch job failed"
for r in 1 2; do
    for p in fabperf_bw fabperf_latency; do
        f=$dir/lo_n1-n2.$r.$p.json
        python3 "$here/check-json.py" --label lo@n1-n2 --env OMPI_MCA_btl_tcp_if_include=lo --ranks 2 "$f" ||
            failed "$f does not check"
    done
done
[[ $(cat "$dir/summary/rails.status" 2>/dev/null) == 0 ]] || failed "rails: summary status is not 0"
for p in fabperf_bw fabperf_latency; do
    grep -q "^# $p " "$dir/summary/rails.txt" || failed "rails: no $p table in summary/rails.txt"
done
[[ $(grep -Ec '^lo +OMPI_MCA_btl_tcp_if_include=lo +[0-9.]+ \[[0-9.]+, [0-9.]+\] x2( !)?$' "$dir/summary/rails.txt") -eq 2 ]] ||
    failed "rails: no cell of rail lo over 2 launches in summary/rails.txt"
[[ -s $dir/preflight.json ]] || failed "rails: no preflight.json"

if [[ $fail -eq 0 ]]; then
    echo "PASS: Slurm templates (libfabric, ucx, rails)"
    exit 0
fi
exit 1
