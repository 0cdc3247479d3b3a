"""fabperf-report --junit: a run folder as JUnit XML, for CI systems and test dashboards.

One test case per judged thing, in the page's own words:
  - each size of a configuration that has a verdict (--expect, or an all-pairs sweep's judge):
    fail, and mixed (launches that disagree, one failing) -> <failure> with the value, its
    interval and the threshold; pass -> a passing case; anything else (inconclusive, cannot
    judge, undecided) -> <skipped> with the reason, never a pass;
  - each launch that did not end ok (failed, cut short) -> <error> with its state and exit status;
  - each all-pairs finding: stands (or found, in files written before the re-test) -> <failure>,
    cleared -> a passing case that says so, undecided -> <skipped>;
  - each collective's --isolate search: a case per finding (stands -> <failure>, undecided ->
    <skipped>) and one for the search (undecided -> <skipped> with its reason);
  - each preflight node: one case per finding on it (fail -> <failure>, warn -> a passing case
    whose output says the warning), and one "preflight" case per node that fails when any of its
    findings is a failure;
  - each cell of a cross-rail table (FABPERF_RAIL_CROSS=1): a path, or no path between two
    different rails, passes (its output says which); a rail that does not reach itself ->
    <failure>; a cell not decided (its launches failed otherwise, or their bytes crossed other
    NICs) -> <skipped>. The failed launches of a cross-rail
    configuration are its cells, not errors.
Suites: one per configuration, one per sweep file, one per preflight file."""

import xml.etree.ElementTree as ET

from .rails_cross import cross_rails
from .report_html import fmt_expect, shown_verdict
from .report_judge import finding_status
from .units import fmt_num


COUNTERS = {"failure": "failures", "error": "errors", "skipped": "skipped"}


class Suite:
    def __init__(self, name):
        self.element = ET.Element("testsuite", name=name)
        self.tests = self.failures = self.errors = self.skipped = 0

    def case(self, classname, name, failure=None, error=None, skipped=None, output=None):
        """One test case; at most one of failure, error, skipped (their messages)."""
        c = ET.SubElement(self.element, "testcase", classname=classname, name=name, time="0")
        self.tests += 1
        for tag, message in (("failure", failure), ("error", error), ("skipped", skipped)):
            if message is not None:
                ET.SubElement(c, tag, message=message, type=tag).text = message
                counter = COUNTERS[tag]
                setattr(self, counter, getattr(self, counter) + 1)
        if output:
            ET.SubElement(c, "system-out").text = output

    def close(self):
        for key in ("tests", "failures", "errors", "skipped"):
            self.element.set(key, str(getattr(self, key)))
        return self.element


def verdict_kind(text):
    """pass, fail (mixed too: a launch failed its expectation) or inconclusive (inconclusive,
    cannot judge, undecided, or any other word: never a pass)."""
    if text.startswith("pass"):
        return "pass"
    if text.startswith(("fail", "mixed")):
        return "fail"
    return "inconclusive"


def value_text(size, unit):
    """'12.3 [11.9, 12.8] us over 5 launches' from a size's between-launch cell."""
    b = size.get("between")
    if not b:
        return "no value"
    lo, hi = b.get("ci_lo"), b.get("ci_hi")
    interval = f" [{fmt_num(lo)}, {fmt_num(hi)}]" if lo is not None and hi is not None else ""
    launches = b.get("repeats", 1)
    return f"{fmt_num(b['value'])}{interval} {unit} over {launches} launch{'es' if launches != 1 else ''}"


def size_message(verdict, size, unit):
    """The verdict, the measured value and interval, the threshold, and the judge's reason."""
    parts = [f"{verdict}: {value_text(size, unit)}"]
    expect = fmt_expect(size.get("expect"))
    if expect:
        parts.append(f"threshold {expect}")
    sweep = size.get("sweep")
    if sweep and sweep.get("reason"):
        parts.append(sweep["reason"])
    return "; ".join(parts)


def config_suite(c):
    s = Suite(f"{c.label} {c.program}")
    unit = c.quantity.unit if c.quantity is not None else ""
    classname = f"fabperf.{c.label}.{c.program}"
    # a cross-rail launch that failed is a cell of its table (cross_suite), not an error
    crossed = cross_rails(c.label.rsplit("@", 1)[0]) is not None
    for index, x in enumerate(c.launches):
        if x.state != "ok" and not crossed:
            status = f", exit {x.exit}" if x.exit is not None else ""
            s.case(classname, f"launch {index + 1} ({x.name})", error=f"{x.state}{status}")
    for size in c.sizes:
        text, _ = shown_verdict(size)
        if not text:
            continue
        name = f"{size['size']} B"
        message = size_message(text, size, unit)
        kind = verdict_kind(text)
        if kind == "pass":
            s.case(classname, name, output=message)
        elif kind == "fail":
            s.case(classname, name, failure=message)
        else:
            s.case(classname, name, skipped=message)
    return s


