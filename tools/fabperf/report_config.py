"""fabperf-report's section of one configuration: its sizes, its launches and their provenance
(meta fields, environment that differs between ranks, placement of each rank, launch command)."""

import json

from .plot import h
from .report_html import (fmt_expect, fmt_path, fmt_paths, interval_text, numcell, shown_verdict,
                          size_verdict_cell, state_badge, table)
from .report_summary import config_states
from .units import fmt_num, fmt_size


def size_table(c):
    q = c.quantity
    rows = []
    for s in c.sizes:
        b = s["between"]
        ci = f"[{fmt_num(b['ci_lo'])}, {fmt_num(b['ci_hi'])}]" if b and b["ci_lo"] is not None else "-"
        per_launch = " | ".join(fmt_num(v) for v, _, _ in s["cells"])
        rows.append((f' id="{c.ident}-s{s["size"]}"',
                     [numcell(s["size"], fmt_size(s["size"])), numcell(b["value"] if b else None),
                      ci, interval_text(b), per_launch,
                      "launches disagree" if b and b["disagree"] else "",
                      size_verdict_cell(s), fmt_expect(s["expect"]),
                      numcell(s["line_rate_gbps"]),
                      numcell(s["efficiency"], f"{s['efficiency'] * 100:.1f}%"
                              if s["efficiency"] is not None else "-"),
                      fmt_paths(s["path"])]))
    return table(f"{c.ident}-sizes", ["size", f"{q.title} ({q.unit})", "interval", "interval is",
                                      "per launch", "agreement", "verdict", "threshold",
                                      "line rate (Gb/s)", "efficiency", "path"], rows)


def launch_table(c):
    rows = []
    for k, x in enumerate(c.launches):
        tail = "<br>".join(h(line) for line in x.log_tail) if x.state != "ok" else ""
        rows.append((f' id="{c.ident}-l{k + 1}" data-state="{h(x.state)}"',
                     [x.name, x.repeat, (state_badge(x.state), None),
                      "" if x.exit is None else str(x.exit), numcell(len(x.rows), str(len(x.rows))),
                      "; ".join(x.warnings), (tail, None)]))
    return table(f"{c.ident}-launches", ["file", "repeat", "state", "exit", "rows", "notes",
                                         "end of log"], rows)


PROVENANCE_SKIP = ("type", "columns", "placement", "env_differs")
PLACEMENT_ROWS = 64  # ranks listed per configuration; the rest are in the files' meta lines


def provenance(c):
    """Every meta field of the first launch that has one, and the fields where launches differ;
    then the environment that differs between ranks and the placement of every rank."""
    metas = [x for x in c.launches if x.meta]
    if not metas:
        return "<p>No launch left a meta line.</p>" + command_list(c)
    first = metas[0].meta
    items = []
    for key, value in first.items():
        if key in PROVENANCE_SKIP:
            continue
        if key == "env" and isinstance(value, dict):
            text = " ".join(f"{k}={v}" for k, v in value.items()) or "(none)"
        elif key == "hosts" and isinstance(value, list):
            text = ", ".join(f"{x.get('name')} ({x.get('ranks')} ranks)" for x in value
                             if isinstance(x, dict))
        elif key == "path":
            text = fmt_path(value)
        else:
            text = value if isinstance(value, str) else json.dumps(value)
        differs = [x.name for x in metas[1:] if x.meta.get(key) != value and key not in ("date",)]
        note = f' <span class="differs">(differs in {h(", ".join(differs))})</span>' if differs else ""
        items.append(f"<dt>{h(key)}</dt><dd>{h(text)}{note}</dd>")
    return (f'<dl class="prov">{"".join(items)}</dl>' + env_differs_list(c, metas)
            + placement_table(c, metas) + command_list(c))


def fmt_ranks(ranks):
    """[0, 1, 2, 5] -> 0-2,5"""
    ranks = sorted(r for r in ranks if isinstance(r, int))
    spans, start = [], None
    for k, r in enumerate(ranks):
        if start is None:
            start = r
        if k + 1 == len(ranks) or ranks[k + 1] != r + 1:
            spans.append(str(start) if start == r else f"{start}-{r}")
            start = None
    return ",".join(spans)


