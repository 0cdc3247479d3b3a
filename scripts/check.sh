#!/bin/sh
# Builds and tests everything: an Open MPI build (all tests, then make distcheck), an MPICH
# build (the tests that run fabperf's programs, under MPICH), those again under AddressSanitizer/UBSan,
# a minute of fuzzing of the option parsers, and shellcheck over every shell script.
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

# test_in NAME [TARGET]: make check (or TARGET) in build-NAME; the log joins the summary.
test_in() {
    name=$1
    target=${2:-check}
    echo "== tests: $name"
    (cd "build-$name" && make -j1 "$target" >check.log 2>&1) || status=1
    grep -E "^(PASS|FAIL|SKIP|ERROR|XPASS)" "build-$name/check.log"
    show_failures "build-$name"
    logs="$logs build-$name/test-suite.log"
}

# show_failures DIR: the first failed checks of each failed test in DIR, with what they printed
# before them (a check prints its evidence, then "not ok").
show_failures() {
    grep -E "^(FAIL|ERROR):" "$1/check.log" 2>/dev/null | while read -r _ test; do
        echo "   $test:"
        # a TAP check's "not ok", or a script's own "FAIL: why" line; else the log's end
        if grep -q -E "^(not ok|FAIL: )" "$1/${test%.sh}.log" 2>/dev/null; then
            grep -B8 -m2 -E "^(not ok|FAIL: )" "$1/${test%.sh}.log" | head -20
        else
            tail -n 12 "$1/${test%.sh}.log" 2>/dev/null
        fi | sed 's/^/     /'
    done
}

# Every shell script of the tree passes shellcheck. In a repository: the files git tracks or would
# track (not ignored), so editor and autoreconf backups (configure~) and build trees never count.
# A release tarball has no repository: find, without backups, build trees and what autoconf
# generates (configure, build-aux), which are not ours.
list_files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard
    else
        find . -type d \( -name .git -o -name 'build*' -o -name autom4te.cache -o -name 'fabperf-[0-9]*' \) \
            -prune -o -type f -print | sed 's|^\./||'
    fi
}
list_scripts() {
    list_files | while read -r f; do
        [ -f "$f" ] || continue
        case $f in
        *~ | configure | config.status) ;;
        *.sh | *.sh.in | *.sbatch | .ci/run) echo "$f" ;;
        *) head -c 64 "$f" 2>/dev/null | grep -q '^#!.*sh' && echo "$f" ;;
        esac
    done | sort -u
}
echo "== shellcheck"
if list_scripts | xargs shellcheck -x; then
    echo "PASS: shellcheck"
    shellcheck_pass=1 shellcheck_fail=0
else
    echo "FAIL: shellcheck"
    shellcheck_pass=0 shellcheck_fail=1
    status=1
fi

if build openmpi CC=mpicc; then
    test_in openmpi
fi
# Debian's mpicc.mpich warns falsely (-Wstringop-overflow) where MPI_STATUSES_IGNORE is passed.
if build mpich CC=mpicc.mpich; then
    test_in mpich check-c # the tests an MPI library can change (Makefile.am, MPI_LIBRARY_TESTS)
fi
# The tests that run fabperf's programs once more under ASan and UBSan; fails on any sanitizer report.
echo "== tests: sanitize (ASan, UBSan)"
rm -rf build-sanitize
mkdir build-sanitize
"$top/scripts/ci-sanitize.sh" build-sanitize CC=mpicc >build-sanitize/check.log 2>&1 || {
    echo "check.sh: sanitizer build failed or reported (build-sanitize/check.log)"
    tail -30 build-sanitize/check.log
    status=1
}
grep -E "^(PASS|FAIL|SKIP|ERROR|XPASS)" build-sanitize/check.log
show_failures build-sanitize
[ -f build-sanitize/test-suite.log ] && logs="$logs build-sanitize/test-suite.log"

# The option and size parsers under libFuzzer for a minute.
echo "== fuzz"
if "$top/tests/fuzz/run-fuzz.sh" "${FABPERF_FUZZ_SECONDS:-60}" build-fuzz >build-fuzz.log 2>&1; then
    echo "PASS: tests/fuzz/run-fuzz.sh ($(grep -o 'Done [0-9]* runs in [0-9]* second' build-fuzz.log))"
    fuzz_pass=1 fuzz_fail=0
else
    echo "FAIL: tests/fuzz/run-fuzz.sh (build-fuzz.log)"
    tail -30 build-fuzz.log
    fuzz_pass=0 fuzz_fail=1
    status=1
fi

# The distribution tarball builds and passes its own unit tests out of tree.
echo "== distcheck"
if (cd build-openmpi && make -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS="CC=mpicc" \
        TESTS="tests/unit/test_stats tests/unit/test_sizes tests/unit/test_options tests/unit/test_report tests/unit/test_collective" \
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
passed=$(($(sum PASS) + distcheck_pass + fuzz_pass + shellcheck_pass))
failed=$(($(sum FAIL) + $(sum ERROR) + $(sum XPASS) + distcheck_fail + fuzz_fail + shellcheck_fail))
skipped=$(sum SKIP)
[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
