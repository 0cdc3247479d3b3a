#!/bin/sh
# GPU buffers in every point-to-point program: D D, H D, D H, M M with validation through a
# CUDA-aware MPI; --staging through any MPI; the clear refusal of a non-CUDA-aware MPI; the
# refusal of --timer cuda by MPI-driven programs; no bandwidth above the card's copy ceiling; the
# collective search naming each rank's GPU (CUDA-aware MPI).
# Skips (77) in a build without CUDA or on a machine without a GPU.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

if [ -z "${FABPERF_GPU_PROBE:-}" ]; then
    echo "SKIP: built without CUDA"
    exit 77
fi
"$FABPERF_GPU_PROBE" || exit 77

json_field() { # FILE KEY: a meta field
    "$PYTHON3" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())[sys.argv[2]])' "$1" "$2"
}

run_job 2 default fabperf_latency -m 1:1 -i 10 -x 1 --format json
aware=$(json_field "$work/out" cuda_aware)
echo "MPI CUDA-aware: $aware"

if [ "$aware" = no ]; then
    run_job 2 default fabperf_bw D D -m 1:1
    check "not CUDA-aware, D D: exit 2" rc_is 2
    check "not CUDA-aware, D D: one line naming the MPI and the ways out" \
        grep -q "this MPI is not CUDA-aware (.*); build one with scripts/build-cuda-aware-mpi.sh.*--staging" "$work/err"
fi

for program in latency bw bibw; do
    metric=latency
    [ "$program" = latency ] || metric=bandwidth
    for placement in "D D" "H D" "D H" "M M"; do
        if [ "$aware" != no ]; then
            # shellcheck disable=SC2086 # placement is two words
            run_job 2 default "fabperf_$program" $placement -m 1:1M -i 40 -x 4 -c --format json
            check "$program $placement direct: exit 0" rc_is 0
            check "$program $placement direct: rows Pass" check_output json "$work/out" \
                --metric "$metric" --max 1048576 --validated
            check "$program $placement direct: meta buffers and GPU" sh -c \
                "[ \"\$('$PYTHON3' -c 'import json,sys; m=json.loads(open(sys.argv[1]).readline()); print(m[\"buffers\"], \"PCI\" in m[\"gpu\"], m[\"staging\"])' '$work/out')\" = '$placement True False' ]"
        fi
        case $placement in *H*) continue ;; esac
        # shellcheck disable=SC2086
        run_job 2 default "fabperf_$program" $placement --staging -m 1:1M -i 40 -x 4 -c --format json
        check "$program $placement --staging: exit 0" rc_is 0
        check "$program $placement --staging: rows Pass, labelled staged" check_output json "$work/out" \
            --metric "$metric" --max 1048576 --validated --staged
        check "$program $placement --staging: meta says staging" \
            test "$(json_field "$work/out" staging)" = True
        check "$program $placement --staging: each rank's placement names its GPU's PCI bus id" json_check \
            "$work/out" 'len(meta["placement"]) == 2 and all(p["gpu"] and p["gpu"].count(":") == 2 for p in meta["placement"])'
    done
done

# --timer cuda: events on fabperf's stream see nothing of a host-driven MPI operation, so every
# point-to-point program refuses it, in every placement, with one line.
for program in latency bw bibw; do
    run_job 2 default "fabperf_$program" -d cuda --timer cuda -m 1:64K -i 100 -x 10 --format json
    check "$program -d cuda --timer cuda: refused, exit 2, one line" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_$program: ' '$work/err') -eq 1 ] && grep -q '^fabperf_$program: --timer cuda: .*MPI operations are driven by the host' '$work/err'"
done

# No bandwidth above what this card can copy between two of its own buffers.
ceiling=$("$FABPERF_GPU_PROBE" --copy-ceiling)
echo "device-to-device copy ceiling: $ceiling MB/s"
if [ "$aware" != no ]; then set -- ; else set -- --staging; fi
for program in bw bibw; do
    run_job 2 default "fabperf_$program" -d cuda "$@" -m 1:64M -f 4 -i 20 -x 2 --format json
    check "$program D D to 64 MiB: exit 0" rc_is 0
    check "$program D D: every bandwidth (OSU's, P50, CI) at most 1.05 x the copy ceiling ($ceiling MB/s)" \
        json_check "$work/out" "len(rows) == 14 and all(max(r['bw_mbps'], r['bw_p50_mbps'], r['bw_ci_hi_mbps']) <= 1.05 * $ceiling for r in rows)"
done
# The collective search names each rank's GPU beside its host: four ranks on this GPU through a
# CUDA-aware MPI (collectives do not stage), rank 2 entering every call 20 ms late.
if [ "$aware" != no ]; then
    run_with_slow 4 default "FP_SLOW_RANK=2 FP_SLOW_AS=member FP_SLOW_US=20000" \
        ../collective/fabperf_allreduce -d cuda -m 64K:64K -i 10 -x 1 --isolate --format json
    check "--isolate on device buffers: rank 2 stands, named with its GPU's PCI bus id (JSON)" json_check "$work/out" \
        "$rc == 3 and [(f['ranks'], len(f['gpus']), f['gpus'][0].count(':')) for f in records if f['type'] == 'isolate_finding' and f['status'] == 'stands'] == [([2], 1, 2)]"
    check "--isolate on device buffers: the finding's line names the GPU" \
        grep -q "isolate: rank 2 (.*, GPU [0-9A-Fa-f]*:[0-9A-Fa-f]*:[0-9A-Fa-f.]*) slows fabperf_allreduce" "$work/err"
fi
run_job 2 default fabperf_latency -d cuda "$@" -m 1:64K -i 100 -x 10 --format json
check "-d cuda: buffers D D, timer MPI_Wtime" \
    test "$(json_field "$work/out" buffers)/$(json_field "$work/out" timer)" = "D D/MPI_Wtime"
finish
