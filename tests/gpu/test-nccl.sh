#!/bin/sh
# Every collective on the NCCL backend with one rank on one GPU: validation on, nccl-tests
# layout parsed, busbw against the formula; half and bfloat16 allreduce; the NCCL version and
# environment in the header. Skips (77) without NCCL in the build or without a GPU.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_COLL_BIN:?run through make check}

if [ "${FABPERF_NCCL_BUILT:-no}" != yes ] || [ -z "${FABPERF_GPU_PROBE:-}" ]; then
    echo "SKIP: built without NCCL"
    exit 77
fi
"$FABPERF_GPU_PROBE" || exit 77

for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
    factor=0 root=-1 inplace=""
    case $program in bcast | reduce) factor=1 root=0 ;; esac
    [ "$program" = alltoall ] && inplace=--no-in-place
    run_job 1 default "fabperf_$program" --backend nccl -m 4:64M -f 16 -i 20 -x 5 -c
    check "nccl $program: exit 0" rc_is 0
    # shellcheck disable=SC2086 # inplace is empty or one word
    check "nccl $program: rows parse, #wrong 0, busbw = algbw x $factor" check_output text "$work/out" \
        --metric collective --min 4 --max 67108864 --factor 16 --unit 4 --busbw-factor "$factor" \
        --validated --type float --root "$root" $inplace
    check "nccl $program: header names NCCL and the GPU" sh -c \
        "grep -q '^# backend: nccl' '$work/out' && grep -q '^# gpu: .*PCI' '$work/out'"
done

# The transport NCCL chose, from its own log: one rank has no peer, so a network is assigned but no
# connection is made; on the GPU machine (no RDMA) the network is Socket and GPUDirect RDMA is off.
run_job 1 default fabperf_allreduce --backend nccl -m 8:1K -i 10 -x 2
check "nccl transport recorded from NCCL's log" grep -Eq \
    '^# backend: nccl .*; transport \(rank 0, from NCCL.s log\): network (Socket|IB) \(plugin: [^)]*\), GPUDirect RDMA (on|off), connections: 0 P2P, 0 SHM, 0 NET' \
    "$work/out"
grep '^# backend:' "$work/out"
check "no NCCL log left in TMPDIR" sh -c "! ls \"\${TMPDIR:-/tmp}\"/fabperf-nccl.*.log 2>/dev/null | grep -q ."
NCCL_DEBUG=WARN
export NCCL_DEBUG
run_job 1 default fabperf_allreduce --backend nccl -m 8:1K -i 10 -x 2
unset NCCL_DEBUG
check "NCCL_DEBUG of the user: transport unknown, said why" grep -q \
    'transport (rank 0, from NCCL.s log): unknown (NCCL_DEBUG set without NCCL_DEBUG_FILE' "$work/out"

for type in half bfloat16 double int32 int64; do
    run_job 1 default fabperf_allreduce --backend nccl -T "$type" -o max -m 8:1M -f 32 -i 20 -x 5 -c --format json
    check "nccl allreduce $type max: exit 0" rc_is 0
    check "nccl allreduce $type max: rows Pass" check_output json "$work/out" --metric collective \
        --min 8 --max 1048576 --factor 32 --unit 8 --busbw-factor 0 --validated
done
# CUDA events (the NCCL backend's timer) against MPI_Wtime around the same calls: from 1 MiB, where
# a launch's microseconds are a small part of a call, the two medians agree within 10%, and no
# bus bandwidth exceeds the card's copy ceiling.
ceiling=$("$FABPERF_GPU_PROBE" --copy-ceiling)
for timer in cuda wtime; do
    run_job 1 default fabperf_allreduce --backend nccl --timer "$timer" -m 1M:256M -f 4 -i 200 -x 20 --format json
    check "nccl allreduce --timer $timer: exit 0" rc_is 0
    cp "$work/out" "$work/$timer.json"
done
check "nccl allreduce: CUDA events and MPI_Wtime medians within 10% at every size from 1 MiB" "$PYTHON3" -c '
import json, sys
rows = [{r["size"]: r["p50_us"] for r in map(json.loads, open(f)) if r["type"] == "row"} for f in sys.argv[1:3]]
sys.exit(not (rows[0].keys() == rows[1].keys() and all(0.9 <= rows[0][s] / rows[1][s] <= 1.1 for s in rows[0])))' \
    "$work/cuda.json" "$work/wtime.json"
check "nccl allreduce: algbw at most 1.05 x the copy ceiling ($ceiling MB/s)" json_check "$work/cuda.json" \
    "all(r['oop_algbw_gbps'] * 1000 <= 1.05 * $ceiling for r in rows)"
finish
