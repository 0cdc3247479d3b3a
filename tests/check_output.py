#!/usr/bin/env python3
"""Parses a fabperf result (text, csv or json) and asserts on its numbers.

Exit 0 when every check holds, 1 with one line per failed check otherwise.
"""
import argparse
import csv
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from fabperf import InputError, results  # noqa: E402  (the tools' reader of fabperf results)

REQUIRED_META = ["program", "version", "benchmark", "metric", "date", "ranks", "hosts",
                 "mpi_library", "cuda_aware", "buffers", "timer", "iterations", "warmup",
                 "batch", "validation", "env", "columns"]


def expected_sizes(lo, hi, factor, unit=1):
    """The sweep; collectives round each size down to whole units and skip empty or repeated ones."""
    sizes, size = [], lo
    while size <= hi:
        rounded = size // unit * unit
        if rounded and (not sizes or sizes[-1] != rounded):
            sizes.append(rounded)
        size = max(size + 1, int(size * factor))
    return sizes


def rate(text):
    """A printed rate: a number, or None for "n/a" (no data moved)."""
    return None if text == "n/a" else float(text)


def close(a, b, abs_tol, rel_tol):
    return abs(a - b) <= abs_tol + rel_tol * abs(b)


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
        want = expected_sizes(self.args.min, self.args.max, self.args.factor, self.args.unit)
        if sizes != want:
            self.fail(f"sizes {sizes} differ from expected {want}")

    def has_interval(self, row, where):
        """A 95% CI of the median exists from 6 samples on; below, its fields are empty (never a
        min..max that would read as one)."""
        samples = row.get("samples")
        if not isinstance(samples, (int, float)) or samples >= 6:
            return True
        keys = ["p50_ci_lo_us", "p50_ci_hi_us", "ci_halfwidth_pct", "bw_ci_lo_mbps", "bw_ci_hi_mbps"]
        filled = [k for k in keys if row.get(k) not in (None, "")]
        if filled:
            self.fail(f"{where}: {samples:g} samples have no 95% CI, yet {', '.join(filled)} hold values")
        return False

    def check_row(self, row):
        """Row in JSON/CSV schema (numbers already converted)."""
        where = f"size {row.get('size')}"
        ci = self.has_interval(row, where)
        for key in ["p50_us", "avg_us"] + (["p50_ci_hi_us"] if ci else []):
            self.finite_positive(f"{where} {key}", row.get(key))
        # The CI is widened by one timer resolution step each way: where the low order statistic
        # is within a step of zero (a no-op collective on one rank), zero is the honest bound.
        lo = row.get("p50_ci_lo_us")
        if ci and (not isinstance(lo, (int, float)) or not math.isfinite(lo) or lo < 0):
            self.fail(f"{where} p50_ci_lo_us: {lo!r} is not a finite number >= 0")
        # The tails are the operations' only at batch 1; batch means have none (None/empty).
        batch = row.get("batch")
        for key in ["min_us", "max_us"]:
            if batch == 1:
                self.finite_positive(f"{where} {key}", row.get(key))
            elif batch is not None and row.get(key) is not None:
                self.fail(f"{where}: {key} {row.get(key)!r} at batch {batch}, expected none")
        if all(isinstance(row.get(k), (int, float)) for k in ["p50_us", "p50_ci_lo_us", "p50_ci_hi_us"]):
            if not row["p50_ci_lo_us"] <= row["p50_us"] <= row["p50_ci_hi_us"]:
                self.fail(f"{where}: ci_lo <= p50 <= ci_hi does not hold: {row}")
        if all(isinstance(row.get(k), (int, float)) for k in ["min_us", "p50_us", "max_us"]):
            if not row["min_us"] <= row["p50_us"] <= row["max_us"]:
                self.fail(f"{where}: min <= p50 <= max does not hold: {row}")
        if self.finite_positive(f"{where} samples", row.get("samples")) and row["samples"] < 1:
            self.fail(f"{where}: no samples")
        if self.args.metric == "bandwidth":
            for key in ["bw_mbps", "bw_p50_mbps"] + (["bw_ci_lo_mbps"] if ci else []):
                self.finite_positive(f"{where} {key}", row.get(key))
            # No upper bound on the rate where the time's lower bound is zero (see above).
            if ci and (lo != 0 or row.get("bw_ci_hi_mbps") is not None):
                self.finite_positive(f"{where} bw_ci_hi_mbps", row.get("bw_ci_hi_mbps"))
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
        if self.args.metric == "collective":
            self.check_collective_row(row, where)

    def check_collective_row(self, row, where):
        """algbw = S / t and busbw = algbw x factor, from the full-precision median."""
        if row.get("p50_us") != row.get("oop_p50_us"):
            self.fail(f"{where}: p50_us is not the out-of-place median")
        for variant in ("oop", "ip"):
            time = row.get(f"{variant}_p50_us")
            if time is None and variant == "ip" and self.args.no_in_place:
                continue
            if not self.finite_positive(f"{where} {variant}_p50_us", time):
                continue
            if self.args.one_rank:  # no data crosses ranks; in place none moves: no rates
                if row[f"{variant}_busbw_gbps"] is not None or (variant == "ip") != (row[f"{variant}_algbw_gbps"] is None):
                    self.fail(f"{where}: {variant} rates with one rank: {row[f'{variant}_algbw_gbps']!r}, "
                              f"{row[f'{variant}_busbw_gbps']!r}")
                if variant == "ip":
                    continue
            algbw = row[f"{variant}_algbw_gbps"]
            if not close(algbw, row["size"] / time * 1e-3, 0, 1e-6):
                self.fail(f"{where}: {variant} algbw {algbw} is not size / time")
            if self.args.busbw_factor is not None and not self.args.one_rank and not close(
                    row[f"{variant}_busbw_gbps"], algbw * self.args.busbw_factor, 1e-12, 1e-6):
                self.fail(f"{where}: {variant} busbw {row[f'{variant}_busbw_gbps']} is not "
                          f"algbw x {self.args.busbw_factor}")
            wrong = row.get(f"{variant}_wrong")
            if self.args.validated and wrong not in (0, 0.0):
                self.fail(f"{where}: {variant} #wrong {wrong!r}, expected 0")
        self.finite_positive(f"{where} iso_p50_us", row.get("iso_p50_us"))

    def check_json(self, lines):
        try:
            records = results.parse("\n".join(lines), "the result", complete=True).records
        except InputError as error:
            self.fail(str(error))
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
        """Header information as '#' lines before the column names, an end record after the rows."""
        if not lines or not lines[0].startswith("# fabperf_"):
            self.fail("CSV does not open with the '# fabperf_<program>' header line")
        data = [i for i, l in enumerate(lines) if l and not l.startswith("#")]
        tail = lines[data[-1] + 1:] if data else []
        if "# run complete" not in tail:
            self.fail("no '# run complete' end record after the last CSV row")
        reader = csv.DictReader(l for l in lines if not l.startswith("#"))
        rows = []
        for raw in reader:
            row = {}
            for key, text in raw.items():
                if text in ("", None):
                    row[key] = None
                elif key in ("validation", "target_met", "staged", "datatype", "redop", "verdict", "expect", "path"):
                    row[key] = text
                else:
                    row[key] = float(text)
            rows.append(row)
        self.check_sizes([int(r["size"]) for r in rows])
        for row in rows:
            self.check_row(row)

    def check_text_collective(self, lines):
        """nccl-tests' layout: size count type redop root, then time algbw busbw #wrong twice; the
        summary leaves type, redop and root to the header."""
        names = re.compile(r"^#\s+size\s+count(\s+type\s+redop\s+root)?" + r"\s+time\s+algbw\s+busbw\s+#wrong" * 2)
        headers = [names.match(l) for l in lines if names.match(l)]
        if len(headers) != 1:
            self.fail("no nccl-tests header line '#  size  count  type  redop  root  time  algbw  busbw  #wrong ...'")
        per_row = bool(headers and headers[0].group(1))
        sizes = []
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.split()
            if not per_row:  # the header's constants in their columns' places
                fields[2:2] = [self.args.type or "-", "-", str(self.args.root if self.args.root is not None else 0)]
            try:
                size, count, root = int(fields[0]), int(fields[1]), int(fields[4])
                times = [float(fields[5]), float(fields[9])] if fields[9] != "-" else [float(fields[5])]
                rates = [(rate(fields[6 + 4 * v]), rate(fields[7 + 4 * v])) for v in range(len(times))]
            except (ValueError, IndexError):
                self.fail(f"row does not parse as nccl-tests': {line!r}")
                continue
            sizes.append(size)
            if self.args.type and fields[2] != self.args.type:
                self.fail(f"size {size}: type {fields[2]!r}, expected {self.args.type}")
            if self.args.root is not None and root != self.args.root:
                self.fail(f"size {size}: root {root}, expected {self.args.root}")
            for variant, (time, (algbw, busbw)) in enumerate(zip(times, rates)):
                self.finite_positive(f"size {size} time", time)
                if time <= 0:
                    continue
                # Printed values are rounded: the time to 2, 1 or 0 decimals (nccl-tests), rates
                # to 0.01. The rates must lie in what the printed time allows.
                half = 0.005 if time < 100 else 0.05 if time < 10000 else 0.5
                factor = 1.0 if self.args.busbw_factor is None else self.args.busbw_factor
                for name, value, scale in (("algbw", algbw, 1.0), ("busbw", busbw, factor)):
                    # One rank: nothing crosses ranks (no busbw); in place (variant 1) nothing moves.
                    if self.args.one_rank and (name == "busbw" or variant == 1):
                        if value is not None:
                            self.fail(f"size {size}: {name} {value} with one rank, expected n/a")
                        continue
                    if name == "busbw" and self.args.busbw_factor is None:
                        continue
                    if value is None:
                        self.fail(f"size {size}: {name} n/a with {self.args.one_rank and 1 or 'several'} ranks")
                        continue
                    low = size / (time + half) * 1e-3 * scale - 0.0051
                    high = (size / (time - half) * 1e-3 * scale if time > half else math.inf) + 0.0051
                    if not low <= value <= high:
                        self.fail(f"size {size}: {name} {value} is not size / time x {scale} "
                                  f"for time {time} (expected {low:.4f} to {high:.4f})")
            if self.args.validated and (fields[8] != "0" or (fields[9] != "-" and fields[12] != "0")):
                self.fail(f"size {size}: #wrong {fields[8]} / {fields[12]}, expected 0")
        self.check_sizes(sizes)
        if not any(l.startswith("# Avg bus bandwidth    : ") for l in lines):
            self.fail("no '# Avg bus bandwidth    : ' line")
        if self.args.validated and not any(l.startswith("# validation: all sizes passed") for l in lines):
            self.fail("no '# validation: all sizes passed' line")

    def check_text(self, lines):
        if self.args.metric == "collective":
            self.check_text_collective(lines)
            return
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
            # Two decimals: a rate under 0.005 MB/s (64 1-byte messages a window whose mean took
            # over 13 ms, as TCP on a loaded machine can) prints 0.00; JSON rows keep full precision.
            value = float(match.group(2))
            if value != 0.0 or self.args.metric != "bandwidth":
                self.finite_positive(f"size {match.group(1)}", value)
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
    parser.add_argument("--metric", choices=["latency", "bandwidth", "collective"], required=True)
    parser.add_argument("--unit", type=int, default=1, help="collectives: sizes round down to this")
    parser.add_argument("--busbw-factor", type=float, help="collectives: busbw = algbw x this")
    parser.add_argument("--type", help="collectives: element type of every row")
    parser.add_argument("--root", type=int, help="collectives: root of every row")
    parser.add_argument("--no-in-place", action="store_true", help="collectives: in-place not run")
    parser.add_argument("--one-rank", action="store_true", help="collectives: one rank, rates n/a")
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
