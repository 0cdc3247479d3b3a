#!/bin/sh
# GPU buffers in every point-to-point program: D D, H D, D H, M M with validation through a
# CUDA-aware MPI; --staging through any MPI; the clear refusal of a non-CUDA-aware MPI; CUDA
# events. Skips (77) in a build without CUDA or on a machine without a GPU.
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

# -d cuda means D D; --timer cuda gives the same schema from CUDA events.
if [ "$aware" != no ]; then set -- ; else set -- --staging; fi
run_job 2 default fabperf_latency -d cuda "$@" --timer cuda -m 1:64K -i 100 -x 10 --format json
check "-d cuda --timer cuda: exit 0" rc_is 0
if [ "$aware" != no ]; then set -- ; else set -- --staged; fi
check "-d cuda --timer cuda: rows parse" check_output json "$work/out" --metric latency --max 65536 "$@"
check "-d cuda: buffers D D, timer CUDA events" \
    test "$(json_field "$work/out" buffers)/$(json_field "$work/out" timer)" = "D D/CUDA events"
finish
