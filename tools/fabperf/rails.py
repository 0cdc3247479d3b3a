"""fabperf-rails: one table rail x node pair of a run folder, naming the rail or node that is slow."""

import argparse
import io
import json
import statistics
import sys

from . import InputError, Parser, compare, expect, units, write_output
from .results import collect_files, file_label, num, read_result, read_sweep
from .units import fmt_num, fmt_size

PROG = "fabperf-rails"

DESCRIPTION = """\
Summarises fabperf results measured once per rail (NIC) and per pair of nodes,
as scripts/slurm/rails.sbatch writes them: per program, one table rail x node
with the median and its interval over launches at one size, then the rails,
nodes and links that are slow, and the cells that fail --expect."""

EPILOG = """\
inputs:
  Each INPUT is a result file or a run folder (every *.json and *.jsonl file
  directly in it; fabperf_preflight's records are skipped), read by
  fabperf-compare's reader.  A file's rail is its label up to its last '@'
  (rails.sbatch labels runs RAIL@NODE-NODE); a label without '@' names the
  rail by the selection variable in the file's env (UCX_NET_DEVICES,
  NCCL_IB_HCA, NCCL_SOCKET_IFNAME, FI_VERBS_DEVICE_NAME, FI_TCP_IFACE,
  OMPI_MCA_btl_tcp_if_include, MV2_IBA_HCA, the first one set).  Its node
  pair is the hosts of its ranks in rank order (meta placement).  Files of
  one program, rail and pair are launches of one cell.  A program whose files
  have no size rows (a sweep that writes cells of its own) is left out with
  a warning.

cells:
  value     the median of the launch medians at the size
  interval  over launches, as fabperf-compare computes it (min..max below 6
            launches); with one launch that launch's own 95% CI
  xL        the number of launches
  size      --size; without it the largest size every cell measured
            (bandwidth, bus bandwidth), or the smallest (latency)

slow (decided as fabperf-compare decides "* slower", never by a fixed
tolerance: the two intervals over launches separate, and would for
identical cells at most 5% of the time; 4 or more launches per cell):
  rail  slower than the best rail at every node pair it was measured at
  node  its pair with the reference node is slower than the best pair on
        every rail (the reference node is the one in every pair: the first
        node in rails.sbatch)
  link  one cell slower than the best rail at its pair, or than the best
        pair on its rail, that neither a slow rail nor a slow node explains
  Separate intervals with too few launches to call are listed as notes.

sweeps (fabperf_allpairs, fabperf_allpairs_lat: FABPERF_RAIL_SWEEP of
rails.sbatch): besides the table of their summary rows, one table node x
rail at the size (--size, else the largest matrix size of every rail's
sweep, the smallest for latency): the node's median as sender and as
receiver (of its row and column of the matrix; the median over launches).
Its findings are the sweeps' own, per rail: the slow nodes and links they
named (decided by their statistics, re-measured alone; a suspect cleared
alone is a note, one left undecided a finding) and the cells that failed their
--expect. A sweep whose judge could not decide at the size, or left a suspect
undecided, is a note with the judge's reason.
  A cell whose path evidence (the programs' NIC byte counters) shows the
  payload on NICs other than its rail gets a note too.

--expect TERMS (comma separated, judged on each cell's interval at the
size): bw>=N (MB/s) for bandwidth, busbw>=N (GB/s) for collectives,
lat<=N (us) for latency, PCT%line (bandwidth >= PCT % of the line rate:
--line-rate, else the line rate the rows recorded).  A cell passes when
its whole interval is on the good side, fails when it is wholly on the
bad side, and is inconclusive otherwise.

output:
  text  per program: the table (columns named by node, beside the reference
        node), then one line per finding and note (default)
  json  {"tables": [{"program", "metric", "quantity", "unit", "better",
        "size", "reference_node", "rails": [{"name", "selection", "files"}],
        "pairs": [{"name", "nodes", "node"}], "cells": [{"rail", "pair",
        "value", "ci_lo", "ci_hi", "interval", "coverage", "repeats",
        "values", "vs_best_rail", "vs_best_pair", "expect", "path",
        "path_mismatch", "program_verdict", "slow"}], "findings": [{"kind", "rail", "node",
        "pair", "text"}], "notes": [...]}, a sweep's {"program", "kind":
        "sweep", "metric", "quantity", "unit", "better", "size", "rails",
        "nodes", "cells": [{"rail", "node", "send", "receive", "launches"}],
        "findings": [{"kind", "rail", "node", "pair", "text", "status", ...}], "notes",
        "undecided" (sweeps not judged to the end at the size)}],
        "findings": N, "warnings": [...]}

exit status:
  0 nothing slow and no --expect failed; 3 a rail, node or link is slow, a
  cell fails --expect, or a sweep named a slow node or link or failed its
  --expect; 4 none of those, but a cell's --expect is inconclusive or a
  sweep could not be judged at the size (--inconclusive fail: 3, pass: 0;
  either way one line on standard error says so); 2 bad usage or input (no
  result, no size rows, a size no cell measured, a bad --expect or
  --line-rate)."""

