"""fabperf-report: one self-contained HTML page for a whole fabperf run folder."""

import argparse
import os
import sys

from . import InputError, Parser, write_output
from .report_drain import drain_text, slurm_drain_text, summary_line, summary_status
from .report_junit import junit
from .report_page import page
from .report_prometheus import prometheus
from .report_read import read_folder


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

cross-rail (rails.sbatch with FABPERF_RAIL_CROSS=1): one table NIC x NIC per
program and pair of nodes, as fabperf-rails draws it: a value where a launch
completed, "no path" where the failed launches' logs say the peer could not
be reached, "not decided" where they failed otherwise, "off-rail" where the
path evidence shows the bytes on other NICs; what each rail reaches
and the fabric under it. The failed launches of a cross-rail configuration are
its cells, not errors: in JUnit (and --summary) a path, or no path between two
different rails, passes; a rail that does not reach itself fails; a cell not
decided or off-rail is skipped (INCONCLUSIVE).

values: per size the median of the launch medians and its interval over launches,
computed by fabperf-compare (min..max below 6 launches, with its coverage; one
launch: its own within-launch CI).

launches: ok (an end line "complete"), cut short (rows, but no end line, an end
status other than complete, or a cut last line: its rows are used), failed (no
file, an empty or unparsable file, or no rows). None is left out.

--drain FILE: the nodes whose preflight failed or that a standing all-pairs
finding names as a slow node, one per line (NODE<TAB>reason); a standing slow
link names two nodes and is listed as a comment, not drained. --slurm-drain
prints "scontrol update nodename=NODE state=drain reason=..." for each; it
never runs them.

--summary: one last line on standard error, "fabperf: PASS n, FAIL n,
INCONCLUSIVE n; nodes to drain: NODE..." (the JUnit cases: FAIL counts
failures and launches not ok, INCONCLUSIVE the skipped ones), and exit
status 3 when FAIL > 0 or a node is to be drained.

--prometheus FILE: the same judgements in Prometheus' text format, for
node_exporter's textfile collector (gauges, no timestamps): per size the median
over launches and its interval (fabperf_size_value), the verdict as 0 pass,
1 fail, 2 inconclusive (fabperf_size_verdict), launches per state, each
all-pairs node's median cell as sender and receiver, findings per status,
preflight findings per node and level, fabperf_drain per node to drain and
fabperf_results (--summary's counts). Write it to a temporary name in the
collector's folder and rename it, as node_exporter asks.

With --junit, --drain, --prometheus, --slurm-drain or --summary the page is
written only with -o.

--junit FILE: one test case per size that has a verdict (fail and mixed: failure with the
value, its interval and the threshold; inconclusive, cannot judge, undecided: skipped;
never a pass), per launch not ok (error), per all-pairs finding (stands: failure; cleared:
pass; undecided: skipped) and per preflight finding and node (a failing finding fails its
node); one suite per configuration, sweep file and preflight file.

exit status:
  0 the page (and what else was asked for) was written; 1 it could not be written;
  2 bad usage, or a folder that cannot be read or holds nothing fabperf wrote;
  3 with --summary: something failed or a node is to be drained."""


def compare_tool_error():
    """FABPERF_COMPARE, where set, names the fabperf-compare whose words the page repeats (the
    package beside it computes them); None when it is there, else the error line."""
    path = os.environ.get("FABPERF_COMPARE")
    if not path or os.path.isfile(path):
        return None
    return f"cannot load fabperf-compare from {path}: No such file or directory"


def main(argv):
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", metavar="RUN_FOLDER", help="the run folder")
    p.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE [default: standard output]")
    p.add_argument("--title", metavar="TEXT", help="page title [default: fabperf run RUN_FOLDER's name]")
    p.add_argument("--junit", metavar="FILE",
                   help="write the run's verdicts, launches, all-pairs findings and preflight "
                        "findings as JUnit XML to FILE ('-': standard output)")
    p.add_argument("--drain", metavar="FILE",
                   help="write the nodes to drain, one per line with its reason, to FILE ('-': "
                        "standard output)")
    p.add_argument("--prometheus", metavar="FILE",
                   help="write the run's figures, verdicts, findings and nodes to drain in "
                        "Prometheus' text format to FILE ('-': standard output), for node_exporter's "
                        "textfile collector")
    p.add_argument("--slurm-drain", action="store_true",
                   help="print the scontrol lines that would drain those nodes (never run)")
    p.add_argument("--summary", action="store_true",
                   help="end with one line on standard error (fabperf: PASS n, FAIL n, INCONCLUSIVE "
                        "n; nodes to drain: ...) and exit 3 when anything failed or a node is to be "
                        "drained, else 0")
    try:
        if compare_tool_error():
            raise InputError(compare_tool_error())
        args = p.parse_args(argv)
        run = read_folder(args.folder)
    except InputError as e:
        print(f"{PROG}: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    title = args.title or f"fabperf run {os.path.basename(os.path.normpath(args.folder))}"
    xml, counts = junit(run, title)
    rc = 0
    if args.junit:
        rc = rc or write_output(PROG, xml, None if args.junit == "-" else args.junit, status=1)
    if args.drain:
        rc = rc or write_output(PROG, drain_text(run), None if args.drain == "-" else args.drain, status=1)
    if args.prometheus:
        rc = rc or write_output(PROG, prometheus(run, counts), None if args.prometheus == "-" else args.prometheus,
                                status=1)
    if args.slurm_drain:
        sys.stdout.write(slurm_drain_text(run))
    # The page goes to -o, or to standard output when nothing else was asked for.
    if args.output or not (args.junit or args.drain or args.prometheus or args.slurm_drain or args.summary):
        rc = rc or write_output(PROG, page(run, title), args.output, status=1)
    if rc or not args.summary:
        return rc
    print(summary_line(counts, run), file=sys.stderr)
    return summary_status(counts, run)
