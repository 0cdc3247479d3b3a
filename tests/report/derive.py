#!/usr/bin/env python3
"""Run folders for the report tests, derived from the golden one (made by the programs).

  derive.py assumed GOLDEN OUT [NODES]
      GOLDEN plus what the programs do not write yet, in the formats fabperf-report assumes
      (docs/report.md): verdict, threshold, line rate, efficiency and path evidence in the
      tcp bandwidth rows, an all-pairs file with a NODES x NODES matrix (8), and
      four damaged copies of a real result: cut mid-line, empty, not JSON, and the
      temporary file of a launch killed before it renamed it (no end line).
  derive.py scale GOLDEN OUT CONFIGS NODES
      CONFIGS configurations (copies of the golden results under new labels, values scaled, 3
      launches each, every size passing but 64 B of the last one) and an all-pairs matrix of NODES
      nodes: the page-size measurement.
  derive.py judged OUT
      sweeps whose findings carry the re-test's status and whose sizes each have a judge record:
        slowcol  4 nodes, a solid slow column (node3 as receiver) at 64K and 1M, no finding
                 stands: undecided after the re-test at 64K (its row still says pass), not
                 re-measured at 1M (the judge could not decide: the re-test budget was spent)
        three    3 nodes, latency: too few nodes to judge (3 < 4); every cell passes its threshold
        sampled  6 nodes, 2 of 5 shifts (no slow link can be placed): no suspect, but the size's
                 "uniform" term is inconclusive
        judged   6 nodes: 4K decided with no suspect (the one size that passes); at 1M a slow
                 sender stands (its row passes lat/bw thresholds all the same), another is cleared,
                 one round was slow
        iso      4 nodes, latency in isolated mode (unordered pairs): a node slow in round trips
                 stands, a link both ways is undecided; no --expect
"""

import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from fabperf import results  # noqa: E402  (the tools' reader of fabperf results)


def read_lines(path):
    return results.read(path, complete=True).records


def write_lines(path, records):
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


def add_verdicts(folder):
    """tcp bandwidth: size 1 fails in both launches, size 2 passes in one launch only."""
    for repeat in (1, 2):
        path = os.path.join(folder, f"tcp.{repeat}.fabperf_bw.json")
        records = read_lines(path)
        for r in records:
            if r.get("type") != "row":
                continue
            need = 0.001
            if r["size"] == 1 or (r["size"] == 2 and repeat == 2):
                need = 1e12
            r["expect"] = {"quantity": "bw_p50_mbps", "op": ">=", "value": need, "unit": "MB/s"}
            r["verdict"] = "pass" if r["bw_p50_mbps"] >= need else "fail"
            r["line_rate_gbps"] = 100.0
            r["efficiency"] = r["bw_p50_mbps"] * 8 / 1000 / 100.0
            r["path"] = {"nics": [{"node": "vm", "name": "lo", "share": 1.0}]}
        write_lines(path, records)
    # shm latency, six launches: line rates and efficiencies whose median is not their mean (the
    # size table shows the median over launches: 17.5 Gb/s, 15.0 %; a mean would read 42.5, 38.3).
    for repeat, rate, eff in zip(range(1, 7), (10, 10, 10, 25, 100, 100), (0.1, 0.1, 0.1, 0.2, 0.9, 0.9)):
        path = os.path.join(folder, f"shm.{repeat}.fabperf_latency.json")
        records = read_lines(path)
        for r in records:
            if r.get("type") == "row":
                r["line_rate_gbps"] = float(rate)
                r["efficiency"] = eff
        write_lines(path, records)


