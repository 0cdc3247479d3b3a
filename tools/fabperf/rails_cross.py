"""fabperf-rails' cross-rail tables: per program and pair of nodes, every rail of the first node
against every rail of the other (rails.sbatch's FABPERF_RAIL_CROSS=1): which rails reach which and
at what rate, from the launches that completed and the logs of those that failed."""

import re

from . import InputError
from .rails_table import build_table, ordered, pair_name, program_cells, read_runs
from .report_read import read_launches_tsv, read_log_lines
from .units import fmt_num

CROSS = "->"

# A line of a failed launch's log that says the peer could not be reached: no path between the
# two rails. Any other failure leaves the cell undecided.
NO_PATH = re.compile(r"No route to host|[Nn]etwork is unreachable|[Dd]estination is unreachable|"
                     r"unable to reach each other|failed to TCP connect to a peer|Connection timed out")


def cross_rails(rail):
    """(local, remote) of a cross-rail label's rail part "A->B", else None."""
    if CROSS not in rail:
        return None
    local, remote = rail.split(CROSS, 1)
    return local, remote


# Open MPI's prefix of a BTL's message: "[[job,1],rank][file:line:function] "
SOURCE_PREFIX = re.compile(r"^\S*\]\s+")


def why_failed(exit_code, lines):
    """("no-path" or "undecided", the reason) of a failed launch from its exit status and log."""
    for i, line in enumerate(lines):
        if NO_PATH.search(line):
            reason = SOURCE_PREFIX.sub("", " ".join(line.split()))
            # a warning whose address and call follow on a line of their own
            detail = "failed to TCP connect" in line and next((ln for ln in lines[i + 1:i + 9] if "connect()" in ln), None)
            if detail:
                reason = f"{re.sub(r'[.]? *This$', '', reason)}: {' '.join(detail.split())}"
            return "no-path", reason[:200]
    if exit_code == 124:
        return "undecided", "the launch timed out (FABPERF_TIMEOUT)"
    last = " ".join(lines[-1].split())[:200] if lines else "no log"
    return "undecided", f"exit {exit_code}: {last}"


def failed_launches(folders):
    """[{program, rails, pair, status, reason}] of the launches that launches.tsv records as failed
    (not an --expect verdict), read from each folder's log."""
    out = []
    for folder in folders:
        for name, (label, _repeat, program, exit_code, expect) in read_launches_tsv(folder).items():
            if exit_code is None or expect or "@" not in label:
                continue
            rails, pair = label.rsplit("@", 1)
            status, reason = why_failed(exit_code, read_log_lines(folder, name)[1])
            out.append({"program": program, "rails": rails, "pair": pair, "status": status, "reason": reason})
    return out


def nics_on(row, node):
    path = row.get("path") if isinstance(row.get("path"), dict) else {}
    return [n.get("name") for n in path.get("nics") or [] if isinstance(n, dict) and n.get("node") == node]


def nics_text(row):
    return [f"{n.get('name')}@{n.get('node')}" for n in row["path"].get("nics") or [] if isinstance(n, dict)]


def on_rail(nics, rail):
    device = rail.split(":")[0]
    return any(n == rail or (isinstance(n, str) and n.split(":")[0] == device) for n in nics)


def path_note(runs, size, nodes, local, remote, pair):
    """Why a cell's launches did not measure its two rails: a launch's path evidence does not show
    the first node's payload on the local rail and the other node's on the remote rail; else None."""
    for r in runs:
        for row in r["rows"]:
            if row.get("size") != size or not isinstance(row.get("path"), dict):
                continue
            first, other = nics_on(row, nodes[0]), nics_on(row, nodes[1])
            if (first or other) and not (on_rail(first, local) and on_rail(other, remote)):
                return (f"the payload crossed {', '.join(nics_text(row))}, not {local} on {nodes[0]} and "
                        f"{remote} on {nodes[1]}")
    return None


