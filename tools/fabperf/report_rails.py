"""fabperf-report's cross-rail section: per program and pair of nodes, the NIC x NIC table of a run
folder measured with rails.sbatch's FABPERF_RAIL_CROSS=1, as fabperf-rails draws it, with what
each rail reaches and why a cell has no value."""

from .plot import h
from .rails_cross import cross_column
from .report_html import numcell, table
from .units import fmt_size

STATUS_CLASS = {"no-path": "v cleared", "undecided": "v undecided", "off-rail": "v undecided", "not measured": "why"}


def cross_cell(e):
    if e["status"] == "path":
        return numcell(e["value"], cross_column(e))
    title = f' title="{h(e["reason"])}"' if e.get("reason") else ""
    return (f'<span class="{STATUS_CLASS[e["status"]]}"{title}>{h(cross_column(e))}</span>', e["value"])


def cross_table_html(t, number):
    first, other = t["nodes"]
    cells = {(c["local"], c["remote"]): c for c in t["cells"]}
    rows = [[t_rail] + [cross_cell(cells[(t_rail, b)]) for b in t["rails"]] for t_rail in t["rails"]]
    caption = (f"{t['program']} at {t['pair']}: {t['title']} in {t['unit']} at {fmt_size(t['size'])}; "
               f"row: the rail of {first}, column: the rail of {other}")
    reach = "; ".join(f"{a} → {' '.join(t['reach'][a]) or 'none'}" for a in t["rails"])
    lines = [f['text'] for f in t["findings"]] + t["notes"]
    items = "".join(f"<li>{h(x)}</li>" for x in lines)
    return (table(f"cross{number}", [f"{first} \\ {other}"] + t["rails"], rows, caption)
            + f"<p>Reach: {h(reach)}. <b>Fabric: {h(t['fabric'])}.</b></p>"
            + (f"<ul>{items}</ul>" if items else ""))


def cross_section(run):
    if not run.cross:
        return ""
    undecided = sum(t["undecided"] for t in run.cross)
    return ('<h2 id="cross-rail">Cross-rail</h2><p>Every rail of the first node against every rail '
            'of the other (FABPERF_RAIL_CROSS=1): a value where a launch completed, "no path" where '
            'the launch log says the peer could not be reached, "not decided" where every launch '
            'failed otherwise, "off-rail" where the path evidence shows the bytes on other NICs '
            '(hover for the reason).'
            + (f" {undecided} cell(s) not decided." if undecided else "") + "</p>"
            + "".join(cross_table_html(t, i + 1) for i, t in enumerate(run.cross)))
