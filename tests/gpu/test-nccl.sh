#!/bin/sh
# Every collective on the NCCL backend with one rank on one GPU: validation on, nccl-tests
# layout parsed, no busbw (one rank: nothing crosses between ranks) and no in-place algbw (nothing
# moves); half and bfloat16 allreduce; the NCCL version and environment in the header; at every
# size enough samples for the interval printed and the header saying what one sample timed.
# Skips (77) without NCCL in the build or without a GPU.
# shellcheck source=tests/lib.sh
. "$FABPERF_TESTS_DIR/lib.sh"
FABPERF_BIN=${FABPERF_COLL_BIN:?run through make check}

if [ "${FABPERF_NCCL_BUILT:-no}" != yes ] || [ -z "${FABPERF_GPU_PROBE:-}" ]; then
    echo "SKIP: built without NCCL"
    exit 77
fi
"$FABPERF_GPU_PROBE" || exit 77

for program in allreduce allgather reduce_scatter bcast reduce alltoall; do
    factor=0 root=-1 inplace=""
    case $program in bcast | reduce) factor=1 root=0 ;; esac
    [ "$program" = alltoall ] && inplace=--no-in-place
    run_job 1 default "fabperf_$program" --backend nccl -m 4:64M -f 16 -i 20 -x 5 -c
    check "nccl $program: exit 0" rc_is 0
    # shellcheck disable=SC2086 # inplace is empty or one word
    check "nccl $program: rows parse, #wrong 0, one rank: busbw and in-place algbw n/a" check_output text \
        "$work/out" --metric collective --min 4 --max 67108864 --factor 16 --unit 4 --busbw-factor "$factor" \
        --validated --type float --root "$root" --one-rank $inplace
    check "nccl $program: header names NCCL and the GPU" sh -c \
        "grep -q '^# backend: nccl' '$work/out' && grep -q '^# gpu: .*PCI' '$work/out'"
done

# The transport NCCL chose, from its own log: one rank has no peer, so a network is assigned but no
# connection is made; on the GPU machine (no RDMA) the network is Socket and GPUDirect RDMA is off.
run_job 1 default fabperf_allreduce --backend nccl -m 8:1K -i 10 -x 2
check "nccl transport recorded from NCCL's log" grep -Eq \
    '^# backend: nccl .*; transport \(rank 0, from NCCL.s log\): network (Socket|IB) \(plugin: [^)]*\), GPUDirect RDMA (on|off), connections: 0 P2P, 0 SHM, 0 NET' \
    "$work/out"
grep '^# backend:' "$work/out"
check "no NCCL log left in TMPDIR" sh -c "! ls \"\${TMPDIR:-/tmp}\"/fabperf-nccl.*.log 2>/dev/null | grep -q ."
NCCL_DEBUG=WARN
export NCCL_DEBUG
run_job 1 default fabperf_allreduce --backend nccl -m 8:1K -i 10 -x 2
unset NCCL_DEBUG
check "NCCL_DEBUG of the user: transport unknown, said why" grep -q \
    'transport (rank 0, from NCCL.s log): unknown (NCCL_DEBUG set without NCCL_DEBUG_FILE' "$work/out"
# -n 256 up to 512 MiB: at every size a sample is 8 calls back to back (the NCCL backend's
# smallest automatic batch: a lone call's sample holds the host's launch gap, which nccl-tests'
# back-to-back calls hide; 256 calls / 32 samples caps it at 8), 32 samples support the interval
# printed, the row says how many calls one sample timed, and the header says that this is per size.
run_job 1 default fabperf_allreduce --backend nccl -b 8 -e 512M -f 4 -n 256 -w 5 --format json
check "nccl allreduce -n 256: exit 0" rc_is 0
check "nccl allreduce -n 256: batch 8 and 32 samples at every size, timed_calls = samples x batch, interval brackets the median" \
    json_check "$work/out" "rows and rows[-1]['size'] == 536870912 and all(r['batch'] == 8 and r['samples'] == 32 and r['timed_calls'] == 256 and r['p50_ci_lo_us'] <= r['p50_us'] <= r['p50_ci_hi_us'] for r in rows)"
