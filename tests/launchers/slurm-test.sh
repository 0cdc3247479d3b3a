# shellcheck shell=bash
# What the Slurm tests share (sourced by bash tests): a work folder whose cluster is stopped and
# which is removed on exit (FABPERF_TEST_KEEP=1 keeps it), the cluster started (the test exits
# with slurm-cluster.sh's status, 77 when Slurm or munge cannot run here) and its SLURM_CONF
# exported, and the failure flag. Needs $here (the tests' folder); SLURM_CLUSTER_CONF_EXTRA, when
# set before slurm_test_up, adds slurm.conf lines (which may name files in $work).
# shellcheck disable=SC2034 # fail is read by the tests
fail=0

failed() {
    echo "FAIL: $*"
    # shellcheck disable=SC2034
    fail=1
}

# slurm_test_work NAME: the work folder, $work (fabperf-NAME.XXXXXX), readable by slurmd's jobs.
slurm_test_work() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-$1.XXXXXX") || exit 1
    chmod 0755 "$work"
    trap _slurm_test_cleanup EXIT
    trap 'exit 1' INT TERM
}

# slurm_test_up: the cluster in $work/cluster, its SLURM_CONF exported.
slurm_test_up() {
    "${here:?}/slurm-cluster.sh" start "$work/cluster"
    local rc=$?
    [[ $rc -eq 0 ]] || exit "$rc"
    eval "$("$here/slurm-cluster.sh" env "$work/cluster")"
}

# shellcheck disable=SC2317 # called from the trap
_slurm_test_cleanup() {
    "$here/slurm-cluster.sh" stop "$work/cluster"
    if [[ ${FABPERF_TEST_KEEP:-0} == 1 ]]; then
        echo "kept $work"
    else
        rm -rf "$work"
    fi
}
