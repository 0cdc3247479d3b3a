"""The one reader of fabperf's results: JSON Lines written with --format json (a "meta" record
first, then "row" records, the family's own records such as "matrix", "finding", "verdict" or
"judge", and an "end" record), a run file or a run folder of them."""

import json
import math
import os
import re

from . import InputError

# <label>.<repeat>.<program>.json, as the sbatch templates of scripts/slurm name a launch's file.
REPEAT_STEM = re.compile(r"^(?P<label>.+)\.(?P<repeat>\d+)\.(?P<program>[A-Za-z0-9_-]+)$")


def num(value):
    """A finite number or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def load_records(path):
    """(records, cut): the objects of a JSON Lines file in order, and whether its last line was
    cut short (left out; a run killed while writing leaves one). InputError when the file cannot
    be read or a line before the last is not a JSON object."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise InputError(f"cannot read {path}: {reason}") from None
    return parse_lines(lines, path)


def parse_lines(lines, where="the output"):
    """(records, cut) of JSON Lines already read (a program's standard output, say): as
    load_records, where names the source in an error."""
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines) and records:
                return records, True
            raise InputError(f"{where} is not a fabperf JSON result "
                             f"(line {number} is not JSON)") from None
        if not isinstance(record, dict):
            raise InputError(f"{where} is not a fabperf JSON result (line {number} is not an object)")
        records.append(record)
    return records, False


class Result:
    """One result file: meta, rows, end (None when the run was cut short), every record in order,
    and whether the last line was cut short."""

    def __init__(self, path, records, cut):
        self.path, self.records, self.cut = path, records, cut
        self.meta = records[0] if records and records[0].get("type") == "meta" else None
        self.rows = self.of("row")
        self.end = next((r for r in records if r.get("type") == "end"), None)

    def of(self, kind):
        """The records of one type ("row", "matrix", "finding", ...), in order."""
        return [r for r in self.records if r.get("type") == kind]

    def row(self, size):
        """The first row of a message size, None without one."""
        return next((r for r in self.rows if r.get("size") == size), None)


def whole(where, records, cut, complete):
    if cut and complete:
        raise InputError(f"{where}: the last line is cut short")
    return Result(where, records, cut)


def read(path, complete=False):
    """The Result of one JSON Lines file (see load_records for what is refused; with complete,
    a last line cut short too)."""
    return whole(path, *load_records(path), complete)


def parse(text, where="the output", complete=False):
    """The Result of JSON Lines text (see parse_lines and read)."""
    return whole(where, *parse_lines(text.splitlines(), where), complete)


def read_result(path, warnings):
    """(meta, rows) of a measurement's file, as the tools take it: a meta record with program and
    metric first, every row with a size; what is wrong but usable goes to warnings."""
    records, cut = load_records(path)
    if cut:
        warnings.append(f"{path}: last line is cut short; ignored")
    if not records or records[0].get("type") != "meta" or not isinstance(records[0].get("program"), str) \
            or not isinstance(records[0].get("metric"), str):
        raise InputError(f"{path} is not a fabperf JSON result (no meta line with program and metric)")
    meta = records[0]
    rows = [r for r in records[1:] if r.get("type") == "row"]
    for r in rows:
        if num(r.get("size")) is None:
            raise InputError(f"{path} is not a fabperf JSON result (a row without size)")
    end = next((r for r in records if r.get("type") == "end"), None)
    if end is None:
        warnings.append(f"{path}: no end line, the run was cut short; its rows are used")
    elif end.get("status") != "complete":
        warnings.append(f"{path}: run ended with status {end.get('status')!r}; its rows are used")
    elif isinstance(end.get("failures"), int) and end["failures"] > 0:
        warnings.append(f"{path}: {end['failures']} size(s) failed validation")
    if not rows:
        warnings.append(f"{path}: no result rows")
    if end is not None and isinstance(end.get("ucx_end"), dict):  # UCX chose more during the sweep
        meta = dict(meta, ucx_end=end["ucx_end"])
    return meta, rows


def first_record(path):
    """The first record of a file (the first element of a one-document list), None when there is
    no JSON object first."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            first = next((line for line in f if line.strip()), "")
        record = json.loads(first)
    except (OSError, ValueError):
        return None
    if isinstance(record, list) and record:  # one JSON document: a list of the records
        record = record[0]
    return record if isinstance(record, dict) else None


def is_node_report(path):
    """A folder's preflight records (fabperf_preflight) describe nodes, not a measurement."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            first = json.loads(f.readline() or "null")
    except (OSError, json.JSONDecodeError):
        return False
    return isinstance(first, dict) and first.get("program") == "fabperf_preflight"


def collect_files(inputs):
    """[(path, source)] where source tells run folders apart; a folder contributes every *.json
    and *.jsonl file directly in it, but its preflight records (the report command shows them)."""
    files = []
    for item in inputs:
        if os.path.isdir(item):
            try:
                names = sorted(n for n in os.listdir(item) if n.endswith((".json", ".jsonl")))
            except OSError as e:
                raise InputError(f"cannot read folder {item}: {e.strerror}") from None
            names = [n for n in names if os.path.isfile(os.path.join(item, n))
                     and not is_node_report(os.path.join(item, n))]
            if not names:
                raise InputError(f"folder {item} holds no fabperf result (*.json)")
            source = os.path.normpath(item)
            files.extend((os.path.join(item, n), source) for n in names)
        elif os.path.exists(item):
            files.append((item, os.path.normpath(os.path.dirname(item) or ".")))
        else:
            raise InputError(f"cannot read {item}: no such file or folder")
    return files


def read_run(inputs):
    """[Result] of run files and folders (see collect_files), in order."""
    return [read(path) for path, _source in collect_files(inputs)]


def file_label(meta, path):
    """The configuration a file measured: its meta label, else <label> of the file's name."""
    label = meta.get("label")
    if isinstance(label, str) and label.strip():
        return label
    stem = os.path.basename(path)
    for ext in (".jsonl", ".json"):
        if stem.endswith(ext):
            stem = stem[: -len(ext)]
            break
    m = REPEAT_STEM.match(stem)
    if m and m.group("program") == meta.get("program"):
        return m.group("label")
    return stem


def short_source(source):
    name = os.path.basename(source.rstrip(os.sep))
    return name or source


def read_records(path):
    """JSON Lines, or one JSON document, of a preflight or pairs file: a list of objects (a
    document's nested "findings" and "matrices" lists follow the object holding them)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
        records = doc if isinstance(doc, list) else [doc]
    except ValueError:
        records = []
        for line in text.splitlines():
            if line.strip():
                records.append(json.loads(line))
    out = []
    for r in records:
        if isinstance(r, dict):
            out.append(r)
            for key in ("findings", "matrices"):  # one-document form: nested lists
                out.extend(x for x in r.get(key) or [] if isinstance(x, dict))
    return out


def read_end(path):
    """The end record of a result file (its placement_end), None when there is none."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        if '"end"' in line:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("type") == "end":
                return record
    return None


SWEEP_RECORDS = ("matrix", "finding", "verdict", "judge")


def read_sweep(path):
    """{type: [record]} of a sweep's own records (fabperf_allpairs: matrix, finding, verdict,
    judge) with an integer size, which read_result leaves aside; empty for other programs. Lines
    that are not JSON are passed over (read_result says so)."""
    found = {t: [] for t in SWEEP_RECORDS}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not any(f'"{t}"' in line for t in SWEEP_RECORDS):
                    continue
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict) and rec.get("type") in found and isinstance(rec.get("size"), int):
                    found[rec["type"]].append(rec)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    return found