check "nccl allreduce -n 256: one rank, no bandwidth where nothing moved" json_check "$work/out" \
    "all(r['oop_busbw_gbps'] is None and r['ip_busbw_gbps'] is None and r['ip_algbw_gbps'] is None for r in rows)"
run_job 1 default fabperf_allreduce --backend nccl -b 512M -e 512M -n 20 -w 5 --format json
check "nccl allreduce -n 20: still 8 calls per sample (3 samples: min..max, no interval)" \
    json_check "$work/out" "rows and all(r['batch'] == 8 and r['samples'] == 3 for r in rows)"
run_job 1 default fabperf_allreduce --backend nccl -b 256K -e 256K -n 200 -w 5
check "nccl allreduce text: header says calls per sample are per size, 'n/a' for in-place algbw" sh -c \
    "grep -q '^# per size: samples and batch (calls per sample) in the row' '$work/out' && grep -q '^# variants: out-of-place and in-place time .batch. calls per sample (one call when batch is 1' '$work/out' && grep -q '^# busbw: n/a with n = 1' '$work/out' && grep -E '^ +262144 ' '$work/out' | awk '{exit !(\$8 == \"n/a\" && \$5 == \"n/a\")}'"
run_job 1 default fabperf_allreduce --backend nccl -b 8 -e 8M -f 8 -n 200 -w 5 --layout nccl-tests -c
# nccl-tests prints numbers in every numeric column, busbw 0.00 on one rank: a parser that reads
# them as floats must not break (the header says busbw means nothing with n = 1).
check "nccl allreduce --layout nccl-tests: header says where calls per sample are; rows are nccl-tests' numbers" sh -c \
    "grep -q '^# per size: samples, batch (calls per sample) and timed_calls in --format csv or json' '$work/out' && grep -q '^# busbw: n/a with n = 1' '$work/out' && grep -E '^ +[0-9]+ ' '$work/out' | awk '{ for (i = 6; i <= 12; i++) if (i != 9 && \$i !~ /^[0-9.e+-]+\$/) exit 1; if (\$8 != \"0.00\" || \$12 != \"0.00\") exit 1; n++ } END { exit !(n > 0) }'"

for type in half bfloat16 double int32 int64; do
    run_job 1 default fabperf_allreduce --backend nccl -T "$type" -o max -m 8:1M -f 32 -i 64 -x 5 -c --format json
    check "nccl allreduce $type max: exit 0" rc_is 0
    check "nccl allreduce $type max: rows Pass" check_output json "$work/out" --metric collective \
        --min 8 --max 1048576 --factor 32 --unit 8 --busbw-factor 0 --validated --one-rank
done
# CUDA events (the NCCL backend's timer) against MPI_Wtime around the same calls. An MPI_Wtime
# sample also holds the host's launch and its wait for the stream, which events leave out; over
# the NCCL backend's 8 calls per sample that is 0.1-0.5 us per call at 1-256 MiB on an H200. So at
# every size events read no more than MPI_Wtime (2 % and 3 us for the noise of two launches'
# medians: a 1 MiB call of 5-9 us moved by 1-3 us between launches on an H100, either timer) and
# at most 15 us less, and where a call is long (256 MiB) the two agree within 10%. No bus
# bandwidth exceeds the card's copy ceiling.
ceiling=$("$FABPERF_GPU_PROBE" --copy-ceiling)
for timer in cuda wtime; do
    run_job 1 default fabperf_allreduce --backend nccl --timer "$timer" -m 1M:256M -f 4 -i 200 -x 20 --format json
    check "nccl allreduce --timer $timer: exit 0" rc_is 0
    cp "$work/out" "$work/$timer.json"
done
check "nccl allreduce: CUDA events <= MPI_Wtime by at most 15 us at every size, within 10% at 256 MiB" "$PYTHON3" -c '
import json, sys
rows = [{r["size"]: r["p50_us"] for r in map(json.loads, open(f)) if r["type"] == "row"} for f in sys.argv[1:3]]
cuda, wtime = rows
print(" ".join("%d: %.2f/%.2f" % (s >> 20, cuda[s], wtime.get(s, float("nan"))) for s in cuda))
sys.exit(not (cuda.keys() == wtime.keys() and all(cuda[s] <= 1.02 * wtime[s] + 3 and wtime[s] <= cuda[s] + 15 for s in cuda)
              and 0.9 <= cuda[268435456] / wtime[268435456] <= 1.1))' \
    "$work/cuda.json" "$work/wtime.json"
