#!/bin/sh
# Builds and tests everything: an Open MPI build (all tests, then make distcheck), an MPICH
# build (the MPI tests under MPICH), and an AddressSanitizer/UBSan build (the core's tests).
# Ends with one line: "N passed, N failed, N skipped", summed from the test-suite logs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh" || exit 1
cd "$top" || exit 1
autoreconf -fi >/dev/null 2>&1 || { echo "check.sh: autoreconf failed" >&2; exit 1; }
status=0
logs=""
jobs=$(nproc)

# build NAME CONFIGURE-ARGS...: configures and builds in build-NAME.
build() {
    name=$1
    shift
    rm -rf "build-$name"
    mkdir "build-$name"
    (cd "build-$name" && ../configure -q "$@" && make -j"$jobs" >make.log 2>&1) ||
        { echo "check.sh: build $name failed (build-$name/make.log)"; status=1; return 1; }
    if grep -E "warning:" "build-$name/make.log" | grep -v -e "ar: " -e "Wstringop-overflow"; then
        echo "check.sh: build $name has compiler warnings"
        status=1
    fi
}

# test_in NAME [TESTS]: make check in build-NAME; the log joins the summary.
test_in() {
    name=$1
    shift
    echo "== tests: $name"
    (cd "build-$name" && make -j1 check "$@" >check.log 2>&1) || status=1
    grep -E "^(PASS|FAIL|SKIP|ERROR|XPASS)" "build-$name/check.log"
    logs="$logs build-$name/test-suite.log"
}

if build openmpi CC=mpicc; then
    test_in openmpi
fi
# Debian's mpicc.mpich warns falsely (-Wstringop-overflow) where MPI_STATUSES_IGNORE is passed.
if build mpich CC=mpicc.mpich; then
    test_in mpich
fi
if build sanitize CC=mpicc CFLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined" \
    LDFLAGS="-fsanitize=address,undefined"; then
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        test_in sanitize TESTS="tests/unit/test_stats tests/unit/test_sizes tests/unit/test_options tests/unit/test_report"
    if grep -l -e "ERROR: AddressSanitizer" -e "runtime error:" build-sanitize/tests/unit/*.log 2>/dev/null; then
        echo "check.sh: sanitizer reports above"
        status=1
    fi
fi

# The distribution tarball builds and passes its own unit tests out of tree.
echo "== distcheck"
if (cd build-openmpi && make distcheck DISTCHECK_CONFIGURE_FLAGS="CC=mpicc" \
        TESTS="tests/unit/test_stats tests/unit/test_sizes tests/unit/test_options tests/unit/test_report" \
        >distcheck.log 2>&1); then
    echo "PASS: make distcheck"
    distcheck_pass=1 distcheck_fail=0
else
    echo "FAIL: make distcheck (build-openmpi/distcheck.log)"
    distcheck_pass=0 distcheck_fail=1
    status=1
fi

sum() {
    # shellcheck disable=SC2086 # logs is a word list
    awk -v key="$1" '$1 == "#" && $2 == key ":" { n += $3 } END { print n + 0 }' $logs
}
passed=$(($(sum PASS) + distcheck_pass))
failed=$(($(sum FAIL) + $(sum ERROR) + $(sum XPASS) + distcheck_fail))
skipped=$(sum SKIP)
[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
