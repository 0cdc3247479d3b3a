#!/usr/bin/env python3
"""Checks a text result in an exact layout the way a parser written for that program would.

  coll_layouts.py nccl-tests FILE   every row matches nccl-tests' row format exactly (field
                                    widths included) and the column header is nccl-tests' own
  coll_layouts.py osu FILE COLUMN   every row is OSU's "%-10d%18.2f" and the header "# Size" + COLUMN
Exit 0 when every row is accepted, 1 with one line per rejected line otherwise.
"""
import re
import sys

# nccl-tests' row: "%12li  %12li  %8s  %6s  %6s", then twice "  %7s  %6s  %6s  %6g" (or "    N/A"
# when not checked); numbers fitted with 2, 1 or 0 decimals.
NUMBER7 = r"[ \d.]{6}\d"
NUMBER6 = r"[ \d.]{5}\d"
NCCL_ROW = re.compile(r"[ \d]{11}\d  [ \d]{11}\d  [ \w]{8}  [ \w]{6}  [ \d-]{5}\d"
                      + (r"  " + NUMBER7 + r"  " + NUMBER6 + r"  " + NUMBER6 + r"  (?:[ \d]{5}\d|  N/A)") * 2)
NCCL_HEADER = [
    "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s " % (
        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
        "time", "algbw", "busbw", "#wrong"),
    "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s " % (
        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""),
]


def rows(lines):
    return [l for l in lines if l.strip() and not l.startswith("#")]


def main():
    layout, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as stream:
        lines = stream.read().splitlines()
    errors = []
    if layout == "nccl-tests":
        for want in NCCL_HEADER:
            if want not in lines:
                errors.append(f"no nccl-tests header line {want!r}")
        for line in rows(lines):
            if not NCCL_ROW.fullmatch(line):
                errors.append(f"not nccl-tests' row: {line!r}")
    else:
        want = "%-10s%18s" % ("# Size", sys.argv[3])
        if [l for l in lines if l.startswith("# Size")] != [want]:
            errors.append(f"no OSU header line {want!r}")
        for line in rows(lines):
            fields = line.split()
            try:
                exact = len(fields) == 2 and line == "%-10d%18.2f" % (int(fields[0]), float(fields[1]))
            except ValueError:
                exact = False
            if not exact:
                errors.append(f"not OSU's '%-10d%18.2f' row: {line!r}")
    if not rows(lines):
        errors.append("no rows")
    for error in errors:
        print(f"{path}: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
