"""fabperf-compare: compares fabperf results of several configurations, size by size."""

import argparse
import io
import subprocess
import sys

from . import InputError, Parser, write_output
from .compare_output import render_csv, render_json, render_text
from .compare_tables import build_tables
from .plot import PlotError, make_plots
from .results import collect_files

# Every name of the comparison (its statistics above all) stays reachable as fabperf.compare.NAME
# and through the fabperf-compare command, which the tests load as a module.
from .compare_output import *  # noqa: E402,F401,F403
from .compare_stats import *  # noqa: E402,F401,F403
from .compare_tables import *  # noqa: E402,F401,F403


PROG = "fabperf-compare"

DESCRIPTION = """\
Compares fabperf results (JSON Lines, written with --format json) of two or
more configurations, each launched one or more times: per message size the
values side by side, each with its interval over launches, and the ratio of
every configuration against the baseline."""

EPILOG = """\
inputs:
  Each INPUT is a result file or a run folder; a folder contributes every
  *.json and *.jsonl file directly in it (the sbatch templates of
  scripts/slurm write <label>.<repeat>.<program>.json there).  A file must
  start with a fabperf "meta" line; rows and the "end" line follow.  A file
  whose "end" line is missing or not "complete" is used with a warning.

configurations and launches:
  Files are grouped by (configuration, program).  The configuration is the
  label recorded in the file (--label of the programs); without one, the file
  name without .json and without a trailing .<repeat>.<program>.  Files of the
  same configuration and program are launches of one measurement.  When the
  same label comes from different run folders (say, an old and a new run),
  the folder name is put in front (old/ucx, new/ucx) so that they stay apart.
  The order of configurations is the order in which they are first met on
  the command line.

  A within-launch CI (the programs' CIlo..CIhi) bounds the median of that
  launch only; launches of one configuration can differ by far more (a launch
  lands in a faster or slower mode and stays there).  So L launches are
  combined per size:
    value     the median of the launch medians
    interval  with L >= 2, over launches, by order statistics of the launch
              medians (the binomial ranks of the in-run CI); below 6 launches
              that is min..max, which covers the median of launch medians
              with exact probability 1 - 2/2^L: 50% (2), 75% (3), 87.5% (4),
              93.75% (5); from 6 launches 95% or more.  With one launch, that
              launch's own within-launch CI.
    !         the launches disagree beyond their own CIs: their within-launch
              CIs have no common point
    {a..b}    min..max of the launch medians, where it is not the interval

values compared (per program; metric from the meta line):
  latency     p50_us with p50_ci_lo_us..p50_ci_hi_us, us; lower is better
  bandwidth   bw_p50_mbps with bw_ci_lo_mbps..bw_ci_hi_mbps, MB/s; higher is
              better
  collective  oop_busbw_gbps, GB/s, higher is better, its CI carried over from
              oop_p50_ci_lo_us..oop_p50_ci_hi_us (bus bandwidth is
              proportional to 1/time); without bus bandwidth the p50 time as
              for latency
  --time compares the p50 time (us) for every metric.
  The keys are checked against the "columns" of each file's meta line: a
  value key missing there is an error, missing CI keys a warning (that file's
  values then have no CI).

ratios and marks:
  ratio = value of a configuration / value of the baseline (the first
  configuration, or --baseline).  The absolute values are always shown.
    *  faster / slower: the intervals over launches separate, and for these
       launch counts identical configurations would show that at most 5% of
       the time (false alarm: 2/252 for 5 against 5 launches, 2/70 for 4
       against 4; 2 against 2 or 3 against 3 is never enough)
    ~  cannot tell: the intervals overlap, so the observed difference is
       smaller than the detectable one (below); this is not evidence that
       the configurations perform the same
    ?  cannot tell, whatever the difference: "one launch" (a configuration
       has one launch and the within-launch CIs separate: launches of one
       configuration differ like that too, so one launch each cannot speak to
       launch-to-launch variation), "too few launches" (the intervals
       separate, but the false alarm is above 5%), or a CI is missing
  "faster" means lower time, or higher bandwidth.

sensitivity (the detectable difference):
  Per size and compared configuration, "detectable" is the smallest
  difference that * could mark with the launches given and the spread they
  show.  * needs separate intervals, so the configuration's launch medians
  are multiplied by one factor (its interval moves with its value, keeping
  its width relative to the value; the baseline stays) until the intervals
  just separate.  With baseline value b and interval [bl, bh], configuration
  value c and interval [cl, ch], they separate where the ratio c/b is
    above  hi = (bh / b) * (c / cl)     (configuration's interval above)
    below  lo = (bl / b) * (c / ch)     (configuration's interval below)
  and detectable = hi - 1 where the observed ratio is 1 or more, else 1 - lo:
  a fraction of the baseline in the direction of the observed difference
  (text: percent, signed, +135.3% or -57.5%).  The observed ratio lies in
  lo..hi exactly where the intervals overlap: there the observed difference
  is smaller than the detectable one, and the result is "cannot tell" (~).
  Example: 5 launches at 0.17, 0.17, 0.17, 0.40 and 0.40 us give the
  baseline 0.17 [0.17, 0.40]; 5 launches 15% slower with the same spread
  give 0.1955 [0.1955, 0.46], ratio 1.15, and hi = 0.40/0.17 * 0.1955/0.1955
  = 2.353: detectable +135.3%, cannot tell.
  "never" where the launch counts allow no call at any difference: one
  launch of either configuration, or a false alarm above 5% (2 against 2, 3
  against 3, 2 against 5, ...).  A line per compared configuration then says
  so and names the launches needed: the smallest L such that at least L
  launches of each bring the false alarm to 5% or less (4 for 1 against 1,
  3 for 2 against 5).  Otherwise that line gives the range of the detectable
  difference over the sizes and at how many sizes the result is "cannot
  tell".

crossovers:
  For every pair of configurations, the sizes are walked in increasing order
  keeping only the sizes where the pair differs significantly.  When the
  better configuration changes from one such size to the next, a line
  "crossover between 16K and 32K: tcp overtakes shm" is printed (sizes with
  no significant difference may lie in between).

output (--format):
  text  one table per program, then its crossovers (default)
  csv   one row per program, size and configuration; crossovers are left out
  json  one object: {"tables": [{"program", "metric", "quantity", "unit",
        "better", "baseline", "configurations": [{"name", "label", "repeats",
        "files", "coverage", "disagree_sizes"}], "rows": [{"size", "values":
        {NAME: {"value", "ci_lo", "ci_hi", "interval", "coverage", "min",
        "max", "repeats", "values", "disagree"}}, "ratios": {NAME: {"ratio",
        "significant", "mark", "verdict", "false_alarm", "detectable",
        "detectable_lo", "detectable_hi", "launches_needed"}}}],
        "crossovers": [{"a", "b", "from_size", "to_size", "before", "after",
        "text"}], "notes": [...], "sensitivity": [{"name", "baseline",
        "repeats", "baseline_repeats", "launches_needed", "sizes",
        "detectable_min", "detectable_max", "detectable_median",
        "cannot_tell_sizes", "significant_sizes", "never_sizes", "text"}]}],
        "warnings": [...]}; "repeats" is the number of launches, "verdict"
        faster, slower, cannot tell, one launch, too few launches or unknown;
        "detectable" the detectable difference as a fraction (1.353 for
        +135.3%), "never", or null without intervals; "detectable_lo" and
        "detectable_hi" the ratios lo and hi (null unless a call is
        possible); "launches_needed" L where no call is possible, else null
        (also in "configurations"); CSV carries the same fields per row

path evidence and verdicts:
  Where the results carry them (fabperf 'verdict', 'expect' and 'path' row
  keys), each value cell also holds "verdict" (pass, fail, inconclusive, the
  same in every launch, else "mixed (pass 4, fail 2)"), "verdicts" (counts),
  "expect" (the thresholds) and "path" (the NICs that carried the inter-node
  payload with their lowest share over launches, e.g. "fpveth0 100%", or "no
  inter-node payload; no NIC"), followed, where the launches recorded UCX's
  selection (meta "ucx"), by the transports UCX chose, e.g. "fpveth0 100%;
  ucx tcp/fpveth0" (also "ucx" in the JSON cell). Text adds the columns "NAME
  verdict" and "NAME path"; CSV the columns expect_verdict, expect and path.

plots (--plot DIR):
  With gnuplot (pngcairo, else png terminal): DIR/<program>.png per program,
  value against size on log-log axes, one line per configuration with its
  interval (over launches; with one launch its CI) as error bars.

exit status:
  0 success; 1 the plot could not be made; 2 bad usage or input: no input, an
  unreadable file, a file that is not a fabperf result, metrics that cannot
  be compared, fewer than two configurations, an unknown --baseline."""


