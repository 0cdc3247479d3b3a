#!/bin/sh
# latency, bw and bibw over shared memory, parsed and validated.
transport=sm
# shellcheck source=tests/mpi/pt2pt-common.sh
. "$FABPERF_TESTS_DIR/mpi/pt2pt-common.sh"