def env_differs_list(c, metas):
    """Variables set differently on different ranks (or on some ranks only), per launch."""
    items = []
    for x in metas:
        differs = x.meta.get("env_differs")
        if not isinstance(differs, dict):
            continue
        for name, values in differs.items():
            parts = [f"{'unset' if v.get('value') is None else name + '=' + str(v.get('value'))} on ranks "
                     f"{fmt_ranks(v.get('ranks') or [])}" for v in values if isinstance(v, dict)]
            items.append(f'<li class="differs">{h(x.name)}: {h(name)}: {h("; ".join(parts))}</li>')
    if not items:
        return ""
    return f'<p>Environment that differs between ranks:</p><ul id="{c.ident}-env-differs">{"".join(items)}</ul>'


PLACEMENT_KEYS = ("host", "cpus", "gpu", "nic")


def placement_table(c, metas):
    """The first launch's placement, rank by rank, with where each rank ended (placement_end);
    for the other launches only the ranks whose host, CPUs, GPU or NIC differ from it."""
    first = metas[0]
    placement = [p for p in first.meta.get("placement") or [] if isinstance(p, dict)]
    if not placement:
        return ""
    rows = []
    for p in placement[:PLACEMENT_ROWS]:
        cpu_end, numa_end = end_place(first, p.get("rank"))
        moved = cpu_end is not None and cpu_end != p.get("cpu_start")
        rows.append((f' data-rank="{h(p.get("rank"))}"' + (' class="differs"' if moved else ""),
                     [str(p.get("rank")), str(p.get("host")), str(p.get("cpus")),
                      str(p.get("cpu_start")), str(p.get("numa_start")),
                      "-" if cpu_end is None else str(cpu_end), "-" if numa_end is None else str(numa_end),
                      "none" if p.get("gpu") is None else str(p.get("gpu")), str(p.get("nic"))]))
    more = (f"<p>{len(placement) - PLACEMENT_ROWS} more ranks are in the meta line of "
            f"{h(first.name)}.</p>") if len(placement) > PLACEMENT_ROWS else ""
    return (f"<p>Placement of every rank in {h(first.name)} (cpu and NUMA node at the start of the "
            f"sweep and at its end; - where the run ended without saying):</p>"
            + table(f"{c.ident}-placement", ["rank", "host", "cpus", "cpu at start", "numa at start",
                                             "cpu at end", "numa at end", "gpu", "nic"], rows)
            + more + placement_differences(c, metas, placement))


def end_place(launch, rank):
    for e in (launch.end or {}).get("placement_end") or []:
        if isinstance(e, dict) and e.get("rank") == rank:
            return e.get("cpu_end"), e.get("numa_end")
    return None, None


def placement_differences(c, metas, placement):
    base = {p.get("rank"): tuple(p.get(k) for k in PLACEMENT_KEYS) for p in placement}
    items = []
    for x in metas[1:]:
        other = [p for p in x.meta.get("placement") or [] if isinstance(p, dict)]
        moved = [p.get("rank") for p in other
                 if base.get(p.get("rank")) != tuple(p.get(k) for k in PLACEMENT_KEYS)]
        if len(other) != len(placement):
            items.append(f"{x.name}: {len(other)} ranks, not {len(placement)}")
        elif moved:
            items.append(f"{x.name}: ranks {fmt_ranks(moved)} on another host, CPU set, GPU or NIC")
    if not items:
        return ""
    return (f'<ul class="differs" id="{c.ident}-placement-differs">'
            + "".join(f"<li>{h(i)}</li>" for i in items) + "</ul>")


def command_list(c):
    commands = sorted({x.command for x in c.launches if x.command})
    if not commands:
        return ""
    return "<p>Launch command:</p>" + "".join(f"<pre>{h(cmd)}</pre>" for cmd in commands)


def config_section(c):
    counts = config_states(c)
    state = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    verdicts = [shown_verdict(s)[1] for s in c.sizes if shown_verdict(s)[0]]
    vtext = "; " + ", ".join(f"{verdicts.count(v)} {v.replace('-', ' ')}" for v in sorted(set(verdicts))) \
        if verdicts else ""
    q = f"; {c.quantity.title} in {c.quantity.unit}" if c.quantity else ""
    body = (size_table(c) if c.sizes else "<p>No rows: every launch failed.</p>")
    return (f'<details class="config" id="{c.ident}" data-config="{h(c.label)}">'
            f"<summary>{h(c.label)} · {h(c.program)} · {len(c.launches)} launches ({h(state)}){h(vtext)}"
            f"{h(q)}</summary>{body}<h4>Launches</h4>{launch_table(c)}"
            f"<h4>Provenance</h4>{provenance(c)}</details>")
