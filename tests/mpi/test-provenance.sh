#!/bin/sh
# Provenance: the environment of every rank (differences flagged), hostile bytes in variables and
# labels, and the placement of every rank, in text, CSV and JSON of point-to-point and collective
# programs. Variables reach each rank through tests/rank-env.sh, so that every byte arrives intact
# whatever the launcher forwards.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

FP_ENV_DIR=$work/env
export FP_ENV_DIR
"$PYTHON3" "$FABPERF_TESTS_DIR/check_provenance.py" setup "$FP_ENV_DIR"
label=$(cat "$FP_ENV_DIR/label")

provenance() {
    "$PYTHON3" "$FABPERF_TESTS_DIR/check_provenance.py" check "$@"
}

# run_env PROGRAM-DIR PROGRAM [ARGS...]: two ranks, the variables of $FP_ENV_DIR, the label.
run_env() {
    dir=$1 prog=$2
    shift 2
    timeout 120 "$FABPERF_LAUNCH" 2 sm "$FABPERF_TESTS_DIR/rank-env.sh" "$dir/$prog" "$@" --label "$label" \
        </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}

for case in "latency $FABPERF_PT2PT_BIN latency" "bw $FABPERF_PT2PT_BIN bandwidth" \
    "allreduce $FABPERF_COLL_BIN collective"; do
    # shellcheck disable=SC2086 # the case is words by design
    set -- $case
    program=$1 dir=$2 metric=$3
    for format in text csv json; do
        run_env "$dir" "fabperf_$program" -m 8:64 -i 20 -x 2 --format "$format"
        check "$program --format $format, hostile variables and label: exit 0" rc_is 0
        check "$program --format $format: rows 8..64 and nothing else (no row injected)" \
            check_output "$format" "$work/out" --metric "$metric" --min 8 --max 64 --unit 4
        [ "$format" = csv ] && continue
        check "$program --format $format: every variable of every rank, differences flagged, label, placement" \
            provenance "$format" "$work/out" 2
    done
done

# The affinity mask is read, not assumed: every rank confined to CPU 0.
timeout 60 "$FABPERF_LAUNCH" 2 sm "$FABPERF_TESTS_DIR/rank-env.sh" taskset -c 0 "$FABPERF_PT2PT_BIN/fabperf_latency" \
    -m 8:16 -i 20 -x 2 --format json --label "$label" </dev/null >"$work/out" 2>"$work/err"
rc=$?
check "taskset -c 0: exit 0" rc_is 0
check "taskset -c 0: both ranks' affinity is 0, and they ran on CPU 0" provenance json "$work/out" 2 0

# Bounds: a value over 4096 B is cut and says so; beyond 256 KiB per rank variables are counted.
FP_ENV_DIR=$work/big
mkdir -p "$FP_ENV_DIR/all"
"$PYTHON3" -c '
import sys
open(sys.argv[1] + "/FI_AAA_LONG", "w").write("y" * 5000)
for i in range(70):
    open(sys.argv[1] + "/FI_BIG_%02d" % i, "w").write("x" * 4000)' "$FP_ENV_DIR/all"
timeout 60 "$FABPERF_LAUNCH" 2 sm "$FABPERF_TESTS_DIR/rank-env.sh" "$FABPERF_PT2PT_BIN/fabperf_latency" \
    -m 8 -i 20 -x 2 --format json </dev/null >"$work/out" 2>"$work/err"
rc=$?
check "280 KiB of variables: exit 0" rc_is 0
check "a 5000-byte value is cut at 4096 B and says so; variables over 256 KiB per rank are counted" json_check \
    "$work/out" 'meta["env"]["FI_AAA_LONG"] == "y" * 4096 + " [cut: 5000 B in all]" and meta["env_unrecorded"] > 0 and sum(k.startswith("FI_BIG_") for k in meta["env"]) + meta["env_unrecorded"] // 2 == 70'
timeout 60 "$FABPERF_LAUNCH" 2 sm "$FABPERF_TESTS_DIR/rank-env.sh" "$FABPERF_PT2PT_BIN/fabperf_latency" \
    -m 8 -i 20 -x 2 </dev/null >"$work/out" 2>"$work/err"
check "text: a line counts the variables not recorded" grep -q -E '^# env: [1-9][0-9]* variable\(s\) not recorded' "$work/out"

# Launch-time environment per rank (MPMD), the way users set it: rank 1's UCX_TLS is recorded and
# the difference flagged.
case $FABPERF_MPI_FLAVOR in
openmpi) set -- -x UCX_TLS=sm,self "$FABPERF_PT2PT_BIN/fabperf_latency" -m 8 -i 20 -x 2 --format json : \
    -np 1 -x UCX_TLS=self,sm ;;
*) set -- -env UCX_TLS sm,self "$FABPERF_PT2PT_BIN/fabperf_latency" -m 8 -i 20 -x 2 --format json : \
    -np 1 -env UCX_TLS self,sm ;;
esac
timeout 60 "$FABPERF_LAUNCH" 1 sm "$@" "$FABPERF_PT2PT_BIN/fabperf_latency" -m 8 -i 20 -x 2 --format json \
    </dev/null >"$work/out" 2>"$work/err"
rc=$?
check "MPMD with UCX_TLS per rank: exit 0" rc_is 0
check "MPMD: UCX_TLS of both ranks recorded under env_differs, not under env" json_check "$work/out" \
    'meta["env_differs"].get("UCX_TLS") == [{"value": "sm,self", "ranks": [0]}, {"value": "self,sm", "ranks": [1]}] and "UCX_TLS" not in meta["env"]'
finish
