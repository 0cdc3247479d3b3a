#!/bin/sh
# The fabperf package of the tools (tools/fabperf): exact results of its size, bit-rate and
# --expect parsers and of its JSON Lines reader (tests/tools/test_results.py).
#
# Environment: FABPERF_TESTS_DIR [tests], PYTHON3 [python3]. Exit status: 0 pass, 1 failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tests=${FABPERF_TESTS_DIR:-$here/..}
exec "${PYTHON3:-python3}" "$tests/tools/test_results.py" "$tests/../tools"
