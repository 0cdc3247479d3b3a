"""fabperf-baseline: what a healthy fabric gives, from launches of it, and a run judged against it."""

import argparse
import json
import statistics
import sys

from . import InputError, Parser, write_output
from .baseline_stats import judge, launches_needed, tolerance_bound
from .report_read import read_folder
from .units import fmt_num

PROG = "fabperf-baseline"

DESCRIPTION = """\
build: from run folders of healthy launches, per program, configuration, size and
placement (buffers, ranks, hosts) a centre (the median launch) and a tolerance
bound: the value that COVERAGE of healthy launches are better than, with
CONFIDENCE, from order statistics (no assumption on the distribution).
check: each size of a run folder judged on its interval against the bound.
expect: the bounds of one program's entries as the programs' --expect terms."""

EPILOG = """\
build RUN_FOLDER... -o BASELINE.json [--coverage 0.95] [--confidence 0.95]
  Every launch that ended ok counts, one value each (its median at that size);
  all-pairs sizes whose sweep did not pass (a finding stands, undecided, cannot
  judge) are left out. The bound is the k-th worst launch, k the largest with
  P(binomial(n, 1 - coverage) >= k) >= confidence: 95 %/95 % needs 59 launches
  (k = 1), 93 give k = 2; 90 %/90 % needs 22. Fewer launches for any entry: one
  line naming it and the count it needs, exit 2, nothing written. The file
  records the folders, dates, hosts, MPI libraries and fabperf versions used.

check BASELINE.json RUN_FOLDER
  Per size of the run with an entry of the same program, configuration and
  placement: pass when the size's interval (over launches, as fabperf-report
  shows it) lies wholly on the good side of the bound, fail when wholly on the
  bad side, else inconclusive. A size whose placement differs from the
  baseline's is not compared and said (inconclusive); an MPI library or fabperf
  version the baseline was not built with is said on a line of its own. Ends
  with "fabperf: PASS n, FAIL n, INCONCLUSIVE n; nodes to drain: none".

expect BASELINE.json --program PROGRAM [--label LABEL] [--placement TEXT] [--tolerance F]
  Prints the --expect terms of the entries of PROGRAM (and LABEL, placement, when
  several configurations or placements have entries): one term per size,
  bw>=BOUND (MB/s), busbw>=BOUND (GB/s) or lat<=BOUND (us) at the size in bytes,
  the bound relaxed by F (0 to below 1: a rate's times 1 - F, a latency's times
  1 + F). A program then judges each size's own CI (one launch) against it:
  fabperf_bw ... --expect "$(fabperf-baseline expect base.json --program fabperf_bw)".

exit status:
  0 built, printed, or checked with no failure; 2 bad usage, too few launches, or
  unreadable input; 3 checked with a failure; 1 the file could not be written."""


def placement(meta):
    """'H H, 2 ranks on 1 host(s)' from a launch's meta line."""
    hosts = meta.get("hosts")
    nhosts = len(hosts) if isinstance(hosts, list) else "?"
    return f"{meta.get('buffers', '?')}, {meta.get('ranks', '?')} ranks on {nhosts} host(s)"


def size_excluded(s):
    sweep = s.get("sweep")
    return sweep is not None and sweep.get("verdict") != "pass"


def collect(folders):
    """{(program, label, size, placement): entry with its launch values}, provenance."""
    entries, prov = {}, {"folders": [], "dates": [], "hosts": set(), "mpi_library": set(), "fabperf": set()}
    for folder in folders:
        run = read_folder(folder)
        prov["folders"].append(folder)
        for c in run.configs:
            if c.quantity is None:
                continue
            for launch in c.launches:
                if launch.state != "ok":
                    continue
                meta = launch.meta
                prov["dates"].append(str(meta.get("date", "")))
                prov["hosts"].update(str(h.get("name")) for h in meta.get("hosts") or [] if isinstance(h, dict))
                prov["mpi_library"].add(str(meta.get("mpi_library", "")))
                prov["fabperf"].add(str(meta.get("version", "")))
                excluded = {s["size"] for s in c.sizes if size_excluded(s)}
                for row in launch.rows:
                    size = int(row["size"])
                    value = c.quantity.extract(row)[0]
                    if size in excluded or value is None:
                        continue
                    key = (c.program, c.label, size, placement(meta))
                    e = entries.setdefault(key, {
                        "program": c.program, "label": c.label, "size": size, "placement": placement(meta),
                        "quantity": c.quantity.title, "unit": c.quantity.unit,
                        "higher_is_better": c.quantity.better == "higher", "values": []})
                    e["values"].append(value)
    return entries, prov


