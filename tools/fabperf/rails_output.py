"""fabperf-rails' output of its tables (rail x node pair and sweep), text or JSON."""

import json

from .rails_cross import cross_column
from .rails_table import SELECTION_VARS
from .units import fmt_num, fmt_size


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
        {"sweep": render_sweep_table, "cross": render_cross_table}.get(t.get("kind"), render_table)(t, out)


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


def render_cross_table(t, out):
    first, other = t["nodes"]
    out.write(f"# {t['program']} cross-rail at {t['pair']}: {t['title']} in {t['unit']} at {fmt_size(t['size'])}, "
              f"{t['better']} is better; row: the rail of {first}, column: the rail of {other}; cell = "
              f"median of launch medians [interval] xlaunches, \"no path\" (the launch could not reach "
              f"the peer) or \"not decided\" (it failed otherwise)\n")
    rows = [[f"{first} \\ {other}"] + t["rails"]]
    cells = {(c["local"], c["remote"]): c for c in t["cells"]}
    for a in t["rails"]:
        rows.append([a] + [cross_column(cells[(a, b)]) for b in t["rails"]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip() + "\n")
    out.write("reach: " + "; ".join(f"{a} -> {' '.join(t['reach'][a]) or 'none'}" for a in t["rails"]) + "\n")
    out.write(f"fabric: {t['fabric']}\n")
    for f in t["findings"]:
        out.write(f["text"] + "\n")
    for n in t["notes"]:
        out.write(f"note: {n}\n")
