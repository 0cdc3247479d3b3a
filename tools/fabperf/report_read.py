"""fabperf-report's reading of a run folder: its launches (result files, launches.tsv, launch logs),
preflight and all-pairs files and skipped.txt, grouped into configurations whose sizes carry the
value over launches as fabperf-compare computes it."""

import os
import re
import statistics

from . import InputError
from .compare_stats import between_launches
from .compare_tables import check_columns, choose_quantity, evidence_of
from .report_isolate import read_isolate
from .report_judge import FINDING_STATUSES, apply_judgements, valid_matrix
from .results import REPEAT_STEM, file_label, first_record, num, read_end, read_records, read_result


# Per size: median of the launch medians and its interval over launches (min..max below 6
# launches, with its exact coverage; one launch: its own CI), exactly as fabperf-compare says it.
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


# ================================================================ reading the folder

class Launch:
    def __init__(self, name, label, program, repeat):
        self.name, self.label, self.program, self.repeat = name, label, program, repeat
        self.meta, self.rows, self.warnings = {}, [], []
        self.state, self.exit, self.command, self.log_tail = "failed", None, None, []
        self.end, self.ci_ok, self.expect_failed = None, True, False
        self.isolate = None  # a collective's --isolate search (report_isolate.py)
        self.soak = None  # a soak (--cycles, --soak): {"rows", "steps", "summary"} (soak_of)


class Config:
    def __init__(self, label, program):
        self.label, self.program = label, program
        self.launches, self.ident, self.quantity = [], "", None
        self.sizes = []  # per size: dict made by size_rows


class Run:
    def __init__(self, folder):
        self.folder = folder
        self.configs, self.skipped, self.preflight, self.pairs, self.warnings = [], [], [], [], []
        self.cross = []  # the cross-rail tables (rails_cross.folder_cross_tables)


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


def read_log_lines(folder, name):
    """(command, every line but rules and blank ones) of <name without .json>.log, the sbatch
    templates' launch log; (None, []) when there is none."""
    stem = re.sub(r"\.jsonl?$", "", name)
    try:
        with open(os.path.join(folder, stem + ".log"), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None, []
    command = lines[0][1:].strip() if lines and lines[0].startswith("#") else None
    return command, [ln for ln in lines[1:] if ln.strip() and not set(ln.strip()) <= set("-")]


def read_log(folder, name):
    """(command, last lines) of the launch log (read_log_lines)."""
    command, body = read_log_lines(folder, name)
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


def soak_of(path, rows):
    """A soak's rows (a cycle each), its step records, its summary record (None when it was cut
    short before the search) and, from the all-pairs programs, its matrix records (one per size
    and cycle, in order)."""
    try:
        records = read_records(path)
    except (OSError, ValueError):
        records = []
    return {"rows": rows, "steps": [r for r in records if r.get("type") == "step"],
            "summary": next((r for r in records if r.get("type") == "soak"), None),
            "matrices": [r for r in records if r.get("type") == "matrix"]}


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
    if launch.meta.get("metric") == "collective":
        launch.isolate = read_isolate(path)
    if any("cycle" in r for r in launch.rows):
        launch.soak = soak_of(path, launch.rows)
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
    meta = next((r for r in records if r.get("type") == "meta"), {})
    return {"file": name, "ident": f"p{number}", "topology": meta.get("topology"),
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
    from .rails_cross import cross_rails, folder_cross_tables  # they read launches.tsv through this module
    if any(cross_rails(x.label.rsplit("@", 1)[0]) for x in launches):
        run.cross = folder_cross_tables(folder, run.warnings)
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
