"""fabperf-report's HTML pieces: sortable tables, links, badges and cells of verdicts, thresholds,
paths and intervals, shared by every section of the page."""

import json

from .plot import h
from .report_judge import CELLS_LISTED
from .results import num
from .units import fmt_num


def interval_text(cell):
    """What the interval of a between_launches cell is, in the compare tool's words."""
    if cell is None or cell["ci_lo"] is None:
        return "no CI"
    if cell["interval"] == "within launch":
        return "within-launch 95% CI (1 launch)"
    method = "min..max" if cell["repeats"] < 6 else "order statistics"
    return f"{method} of {cell['repeats']} launch medians, coverage {100 * cell['coverage']:.1f}%"


def shown_verdict(s):
    """(text, class) of a size's verdict: the judge's where it did not pass, else the row's."""
    if s.get("sweep") and s["sweep"]["verdict"] != "pass":
        return s["sweep"]["verdict"], s["sweep"]["cls"]
    return s["verdict"], verdict_class(s["verdict"])


def target_links(targets):
    """Links to the first CELLS_LISTED targets, the number of the rest."""
    if len(targets) < 2:
        return ""
    shown = ", ".join(link(t, text) for t, text in targets[:CELLS_LISTED])
    rest = f" and {len(targets) - CELLS_LISTED} more" if len(targets) > CELLS_LISTED else ""
    return f' <span class="cells">(cells: {shown}{rest})</span>'


def judged_badge(verdict, cls, targets):
    """The verdict as a link to the first heatmap cell (or matrix) it rests on."""
    if targets:
        return f'<a class="v {h(cls)}" href="#{h(targets[0][0])}">{h(verdict)}</a>'
    return f'<span class="v {h(cls)}">{h(verdict)}</span>'


def judged_cell(j, with_reason=True):
    """A table cell: the judge's verdict linked to its cells, its reason, the other cells."""
    why = f' <span class="why">{h(j["reason"])}</span>' if with_reason and j["reason"] else ""
    return (judged_badge(j["verdict"], j["cls"], j["targets"]) + why + target_links(j["targets"]), None)


def size_verdict_cell(s):
    """The judge's verdict where it did not pass; else the row's, linked to the sweep's heatmap."""
    j = s.get("sweep")
    if j and j["verdict"] != "pass":
        return judged_cell(j)
    if j and s["verdict"]:
        return (judged_badge(s["verdict"], verdict_class(s["verdict"]), j["targets"]), None)
    return verdict_cell(s["verdict"])


# ================================================================ HTML pieces

def table(ident, headers, rows, caption=None):
    """A sortable table; rows: lists of cells, a cell is text or (html, sort value, attributes)."""
    head = "".join(f"<th>{h(x)}</th>" for x in headers)
    body = []
    for row in rows:
        attrs = ""
        if isinstance(row, tuple):
            attrs, row = row
        cells = []
        for cell in row:
            if isinstance(cell, tuple):
                content, value = cell[0], cell[1]
                sort = f' data-v="{value!r}"' if value is not None else ""
                cells.append(f"<td{sort}>{content}</td>")
            else:
                cells.append(f"<td>{h(cell)}</td>")
        body.append(f"<tr{attrs}>{''.join(cells)}</tr>")
    cap = f"<caption>{h(caption)}</caption>" if caption else ""
    return (f'<table class="sortable" id="{ident}">{cap}<thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>")


def numcell(x, text=None):
    return (h(text if text is not None else fmt_num(x)), x if x is not None else None)


def link(ident, text):
    return f'<a href="#{h(ident)}">{h(text)}</a>'


def state_badge(state):
    return f'<span class="st {h(state.split()[0])}">{h(state)}</span>'


def fmt_expect(expect):
    if isinstance(expect, dict):
        parts = [expect.get("quantity", ""), expect.get("op", ""), fmt_num(num(expect.get("value")))
                 if num(expect.get("value")) is not None else expect.get("value", ""),
                 expect.get("unit", "")]
        return " ".join(str(p) for p in parts if p not in ("", None))
    return "" if expect is None else str(expect)


def fmt_path(evidence):
    """Path evidence of one launch: NIC names when given as {"nics": [...]}, else compact JSON."""
    if isinstance(evidence, dict) and isinstance(evidence.get("nics"), list):
        names = []
        for nic in evidence["nics"]:
            if isinstance(nic, dict):
                where = f"{nic['node']}:" if nic.get("node") else ""
                share = f" {nic['share'] * 100:.0f}%" if num(nic.get("share")) is not None else ""
                names.append(f"{where}{nic.get('name', '?')}{share}")
            else:
                names.append(str(nic))
        return ", ".join(names)
    text = json.dumps(evidence, separators=(",", ":"), sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


def fmt_paths(evidences):
    """Path evidence of a size's launches: each different text once, in launch order; launches
    whose path says nothing (no NIC listed) add nothing, so that a size where none does is empty."""
    texts = []
    for text in (fmt_path(e) for e in evidences):
        if text and text not in texts:
            texts.append(text)
    return "; ".join(texts)


def verdict_class(verdict):
    return (verdict or "").split(" ")[0]


def verdict_cell(verdict):
    if not verdict:
        return ""
    return (f'<span class="v {h(verdict_class(verdict))}">{h(verdict)}</span>', None)