# Variables that select a rail, in the order that names a rail from a file's env.
SELECTION_VARS = ("UCX_NET_DEVICES", "NCCL_IB_HCA", "NCCL_SOCKET_IFNAME", "FI_VERBS_DEVICE_NAME",
                  "FI_TCP_IFACE", "OMPI_MCA_btl_tcp_if_include", "MV2_IBA_HCA")
# Also shown with the rail (they decide which provider or transport reads the selection).
CONTEXT_VARS = ("FI_PROVIDER", "NCCL_IB_DISABLE", "UCX_TLS", "OMPI_MCA_btl", "OMPI_MCA_pml",
                "OMPI_MCA_btl_tcp_if_exclude")


# ================================================================ options

def parse_size(text):
    try:
        size = units.parse_size(text.strip())
    except ValueError:
        size = 0
    if size <= 0:
        raise InputError(f"--size: '{text}' is not a size (accepted: a positive number of bytes "
                         f"with K, M or G, powers of 1024, e.g. 1M)")
    return size


def parse_line_rate(text):
    try:
        return units.parse_bitrate(text.strip())
    except ValueError:
        raise InputError(f"--line-rate: '{text}' is not a rate (accepted: bits/s > 0 with K, M, G "
                         f"or T, powers of 1000, e.g. 100G)") from None


def parse_expect(text):
    """[{"text", "kind" (bw, busbw, lat, line), "value"}] from 'bw>=100,lat<=2,90%line': the
    programs' grammar without @SIZES and uniform, since the summary judges the one size of --size."""
    terms = []
    for part in text.split(","):
        try:
            term = expect.parse_term(part.strip())
        except ValueError:
            term = None
        if term is None or term["sizes"] is not None or term["kind"] == "uniform":
            raise InputError(f"--expect: '{part.strip()}' is not a threshold (accepted: bw>=N, "
                             f"busbw>=N, lat<=N or PCT%line, comma separated, without @SIZES: "
                             f"the summary judges the one size of --size)")
        terms.append({"text": term["text"], "kind": term["kind"], "value": term["value"]})
    return terms


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


# ================================================================ judging

def best_cell(cells, better):
    pick = max if better == "higher" else min
    return pick(cells, key=lambda c: c["value"])


def judge_against_best(table, group_key, against_key, field):
    """Each cell against the best cell of its group (the same pair: rails; the same rail: pairs)
    with fabperf-compare's rule; stores the comparison in cell[field]."""
    groups = {}
    for c in table["cells"]:
        groups.setdefault(c[group_key], []).append(c)
    for cells in groups.values():
        if len(cells) < 2:
            continue
        best = best_cell(cells, table["better"])
        for c in cells:
            if c is best:
                continue
            cmp = compare.compare_cells(c, best, table["better"])
            c[field] = dict(cmp, against=best[against_key], against_value=best["value"],
                            against_ci=[best["ci_lo"], best["ci_hi"]])
            if cmp["verdict"] in ("one launch", "too few launches"):
                table["notes"].append(
                    f"cannot tell: {c['rail']} at {c['pair']} ({fmt_num(c['value'])}) and {best[against_key]} "
                    f"({fmt_num(best['value'])}) separate, but {cmp['verdict']} to call it "
                    f"({c['repeats']} and {best['repeats']}; 4 or more each)")


def is_slow(cell, field):
    cmp = cell.get(field)
    return bool(cmp and cmp["verdict"] == "slower")  # "slower" is only ever a significant verdict


def ratio_range(cells, field):
    ratios = [c[field]["ratio"] for c in cells if c.get(field) and c[field]["ratio"] is not None]
    if not ratios:
        return "-"
    lo, hi = min(ratios), max(ratios)
    return fmt_num(lo) if lo == hi else f"{fmt_num(lo)}..{fmt_num(hi)}"


def cell_text(c, unit):
    text = f"{fmt_num(c['value'])} [{fmt_num(c['ci_lo'])}, {fmt_num(c['ci_hi'])}] {unit}"
    return text + f" x{c['repeats']}"