def build(args):
    entries, prov = collect(args.folders)
    if not entries:
        raise InputError("no launch that ended ok in the run folders: nothing to build from")
    need = launches_needed(args.coverage, args.confidence)
    short = [e for e in entries.values() if len(e["values"]) < need]
    if short:
        e = short[0]
        more = f" (and {len(short) - 1} more entries)" if len(short) > 1 else ""
        raise InputError(f"too few launches: {len(e['values'])} of {e['program']} {e['label']} {e['size']} B "
                         f"({e['placement']}){more}; a {args.coverage:g}/{args.confidence:g} bound needs {need}")
    out = []
    for e in entries.values():
        bound, k = tolerance_bound(e["values"], e["higher_is_better"], args.coverage, args.confidence)
        out.append({**{key: e[key] for key in ("program", "label", "size", "placement", "quantity", "unit",
                                               "higher_is_better")},
                    "launches": len(e["values"]), "centre": statistics.median(e["values"]),
                    "bound": bound, "order": k})
    dates = sorted(d for d in prov["dates"] if d)
    doc = {"type": "fabperf-baseline", "version": 1, "coverage": args.coverage, "confidence": args.confidence,
           "built_from": {"folders": prov["folders"], "first": dates[0] if dates else None,
                          "last": dates[-1] if dates else None, "hosts": sorted(prov["hosts"]),
                          "mpi_library": sorted(prov["mpi_library"]), "fabperf": sorted(prov["fabperf"])},
           "entries": out}
    return write_output(PROG, json.dumps(doc, indent=1) + "\n", args.output, status=1), None


