"""fabperf-report's summary section: verdicts, preflight nodes, all-pairs findings and the judge of
each sweep size, launch states and configurations not run."""

from .plot import h
from .report_html import (fmt_expect, judged_badge, judged_cell, link, numcell, shown_verdict,
                          size_verdict_cell, table)
from .report_judge import finding_status, finding_targets, judged_sizes, plural
from .results import num
from .units import fmt_num, fmt_size


ALL_VERDICT_ROWS = 200  # above this the summary lists only sizes that did not pass


# ================================================================ summary

def config_states(config):
    states = [x.state for x in config.launches]
    return {s: states.count(s) for s in ("ok", "cut short", "failed")}


def launch_row(c):
    counts = config_states(c)
    # A complete launch whose --expect failed is a verdict (in the verdicts), not a launch problem.
    trouble = [x for x in c.launches if x.state != "ok" or (x.exit is not None and not x.expect_failed)]
    notes = "; ".join(link(f"{c.ident}-l{c.launches.index(x) + 1}", f"{x.name}: {x.state}")
                      for x in trouble[:3])
    if len(trouble) > 3:
        notes += f"; {len(trouble) - 3} more"
    state = "ok" if not trouble else ("failed" if counts["failed"] == len(c.launches) else "partial")
    return (f' data-config="{h(c.label)}" data-program="{h(c.program)}" data-state="{state}"',
            [(link(c.ident, c.label), None), c.program, numcell(len(c.launches), str(len(c.launches))),
             numcell(counts["ok"], str(counts["ok"])),
             numcell(counts["cut short"], str(counts["cut short"])),
             numcell(counts["failed"], str(counts["failed"])), (notes, None)])


def launch_summary(run):
    """Configurations with a launch not ok first, in their own table; then all, collapsed when
    there are many."""
    headers = ["configuration", "program", "launches", "ok", "cut short", "failed", "not ok"]
    if not run.configs:
        return ""
    rows = [launch_row(c) for c in run.configs]
    troubled = [r for r in rows if 'data-state="ok"' not in r[0]]
    launches = sum(len(c.launches) for c in run.configs)
    if troubled:
        top = (f"<p>{len(troubled)} of {len(rows)} configurations have a launch cut short, failed "
               f"or ended with a non-zero exit status.</p>" + table("summary-launches", headers, troubled))
    else:
        top = f"<p>All {launches} launches of {len(rows)} configurations ended ok.</p>"
    is_open = " open" if len(rows) <= 50 else ""
    return (f"<h3>Launches</h3>{top}<details{is_open}><summary>All {len(rows)} configurations"
            f"</summary>{table('summary-all-launches', headers, rows)}</details>")


def verdict_rows(run):
    out = []
    for c in run.configs:
        for s in c.sizes:
            if shown_verdict(s)[0]:
                out.append((c, s))
    return out


def verdict_summary(run):
    found = verdict_rows(run)
    if not found:
        return ""
    shown = found if len(found) <= ALL_VERDICT_ROWS else \
        [(c, s) for c, s in found if shown_verdict(s)[1] != "pass"]
    note = "" if shown is found else (
        f"<p>{len(found) - len(shown)} of {len(found)} verdicts are pass; only the others are "
        f"listed here (every size is in its configuration's table).</p>")
    rows = []
    for c, s in shown:
        b = s["between"]
        rows.append((f' data-config="{h(c.label)}" data-size="{s["size"]}" '
                     f'data-verdict="{h(shown_verdict(s)[1])}"',
                     [(link(c.ident, c.label), None), c.program,
                      (link(f"{c.ident}-s{s['size']}", fmt_size(s["size"])), s["size"]),
                      size_verdict_cell(s), fmt_expect(s["expect"]),
                      numcell(b["value"] if b else None), numcell(s["line_rate_gbps"]),
                      numcell(s["efficiency"], f"{s['efficiency'] * 100:.1f}%"
                              if s["efficiency"] is not None else "-")]))
    counts = {}
    for _, s in found:
        counts[shown_verdict(s)[1]] = counts.get(shown_verdict(s)[1], 0) + 1
    line = ", ".join(f"{n} {v.replace('-', ' ')}" for v, n in sorted(counts.items()))
    return (f"<h3>Verdicts</h3><p>{h(line)}.</p>{note}"
            + table("summary-verdicts", ["configuration", "program", "size", "verdict", "threshold",
                                         "value", "line rate (Gb/s)", "efficiency"], rows))


