#!/bin/sh
# --expect verdicts and the path evidence on one host: pass, fail (exit 3, one line naming size,
# interval and threshold), inconclusive (exit 4 and one line, or as --inconclusive says) without a
# line rate, terms refused before measuring (wrong comparison, not decimal, no measured size),
# no interval below 6 samples, busbw for collectives, the adaptive rule sampling on while
# undecided (point-to-point and collectives), --path-evidence off, a NIC that counted other traffic
# (a flow on lo beside the run) said shared.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

# rows_hold EXPR: EXPR (Python, over each row r and the meta line of $work/out) holds for every row
rows_hold() {
    "$PYTHON3" - "$work/out" "$1" <<'PY'
import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "row"]
meta = json.loads(open(sys.argv[1]).readline())
ok = bool(rows) and all(eval("(" + sys.argv[2] + ")") for r in rows)
if not ok:
    print("  does not hold:", sys.argv[2], rows[:2])
sys.exit(0 if ok else 1)
PY
}

one_line() {
    [ "$(grep -c "$1" "$work/err")" -eq 1 ] || { echo "  stderr:"; sed 's/^/    /' "$work/err" | head; return 1; }
}

run_job 2 sm fabperf_latency -m 8:64 -i 200 --format json --expect 'lat<=100000'
check "lat<=100000: exit 0" rc_is 0
check "lat<=100000: every size passes, keys in meta columns" rows_hold \
    'r["verdict"] == "pass" and r["expect"] == "lat<=100000" and r["efficiency"] is None and
     all(k in meta["columns"] for k in ("verdict", "expect", "line_rate_gbps", "efficiency", "path"))'

run_job 2 sm fabperf_latency -m 8:64 -i 200 --expect 'lat<=0.00001@16:32'
check "lat<=0.00001@16:32: exit 3" rc_is 3
check "lat<=0.00001@16:32: one line per failed size naming interval and threshold" one_line \
    '^fabperf_latency: expectation failed: size 16: fail: median [0-9.e+-]* us, 95% CI \[[0-9.e+-]*, [0-9.e+-]*\] against lat<=0.00001@16:32, threshold 1e-05 us$'
check "lat<=0.00001@16:32: sizes outside the range not judged" sh -c \
    "grep -Eq '^8 .* -$' '$work/out' && grep -Eq '^32 .* fail$' '$work/out'"

run_job 2 sm fabperf_bw -m 64K:64K -i 20 --batch 1 --format json --expect '50%line'
check "50%line without a line rate on one host: exit 4, inconclusive" rc_is 4
check "50%line: verdict inconclusive, line rate unknown" rows_hold \
    'r["verdict"] == "inconclusive" and r["line_rate_gbps"] is None and "line rate unknown" in r["expect"]'
check "50%line: one summary line on stderr naming the size and the exit" one_line \
    '^fabperf_bw: expectation inconclusive at 1 of 1 judged size(s), exit 4 (--inconclusive status); first: size 65536: inconclusive: .* against 50%line (line rate unknown)'
run_job 2 sm fabperf_bw -m 64K:64K -i 20 --batch 1 --format json --expect '50%line' --inconclusive fail
check "--inconclusive fail: exit 3" rc_is 3
check "--inconclusive fail: the summary names the exit" one_line 'expectation inconclusive at 1 of 1 judged size(s), exit 3 (--inconclusive fail)'
run_job 2 sm fabperf_bw -m 64K:64K -i 20 --batch 1 --format json --expect '50%line' --inconclusive pass
check "--inconclusive pass: exit 0, still said once" rc_is 0
check "--inconclusive pass: the summary names the exit" one_line 'expectation inconclusive at 1 of 1 judged size(s), exit 0 (--inconclusive pass)'
run_job 2 sm fabperf_bw -m 64K:64K -i 20 --expect '50%line' --inconclusive maybe
check "--inconclusive maybe: exit 2" rc_is 2
check "--inconclusive maybe: one line naming the choices" one_line \
    "^fabperf_bw: --inconclusive: unknown value 'maybe' (accepted: status, fail, pass)$"

# Below 6 samples the median has no 95% interval: the CI fields are empty (the samples' range is in
# min and max), the verdict line says so, and the size is inconclusive.
run_job 2 sm fabperf_latency -m 8:8 -i 4 --batch 1 --format json --expect 'lat<=100000'
check "4 samples: exit 4" rc_is 4
check "4 samples: no CI fields, min and max present" rows_hold \
    'r["samples"] == 4 and r["p50_ci_lo_us"] is None and r["p50_ci_hi_us"] is None and
     r["ci_halfwidth_pct"] is None and r["min_us"] <= r["p50_us"] <= r["max_us"] and r["verdict"] == "inconclusive"'
check "4 samples: the verdict line says there is no CI" one_line \
    'first: size 8: inconclusive: median [0-9.e+-]* us, no 95% CI (4 samples, 6 needed) against lat<=100000,'
