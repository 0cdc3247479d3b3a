"""fabperf-report --prometheus: a run folder in Prometheus' text format, for node_exporter's
textfile collector (no timestamps, every sample a gauge; the file is replaced as a whole).

Metrics (labels in braces):
  fabperf_size_value{config,program,size,quantity,unit,stat}  per size: the median over launches
      (stat="median") and its interval (stat="ci_low", "ci_high"), as the page shows them
  fabperf_size_verdict{config,program,size}  0 pass, 1 fail (and mixed), 2 inconclusive (and
      cannot judge, undecided)
  fabperf_launches{config,program,state}  launches per state (ok, cut short, failed)
  fabperf_pairs_node_value{sweep,size,node,role,unit}  an all-pairs node's median cell as sender
      (role="send", its row) and as receiver (role="receive", its column)
  fabperf_pairs_findings{sweep,size,kind,direction,nodes,status}  findings per status
  fabperf_preflight_findings{file,node,level}  preflight findings per node and level
  fabperf_drain{node}  1 for each node to drain (--drain's list)
  fabperf_results{result}  the JUnit cases: pass, fail, inconclusive (--summary's counts)"""

import math
import statistics

from .report_drain import drain_list
from .report_html import shown_verdict
from .report_judge import finding_status
from .report_junit import verdict_kind
from .results import num

HELP = {
    "fabperf_size_value": "Median over launches of a size and its interval, in the unit label",
    "fabperf_size_verdict": "Verdict of a size: 0 pass, 1 fail, 2 inconclusive",
    "fabperf_launches": "Launches of a configuration per state",
    "fabperf_pairs_node_value": "All-pairs median cell of a node as sender (send) or receiver (receive)",
    "fabperf_pairs_findings": "All-pairs findings per kind, nodes and re-test status",
    "fabperf_preflight_findings": "Preflight findings per node and level",
    "fabperf_drain": "1 for a node to drain (preflight failed, or a standing slow-node finding)",
    "fabperf_results": "Judged cases of the run folder per result (as its JUnit file counts them)",
}


def label_value(text):
    """Escaped as the text format wants: backslash, double quote and newline."""
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def sample(name, labels, value):
    inner = ",".join(f'{k}="{label_value(v)}"' for k, v in labels.items())
    return f"{name}{{{inner}}} {format_value(value)}"


def format_value(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "NaN"
    return repr(float(value)) if isinstance(value, float) else str(value)


def verdict_code(text):
    return {"pass": 0, "fail": 1}.get(verdict_kind(text), 2)


def config_samples(run, out):
    for c in run.configs:
        base = {"config": c.label, "program": c.program}
        states = {}
        for x in c.launches:
            states[x.state] = states.get(x.state, 0) + 1
        for state, count in sorted(states.items()):
            out["fabperf_launches"].append(sample("fabperf_launches", {**base, "state": state}, count))
        unit = c.quantity.unit if c.quantity is not None else ""
        quantity = c.quantity.title if c.quantity is not None else ""
        for s in c.sizes:
            b = s.get("between")
            labels = {**base, "size": s["size"], "quantity": quantity, "unit": unit}
            if b:
                for stat, key in (("median", "value"), ("ci_low", "ci_lo"), ("ci_high", "ci_hi")):
                    if b.get(key) is not None:
                        out["fabperf_size_value"].append(
                            sample("fabperf_size_value", {**labels, "stat": stat}, float(b[key])))
            text, _ = shown_verdict(s)
            if text:
                out["fabperf_size_verdict"].append(
                    sample("fabperf_size_verdict", {**base, "size": s["size"]}, verdict_code(text)))


def node_medians(matrix):
    """{node: (median as sender, median as receiver)} of a matrix record's cells."""
    nodes, values = matrix["nodes"], matrix["values"]
    out = {}
    for i, node in enumerate(nodes):
        row = [num(values[i][j]) for j in range(len(nodes)) if j != i and num(values[i][j]) is not None]
        col = [num(values[j][i]) for j in range(len(nodes)) if j != i and num(values[j][i]) is not None]
        out[str(node)] = (statistics.median(row) if row else None, statistics.median(col) if col else None)
    return out


def pairs_samples(run, out):
    for report in run.pairs:
        for m in report["matrices"]:
            for node, (send, receive) in node_medians(m).items():
                for role, value in (("send", send), ("receive", receive)):
                    if value is not None:
                        out["fabperf_pairs_node_value"].append(sample(
                            "fabperf_pairs_node_value", {"sweep": report["file"], "size": int(num(m.get("size")) or 0),
                                                         "node": node, "role": role, "unit": m.get("unit", "")},
                            float(value)))
        counts = {}
        for f in report["findings"]:
            key = (int(num(f.get("size")) or 0), f.get("kind", ""), f.get("direction", ""),
                   ",".join(str(n) for n in f.get("nodes") or []), finding_status(f))
            counts[key] = counts.get(key, 0) + 1
        for (size, kind, direction, nodes, status), count in sorted(counts.items()):
            out["fabperf_pairs_findings"].append(sample(
                "fabperf_pairs_findings", {"sweep": report["file"], "size": size, "kind": kind,
                                           "direction": direction, "nodes": nodes, "status": status}, count))


def preflight_samples(run, out):
    for report in run.preflight:
        for node in report["nodes"]:
            levels = {}
            for f in report["findings"]:
                if str(f.get("node")) == node:
                    levels[f.get("level", "")] = levels.get(f.get("level", ""), 0) + 1
            for level in ("fail", "warn"):
                out["fabperf_preflight_findings"].append(sample(
                    "fabperf_preflight_findings", {"file": report["file"], "node": node, "level": level},
                    levels.get(level, 0)))


def prometheus(run, counts):
    """The text of a run folder read by read_folder; counts: the JUnit totals."""
    out = {name: [] for name in HELP}
    config_samples(run, out)
    pairs_samples(run, out)
    preflight_samples(run, out)
    for node, _ in drain_list(run)[0]:
        out["fabperf_drain"].append(sample("fabperf_drain", {"node": node}, 1))
    failed = counts["failures"] + counts["errors"]
    for result, value in (("pass", counts["tests"] - failed - counts["skipped"]), ("fail", failed),
                          ("inconclusive", counts["skipped"])):
        out["fabperf_results"].append(sample("fabperf_results", {"result": result}, value))
    lines = []
    for name, samples in out.items():
        if samples:
            lines += [f"# HELP {name} {HELP[name]}", f"# TYPE {name} gauge"] + samples
    return "\n".join(lines) + "\n"
