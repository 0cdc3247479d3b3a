"""fabperf-report's detail sections of plots, all-pairs heatmaps (with their findings, judges and
failed thresholds) and preflight nodes and facts."""

import json

from .heatmap import heatmap_svg, matrix_scale, switch_groups
from .plot import h, svg_over_time, svg_plot
from .report_html import judged_cell, link, numcell, shown_verdict, table, verdict_cell
from .report_judge import finding_cells, finding_status, judged_sizes, matrix_anchor, matrix_for
from .report_summary import finding_kind, preflight_result, retest_text, status_badge
from .results import num
from .units import fmt_num, fmt_size


MAX_SERIES = 8          # lines per plot: more are unreadable
MAX_PLOTS = 4           # plots per program: beyond MAX_SERIES * MAX_PLOTS, tables only


# ================================================================ plots (inline SVG)


def plot_order(configs):
    """Configurations with a failing or disagreeing size first: they are the ones to look at."""
    def trouble(c):
        bad = any(shown_verdict(s)[1] in ("fail", "inconclusive", "mixed", "undecided", "cannot-judge")
                  for s in c.sizes)
        return 0 if bad else 1
    return sorted(configs, key=trouble)


# ================================================================ details

def plots_section(run):
    programs = {}
    for c in run.configs:
        if c.sizes:
            programs.setdefault(c.program, []).append(c)
    parts = []
    for program, configs in programs.items():
        ordered = plot_order(configs)
        plotted = ordered[:MAX_SERIES * MAX_PLOTS]
        for start in range(0, len(plotted), MAX_SERIES):
            parts.append(svg_plot(program, plotted[start:start + MAX_SERIES]))
        if len(ordered) > len(plotted):
            parts.append(f"<p>{program}: {len(ordered) - len(plotted)} more configurations are not "
                         f"plotted; their values are in their tables.</p>")
    return "<h2 id=\"plots\">Plots</h2>" + "".join(parts) if parts else ""


def stepped_cells(soak):
    """The series of each all-pairs cell that stepped: {(size, from, to): [(t_s, value)]} from the
    matrix records (the k-th of a size is its k-th cycle, timed by that size's k-th row), and
    their names."""
    cells, names = {}, {}
    for s in soak["steps"]:
        cell = s.get("cell")
        if isinstance(cell, dict):
            key = (s.get("size"), cell.get("from"), cell.get("to"))
            cells[key], names[key] = [], f"{cell.get('name')} at {fmt_size(s.get('size'))}"
    for (size, a, b) in cells:
        times = [num(r.get("t_s")) for r in soak["rows"] if r.get("size") == size]
        values = [m["values"][a][b] for m in soak["matrices"] if m.get("size") == size]
        cells[(size, a, b)] = [(t, v) for t, v in zip(times, values) if t is not None and v is not None]
    return cells, names


def soak_section(run):
    """Each soak: its summary and steps as the program said them, and each size's series over time
    with the steps marked."""
    parts = []
    for c in run.configs:
        for launch in c.launches:
            soak = launch.soak
            if not soak:
                continue
            quantity = c.quantity
            series = {}
            for r in soak["rows"]:
                value = quantity.extract(r)[0] if quantity else None
                t = num(r.get("t_s"))
                if value is not None and t is not None:
                    series.setdefault(int(num(r["size"])), []).append((t, value))
            steps = [(num(s.get("t_s")) or 0, s.get("size"), s.get("line", "")) for s in soak["steps"]]
            summary = soak["summary"]
            parts.append(f"<h3>{h(launch.name)}</h3>")
            parts.append('<p class="soak-line">' + h(summary["line"] if summary else
                                                      "cut short before the step search: the cycles below "
                                                      "are all it finished") + "</p>")
            parts.extend(f'<p class="soak-step">{h(s.get("line", ""))}</p>' for s in soak["steps"])
            unit = f"{quantity.title} ({quantity.unit})" if quantity else ""
            parts.append(svg_over_time(f"{launch.program}: {unit} per cycle", unit, series, steps))
            cells, names = stepped_cells(soak)
            if cells:
                unit = "MB/s" if soak["matrices"][0].get("better") == "higher" else "us"
                parts.append(svg_over_time(f"{launch.program}: the cells that stepped ({unit}) per cycle", unit,
                                           cells, steps, names))
    return '<h2 id="soaks">Soaks</h2>' + "".join(parts) if parts else ""


