#!/bin/sh
# The floors hold: no two files of the library call each other, directly or round a circle
# (tests/build/call_graph.py over this build's object files).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

"$PYTHON3" "$FABPERF_TESTS_DIR/build/call_graph.py" "$FABPERF_BUILD_DIR" >"$work/out" 2>&1
rc=$?
[ "$rc" -eq 77 ] && { cat "$work/out"; exit 77; }
check "no circle of calls between the library's files" sh -c "cat '$work/out'; [ $rc -eq 0 ]"
finish
