#!/bin/sh
# What the collectives' results say: exact OSU and nccl-tests layouts (--layout), nccl-tests'
# per-rank count, an interval only where the samples give one, enough samples for it, the timed
# count in the header, no bandwidth where no data moved, "Out of bounds" only when checked, and
# the default sizes that --help and docs/running.md state.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_COLL_BIN:?run through make check}
layouts() {
    "$PYTHON3" "$FABPERF_TESTS_DIR/coll_layouts.py" "$@"
}

for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
    run_job 2 sm "fabperf_$program" -m 1:64K -f 4 -i 20 -x 2 --layout nccl-tests
    check "$program --layout nccl-tests: exit 0" rc_is 0
    check "$program --layout nccl-tests: nccl-tests' row regex accepts every row" layouts nccl-tests "$work/out"
    check "$program --layout nccl-tests without -c: no 'Out of bounds values' line" \
        sh -c "! grep -q 'Out of bounds' '$work/out'"
    run_job 2 sm "fabperf_$program" -m 1:64K -f 4 -i 20 -x 2 --layout nccl-tests -c
    check "$program --layout nccl-tests -c: nccl-tests' row regex accepts every row" layouts nccl-tests "$work/out"
    check "$program --layout nccl-tests -c: '# Out of bounds values : 0 OK'" \
        grep -q '^# Out of bounds values : 0 OK' "$work/out"
    run_job 2 sm "fabperf_$program" -m 1:64K -f 4 -i 20 -x 2 --layout osu
    check "$program --layout osu: OSU's '# Size  Avg Latency(us)' rows" layouts osu "$work/out" "Avg Latency(us)"
    # nccl-tests' count: elements of one rank's call (per-rank block for allgather,
    # reduce_scatter and alltoall), size = the whole buffer.
    run_job 2 sm "fabperf_$program" -m 64:4K -f 4 -i 20 -x 2 --format json
    case $program in allgather | reduce_scatter | alltoall) per=2 ;; *) per=1 ;; esac
    check "$program: count = size / 4 / $per (nccl-tests' count)" json_check "$work/out" \
        "rows and all(r['count'] == r['size'] // 4 // $per for r in rows)"
done

# One rank: nothing crosses, and fabperf's own columns say n/a; nccl-tests prints its formula's
# numbers there (algbw = size / time, busbw = algbw x 2(n-1)/n = 0), and so does its layout.
run_job 1 sm fabperf_allreduce -m 1K:64K -f 4 -i 20 -x 2 --layout nccl-tests
check "allreduce np=1 --layout nccl-tests: numbers where nccl-tests prints numbers" layouts nccl-tests "$work/out"
check "allreduce np=1 --layout nccl-tests: algbw = size / time, busbw 0 (both variants)" "$PYTHON3" -c '
import sys
bad = []
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    f = line.split()
    size = int(f[0])
    for t, alg, bus in ((f[5], f[6], f[7]), (f[9], f[10], f[11])):
        # the time as printed (2, 1 or 0 decimals) bounds the algbw it came from, itself rounded
        # to its own printed decimals (fewer as it grows: 1872.5)
        half = 0.5 * 10 ** -(len(t.split(".")[1]) if "." in t else 0)
        alg_half = 0.5 * 10 ** -(len(alg.split(".")[1]) if "." in alg else 0) + 1e-9
        low, high = size / (float(t) + half) / 1e3, size / max(float(t) - half, 1e-9) / 1e3
        if not low - alg_half <= float(alg) <= high + alg_half or float(bus) != 0:
            bad.append(line.rstrip())
print("\n".join(bad))
sys.exit(1 if bad else 0)' "$work/out"

FABPERF_BIN=$FABPERF_PT2PT_BIN
run_job 2 sm fabperf_latency -m 1:1K -i 200 -x 10 --layout osu
check "latency --layout osu: OSU's '# Size  Avg Latency(us)' rows" layouts osu "$work/out" "Avg Latency(us)"
run_job 2 sm fabperf_bw -m 1:1K -i 10 -x 2 --layout osu
check "bw --layout osu: OSU's '# Size  Bandwidth (MB/s)' rows" layouts osu "$work/out" "Bandwidth (MB/s)"
run_job 2 sm fabperf_latency --layout nccl-tests
check "--layout nccl-tests on latency: exit 2, one line naming the option" sh -c \
    "[ $rc -eq 2 ] && grep -q -- '--layout nccl-tests applies to the collectives' '$work/err' && [ \$(grep -c '^fabperf_latency:' '$work/err') -eq 1 ]"