def pairs_section(run):
    parts = []
    for report in run.pairs:
        pid = report["ident"]
        parts.append(f"<h3>{h(report['file'])}</h3>")
        if isinstance(report.get("topology"), dict):
            parts.append(topology_tree(report["topology"]))
        marks = {}  # matrix index -> cells behind findings and failed thresholds
        for f in report["findings"]:
            m = matrix_for(report, f.get("size"))
            if m is not None:
                marks.setdefault(m, set()).update(finding_cells(f, report["matrices"][m]["nodes"]))
        for v in report["verdicts"]:
            m = matrix_for(report, v.get("size"))
            if m is not None:
                marks.setdefault(m, set()).update(finding_cells({"pairs": [v.get("pair")]},
                                                                report["matrices"][m]["nodes"]))
        judged = dict(judged_sizes(report))
        for m, matrix in enumerate(report["matrices"]):
            _, median = matrix_scale(matrix)
            size = f" at {fmt_size(int(matrix['size']))}" if num(matrix.get("size")) is not None else ""
            j = judged.get(num(matrix.get("size")))
            groups = switch_groups(matrix, report.get("topology"))
            parts.append(f'<div class="matrix" id="{matrix_anchor(report, m)}">'
                         f"<p>{h(matrix.get('quantity', 'value'))} ({h(matrix.get('unit', ''))}){size}, "
                         f"{len(matrix['nodes'])} nodes, median {fmt_num(median)}: green at the "
                         f"median or better, red at half or worse; row = sender, column = receiver.</p>"
                         + (switch_line(groups, matrix, report["topology"]) if groups else "")
                         + (judge_line(f"{pid}-j{m + 1}", j) if j else "")
                         + heatmap_svg(matrix, f"{pid}-m{m + 1}", marks.get(m, set()), groups) + "</div>")
        for size, j in judged.items():  # a size the judge speaks of without a matrix
            if matrix_for(report, size) is None:
                parts.append(f"<p>At {fmt_size(int(size))} (no matrix):</p>" + judge_line(f"{pid}-j-{int(size)}", j))
        for k, f in enumerate(report["findings"]):
            m = matrix_for(report, f.get("size"))
            parts.append(finding_details(f"{pid}-f{k + 1}", f, None if m is None else report["matrices"][m],
                                         f"{pid}-m{(m or 0) + 1}", report))
        parts.append(threshold_table(report))
    return '<h2 id="pairs">All pairs</h2>' + "".join(parts) if parts else ""


def switch_line(groups, matrix, topology):
    """The heatmap's order said: by switch, from the --topology file, each switch with its parent."""
    parent = {str(e.get("switch")): e.get("parent") for e in topology.get("job") or [] if isinstance(e, dict)}
    blocks = []
    for name, members in groups:
        up = parent.get(name)
        first, last = matrix["nodes"][members[0]], matrix["nodes"][members[-1]]
        blocks.append(f"{h(name)}{' under ' + h(str(up)) if up else ''} ({len(members)}: {h(str(first))}"
                      f"{' … ' + h(str(last)) if len(members) > 1 else ''})")
    return (f'<p class="switches">Ordered by switch (--topology {h(str(topology.get("file", "")))}, '
            f'{h(str(topology.get("format", "")))}), blocks outlined: {"; ".join(blocks)}.</p>')


