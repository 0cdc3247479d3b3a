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

finish() {
    echo "$checks checks, $failures failed"
    [ "$failures" -eq 0 ]
    exit $?
}