FABPERF_BIN=$FABPERF_COLL_BIN
run_job 2 sm fabperf_allreduce --rotate yes
check "--rotate yes: exit 2, accepted values named" sh -c "[ $rc -eq 2 ] && grep -q -- \"--rotate: unknown value 'yes' (accepted: off, on)\" '$work/err'"
run_job 2 sm fabperf_allreduce --layout osu --format csv
check "--layout osu --format csv: exit 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--layout osu applies to --format text' '$work/err'"

# -i 4: four samples are too few for a 95% interval of the median: none printed, and the
# header says why; the batch stays 1 so that all four are samples.
run_job 2 sm fabperf_allreduce -m 1K:1K -i 4 -x 2 --format json
check "-i 4: 4 samples of 1 call, no interval (null), no CI+-%" json_check "$work/out" \
    "len(rows) == 1 and rows[0]['samples'] == 4 and rows[0]['batch'] == 1 and rows[0]['p50_ci_lo_us'] is None and rows[0]['oop_p50_ci_hi_us'] is None and rows[0]['ci_halfwidth_pct'] is None and rows[0]['p50_us'] > 0"
run_job 2 sm fabperf_allreduce -m 1K:1K -i 4 -x 2 --layout full
check "-i 4, full text: lo/hi and CI+-% are '-', header says fewer than 6 samples give none" sh -c \
    "grep -q \"'-' where a variant has fewer than 6 samples\" '$work/out' && grep -E '^ +1024 ' '$work/out' | awk '{exit !(\$14 == \"-\" && \$15 == \"-\" && \$21 == \"-\")}'"

# -i 200: the automatic batch leaves >= 32 samples; the header says the count is rounded up to
# whole samples and the row says what was timed.
run_job 2 sm fabperf_allreduce -m 4:4K -f 4 -i 200 -x 10 --format json
check "-i 200: >= 32 samples per size, timed_calls = samples x batch >= 200, interval brackets the median, inside min..max where printed (batch 1)" \
    json_check "$work/out" "rows and all(r['samples'] >= 32 and r['timed_calls'] == r['samples'] * r['batch'] >= 200 and r['p50_ci_lo_us'] <= r['p50_us'] <= r['p50_ci_hi_us'] and (r['min_us'] is None or r['min_us'] <= r['p50_ci_lo_us'] and r['p50_ci_hi_us'] <= r['max_us']) for r in rows) and 'rounded up to whole samples' in meta['iterations']"

# One rank: nothing crosses between ranks, in place nothing moves: no bandwidth there.
for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
    run_job 1 sm "fabperf_$program" -m 1K:64K -f 8 -i 20 -x 2 --format json
    check "$program np=1: busbw null, in-place algbw null, out-of-place algbw a number" json_check "$work/out" \
        "rows and all(r['oop_busbw_gbps'] is None and r['ip_busbw_gbps'] is None and r['ip_algbw_gbps'] is None and r['oop_algbw_gbps'] > 0 for r in rows) and end['avg_busbw_gbps'] is None"
done
run_job 1 sm fabperf_allreduce -m 1K:1K -i 20 -x 2
check "np=1 text (summary: size count, then time algbw busbw #wrong twice): header says no data crosses, row prints n/a" sh -c \
    "grep -q '^# busbw: n/a with n = 1 (no data crosses between ranks)' '$work/out' && grep -E '^ +1024 ' '$work/out' | awk '{exit !(\$5 == \"n/a\" && \$8 == \"n/a\" && \$9 == \"n/a\")}'"

# Default sizes: --help and docs/running.md say the same, and it is OSU's (1 MiB collectives,
# 4 MiB point-to-point).
options_doc=$FABPERF_TESTS_DIR/../docs/running.md
check "--help of every collective: -m default 1:1M" sh -c \
    "for p in allreduce allgather reduce_scatter bcast reduce alltoall; do '$FABPERF_BIN/fabperf_'\$p --help | grep -q 'default: 1:1M' || exit 1; done"
check "--help of latency: -m default 1:4M" sh -c "'$FABPERF_PT2PT_BIN/fabperf_latency' --help | grep -q 'default: 1:4M'"
# shellcheck disable=SC2016 # backquotes of Markdown, not expansions
check "docs/running.md's option table: 1:4M point-to-point, 1:1M collectives" \
    grep -q '^| `-m, --message-size \[MIN:\]MAX` | .* | `1:4M` (point-to-point), `1:1M` (collectives) |$' "$options_doc"
finish