def topology_tree(topology):
    """The --topology's tree, small: each parent switch with the switches under it that hold this
    job's hosts, each with its host count and first and last host; a host in no listed switch on
    a switch of its own, at the top."""
    job = [e for e in topology.get("job") or [] if isinstance(e, dict)]

    def leaf(e):
        hosts = [str(x) for x in e.get("hosts") or []]
        span = f" ({h(hosts[0])}{' … ' + h(hosts[-1]) if len(hosts) > 1 else ''})" if hosts else ""
        return (f'<li><span class="topo-switch">{h(str(e.get("switch")))}</span>: '
                f"{len(hosts)} host{'s' if len(hosts) != 1 else ''}{span}</li>")

    parents, items = [], []
    for e in job:
        p = e.get("parent")
        if p is not None and str(p) not in parents:
            parents.append(str(p))
    for p in parents:
        under = "".join(leaf(e) for e in job if e.get("parent") is not None and str(e.get("parent")) == p)
        items.append(f'<li><span class="topo-switch">{h(p)}</span><ul>{under}</ul></li>')
    items += [leaf(e) for e in job if e.get("parent") is None]
    return (f'<div class="topo"><p>The topology (--topology {h(str(topology.get("file", "")))}, '
            f'{h(str(topology.get("format", "")))}): the switches that hold this job\'s hosts, under their '
            f'parents.</p><ul class="topo-tree">{"".join(items)}</ul></div>')


def threshold_table(report):
    """The cells that failed an --expect threshold, each linked to its cell in the heatmap."""
    rows = []
    for v in report["verdicts"]:
        m = matrix_for(report, v.get("size"))
        pair = v.get("pair") if isinstance(v.get("pair"), list) and len(v["pair"]) == 2 else ["?", "?"]
        text = f"{pair[0]} → {pair[1]}"
        cells = finding_cells({"pairs": [pair]}, report["matrices"][m]["nodes"]) if m is not None else []
        where = (link(f"{report['ident']}-m{m + 1}-m-{cells[0][0]}-{cells[0][1]}", text), None) if cells \
            else text
        rows.append([where, numcell(num(v.get("size")), fmt_size(int(v["size"])) if num(v.get("size")) is not None
                                    else "-"),
                     str(v.get("expect", "")), verdict_cell(v.get("verdict", "")) or "",
                     numcell(num(v.get("value"))),
                     f"[{fmt_num(num(v.get('ci_lo')))}, {fmt_num(num(v.get('ci_hi')))}]"])
    if not rows:
        return ""
    return (f"<p>{len(rows)} cells failed a threshold:</p>"
            + table(f"{report['ident']}-thresholds", ["pair", "size", "expect", "verdict", "value",
                                                       "95% CI"], rows))


PLACES = ("sender", "receiver", "link")


def judge_line(ident, j):
    """The judge of one size: its verdict linked to the cells it rests on, its reason, what it
    counted, the re-test budget and which faults the sweep's rounds could place."""
    judge = j["judge"]
    facts = []
    if judge:
        mode = f"{judge.get('mode')} sweep" if judge.get("mode") else "sweep"
        nodes = f" of {judge['nodes']} nodes" if judge.get("nodes") is not None else ""
        facts.append(f"{mode}{nodes}")
        counts = [f"{w} {judge[k]}" for k, w in (("suspects", "suspects"), ("stands", "standing"),
                                                  ("cleared", "cleared"), ("undecided", "undecided"))
                  if judge.get(k) is not None]
        if counts:
            facts.append(", ".join(counts))
        if num(judge.get("spent_s")) is not None and num(judge.get("budget_s")) is not None:
            facts.append(f"re-test {fmt_num(num(judge['spent_s']))} s of {fmt_num(num(judge['budget_s']))} s")
        if num(judge.get("min_effect")) is not None:
            facts.append(f"smallest effect judged {100 * num(judge['min_effect']):g}%")
        places = [p for p in judge.get("places") or [] if isinstance(p, str)]
        if isinstance(judge.get("places"), list):
            missing = [p for p in PLACES if p not in places]
            facts.append("can place a slow " + ", ".join(places) if places else "can place no fault")
            if missing:
                facts[-1] += f" (not a slow {', '.join(missing)}: too few rounds)"
    else:
        facts.append("no judge record at this size")
    return (f'<p class="judge" id="{h(ident)}">Judge: {judged_cell(j)[0]}. {h("; ".join(facts))}.</p>')


