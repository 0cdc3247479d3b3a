"""fabperf-report: one self-contained HTML page for a whole fabperf run folder."""

import argparse
import json
import os
import re
import statistics
import sys

from . import InputError, Parser, write_output
from .compare import between_launches, check_columns, choose_quantity, evidence_of
from .heatmap import heatmap_svg, matrix_scale
from .plot import h, svg_plot
from .results import REPEAT_STEM, file_label, first_record, num, read_end, read_records, read_result
from .units import fmt_num, fmt_size

PROG = "fabperf-report"

DESCRIPTION = """\
Turns a run folder (the sbatch templates' fabperf-<job>-<id>/, or any folder of
fabperf JSON results) into one HTML file with no outside reference: the summary
first (launch status, verdicts, preflight findings, all-pairs findings), then
plots, the all-pairs heatmap and one collapsible section per configuration."""

EPILOG = """\
what is read (the result files through fabperf-compare's own reader):
  *.json, *.jsonl   fabperf results (and FILE.tmp.PID, the rows of a launch killed
                    before it could rename its result); a file whose meta line names the program
                    fabperf_preflight (its --format json), fabperf_allpairs or
                    fabperf_allpairs_lat is read as that section (a sweep's rows are
                    a configuration too)
  launches.tsv      exit status of each launch (a launch without a file is
                    shown as failed)
  skipped.txt       configurations that were not run, with the reason
  <file>.log        first line: the launch command; last lines of a launch that
                    did not end well

all-pairs sweeps: each size takes the verdict of the sweep's judge (its "judge"
record and the status of its findings: stands, cleared, undecided) where that is
not a pass: a finding that stands fails the size whatever its row says; a judge
that could not decide, a suspect left undecided or an inconclusive "uniform"
term shows "cannot judge" or "undecided" with the judge's reason, never "pass".
Each such verdict links to the heatmap cells it rests on.

values: per size the median of the launch medians and its interval over launches,
computed by fabperf-compare (min..max below 6 launches, with its coverage; one
launch: its own within-launch CI).

launches: ok (an end line "complete"), cut short (rows, but no end line, an end
status other than complete, or a cut last line: its rows are used), failed (no
file, an empty or unparsable file, or no rows). None is left out.

exit status:
  0 the page was written; 1 it could not be written; 2 bad usage, or a folder
  that cannot be read or holds nothing fabperf wrote."""

MAX_SERIES = 8          # lines per plot: more are unreadable
MAX_PLOTS = 4           # plots per program: beyond MAX_SERIES * MAX_PLOTS, tables only
ALL_VERDICT_ROWS = 200  # above this the summary lists only sizes that did not pass


# ================================================================ shared with fabperf-compare
# Per size: median of the launch medians and its interval over launches (min..max below 6
# launches, with its exact coverage; one launch: its own CI), exactly as fabperf-compare says it.


def compare_tool_error():
    """FABPERF_COMPARE, where set, names the fabperf-compare whose words the page repeats (the
    package beside it computes them); None when it is there, else the error line."""
    path = os.environ.get("FABPERF_COMPARE")
    if not path or os.path.isfile(path):
        return None
    return f"cannot load fabperf-compare from {path}: No such file or directory"


def read_launch(path):
    """(meta, rows, warnings) through the compare reader; InputError when it refuses the file."""
    warnings = []
    meta, rows = read_result(path, warnings)
    return meta, rows, warnings


def launch_state(rows, warnings):
    """ok / cut short / failed from what the compare reader said about the file."""
    if not rows:
        return "failed"
    cut = ("cut short", "no end line", "run ended with status")
    return "cut short" if any(any(c in w for c in cut) for w in warnings) else "ok"


def program_quantity(metric, launches, warnings):
    """The quantity fabperf-compare compares for these launches of one program (from the metric
    and the columns every launch declares), and per launch whether its CI keys may be read.
    A launch whose meta line lacks the value column gets a note and no values (None)."""
    declared = [x.meta.get("columns") for x in launches]
    columns = None
    if declared and all(isinstance(c, list) for c in declared):
        columns = set(declared[0]).intersection(*declared[1:])
    quantity = choose_quantity(metric, [r for x in launches for r in x.rows], False, columns)
    for x in launches:
        notes = []
        try:
            x.ci_ok = check_columns(x.name, x.meta, quantity, notes)
        except InputError as e:
            x.ci_ok, notes = None, [str(e)]
        x.warnings.extend(n for n in notes if n not in x.warnings)
    return quantity


