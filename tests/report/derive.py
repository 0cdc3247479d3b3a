#!/usr/bin/env python3
"""Run folders for the report tests, derived from the golden one (made by the programs).

  derive.py assumed GOLDEN OUT [NODES]
      GOLDEN plus what the programs do not write yet, in the formats fabperf-report assumes
      (README, "HTML report"): verdict, threshold, line rate, efficiency and path evidence in the
      tcp bandwidth rows, a preflight file, an all-pairs file with a NODES x NODES matrix (8), and
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


def preflight(folder):
    findings = [
        ("node-a", "link_speed", "pass", "mlx5_0 at 400 Gb/s"),
        ("node-b", "link_speed", "fail", "mlx5_0 at 100 Gb/s, expected 400 Gb/s"),
        ("node-b", "gpu_clock", "warn", "GPU 3 clock throttled (power cap)"),
        ("node-c", "link_speed", "pass", "mlx5_0 at 400 Gb/s"),
    ]
    records = [{"type": "meta", "program": "fabperf_preflight", "version": "0.1.0"}]
    records += [{"type": "finding", "node": n, "check": c, "status": s, "message": m}
                for n, c, s, m in findings]
    records.append({"type": "end", "status": "complete"})
    write_lines(os.path.join(folder, "preflight.json"), records)


def pairs_records(nodes):
    """Bandwidth matrix: node 2 slow on every pair, link 0-3 slow; findings saying so."""
    names = [f"n{i:03d}" for i in range(nodes)]
    values = []
    for i in range(nodes):
        row = []
        for j in range(nodes):
            v = None if i == j else 10000.0 + (i * 7 + j * 3) % 50
            if v and 2 in (i, j):
                v = 5000.0
            if v and {i, j} == {0, 3}:
                v = 3000.0
            row.append(v)
        values.append(row)
    return [
        {"type": "meta", "program": "fabperf_pairs", "version": "0.1.0", "metric": "bandwidth"},
        {"type": "matrix", "quantity": "bw_p50_mbps", "unit": "MB/s", "better": "higher",
         "size": 1 << 20, "nodes": names, "values": values},
        {"type": "finding", "kind": "slow_node", "nodes": [names[2]], "value": 5000.0,
         "expected": 10000.0, "message": f"{names[2]} is slow with every peer"},
        {"type": "finding", "kind": "slow_link", "nodes": [names[0], names[3]], "value": 3000.0,
         "expected": 10000.0, "message": f"link {names[0]}-{names[3]} is slow"},
        {"type": "finding", "kind": "slow_rail", "rail": "mlx5_1", "pairs": [[names[0], names[1]]],
         "value": 7000.0, "expected": 10000.0, "message": "rail mlx5_1 is slow"},
        {"type": "end", "status": "complete"},
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
    preflight(out)
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
