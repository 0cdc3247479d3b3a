# shellcheck shell=sh disable=SC2154 # transport is set by the sourcing test
# The point-to-point suite over one transport (sourced with $transport set).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

for program in latency bw bibw; do
    metric=latency
    [ "$program" = latency ] || metric=bandwidth
    run_job 2 "$transport" "fabperf_$program" -m 1:1M -i 200 -x 20
    check "$program over $transport: exit 0" rc_is 0
    check "$program over $transport: OSU text rows 1..1M, finite positive" \
        check_output text "$work/out" --metric "$metric" --max 1048576
    run_job 2 "$transport" "fabperf_$program" -m 4:256K -c -i 50 -x 5 --format json
    check "$program over $transport -c: exit 0" rc_is 0
    check "$program over $transport -c: JSON rows all Pass" \
        check_output json "$work/out" --metric "$metric" --min 4 --max 262144 --validated \
        --program "fabperf_$program"
done
finish