def slow_groups(table, key, field):
    """Groups (rails or pairs) whose every compared cell is slow against the best of its other group."""
    found = []
    for name in ordered(c[key] for c in table["cells"]):
        cells = [c for c in table["cells"] if c[key] == name]
        if cells and all(is_slow(c, field) for c in cells):
            found.append((name, cells))
    return found


def classify(table):
    """Findings: slow rails, slow nodes, then slow links that neither explains."""
    unit, findings = table["unit"], table["findings"]
    pair_node = {p["name"]: p["node"] for p in table["pairs"]}
    rails = slow_groups(table, "rail", "vs_best_rail")
    for rail, cells in rails:
        text = f"slow rail {rail}: slower than the best rail at every node pair ({len(cells)} of {len(cells)})"
        if len(cells) == 1:
            c = cells[0]
            best = c["vs_best_rail"]
            text += (f": {cell_text(c, unit)} at {c['pair']} against {fmt_num(best['against_value'])} "
                     f"[{fmt_num(best['against_ci'][0])}, {fmt_num(best['against_ci'][1])}] on {best['against']}")
        findings.append({"kind": "rail", "rail": rail, "node": None, "pair": None,
                         "text": text + f"; ratio {ratio_range(cells, 'vs_best_rail')}"})
    pairs = slow_groups(table, "pair", "vs_best_pair")
    for pair, cells in pairs:
        who = f"node {pair_node[pair]}" if pair_node.get(pair) else f"node pair {pair}"
        findings.append({"kind": "node", "rail": None, "node": pair_node.get(pair), "pair": pair,
                         "text": f"slow {who}: its pair {pair} is slower than the best pair on every rail "
                                 f"({len(cells)} of {len(cells)}); ratio {ratio_range(cells, 'vs_best_pair')}"})
    explained_rails = {r for r, _ in rails}
    explained_pairs = {p for p, _ in pairs}
    for c in table["cells"]:
        c["slow"] = is_slow(c, "vs_best_rail") or is_slow(c, "vs_best_pair")
        if c["slow"] and c["rail"] not in explained_rails and c["pair"] not in explained_pairs:
            findings.append(link_finding(c, pair_node.get(c["pair"]), unit))


def link_finding(c, node, unit):
    field = "vs_best_rail" if is_slow(c, "vs_best_rail") else "vs_best_pair"
    cmp = c[field]
    where = "on rail {} at the same pair" if field == "vs_best_rail" else "at pair {} on the same rail"
    who = f"rail {c['rail']} at node {node} (pair {c['pair']})" if node else f"rail {c['rail']} at {c['pair']}"
    return {"kind": "link", "rail": c["rail"], "node": node, "pair": c["pair"],
            "text": f"slow link: {who}: {cell_text(c, unit)} against {fmt_num(cmp['against_value'])} "
                    f"[{fmt_num(cmp['against_ci'][0])}, {fmt_num(cmp['against_ci'][1])}] "
                    + where.format(cmp["against"]) + f"; ratio {fmt_num(cmp['ratio'])}"}


# ================================================================ --expect and path evidence

def term_threshold(term, table, cell, line_rate):
    """(threshold in the table's unit, good side "higher"/"lower") or None where the term does not
    apply to this quantity, or its line rate is unknown."""
    key = table["quantity"]
    if term["kind"] == "lat" and key == "p50_us":
        return term["value"], "lower"
    if term["kind"] == "bw" and key == "bw_p50_mbps":
        return term["value"], "higher"
    if term["kind"] == "busbw" and key == "oop_busbw_gbps":
        return term["value"], "higher"
    if term["kind"] == "line" and key in ("bw_p50_mbps", "oop_busbw_gbps"):
        rate = line_rate if line_rate else (cell.get("line_rate_gbps") or 0) * 1e9
        if not rate:
            return None
        scale = 1e6 if key == "bw_p50_mbps" else 1e9
        return term["value"] / 100 * rate / 8 / scale, "higher"
    return None


