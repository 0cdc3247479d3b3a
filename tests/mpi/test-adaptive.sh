#!/bin/sh
# Adaptive stop rule: every row says whether the CI target was met; met rows are within target.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"

run_job 2 sm fabperf_latency -a --ci-target 5 --time-budget 0.5 -m 1:4K --format json
check "latency -a: exit 0" rc_is 0
check "latency -a: rows parse, target_met present" \
    check_output json "$work/out" --metric latency --max 4096 --adaptive
check "latency -a: met rows have CI half-width <= 5%, others spent the budget" "$PYTHON3" -c '
import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "row"]
bad = [r for r in rows if r["target_met"] and not r["ci_halfwidth_pct"] <= 5.0]
bad += [r for r in rows if r["samples"] < 32]
meta = json.loads(open(sys.argv[1]).readline())
sys.exit(1 if bad or not meta["adaptive"] or meta["ci_target_pct"] != 5 else 0)' "$work/out"

# A target nobody can meet: the budget ends each size, and the rows say so.
run_job 2 sm fabperf_bw -a --ci-target 0.001 --time-budget 0.2 -m 1K:4K --format json
check "bw -a impossible target: exit 0" rc_is 0
check "bw -a impossible target: every row missed it, unless its CI really is that narrow" "$PYTHON3" -c '
import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "row"]
ok = len(rows) == 3 and all(r["target_met"] is False or r["ci_halfwidth_pct"] <= 0.001 for r in rows)
ok = ok and sum(r["target_met"] is False for r in rows) >= 1
sys.exit(0 if ok else 1)' "$work/out"

# --batch fixes operations per sample; samples = ceil(iterations / batch).
run_job 2 sm fabperf_latency --batch 8 -i 1000 -m 1:2 --format json
check "--batch 8 -i 1000: 125 samples of batch 8" "$PYTHON3" -c '
import json, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "row"]
sys.exit(0 if rows and all(r["batch"] == 8 and r["samples"] == 125 for r in rows) else 1)' "$work/out"
finish
