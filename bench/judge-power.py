#!/usr/bin/env python3
"""judge-power: the all-pairs judge measured against known faults.

Runs clean and faulty sweeps (fabperf_allpairs or fabperf_allpairs_lat with --expect uniform) on
oversubscribed local ranks, the faults injected by tests/faults/libfpslow.so (one rank slow as
sender or receiver, or one link, by a factor F), and prints per mode, rank count and fault: the
false-alarm rate of clean sweeps (a finding stands), the detection rate (the fault named exactly,
standing) and the misattribution rate (a standing finding that names anything else), with the
undecided sweeps counted apart. A fault of factor F delays each data completion it touches by a
fixed (F - 1) x the median operation time of the clean sweeps of that mode and rank count (a window,
or a round trip), so that every cell it touches slows alike; "sender-part", "receiver-part" and
"link-part" are the same faults present half the time (50 ms slow, 50 ms not). Goals: false alarms
at most 5 %, 10x found in 95 %, 2x in 80 % from 6 ranks, never another node named (intermittent
faults: rates stated, no goal). With --check the exit status is 1 when a goal is missed.

With --leaves L the ranks hang from L leaf switches under one spine, in order (each rank named
host fh<rank> by the fault library, FP_SLOW_HOSTS, and the sweeps given that --topology), and the
faults "uplink" and "uplink-down" slow every message out of, or into, the first leaf's ranks: the
first leaf's uplink, which the finding must name (or, with two leaves, the second's other way, the
same cells); a node fault then is a slow node beside healthy switches, never to be blamed on one.
With --dealt the ranks are dealt out across the leaves in turn instead (rank r on leaf r mod L), the
order that makes shift rounds class-pure (docs/pairs.md).

Usage: bench/judge-power.py --build BUILD_DIR [--ranks 4,6,8,16] [--modes shift,isolated,sampled|search,suspects]
       [--faults sender,receiver,link[,sender-part,...]] [--factors 10,2,1.2] [--clean N] [--repeats N]
       [--program allpairs|allpairs_lat] [--iterations N] [--leaves L [--dealt]] [--log FILE] [--check]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

GOALS = {10.0: 0.95, 2.0: 0.80}
COLLECTIVES = ["allreduce", "allgather", "reduce_scatter", "bcast", "reduce", "alltoall"]
MODES = ["shift", "isolated", "sampled", "search", "suspects", "expect"]
LOADED = 0.25  # a second job kept at least this share of the cores busy (tests/foreign_cpu.py)
PART_S = 0.05  # an intermittent fault ("sender-part", "receiver-part", "link-part"): 50 ms slow, 50 ms not


def parse_args():
    p = argparse.ArgumentParser(prog="judge-power", description=__doc__.split("\n\n")[0])
    p.add_argument("--build", help="a configured and built fabperf tree (required but with --markdown)")
    p.add_argument("--ranks", default="4,6,8,16")
    p.add_argument("--modes", help="pairs: shift,isolated,sampled (the default); a collective: search (the "
                   "default), expect (--expect busbw at 3/4 of a clean launch's: each group judged against it at "
                   "its size) and suspects (--suspects with the slow rank and a healthy one, or two healthy ones)")
    p.add_argument("--faults", default="sender,receiver,link")
    p.add_argument("--factors", default="10,2,1.2")
    p.add_argument("--clean", type=int, default=10, help="clean sweeps per mode and rank count")
    p.add_argument("--repeats", type=int, default=5, help="sweeps per fault, mode and rank count")
    p.add_argument("--program", default="allpairs", choices=["allpairs", "allpairs_lat"] + COLLECTIVES,
                   help="a pairs program, or a collective: its --isolate search (mode 'search', fault 'member': "
                        "one rank enters every call late)")
    p.add_argument("--size", default="128K")
    p.add_argument("--leaves", type=int, default=0,
                   help="ranks on this many leaf switches under a spine (--topology); faults uplink, uplink-down")
    p.add_argument("--dealt", action="store_true", help="with --leaves: rank r on leaf r mod L")
    p.add_argument("--rounds", type=int, default=2, help="sampled mode's --rounds (default 2)")
    p.add_argument("--iterations", type=int, default=20,
                   help="operations per cell (-i; the latency program: 10 x this): more narrow the noise of a "
                        "cell measured while other pairs run")
    p.add_argument("--log", help="append every sweep's outcome as a JSON line here")
    p.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    p.add_argument("--smoke", action="store_true",
                   help="with --check, for a few sweeps: every sweep complete and at least 2 of 3 faults named over "
                        "the whole run (false alarms and other elements named are printed, their rates are the "
                        "full runs' to state)")
    p.add_argument("--markdown", metavar="LOG", help="print the table of a --log file as Markdown and exit")
    return p.parse_args()


def markdown(log):
    """One row per program, mode and rank count: clean sweeps with a standing finding, then per fault
    and factor the sweeps that named it (and, after a slash, those that named anything else)."""
    runs = [json.loads(line) for line in open(log)]
    cases = sorted({(r.get("program", "allpairs"), r["mode"], r["ranks"], r.get("leaves", 0), r.get("dealt", False))
                    for r in runs},
                   key=lambda c: (c[0], MODES.index(c[1]), c[2], c[3]))
    faults = sorted({(r["fault"][0], r["fault"][3]) for r in runs if r["fault"]},
                    key=lambda f: (["sender", "receiver", "link", "sender-part", "receiver-part",
                                    "link-part", "member", "uplink", "uplink-down"].index(f[0]), -f[1]))
    print("| program | mode | ranks | false alarms | clean undecided | "
          + " | ".join(f"{a} {f:g}x" for a, f in faults) + " |")
    print("|---|---|---|---|---|" + "---|" * len(faults))
    for prog, mode, np, leaves, dealt in cases:
        mine = [r for r in runs if (r.get("program", "allpairs"), r["mode"], r["ranks"], r.get("leaves", 0),
                                    r.get("dealt", False)) == (prog, mode, np, leaves, dealt)]
        clean = [r for r in mine if not r["fault"]]
        cells = [f"{sum(r['other'] for r in clean)}/{len(clean)}", f"{sum(r['undecided'] for r in clean)}/{len(clean)}"]
        for a, f in faults:
            got = [r for r in mine if r["fault"] and (r["fault"][0], r["fault"][3]) == (a, f)]
            notes = [f"{k} {what}" for k, what in ((sum(r["other"] for r in got), "other"),
                                                   (sum(r["undecided"] and not r["found"] for r in got), "undecided"))
                     if k]
            cells.append(f"{sum(r['found'] for r in got)}/{len(got)}" + (f" ({', '.join(notes)})" if notes else ""))
        where = f"{np} on {leaves} leaves{', dealt' if dealt else ''}" if leaves else f"{np}"
        print(f"| {prog} | {mode} | {where} | " + " | ".join(cells) + " |")


def measured_shifts(mode, n, rounds=2):
    """The shifts a sweep measures (pairs/pairs_schedule.c): every one but in sampled mode, where
    --rounds R picks shifts near j n / (R + 1) and their reverses, R growing until 3 are measured."""
    if mode != "sampled" or rounds >= n - 1:
        return list(range(1, n))
    def picks(r):
        chosen = set()
        for j in range(1, r + 1):
            pick = (j * n + (r + 1) // 2) // (r + 1)
            if 1 <= pick < n:
                chosen |= {pick, n - pick}
        return sorted(chosen)
    want, r, got = min(n - 1, 3), rounds, []
    while len(got) < want and r < n:
        got = picks(r)
        r += 1
    return got


def sweep(args, np, mode, fault, op_us=0.0, suspects=()):
    """One sweep; fault: None or (as, rank, peer, factor), a delay of (factor - 1) op_us per data
    completion it touches. Returns its records, exit status and the share of the cores that other
    processes kept busy meanwhile (tests/foreign_cpu.py)."""
    build = os.path.abspath(args.build)
    env = []
    # an instrumented (sanitizer) build must not insist on coming first in the preload order
    asan = os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    if args.leaves:  # every rank its own host name, for the topology; faults below add their settings
        env = ["env", f"LD_PRELOAD={build}/tests/faults/libfpslow.so", f"ASAN_OPTIONS={asan}", "FP_SLOW_HOSTS=1"]
    if fault and fault[0].startswith("uplink"):
        as_, rank, peer, factor = fault
        group = f"0-{np - 1}/{args.leaves}" if args.dealt else f"0-{leaf_size(np, args.leaves) - 1}"
        env += [f"FP_SLOW_RANK={rank}", "FP_SLOW_AS=uplink", f"FP_SLOW_GROUP={group}",
                f"FP_SLOW_DIR={'down' if as_ == 'uplink-down' else 'up'}", "FP_SLOW_FACTOR=1",
                f"FP_SLOW_US={(factor - 1.0) * op_us:.3f}"]
    elif fault:
        as_, rank, peer, factor = fault
        delay = (factor - 1.0) * op_us
        env = (env or ["env", f"LD_PRELOAD={build}/tests/faults/libfpslow.so", f"ASAN_OPTIONS={asan}"]) + [
               f"FP_SLOW_RANK={rank}",
               f"FP_SLOW_AS={as_.split('-')[0]}", f"FP_SLOW_PEER={peer}", "FP_SLOW_FACTOR=1", f"FP_SLOW_US={delay:.3f}"]
        if as_.endswith("-part"):  # slow half the time, in spells of PART_S seconds
            env += [f"FP_SLOW_ON_S={PART_S}", f"FP_SLOW_OFF_S={PART_S}"]
    if args.program in COLLECTIVES:
        # a member late into every call slows the sweep's own calls too: room beyond the automatic
        # per-size limit, which a 10x member of 16 oversubscribed ranks can exceed
        measure = ["-m", f"{args.size}:{args.size}", "-i", "20", "-x", "2", "--isolate", "--timeout", "400"]
        if mode == "suspects":
            measure += ["--suspects", ",".join(str(r) for r in suspects)]
        if mode == "expect":
            measure += ["--expect", f"busbw>={args.expect_busbw[np]:.6g}@{args.size}"]
    elif args.program == "allpairs":
        measure = ["-m", f"{args.size}:{args.size}", "-W", "8", "-i", str(args.iterations), "-x", "2"]
    else:
        measure = ["-m", "8:8", "-i", str(10 * args.iterations), "-x", "20"]
    if args.leaves:
        measure += ["--topology", args.topology]
    folder = "collective" if args.program in COLLECTIVES else "pairs"
    judged = ["--format", "json"] if args.program in COLLECTIVES else [
        "--mode", mode, "--rounds", str(args.rounds), "--expect", "uniform", "--format", "json"]
    share = tempfile.NamedTemporaryFile(prefix="judge-power-load.")
    here = os.path.dirname(os.path.abspath(__file__))
    cmd = [sys.executable, os.path.join(here, "..", "tests", "foreign_cpu.py"), share.name,
           f"{build}/tests/launch.sh", str(np), "sm"] + env + [
        f"{build}/{folder}/fabperf_{args.program}"] + measure + judged
    with tempfile.TemporaryFile() as out:
        rc = subprocess.call(cmd, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, timeout=600)
        out.seek(0)
        records = []
        for line in out.read().decode(errors="replace").splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                pass
    with share:
        foreign = float(share.read() or 0)
    return records, rc, foreign


def leaf_size(np, leaves):
    """Ranks on the first leaf: leaf of rank r is r * leaves // np (netns-bridge.sh alike)."""
    return sum(1 for r in range(np) if r * leaves // np == 0)


def topology_text(np, leaves, dealt=False):
    lines = ["switch spine"] + [f"switch leaf{k + 1} parent=spine" for k in range(leaves)]
    leaf = (lambda r: r % leaves) if dealt else (lambda r: r * leaves // np)
    return "\n".join(lines + [f"node fh{r} switch=leaf{leaf(r) + 1}" for r in range(np)]) + "\n"


def names_fault(f, fault, latency_round_trip):
    """Whether a standing finding names exactly the injected fault."""
    as_, rank, peer, _ = fault
    if as_.startswith("uplink"):  # the first leaf's uplink, or the same cells named from the other end
        want = "down" if as_ == "uplink-down" else "up"
        also = f.get("also") or {}
        return f["kind"] == "slow_uplink" and (
            (f.get("switch"), f.get("direction")) == ("leaf1", want) or (also.get("switch"), also.get("direction"))
            == ("leaf1", want))
    as_ = as_.split("-")[0]
    if as_ == "member":
        return f["kind"] == "member" and f["ranks"] == [rank]
    if as_ == "link":
        return f["kind"] == "slow_link" and f["ranks"] in ([rank, peer], [peer, rank]) and (
            f["direction"] in ("one-way", "both-ways") if latency_round_trip else f["ranks"][0] == rank)
    if f["kind"] != "slow_node" or f["ranks"] != [rank]:
        return False
    want = {"sender": ("send", "both"), "receiver": ("receive", "both")}[as_]
    return f["direction"] in want or f["direction"] == "round-trip"


def op_time_us(records, args):
    """The median cell's operation time of a clean sweep: a window (bandwidth) or a round trip."""
    if args.program in COLLECTIVES:  # a call of a group of the search's first level
        level = sorted(r["us"] for r in records if r.get("type") == "isolate_group" and r["round"] == 1 and r["us"])
        return level[len(level) // 2] if level else None
    rows = [r for r in records if r.get("type") == "row"]
    if not rows:
        return None
    if args.program == "allpairs":
        size = rows[0]["size"]
        return size * 8 / rows[0]["bw_p50_mbps"]  # window of 8 messages, MB/s = bytes/us
    return 2 * rows[0]["p50_us"]


def outcome(records, rc, fault, mode, program, foreign):
    kind = "isolate_finding" if program in COLLECTIVES else "finding"
    standing = [r for r in records if r.get("type") == kind and r.get("status") == "stands"]
    judges = [r for r in records if r.get("type") == ("isolate" if program in COLLECTIVES else "judge")]
    complete = any(r.get("type") == "end" and r.get("status") == "complete" for r in records)
    undecided = any(not j["decided"] or j.get("undecided") for j in judges)
    round_trip = mode == "isolated" and program == "allpairs_lat"
    right = [f for f in standing if fault and names_fault(f, fault, round_trip)]
    return {"complete": complete and bool(judges), "exit": rc, "stands": len(standing), "found": bool(right),
            "named": [[f["kind"], f.get("direction"), f["ranks"], f.get("round")] for f in standing],
            "other": len(standing) - len(right) > 0, "undecided": undecided, "foreign": foreign,
            "loaded_cannot_tell": rc == 4 and not standing and foreign >= LOADED,
            **({"rounds": judges[0]["rounds"], "seconds": judges[0]["seconds"]}
               if program in COLLECTIVES and judges else {})}


def main():
    args = parse_args()
    if args.markdown:
        markdown(args.markdown)
        return 0
    if not args.build:
        print("judge-power: --build: required (a configured and built fabperf tree)", file=sys.stderr)
        return 2
    ranks = [int(x) for x in args.ranks.split(",")]
    modes = (args.modes or ("search" if args.program in COLLECTIVES else "shift,isolated,sampled")).split(",")
    allowed = MODES[3:] if args.program in COLLECTIVES else MODES[:3]
    if any(m not in allowed for m in modes):
        print(f"judge-power: --modes: {args.modes} (accepted for {args.program}: {', '.join(allowed)})", file=sys.stderr)
        return 2
    if args.program in COLLECTIVES:
        args.faults = "member"
    factors = [float(x) for x in args.factors.split(",")]
    args.expect_busbw, args.calibration_op_us = {}, {}
    for np in ranks if "expect" in modes else []:
        # --expect busbw >= 3/4 of a clean launch's: a 2x member fails it, a clean launch meets it
        records, _, _ = sweep(args, np, "search", None)
        busbw = [r["oop_busbw_gbps"] for r in records if r.get("type") == "row" and r.get("oop_busbw_gbps")]
        if not busbw:
            print(f"judge-power: expect: no busbw from a clean launch of {np} ranks", file=sys.stderr)
            return 1
        args.expect_busbw[np] = 0.75 * busbw[0]
        args.calibration_op_us[np] = op_time_us(records, args) or 0.0  # clean launches that meet it search not
        print(f"# expect mode, {np} ranks: --expect busbw>={args.expect_busbw[np]:.6g} (3/4 of a clean launch's)")
    faults = args.faults.split(",")
    if any(f.startswith("uplink") for f in faults) and args.leaves < 2:
        print("judge-power: --faults uplink, uplink-down: need --leaves 2 or more", file=sys.stderr)
        return 2
    log = open(args.log, "a") if args.log else None
    missed = []
    total = {"faults": 0, "found": 0, "other": 0, "false": 0, "loaded_cannot_tell": 0}
    print(f"{'mode':<9} {'ranks':>5} {'fault':<13} {'factor':>6} {'sweeps':>6} {'undecided':>9} "
          f"{'found':>7} {'other named':>11} {'false alarm':>11}")
    started = time.time()
    for np in ranks:
        if args.leaves:
            topo = tempfile.NamedTemporaryFile("w", prefix="judge-power-topology.", suffix=".txt", delete=False)
            topo.write(topology_text(np, args.leaves, args.dealt))
            topo.close()
            args.topology = topo.name
        for mode in modes:
            cases = [(None, 1.0)] + [(a, f) for a in faults for f in factors]
            for as_, factor in cases:
                count = args.clean if as_ is None else args.repeats
                tally = {"n": 0, "undecided": 0, "found": 0, "other": 0, "incomplete": 0}
                if as_ is None:
                    op_times = []
                shifts = measured_shifts(mode, np, args.rounds)
                for k in range(count):
                    rank = (k * 3 + 1) % np  # the slow rank moves around, rank 0 included
                    peer = (rank + shifts[k % len(shifts)]) % np  # a link on a shift the sweep measures
                    fault = (as_, rank, peer, factor) if as_ else None
                    op_us = sorted(op_times)[len(op_times) // 2] if op_times else args.calibration_op_us.get(np, 0.0)
                    # --suspects: the slow rank (or a healthy one) and a healthy one half the job away
                    records, rc, foreign = sweep(args, np, mode, fault, op_us, (rank, (rank + np // 2) % np))
                    o = outcome(records, rc, fault, mode, args.program, foreign)
                    if as_ is None and op_time_us(records, args):
                        op_times.append(op_time_us(records, args))
                    tally["n"] += 1
                    tally["incomplete"] += not o["complete"]
                    tally["undecided"] += o["undecided"]
                    tally["found"] += o["found"]
                    tally["other"] += o["other"]
                    if as_:
                        total["loaded_cannot_tell"] += o["loaded_cannot_tell"]
                    if log:
                        log.write(json.dumps({"program": args.program, "ranks": np, "mode": mode, "fault": fault,
                                              **({"leaves": args.leaves} if args.leaves else {}),
                                              **({"dealt": True} if args.dealt else {}),
                                              "iterations": args.iterations,
                                              **({"sampled_rounds": args.rounds} if mode == "sampled" else {}),
                                              "delay_us": (fault[3] - 1) * op_us if fault else 0,
                                              **({"expect_busbw": args.expect_busbw[np]} if mode == "expect" else {}),
                                              **o}) + "\n")
                        log.flush()
                n = tally["n"]
                total["faults" if as_ else "false"] += n if as_ else tally["other"]
                total["found"] += tally["found"]
                total["other"] += tally["other"] if as_ else 0
                pct = lambda x: f"{100.0 * x / n:6.1f}%"
                if as_ is None:
                    print(f"{mode:<9} {np:>5} {'clean':<13} {'':>6} {n:>6} {tally['undecided']:>9} {'':>7} {'':>11} "
                          f"{pct(tally['other']):>11}", flush=True)
                    if tally["other"] > 0.05 * n:
                        missed.append(f"{mode} {np} clean: false alarms {tally['other']} of {n}")
                else:
                    print(f"{mode:<9} {np:>5} {as_:<13} {factor:>5g}x {n:>6} {tally['undecided']:>9} "
                          f"{pct(tally['found']):>7} {pct(tally['other']):>11} {'':>11}", flush=True)
                    need = GOALS.get(factor, 0.0) if (factor >= 10 or np >= 6) and "-part" not in as_ else 0.0
                    if tally["found"] < need * n:
                        missed.append(f"{mode} {np} {as_} {factor:g}x: found {tally['found']} of {n}")
                    if factor >= 2 and tally["other"]:
                        missed.append(f"{mode} {np} {as_} {factor:g}x: another element named in {tally['other']}")
                if tally["incomplete"]:
                    missed.append(f"{mode} {np} {as_ or 'clean'}: {tally['incomplete']} sweep(s) did not complete")
    if args.smoke:
        missed = [m for m in missed if "did not complete" in m]
        # a fault sweep that could not tell while a second job kept the cores busy is not counted
        judged = total["faults"] - total["loaded_cannot_tell"]
        if 3 * total["found"] < 2 * judged:
            missed.append(f"whole run: {total['false']} false alarm(s), {total['other']} other named, "
                          f"{total['found']} of {judged} faults named ({total['loaded_cannot_tell']} more could not "
                          "tell beside a second job)")
    print(f"# {time.time() - started:.0f} s; goals missed: {len(missed)}")
    for m in missed:
        print(f"#   {m}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
