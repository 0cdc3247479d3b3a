"""fabperf's Python package: what the commands fabperf-compare, fabperf-report, fabperf-rails and
fabperf-heatmap share, and the tests' way to read results.

results  the one reader of fabperf's JSON Lines (meta, row, end and other records), a run file or
         a run folder
units    sizes (4K, 1M, 1:1M) and bit rates (100G), as the programs' options accept them
expect   the --expect grammar
plot     gnuplot and SVG plots of values over message sizes
heatmap  all-pairs matrices: text table, gnuplot PNG, SVG or embedded PNG

Standard library only: the commands run on login nodes with a plain python3."""

import argparse
import sys


class InputError(Exception):
    """A problem with the command line or the inputs: exit status 2."""


class Parser(argparse.ArgumentParser):
    """The commands' option parser: a usage error is an InputError (one line, exit status 2)."""

    def error(self, message):
        raise InputError(message)


def run_command(main):
    """Exits with main's status for the command line; 1 on a broken pipe, 130 on an interrupt."""
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


def write_output(prog, text, path, status=2):
    """text to the file path, or to standard output without one: 0, or status after one error line."""
    if not path:
        sys.stdout.write(text)
        return 0
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        print(f"{prog}: error: cannot write {path}: {e.strerror}", file=sys.stderr)
        return status
    return 0