run_job 2 sm fabperf_bw -m 8:8 -i 4 --batch 1 --format csv --expect 'bw>=0.000001'
check "4 samples, csv: bandwidth CI columns empty" "$PYTHON3" -c '
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
sys.exit(0 if rows and all(r["bw_ci_lo_mbps"] == r["bw_ci_hi_mbps"] == r["p50_ci_lo_us"] == "" and
                           r["samples"] == "4" for r in rows) else 1)' "$work/out"
run_job 2 sm fabperf_latency -m 8:8 -i 4 --batch 1 --expect 'lat<=100000'
check "4 samples, text: P50 then CIlo, CIhi and CI+-% print -, the expect line says no CI" sh -c \
    "grep -Eq '^8 +[0-9.]+ +[0-9.]+ +- +- +- ' '$work/out' && grep -q '^# expect size 8: inconclusive: median .* us, no 95% CI (4 samples, 6 needed) against' '$work/out'"

# Terms that cannot mean what they say are refused before anything is measured: exit 2 on every
# rank, one line from rank 0, no rows.
refused() {
    run_job 2 sm "$@"
    [ "$rc" -eq 2 ] || { echo "  exit $rc"; return 1; }
    ! grep -q '^[0-9]' "$work/out" || { echo "  rows were measured"; return 1; }
}
check "-m 1:1M, bw>=11000@4M: refused" refused fabperf_bw -m 1:1M -i 20 --expect 'bw>=11000@4M'
check "bw>=11000@4M: one line naming the term and the measured range" one_line \
    "^fabperf_bw: --expect: 'bw>=11000@4M' matches none of the 21 size(s) this run measures (1 to 1048576 B; accepted: @SIZES holding one of them, or a wider -m/--message-size)$"
check "-m 1:1M, bw>=1@3 (between powers of two): refused" refused fabperf_bw -m 1:1M -i 20 --expect 'bw>=1@3'
check "-m 8:64, a second term off the sizes: refused" refused fabperf_latency -m 8:64 -i 20 --expect 'lat<=1000,lat<=5@2M:'
check "lat<=5@2M:: one line" one_line "^fabperf_latency: --expect: 'lat<=5@2M:' matches none of the 4 size(s) this run measures (8 to 64 B;"
run_job 2 sm fabperf_latency -m 8:64 -i 200 --batch 1 --expect 'lat<=100000@32:1M'
check "-m 8:64, lat<=100000@32:1M overlaps the sizes: judged at 32 and 64" sh -c \
    "[ $rc -eq 0 ] && [ \$(grep -c '^# expect size' '$work/out') -eq 2 ]"
check "lat>=5 (a latency must stay low): refused" refused fabperf_latency -m 8:8 -i 20 --expect 'lat>=5'
check "lat>=5: one line naming the term and what is accepted" one_line \
    "^fabperf_latency: --expect: 'lat>=5' is not a threshold: a latency compares with <= (lat<=N) (accepted: bw>=N"
check "bw<=100: refused" refused fabperf_bw -m 8:8 -i 20 --expect 'bw<=100'
check "bw<=100: one line" one_line "^fabperf_bw: --expect: 'bw<=100' is not a threshold: a rate compares with >= (bw>=N, busbw>=N) (accepted:"
check "bw>=0x10: refused" refused fabperf_bw -m 8:8 -i 20 --expect 'bw>=0x10'
check "bw>=0x10: one line" one_line "^fabperf_bw: --expect: 'bw>=0x10' is not a threshold: N must be a decimal number (11000, 1.5, 1e9) (accepted:"

run_job 2 sm fabperf_bw -m 64K:64K -i 20 --batch 1 --format json --line-rate 1T --expect '99%line'
check "--line-rate 1T --expect 99%line: exit 3, efficiency known" rc_is 3
check "99%line of 1 Tbit/s: fail, efficiency = p50 / 125000 MB/s" rows_hold \
    'r["verdict"] == "fail" and r["line_rate_gbps"] == 1000 and abs(r["efficiency"] - r["bw_p50_mbps"] / 125000) < 1e-9'

FABPERF_BIN=$FABPERF_COLL_BIN run_job 2 sm fabperf_allreduce -m 4K:4K -i 20 --batch 1 --format json --expect 'busbw>=1000000'
check "allreduce busbw>=1000000 GB/s: exit 3" rc_is 3
check "allreduce: judged on busbw" one_line 'expectation failed: size 4096: fail: median [0-9.e+-]* GB/s busbw'
check "allreduce on one host: no inter-node payload, whatever the algorithm" rows_hold \
    'r["verdict"] == "fail" and r["path"]["payload_bytes"] == 0'

run_job 2 sm fabperf_latency -m 8:8 -i 50 --format json --path-evidence off
check "--path-evidence off: exit 0, path null" rows_hold 'r["path"] is None'
run_job 2 sm fabperf_latency -m 8:8 -i 50 --format json
check "path evidence on one host: no inter-node payload" rows_hold \
    'r["path"]["payload_bytes"] == 0 and r["path"]["summary"].startswith("no inter-node payload")'

