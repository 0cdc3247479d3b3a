"""fabperf-rails' reading and tables: the rail and node pair of each result file, and per program one
table rail x node pair of the median over launches at one size."""

import json

from . import InputError, compare
from .results import collect_files, file_label, read_result, read_sweep
from .units import fmt_size


# Variables that select a rail, in the order that names a rail from a file's env.
SELECTION_VARS = ("UCX_NET_DEVICES", "NCCL_IB_HCA", "NCCL_SOCKET_IFNAME", "FI_VERBS_DEVICE_NAME",
                  "FI_TCP_IFACE", "OMPI_MCA_btl_tcp_if_include", "MV2_IBA_HCA")
# Also shown with the rail (they decide which provider or transport reads the selection).
CONTEXT_VARS = ("FI_PROVIDER", "NCCL_IB_DISABLE", "UCX_TLS", "OMPI_MCA_btl", "OMPI_MCA_pml",
                "OMPI_MCA_btl_tcp_if_exclude")


# ================================================================ reading

def selection_of(meta):
    """The rail-selecting variables (and their context) the file recorded in its env."""
    env = meta.get("env") if isinstance(meta.get("env"), dict) else {}
    return {k: env[k] for k in SELECTION_VARS + CONTEXT_VARS if isinstance(env.get(k), str)}


def rail_of(meta, path):
    label = file_label(meta, path)
    if "@" in label:
        return label.rsplit("@", 1)[0]
    env = meta.get("env") if isinstance(meta.get("env"), dict) else {}
    for k in SELECTION_VARS:
        if isinstance(env.get(k), str) and env[k]:
            return env[k].lstrip("=")
    return "(no rail selection)"


def nodes_of(meta):
    """Distinct hosts of the ranks in rank order (placement), else of the hosts list."""
    hosts = [p.get("host") for p in meta.get("placement") or [] if isinstance(p, dict)]
    if not hosts:
        hosts = [h.get("name") for h in meta.get("hosts") or [] if isinstance(h, dict)]
    seen = []
    for h in hosts:
        if isinstance(h, str) and h not in seen:
            seen.append(h)
    return tuple(seen) or ("unknown",)


def pair_name(nodes):
    if len(nodes) <= 2:
        return "-".join(nodes)
    return f"{nodes[0]}..{nodes[-1]} ({len(nodes)} nodes)"


def read_runs(inputs, warnings):
    """{program: {"metric", "runs": [run]}}; run = {path, meta, rows, rail, nodes, selection}."""
    programs = {}
    for path, _source in collect_files(inputs):
        read_warnings = []
        meta, rows = read_result(path, read_warnings)
        sweep = read_sweep(path)
        # a sweep's matrix is its result: the reader's "no result rows" does not apply to it
        warnings.extend(w for w in read_warnings if not (sweep["matrix"] and w.endswith(": no result rows")))
        program = programs.setdefault(meta["program"], {"metric": meta["metric"], "runs": []})
        if program["metric"] != meta["metric"]:
            raise InputError(f"{path}: metric {meta['metric']!r}, other {meta['program']} files "
                             f"have {program['metric']!r}")
        program["runs"].append({"path": path, "meta": meta, "rows": rows, "rail": rail_of(meta, path),
                                "nodes": nodes_of(meta), "selection": selection_of(meta),
                                "sweep": sweep})
    if not programs:
        raise InputError("no fabperf result in the inputs")
    return programs


# ================================================================ one table

def ordered(items):
    out = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


def reference_node(pairs):
    """The node in every pair of two nodes (the template's first node), or None."""
    if not pairs or any(len(p) != 2 for p in pairs):
        return None
    common = set(pairs[0]).intersection(*map(set, pairs[1:]))
    if len(pairs) == 1 or len(common) == 1:
        return pairs[0][0] if pairs[0][0] in common else sorted(common)[0]
    return None


def program_cells(runs, metric, warnings):
    """(quantity, {(rail, nodes): {size: cell}}) through fabperf-compare's between-launch cells."""
    columns = [set(r["meta"]["columns"]) for r in runs if isinstance(r["meta"].get("columns"), list)]
    common = set.intersection(*columns) if len(columns) == len(runs) else None
    quantity = compare.choose_quantity(metric, [row for r in runs for row in r["rows"]], False, common)
    groups = {}
    for r in runs:
        ci_ok = compare.check_columns(r["path"], r["meta"], quantity, warnings)
        group = groups.setdefault((r["rail"], r["nodes"]), {"rows": [], "ci_ok": []})
        group["rows"].append(r["rows"])
        group["ci_ok"].append(ci_ok)
    cells = {key: compare.configuration_cells(g["rows"], quantity, g["ci_ok"]) for key, g in groups.items()}
    return quantity, cells


def choose_size(program, quantity, cells, given, warnings):
    by_cell = [set(c) for c in cells.values()]
    every = set.intersection(*by_cell) if by_cell else set()
    if given is not None:
        if not any(given in s for s in by_cell):
            sizes = ", ".join(fmt_size(s) for s in sorted(set().union(*by_cell)))
            raise InputError(f"--size {fmt_size(given)}: not measured by {program} (sizes: {sizes})")
        if given not in every:
            warnings.append(f"{program}: not every rail and pair measured {fmt_size(given)}; those cells are empty")
        return given
    if not every:
        raise InputError(f"{program}: no size measured by every rail and pair; give --size")
    return min(every) if quantity.better == "lower" else max(every)


def rail_selection(runs, rail, warnings):
    found = ordered(json.dumps(r["selection"], sort_keys=True) for r in runs if r["rail"] == rail)
    if len(found) > 1:
        warnings.append(f"rail {rail}: its files recorded different selections: {'; '.join(found)}")
    return [json.loads(f) for f in found]


def build_table(program, info, size, warnings):
    runs = info["runs"]
    quantity, by_key = program_cells(runs, info["metric"], warnings)
    size = choose_size(program, quantity, by_key, size, warnings)
    rails = ordered(r["rail"] for r in runs)
    pairs = ordered(r["nodes"] for r in runs)
    ref = reference_node(pairs)
    table = {
        "program": program, "metric": info["metric"], "quantity": quantity.key, "title": quantity.title,
        "unit": quantity.unit, "better": quantity.better, "size": size, "reference_node": ref,
        "rails": [{"name": rl, "selection": rail_selection(runs, rl, warnings),
                   "files": sum(1 for r in runs if r["rail"] == rl)} for rl in rails],
        "pairs": [{"name": pair_name(p), "nodes": list(p), "node": other_node(p, ref)} for p in pairs],
        "cells": [], "findings": [], "notes": [],
    }
    for rl in rails:
        for p in pairs:
            cell = by_key.get((rl, p), {}).get(size)
            if cell is not None:
                # the programs' own --expect verdicts, apart from this summary's
                cell = dict(cell, rail=rl, pair=pair_name(p), slow=False, vs_best_rail=None, vs_best_pair=None,
                            path=cell.get("path"),
                            program_verdict=cell.get("verdict"), program_expect=cell.get("expect"))
                for key in ("verdict", "verdicts", "expect"):
                    cell.pop(key, None)
                table["cells"].append(cell)
    return table


def other_node(pair, ref):
    """The node a pair measures beside the reference node (the pair's name without one)."""
    if ref is not None and len(pair) == 2 and ref in pair:
        rest = [n for n in pair if n != ref]
        return rest[0] if rest else ref
    return None