def cell_entry(local, remote, cell, fails):
    entry = {"local": local, "remote": remote, "failed": len(fails), "reason": None,
             "value": None, "ci_lo": None, "ci_hi": None, "repeats": 0}
    if cell is not None:
        entry.update(status="path", value=cell["value"], ci_lo=cell["ci_lo"], ci_hi=cell["ci_hi"],
                     repeats=cell["repeats"])
        if fails:
            entry["reason"] = fails[0]["reason"]
    elif fails:
        decided = [f for f in fails if f["status"] == "no-path"]
        entry.update(status="no-path" if decided else "undecided", reason=(decided or fails)[0]["reason"])
    else:
        entry["status"] = "not measured"
    return entry


def fabric_line(rails, status):
    """What the cells say of the fabric between the two nodes."""
    off = [(a, b) for a in rails for b in rails if a != b]
    paths = [ab for ab in off if status[ab] == "path"]
    open_cells = [ab for ab in off if status[ab] in ("undecided", "not measured", "off-rail")]
    if not off:
        text = "one rail: no cross-rail pair"
    elif len(paths) == len(off):
        text = "cross-rail: every rail reaches every other rail"
    elif not paths and not open_cells:
        text = "rail-only: no rail reaches another rail"
    elif len(open_cells) == len(off):
        text = "not decided: no pair of different rails was measured on its two rails"
    else:
        alone = [a for a in rails if status[(a, a)] == "path"
                 and all(status[(a, b)] == "no-path" and status[(b, a)] == "no-path" for b in rails if b != a)]
        text = f"partly cross-rail: {len(paths)} of {len(off)} pairs of different rails have a path"
        if alone:
            text += f"; {', '.join(alone)} reach{'es' if len(alone) == 1 else ''} only {'itself' if len(alone) == 1 else 'themselves'}"
    if open_cells and len(open_cells) < len(off):
        text += f" ({len(open_cells)} pair(s) not decided)"
    return text


def build_cross_tables(program, info, plain, size, failures, required, warnings):
    """The cross-rail tables of one program, one a pair of nodes (none without cross-rail launches).
    plain: the program's rail x pair table (its same-rail cells), or None."""
    runs = [r for r in info["runs"] if cross_rails(r["rail"])]
    fails = [f for f in failures if f["program"] == program]
    pairs = ordered([pair_name(r["nodes"]) for r in runs] + [f["pair"] for f in fails if cross_rails(f["rails"])])
    if not pairs:
        return []
    quantity, by_key = program_cells(runs, info["metric"], warnings) if runs else (None, {})
    if plain is not None:
        size = plain["size"]
    elif size is None:
        every = set.intersection(*(set(c) for c in by_key.values())) if by_key else set()
        if not every:
            warnings.append(f"{program}: no size measured by every cross-rail cell; give --size")
            return []
        size = min(every) if quantity.better == "lower" else max(every)
    # what was measured: the cross launches' quantity, else (every one failed) the same-rail table's
    keys = ("quantity", "title", "unit", "better")
    if quantity is not None:
        about = dict(zip(keys, (quantity.key, quantity.title, quantity.unit, quantity.better)))
    else:
        about = {k: plain[k] if plain else None for k in keys}
    tables = []
    for pair in pairs:
        nodes = next((r["nodes"] for r in runs if pair_name(r["nodes"]) == pair), None)
        if nodes is None and plain is not None:
            nodes = next((tuple(p["nodes"]) for p in plain["pairs"] if p["name"] == pair), None)
        nodes = nodes if nodes and len(nodes) == 2 else ("first node", "other node")
        labelled = [r["rail"] for r in runs if pair_name(r["nodes"]) == pair] + \
                   [f["rails"] for f in fails if f["pair"] == pair]
        rails = ordered([p for rl in labelled for p in (cross_rails(rl) or (rl,))]
                        + ([c["rail"] for c in plain["cells"] if c["pair"] == pair] if plain else []))
        table = {"program": program, "kind": "cross", "metric": info["metric"], "size": size, **about,
                 "pair": pair, "nodes": list(nodes), "rails": rails, "cells": [], "reach": {},
                 "fabric": "", "findings": [], "notes": [], "undecided": 0}
        status = {}
        for a in rails:
            for b in rails:
                rl = a if a == b else f"{a}{CROSS}{b}"
                if a == b:
                    cell = next((c for c in (plain or {"cells": []})["cells"] if c["rail"] == a and c["pair"] == pair), None)
                else:
                    cell = by_key.get((rl, nodes), {}).get(size)
                entry = cell_entry(a, b, cell, [f for f in fails if f["rails"] == rl and f["pair"] == pair])
                if a != b and cell is not None:
                    # a stack that does not bind to the selected NIC lets routing choose another:
                    # the launch completed, but says nothing of a path between these two rails
                    note = path_note([r for r in runs if r["rail"] == rl and pair_name(r["nodes"]) == pair],
                                     size, nodes, a, b, pair)
                    if note:
                        entry.update(status="off-rail", reason=note)
                table["cells"].append(entry)
                status[(a, b)] = entry["status"]
                judge_cell(table, entry, required)
        table["reach"] = {a: [b for b in rails if status[(a, b)] == "path"] for a in rails}
        table["fabric"] = fabric_line(rails, status)
        tables.append(table)
    return tables


