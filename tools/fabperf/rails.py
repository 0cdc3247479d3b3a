"""fabperf-rails: one table rail x node pair of a run folder, naming the rail or node that is slow."""

import argparse
import io
import os
import sys

from . import InputError, Parser, expect, units, write_output
from .rails_cross import build_cross_tables, cross_rails, failed_launches
from .rails_judge import add_line_rates, apply_expect, check_paths, classify, judge_against_best
from .rails_output import render
from .rails_sweep import build_sweep_table
from .rails_table import build_table, read_runs


PROG = "fabperf-rails"

DESCRIPTION = """\
Summarises fabperf results measured once per rail (NIC) and per pair of nodes,
as scripts/slurm/rails.sbatch writes them: per program, one table rail x node
with the median and its interval over launches at one size, then the rails,
nodes and links that are slow, and the cells that fail --expect."""

EPILOG = """\
inputs:
  Each INPUT is a result file or a run folder (every *.json and *.jsonl file
  directly in it; fabperf_preflight's records are skipped), read by
  fabperf-compare's reader.  A file's rail is its label up to its last '@'
  (rails.sbatch labels runs RAIL@NODE-NODE); a label without '@' names the
  rail by the selection variable in the file's env (UCX_NET_DEVICES,
  NCCL_IB_HCA, NCCL_SOCKET_IFNAME, FI_VERBS_DEVICE_NAME, FI_TCP_IFACE,
  OMPI_MCA_btl_tcp_if_include, MV2_IBA_HCA, the first one set).  Its node
  pair is the hosts of its ranks in rank order (meta placement).  Files of
  one program, rail and pair are launches of one cell.  A program whose files
  have no size rows (a sweep that writes cells of its own) is left out with
  a warning.

cells:
  value     the median of the launch medians at the size
  interval  over launches, as fabperf-compare computes it (min..max below 6
            launches); with one launch that launch's own 95% CI
  xL        the number of launches
  size      --size; without it the largest size every cell measured
            (bandwidth, bus bandwidth), or the smallest (latency)

slow (decided as fabperf-compare decides "* slower", never by a fixed
tolerance: the two intervals over launches separate, and would for
identical cells at most 5% of the time; 4 or more launches per cell):
  rail  slower than the best rail at every node pair it was measured at
  node  its pair with the reference node is slower than the best pair on
        every rail (the reference node is the one in every pair: the first
        node in rails.sbatch)
  link  one cell slower than the best rail at its pair, or than the best
        pair on its rail, that neither a slow rail nor a slow node explains
  Separate intervals with too few launches to call are listed as notes.

sweeps (fabperf_allpairs, fabperf_allpairs_lat: FABPERF_RAIL_SWEEP of
rails.sbatch): besides the table of their summary rows, one table node x
rail at the size (--size, else the largest matrix size of every rail's
sweep, the smallest for latency): the node's median as sender and as
receiver (of its row and column of the matrix; the median over launches).
Its findings are the sweeps' own, per rail: the slow nodes and links they
named (decided by their statistics, re-measured alone; a suspect cleared
alone is a note, one left undecided a finding) and the cells that failed their
--expect. A sweep whose judge could not decide at the size, or left a suspect
undecided, is a note with the judge's reason.
  A cell whose path evidence (the programs' NIC byte counters) shows the
  payload on NICs other than its rail gets a note too.

cross-rail (rails.sbatch with FABPERF_RAIL_CROSS=1: labels RAIL->RAIL@A-B,
every rail of node A against every rail of node B): per program and pair
one table NIC x NIC at the size, row the rail of A, column the rail of B,
the same-rail cells taken from the table above. A cell is the median and
interval over the launches that completed; where every launch failed, the
launch logs named in the folder's launches.tsv decide: "no path" when a log
says the peer could not be reached (no route to host, network or destination
unreachable, ranks unable to reach each other, a failed TCP connect to the
peer, connection timed out), else "not decided" (a note with the exit status
and the last log line; counted as inconclusive). A cell whose launches
completed but whose path evidence shows the payload not on the first node's
rail and the other node's rail is "off-rail" (a stack that did not bind to
the selected NIC; not decided, counted as inconclusive). Under the table: which rails
each rail reaches, and the fabric between the two nodes (every rail reaches
every other; rail-only: none reaches another; partly, naming the rails that
reach only themselves). A rail that does not reach itself is a finding;
with --cross-rail required so is every pair of rails without a path.
--expect judges the same-rail cells.

--expect TERMS (comma separated, judged on each cell's interval at the
size): bw>=N (MB/s) for bandwidth, busbw>=N (GB/s) for collectives,
lat<=N (us) for latency, PCT%line (bandwidth >= PCT % of the line rate:
--line-rate, else the line rate the rows recorded).  A cell passes when
its whole interval is on the good side, fails when it is wholly on the
bad side, and is inconclusive otherwise.

output:
  text  per program: the table (columns named by node, beside the reference
        node), then one line per finding and note (default)
  json  {"tables": [{"program", "metric", "quantity", "unit", "better",
        "size", "reference_node", "rails": [{"name", "selection", "files"}],
        "pairs": [{"name", "nodes", "node"}], "cells": [{"rail", "pair",
        "value", "ci_lo", "ci_hi", "interval", "coverage", "repeats",
        "values", "vs_best_rail", "vs_best_pair", "expect", "path",
        "path_mismatch", "program_verdict", "slow"}], "findings": [{"kind", "rail", "node",
        "pair", "text"}], "notes": [...]}, a sweep's {"program", "kind":
        "sweep", "metric", "quantity", "unit", "better", "size", "rails",
        "nodes", "cells": [{"rail", "node", "send", "receive", "launches"}],
        "findings": [{"kind", "rail", "node", "pair", "text", "status", ...}], "notes",
        "undecided" (sweeps not judged to the end at the size)}, a cross-rail table's
        {"program", "kind": "cross", "metric", "quantity", "unit", "better",
        "size", "pair", "nodes", "rails", "cells": [{"local", "remote",
        "status" (path, no-path, undecided, off-rail, not measured), "value", "ci_lo",
        "ci_hi", "repeats", "failed", "reason"}], "reach": {rail: [rails]},
        "fabric", "findings": [{"kind": "no_path", "rail", "remote_rail",
        "pair", "text"}], "notes", "undecided"}],
        "findings": N, "warnings": [...]}

exit status:
  0 nothing slow and no --expect failed; 3 a rail, node or link is slow, a
  cell fails --expect, a sweep named a slow node or link or failed its
  --expect, a rail does not reach itself, or (--cross-rail required) a pair
  of rails has no path; 4 none of those, but a cell's --expect is
  inconclusive, a sweep could not be judged at the size, or a cross-rail
  cell was not decided (--inconclusive fail: 3, pass: 0;
  either way one line on standard error says so); 2 bad usage or input (no
  result, no size rows, a size no cell measured, a bad --expect or
  --line-rate)."""


