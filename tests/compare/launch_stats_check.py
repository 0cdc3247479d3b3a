"""Checks fabperf-compare's statistics over launches against first principles: exact coverage of
the order-statistic interval, the in-run CI's ranks, and the significance rule's false-alarm rate
by enumeration of every arrangement and by simulation from a two-mode distribution.
Usage: launch_stats_check.py PATH-TO-fabperf-compare; exit 0 when every check holds."""

import importlib
import itertools
import math
import os
import random
import sys


def load(path):
    """The fabperf package's comparison, from beside the fabperf-compare command at path."""
    sys.path.insert(0, os.path.dirname(os.path.realpath(path)))
    return importlib.import_module("fabperf.compare")


def separated_share(m, n, fc):
    """Share of the C(m+n, m) equally likely arrangements of two samples of one distribution in
    which fabperf-compare's intervals over launches separate."""
    hits = total = 0
    for a_positions in itertools.combinations(range(m + n), m):
        a = [float(p) for p in a_positions]
        b = [float(p) for p in range(m + n) if p not in a_positions]
        ca = fc.between_launches([(x, None, None) for x in a])
        cb = fc.between_launches([(x, None, None) for x in b])
        hits += ca["ci_hi"] < cb["ci_lo"] or cb["ci_hi"] < ca["ci_lo"]
        total += 1
    return hits / total


def two_mode_launch(rng):
    """A launch median as on a VM that puts a launch at ~0.17 or ~0.40 us."""
    return (0.17 if rng.random() < 0.6 else 0.40) * rng.uniform(0.97, 1.03)


def main():
    fc = load(sys.argv[1])
    failures = []

    def expect(what, ok):
        if not ok:
            failures.append(what)

    expect("5 launches: [min, max] covers 1 - 2/32", fc.rank_coverage(5, 1) == 1 - 2 / 32)
    expect("2, 3, 4 launches: [min, max] covers 50%, 75%, 87.5%",
           [fc.rank_coverage(n, 1) for n in (2, 3, 4)] == [0.5, 0.75, 0.875])
    expect("from 6 launches the interval covers 95% or more",
           all(fc.rank_coverage(n, fc.median_ci_ranks(n)[0]) >= 0.95 for n in range(6, 60)))
    expect("fewer than 6 values: no 95% ranks", fc.median_ci_ranks(5) is None)
    expect("6 values: ranks 1..6 (96.9%)", fc.median_ci_ranks(6) == (1, 6))
    expect("9 values: ranks 2..8 (96.1%)", fc.median_ci_ranks(9) == (2, 8)
           and abs(fc.rank_coverage(9, 2) - (1 - 2 * 10 / 512)) < 1e-12)
    # The in-run CI's ranks (engine/stats.c) for n = 100: 40..61.
    expect("100 values: ranks 40..61 as the programs", fc.median_ci_ranks(100) == (40, 61))
    cell = fc.between_launches([(1.0, 0.9, 1.1), (3.0, 2.9, 3.1), (2.0, 1.9, 2.1)])
    expect("median, min..max, disagreement", (cell["value"], cell["ci_lo"], cell["ci_hi"], cell["disagree"])
           == (2.0, 1.0, 3.0, True))
    for m, n in ((2, 2), (3, 3), (3, 5), (4, 4), (5, 5), (6, 6), (4, 9)):
        exact = separated_share(m, n, fc)
        formula = fc.separation_false_alarm(m, n)
        expect(f"false alarm {m} vs {n}: formula {formula} = enumeration {exact}", abs(exact - formula) < 1e-12)
    rng = random.Random(10)
    trials, alarms = 20000, 0
    for _ in range(trials):
        a = fc.between_launches([(two_mode_launch(rng), None, None) for _ in range(5)])
        b = fc.between_launches([(two_mode_launch(rng), None, None) for _ in range(5)])
        alarms += fc.compare_cells(a, b, "lower")["significant"] is True
    expect(f"two-mode launches, 5 vs 5: false-alarm rate {alarms / trials} below 1.5%", alarms / trials < 0.015)
    for f in failures:
        print(f"  failed: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
