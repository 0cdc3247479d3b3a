#!/bin/sh
# The pairs family on GPU buffers, 2 ranks: D D (and M M) through a CUDA-aware MPI with every
# message validated, the matrix complete; through an MPI that is not CUDA-aware, the clear refusal
# and --staging. The NCCL backend: with one GPU, two ranks share it, which NCCL cannot do: the
# refusal (exit 2, one line naming the ranks, the GPU and the host) comes before NCCL starts; with
# two GPUs or more, grouped ncclSend/ncclRecv runs validated.
# Skips (77) in a build without CUDA or on a machine without a GPU.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_PAIRS_BIN:?run through make check}

if [ -z "${FABPERF_GPU_PROBE:-}" ]; then
    echo "SKIP: built without CUDA"
    exit 77
fi
probe=$("$FABPERF_GPU_PROBE") || { echo "SKIP: $probe"; exit 77; }
gpus=${probe%% *}
echo "$probe"

json_field() { # FILE KEY: a meta field
    "$PYTHON3" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])' "$1" "$2"
}
matrix_ok() { # NP MODE
    "$PYTHON3" "$FABPERF_TESTS_DIR/mpi/check_matrix.py" "$work/out" "$1" "$2"
}
# validated: exit 0 and every size of the -m 1:1M sweep Pass with no wrong byte.
validated() {
    rc_is 0 && json_check "$work/out" "[r['size'] for r in rows] == [1 << k for k in range(21)] and all(r['validation'] == 'pass' and r['wrong'] == 0 for r in rows) and end['status'] == 'complete'"
}
# on_gpu PLACEMENT: the header's buffers and a GPU named by its PCI bus id.
on_gpu() {
    [ "$(json_field "$work/out" buffers)" = "$1" ] && json_field "$work/out" gpu | grep -q PCI
}
# on_nccl: the header names NCCL's grouped sends and receives, and CUDA events time the samples.
on_nccl() {
    json_field "$work/out" backend | grep -q '^nccl .*grouped ncclSend/ncclRecv' &&
        [ "$(json_field "$work/out" timer)" = "CUDA events" ]
}
# refused_shared PROGRAM: exit 2, one line naming both ranks, the GPU and the host, before NCCL starts.
refused_shared() {
    [ "$rc" -eq 2 ] && [ "$(grep -c "^fabperf_$1:" "$work/err")" -eq 1 ] &&
        grep -Eq "^fabperf_$1: --backend nccl: ranks 0 and 1 share the GPU [0-9a-fA-F]+:[0-9a-fA-F]+:[0-9a-fA-F]+\.[0-9] on .+, and NCCL needs one GPU per rank" "$work/err" &&
        ! grep -q -e ncclCommInitRank -e 'NCCL WARN' "$work/err" "$work/out"
}

run_job 2 default fabperf_mbw_mr -m 1:1 -i 10 -x 1 --format json
aware=$(json_field "$work/out" cuda_aware)
echo "MPI CUDA-aware: $aware"

if [ "$aware" = no ]; then
    run_job 2 default fabperf_allpairs D D -m 1:1
    check "not CUDA-aware, allpairs D D: exit 2, one line naming the MPI and the ways out" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allpairs:' '$work/err') -eq 1 ] && grep -q 'this MPI is not CUDA-aware (.*); build one with scripts/build-cuda-aware-mpi.sh.*--staging' '$work/err'"
    set -- --staging
else
    set --
fi
for placement in "D D" "M M"; do
    # shellcheck disable=SC2086 # placement is two words
    run_job 2 default fabperf_mbw_mr $placement "$@" -m 1:1M -i 20 -x 2 -W 8 -c --format json
    check "mbw_mr $placement $*: exit 0, every size validated" validated
    check "mbw_mr $placement $*: buffers and GPU in the header" on_gpu "$placement"
    # shellcheck disable=SC2086
    run_job 2 default fabperf_allpairs $placement "$@" -m 1:1M -i 20 -x 2 -W 8 -c --format json
    check "allpairs $placement $*: exit 0, every size validated" validated
    # shellcheck disable=SC2086
    run_job 2 default fabperf_allpairs $placement "$@" -m 64K:64K -i 20 -x 2 -W 8 --mode isolated --format json
    check "allpairs $placement $* --mode isolated: matrix complete" matrix_ok 2 isolated
    # shellcheck disable=SC2086
    run_job 2 default fabperf_allpairs_lat $placement "$@" -m 1:1M -i 20 -x 2 -c --format json
    check "allpairs_lat $placement $*: exit 0, every size validated" validated
done

if [ "${FABPERF_NCCL_BUILT:-no}" != yes ]; then
    echo "no NCCL in this build: the NCCL backend's checks are left out"
    finish
fi
if [ "$gpus" -lt 2 ]; then
    for program in allpairs allpairs_lat mbw_mr; do
        run_job 2 default "fabperf_$program" --backend nccl -m 1:64K -i 10 -x 1
        check "$program --backend nccl, 2 ranks on 1 GPU: exit 2, one line naming ranks, GPU and host, no NCCL error" \
            refused_shared "$program"
    done
    finish
fi
for program in allpairs allpairs_lat mbw_mr; do
    run_job 2 default "fabperf_$program" --backend nccl -m 1:1M -i 20 -x 2 -c --format json
    check "$program --backend nccl on $gpus GPUs: exit 0, every size validated" validated
    check "$program --backend nccl: header names NCCL, CUDA events time the samples" on_nccl
done
run_job 2 default fabperf_allpairs --backend nccl -m 64K:64K -i 20 -x 2 --mode isolated --format json
check "allpairs --backend nccl --mode isolated: matrix complete" matrix_ok 2 isolated
finish