def judge_cell(cell, terms, table, line_rate):
    """The cell's verdict on the terms that apply: fail if one term's interval is wholly on the bad
    side, pass if every term's is wholly on the good side, inconclusive otherwise."""
    results = []
    for term in terms:
        applied = term_threshold(term, table, cell, line_rate)
        if applied is None:
            continue
        threshold, good = applied
        lo, hi = cell["ci_lo"], cell["ci_hi"]
        if lo is None or hi is None:
            verdict = "inconclusive"
        elif (lo >= threshold) if good == "higher" else (hi <= threshold):
            verdict = "pass"
        elif (hi < threshold) if good == "higher" else (lo > threshold):
            verdict = "fail"
        else:
            verdict = "inconclusive"
        results.append({"term": term["text"], "threshold": threshold, "verdict": verdict})
    if not results:
        return None
    verdicts = [r["verdict"] for r in results]
    worst = "fail" if "fail" in verdicts else "inconclusive" if "inconclusive" in verdicts else "pass"
    return {"verdict": worst, "terms": results}


def apply_expect(table, terms, line_rate):
    for c in table["cells"]:
        c["expect"] = judge_cell(c, terms, table, line_rate) if terms else None
        if not c["expect"] or c["expect"]["verdict"] != "fail":
            continue
        failed = next(t for t in c["expect"]["terms"] if t["verdict"] == "fail")
        table["findings"].append({
            "kind": "expect", "rail": c["rail"], "node": None, "pair": c["pair"],
            "text": f"expect failed: rail {c['rail']} at {c['pair']}: median {fmt_num(c['value'])}, interval "
                    f"[{fmt_num(c['ci_lo'])}, {fmt_num(c['ci_hi'])}] {table['unit']} against {failed['term']} "
                    f"(threshold {fmt_num(failed['threshold'])} {table['unit']})"})


def check_paths(table):
    """A note for each cell whose path evidence names NICs, none of them its rail's device."""
    for c in table["cells"]:
        path = c.get("path")
        c["path_mismatch"] = False
        if not path or "%" not in path:
            continue
        nics = [part.strip().rsplit(" ", 1)[0] for part in path.replace("|", ",").split(",")]
        device = c["rail"].split(":")[0]
        if not any(n == c["rail"] or n.split(":")[0] == device for n in nics):
            c["path_mismatch"] = True
            table["notes"].append(f"path: rail {c['rail']} at {c['pair']}: the payload crossed {path}, "
                                  f"not {c['rail']}")


def add_line_rates(table, runs):
    """cell["line_rate_gbps"]: the median line rate the rows of the cell's size recorded, if any."""
    for c in table["cells"]:
        rates = [num(row.get("line_rate_gbps")) for r in runs if r["rail"] == c["rail"]
                 and pair_name(r["nodes"]) == c["pair"] for row in r["rows"]
                 if num(row.get("size")) == table["size"]]
        rates = [x for x in rates if x]
        c["line_rate_gbps"] = statistics.median(rates) if rates else None


# ================================================================ output

def cell_column(c):
    if c is None:
        return "-"
    text = f"{fmt_num(c['value'])} [{fmt_num(c['ci_lo'])}, {fmt_num(c['ci_hi'])}] x{c['repeats']}"
    if c.get("disagree"):
        text += " !"
    if c["slow"]:
        text += " SLOW"
    if c.get("expect"):
        text += f" {c['expect']['verdict']}"
    return text


def selection_text(selections):
    if not selections:
        return "-"
    return " | ".join(" ".join(f"{k}={v}" for k, v in sorted(s.items()) if k in SELECTION_VARS) or "-"
                      for s in selections)


