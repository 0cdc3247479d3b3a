#!/bin/sh
# The three renderings of one schema: text, CSV and JSON Lines, and --output written atomically.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

for program in latency bw; do
    metric=latency
    [ "$program" = latency ] || metric=bandwidth
    run_job 2 sm "fabperf_$program" -m 2:64K -i 100 -x 10 --format csv
    check "$program --format csv: exit 0" rc_is 0
    check "$program --format csv: one header, rows 2..64K" \
        check_output csv "$work/out" --metric "$metric" --min 2 --max 65536
    if "$PYTHON3" -c 'import pandas' 2>/dev/null; then
        check "$program --format csv: pandas.read_csv(comment='#') reads every row" "$PYTHON3" -c \
            'import pandas, sys; d = pandas.read_csv(sys.argv[1], comment="#"); sys.exit(list(d["size"]) != [2 << i for i in range(16)])' "$work/out"
    fi
    FI_PROVIDER='tcp;ofi_rxm' NCCL_SOCKET_IFNAME='lo,"odd"\value' run_job 2 sm "fabperf_$program" -m 8:4K -f 4 \
        -i 100 -x 10 --format json --label 'label "with" quotes'
    check "$program --format json: exit 0" rc_is 0
    check "$program --format json: parses; meta, rows 8..4K by 4, end; env and label recorded" \
        check_output json "$work/out" --metric "$metric" --min 8 --max 4096 --factor 4 \
        --label 'label "with" quotes' --env 'FI_PROVIDER=tcp;ofi_rxm' --env 'NCCL_SOCKET_IFNAME=lo,"odd"\value'
done

run_job 2 sm fabperf_bibw -m 1K:8K -i 20 -x 2 --format json --output "$work/result.json"
check "--output: exit 0" rc_is 0
check "--output: nothing on standard output" test ! -s "$work/out"
check "--output: file complete" check_output json "$work/result.json" --metric bandwidth --min 1024 --max 8192
check "--output: no temporary file left" sh -c "! ls '$work'/result.json.tmp.* 2>/dev/null"

# --step-bytes: nccl-tests' linear step.
run_job 2 sm fabperf_latency -b 100 -e 400 --step-bytes 100 -i 50 -x 5 --format json
check "--step-bytes: exit 0" rc_is 0
check "--step-bytes: sizes 100, 200, 300, 400" sh -c \
    "$PYTHON3 -c 'import json,sys; s=[r[\"size\"] for r in map(json.loads, open(sys.argv[1])) if r[\"type\"]==\"row\"]; sys.exit(s!=[100,200,300,400])' '$work/out'"
# Sizes that all round down to 0 B: bad usage, not an empty success.
if [ -x "$FABPERF_BIN/../collective/fabperf_allreduce" ]; then
    FABPERF_BIN=$FABPERF_BIN/../collective run_job 2 sm fabperf_allreduce -m 1:3 --format csv --output "$work/none.csv"
    check "allreduce -m 1:3 (no whole float): exit 2, one line naming -m and the smallest size (4 B)" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allreduce: ' '$work/err') -eq 1 ] && grep -q '^fabperf_allreduce: -m/--message-size: every size from 1 to 3 B rounds down to 0 B .* smallest size this run measures is 4 B' '$work/err'"
    check "allreduce -m 1:3: no results file, no temporary file" sh -c "! ls '$work'/none.csv* 2>/dev/null"
fi

# The default text is a table for a terminal: rows and column headers within 120 columns, the
# tails and constant columns only in --layout full, a path line only where the path changed;
# -c brings the Check and Wrong columns in.
# text_fits: no row or column header of $work/out wider than 120 columns; a path line at the first
# size and later ones only where the path changed (NIC bytes of other processes on the node, lo
# included, are evidence too: they may add lines, never repeat one). Else the lines at fault and
# the whole text.
text_fits() {
    wide=$(grep -Ev '^#( [a-z]|$)' "$work/out" | awk 'length($0) > 120')
    first_size=$(grep -E '^ *[0-9]+ ' "$work/out" | head -1 | awk '{print $1}')
    repeated=$(grep '^# path ' "$work/out" | sed 's/^# path [0-9]*: //' | uniq -d)
    [ -z "$wide" ] && [ -z "$repeated" ] && grep -q "^# path $first_size: " "$work/out" && return 0
    echo "  lines over 120 columns:"
    printf '%s\n' "$wide" | sed 's/^/    > /'
    echo "  path lines repeated unchanged: $repeated; first size: $first_size"
    echo "  the text (stderr after it):"
    sed 's/^/    | /' "$work/out" "$work/err" | head -60
    return 1
}
columns_of() { # the text's column header line, names only
    grep -E '^# (Size|  +size )' "$work/out" | grep -v '(B)' | head -1 | tr -s ' ' | cut -c3-
}
for case in "fabperf_latency|Size Avg Latency(us) P50(us) CIlo(us) CIhi(us) CI+-% Samples Batch" \
    "fabperf_bw -c|Size Bandwidth (MB/s) P50(MB/s) CIlo(MB/s) CIhi(MB/s) CI+-% Samples Batch Check Wrong" \
    "fabperf_allreduce|size count time algbw busbw #wrong time algbw busbw #wrong CI+-% samples batch"; do
    command=${case%%|*} want=${case#*|}
    dir=$FABPERF_BIN
    case $command in fabperf_allreduce*) dir=$FABPERF_BIN/../collective ;; esac
    # shellcheck disable=SC2086 # $command is the program and its options
    FABPERF_BIN=$dir run_job 2 sm $command -m 1:4K -i 40 -x 4
    got="$rc: $(columns_of)"
    check "$command, default text: exit 0, columns: $want" test "$got" = "0: $want"
    check "$command, default text: rows and column headers within 120 columns, a path line where the path changed" text_fits
    FABPERF_BIN=$dir run_job 2 sm "${command%% *}" -m 1:4K -i 40 -x 4 --layout full
    got="$rc: $(columns_of)"
    check "${command%% *} --layout full: the tails and flags too" sh -c "echo '$got' |
        grep -Eq '^0: .*(Min\(us\).*P99\(us\).*Max\(us\).*Stddev\(us\).*Staged|type redop root .*oop:lo oop:hi ip:lo ip:hi iso:time)'"
done

# Another process's loopback traffic during the sweep (UDP to the discard port of 127.0.0.1) is
# what the counters saw: lo named as a NIC that moved anyway, each change one new path line.
"$PYTHON3" -c '
import socket, sys, time
s, end = socket.socket(socket.AF_INET, socket.SOCK_DGRAM), time.time() + float(sys.argv[1])
s.sendto(b"x", ("127.0.0.1", 9))
open(sys.argv[2], "w").close()
while time.time() < end:
    s.sendto(b"x" * 60000, ("127.0.0.1", 9))
    time.sleep(0.0005)' 120 "$work/sending" &
sender=$!
tries=0
while [ ! -e "$work/sending" ] && [ $tries -lt 300 ]; do # hang guard: 30 s
    sleep 0.1
    tries=$((tries + 1))
done
run_job 2 sm fabperf_latency -m 1:4K -i 40 -x 4
kill "$sender" 2>/dev/null
check "fabperf_latency beside loopback traffic: exit 0" rc_is 0
check "fabperf_latency beside loopback traffic: lo named in a path line" sh -c \
    "grep -q '^# path .*moved anyway: .*lo@' '$work/out' || { grep '^# path ' '$work/out'; exit 1; }"
check "fabperf_latency beside loopback traffic: within 120 columns, a path line where the path changed" text_fits
finish
