#!/usr/bin/env python3
"""Parses a fabperf result (text, csv or json) and asserts on its numbers.

Exit 0 when every check holds, 1 with one line per failed check otherwise.
"""
import argparse
import csv
import json
import math
import re
import sys

REQUIRED_META = ["program", "version", "benchmark", "metric", "date", "ranks", "hosts",
                 "mpi_library", "cuda_aware", "buffers", "timer", "iterations", "warmup",
                 "batch", "validation", "env", "columns"]


def expected_sizes(lo, hi, factor):
    sizes, size = [], lo
    while size <= hi:
        sizes.append(size)
        size = max(size + 1, int(size * factor))
    return sizes


class Checker:
    def __init__(self, args):
        self.args = args
        self.errors = []

    def fail(self, message):
        self.errors.append(message)

    def finite_positive(self, where, value):
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            self.fail(f"{where}: {value!r} is not a finite positive number")
            return False
        return True

    def check_sizes(self, sizes):
        want = expected_sizes(self.args.min, self.args.max, self.args.factor)
        if sizes != want:
            self.fail(f"sizes {sizes} differ from expected {want}")

    def check_row(self, row):
        """Row in JSON/CSV schema (numbers already converted)."""
        where = f"size {row.get('size')}"
        for key in ["p50_us", "min_us", "max_us", "avg_us", "p50_ci_lo_us", "p50_ci_hi_us"]:
            self.finite_positive(f"{where} {key}", row.get(key))
        if all(isinstance(row.get(k), (int, float)) for k in ["min_us", "p50_us", "max_us", "p50_ci_lo_us", "p50_ci_hi_us"]):
            if not row["min_us"] <= row["p50_ci_lo_us"] <= row["p50_us"] <= row["p50_ci_hi_us"] <= row["max_us"]:
                self.fail(f"{where}: min <= ci_lo <= p50 <= ci_hi <= max does not hold: {row}")
        if self.finite_positive(f"{where} samples", row.get("samples")) and row["samples"] < 1:
            self.fail(f"{where}: no samples")
        if self.args.metric == "bandwidth":
            for key in ["bw_mbps", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps"]:
                self.finite_positive(f"{where} {key}", row.get(key))
            if all(isinstance(row.get(k), (int, float)) for k in ["bw_ci_lo_mbps", "bw_p50_mbps", "bw_ci_hi_mbps"]):
                if not row["bw_ci_lo_mbps"] <= row["bw_p50_mbps"] <= row["bw_ci_hi_mbps"]:
                    self.fail(f"{where}: bandwidth CI does not bracket the median")
        if self.args.validated and row.get("validation") != "pass":
            self.fail(f"{where}: validation {row.get('validation')!r}, expected pass")
        if not self.args.validated and row.get("validation") not in (None, ""):
            self.fail(f"{where}: validation {row.get('validation')!r} while off")
        if row.get("staged") not in (None, self.args.staged, str(self.args.staged).lower()):
            self.fail(f"{where}: staged {row.get('staged')!r}, expected {self.args.staged}")
        if self.args.adaptive and row.get("target_met") not in (True, False, "true", "false"):
            self.fail(f"{where}: adaptive run without target_met")

    def check_json(self, lines):
        records = []
        for number, line in enumerate(lines, 1):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                self.fail(f"line {number} is not JSON: {error}")
                return
        if not records or records[0].get("type") != "meta":
            self.fail("first record is not meta")
            return
        meta = records[0]
        for key in REQUIRED_META:
            if key not in meta:
                self.fail(f"meta lacks {key}")
        if meta.get("metric") != self.args.metric:
            self.fail(f"meta metric {meta.get('metric')!r}, expected {self.args.metric}")
        if self.args.program and meta.get("program") != self.args.program:
            self.fail(f"meta program {meta.get('program')!r}, expected {self.args.program}")
        if self.args.label is not None and meta.get("label") != self.args.label:
            self.fail(f"meta label {meta.get('label')!r}, expected {self.args.label!r}")
        for pair in self.args.env or []:
            name, value = pair.split("=", 1)
            if meta.get("env", {}).get(name) != value:
                self.fail(f"meta env {name}={meta.get('env', {}).get(name)!r}, expected {value!r}")
        rows = [r for r in records if r.get("type") == "row"]
        for row in rows:
            if list(k for k in row if k != "type") != meta.get("columns"):
                self.fail(f"row keys differ from meta columns: {list(row)}")
            self.check_row(row)
        self.check_sizes([r.get("size") for r in rows])
        if records[-1].get("type") != "end" or records[-1].get("status") != "complete":
            self.fail(f"last record is not a complete end: {records[-1]}")

    def check_csv(self, lines):
        reader = csv.DictReader(lines)
        rows = []
        for raw in reader:
            row = {}
            for key, text in raw.items():
                if text in ("", None):
                    row[key] = None
                elif key in ("validation", "target_met", "staged"):
                    row[key] = text
                else:
                    row[key] = float(text)
            rows.append(row)
        self.check_sizes([int(r["size"]) for r in rows])
        for row in rows:
            self.check_row(row)

    def check_text(self, lines):
        header = [l for l in lines if l.startswith("# Size")]
        first_column = "Bandwidth (MB/s)" if self.args.metric == "bandwidth" else "Avg Latency(us)"
        if len(header) != 1 or not re.match(r"^# Size\s+" + re.escape(first_column), header[0]):
            self.fail(f"no OSU header line '# Size  {first_column}'")
        osu_row = re.compile(r"^(\d+)\s+(\d+\.\d\d)\b")
        sizes = []
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            match = osu_row.match(line)
            if not match:
                self.fail(f"row does not parse as OSU '%-10d%18.2f': {line!r}")
                continue
            sizes.append(int(match.group(1)))
            self.finite_positive(f"size {match.group(1)}", float(match.group(2)))
            fields = line.split()
            if self.args.validated and fields[-2] != "Pass":
                self.fail(f"size {match.group(1)}: check column {fields[-2]!r}, expected Pass")
        self.check_sizes(sizes)
        if self.args.validated and not any(l.startswith("# validation: all sizes passed") for l in lines):
            self.fail("no '# validation: all sizes passed' line")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("format", choices=["text", "csv", "json"])
    parser.add_argument("file")
    parser.add_argument("--metric", choices=["latency", "bandwidth"], required=True)
    parser.add_argument("--min", type=int, default=1)
    parser.add_argument("--max", type=int, required=True)
    parser.add_argument("--factor", type=float, default=2.0)
    parser.add_argument("--program")
    parser.add_argument("--label")
    parser.add_argument("--env", action="append", help="NAME=VALUE expected in meta env")
    parser.add_argument("--validated", action="store_true")
    parser.add_argument("--adaptive", action="store_true")
    parser.add_argument("--staged", action="store_true", help="rows must say staged")
    args = parser.parse_args()
    with open(args.file, encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    checker = Checker(args)
    getattr(checker, "check_" + args.format)(lines)
    for error in checker.errors:
        print(f"{args.file}: {error}")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