def finding_details(ident, finding, matrix, mid, report=None):
    """A finding and the matrix cells behind it, each linked to its cell in the heatmap."""
    fields = {k: v for k, v in finding.items() if not k.startswith("_") and k != "type"}
    head = h(f"{finding_kind(finding)}, {finding_status(finding)}: {finding.get('message', '')}")
    rows = []
    if matrix:
        nodes = matrix["nodes"]
        for i, j in finding_cells(finding, nodes):
            v = num(matrix["values"][i][j])
            cell = f"{mid}-m-{i}-{j}"
            rows.append([(link(cell, f"{nodes[i]} → {nodes[j]}"), None), numcell(v)])
    body = table(f"{ident}-rows", ["pair", matrix.get("unit", "value") if matrix else "value"], rows) \
        if rows else ""
    status = ""
    if report is not None and report["judged"]:
        retest = retest_text(finding)
        status = (f'<p class="status">Status: {status_badge(report, finding)}'
                  + (f" ({h(retest)})" if retest else "") + ".</p>")
    return (f'<details class="finding" id="{h(ident)}"><summary>{head}</summary>'
            f"{status}<pre>{h(json.dumps(fields, sort_keys=True))}</pre>{body}</details>")


FACT_NODES_LISTED = 8  # a fact that differs names the nodes of each value up to this many


def fact_value_text(fact, nodes):
    """One value when every node has it; else each value with the nodes that have it."""
    values = ["(none)" if v is None else str(v) for v in fact["values"]]
    if len(set(values)) <= 1:
        return values[0] if values else ""
    groups = {}
    for node, v in zip(nodes, values):
        groups.setdefault(v, []).append(node)
    parts = []
    for v, where in sorted(groups.items(), key=lambda g: len(g[1])):
        names = ", ".join(where[:FACT_NODES_LISTED]) + (f" and {len(where) - FACT_NODES_LISTED} more"
                                                        if len(where) > FACT_NODES_LISTED else "")
        parts.append(f"{v} on {names}")
    return "; ".join(parts)


def preflight_section(run):
    if not run.preflight:
        return ""
    parts = ['<h2 id="preflight">Preflight</h2>']
    for report in run.preflight:
        pid = report["ident"]
        parts.append(f"<h3>{h(report['file'])}</h3><p>{h(preflight_result(report))}; PCIe paths "
                     f"from {h(report['topology'] or 'unknown')}.</p>")
        for node in report["nodes"]:
            rows = [(f' id="{pid}-f{k + 1}"', [f.get("device", ""), verdict_cell(f.get("level", "")) or "",
                                               f.get("message", "")])
                    for k, f in enumerate(report["findings"]) if str(f.get("node")) == node]
            body = table(f"{pid}-node-{node}-findings", ["device", "level", "message"], rows) if rows \
                else "<p>No finding.</p>"
            parts.append(f'<details id="{h(pid)}-node-{h(node)}"><summary>{h(node)}: {len(rows)} '
                         f"findings</summary>{body}</details>")
        facts = [(' class="differs"' if f.get("differs") else "",
                  [str(f.get("device", "")), str(f.get("fact", "")), "differs" if f.get("differs") else "",
                   fact_value_text(f, report["nodes"])]) for f in report["facts"]]
        differ = sum(1 for f in report["facts"] if f.get("differs"))
        parts.append(f"<details><summary>{len(facts)} facts of {len(report['nodes'])} nodes, "
                     f"{differ} differ between nodes</summary>"
                     + table(f"{pid}-facts", ["device", "fact", "nodes", "value"], facts) + "</details>")
    return "".join(parts)