check "nccl allreduce: algbw at most 1.05 x the copy ceiling ($ceiling MB/s)" json_check "$work/cuda.json" \
    "all(r['oop_algbw_gbps'] * 1000 <= 1.05 * $ceiling for r in rows)"
# Two ranks on the one GPU: NCCL cannot run them ("Duplicate GPU detected"); the refusal comes
# before NCCL starts, as in the pairs programs: exit 2, one line naming the ranks, GPU and host.
if [ "$("$FABPERF_GPU_PROBE" | awk '{ print $1; exit }')" = 1 ]; then
    for program in allreduce alltoall; do
        run_job 2 default "fabperf_$program" --backend nccl -m 8:8 -i 10 -x 1
        check "nccl $program, two ranks on one GPU: refused up front (exit 2, one line)" sh -c \
            "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_$program:' '$work/err') -eq 1 ] && grep -Eq '^fabperf_$program: --backend nccl: ranks 0 and 1 share the GPU .* and NCCL needs one GPU per rank' '$work/err' && ! grep -q 'Duplicate GPU' '$work/err' '$work/out'"
    done
    # --isolate with NCCL needs 4 ranks, each on its own GPU: on one GPU, the same refusal.
    run_job 4 default fabperf_allreduce --backend nccl --isolate -m 1M:1M -i 10 -x 1
    check "nccl --isolate, four ranks on one GPU: refused up front (exit 2, one line)" sh -c \
        "[ $rc -eq 2 ] && [ \$(grep -c '^fabperf_allreduce:' '$work/err') -eq 1 ] && grep -q 'share the GPU .* and NCCL needs one GPU per rank' '$work/err'"
fi
# What NCCL chose per size (algorithm, protocol, channels), from fabperf's profiler plugin. One rank
# has none (NCCL copies locally); two ranks need two GPUs, or two NCCL hosts: with NCCL_HOSTID set
# differently per rank NCCL treats the two ranks on one GPU as two nodes joined by its socket
# transport (here on loopback), and fabperf's check of one GPU per rank follows NCCL's hosts.
run_job 1 default fabperf_allreduce --backend nccl -m 1K:1K -i 8 -x 2
check "nccl one rank: the header says no algorithm is chosen" grep -q \
    '^# backend: nccl .*; algorithm per size: none with one rank (NCCL copies locally)' "$work/out"
envdir=$work/env
mkdir -p "$envdir/all" "$envdir/rank.0" "$envdir/rank.1"
printf fabperf-host-a >"$envdir/rank.0/NCCL_HOSTID"
printf fabperf-host-b >"$envdir/rank.1/NCCL_HOSTID"
printf lo >"$envdir/all/NCCL_SOCKET_IFNAME"
printf 1 >"$envdir/all/NCCL_IB_DISABLE"
two_hosts() { # FORMAT EXTRA-ENV... : allreduce 8 B to 1 MiB on two NCCL hosts sharing the GPU
    format=$1
    shift
    rm -f "$envdir/all/NCCL_DEBUG" "$envdir/all/NCCL_DEBUG_SUBSYS" "$envdir/all/NCCL_DEBUG_FILE" \
        "$envdir/all/NCCL_PROFILER_PLUGIN" "$envdir/all/NCCL_CONF_FILE"
    for assignment in "$@"; do printf %s "${assignment#*=}" >"$envdir/all/${assignment%%=*}"; done
    FP_ENV_DIR=$envdir timeout 600 "$FABPERF_LAUNCH" 2 default "$FABPERF_TESTS_DIR/rank-env.sh" \
        "$FABPERF_BIN/fabperf_allreduce" --backend nccl -m 8:1M -f 16 -i 8 -x 2 --format "$format" \
        </dev/null >"$work/out" 2>"$work/err"
    rc=$?
    grep '^# backend:' "$work/out"
    cat "$work/err"
}
two_hosts json NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING "NCCL_DEBUG_FILE=$work/tuning.%p.log"
check "nccl two hosts: exit 0, the header says where the choices come from" json_check "$work/out" \
    "$rc == 0 and 'algorithm per size: from NCCL' in meta['backend'] and len(rows) == 5"
