#!/bin/sh
# Hostile input, table-driven, over every option of every program: garbage, out of range, overflow,
# empty, repeated, missing value, unknown words. Each case must give exactly one line naming the
# problem, exit code 2 on every rank (recorded per rank by a wrapper), no abort or sanitizer noise,
# and no hang (a 120 s guard per case). How fast a rejection is depends on the machine and its
# load, so it is measured by bench/reject-time.sh, not asserted here.
# Open MPI's mpirun adds its own teardown after any non-zero exit, even /bin/false's: it waits
# odls_base_sigkill_timeout (1 s, twice) for processes that have already exited. That grace is
# mpirun's, not the program's: it is set to 0 here (OMPI_MCA_odls_base_sigkill_timeout), and the
# default is reported once for the record.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

programs="latency bw bibw"


# expect_usage NP PROGRAM EXPECTED [ARGS...]: one case, run in $case_dir.
# Each rank's wrapper records the exit code, then waits (10 s at most: a rank other than 0 waits a
# second before it exits, longer on a loaded machine) for the others to do the same before
# exiting: a launcher that stops the job at the first non-zero exit cannot hide a rank.
# timeout 120: a hang guard only.
expect_usage() {
    np=$1 prog=$2 expected=$3
    shift 3
    rm -f "$case_dir"/rank.*
    FP_NP=$np FP_RANKS_DIR=$case_dir
    export FP_NP FP_RANKS_DIR
    start=$(now_ms)
    # shellcheck disable=SC2016 # expanded by the wrapper shell
    OMPI_MCA_odls_base_sigkill_timeout=${FABPERF_SIGKILL_TIMEOUT:-0} timeout 120 \
        "$FABPERF_LAUNCH" "$np" sm sh -c '"$0" "$@"; code=$?; echo "$code" >"$FP_RANKS_DIR/rank.$$"; n=0
            while [ "$(find "$FP_RANKS_DIR" -name "rank.*" | wc -l)" -lt "$FP_NP" ] && [ $n -lt 200 ]; do
                sleep 0.05; n=$((n + 1)); done; exit "$code"' \
        "$FABPERF_BIN/$prog" "$@" </dev/null >"$case_dir/out" 2>"$case_dir/err"
    rc=$?
    took=$(($(now_ms) - start))
    lines=$(grep -c "^$prog: " "$case_dir/err")
    codes=$(cat "$case_dir"/rank.* 2>/dev/null | sort | uniq -c | awk '{printf "%s x%s ", $2, $1}')
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -F -q -- "$expected" "$case_dir/err" ||
        [ "$codes" != "2 x$np " ] || [ -s "$case_dir/out" ] ||
        grep -q -i -e backtrace -e MPI_ABORT -e signal -e AddressSanitizer -e 'runtime error' "$case_dir/err"; then
        echo "  args '$*': exit $rc, rank exit codes: ${codes:-none}, $lines message line(s), ${took} ms; stderr:"
        sed 's/^/    /' "$case_dir/err" | head -12
        return 1
    fi
    total_ms=$((total_ms + took))
    slowest_ms=$((slowest_ms > took ? slowest_ms : took))
}
# Each table's cases have their own folder: the wrappers count rank files under it, recursively.
case_dir=$work/serial
mkdir -p "$case_dir"
total_ms=0
slowest_ms=0

# applies PROGRAM WHICH: does a table row with WHICH (all, or a list of programs) apply?
applies() {
    case " $2 " in " all "|*" $1 "*) return 0 ;; esac
    return 1
}

