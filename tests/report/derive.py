#!/usr/bin/env python3
"""Run folders for the report tests, derived from the golden one (made by the programs).

  derive.py assumed GOLDEN OUT [NODES]
      GOLDEN plus what the programs do not write yet, in the formats fabperf-report assumes
      (README, "HTML report"): verdict, threshold, line rate, efficiency and path evidence in the
      tcp bandwidth rows, an all-pairs file with a NODES x NODES matrix (8), and
      four damaged copies of a real result: cut mid-line, empty, not JSON, and the
      temporary file of a launch killed before it renamed it (no end line).
  derive.py scale GOLDEN OUT CONFIGS NODES
      CONFIGS configurations (copies of the golden results under new labels, values scaled, 3
      launches each, every size passing but 64 B of the last one) and an all-pairs matrix of NODES
      nodes: the page-size measurement.
"""

import json
import os
import shutil
import sys


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


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


def main(argv):
    if len(argv) >= 3 and argv[0] == "assumed":
        assumed(argv[1], argv[2], int(argv[3]) if len(argv) > 3 else 8)
    elif len(argv) == 5 and argv[0] == "scale":
        scale(argv[1], argv[2], int(argv[3]), int(argv[4]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
