# shellcheck shell=sh
# Shared helpers of the MPI tests (sourced). Environment from the test harness:
# FABPERF_BIN (programs), FABPERF_LAUNCH (launcher wrapper), FABPERF_TESTS_DIR, PYTHON3.
set -u
: "${FABPERF_BIN:?run through make check}" "${FABPERF_LAUNCH:?}" "${FABPERF_TESTS_DIR:?}"
PYTHON3=${PYTHON3:-python3}
failures=0
checks=0
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run_job NP TRANSPORT PROGRAM [ARGS...]: runs a job with a hang guard; output in $work/out,
# $work/err; sets $rc.
run_job() {
    job_np=$1 job_transport=$2 job_program=$3
    shift 3
    timeout 300 "$FABPERF_LAUNCH" "$job_np" "$job_transport" "$FABPERF_BIN/$job_program" "$@" \
        >"$work/out" 2>"$work/err"
    rc=$?
}

# check DESCRIPTION COMMAND...: one assertion.
check() {
    description=$1
    shift
    checks=$((checks + 1))
    if "$@"; then
        echo "ok - $description"
    else
        echo "not ok - $description"
        failures=$((failures + 1))
    fi
}

check_output() {
    "$PYTHON3" "$FABPERF_TESTS_DIR/check_output.py" "$@"
}

rc_is() {
    [ "$rc" -eq "$1" ] || { echo "  exit code $rc, expected $1; stderr:"; sed 's/^/    /' "$work/err" | head -20; return 1; }
}

finish() {
    echo "$checks checks, $failures failed"
    [ "$failures" -eq 0 ]
    exit $?
}