def interval_text(cell):
    """What the interval of a between_launches cell is, in the compare tool's words."""
    if cell is None or cell["ci_lo"] is None:
        return "no CI"
    if cell["interval"] == "within launch":
        return "within-launch 95% CI (1 launch)"
    method = "min..max" if cell["repeats"] < 6 else "order statistics"
    return f"{method} of {cell['repeats']} launch medians, coverage {100 * cell['coverage']:.1f}%"


# ================================================================ reading the folder

class Launch:
    def __init__(self, name, label, program, repeat):
        self.name, self.label, self.program, self.repeat = name, label, program, repeat
        self.meta, self.rows, self.warnings = {}, [], []
        self.state, self.exit, self.command, self.log_tail = "failed", None, None, []
        self.end, self.ci_ok, self.expect_failed = None, True, False


class Config:
    def __init__(self, label, program):
        self.label, self.program = label, program
        self.launches, self.ident, self.quantity = [], "", None
        self.sizes = []  # per size: dict made by size_rows


class Run:
    def __init__(self, folder):
        self.folder = folder
        self.configs, self.skipped, self.preflight, self.pairs, self.warnings = [], [], [], [], []


# Programs whose JSON holds all-pairs matrix and finding records (besides their per-size rows).
PAIRS_PROGRAMS = ("fabperf_allpairs", "fabperf_allpairs_lat")


def peek_kind(path):
    """result, preflight or pairs, from the first record only (the readers do the rest)."""
    record = first_record(path)
    if record is None:
        return "result"
    program = record.get("program") if record.get("type") == "meta" else record.get("type")
    if program in ("fabperf_preflight", "preflight"):
        return "preflight"
    if program in PAIRS_PROGRAMS:
        return "pairs"
    return "result"


def read_launches_tsv(folder):
    """{file name: (label, repeat, program, exit)} from launches.tsv; exit None when ok."""
    path = os.path.join(folder, "launches.tsv")
    table = {}
    if not os.path.exists(path):
        return table
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f.read().splitlines()[1:]:
            fields = line.split("\t")
            if len(fields) < 6:
                continue
            # also expect-failed(3) and expect-inconclusive(4): complete, an --expect verdict
            m = re.search(r"(?:failed|inconclusive)\((\d+)\)", fields[3])
            table[fields[5]] = (fields[0], fields[1], fields[2], int(m.group(1)) if m else None,
                                fields[3].startswith("expect-"))
    return table