# ---------------------------------------------------------------- main

def main(argv):
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT",
                   help="result file (JSON Lines) or run folder holding them; two or more configurations")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text",
                   help="output format of the comparison [default: text]")
    p.add_argument("--baseline", metavar="LABEL",
                   help="configuration the ratios are taken against [default: the first]")
    p.add_argument("--time", action="store_true",
                   help="compare the p50 time (us) whatever the metric")
    p.add_argument("--plot", metavar="DIR",
                   help="also write DIR/<program>.png per program (needs gnuplot)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the comparison to FILE")
    warnings = []
    try:
        args = p.parse_args(argv)
        if not args.inputs:
            raise InputError("no input; give two or more result files or run folders (see --help)")
        tables = build_tables(collect_files(args.inputs), args.time, args.baseline, warnings)
    except InputError as e:
        message = " ".join(str(e).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    for w in warnings:
        print(f"{PROG}: warning: {w}", file=sys.stderr)
    buf = io.StringIO()
    if args.format == "text":
        render_text(tables, buf)
    elif args.format == "csv":
        render_csv(tables, buf)
    else:
        render_json(tables, warnings, buf)
    if write_output(PROG, buf.getvalue(), args.output):
        return 2
    if args.plot:
        try:
            for png in make_plots(tables, args.plot):
                print(f"{PROG}: wrote {png}", file=sys.stderr)
        except (PlotError, OSError, subprocess.SubprocessError) as e:
            print(f"{PROG}: error: {' '.join(str(e).split())}", file=sys.stderr)
            return 1
    return 0
