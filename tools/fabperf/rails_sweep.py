"""fabperf-rails' tables of all-pairs sweeps: per rail, per node the medians of the sweep's matrix,
its findings and its judge's verdict."""

import statistics

from . import InputError
from .rails_table import ordered, rail_selection
from .units import fmt_num, fmt_size


# ================================================================ sweeps: per rail, per node

def finite(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x and abs(x) != float("inf")


def node_medians(matrix):
    """{node: (as sender, as receiver)}: the medians of its row and of its column of the matrix."""
    nodes, values = matrix.get("nodes") or [], matrix.get("values") or []
    out = {}
    for i, node in enumerate(nodes):
        row = [v for v in (values[i] if i < len(values) else []) if finite(v)]
        col = [r[i] for r in values if i < len(r) and finite(r[i])]
        out[node] = (statistics.median(row) if row else None, statistics.median(col) if col else None)
    return out


def sweep_size(program, runs, better, given):
    by_run = [{m["size"] for m in r["sweep"]["matrix"]} for r in runs]
    every = set.intersection(*by_run)
    if given is not None:
        if not any(given in s for s in by_run):
            sizes = ", ".join(fmt_size(s) for s in sorted(set().union(*by_run)))
            raise InputError(f"--size {fmt_size(given)}: no {program} matrix at that size (sizes: {sizes})")
        return given
    if not every:
        raise InputError(f"{program}: no matrix size common to every rail's sweep; give --size")
    return min(every) if better == "lower" else max(every)


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def sweep_finding_text(rail, rec):
    return f"rail {rail}: {rec.get('message') or rec.get('kind')}"


def judge_text(rail, rec):
    """A sweep whose judge could not decide, or left suspects undecided, at the table's size."""
    what = "cannot judge" if rec.get("decided") is False else f"{rec.get('undecided')} suspect(s) undecided"
    reason = f": {rec['reason']}" if rec.get("reason") else ""
    return f"rail {rail}: {what} at {fmt_size(rec['size'])}{reason}"


def verdict_text(rail, rec, unit):
    a, b = (rec.get("pair") or ["?", "?"])[:2]
    return (f"rail {rail}: --expect {rec.get('expect')} failed: {a} -> {b} {fmt_num(rec.get('value'))} {unit} "
            f"[{fmt_num(rec.get('ci_lo'))}, {fmt_num(rec.get('ci_hi'))}] against {fmt_num(rec.get('threshold'))}")


def build_sweep_table(program, info, given, warnings):
    """Per rail (one sweep over all nodes each), each node's median as sender and as receiver, and
    the sweep's own findings and --expect failures: the sweep decided them with its statistics."""
    runs = [r for r in info["runs"] if r["sweep"]["matrix"]]
    if len(runs) < len(info["runs"]):
        warnings.append(f"{program}: {len(info['runs']) - len(runs)} file(s) without a matrix left out of the sweep table")
    first = runs[0]["sweep"]["matrix"][0]
    better, unit = first.get("better", "higher"), first.get("unit", "")
    size = sweep_size(program, runs, better, given)
    rails = ordered(r["rail"] for r in runs)
    table = {"program": program, "kind": "sweep", "metric": info["metric"], "quantity": first.get("quantity"),
             "unit": unit, "better": better, "size": size,
             "rails": [{"name": rl, "selection": rail_selection(runs, rl, warnings),
                        "files": sum(1 for r in runs if r["rail"] == rl)} for rl in rails],
             "nodes": [], "cells": [], "findings": [], "notes": [], "undecided": 0}
    per = {}
    for r in runs:
        matrix = next((m for m in r["sweep"]["matrix"] if m["size"] == size), None)
        if matrix is None:
            warnings.append(f"{r['path']}: no matrix at {fmt_size(size)}")
            continue
        for node, pair in node_medians(matrix).items():
            if node not in table["nodes"]:
                table["nodes"].append(node)
            per.setdefault((r["rail"], node), []).append(pair)
        for rec in r["sweep"]["judge"]:
            if rec["size"] == size and (rec.get("decided") is False or rec.get("undecided")):
                table["notes"].append(judge_text(r["rail"], rec))
                table["undecided"] += 1
        for rec in r["sweep"]["finding"]:
            if rec["size"] != size:
                continue
            if rec.get("status") == "cleared" or (rec.get("status") is None and rec.get("cleared")):
                table["notes"].append(sweep_finding_text(r["rail"], rec))
            else:
                table["findings"].append({"kind": rec.get("kind"), "rail": r["rail"],
                                          "node": ",".join(rec.get("nodes") or []) or None, "pair": None,
                                          "direction": rec.get("direction"), "status": rec.get("status"),
                                          "value": rec.get("value"),
                                          "ci_lo": rec.get("ci_lo"), "ci_hi": rec.get("ci_hi"),
                                          "expected": rec.get("expected"),
                                          "text": sweep_finding_text(r["rail"], rec)})
        for rec in r["sweep"]["verdict"]:
            if rec["size"] == size and rec.get("verdict") == "fail":
                table["findings"].append({"kind": "expect", "rail": r["rail"], "node": None,
                                          "pair": "-".join(rec.get("pair") or []) or None,
                                          "text": verdict_text(r["rail"], rec, unit)})
    for rl in rails:
        for node in table["nodes"]:
            pairs = per.get((rl, node))
            if pairs:
                table["cells"].append({"rail": rl, "node": node, "launches": len(pairs),
                                       "send": median_or_none(p[0] for p in pairs),
                                       "receive": median_or_none(p[1] for p in pairs)})
    return table