def preflight_result(report):
    end = report["end"]
    if not end:
        return "cut short (no end record)"
    return f"{end.get('result')}: {end.get('failures')} failures, {end.get('warnings')} warnings"


def preflight_node_rows(report):
    """Per node: worst level, number of findings, each finding linked; failing nodes first."""
    rows = []
    for node in report["nodes"]:
        mine = [(k, f) for k, f in enumerate(report["findings"]) if str(f.get("node")) == node]
        levels = {f.get("level") for _, f in mine}
        worst = "fail" if "fail" in levels else ("warn" if mine else "pass")
        what = "; ".join(link(f"{report['ident']}-f{k + 1}", f"{f.get('level')} {f.get('device', '?')}: "
                              f"{f.get('message', '')}") for k, f in mine) or "no finding"
        rows.append((f' data-node="{h(node)}" data-status="{worst}"',
                     [(link(f"{report['ident']}-node-{node}", node), None),
                      (f'<span class="v {worst}">{worst}</span>', None),
                      numcell(len(mine), str(len(mine))), (what, None)]))
    order = {"fail": 0, "warn": 1}
    rows.sort(key=lambda r: order.get(r[0].split('data-status="')[1].split('"')[0], 2))
    return rows


def preflight_summary(run):
    parts = []
    for report in run.preflight:
        parts.append(f"<p>{h(report['file'])}: {len(report['nodes'])} nodes, "
                     f"{h(preflight_result(report))}.</p>"
                     + table(f"summary-{report['ident']}", ["node", "status", "findings", "what"],
                             preflight_node_rows(report)))
    return "<h3>Preflight</h3>" + "".join(parts) if parts else ""


ELEMENT_ORDER = ("slow_uplink", "slow_node", "slow_link", "slow_round")


def finding_where(f):
    if f.get("kind") == "slow_uplink":  # a switch's uplink, and the other end of the same path
        also = f.get("also") or {}
        other = f" (or {also['switch']}'s, {also.get('direction', '?')})" if also.get("switch") else ""
        return f"uplink of {f.get('switch', '?')}{other}"
    if f.get("kind") == "slow_link":
        arrow = " <-> " if f.get("direction") == "both-ways" else " -> "
        return arrow.join(str(x) for x in f.get("nodes") or [])
    if f.get("kind") == "slow_round":  # a whole round of the sweep, no node or link
        shift = f" (shift {f['shift']})" if f.get("shift") is not None else ""
        return f"round {f.get('round', '?')}{shift}"
    return ", ".join(str(x) for x in f.get("nodes") or [])


def finding_kind(f):
    return f"{f.get('kind', 'finding')} ({f['direction']})" if f.get("direction") else str(f.get("kind", "finding"))


def fmt_estimate(x, unit=""):
    """{"value", "ci_lo", "ci_hi"} as 'V [LO, HI] UNIT'; None when x has no value."""
    if not isinstance(x, dict) or num(x.get("value")) is None:
        return None
    ci = f" [{fmt_num(num(x.get('ci_lo')))}, {fmt_num(num(x.get('ci_hi')))}]" \
        if num(x.get("ci_lo")) is not None and num(x.get("ci_hi")) is not None else ""
    return f"{fmt_num(num(x['value']))}{ci}" + (f" {unit}" if unit else "")


def retest_text(f):
    """What the re-test measured (the suspect alone against the healthy pairs alone, measured
    interleaved with it) and why it decided as it did; '' when the file says nothing of it."""
    unit = f.get("unit", "")
    alone, healthy = fmt_estimate(f.get("alone"), unit), fmt_estimate(f.get("healthy_alone"), unit)
    parts = []
    if alone:
        parts.append(f"alone {alone}" + (f" against healthy pairs alone {healthy}" if healthy else ""))
    elif healthy:
        parts.append(f"healthy pairs alone {healthy}")
    if isinstance(f.get("why"), str) and f["why"]:
        parts.append(f["why"])
    return "; ".join(parts)


