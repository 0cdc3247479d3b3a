#!/bin/sh
# latency, bw and bibw over TCP on loopback, parsed and validated.
transport=tcp
# Every fourth size up to 256K, 50 samples and 10 validated: 200 windows of 64 x 1M (13 GB) a
# size over MPICH's TCP took minutes on a loaded 2-core machine, near the jobs' 300 s hang guard.
factor=4 max_bytes=262144 iters=50 warmup=10 check_iters=10
# shellcheck source=tests/mpi/pt2pt-common.sh
. "$FABPERF_TESTS_DIR/mpi/pt2pt-common.sh"
