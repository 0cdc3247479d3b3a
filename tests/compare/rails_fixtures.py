#!/usr/bin/env python3
"""Synthetic run folders for fabperf-rails: rails x node pairs with known medians.

rails_fixtures.py FOLDER SCENARIO

Every launch of a cell has the cell's value times 0.98, 0.99, 1.00, 1.01 or 1.02 (launch 1..5) and
a within-launch CI of +-2.5%, so cells of one value overlap (and the launches agree) and cells a
tenth apart separate. The
reference node is n1; the pairs are n1 with each other node, as rails.sbatch measures them.
"""

import json
import os
import sys

SIZES = (65536, 1048576)
BW_COLUMNS = ["size", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps", "p50_us", "p50_ci_lo_us",
              "p50_ci_hi_us", "verdict", "expect", "line_rate_gbps", "path"]
COLL_COLUMNS = ["size", "oop_busbw_gbps", "oop_p50_us", "oop_p50_ci_lo_us", "oop_p50_ci_hi_us", "verdict",
                "expect", "line_rate_gbps", "path"]
LAT_COLUMNS = ["size", "p50_us", "p50_ci_lo_us", "p50_ci_hi_us", "verdict", "expect", "line_rate_gbps", "path"]


def row(metric, size, value, extra):
    lo, hi = value * 0.975, value * 1.025
    if metric == "collective":
        p50 = 1000.0 / value
        r = {"type": "row", "size": size, "oop_busbw_gbps": value, "oop_p50_us": p50,
             "oop_p50_ci_lo_us": p50 * 0.975, "oop_p50_ci_hi_us": p50 * 1.025}
    elif metric == "bandwidth":
        r = {"type": "row", "size": size, "bw_p50_mbps": value, "bw_ci_lo_mbps": lo, "bw_ci_hi_mbps": hi,
             "p50_us": size / value, "p50_ci_lo_us": size / hi, "p50_ci_hi_us": size / lo}
    else:
        r = {"type": "row", "size": size, "p50_us": value, "p50_ci_lo_us": lo, "p50_ci_hi_us": hi}
    r.update(extra)
    return r


def write(folder, cell, launch, value, opts):
    """One launch file of cell = (rail, node) with the given value at every size."""
    rail, node = cell
    program, metric = opts.get("program", ("fabperf_bw", "bandwidth"))
    label = opts.get("label", lambda r, n: f"{r}@n1-{n}")(rail, node)
    env = opts.get("env", lambda r, n, k: {"UCX_NET_DEVICES": r})(rail, node, launch)
    meta = {"type": "meta", "program": program, "metric": metric, "label": label, "env": env,
            "ranks": 2, "hosts": [{"name": "n1", "ranks": 1}, {"name": node, "ranks": 1}],
            "placement": [{"rank": 0, "host": "n1"}, {"rank": 1, "host": node}],
            "columns": {"bandwidth": BW_COLUMNS, "collective": COLL_COLUMNS}.get(metric, LAT_COLUMNS)}
    extra = opts.get("extra", lambda r, n: {})(rail, node)
    records = [meta] + [row(metric, s, value, extra) for s in opts.get("sizes", SIZES)]
    records.append({"type": "end", "status": "complete"})
    name = f"{label.replace('@', '_').replace(':', '_')}.{launch}.{program}.json"
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


def make(folder, rails, nodes, scale, launches=5, base=1000.0, **opts):
    """scale(rail, node): the cell's factor on base."""
    os.makedirs(folder, exist_ok=True)
    for rail in rails:
        for node in nodes:
            for launch in range(1, launches + 1):
                value = base * scale(rail, node) * (1 + 0.01 * (launch - 3))
                write(folder, (rail, node), launch, value, opts)


RAILS = ("mlx5_0:1", "mlx5_1:1")


