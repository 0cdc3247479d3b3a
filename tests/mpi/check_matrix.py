#!/usr/bin/env python3
"""Checks an all-pairs result (JSON Lines) of N ranks in MODE: the matrix is complete (every pair
of the mode measured, nothing else), ordered (nodes in rank order, rounds and their cells in order,
the same numbers as the matrix) and symmetric where it must be (sampled shifts closed under
k -> N - k; isolated latency measures each unordered pair once: both cells equal), and every cell
has as many samples as the others (one batch per size, not one sized by an idle rank 0).
Usage: check_matrix.py FILE N MODE. Exit 0 ok, 1 with the reasons printed."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from fabperf import results  # noqa: E402  (the tools' reader of fabperf results)


def check(path, n, mode):
    recs = results.read(path, complete=True).records
    errors = []
    meta = recs[0]
    m = [r for r in recs if r["type"] == "matrix"]
    rounds = [r for r in recs if r["type"] == "cells"]
    rows = [r for r in recs if r["type"] == "row"]
    if meta["ranks"] != n or len(m) != 1 or len(rows) != 1 or recs[-1].get("status") != "complete":
        return [f"ranks {meta['ranks']}, {len(m)} matrices, {len(rows)} rows, end {recs[-1]}"]
    m = m[0]
    if m["mode"] != mode or len(m["nodes"]) != n or any(not s.endswith(f":{i}") for i, s in enumerate(m["nodes"])):
        errors.append(f"mode {m['mode']} or nodes out of rank order: {m['nodes'][:4]}...")
    values, shifts = m["values"], m["shifts"]
    want = {(i, (i + k) % n) for k in shifts for i in range(n)}
    if mode != "sampled" and shifts != list(range(1, n)):
        errors.append(f"{mode}: shifts {shifts} are not 1..{n - 1}")
    if mode == "sampled" and (sorted(shifts) != shifts or any(n - k not in shifts for k in shifts)):
        errors.append(f"sampled shifts {shifts} not ascending or not closed under k -> n - k")
    for i in range(n):
        for j in range(n):
            v, lo, hi = values[i][j], m["ci_lo"][i][j], m["ci_hi"][i][j]
            if ((i, j) in want) != (v is not None):
                errors.append(f"cell {i} -> {j}: {v} but {'wanted' if (i, j) in want else 'not measured'}")
            elif v is not None and m["samples"][i][j] < 6 and (lo, hi) != (None, None):
                errors.append(f"cell {i} -> {j}: interval [{lo}, {hi}] from {m['samples'][i][j]} samples (none below 6)")
            elif v is not None and m["samples"][i][j] >= 6 and not 0 < lo <= v <= hi:
                errors.append(f"cell {i} -> {j}: {v} outside [{lo}, {hi}]")
    counts = {m["samples"][i][j] for i in range(n) for j in range(n) if values[i][j] is not None}
    if len(counts) != 1:
        errors.append(f"cells have different sample counts {sorted(counts)}: not one batch per size")
    if mode == "isolated" and m["quantity"] == "latency":
        errors += [f"latency {i} <-> {j} not symmetric" for i in range(n) for j in range(n)
                   if i != j and values[i][j] != values[j][i]]
    if mode == "isolated" and rounds:
        errors.append("isolated mode wrote shift rounds")
    if mode != "isolated":
        if [r["round"] for r in rounds] != list(range(1, len(shifts) + 1)) or [r["shift"] for r in rounds] != shifts:
            errors.append(f"rounds {[r['round'] for r in rounds]} / shifts not in order")
        for r in rounds:
            k = r["shift"]
            if [(c["sender"], c["receiver"]) for c in r["cells"]] != [(i, (i + k) % n) for i in range(n)]:
                errors.append(f"round {r['round']}: cells not in sender order")
            errors += [f"round {r['round']}: {c} differs from the matrix" for c in r["cells"]
                       if c["value"] != values[c["sender"]][c["receiver"]]]
    if rows[0]["samples"] != len(want):
        errors.append(f"row has {rows[0]['samples']} cells, expected {len(want)}")
    return errors


if __name__ == "__main__":
    problems = check(sys.argv[1], int(sys.argv[2]), sys.argv[3])
    for p in problems[:20]:
        print("  " + p)
    sys.exit(1 if problems else 0)
