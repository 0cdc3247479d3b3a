#!/bin/sh
# --layout osu against OSU Micro-Benchmarks 7.4's own output: tests/golden/osu-7.4/ holds what
# osu_latency, osu_bw, osu_bibw, osu_mbw_mr and the blocking collectives printed (Open MPI 4.1,
# 2 ranks, shared memory, -m 1:64 -i 10 -x 2, numbers and all). Each fabperf program runs over the
# same sizes on 2 ranks, and osu_layout.py holds its text to the golden's: the heading byte for
# byte, every row's fields ending at OSU's columns with OSU's decimals, the same sizes, and nothing
# but comments besides (the all-pairs sweeps against osu_bw's and osu_latency's, whose rows theirs
# mirror). The collectives' elements are 4-byte floats, so their rows start at 4 where OSU's
# MPI_CHAR rows start at 1; allgather's, reduce_scatter's and alltoall's sizes are of the whole
# buffer (nccl-tests'), one float per rank at least, so theirs start at 8 on 2 ranks.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
golden=$FABPERF_TESTS_DIR/golden/osu-7.4

# layout_is GOLDEN [MIN_SIZE]: $work/out is laid out as OSU 7.4's output in GOLDEN.
layout_is() {
    "$PYTHON3" "$FABPERF_TESTS_DIR/compat/osu_layout.py" "$golden/$1" "$work/out" "${2:-0}"
}

# The program, its family's folder, OSU's program it stands for, and the smallest size.
while read -r program bin osu min; do
    case $bin in
    pt2pt) FABPERF_BIN=$FABPERF_PT2PT_BIN ;;
    coll) FABPERF_BIN=$FABPERF_COLL_BIN ;;
    pairs) FABPERF_BIN=$FABPERF_PAIRS_BIN ;;
    esac
    run_job 2 sm "$program" --layout osu -m "$min:64" -i 10 -x 2
    check "$program --layout osu -m $min:64 on 2 ranks: exit 0" rc_is 0
    check "$program --layout osu: $osu 7.4's heading, rows and comment lines" layout_is "$osu.txt" "$min"
done <<'TABLE'
fabperf_latency pt2pt osu_latency 1
fabperf_bw pt2pt osu_bw 1
fabperf_bibw pt2pt osu_bibw 1
fabperf_mbw_mr pairs osu_mbw_mr 1
fabperf_allpairs pairs osu_bw 1
fabperf_allpairs_lat pairs osu_latency 1
fabperf_allreduce coll osu_allreduce 4
fabperf_allgather coll osu_allgather 8
fabperf_reduce_scatter coll osu_reduce_scatter 8
fabperf_bcast coll osu_bcast 4
fabperf_reduce coll osu_reduce 4
fabperf_alltoall coll osu_alltoall 8
TABLE
finish