# ================================================================ options

def parse_size(text):
    try:
        size = units.parse_size(text.strip())
    except ValueError:
        size = 0
    if size <= 0:
        raise InputError(f"--size: '{text}' is not a size (accepted: a positive number of bytes "
                         f"with K, M or G, powers of 1024, e.g. 1M)")
    return size


def parse_line_rate(text):
    try:
        return units.parse_bitrate(text.strip())
    except ValueError:
        raise InputError(f"--line-rate: '{text}' is not a rate (accepted: bits/s > 0 with K, M, G "
                         f"or T, powers of 1000, e.g. 100G)") from None


def parse_expect(text):
    """[{"text", "kind" (bw, busbw, lat, line), "value"}] from 'bw>=100,lat<=2,90%line': the
    programs' grammar without @SIZES and uniform, since the summary judges the one size of --size."""
    terms = []
    for part in text.split(","):
        try:
            term = expect.parse_term(part.strip())
        except ValueError:
            term = None
        if term is None or term["sizes"] is not None or term["kind"] in ("uniform", "wire"):
            raise InputError(f"--expect: '{part.strip()}' is not a threshold (accepted: bw>=N, "
                             f"busbw>=N, lat<=N or PCT%line, comma separated, without @SIZES: "
                             f"the summary judges the one size of --size)")
        terms.append({"text": term["text"], "kind": term["kind"], "value": term["value"]})
    return terms


# ================================================================ main