def read_baseline(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot read a baseline: {e}")
    if not isinstance(doc, dict) or doc.get("type") != "fabperf-baseline" or not isinstance(doc.get("entries"), list):
        raise InputError(f"{path}: not a fabperf-baseline file")
    return doc


def check(args):
    doc = read_baseline(args.baseline)
    run = read_folder(args.folder)
    by_key = {(e["program"], e["label"], e["size"], e["placement"]): e for e in doc["entries"]}
    by_size = {}
    for e in doc["entries"]:
        by_size.setdefault((e["program"], e["label"], e["size"]), []).append(e)
    lines, counts = [], {"pass": 0, "fail": 0, "inconclusive": 0}
    built = doc.get("built_from", {})
    seen_software = set()
    for c in run.configs:
        for launch in c.launches:
            for field, what in (("mpi_library", "MPI library"), ("version", "fabperf")):
                value = str(launch.meta.get(field, ""))
                known = built.get("mpi_library" if field == "mpi_library" else "fabperf", [])
                if launch.meta and value not in known and (field, value) not in seen_software:
                    seen_software.add((field, value))
                    lines.append(f"# software differs: {what} '{value}' here, the baseline was built with "
                                 f"{', '.join(repr(k) for k in known) or 'none recorded'}")
        where = {placement(x.meta) for x in c.launches if x.meta}
        for s in c.sizes:
            name = f"{c.program} {c.label} {s['size']} B"
            matches = [by_key.get((c.program, c.label, s["size"], p)) for p in where]
            e = next((m for m in matches if m), None)
            if e is None:
                others = by_size.get((c.program, c.label, s["size"]))
                if others:
                    counts["inconclusive"] += 1
                    lines.append(f"inconclusive  {name}: not compared: placement {', '.join(sorted(where))} here, "
                                 f"{others[0]['placement']} in the baseline")
                continue
            b = s.get("between") or {}
            verdict = judge(b.get("ci_lo"), b.get("value"), b.get("ci_hi"), e["bound"], e["higher_is_better"])
            counts[verdict] += 1
            measured = (f"{fmt_num(b['value'])} [{fmt_num(b.get('ci_lo'))}, {fmt_num(b.get('ci_hi'))}] {e['unit']}"
                        if b.get("value") is not None else "no value")
            side = "better than" if e["higher_is_better"] else "below"
            lines.append(f"{verdict:<12}  {name}: {measured} against the bound {fmt_num(e['bound'])} {e['unit']} "
                         f"({doc['coverage']:g} of healthy launches {side} it, confidence {doc['confidence']:g}, "
                         f"from {e['launches']}; centre {fmt_num(e['centre'])})")
    if not any(counts.values()):
        raise InputError(f"{args.folder}: no size has an entry in {args.baseline}")
    lines.append(f"fabperf: PASS {counts['pass']}, FAIL {counts['fail']}, INCONCLUSIVE {counts['inconclusive']}; "
                 "nodes to drain: none")
    rc = write_output(PROG, "\n".join(lines) + "\n", None, status=1)
    return rc, 3 if counts["fail"] else 0


# The --expect term of each quantity a baseline holds (engine/expect.c's grammar and units).
TERMS = {("MB/s", True): "bw>=", ("GB/s", True): "busbw>=", ("us", False): "lat<="}


def expect(args):
    """The --expect terms of one program's entries, one per size."""
    doc = read_baseline(args.baseline)
    chosen = [e for e in doc["entries"] if e["program"] == args.program and
              (args.label is None or e["label"] == args.label) and
              (args.placement is None or e["placement"] == args.placement)]
    if not chosen:
        known = sorted({f"{e['program']} {e['label']} ({e['placement']})" for e in doc["entries"]})
        raise InputError(f"{args.baseline}: no entry of {args.program}"
                         f"{' ' + args.label if args.label is not None else ''}"
                         f"{' (' + args.placement + ')' if args.placement is not None else ''}; "
                         f"it has: {'; '.join(known) or 'none'}")
    configs = sorted({(e["label"], e["placement"]) for e in chosen})
    if len(configs) > 1:
        raise InputError(f"{args.baseline}: {args.program} has entries of {len(configs)} configurations "
                         f"({'; '.join(f'--label {l!r} --placement {p!r}' for l, p in configs)}): name one")
    terms = []
    for e in sorted(chosen, key=lambda e: e["size"]):
        term = TERMS.get((e["unit"], e["higher_is_better"]))
        if term is None:
            raise InputError(f"{args.program} {e['size']} B: its {e['quantity']} in {e['unit']} has no --expect "
                             "term (accepted: bandwidth in MB/s, bus bandwidth in GB/s, latency in us)")
        bound = e["bound"] * (1 - args.tolerance if e["higher_is_better"] else 1 + args.tolerance)
        terms.append(f"{term}{bound:.10g}@{e['size']}")
    return write_output(PROG, ",".join(terms) + "\n", None, status=1), 0


def fraction_from(lowest):
    """An argparse type: a fraction from LOWEST to below 1."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not lowest <= value < 1.0:
            raise argparse.ArgumentTypeError(f"{text}: accepted: a fraction from {lowest:g} to below 1")
        return value
    return parse


def main(argv):
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="build|check|expect")
    b = sub.add_parser("build", help="a baseline from run folders of healthy launches")
    b.add_argument("folders", nargs="+", metavar="RUN_FOLDER")
    b.add_argument("-o", "--output", metavar="FILE", required=True, help="the baseline file to write")
    b.add_argument("--coverage", type=fraction_from(0.5), default=0.95,
                   help="the share of healthy launches the bound is below (above for latency) [0.95]")
    b.add_argument("--confidence", type=fraction_from(0.5), default=0.95, help="the bound's confidence [0.95]")
    c = sub.add_parser("check", help="a run folder judged against a baseline")
    c.add_argument("baseline", metavar="BASELINE")
    c.add_argument("folder", metavar="RUN_FOLDER")
    x = sub.add_parser("expect", help="a program's entries as --expect terms")
    x.add_argument("baseline", metavar="BASELINE")
    x.add_argument("--program", required=True, help="the program whose entries to print (fabperf_bw...)")
    x.add_argument("--label", help="the configuration, where the baseline has several")
    x.add_argument("--placement", help="the placement ('H H, 2 ranks on 2 host(s)'), where it has several")
    x.add_argument("--tolerance", type=fraction_from(0), default=0.0, help="relax each bound by this fraction [0]")
    for s in (b, c, x):
        s.error = p.error  # every usage error: one line, exit status 2
    try:
        args = p.parse_args(argv)
        if args.command is None:
            raise InputError("a command is required: build, check or expect")
        rc, status = {"build": build, "check": check, "expect": expect}[args.command](args)
    except InputError as e:
        print(f"{PROG}: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    return rc or status or 0