def pairs_suite(report):
    s = Suite(f"all-pairs findings {report['file']}")
    classname = f"fabperf.allpairs.{report['file']}"
    for f in report["findings"]:
        size = f"{int(f['size'])} B" if isinstance(f.get("size"), (int, float)) else "?"
        where = ",".join(str(n) for n in f.get("nodes") or []) or "?"
        name = f"{size}: {f.get('kind', 'finding')} {f.get('direction', '')} {where}".replace("  ", " ")
        message = str(f.get("message") or name)
        status = finding_status(f)
        if status == "stands":
            s.case(classname, name, failure=message)
        elif status == "found":  # a file written before findings were re-tested
            s.case(classname, name, failure=f"found, not re-tested: {message}")
        elif status == "undecided":
            s.case(classname, name, skipped=f"undecided: {message}")
        else:
            s.case(classname, name, output=f"cleared by the re-test: {message}")
    return s


def isolate_suite(launch):
    """A collective's --isolate search: one case per finding (stands -> <failure>, undecided ->
    <skipped>), and one for the search (undecided -> <skipped> with its reason; else it passes
    when nothing stands)."""
    search = launch.isolate
    s = Suite(f"--isolate {launch.name}")
    classname = f"fabperf.isolate.{launch.name}"
    for f in search["findings"]:
        name = f"{f.get('kind', 'member')} {','.join(str(r) for r in f.get('ranks') or [])}"
        message = str(f.get("message") or name)
        if f.get("status") == "stands":
            s.case(classname, name, failure=message)
        else:
            s.case(classname, name, skipped=f"{f.get('status', 'undecided')}: {message}")
    summary = search["summary"]
    size = f"{int(summary['size'])} B" if isinstance(summary.get("size"), (int, float)) else "?"
    stands = sum(1 for f in search["findings"] if f.get("status") == "stands")
    text = f"{summary.get('mode', 'search')} at {size}, {summary.get('rounds', '?')} round(s)"
    if stands:
        s.case(classname, f"search at {size}", failure=f"{text}: {stands} member(s) stand")
    elif not summary.get("decided"):
        s.case(classname, f"search at {size}", skipped=f"{text}: undecided: {summary.get('reason', '')}")
    else:
        s.case(classname, f"search at {size}", output=f"{text}: no member slows it")
    return s


def preflight_suite(report):
    s = Suite(f"preflight {report['file']}")
    for node in report["nodes"]:
        classname = f"fabperf.preflight.{node}"
        mine = [f for f in report["findings"] if str(f.get("node")) == node]
        for f in mine:
            name = f"{f.get('device', '?')}: {str(f.get('message', '')).split('; fix:')[0]}"
            if f.get("level") == "fail":
                s.case(classname, name, failure=str(f.get("message", "")))
            else:
                s.case(classname, name, output=f"{f.get('level')}: {f.get('message', '')}")
        failed = sum(1 for f in mine if f.get("level") == "fail")
        s.case(classname, "preflight",
               failure=f"{failed} of {len(mine)} findings on {node} fail" if failed else None,
               output=None if failed else f"{len(mine)} findings, none a failure")
    return s


def cross_suite(t):
    """One case per cell of a cross-rail table: a path, or no path between two different rails,
    passes (what the fabric is, said in its output); a rail that does not reach itself fails; a
    cell not decided is skipped."""
    s = Suite(f"cross-rail {t['program']} {t['pair']}")
    classname = f"fabperf.cross-rail.{t['program']}.{t['pair']}"
    for c in t["cells"]:
        name = f"{c['local']}->{c['remote']}"
        if c["status"] == "path":
            s.case(classname, name, output=f"path: {fmt_num(c['value'])} {t['unit']}")
        elif c["status"] == "no-path" and c["local"] == c["remote"]:
            s.case(classname, name, failure=f"no path: rail {c['local']} does not reach itself: {c['reason']}")
        elif c["status"] == "no-path":
            s.case(classname, name, output=f"no path: {c['reason']}")
        elif c["status"] in ("undecided", "off-rail"):
            s.case(classname, name, skipped=f"not decided: {c['reason']}")
    return s


def junit(run, title):
    """(the XML document as a string, its totals {"tests", "failures", "errors", "skipped"}) of a
    run folder read by read_folder."""
    root = ET.Element("testsuites", name=title)
    suites = [config_suite(c) for c in run.configs]
    suites += [pairs_suite(r) for r in run.pairs if r["findings"]]
    suites += [isolate_suite(x) for c in run.configs for x in c.launches if x.isolate]
    suites += [preflight_suite(r) for r in run.preflight]
    suites += [cross_suite(t) for t in run.cross]
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for s in suites:
        if s.tests == 0:
            continue
        root.append(s.close())
        for key in totals:
            totals[key] += getattr(s, key)
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n", totals