def write_table(out, rows, t):
    """Rows in aligned columns, then the table's findings and notes."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip() + "\n")
    for f in t["findings"]:
        out.write(f["text"] + "\n")
    for n in t["notes"]:
        out.write(f"note: {n}\n")


def render_table(t, out):
    ref = t["reference_node"]
    out.write(f"# {t['program']} ({t['metric']}): {t['title']} in {t['unit']} at {fmt_size(t['size'])}, "
              f"{t['better']} is better; cell = median of launch medians [interval] xlaunches\n")
    if ref:
        out.write(f"# node pairs: the reference node {ref} with each node named in a column\n")
    header = ["rail", "selection"] + [p["node"] or p["name"] for p in t["pairs"]]
    rows = [header]
    cells = {(c["rail"], c["pair"]): c for c in t["cells"]}
    for r in t["rails"]:
        rows.append([r["name"], selection_text(r["selection"])]
                    + [cell_column(cells.get((r["name"], p["name"]))) for p in t["pairs"]])
    write_table(out, rows, t)
    if not t["findings"]:
        out.write("no slow rail, node or link\n")


def render(tables, warnings, fmt, out):
    if fmt == "json":
        count = sum(len(t["findings"]) for t in tables)
        json.dump({"tables": tables, "findings": count, "warnings": warnings}, out, indent=1, allow_nan=False)
        out.write("\n")
        return
    for i, t in enumerate(tables):
        if i:
            out.write("\n")
        (render_sweep_table if t.get("kind") == "sweep" else render_table)(t, out)


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


def render_sweep_table(t, out):
    out.write(f"# {t['program']} sweep per rail: {t['quantity']} in {t['unit']} at {fmt_size(t['size'])}, "
              f"{t['better']} is better; cell = the node's median as sender / as receiver (median over "
              f"launches) xlaunches\n")
    header = ["node"] + [r["name"] for r in t["rails"]]
    rows = [header]
    cells = {(c["rail"], c["node"]): c for c in t["cells"]}
    for node in t["nodes"]:
        row = [node]
        for r in t["rails"]:
            c = cells.get((r["name"], node))
            row.append("-" if c is None else f"{fmt_num(c['send'])} / {fmt_num(c['receive'])} x{c['launches']}")
        rows.append(row)
    write_table(out, rows, t)
    if not t["findings"] and t.get("undecided"):
        out.write(f"no slow node or link found, no --expect failure, but {t['undecided']} sweep(s) not "
                  f"judged to the end (notes)\n")
    elif not t["findings"]:
        out.write("no slow node or link on any rail, no --expect failure\n")


# ================================================================ main

def summarise(args, warnings):
    size = parse_size(args.size) if args.size else None
    terms = parse_expect(args.expect) if args.expect else []
    line_rate = parse_line_rate(args.line_rate) if args.line_rate else None
    programs = read_runs(args.inputs, warnings)
    tables = []
    for program, info in programs.items():
        has_sweep = any(r["sweep"]["matrix"] for r in info["runs"])
        if not any(r["rows"] for r in info["runs"]):
            if not has_sweep:
                warnings.append(f"{program}: its files have no size rows and no matrix; not summarised")
            else:
                tables.append(build_sweep_table(program, info, size, warnings))
            continue
        t = build_table(program, info, size, warnings)
        add_line_rates(t, info["runs"])
        judge_against_best(t, "pair", "rail", "vs_best_rail")
        judge_against_best(t, "rail", "pair", "vs_best_pair")
        classify(t)
        apply_expect(t, terms, line_rate)
        check_paths(t)
        tables.append(t)
        if has_sweep:
            tables.append(build_sweep_table(program, info, size, warnings))
    if not tables:
        raise InputError(f"no size rows or matrix to summarise in {', '.join(programs)}")
    return tables


def main(argv):
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="run folder or result file (JSON Lines)")
    p.add_argument("--size", metavar="SIZE", help="message size of the table, e.g. 1M [see cells below]")
    p.add_argument("--expect", metavar="TERMS", help="thresholds judged on each cell (see below)")
    p.add_argument("--line-rate", metavar="BITS", help="line rate for PCT%%line, bits/s (100G, 25G)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format [text]")
    p.add_argument("-o", "--output", metavar="FILE", help="write the summary to FILE")
    p.add_argument("--inconclusive", choices=("status", "fail", "pass"), default="status",
                   help="exit status when nothing failed but a verdict is inconclusive: status 4, "
                        "fail 3, pass 0 [status]")
    warnings = []
    try:
        args = p.parse_args(argv)
        if not args.inputs:
            raise InputError("no input; give a run folder or result files (see --help)")
        tables = summarise(args, warnings)
    except InputError as e:
        print(f"{PROG}: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    for w in warnings:
        print(f"{PROG}: warning: {w}", file=sys.stderr)
    buf = io.StringIO()
    render(tables, warnings, args.format, buf)
    if write_output(PROG, buf.getvalue(), args.output):
        return 2
    if any(t["findings"] for t in tables):
        return 3
    undecided = inconclusive_count(tables)
    if not undecided:
        return 0
    code = {"status": 4, "fail": 3, "pass": 0}[args.inconclusive]
    print(f"{PROG}: inconclusive: {undecided} could not be decided (exit {code}, --inconclusive "
          f"{args.inconclusive})", file=sys.stderr)
    return code


def inconclusive_count(tables):
    """What no verdict could be given for, as words: cells whose --expect is inconclusive,
    sweeps not judged at the size; "" when none."""
    cells = sum(1 for t in tables for c in t["cells"] if (c.get("expect") or {}).get("verdict") == "inconclusive")
    sweeps = sum(t.get("undecided") or 0 for t in tables)
    parts = ([f"{cells} cell(s)' --expect"] if cells else []) + ([f"{sweeps} sweep(s)"] if sweeps else [])
    return " and ".join(parts)
