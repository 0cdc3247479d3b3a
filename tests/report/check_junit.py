#!/usr/bin/env python3
"""check_junit.py XML EXPR: EXPR (Python) holds over a JUnit file as junitparser, a JUnit reader
from Debian's packages, reads it. Names in EXPR:
  totals  {"tests", "failures", "errors", "skipped"} as the reader counts the cases
  suites  {suite name: {"tests", "failures", "errors", "skipped"}} (the reader's counts)
  cases   [(suite, classname, name, kind, message)], kind "pass", "failure", "error", "skipped"
  records(PATH)  the JSON records of a fabperf result file (for expected values)
Exit 0 when EXPR holds, 1 (with the cases) when not or when the file does not parse."""
import json
import sys

import junitparser


def kind_of(case):
    for result in case.result:
        if isinstance(result, junitparser.Failure):
            return "failure", result.message
        if isinstance(result, junitparser.Error):
            return "error", result.message
        if isinstance(result, junitparser.Skipped):
            return "skipped", result.message
    return "pass", case.system_out


def records(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(path, expr):
    try:
        xml = junitparser.JUnitXml.fromfile(path)
    except Exception as e:  # noqa: BLE001 - any parse failure is the answer
        print(f"  {path}: does not parse as JUnit: {e}")
        return 1
    suites, cases = {}, []
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in xml:
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in suite:
            kind, message = kind_of(case)
            cases.append((suite.name, case.classname, case.name, kind, message or ""))
            counts["tests"] += 1
            if kind != "pass":
                counts[{"failure": "failures", "error": "errors", "skipped": "skipped"}[kind]] += 1
        suites[suite.name] = counts
        for key in totals:
            totals[key] += counts[key]
    declared = {key: int(xml._elem.get(key, -1)) for key in totals}
    if declared != totals:
        print(f"  {path}: the file declares {declared}, its cases count {totals}")
        return 1
    names = {"totals": totals, "suites": suites, "cases": cases, "records": records}
    if eval("(" + expr + "\n)", names):  # noqa: S307 - the tests' own expressions, over lines
        return 0
    print(f"  {expr}: false for {path}")
    print(f"  totals {totals}")
    for c in cases[:40]:
        print(f"    {c}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