def summarise(args, warnings):
    size = parse_size(args.size) if args.size else None
    terms = parse_expect(args.expect) if args.expect else []
    line_rate = parse_line_rate(args.line_rate) if args.line_rate else None
    programs = read_runs(args.inputs, warnings)
    failures = failed_launches([i for i in args.inputs if os.path.isdir(i)])
    tables = []
    for program, info in programs.items():
        has_sweep = any(r["sweep"]["matrix"] for r in info["runs"])
        if not any(r["rows"] for r in info["runs"]):
            if not has_sweep:
                warnings.append(f"{program}: its files have no size rows and no matrix; not summarised")
            else:
                tables.append(build_sweep_table(program, info, size, warnings))
            continue
        # the cross-rail launches (RAIL->RAIL labels) have tables of their own
        plain = dict(info, runs=[r for r in info["runs"] if not cross_rails(r["rail"])])
        t = None
        if any(r["rows"] for r in plain["runs"]):
            t = build_table(program, plain, size, warnings)
            add_line_rates(t, plain["runs"])
            judge_against_best(t, "pair", "rail", "vs_best_rail")
            judge_against_best(t, "rail", "pair", "vs_best_pair")
            classify(t)
            apply_expect(t, terms, line_rate)
            check_paths(t)
            tables.append(t)
        tables.extend(build_cross_tables(program, info, t, size, failures, args.cross_rail == "required",
                                         warnings))
        if has_sweep:
            tables.append(build_sweep_table(program, info, size, warnings))
    if not tables:
        raise InputError(f"no size rows or matrix to summarise in {', '.join(programs)}")
    return tables


def main(argv):
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="run folder or result file (JSON Lines)")
    p.add_argument("--size", metavar="SIZE", help="message size of the table, e.g. 1M [see cells below]")
    p.add_argument("--expect", metavar="TERMS", help="thresholds judged on each cell (see below)")
    p.add_argument("--line-rate", metavar="BITS", help="line rate for PCT%%line, bits/s (100G, 25G)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format [text]")
    p.add_argument("-o", "--output", metavar="FILE", help="write the summary to FILE")
    p.add_argument("--cross-rail", choices=("any", "required"), default="any",
                   help="cross-rail tables: required makes a pair of different rails without a path "
                        "a finding (exit 3); any reports which rails reach which [any]")
    p.add_argument("--inconclusive", choices=("status", "fail", "pass"), default="status",
                   help="exit status when nothing failed but a verdict is inconclusive: status 4, "
                        "fail 3, pass 0 [status]")
    warnings = []
    try:
        args = p.parse_args(argv)
        if not args.inputs:
            raise InputError("no input; give a run folder or result files (see --help)")
        tables = summarise(args, warnings)
    except InputError as e:
        print(f"{PROG}: error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    for w in warnings:
        print(f"{PROG}: warning: {w}", file=sys.stderr)
    buf = io.StringIO()
    render(tables, warnings, args.format, buf)
    if write_output(PROG, buf.getvalue(), args.output):
        return 2
    if any(t["findings"] for t in tables):
        return 3
    undecided = inconclusive_count(tables)
    if not undecided:
        return 0
    code = {"status": 4, "fail": 3, "pass": 0}[args.inconclusive]
    print(f"{PROG}: inconclusive: {undecided} could not be decided (exit {code}, --inconclusive "
          f"{args.inconclusive})", file=sys.stderr)
    return code


def inconclusive_count(tables):
    """What no verdict could be given for, as words: cells whose --expect is inconclusive,
    sweeps not judged at the size, cross-rail cells whose launches failed for another reason than
    a missing path; "" when none."""
    cells = sum(1 for t in tables for c in t["cells"] if (c.get("expect") or {}).get("verdict") == "inconclusive")
    sweeps = sum(t.get("undecided") or 0 for t in tables if t.get("kind") == "sweep")
    cross = sum(t.get("undecided") or 0 for t in tables if t.get("kind") == "cross")
    parts = ([f"{cells} cell(s)' --expect"] if cells else []) + ([f"{sweeps} sweep(s)"] if sweeps else []) + \
        ([f"{cross} cross-rail cell(s)"] if cross else [])
    return " and ".join(parts)