def undecided_sweep(folder):
    """A clean fabperf_allpairs sweep per rail over n1..n3 at 1M whose judge could not decide on
    mlx5_1:1 (too few nodes): nothing slow, nothing failed, one sweep not judged."""
    os.makedirs(folder, exist_ok=True)
    nodes = ["n1", "n2", "n3"]
    for rail in RAILS:
        values = [[None if a == b else 1000.0 for b in range(3)] for a in range(3)]
        records = [{"type": "meta", "program": "fabperf_allpairs", "metric": "bandwidth", "label": f"{rail}@all",
                    "env": {"UCX_NET_DEVICES": rail}, "ranks": 3,
                    "hosts": [{"name": n, "ranks": 1} for n in nodes],
                    "placement": [{"rank": i, "host": n} for i, n in enumerate(nodes)], "columns": BW_COLUMNS},
                   {"type": "matrix", "size": 1 << 20, "quantity": "bandwidth", "unit": "MB/s", "better": "higher",
                    "mode": "shift", "nodes": nodes, "shifts": [1, 2], "values": values, "ci_lo": values,
                    "ci_hi": values, "samples": [[None if a == b else 20 for b in range(3)] for a in range(3)]},
                   {"type": "judge", "size": 1 << 20, "quantity": "bandwidth", "unit": "MB/s", "mode": "shift",
                    "nodes": 3, "decided": rail != "mlx5_1:1",
                    "reason": "" if rail != "mlx5_1:1" else "too few nodes to judge (3; 4 or more)",
                    "suspects": 0, "stands": 0, "cleared": 0, "undecided": 0},
                   {"type": "end", "status": "complete"}]
        with open(os.path.join(folder, f"{rail.replace(':', '_')}.fabperf_allpairs.json"), "w",
                  encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")


def sweep(folder, with_rows=True):
    """One fabperf_allpairs sweep a rail over n1..n4, records as the program writes them: on
    mlx5_1:1 node n3 sends at a tenth (named by the sweep, with a failed --expect cell); on
    mlx5_0:1 a suspect link cleared alone (a note). Sizes 64K and 1M."""
    os.makedirs(folder, exist_ok=True)
    nodes = ["n1", "n2", "n3", "n4"]
    for rail in RAILS:
        slow = "n3" if rail == "mlx5_1:1" else None
        records = [{"type": "meta", "program": "fabperf_allpairs", "metric": "bandwidth", "label": f"{rail}@all",
                    "env": {"UCX_NET_DEVICES": rail}, "ranks": 4,
                    "hosts": [{"name": n, "ranks": 1} for n in nodes],
                    "placement": [{"rank": i, "host": n} for i, n in enumerate(nodes)],
                    "columns": BW_COLUMNS}]
        for size in SIZES:
            values = [[None if a == b else 1000.0 * (0.1 if nodes[a] == slow else 1) * (1 + 0.01 * b)
                       for b in range(4)] for a in range(4)]
            if with_rows:
                records.append(row("bandwidth", size, 1000.0, {}))
            records.append({"type": "matrix", "size": size, "quantity": "bandwidth", "unit": "MB/s",
                            "better": "higher", "mode": "shift", "nodes": nodes, "shifts": [1, 2, 3],
                            "values": values, "ci_lo": values, "ci_hi": values,
                            "samples": [[None if a == b else 20 for b in range(4)] for a in range(4)]})
            if slow:
                records.append({"type": "finding", "size": size, "quantity": "bandwidth", "unit": "MB/s",
                                "kind": "slow_node", "direction": "send", "nodes": [slow], "ranks": [2],
                                "value": 101.0, "ci_lo": 100.0, "ci_hi": 103.0, "expected": 1010.0, "cells": 3,
                                "confirmed": 3, "alone": None, "cleared": False,
                                "message": f"slow node {slow} as sender: 101 MB/s [100, 103], typical 1010"})
                records.append({"type": "verdict", "size": size, "expect": "bw>=500", "verdict": "fail",
                                "threshold": 500.0, "pair": [slow, "n1"], "ranks": [2, 0], "value": 100.0,
                                "ci_lo": 99.0, "ci_hi": 101.0})
            else:
                records.append({"type": "finding", "size": size, "quantity": "bandwidth", "unit": "MB/s",
                                "kind": "slow_link", "direction": "one-way", "nodes": ["n1", "n2"], "ranks": [0, 1],
                                "value": 500.0, "ci_lo": 480.0, "ci_hi": 520.0, "expected": 1010.0, "cells": 1,
                                "confirmed": 1, "alone": {"value": 1000.0, "ci_lo": 990.0, "ci_hi": 1010.0},
                                "cleared": True, "message": "slow link n1 -> n2: 500 MB/s [480, 520], typical "
                                                            "1010; alone: 1000 MB/s [990, 1010]: cleared"})
        records.append({"type": "end", "status": "complete"})
        with open(os.path.join(folder, f"{rail.replace(':', '_')}.fabperf_allpairs.json"), "w",
                  encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")


CROSS_RAILS = ("eth0", "eth1", "eth2")
# A failed launch's log, as Open MPI's TCP BTL writes one when no route leads to the peer, as it
# writes one when the connection fails later, and a failure that says nothing of a path.
NO_ROUTE_LOG = ("[[5719,1],1][btl_tcp_endpoint.c:793:mca_btl_tcp_endpoint_start_connect] from n2 to: n1 "
                "Unable to connect to the peer 10.0.0.1 on port 1024: No route to host\n")
CONNECT_LOG = ("----\nWARNING: Open MPI failed to TCP connect to a peer MPI process.  This\nshould not happen.\n\n"
               "  Local host: n2\n  Message:    connect() to 10.2.0.1:1026 failed\n"
               "fabperf_bw: rank 0: timed out: size 0 B, MPI start-up and set-up did not complete within 60 s "
               "(--startup-timeout); ending the job\n")
OTHER_LOG = "fabperf_bw: rank 1: MPI_Init failed: Other MPI error\n"


def cross(folder, failures, carried=None):
    """rails.sbatch's cross-rail run folder for n1-n2: every same-rail cell 1000 MB/s, every cross
    cell between eth0 and eth1 500 MB/s (5 launches each); failures {(local, remote): log} are the
    launches (2 each) that failed, in launches.tsv with their logs; carried {(local, remote):
    (NIC of n1, NIC of n2)} the cells whose rows have path evidence."""
    label = lambda r, n: r + "@n1-" + n
    make(folder, CROSS_RAILS, ("n2",), lambda r, n: 1, label=label, sizes=(65536,))
    cells = [(a, b) for a in CROSS_RAILS for b in CROSS_RAILS if a != b and (a, b) not in failures]
    lines = ["label\trepeat\tprogram\tstatus\tseconds\tfile"]
    for a, b in cells:
        nics = (carried or {}).get((a, b))
        extra = (lambda r, n: {"path": {"payload_bytes": 1, "summary": "", "nics": [
            {"node": "n1", "name": nics[0], "share": 1.0}, {"node": "n2", "name": nics[1], "share": 1.0}]}}) \
            if nics else (lambda r, n: {})
        make(folder, (f"{a}->{b}",), ("n2",), lambda r, n: 0.5, label=label, sizes=(65536,), extra=extra)
    for (a, b), log in failures.items():
        rails = a if a == b else f"{a}->{b}"
        for launch in (1, 2):
            stem = f"{rails}_n1-n2".replace(">", "_") + f".{launch}.fabperf_bw"
            with open(os.path.join(folder, stem + ".log"), "w", encoding="utf-8") as f:
                f.write("# mpirun -np 2 ...\n" + log)
            lines.append(f"{rails}@n1-n2\t{launch}\tfabperf_bw\tfailed({1 if log == OTHER_LOG else 255})\t3.3\t{stem}.json")
    for a, b in failures:
        if a == b:  # a same-rail cell that failed has no result files either
            for launch in range(1, 6):
                os.remove(os.path.join(folder, f"{a}_n1-n2.{launch}.fabperf_bw.json"))
    with open(os.path.join(folder, "launches.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def scenarios():
    tenth = 0.1
    lat = ("fabperf_latency", "latency")
    path_of = {"path": {"payload_bytes": 1, "nics": []}}
    return {
        "rail": lambda f: make(f, RAILS, ("n2", "n3"), lambda r, n: tenth if r == "mlx5_1:1" else 1),
        "node": lambda f: make(f, RAILS, ("n2", "n3", "n4"), lambda r, n: tenth if n == "n3" else 1),
        "link": lambda f: make(f, RAILS, ("n2", "n3", "n4"),
                               lambda r, n: tenth if (r, n) == ("mlx5_1:1", "n4") else 1),
        "same": lambda f: make(f, RAILS, ("n2", "n3"), lambda r, n: 1),
        "few": lambda f: make(f, RAILS, ("n2",), lambda r, n: tenth if r == "mlx5_1:1" else 1, launches=2),
        "latency": lambda f: make(f, RAILS, ("n2", "n3"), lambda r, n: 10 if r == "mlx5_1:1" else 1,
                                  base=2.0, program=lat, sizes=(8, 1024)),
        "coll": lambda f: make(f, RAILS, ("n2",), lambda r, n: tenth if r == "mlx5_1:1" else 1, base=100.0,
                               program=("fabperf_allreduce", "collective")),
        # a program with size rows beside one whose files hold none (a sweep's own records)
        "norows": lambda f: (make(f, RAILS, ("n2",), lambda r, n: 1),
                             make(f, RAILS, ("n2",), lambda r, n: 1, program=("fabperf_sweep", "bandwidth"),
                                  sizes=())),
        "sweep": sweep,
        # eth2 reaches neither other rail (one cross cell not decided); every rail reaches itself
        "cross": lambda f: cross(f, {("eth0", "eth2"): NO_ROUTE_LOG, ("eth2", "eth0"): CONNECT_LOG,
                                     ("eth1", "eth2"): NO_ROUTE_LOG, ("eth2", "eth1"): OTHER_LOG}),
        "crossfull": lambda f: cross(f, {}),
        # eth0->eth1 measured, but its bytes crossed eth0 on both nodes (a stack that did not bind
        # to the selected NIC); eth1->eth0's crossed its two rails
        "crossoff": lambda f: cross(f, {}, {("eth0", "eth1"): ("eth0", "eth0"), ("eth1", "eth0"): ("eth1", "eth0")}),
        # no rail reaches another, and eth2 not even itself
        "railonly": lambda f: cross(f, {(a, b): NO_ROUTE_LOG for a in CROSS_RAILS for b in CROSS_RAILS
                                        if a != b or a == "eth2"}),
        "sweeponly": lambda f: sweep(f, with_rows=False),
        "undecided": undecided_sweep,
        "envrail": lambda f: make(f, ("eth1", "eth2"), ("n2",), lambda r, n: tenth if r == "eth2" else 1,
                                  label=lambda r, n: f"tcp-{r}",
                                  env=lambda r, n, k: {"OMPI_MCA_btl_tcp_if_include": r, "OMPI_MCA_btl": "tcp,self"}),
        "mixedsel": lambda f: make(f, RAILS, ("n2",), lambda r, n: 1,
                                   env=lambda r, n, k: {"UCX_NET_DEVICES": r if k != 2 else "mlx5_2:1"}),
        "evidence": lambda f: make(f, RAILS, ("n2",), lambda r, n: 1, extra=lambda r, n: {
            "line_rate_gbps": 100.0, "verdict": "fail" if r == "mlx5_1:1" else "pass", "expect": "bw>=1500",
            # mlx5_1:1's payload went over mlx5_0:1: its selection did not hold
            "path": dict(path_of["path"], nics=[{"node": h, "name": "mlx5_0:1", "share": 1.0}
                                                for h in ("n1", n)])}),
    }


def main():
    folder, scenario = sys.argv[1], sys.argv[2]
    scenarios()[scenario](folder)


if __name__ == "__main__":
    main()