# PROGRAMS|EXPECTED TEXT|ARGS (words; '' stands for an empty argument)
table() {
    cat <<'TABLE'
all|-m/--message-size: 'abc' is not a size|-m abc
all|-m/--message-size: '99999999999G:4' has trailing characters|-m 1:99999999999G:4
all|-m/--message-size: '99999999999G' overflows|-m 1:99999999999G
all|-m/--message-size: '99999999999999999999999' overflows|-m 99999999999999999999999
all|-m/--message-size: '0' is out of range|-m 0
all|-m/--message-size: '3G' is out of range|-m 3G
all|MIN 64 is larger than MAX 8|-m 64:8
all|-m/--message-size: ':8' has no valid MIN|-m :8
all|-m/--message-size: '4Q' has an unknown suffix|--message-size=4Q
all|-m/--message-size: empty value|-m ''
all|-m/--message-size: missing value|-m
all|-m/--message-size given twice|-m 8 -m 16
all|-b/--minbytes: '-5' is not a size|-b -5
all|-b/--minbytes: '99999999999G' overflows|-b 99999999999G
all|-e/--maxbytes: '0' is out of range|-e 0
all|-e/--maxbytes: empty value|--maxbytes=
all|-e/--maxbytes: missing value|-e
all|-m/--message-size and -b/-e both set the size range|-m 8 -e 16
all|-f/--stepfactor: 'x2' is not a number|-f x2
all|-f/--stepfactor: '1' is out of range (accepted: 1.01 to 1024)|-f 1
all|-f/--stepfactor: '1e999' is not a number|-f 1e999
all|-f/--stepfactor: 'nan' is not a number|-f nan
all|-f/--stepfactor and --step-bytes both set the size step|-f 2 --step-bytes 8
all|--step-bytes: '0' is out of range|--step-bytes 0
all|--step-bytes: missing value|--step-bytes
all|-i/--iterations: 'abc' is not a whole number|-i abc
all|-i/--iterations: '99999999999999999999' is not a whole number|-i 99999999999999999999
all|-i/--iterations: '0' is out of range|-i 0
all|-i/--iterations: '1.5' is not a whole number|-i 1.5
all|-i/--iterations: empty value|-i ''
all|-i/--iterations given twice|-i 5 -i 5
all|-i/--iterations and -n/--iters set the same thing|-i 5 -n 5
all|-n/--iters: '-1' is out of range|-n -1
all|-x/--warmup: '0' is out of range|-x 0
all|-x/--warmup: ' 5' is not a whole number|-x ' 5'
all|-w/--warmup-iters: missing value|-w
all|-a/--adaptive takes no value|--adaptive=yes
all|-a/--adaptive given twice|-a -a
all|-i/--iterations fixes the count, -a/--adaptive decides it|-a -i 5
all|--ci-target: '0' is out of range|-a --ci-target 0
all|--ci-target, --time-budget and --max-samples need -a/--adaptive|--ci-target 5
all|--time-budget: 'inf' is not a number|-a --time-budget inf
all|--time-budget: '1e9' is out of range|-a --time-budget 1e9
all|--max-samples: '5' is out of range (accepted: 10 to|-a --max-samples 5
all|--batch: 'many' is not a whole number (accepted: 1 to 1000000 or auto)|--batch many
all|--batch: '0' is out of range|--batch 0
bw bibw|-W/--window: '0' is out of range (accepted: 1 to 65536)|-W 0
bw bibw|-W/--window: '99999999999999999999' is not a whole number|-W 99999999999999999999
bw bibw|-W/--window: missing value|-W
latency|-W/--window does not apply to fabperf_latency|-W 4
all|-c/--validate takes no value|--validate=1
all|-c/--validate given twice|-c -c
all|--format: unknown value 'xml' (accepted: text, csv, json)|--format xml
all|--format: unknown value 'JSON'|--format JSON
all|--format: empty value|--format=
all|--format: missing value|--format
all|--format given twice|--format json --format csv
all|--layout: unknown value 'nccl' (accepted: summary, full, osu, nccl-tests)|--layout nccl
all|--layout: empty value|--layout=
all|--layout osu applies to --format text|--layout osu --format json
all|--layout nccl-tests applies to the collectives|--layout nccl-tests
all|--expect: 'bw>=' is not a threshold: N must be a decimal number|--expect 'bw>='
all|--expect: 'lat>=5' is not a threshold: a latency compares with <=|--expect 'lat>=5'
all|--inconclusive: unknown value 'bogus' (accepted: status, fail, pass)|--inconclusive bogus
all|--inconclusive: missing value|--inconclusive
all|--inconclusive: empty value (accepted: status, fail, pass)|--inconclusive=
all|--inconclusive given twice|--inconclusive fail --inconclusive pass
all|--expect: 'lat<=x@8' is not a threshold|--expect 'lat<=x@8'
all|--line-rate: 'fast' is not a line rate (accepted: bits/s > 0|--line-rate fast
all|--line-rate: '0' is not a line rate|--line-rate 0
all|--expect-nic: empty value|--expect-nic=
all|--expect-nic needs the path evidence|--expect-nic lo --path-evidence off
all|--path-evidence: unknown value 'maybe' (accepted: off, on)|--path-evidence maybe
all|--path-evidence: empty value|--path-evidence=
all|--cycles: 'x' is not a whole number (accepted: 1 to 1000000)|--cycles x
all|--cycles: '0' is out of range (accepted: 1 to 1000000)|--cycles 0
all|--cycles: missing value N|--cycles
all|--cycles given twice|--cycles 2 --cycles 3
all|--soak: 'x' is not a duration (accepted: 1 s to 30 d, suffixes s m h d, e.g. 90s, 10m, 2h)|--soak x
all|--soak: empty value (accepted: 1 s to 30 d|--soak=
all|--soak: missing value DURATION|--soak
all|--sysfs-root: empty value|--sysfs-root=
all|--sysfs-root: missing value DIR|--sysfs-root
all|--sysfs-root given twice|--sysfs-root /x --sysfs-root /y
all|--sysfs-root needs the path evidence|--sysfs-root /sys --path-evidence off
all|--output: empty value|--output ''
all|--output: missing value|--output
all|--output: cannot create|--output /nonexistent-dir/x.json
all|--label: empty value|--label=
all|--label given twice|--label a --label b
all|-d/--accelerator: unknown accelerator 'rocm' (accepted: cuda)|-d rocm
all|-d/--accelerator: missing value|-d
all|--device: '-2' is out of range (accepted: 0 to 1024 or auto)|--device -2
all|--device: 'gpu0' is not a whole number|--device gpu0
all|--timer: unknown value 'tsc' (accepted: wtime, cuda)|--timer tsc
all|--staging takes no value|--staging=1
all|--timeout: '0' is out of range (accepted: 1 to 1000000 or auto)|--timeout 0
all|--timeout: 'soon' is not a whole number|--timeout soon
all|--timeout: '99999999999999999999' is not a whole number|--timeout 99999999999999999999
all|--timeout: missing value|--timeout
all|--startup-timeout: '0' is out of range (accepted: 1 to 1000000 or auto)|--startup-timeout 0
all|--startup-timeout: 'soon' is not a whole number|--startup-timeout soon
all|--startup-timeout: missing value|--startup-timeout
all|--finalize-timeout: '0' is out of range (accepted: 1 to 1000000 or auto)|--finalize-timeout 0
all|--finalize-timeout: 'later' is not a whole number|--finalize-timeout later
all|--finalize-timeout: missing value|--finalize-timeout
all|-h/--help takes no value|--help=me
all|-v/--version given twice|-v -v
all|unknown option '--bogus' (see --help)|--bogus
all|unknown option '-q' (see --help)|-q
all|unknown option '--' (see --help)|--
all|placement: 'Q' is not a buffer kind|Q H
all|placement: one letter given, two needed|D
all|placement: extra argument 'H'|H H H
TABLE
}

table >"$work/table"
# The tables run side by side, each program's in two lanes (its odd and its even rows): a case is
# mostly the launcher's idle teardown (a rank that rejects its command line waits a second for
# rank 0 to speak), so this costs no accuracy. Each lane has its own folder, log and Open MPI
# session folder (lane_start in tests/checks.sh).
# run_table PROGRAM LANE: the table's rows for PROGRAM, every second one from LANE (0 or 1).
run_table() {
    program=$1 lane=$2 case_dir=$work/$1.$2 checks=0 failures=0 row=0
    mkdir -p "$case_dir"
    while IFS='|' read -r which expected args; do
        applies "$program" "$which" || continue
        row=$((row + 1))
        [ $((row % 2)) -eq "$lane" ] || continue
        # The table's '' is an empty argument: rebuild the words with it.
        eval "set -- $args"
        check "fabperf_$program $args -> one line '$expected', exit 2 on every rank" \
            expect_usage 2 "fabperf_$program" "$expected" "$@"
    done <"$work/table"
    echo "# fabperf_$program (lane $lane): table done; slowest case ${slowest_ms} ms, all cases ${total_ms} ms"
    lane_done
}
names=
for program in $programs; do
    for lane in 0 1; do
        lane_start "$program.$lane" run_table "$program" "$lane"
        names="$names $program.$lane"
    done
done
wait
# shellcheck disable=SC2086 # the lanes' names are words
lanes_add $names

# has_row PROGRAM SHORT LONG: a row that applies to PROGRAM uses -SHORT or --LONG.
has_row() {
    while IFS='|' read -r which expected args; do
        applies "$1" "$which" || continue
        case " $args " in *" --$3 "* | *" --$3="*) return 0 ;; esac
        [ -n "$2" ] && case " $args " in *" -$2 "*) return 0 ;; esac
    done <"$work/table"
    return 1
}

# Every option that --help lists has rows in the table.
for program in $programs; do
    run_job 1 sm "fabperf_$program" --help
    # An option's own line: "  -m, --name" or "      --name" (a continuation line is indented further).
    grep -E '^  (-[a-zA-Z], |    )--[a-z]' "$work/out" | sed -E 's/^  (-([a-zA-Z]), |    )--([a-z-]+).*/\2|\3/' >"$work/options"
    while IFS='|' read -r short long; do
        check "fabperf_$program: --$long has hostile-input rows" has_row "$program" "$short" "$long"
    done <"$work/options"
done

# Rank counts are judged before MPI starts as well.
check "fabperf_latency with 3 ranks -> exit 2 on every rank" expect_usage 3 fabperf_latency "needs exactly 2 ranks, got 3"
check "fabperf_bw with 1 rank -> exit 2" expect_usage 1 fabperf_bw "needs exactly 2 ranks, got 1"

# The launcher's default teardown, for the record (not asserted).
start=$(now_ms)
run_job 2 sm fabperf_latency --bogus
echo "# fabperf_latency --bogus with the launcher's default teardown: $(($(now_ms) - start)) ms, exit $rc"
finish
