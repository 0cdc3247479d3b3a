"""fabperf-report's view of --isolate searches (docs/collectives.md): per launch of a collective
that searched, the search tree (every round's groups with their figures and status) and the
findings, each linked to the groups of its round that hold its ranks: the evidence it rests on."""

from .plot import h
from .report_html import link, numcell, table
from .results import num, read_records
from .units import fmt_num, fmt_size

ISOLATE_TYPES = ("isolate", "isolate_group", "isolate_finding")


def read_isolate(path):
    """{"summary", "groups", "findings"} of a launch's search, or None when it ran none."""
    try:
        records = [r for r in read_records(path) if r.get("type") in ISOLATE_TYPES]
    except (OSError, ValueError):
        return None
    summary = next((r for r in records if r["type"] == "isolate"), None)
    if summary is None:
        return None
    return {"summary": summary, "groups": [r for r in records if r["type"] == "isolate_group"],
            "findings": [r for r in records if r["type"] == "isolate_finding"]}


def group_anchor(ident, g):
    return f"{ident}-r{g.get('round')}-g{g.get('group')}"


def ranks_text(ranks, nodes):
    nodes = nodes or []
    return ", ".join(f"{r} ({nodes[i]})" if i < len(nodes) else str(r) for i, r in enumerate(ranks or []))


def evidence(ident, search, f):
    """The groups that held one of the finding's ranks, round after round: the path of the search
    down to it and the rounds that confirmed it."""
    ranks = set(f.get("ranks") or [])
    return [g for g in search["groups"] if ranks & set(g.get("ranks") or []) and g.get("status") != "reference"]


def finding_item(ident, search, k, f):
    status = str(f.get("status", "?"))
    links = ", ".join(link(group_anchor(ident, g), f"round {g.get('round')} group {g.get('group')}")
                      for g in evidence(ident, search, f))
    return (f'<li id="{ident}-f{k + 1}"><span class="v {h(status)}">{h(status)}</span> '
            f"{h(f.get('kind', 'member'))}: {h(f.get('message', ''))}"
            + (f" <span class=\"why\">evidence: {links}</span>" if links else "") + "</li>")


def search_text(s):
    mode = {"search": "searched", "suspects": "suspects confirmed, no search",
            "met": "no search: --expect met"}.get(s.get("mode"), str(s.get("mode")))
    size = fmt_size(int(s["size"])) if num(s.get("size")) is not None else "?"
    decided = "decided" if s.get("decided") else f"undecided: {s.get('reason', '')}"
    seeded = f"; {s['suspects_from']}" if s.get("suspects_from") else ""
    return (f"At {size} on {s.get('ranks', '?')} ranks, {mode}: {s.get('rounds', '?')} round(s) in "
            f"{fmt_num(num(s.get('seconds')))} s, {decided}{seeded}.")


def launch_search(ident, name, search):
    marked = {group_anchor(ident, g) for f in search["findings"] for g in evidence(ident, search, f)}
    rows = []
    for g in search["groups"]:
        anchor = group_anchor(ident, g)
        status = str(g.get("status", "?"))
        attrs = f' id="{anchor}"' + (' class="differs"' if anchor in marked else "")
        rows.append((attrs, [(h(str(g.get("round"))), num(g.get("round"))), str(g.get("level")),
                             (h(str(g.get("group"))), num(g.get("group"))),
                             ranks_text(g.get("ranks"), g.get("nodes")), numcell(num(g.get("us"))),
                             f"[{fmt_num(num(g.get('us_lo')))}, {fmt_num(num(g.get('us_hi')))}]",
                             numcell(num(g.get("threshold_us"))),
                             (f'<span class="v {h(status)}">{h(status)}</span>'
                              + (f" (--expect at its size: {h(str(g['expect']))})" if g.get("expect") else ""),
                              None)]))
    findings = "".join(finding_item(ident, search, k, f) for k, f in enumerate(search["findings"]))
    return (f'<h3 id="{ident}">{h(name)}</h3><p>{h(search_text(search["summary"]))}</p>'
            + (f"<ul>{findings}</ul>" if findings else "<p>No finding.</p>")
            + (table(f"{ident}-tree", ["round", "level", "group", "ranks (hosts)", "us a call", "95% CI",
                                       "threshold us", "status"], rows,
                     "The search: each round's groups, run at the same time") if rows else ""))


def isolate_section(run):
    parts = []
    for c in run.configs:
        for x in c.launches:
            if getattr(x, "isolate", None):
                parts.append(launch_search(f"iso{len(parts) + 1}", x.name, x.isolate))
    return '<h2 id="isolate">Which member slows a collective</h2>' + "".join(parts) if parts else ""