def read_log(folder, name):
    """(command, last lines) of <name without .json>.log, the sbatch templates' launch log."""
    stem = re.sub(r"\.jsonl?$", "", name)
    try:
        with open(os.path.join(folder, stem + ".log"), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None, []
    command = lines[0][1:].strip() if lines and lines[0].startswith("#") else None
    body = [ln for ln in lines[1:] if ln.strip() and not set(ln.strip()) <= set("-")]
    return command, body[-6:]


# --output FILE writes FILE.tmp.PID and renames it at the end; a launch killed at once (SIGKILL)
# leaves the temporary file, whose rows are whole.
TMP_SUFFIX = re.compile(r"\.tmp\.\d+$")


def base_name(name):
    return TMP_SUFFIX.sub("", name)


def name_parts(name, tsv):
    """(label, repeat, program) from launches.tsv, else from <label>.<repeat>.<program>.json."""
    name = base_name(name)
    if name in tsv:
        return tsv[name][:3]
    stem = re.sub(r"\.jsonl?$", "", name)
    m = REPEAT_STEM.match(stem)
    return (m.group("label"), m.group("repeat"), m.group("program")) if m else (stem, "", "?")


def read_result_file(folder, name, tsv):
    label, repeat, program = name_parts(name, tsv)
    launch = Launch(name, label, program, repeat)
    launch.exit, launch.expect_failed = tsv.get(base_name(name), (None,) * 5)[3:5]
    launch.command, launch.log_tail = read_log(folder, base_name(name))
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        launch.warnings.append("no result file" + (f" (launcher exit {launch.exit})"
                                                   if launch.exit is not None else ""))
        return launch
    try:
        launch.meta, launch.rows, launch.warnings = read_launch(path)
    except InputError as e:
        launch.warnings.append(str(e).replace(path, name))
        return launch
    launch.warnings = [w.replace(path, name) for w in launch.warnings]
    launch.end = read_end(path)
    if name != base_name(name):
        launch.warnings.append(f"the launch was killed before it renamed this file to {base_name(name)}")
    launch.label = file_label(launch.meta, path)
    launch.program = launch.meta["program"]
    launch.state = launch_state(launch.rows, launch.warnings)
    if launch.state == "ok" and launch.expect_failed:
        what = "was inconclusive" if launch.exit == 4 else "failed"
        launch.warnings.append(f"complete; an --expect threshold {what} (exit {launch.exit})")
    elif launch.state == "ok" and launch.exit is not None:
        launch.warnings.append(f"the launch exited with status {launch.exit}")
    return launch


def preflight_report(name, records, number):
    """One fabperf_preflight --format json file: meta (nodes), fact, finding and end records."""
    meta = next((r for r in records if r.get("type") == "meta"), {})
    nodes = [str(n) for n in meta.get("nodes") or []]
    findings = [r for r in records if r.get("type") == "finding"]
    for f in findings:  # a node named only by a finding still gets its row
        if str(f.get("node")) not in nodes:
            nodes.append(str(f.get("node")))
    return {"file": name, "ident": f"pf{number}", "nodes": nodes, "findings": findings,
            "facts": [r for r in records if r.get("type") == "fact" and isinstance(r.get("values"), list)],
            "end": next((r for r in records if r.get("type") == "end"), None),
            "topology": meta.get("topology")}


def pairs_report(name, records, number):
    """One all-pairs file: its matrices (one per size), findings, failed-threshold records and the
    judge's record of each size (files written before the judge had one have none)."""
    findings = [r for r in records if r.get("type") == "finding"]
    judges = [r for r in records if r.get("type") == "judge" and num(r.get("size")) is not None]
    return {"file": name, "ident": f"p{number}",
            "matrices": [r for r in records if r.get("type") == "matrix" and valid_matrix(r)],
            "findings": findings,
            "verdicts": [r for r in records if r.get("type") == "verdict"],
            "rows": [r for r in records if r.get("type") == "row"],
            "judges": judges,
            # a judged sweep: its sizes get the judge's verdict; an older file renders as it did
            "judged": bool(judges) or any(f.get("status") in FINDING_STATUSES for f in findings)}


def read_section_file(run, folder, name, kind):
    path = os.path.join(folder, name)
    try:
        records = read_records(path)
    except (OSError, ValueError) as e:
        run.warnings.append(f"{name}: cannot read this {kind} file: {e}")
        return
    for r in records:
        r.setdefault("_file", name)
    if kind == "preflight":
        run.preflight.append(preflight_report(name, records, len(run.preflight) + 1))
    else:
        run.pairs.append(pairs_report(name, records, len(run.pairs) + 1))


def result_names(folder):
    try:
        names = sorted(os.listdir(folder))
    except OSError as e:
        raise InputError(f"cannot read folder {folder}: {e.strerror}") from None
    return [n for n in names if base_name(n).endswith((".json", ".jsonl"))
            and os.path.isfile(os.path.join(folder, n))]


def read_folder(folder):
    if not os.path.isdir(folder):
        raise InputError(f"{folder}: not a folder (give a run folder)")
    run, tsv = Run(folder), read_launches_tsv(folder)
    names = result_names(folder)
    launches = []
    for name in names:
        kind = peek_kind(os.path.join(folder, name))
        if kind in ("result", "pairs"):  # an all-pairs file's rows are a configuration too
            launches.append(read_result_file(folder, name, tsv))
        if kind != "result":
            read_section_file(run, folder, name, kind)
    found = {base_name(n) for n in names}
    launches.extend(read_result_file(folder, n, tsv) for n in tsv if n not in found)
    run.skipped = read_skipped(folder)
    if not launches and not run.preflight and not run.pairs:
        raise InputError(f"folder {folder} holds no fabperf result (*.json) and no launches.tsv")
    group_launches(run, launches)
    apply_judgements(run)
    return run


def read_skipped(folder):
    try:
        with open(os.path.join(folder, "skipped.txt"), encoding="utf-8", errors="replace") as f:
            return [ln.strip() for ln in f if ln.strip()]
    except OSError:
        return []


def group_launches(run, launches):
    by_key = {}
    for launch in launches:
        key = (launch.label, launch.program)
        if key not in by_key:
            by_key[key] = Config(*key)
            run.configs.append(by_key[key])
        by_key[key].launches.append(launch)
    programs = {}
    for index, config in enumerate(run.configs):
        config.ident = f"c{index + 1}"
        config.launches.sort(key=lambda x: (int(x.repeat) if str(x.repeat).isdigit() else 0, x.name))
        programs.setdefault(config.program, []).extend(x for x in config.launches if x.rows)
    # One quantity per program, as fabperf-compare chooses it, so that a plot compares like with like.
    quantities = {p: program_quantity(good[0].meta.get("metric", ""), good, run.warnings)
                  for p, good in programs.items() if good}
    for config in run.configs:
        good = [x for x in config.launches if x.rows and x.ci_ok is not None]
        if good:
            config.quantity = quantities[config.program]
            config.sizes = size_rows(good, config.quantity)


def size_rows(launches, quantity):
    """One entry per size: the compare tool's cell over launches, verdict, path, line rate."""
    per_size = {}
    for launch in launches:
        for row in launch.rows:
            per_size.setdefault(int(num(row["size"])), []).append((launch, row))
    out = []
    for size in sorted(per_size):
        pairs = per_size[size]
        rows = [r for _, r in pairs]
        cells = []
        for launch, row in pairs:
            value, lo, hi = quantity.extract(row)
            cells.append((value, lo, hi) if launch.ci_ok else (value, None, None))
        out.append({
            "size": size, "cells": cells, "between": between_launches(cells),
            "verdict": evidence_of(rows).get("verdict"),  # fabperf-compare's words
            "expect": next((r["expect"] for r in rows if r.get("expect") is not None), None),
            "line_rate_gbps": median_of(rows, "line_rate_gbps"),
            "efficiency": median_of(rows, "efficiency"),
            "path": [r["path"] for r in rows if r.get("path") is not None],
        })
    return out


def median_of(rows, key):
    values = [num(r.get(key)) for r in rows if num(r.get(key)) is not None]
    return statistics.median(values) if values else None


# ================================================================ plots (inline SVG)


def plot_order(configs):
    """Configurations with a failing or disagreeing size first: they are the ones to look at."""
    def trouble(c):
        bad = any(shown_verdict(s)[1] in ("fail", "inconclusive", "mixed", "undecided", "cannot-judge")
                  for s in c.sizes)
        return 0 if bad else 1
    return sorted(configs, key=trouble)


# ================================================================ all-pairs heatmap

def finding_cells(finding, nodes):
    """(i, j) matrix cells (sender, receiver) behind a finding: its "pairs" of names; without them
    (a node of a matrix above 64 nodes) from its ranks and direction: a sender's row, a
    receiver's column, both for "both" and "round-trip" (a latency sweep's unordered pairs); a
    link's cell, and the reverse one for "both-ways"; a slow round's cells from its shift."""
    index = {name: k for k, name in enumerate(nodes)}
    pairs = finding.get("pairs")
    if isinstance(pairs, list):
        out = [(index.get(p[0]), index.get(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2]
        return [(i, j) for i, j in out if i is not None and j is not None]
    if finding.get("kind") == "slow_round" and isinstance(finding.get("shift"), int):
        n = len(nodes)  # a shift round: every sender i with receiver i + shift
        return [(i, (i + finding["shift"]) % n) for i in range(n) if finding["shift"] % n]
    ranks = [r for r in finding.get("ranks") or [] if isinstance(r, int) and 0 <= r < len(nodes)]
    direction = finding.get("direction")
    if finding.get("kind") == "slow_link" and len(ranks) == 2:
        a, b = ranks
        return [(a, b), (b, a)] if direction == "both-ways" else [(a, b)]
    if len(ranks) != 1:
        return []
    a, others = ranks[0], [j for j in range(len(nodes)) if j != ranks[0]]
    cells = [(a, j) for j in others] if direction in ("send", "both", "round-trip") else []
    return cells + ([(j, a) for j in others] if direction in ("receive", "both", "round-trip") else [])


def matrix_for(report, size):
    """Index of the matrix of that size in an all-pairs report (the first one without a size)."""
    for m, matrix in enumerate(report["matrices"]):
        if num(matrix.get("size")) == num(size):
            return m
    return 0 if report["matrices"] and size is None else None


# ================================================================ the judge of a sweep's sizes

JUDGED_ORDER = ("fail", "cannot judge", "undecided", "pass")  # worst first
CELLS_LISTED = 6  # cells a verdict names beside its link; the finding's table lists every one


def judge_record(report, size):
    return next((j for j in report["judges"] if num(j.get("size")) == num(size)), None)


def matrix_anchor(report, m):
    """The id of a matrix's block in the all-pairs section (its heatmap and its judge)."""
    return f"{report['ident']}-m{m + 1}"


def finding_targets(report, findings):
    """[(id, text)] of the heatmap cells (outlined anchors) behind these findings, in order."""
    out = []
    for f in findings:
        m = matrix_for(report, f.get("size"))
        if m is None:
            continue
        nodes = report["matrices"][m]["nodes"]
        for i, j in finding_cells(f, nodes):
            target = (f"{matrix_anchor(report, m)}-m-{i}-{j}", f"{nodes[i]} → {nodes[j]}")
            if target not in out:
                out.append(target)
    return out


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def size_judgement(report, size, row_verdict=None, row_expect=None):
    """The verdict of one size of a judged sweep: {"verdict" (pass, fail, undecided, cannot judge),
    "cls", "reason", "targets": [(id, text)] of the heatmap cells it rests on (the matrix itself
    when no finding does), "judge": the size's judge record or None}; None for a file written
    before the judge decided (it renders as it did). A finding that stands fails the size whatever
    its row says; a judge that could not decide, a suspect left undecided or an inconclusive
    "uniform" term is never a pass."""
    if not report["judged"]:
        return None
    judge = judge_record(report, size)
    found = [f for f in report["findings"] if num(f.get("size")) == num(size)]
    by = {st: [f for f in found if finding_status(f) == st] for st in FINDING_STATUSES}

    def count(st):
        said = num(judge.get(st)) if judge else None
        return max(len(by[st]), int(said) if said is not None else 0)
    stands, undecided = count("stands"), count("undecided")
    reason = str(judge.get("reason") or "") if judge else ""
    uniform_open = str(row_verdict or "").startswith("inconclusive") and "uniform" in str(row_expect or "")
    if stands:
        verdict, resting = "fail", by["stands"]
        first = next((f.get("message") for f in by["stands"] if f.get("message")), "")
        reason = f"{plural(stands, 'finding')} stand{'s' if stands == 1 else ''}" + (f": {first}" if first else "")
    elif judge is not None and judge.get("decided") is False:
        verdict, resting = "cannot judge", by["undecided"] or found
        reason = reason or "the judge could not decide"
    elif undecided:
        verdict, resting = "undecided", by["undecided"] or found
        why = next((f.get("why") for f in by["undecided"] if f.get("why")), "")
        reason = reason or (f"{plural(undecided, 'suspect')} neither stood nor cleared"
                            + (f": {why}" if why else ""))
    elif uniform_open:
        verdict, resting = "cannot judge", found
        reason = reason or "the uniform term is inconclusive"
    else:
        verdict, resting = "pass", []
        cleared = count("cleared")
        suspects = max(int(num(judge.get("suspects")) or 0) if judge else 0, len(found))
        reason = (f"{plural(suspects, 'suspect')}, {cleared} cleared by the re-test" if suspects
                  else "no suspect")
    targets = finding_targets(report, resting)
    m = matrix_for(report, size)
    if not targets and m is not None:
        targets = [(matrix_anchor(report, m), "the heatmap")]
    return {"verdict": verdict, "cls": verdict.replace(" ", "-"), "reason": reason,
            "targets": targets, "judge": judge}


def apply_judgements(run):
    """A sweep's sizes in its configuration take the judge's verdict where it is not a pass (the
    worst over the configuration's launches): the row's own verdict cannot see an undecided
    suspect, and a finding that stands fails the size."""
    by_file = {r["file"]: r for r in run.pairs}
    for c in run.configs:
        reports = [by_file[x.name] for x in c.launches if x.name in by_file]
        for s in c.sizes:
            judged = [j for j in (size_judgement(r, s["size"], s["verdict"], s["expect"]) for r in reports) if j]
            s["sweep"] = min(judged, key=lambda j: JUDGED_ORDER.index(j["verdict"])) if judged else None


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


def verdict_class(verdict):
    return (verdict or "").split(" ")[0]


def verdict_cell(verdict):
    if not verdict:
        return ""
    return (f'<span class="v {h(verdict_class(verdict))}">{h(verdict)}</span>', None)


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


def finding_where(f):
    if f.get("kind") == "slow_link":
        arrow = " <-> " if f.get("direction") == "both-ways" else " -> "
        return arrow.join(str(x) for x in f.get("nodes") or [])
    if f.get("kind") == "slow_round":  # a whole round of the sweep, no node or link
        shift = f" (shift {f['shift']})" if f.get("shift") is not None else ""
        return f"round {f.get('round', '?')}{shift}"
    return ", ".join(str(x) for x in f.get("nodes") or [])


def finding_kind(f):
    return f"{f.get('kind', 'finding')} ({f['direction']})" if f.get("direction") else str(f.get("kind", "finding"))


FINDING_STATUSES = ("stands", "cleared", "undecided")  # the re-test's decision ("status")


def finding_status(f):
    """The re-test's decision: stands, cleared or undecided; in files written before it had one,
    stands / cleared (re-measured alone), or as found when not re-measured."""
    if f.get("status") in FINDING_STATUSES:
        return f["status"]
    if f.get("cleared") is True:
        return "cleared"
    return "stands" if f.get("alone") else "found"


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


def judged_sizes(report):
    """[(size, judgement)] of a judged sweep: every size it has a judge record, matrix or finding
    of, in order."""
    if not report["judged"]:
        return []
    sizes = {num(r.get("size")) for r in report["judges"] + report["matrices"] + report["findings"]}
    return [(size, size_judgement(report, size, *row_verdict(report, size)))
            for size in sorted(x for x in sizes if x is not None)]


def row_verdict(report, size):
    """(verdict, expect) of the file's row of that size."""
    row = next((r for r in report["rows"] if num(r.get("size")) == num(size)), {})
    return row.get("verdict"), row.get("expect")


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
    rows.sort(key=lambda r: STATUS_ORDER.index(r[0].split('data-status="')[1].split('"')[0]))
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


def pairs_section(run):
    parts = []
    for report in run.pairs:
        pid = report["ident"]
        parts.append(f"<h3>{h(report['file'])}</h3>")
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
            parts.append(f'<div class="matrix" id="{matrix_anchor(report, m)}">'
                         f"<p>{h(matrix.get('quantity', 'value'))} ({h(matrix.get('unit', ''))}){size}, "
                         f"{len(matrix['nodes'])} nodes, median {fmt_num(median)}: green at the "
                         f"median or better, red at half or worse; row = sender, column = receiver.</p>"
                         + (judge_line(f"{pid}-j{m + 1}", j) if j else "")
                         + heatmap_svg(matrix, f"{pid}-m{m + 1}", marks.get(m, set())) + "</div>")
        for size, j in judged.items():  # a size the judge speaks of without a matrix
            if matrix_for(report, size) is None:
                parts.append(f"<p>At {fmt_size(int(size))} (no matrix):</p>" + judge_line(f"{pid}-j-{int(size)}", j))
        for k, f in enumerate(report["findings"]):
            m = matrix_for(report, f.get("size"))
            parts.append(finding_details(f"{pid}-f{k + 1}", f, None if m is None else report["matrices"][m],
                                         f"{pid}-m{(m or 0) + 1}", report))
        parts.append(threshold_table(report))
    return '<h2 id="pairs">All pairs</h2>' + "".join(parts) if parts else ""


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


def valid_matrix(r):
    nodes, values = r.get("nodes"), r.get("values")
    return (isinstance(nodes, list) and isinstance(values, list) and len(values) == len(nodes)
            and all(isinstance(row, list) and len(row) == len(nodes) for row in values))


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
                      "; ".join(fmt_path(p) for p in s["path"])]))
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


