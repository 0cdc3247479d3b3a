#!/bin/sh
# The tests that run fabperf's programs (make check-sanitized: all but the tool-only ones and the
# sbatch templates' test) once more under AddressSanitizer and UndefinedBehaviorSanitizer.
# Usage: scripts/ci-sanitize.sh [BUILD-DIR] [CONFIGURE-ARGS...]   (default build-sanitize)
# Fails when make check fails or when any test log holds a sanitizer report. Leak detection is off:
# MPI libraries keep their allocations until exit by design.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-sanitize}
[ $# -gt 0 ] && shift
flags='-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1'

[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
mkdir -p "$build"
cd "$build"
# Set before make too: the man pages run each program's --help.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS
"$top/configure" CFLAGS="$flags" LDFLAGS="$flags" "$@"
make -j"$(nproc)"
status=0
make check-sanitized || status=$?

reports=$(grep -l -r -e 'ERROR: AddressSanitizer' -e 'runtime error:' -e 'ERROR: LeakSanitizer' \
    --include='*.log' . 2>/dev/null || true)
if [ -n "$reports" ]; then
    echo "ci-sanitize.sh: sanitizer reports in:" >&2
    echo "$reports" >&2
    for log in $reports; do
        grep -n -A12 -e 'ERROR: AddressSanitizer' -e 'runtime error:' "$log" | head -40 >&2
    done
    exit 1
fi
[ "$status" -eq 0 ] || { echo "ci-sanitize.sh: make check failed under the sanitizers" >&2; exit "$status"; }
echo "ci-sanitize.sh: make check passed under ASan and UBSan, no sanitizer report"
