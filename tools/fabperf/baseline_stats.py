"""fabperf-baseline's statistics: a one-sided tolerance bound from order statistics, and the
judgement of a measured interval against it. Pure functions, no input or output.

With n healthy launches, the k-th worst launch value lies beyond the (1 - coverage) quantile of
healthy launches (the value coverage of them are better than) with probability P(B >= k), B
binomial(n, 1 - coverage): that is the bound's confidence. No assumption on the distribution."""

import math


def tail_at_least(n, p, k):
    """P(B >= k) for B binomial(n, p)."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))


def launches_needed(coverage, confidence):
    """Fewest launches whose worst one is a bound of that coverage and confidence: 1 - c^n >= conf."""
    return math.ceil(math.log(1 - confidence) / math.log(coverage) - 1e-12)


def bound_order(n, coverage, confidence):
    """The largest k (1: the worst launch) whose k-th worst value is a bound of that coverage and
    confidence; 0 when n launches are too few."""
    k = 0
    while k < n and tail_at_least(n, 1 - coverage, k + 1) >= confidence:
        k += 1
    return k


def tolerance_bound(values, higher_is_better, coverage, confidence):
    """(bound, k) from launch values, or (None, 0) when they are too few."""
    k = bound_order(len(values), coverage, confidence)
    if k == 0:
        return None, 0
    worst_first = sorted(values, reverse=not higher_is_better)
    return worst_first[k - 1], k


def judge(lo, value, hi, bound, higher_is_better):
    """pass when the whole interval is on the good side of the bound, fail when it is wholly on
    the bad side, else inconclusive (also without an interval)."""
    if lo is None or hi is None or value is None:
        return "inconclusive"
    if higher_is_better:
        return "pass" if lo >= bound else "fail" if hi < bound else "inconclusive"
    return "pass" if hi <= bound else "fail" if lo > bound else "inconclusive"
