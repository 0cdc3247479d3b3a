#!/usr/bin/env python3
"""Holds a fabperf --layout osu text to the layout of a real OSU Micro-Benchmarks output.

  osu_layout.py GOLDEN FILE [MIN_SIZE]

GOLDEN is an OSU program's own output, kept as it printed it (tests/golden/osu-7.4/). Numbers
aside, FILE must match it line for line where a parser of OSU's output looks:
  - the column heading ("# Size ...") byte for byte;
  - each row: the same number of fields, the size left-aligned at column 0, every other field
    ending at the same column with the same number of decimals, the same line length; the sizes
    those of GOLDEN's rows from MIN_SIZE on (collectives of 4-byte elements start at 4), in order;
  - every other line, in both files, empty or a comment ("#" first): OSU's title and datatype
    lines are comments, and so are fabperf's provenance lines, which stand in their place.
Exit 0 when it matches, 1 with one line per difference otherwise.
"""
import re
import sys

ROW = re.compile(r"\d+(?: +\d+\.\d+)+")


def parse(path):
    with open(path, encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    heading, rows, other = None, [], []
    for line in lines:
        if line.startswith("# Size"):
            heading = line if heading is None else heading + "\n(twice)"
        elif ROW.fullmatch(line):
            rows.append(line)
        else:
            other.append(line)
    return lines, heading, rows, other


def shape(line):
    """Where a row's fields are: the size's start, every other field's end and decimals, and the
    line's length."""
    fields = list(re.finditer(r"\S+", line))
    return (fields[0].start(), [f.end() for f in fields[1:]],
            [len(f.group().partition(".")[2]) for f in fields[1:]], len(line))


def main():
    golden_path, path = sys.argv[1], sys.argv[2]
    min_size = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    errors = []
    g_lines, g_heading, g_rows, g_other = parse(golden_path)
    lines, heading, rows, other = parse(path)
    if g_heading is None or not g_rows:
        errors.append(f"{golden_path}: no heading or no rows: not an OSU output")
    for line in g_other:
        if line and not line.startswith("#"):
            errors.append(f"{golden_path}: a line that is neither a row nor a comment: {line!r}")
    if heading != g_heading:
        errors.append(f"heading {heading!r}, OSU 7.4 prints {g_heading!r}")
    for line in other:
        if line and not line.startswith("#"):
            errors.append(f"a line that is neither OSU's row nor a comment: {line!r}")
    if heading and rows and lines.index(heading) > lines.index(rows[0]):
        errors.append("a row before the heading")
    g_rows = [r for r in g_rows if int(r.split()[0]) >= min_size]
    g_sizes = [int(r.split()[0]) for r in g_rows]
    sizes = [int(r.split()[0]) for r in rows]
    if sizes != g_sizes:
        errors.append(f"row sizes {sizes}, OSU 7.4's {g_sizes}")
    for want, got in zip(g_rows, rows):
        if shape(got) != shape(want):
            errors.append(f"row {got!r} is not laid out as OSU 7.4's {want!r}")
    for error in errors:
        print(f"  {path}: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