STATUS_ORDER = ("stands", "undecided", "found", "cleared")  # what stands first


def status_badge(report, f):
    """A finding's status, linked to the first heatmap cell behind it."""
    status = finding_status(f)
    return judged_badge(status, status, finding_targets(report, [f]))


def judge_numbers(j):
    """The judge record's counts and budget as table cells."""
    judge = j["judge"] or {}

    def count(key):
        x = num(judge.get(key))
        return numcell(x, "-" if x is None else str(int(x)))
    spent, budget = num(judge.get("spent_s")), num(judge.get("budget_s"))
    retest = f"{fmt_num(spent)} of {fmt_num(budget)}" if spent is not None and budget is not None else "-"
    return [count("suspects"), count("stands"), count("cleared"), count("undecided"), numcell(spent, retest)]


def sweep_rows(run):
    rows = []
    for report in run.pairs:
        for size, j in judged_sizes(report):
            judge = j["judge"] or {}
            rows.append((f' data-file="{h(report["file"])}" data-size="{int(size)}" data-verdict="{h(j["cls"])}"',
                         [report["file"], numcell(size, fmt_size(int(size))), judged_cell(j, False),
                          j["reason"], str(judge.get("mode", "-")), numcell(num(judge.get("nodes")),
                          str(judge.get("nodes", "-")))] + judge_numbers(j)))
    return rows


def pairs_summary(run):
    if not run.pairs:
        return ""
    rows = []
    for report in run.pairs:
        for k, f in enumerate(report["findings"]):
            status = finding_status(f)
            rows.append((f' data-file="{h(report["file"])}" data-kind="{h(f.get("kind", ""))}" '
                         f'data-where="{h(finding_where(f))}" data-status="{status}"',
                         [(link(f"{report['ident']}-f{k + 1}", finding_kind(f)), None), finding_where(f),
                          numcell(num(f.get("size")), fmt_size(int(f["size"])) if num(f.get("size")) is not None
                                  else "-"),
                          numcell(num(f.get("value"))), numcell(num(f.get("expected"))),
                          (status_badge(report, f), None), retest_text(f), f.get("message", "")]))
    # by status, then by element: uplinks (between switches) before nodes, links and rounds
    rows.sort(key=lambda r: (STATUS_ORDER.index(r[0].split('data-status="')[1].split('"')[0]),
                             ELEMENT_ORDER.index(r[0].split('data-kind="')[1].split('"')[0])
                             if r[0].split('data-kind="')[1].split('"')[0] in ELEMENT_ORDER else len(ELEMENT_ORDER)))
    failed = sum(len(r["verdicts"]) for r in run.pairs)
    note = f"<p>{failed} cells failed an --expect threshold (listed in the all-pairs section).</p>" \
        if failed else ""
    sweeps = sweep_rows(run)
    open_sizes = sum(1 for r in sweeps if 'data-verdict="cannot-judge"' in r[0] or 'data-verdict="undecided"' in r[0])
    judged = ""
    if sweeps:
        judged = (f"<p>The judge of each size of the sweep ({len(sweeps)} sizes, {open_sizes} not decided); "
                  f"each verdict links to the heatmap cells it rests on:</p>"
                  + table("summary-sweeps", ["file", "size", "verdict", "reason", "mode", "nodes", "suspects",
                                             "standing", "cleared", "undecided", "re-test (s)"], sweeps))
    if not rows:
        if open_sizes:
            line = (f"<p>No finding, but the sweep could not be judged at {plural(open_sizes, 'size')}: "
                    f"a slow node or link may be there unseen.</p>")
        else:
            line = "<p>The all-pairs sweep found no slow node or link.</p>"
        return f"<h3>All pairs</h3>{line}{judged}{note}"
    return ("<h3>All pairs</h3>" + table("summary-pairs", ["finding", "where", "size", "value", "expected",
                                                          "status", "re-test", "message"], rows)
            + judged + note)


def skipped_summary(run):
    if not run.skipped:
        return ""
    items = "".join(f"<li>{h(x)}</li>" for x in run.skipped)
    return f'<h3>Not run</h3><ul id="summary-skipped">{items}</ul>'
