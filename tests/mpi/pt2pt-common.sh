# shellcheck shell=sh disable=SC2154 # transport is set by the sourcing test
# The point-to-point suite over one transport (sourced with $transport set). A slow transport may
# set a smaller run: $factor (size step, 2), $max_bytes (the plain run's largest size, 1M), $iters
# and $warmup (the plain run's, 200 and 20), $check_iters (the validated run's, 50).
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

factor=${factor:-2}
max_bytes=${max_bytes:-1048576}
iters=${iters:-200}
warmup=${warmup:-20}
check_iters=${check_iters:-50}
for program in latency bw bibw; do
    metric=latency
    [ "$program" = latency ] || metric=bandwidth
    run_job 2 "$transport" "fabperf_$program" -m "1:$max_bytes" -f "$factor" -i "$iters" -x "$warmup"
    check "$program over $transport: exit 0" run_status_is 0
    check "$program over $transport: OSU text rows 1..$max_bytes, finite positive" \
        check_output text "$work/out" --metric "$metric" --max "$max_bytes" --factor "$factor"
    run_job 2 "$transport" "fabperf_$program" -m 4:256K -f "$factor" -c -i "$check_iters" -x 5 --format json
    check "$program over $transport -c: exit 0" run_status_is 0
    check "$program over $transport -c: JSON rows all Pass" \
        check_output json "$work/out" --metric "$metric" --min 4 --max 262144 --factor "$factor" \
        --validated --program "fabperf_$program"
done
finish