# ================================================================ page

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}
th{background:#eee;cursor:pointer;user-select:none}td[data-v]{text-align:right}
caption{text-align:left;font-weight:bold}summary{cursor:pointer;padding:2px 0}
.v.pass,.st.ok{color:#176b1e;font-weight:bold}.v.fail,.st.failed{color:#b00;font-weight:bold}
.v.inconclusive,.v.mixed,.v.warn,.st.cut{color:#a65c00;font-weight:bold}
.v.undecided,.v.cannot-judge,.v.found{color:#7a3e9d;font-weight:bold}.v.stands{color:#b00;font-weight:bold}
.v.cleared{color:#555;font-weight:bold}.why,.cells{color:#555}
.frame{fill:none;stroke:#888}.grid{stroke:#e4e4e4}.series{fill:none;stroke-width:1.5}
svg text{font-size:11px;fill:#333}.pt{font-size:13px;font-weight:bold}svg{display:block;margin:.5em 0}
.marked{fill:none;stroke:#000;stroke-width:1.5}.anchor{fill:none}
rect:target{stroke:#f0b400;stroke-width:3}.differs{color:#b00}tr.differs td{color:#b00}
dl.prov{display:grid;grid-template-columns:max-content auto;gap:0 1em}dd{margin:0}
pre{white-space:pre-wrap;background:#f6f6f6;padding:4px}:target{outline:3px solid #f0b400}
"""

# Sorting by a column (numbers by data-v), opening the <details> around a link's target, and a
# self-check the browser test reads back: script errors seen and images that decoded.
SCRIPT = """
(function () {
  var errors = 0;
  window.addEventListener('error', function () { errors++; }, true);
  function key(td) {
    if (!td) return '';
    var v = td.getAttribute('data-v');
    return v !== null ? parseFloat(v) : td.textContent.toLowerCase();
  }
  document.addEventListener('click', function (e) {
    var th = e.target.closest && e.target.closest('table.sortable th');
    if (!th) return;
    var table = th.closest('table'), body = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var dir = th.getAttribute('data-dir') === 'asc' ? -1 : 1;
    th.setAttribute('data-dir', dir > 0 ? 'asc' : 'desc');
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    for (var p = el; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    if (el && el.scrollIntoView) el.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  window.addEventListener('load', function () {
    openTarget();
    var sources = [];
    Array.prototype.forEach.call(document.images, function (i) { sources.push(i.src); });
    Array.prototype.forEach.call(document.querySelectorAll('svg image'), function (i) {
      sources.push(i.getAttribute('href'));
    });
    var loaded = 0, done = 0, root = document.documentElement;
    function finish() {
      root.setAttribute('data-images', loaded + '/' + sources.length);
      root.setAttribute('data-script-errors', String(errors));
      root.setAttribute('data-check', 'done');
    }
    if (!sources.length) return finish();
    sources.forEach(function (src) {
      var img = new Image();
      img.onload = function () { if (img.naturalWidth > 0) loaded++; if (++done === sources.length) finish(); };
      img.onerror = function () { if (++done === sources.length) finish(); };
      img.src = src;
    });
  });
})();
"""


def page(run, title):
    total = sum(len(c.launches) for c in run.configs)
    bad = sum(1 for c in run.configs for x in c.launches if x.state != "ok")
    sections = [("summary", "summary"), ("plots", "plots"), ("pairs", "all pairs"),
                ("preflight", "preflight"), ("configurations", "configurations")]
    present = {"plots": any(c.sizes for c in run.configs), "pairs": bool(run.pairs),
               "preflight": bool(run.preflight)}
    nav = ", ".join(link(k, text) for k, text in sections if present.get(k, True))
    head = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{h(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{h(title)}</h1><p>Run folder <code>{h(run.folder)}</code>: "
            f"{len(run.configs)} configurations, {total} launches, {bad} not ok. "
            f"Sections: {nav}.</p>")
    summary = ('<h2 id="summary">Summary</h2>' + verdict_summary(run) + preflight_summary(run)
               + pairs_summary(run) + launch_summary(run) + skipped_summary(run))
    configs = '<h2 id="configurations">Configurations</h2>' + "".join(
        config_section(c) for c in run.configs)
    warnings = ""
    if run.warnings:
        warnings = '<h2 id="warnings">Warnings</h2><ul>' + "".join(
            f"<li>{h(w)}</li>" for w in run.warnings) + "</ul>"
    return (head + summary + plots_section(run) + pairs_section(run) + preflight_section(run)
            + configs + warnings + f"<script>{SCRIPT}</script></body></html>\n")


def main(argv):
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", metavar="RUN_FOLDER", help="the run folder")
    p.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE [default: standard output]")
    p.add_argument("--title", metavar="TEXT", help="page title [default: fabperf run RUN_FOLDER's name]")
    try:
        if compare_tool_error():
            raise InputError(compare_tool_error())
        args = p.parse_args(argv)
        run = read_folder(args.folder)
    except InputError as e:
        print(f"{PROG}: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    title = args.title or f"fabperf run {os.path.basename(os.path.normpath(args.folder))}"
    return write_output(PROG, page(run, title), args.output, status=1)
