"""fabperf-heatmap: draws the pair matrices of fabperf_allpairs as heatmaps (PNG, gnuplot)."""

import argparse
import subprocess
import sys

from . import InputError
from .heatmap import draw, read_matrices, render_table
from .plot import PlotError

PROG = "fabperf-heatmap"

DESCRIPTION = """\
Reads the "matrix" records of a fabperf_allpairs or fabperf_allpairs_lat result (JSON Lines, written
with --format json) and draws each as a heatmap: senders as rows (top to
bottom in rank order), receivers as columns, one colour per cell's median;
cells not measured (the diagonal, the shifts a sampled sweep left out) stay
white.  With --table, prints the matrices as text instead."""

EPILOG = """\
output:
  DIR/<quantity>-<size>.png per matrix (e.g. bandwidth-1048576.png); the
  paths written are printed one a line.  Needs gnuplot (pngcairo, else png).

exit status: 0 ok, 1 gnuplot failed, 2 bad usage or input."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"{PROG}: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv):
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", metavar="INPUT", help="fabperf_allpairs result (JSON Lines)")
    p.add_argument("-o", "--output", metavar="DIR", default=".",
                   help="folder for the PNG files (default: the current folder)")
    p.add_argument("--size", type=int, metavar="BYTES", help="only the matrices of this size")
    p.add_argument("--quantity", choices=("bandwidth", "latency"), help="only this quantity")
    p.add_argument("--table", action="store_true", help="print the matrices as text, draw nothing")
    a = p.parse_args(argv)
    try:
        matrices = [m for m in read_matrices(a.input)
                    if (a.size is None or m["size"] == a.size)
                    and (a.quantity is None or m["quantity"] == a.quantity)]
        if not matrices:
            raise InputError(f"{a.input}: no matrix of the --size/--quantity asked for")
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    if a.table:
        for m in matrices:
            render_table(m, sys.stdout)
        return 0
    try:
        for png in draw(matrices, a.output):
            print(png)
    except (PlotError, OSError, subprocess.SubprocessError) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    return 0