def pairs_records(nodes):
    """An all-pairs file in fabperf_allpairs' JSON: a bandwidth matrix with node 2 slow on every
    pair and links 0-3 and 0-1 slow; findings saying so (node 5 found and cleared), a cell that
    failed a threshold, the size's row."""
    names = [f"n{i:03d}" for i in range(nodes)]
    values = []
    for i in range(nodes):
        row = []
        for j in range(nodes):
            v = None if i == j else 10000.0 + (i * 7 + j * 3) % 50
            if v and 2 in (i, j):
                v = 5000.0
            if v and {i, j} in ({0, 3}, {0, 1}):
                v = 3000.0
            row.append(v)
        values.append(row)
    size, unit = 1 << 20, "MB/s"
    head = {"size": size, "quantity": "bandwidth", "unit": unit}
    listed = nodes <= 64  # the program lists a node's pairs up to 64 nodes
    slow_node = dict(head, type="finding", kind="slow_node", direction="both", nodes=[names[2]], ranks=[2],
                     value=5000.0, ci_lo=4990.0, ci_hi=5010.0, expected=10000.0, cells=2 * (nodes - 1),
                     confirmed=2, alone={"value": 5001.0, "ci_lo": 4995.0, "ci_hi": 5008.0}, cleared=False,
                     message=f"slow node {names[2]} as sender and receiver: 5000 MB/s; alone: stands")
    if listed:
        slow_node["pairs"] = [[names[2], names[j]] for j in range(nodes) if j != 2] + \
            [[names[j], names[2]] for j in range(nodes) if j != 2]
    link = dict(head, type="finding", kind="slow_link", direction="both-ways", nodes=[names[0], names[3]],
                ranks=[0, 3], pairs=[[names[0], names[3]], [names[3], names[0]]], value=3000.0, ci_lo=2990.0,
                ci_hi=3010.0, expected=10000.0, cells=2, confirmed=2, alone=None, cleared=False,
                message=f"slow link {names[0]} <-> {names[3]}: 3000 MB/s")
    cleared = dict(head, type="finding", kind="slow_node", direction="send", nodes=[names[5]], ranks=[5],
                   value=9000.0, ci_lo=8990.0, ci_hi=9010.0, expected=10000.0, cells=nodes - 1, confirmed=1,
                   alone={"value": 10002.0, "ci_lo": 9990.0, "ci_hi": 10010.0}, cleared=True,
                   message=f"slow node {names[5]} as sender; alone: cleared, congestion of the sweep")
    columns = ["size", "bw_mbps", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps", "samples"]
    return [
        {"type": "meta", "program": "fabperf_allpairs", "version": "0.1.0", "metric": "bandwidth",
         "label": "allpairs", "columns": columns},
        dict(head, type="matrix", better="higher", mode="shift", nodes=names, shifts=list(range(1, nodes)),
             values=values),
        slow_node, link, cleared,
        {"type": "verdict", "size": size, "expect": "bw>=9000", "verdict": "fail", "pair": [names[0], names[1]],
         "ranks": [0, 1], "value": 3000.0, "ci_lo": 2990.0, "ci_hi": 3010.0},
        {"type": "row", "size": size, "bw_mbps": 10000.0, "bw_p50_mbps": 10000.0, "bw_ci_lo_mbps": 9990.0,
         "bw_ci_hi_mbps": 10010.0, "samples": nodes * (nodes - 1)},
        {"type": "end", "status": "complete", "failures": 0},
    ]


def damaged(folder):
    with open(os.path.join(folder, "tcp.1.fabperf_latency.json"), encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    cut = "".join(lines[:5]) + lines[5][: len(lines[5]) // 2]
    killed = "".join(line for line in lines if '"type":"end"' not in line)
    for name, text in (("tcp.3.fabperf_latency.json", cut), ("tcp.4.fabperf_latency.json", ""),
                       ("tcp.5.fabperf_latency.json", "Segmentation fault\n"),
                       ("tcp.6.fabperf_latency.json.tmp.4242", killed)):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)


def assumed(golden, out, nodes=8):
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(golden, out)
    add_verdicts(out)
    write_lines(os.path.join(out, "pairs.json"), pairs_records(nodes))
    damaged(out)


def scale(golden, out, configs, nodes):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    sources = sorted(n for n in os.listdir(golden) if n.startswith(("shm.", "tcp.")) and
                     n.endswith(".json") and ".1." in n)
    for k in range(configs):
        source = sources[k % len(sources)]
        records = read_lines(os.path.join(golden, source))
        label = f"cfg{k:04d}"
        records[0]["label"] = label
        factor = 1 + (k % 17) / 10
        for r in records:
            for key in ("p50_us", "p50_ci_lo_us", "p50_ci_hi_us"):
                if isinstance(r.get(key), (int, float)):
                    r[key] *= factor
            if r.get("type") == "row":  # every size passes but 64 B of the last configuration
                r["verdict"] = "fail" if (k, r["size"]) == (configs - 1, 64) else "pass"
        for repeat in (1, 2, 3):
            write_lines(os.path.join(out, f"{label}.{repeat}.{records[0]['program']}.json"), records)
    write_lines(os.path.join(out, "pairs.json"), pairs_records(nodes))


def judged_matrix(names, base, slow=None, quantity="bandwidth", mode="shift"):
    """A sweep's matrix record: base everywhere (a little spread), the cells in slow {(i, j): v}."""
    n, slow = len(names), slow or {}
    values = [[None if i == j else slow.get((i, j), base * (1 + ((i * 7 + j * 3) % 5) / 100))
               for j in range(n)] for i in range(n)]
    lower = quantity == "latency"
    return {"type": "matrix", "quantity": quantity, "unit": "us" if lower else "MB/s",
            "better": "lower" if lower else "higher", "mode": mode, "nodes": names,
            "shifts": list(range(1, n)), "values": values}


def estimate(value, lo, hi):
    return {"value": value, "ci_lo": lo, "ci_hi": hi}


def judge(size, quantity, mode, nodes, decided=True, reason="", suspects=0, stands=0, cleared=0,
          undecided=0, spent=0.0, places=("sender", "receiver", "link")):
    """The judge's record of one size, in the fields the sweeps write after their findings."""
    return {"type": "judge", "size": size, "quantity": quantity,
            "unit": "us" if quantity == "latency" else "MB/s", "mode": mode, "nodes": nodes,
            "decided": decided, "reason": reason, "places": list(places), "suspects": suspects,
            "stands": stands, "cleared": cleared, "undecided": undecided, "budget_s": 30.0,
            "spent_s": spent, "min_effect": 0.25}


def finding(size, quantity, kind, direction, nodes, ranks, pairs, value, expected, status, alone, healthy,
            why, message, **extra):
    record = {"type": "finding", "size": size, "quantity": quantity,
              "unit": "us" if quantity == "latency" else "MB/s", "kind": kind, "direction": direction,
              "nodes": nodes, "ranks": ranks, "value": value, "ci_lo": value * 0.98, "ci_hi": value * 1.02,
              "expected": expected, "cells": len(pairs) if pairs else 0, "confirmed": 0, "alone": alone,
              "healthy_alone": healthy, "status": status, "cleared": status == "cleared", "why": why,
              "message": message}
    if pairs is not None:
        record["pairs"] = pairs
    record.update(extra)
    return record


def row(size, value, samples, verdict=None, expect=None, latency=False):
    if latency:
        r = {"type": "row", "size": size, "p50_us": value, "p50_ci_lo_us": value * 0.99,
             "p50_ci_hi_us": value * 1.01, "samples": samples}
    else:
        r = {"type": "row", "size": size, "bw_mbps": value, "bw_p50_mbps": value, "bw_ci_lo_mbps": value * 0.99,
             "bw_ci_hi_mbps": value * 1.01, "samples": samples}
    if verdict is not None:
        r.update(verdict=verdict, expect=expect)
    return r


def sweep_meta(program, label, latency=False):
    columns = ["size", "p50_us", "p50_ci_lo_us", "p50_ci_hi_us", "samples"] if latency else \
        ["size", "bw_mbps", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps", "samples"]
    return {"type": "meta", "program": program, "version": "0.1.0", "metric": "latency" if latency else "bandwidth",
            "label": label, "columns": columns}


def judged(out):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    end = {"type": "end", "status": "complete", "failures": 0}
    bw, lat = "bandwidth", "latency"

    # slowcol: every cell into node3 at a quarter of the rest, at both sizes; no finding stands.
    names = ["node1", "node2", "node3", "node4"]
    column = {(i, 2): 2500.0 for i in (0, 1, 3)}
    into = [[names[i], names[2]] for i in (0, 1, 3)]
    records = [sweep_meta("fabperf_allpairs", "slowcol")]
    for size, status, alone, healthy, why, decided, reason, spent in (
            (65536, "undecided", estimate(6000.0, 4000.0, 9500.0), estimate(9800.0, 9500.0, 10100.0),
             "alone, between the sweep's value and the healthy pairs alone: neither stands nor clears",
             True, "", 12.0),
            (1048576, "undecided", None, None, "not re-measured: the re-test budget was spent", False,
             "re-test budget spent: 1 suspects not re-measured", 30.0)):
        records.append(dict(judged_matrix(names, 10000.0, column), size=size))
        records.append(finding(size, bw, "slow_node", "receive", [names[2]], [2], into, 2500.0, 10000.0, status,
                               alone, healthy, why, f"slow node {names[2]} as receiver: 2500 MB/s; {status}"))
        records.append(judge(size, bw, "shift", 4, decided, reason, suspects=1, undecided=1, spent=spent))
    # the rows as a sweep whose "uniform" saw no standing finding wrote them
    records += [row(65536, 9800.0, 12, "pass", "uniform"), row(1048576, 9800.0, 12, "inconclusive", "uniform"), end]
    write_lines(os.path.join(out, "slowcol.1.fabperf_allpairs.json"), records)

    # three: latency over 3 nodes, too few to judge; every cell passes lat<=100.
    names = ["h1", "h2", "h3"]
    write_lines(os.path.join(out, "three.1.fabperf_allpairs_lat.json"), [
        sweep_meta("fabperf_allpairs_lat", "three", latency=True),
        dict(judged_matrix(names, 3.0, quantity=lat, mode="isolated"), size=8),
        judge(8, lat, "isolated", 3, False, "too few nodes to judge (3 < 4)"),
        row(8, 3.0, 3, "pass", "lat<=100", latency=True), end])

    # judged: 6 nodes; 4K clean, 1M a slow sender stands, another is cleared, round 3 was slow.
    names = [f"n{i:03d}" for i in range(6)]
    slow = {(1, j): 4000.0 for j in range(6) if j != 1}
    slow.update({(4, j): 9000.0 for j in range(6) if j != 4})
    records = [sweep_meta("fabperf_allpairs", "judged"),
               dict(judged_matrix(names, 10000.0), size=4096),
               judge(4096, bw, "shift", 6),
               dict(judged_matrix(names, 10000.0, slow), size=1048576),
               finding(1048576, bw, "slow_node", "send", [names[1]], [1], [[names[1], names[j]] for j in range(6) if j != 1],
                       4000.0, 10000.0, "stands", estimate(4100.0, 4000.0, 4200.0), estimate(9900.0, 9800.0, 10000.0),
                       "alone, still below the healthy pairs alone",
                       f"slow node {names[1]} as sender: 4000 MB/s; stands"),
               finding(1048576, bw, "slow_node", "send", [names[4]], [4], [[names[4], names[j]] for j in range(6) if j != 4],
                       9000.0, 10000.0, "cleared", estimate(9950.0, 9850.0, 10050.0), estimate(9900.0, 9800.0, 10000.0),
                       "alone, as fast as the healthy pairs alone: congestion of the sweep",
                       f"slow node {names[4]} as sender: 9000 MB/s; cleared"),
               finding(1048576, bw, "slow_round", "round", [], [], [[names[i], names[(i + 3) % 6]] for i in range(6)],
                       7000.0, 10000.0, "stands", None, None,
                       "every cell of round 3 slow: congestion of that pattern or a transient, not a node or link",
                       "slow round 3 (shift 3): 7000 MB/s", round=3, shift=3),
               judge(1048576, bw, "shift", 6, suspects=3, stands=2, cleared=1, spent=9.5),
               row(4096, 10000.0, 30, "pass", "bw>=100; uniform"), row(1048576, 9000.0, 30, "pass", "bw>=100"), end]
    write_lines(os.path.join(out, "judged.1.fabperf_allpairs.json"), records)

    # sampled: 2 of 5 shifts, which cannot place a slow link; the judge found no suspect, but the
    # row's "uniform" term is inconclusive.
    names = [f"s{i:03d}" for i in range(6)]
    matrix = dict(judged_matrix(names, 10000.0, mode="sampled"), size=65536, shifts=[1, 4])
    matrix["values"] = [[v if (j - i) % 6 in (1, 4) else None for j, v in enumerate(r)]
                        for i, r in enumerate(matrix["values"])]
    write_lines(os.path.join(out, "sampled.1.fabperf_allpairs.json"), [
        sweep_meta("fabperf_allpairs", "sampled"), matrix,
        judge(65536, bw, "sampled", 6, places=("sender", "receiver")),
        row(65536, 10000.0, 12, "inconclusive", "uniform"), end])

    # iso: latency round trips of unordered pairs; node i002 slow both ways stands (no pairs: its
    # cells from its rank), link i000 <-> i003 undecided.
    names = [f"i{i:03d}" for i in range(4)]
    slow = {(2, j): 9.0 for j in range(4) if j != 2}
    slow.update({(j, 2): 9.0 for j in range(4) if j != 2})
    slow.update({(0, 3): 6.0, (3, 0): 6.0})
    write_lines(os.path.join(out, "iso.1.fabperf_allpairs_lat.json"), [
        sweep_meta("fabperf_allpairs_lat", "iso", latency=True),
        dict(judged_matrix(names, 3.0, slow, quantity=lat, mode="isolated"), size=8),
        finding(8, lat, "slow_node", "round-trip", [names[2]], [2], None, 9.0, 3.0, "stands",
                estimate(8.8, 8.6, 9.1), estimate(3.1, 3.0, 3.2),
                "alone, still slower than the healthy pairs alone",
                f"slow node {names[2]} in round trips: 9 us; stands"),
        finding(8, lat, "slow_link", "both-ways", [names[0], names[3]], [0, 3], None, 6.0, 3.0, "undecided",
                estimate(4.5, 3.2, 5.9), estimate(3.1, 3.0, 3.2),
                "alone, between the sweep's value and the healthy pairs alone: neither stands nor clears",
                f"slow link {names[0]} <-> {names[3]}: 6 us; undecided"),
        judge(8, lat, "isolated", 4, suspects=2, stands=1, undecided=1, spent=4.0),
        row(8, 3.1, 6, latency=True), end])


def main(argv):
    if len(argv) >= 3 and argv[0] == "assumed":
        assumed(argv[1], argv[2], int(argv[3]) if len(argv) > 3 else 8)
    elif len(argv) == 5 and argv[0] == "scale":
        scale(argv[1], argv[2], int(argv[3]), int(argv[4]))
    elif len(argv) == 2 and argv[0] == "judged":
        judged(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