def judge_cell(table, e, required):
    """Findings, notes and the undecided count of one cell."""
    a, b, (first, other) = e["local"], e["remote"], table["nodes"]
    where = f"rail {a} of {first} to rail {b} of {other}"
    if e["status"] == "no-path" and a == b:
        table["findings"].append({"kind": "no_path", "rail": a, "remote_rail": b, "pair": table["pair"],
                                  "text": f"no path: rail {a} does not reach itself between {first} and "
                                          f"{other}: {e['reason']}"})
    elif e["status"] == "no-path" and required:
        table["findings"].append({"kind": "no_path", "rail": a, "remote_rail": b, "pair": table["pair"],
                                  "text": f"no path: {where} (--cross-rail required): {e['reason']}"})
    elif e["status"] == "no-path":
        table["notes"].append(f"no path: {where}: {e['reason']}")
    elif e["status"] == "undecided":
        table["undecided"] += 1
        table["notes"].append(f"not decided: {where}: every launch failed, none for want of a path: {e['reason']}")
    elif e["status"] == "off-rail":
        table["undecided"] += 1
        table["notes"].append(f"not decided: {where}: the launches completed on other NICs ({e['reason']})")
    elif e["status"] == "path" and e["failed"]:
        table["notes"].append(f"{where}: {e['failed']} launch(es) failed beside {e['repeats']} that "
                              f"completed: {e['reason']}")


def cross_column(e):
    if e["status"] in ("path", "off-rail"):
        text = f"{fmt_num(e['value'])} [{fmt_num(e['ci_lo'])}, {fmt_num(e['ci_hi'])}] x{e['repeats']}"
        return text + (" off-rail" if e["status"] == "off-rail" else "")
    return {"no-path": "no path", "undecided": "not decided", "not measured": "-"}[e["status"]]


def folder_cross_tables(folder, warnings):
    """The cross-rail tables of a run folder, as fabperf-rails makes them (for fabperf-report);
    [] when it holds no cross-rail launch."""
    failures = failed_launches([folder])
    try:
        programs = read_runs([folder], [])
    except InputError:  # a folder the summary cannot read has no cross-rail table either
        return []
    tables = []
    for program, info in programs.items():
        if not any(cross_rails(r["rail"]) for r in info["runs"]) and \
                not any(cross_rails(f["rails"]) for f in failures if f["program"] == program):
            continue
        plain = dict(info, runs=[r for r in info["runs"] if not cross_rails(r["rail"]) and r["rows"]])
        table = build_table(program, plain, None, warnings) if plain["runs"] else None
        tables.extend(build_cross_tables(program, info, table, None, failures, False, warnings))
    return tables