check "nccl two hosts: every size has NCCL's algorithm, protocol and channel count" json_check "$work/out" \
    "all(r['nccl_algo'] in ('RING', 'TREE', 'COLLNET_DIRECT', 'COLLNET_CHAIN', 'NVLS', 'NVLS_TREE', 'PAT') and r['nccl_proto'] in ('LL', 'LL128', 'SIMPLE') and r['nccl_channels'] >= 1 for r in rows)"
# NCCL's own tuning log names the same choice for the same byte count.
check "nccl two hosts: each size's choice is in NCCL's tuning log for that size" "$PYTHON3" -c '
import glob, json, re, sys
seen = set()
for name in glob.glob(sys.argv[2] + "/tuning.*.log"):
    for line in open(name, errors="replace"):
        m = re.search(r"AllReduce: (\d+) Bytes -> Algo (\w+) proto (\w+) channel\{Lo..Hi\}=\{(\d+)..(\d+)\}", line)
        if m:
            seen.add((int(m[1]), m[2], m[3], int(m[5]) - int(m[4]) + 1))
rows = [r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "row"]
print(sorted(seen))
sys.exit(not rows or not all((r["size"], r["nccl_algo"], r["nccl_proto"], r["nccl_channels"]) in seen for r in rows))' \
    "$work/out" "$work"
two_hosts text
check "nccl two hosts, text: one '# nccl SIZE: AllReduce: ...' line under each of the 5 sizes" sh -c \
    "[ $rc -eq 0 ] && [ \$(grep -Ec '^# nccl (8|128|2048|32768|524288): AllReduce: [A-Z_]+ (LL|LL128|SIMPLE), [0-9]+ channels? \\([0-9]+ calls?\\)' '$work/out') -eq 5 ]"
grep '^# nccl' "$work/out"
two_hosts json NCCL_PROFILER_PLUGIN=none
check "nccl two hosts, the user's NCCL_PROFILER_PLUGIN: the choices unknown, said why, null per size" json_check \
    "$work/out" "$rc == 0 and 'algorithm per size: unknown (NCCL_PROFILER_PLUGIN=none is the user' in meta['backend'] and all(r['nccl_algo'] is None and r['nccl_channels'] is None for r in rows)"
printf 'NCCL_PROFILER_PLUGIN=none\n' >"$work/nccl.conf"
two_hosts json "NCCL_CONF_FILE=$work/nccl.conf"
check "nccl two hosts, a profiler in NCCL's configuration file: left alone, the choices unknown, the file named" \
    json_check "$work/out" "$rc == 0 and 'algorithm per size: unknown ($work/nccl.conf names NCCL_PROFILER_PLUGIN' in meta['backend'] and all(r['nccl_algo'] is None for r in rows)"
# --isolate with NCCL on one rank: the sweep runs, the search says it has too few ranks (exit 4).
run_job 1 default fabperf_allreduce --backend nccl --isolate -m 1M:1M -i 10 -x 1 --format json
check "nccl --isolate on one rank: the sweep measured, the search too few ranks to search, exit 4" json_check "$work/out" \
    "$rc == 4 and len(rows) == 1 and [(i['mode'], i['rounds'], i['decided'], i['reason']) for i in records if i['type'] == 'isolate'] == [('search', 0, False, 'too few ranks to search (1 < 4)')]"
# The split itself (backend/nccl_comm.c, ncclCommSplit), as a search makes it each round, on the
# GPUs there are: groups of two ranks ordered by key, an allreduce on each group checked, a rank
# in no group without a communicator.
if [ -n "${FABPERF_NCCL_SPLIT:-}" ]; then
    gpus=$("$FABPERF_GPU_PROBE" | awk '{ print $1; exit }')
    timeout 300 "$FABPERF_LAUNCH" "$gpus" default "$FABPERF_NCCL_SPLIT" </dev/null >"$work/out" 2>"$work/err"
    rc=$?
    cat "$work/out" "$work/err"
    check "fp_nccl_split on $gpus GPU(s): every check holds, exit 0" sh -c "[ $rc -eq 0 ] && ! grep -q '^not ok' '$work/out' && [ \$(grep -c '^ok' '$work/out') -eq $((gpus * 5)) ]"
fi
finish