# Other traffic: a TCP flow on lo (tests/flow.py) while a run over shared memory, slowed by
# tests/faults/slow.c (1 ms per receive of rank 1) so that it lasts 0.3 s or more while moving
# about 1 MB: lo counts far more than the run can account for (fp_wire_allowance: 1.5 x its bytes,
# 1 KiB per message, 256 KiB), so it is said to be shared and makes no path claim.
"$PYTHON3" "$FABPERF_TESTS_DIR/flow.py" loopback 120 >"$work/flow.out" 2>&1 &
flow=$!
for _ in $(seq 100); do grep -q flowing "$work/flow.out" && break; sleep 0.1; done
run_with_slow 2 sm "FP_SLOW_RANK=1 FP_SLOW_AS=receiver FP_SLOW_FACTOR=1 FP_SLOW_US=1000" fabperf_latency \
    -m 1K:1K -i 300 -x 10 --format json
kill "$flow" 2>/dev/null
wait "$flow" 2>/dev/null
check "a flow on lo beside the run: exit 0" rc_is 0
check "a flow on lo beside the run: lo said shared (other traffic, beyond the allowance of what the run moved)" rows_hold \
    '[n["name"] for n in r["path"]["nics"] if n["other_traffic"]] == ["lo"]
     and all(n["bytes"] > 1.5 * n["accountable_bytes"] + 1024 * (n["accountable_bytes"] / 1024 + 1) + 262144
             for n in r["path"]["nics"] if n["name"] == "lo")
     and "(other traffic: " in r["path"]["summary"] and r["path"]["summary"].endswith("a NIC shared with other traffic: no path claim from it")'

# Adaptive: the clock of tests/faults/bimodal.c jumps 100 ms or 200 ms at alternate calls, so half
# the samples lie near 100 ms and half near 200 ms (far above what the machine's load adds), and
# a threshold at 150 ms (latency 75000 us: half a round trip) lies inside every CI of the median
# however many samples are taken. The CI target (50%) is met at the first check (32 samples),
# after which the rule alone takes 48 fresh samples; undecided, the pilot samples on until its
# share of the budget ends (target_met false). A threshold that the first CI decides is not
# sampled longer. The budgets are in the clock's time: the jumps cost no waiting.
bimodal_job() {
    job_program=$1
    shift
    timeout 120 "$FABPERF_LAUNCH" 2 sm env LD_PRELOAD="$FABPERF_BIMODAL_LIB" FP_BIMODAL_US=100000 \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" "$job_program" -x 10 -a --ci-target 50 \
        --batch 1 --format json "$@" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
}
bimodal_job "$FABPERF_BIN/fabperf_latency" -m 8:8 --time-budget 30 --expect 'lat<=75000'
check "adaptive latency, threshold between the modes: sampled past the CI target, undecided" rows_hold \
    'r["verdict"] == "inconclusive" and r["samples"] > 48 and r["target_met"] is False'
bimodal_job "$FABPERF_BIN/fabperf_latency" -m 8:8 --time-budget 30 --expect 'lat<=1000000'
check "adaptive latency, decided threshold: pass at the CI target's 48 samples" rows_hold \
    'r["verdict"] == "pass" and r["samples"] == 48 and r["target_met"] is True'
# Collectives judge the out-of-place busbw: 4096 B in 150 ms is 0.0000273 GB/s (2 ranks: busbw =
# algbw); each variant has a third of the budget.
bimodal_job "$FABPERF_COLL_BIN/fabperf_allreduce" -m 4K:4K --time-budget 90 --expect 'busbw>=0.0000273'
check "adaptive allreduce, busbw threshold between the modes: exit 4" rc_is 4
check "adaptive allreduce, busbw threshold between the modes: sampled past the CI target, undecided" rows_hold \
    'r["verdict"] == "inconclusive" and r["samples"] > 48 and r["target_met"] is False'
bimodal_job "$FABPERF_COLL_BIN/fabperf_allreduce" -m 4K:4K --time-budget 90 --expect 'busbw>=1'
check "adaptive allreduce, decided busbw threshold: exit 3" rc_is 3
check "adaptive allreduce, decided busbw threshold: fail at the CI target's 48 samples" rows_hold \
    'r["verdict"] == "fail" and r["samples"] == 48 and r["target_met"] is True'
# A %line term without --line-rate waits for the path evidence's line rate, which more samples
# cannot give: it does not keep the rule sampling.
bimodal_job "$FABPERF_COLL_BIN/fabperf_allreduce" -m 4K:4K --time-budget 90 --expect '50%line'
check "adaptive allreduce, %line without a line rate: inconclusive at the CI target's 48 samples" rows_hold \
    'r["verdict"] == "inconclusive" and r["samples"] == 48 and "line rate unknown" in r["expect"]'
finish
