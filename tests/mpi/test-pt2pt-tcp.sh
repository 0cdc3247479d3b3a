#!/bin/sh
# latency, bw and bibw over TCP on loopback, parsed and validated.
transport=tcp
# shellcheck source=tests/mpi/pt2pt-common.sh
. "$FABPERF_TESTS_DIR/mpi/pt2pt-common.sh"
