# shellcheck shell=sh
# The assertion helpers every shell test shares (sourced): a work folder removed on exit, check
# (one assertion, "ok - ..." or "not ok - ..."), the exit-status and stderr assertions, finish.
# A test runs its command with stdout in $work/out, stderr in $work/err and the status in $rc.
set -u
PYTHON3=${PYTHON3:-python3}
failures=0
checks=0
work=$(mktemp -d "${TMPDIR:-/tmp}/fabperf-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
rc=0

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

rc_is() {
    [ "$rc" -eq "$1" ] || { echo "  exit code $rc, expected $1; stderr:"; sed 's/^/    /' "$work/err" | head -20; return 1; }
}

rc_not() {
    [ "$rc" -ne "$1" ] || { echo "  exit code $rc; stderr:"; sed 's/^/    /' "$work/err" | head -20; return 1; }
}

stderr_has() {
    grep -F -q -- "$1" "$work/err" || { echo "  stderr lacks '$1':"; sed 's/^/    /' "$work/err" | head -20; return 1; }
}

# one_error_line PROGRAM PATTERN: exactly one line on stderr, "PROGRAM: error: ...PATTERN", and
# nothing on stdout.
one_error_line() {
    if [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ] && grep -q "^$1: error: .*$2" "$work/err"; then
        return 0
    fi
    echo "  expected one error line matching '$2'; stderr:"
    sed 's/^/    /' "$work/err" | head -5
    return 1
}

# Lanes: parts of a test run side by side, each in the background with its own log and counts.
# lane_start NAME COMMAND...: runs COMMAND as lane NAME, its output in $work/NAME.log. Each lane has
# its own Open MPI session folder: launchers that share the default one race to create and remove
# it ("Error: File exists" from session_dir.c, seen once beside a second job).
lane_start() {
    lane_name=$1
    shift
    mkdir -p "$work/$lane_name.ompi"
    (
        # shellcheck disable=SC2030 # the lane's own: lane_done runs in this subshell
        lane_counts=$work/$lane_name.counts OMPI_MCA_orte_tmpdir_base=$work/$lane_name.ompi
        export OMPI_MCA_orte_tmpdir_base
        "$@"
    ) >"$work/$lane_name.log" 2>&1 &
}

# lane_done: a lane's last step, its counts left for lanes_add.
lane_done() {
    # shellcheck disable=SC2031 # set by lane_start in the subshell this runs in
    echo "$checks $failures" >"$lane_counts"
}

# lanes_add NAME...: once the lanes are waited for, each one's log printed and its counts added; a
# lane that did not reach lane_done is a failed check.
lanes_add() {
    for lane_name; do
        cat "$work/$lane_name.log"
        if read -r lane_checks lane_failures <"$work/$lane_name.counts"; then
            checks=$((checks + lane_checks)) failures=$((failures + lane_failures))
        else
            check "lane $lane_name ran to its end" false
        fi
    done
}

finish() {
    echo "$checks checks, $failures failed"
    [ "$failures" -eq 0 ]
    exit $?
}
