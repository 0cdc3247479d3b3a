#!/bin/sh
# Bad input: one line from rank 0 naming the option and what is accepted, exit code 2 on
# every rank, no hang, no abort.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

# expect_usage_error NP PROGRAM EXPECTED-TEXT [ARGS...] (run_job's timeout is the hang guard; how
# fast a rejection is belongs to bench/reject-time.sh)
# shellcheck disable=SC2317 # called through check
expect_usage_error() {
    np=$1 program=$2 expected=$3
    shift 3
    run_job "$np" sm "$program" "$@"
    lines=$(grep -c "^$program: " "$work/err")
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -F -q -- "$expected" "$work/err" ||
        grep -q -i -e "backtrace" -e "MPI_ABORT" -e "signal" "$work/err"; then
        echo "  args '$*': exit $rc, $lines message line(s); stderr:"
        sed 's/^/    /' "$work/err" | head -12
        return 1
    fi
}

# The table's rows in two lanes side by side (odd and even rows, each in its own folder; lane_start
# in tests/checks.sh): a case is mostly the launcher's teardown and a rank's one-second wait for rank
# 0 to speak.
# run_lane LANE: every second row from LANE (0 or 1).
run_lane() {
    work=$work/lane$1 checks=0 failures=0 row=0
    mkdir -p "$work"
    while IFS='|' read -r np program expected args; do
        [ -n "$np" ] || continue
        row=$((row + 1))
        [ $((row % 2)) -eq "$1" ] || continue
        # shellcheck disable=SC2086 # args is a word list by design
        check "$program $args -> exit 2, one line with '$expected'" \
            expect_usage_error "$np" "$program" "$expected" $args
    done <"$table"
    lane_done
}
table=$work/table
cat >"$table" <<'TABLE'
2|fabperf_latency|unknown option '--bogus'|--bogus
2|fabperf_latency|-i/--iterations: 'abc' is not a whole number (accepted: 1 to|-i abc
2|fabperf_latency|-i/--iterations: missing value|-i
2|fabperf_latency|-x/--warmup: '0' is out of range|-x 0
2|fabperf_latency|MIN 64 is larger than MAX 8|-m 64:8
2|fabperf_latency|-m/--message-size: '0' is out of range|-m 0
2|fabperf_latency|-m/--message-size: '99999999999G' overflows|-m 1:99999999999G
2|fabperf_latency|-m/--message-size: '8G' is out of range (accepted: [MIN:]MAX, each 1 to 2147483647|-m 8G
2|fabperf_bw|-W/--window: '0' is out of range (accepted: 1 to 65536)|-W 0
2|fabperf_latency|-W/--window does not apply to fabperf_latency|-W 4
2|fabperf_bibw|--format: unknown value 'xml' (accepted: text, csv, json)|--format xml
2|fabperf_bw|--expect: 'bw>11000@4M' is not a threshold (accepted: bw>=N[@SIZES], busbw>=N[@SIZES], lat<=N[@SIZES], PCT%line[@SIZES], PCT%wire[@SIZES] or uniform[@SIZES] (all-pairs sweeps) or baseline=FILE[:TOL] (fabperf-baseline's bounds, relaxed by the fraction TOL); N and PCT decimal (11000, 1.5, 1e9); SIZES = S, S:, :S or S:S|--expect bw>11000@4M
2|fabperf_latency|--expect: 'lat>=5' is not a threshold: a latency compares with <= (lat<=N) (accepted: bw>=N|--expect lat>=5
2|fabperf_bw|--expect: 'bw>=5@4M:1M' has no valid sizes after @ (accepted: bw>=N|--expect bw>=100,bw>=5@4M:1M
2|fabperf_latency|--expect: 'bw>=5' does not apply to fabperf_latency, which measures latency: lat<=N[@SIZES]|--expect lat<=3 --expect bw>=5
2|fabperf_bw|--expect: 'lat<=2@8' does not apply to fabperf_bw|--expect lat<=2@8
2|fabperf_bw|--expect: 'uniform' applies to the all-pairs sweeps (fabperf_allpairs, fabperf_allpairs_lat), not to fabperf_bw, which measures a rate: bw>=N[@SIZES], busbw>=N[@SIZES] or PCT%line[@SIZES]|--expect bw>=1,uniform
2|fabperf_latency|--expect: 'uniform@4K:' applies to the all-pairs sweeps (fabperf_allpairs, fabperf_allpairs_lat), not to fabperf_latency, which measures latency: lat<=N[@SIZES]|--expect uniform@4K:
2|fabperf_bw|--line-rate: '10GB' is not a line rate (accepted: bits/s > 0 with suffixes K M G T (powers of 1000), e.g. 100G)|--line-rate 10GB
2|fabperf_bw|--expect-nic needs the path evidence: drop --path-evidence off|--expect-nic eth0 --path-evidence off
2|fabperf_bw|--path-evidence: unknown value 'maybe' (accepted: off, on)|--path-evidence maybe
2|fabperf_bw|-c/--validate takes no value|--validate=1
2|fabperf_bw|placement: 'Q' is not a buffer kind|Q H
1|fabperf_latency|needs exactly 2 ranks, got 1|
3|fabperf_bw|needs exactly 2 ranks, got 3|
3|fabperf_bibw|needs exactly 2 ranks, got 3|-m 8
2|fabperf_bw|--output: cannot create|--output /nonexistent-dir/x.json
TABLE
lane_start lane0 run_lane 0
lane_start lane1 run_lane 1
wait
lanes_add lane0 lane1

# A size larger than this host's memory is refused before anything is allocated.
mem_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
too_big_mib=$((mem_kib / 1024 / 2 + 64)) # two buffers per rank, two ranks: needs > 2x memory
if [ "$too_big_mib" -lt 2047 ]; then
    check "size beyond memory -> exit 2 naming the limit" \
        expect_usage_error 2 fabperf_bw "MiB available" -m "${too_big_mib}M"
else
    echo "ok - size beyond memory (skipped: ${too_big_mib} MiB is above the 2 GiB message limit)"
fi
# A per-process limit (ulimit -v) is named as well. A sanitizer build reserves terabytes of address
# space for its shadow memory and cannot run under ulimit -v: skipped there.
refused_under_ulimit() {
    # shellcheck disable=SC3045 # dash and bash both have ulimit -v
    (ulimit -v 3000000 && run_job 2 sm fabperf_bw -m 1500M -i 1 -x 1 && exit "$rc")
    rc=$?
    rc_is 2 && grep -q 'MAX 1500M needs 3000 MiB of host memory per rank, more than the .* (limit: ulimit -v' "$work/err"
}
if ldd "$FABPERF_BIN/fabperf_bw" 2>/dev/null | grep -q -e libasan -e libubsan; then
    echo "ok - size beyond ulimit -v (skipped: sanitizer build)"
else
    check "size beyond ulimit -v -> exit 2 naming the size and the limit" refused_under_ulimit
fi
finish
