"""fabperf-compare's statistics over launches: the interval of the median of launch medians and its
coverage, the significance rule and its false-alarm rate, the smallest detectable difference,
the launches needed and the sizes where configurations cross over."""

import math
import statistics

from .units import fmt_size


# ---------------------------------------------------------------- statistics over launches

# Two configurations count as different only when this rule would mark identical ones so at
# most this often (see separation_false_alarm).
FALSE_ALARM_LIMIT = 0.05


def median_ci_ranks(n, alpha=0.05):
    """1-based ranks (l, u) of the distribution-free CI of a median from n values, as the
    programs compute it within a launch: the largest l with P(B <= l - 1) <= alpha/2 for
    B ~ Binomial(n, 1/2), u = n + 1 - l. None when no such l exists (n < 6 for 95%)."""
    l, cdf = 0, 0.0
    for k in range(n):
        cdf += math.comb(n, k) / 2.0 ** n
        if cdf > alpha / 2:
            break
        l = k + 1
    return (l, n + 1 - l) if l >= 1 else None


def rank_coverage(n, l):
    """Exact probability that [x_(l), x_(n+1-l)] of n independent values covers their median."""
    return 1.0 - 2.0 * sum(math.comb(n, k) for k in range(l)) / 2.0 ** n


def between_launches(launches):
    """Combines one size of L launches of one configuration.

    launches: [(value, ci_lo, ci_hi)], one per launch: the launch's median and its within-launch
    CI (None where not recorded). Returns None when no launch has a value, else a dict:
      value        median of the launch medians
      ci_lo, ci_hi the interval: with L >= 2 over launches, by order statistics of the launch
                   medians (ranks as the in-run CI; below 6 launches min..max); with L = 1 the
                   launch's own within-launch CI
      interval     "between launches" or "within launch"
      coverage     exact coverage of a between-launch interval (0.9375 for 5 launches), or 0.95
                   (nominal) for a within-launch CI
      min, max     range of the launch medians; values: the launch medians as given
      repeats      L (launches with a value)
      disagree     True when the launches' within-launch CIs have no common point (they disagree
                   beyond their own CIs); None with one launch or a CI missing
    """
    kept = [x for x in launches if x[0] is not None]
    if not kept:
        return None
    values = [v for v, _, _ in kept]
    cell = {"value": statistics.median(values), "min": min(values), "max": max(values),
            "repeats": len(values), "values": values, "disagree": None}
    have_ci = all(lo is not None and hi is not None for _, lo, hi in kept)
    if len(values) == 1:
        _, lo, hi = kept[0]
        cell.update(ci_lo=lo if have_ci else None, ci_hi=hi if have_ci else None,
                    interval="within launch", coverage=0.95 if have_ci else None)
        return cell
    ordered = sorted(values)
    ranks = median_ci_ranks(len(values)) or (1, len(values))
    cell.update(ci_lo=ordered[ranks[0] - 1], ci_hi=ordered[ranks[1] - 1], interval="between launches",
                coverage=rank_coverage(len(values), ranks[0]))
    if have_ci:
        cell["disagree"] = max(lo for _, lo, _ in kept) > min(hi for _, _, hi in kept)
    return cell


combine = between_launches  # the name of earlier versions


def below_probability(m, i, n, j):
    """For m + n exchangeable values split into samples a (m) and b (n): P(a_(i) > b_(j)), i.e. at
    least j of b lie below the i-th smallest of a (negative hypergeometric tail)."""
    total = math.comb(m + n, n)
    return sum(math.comb(i - 1 + x, x) * math.comb(m - i + n - x, n - x) for x in range(j, n + 1)) / total


def separation_false_alarm(m, n):
    """Probability that the between-launch intervals of m and n launches separate when every
    launch comes from one distribution: the false-alarm rate of the significance rule (2/252 for
    5 against 5 launches, 1/3 for 2 against 2)."""
    lm = median_ci_ranks(m) or (1, m)
    ln = median_ci_ranks(n) or (1, n)
    return below_probability(m, lm[0], n, ln[1]) + below_probability(n, ln[0], m, lm[1])


def can_call(m, n):
    """Whether the rule can mark any difference between m and n launches: both have two or more
    and the false alarm for these counts is within FALSE_ALARM_LIMIT."""
    return m >= 2 and n >= 2 and separation_false_alarm(m, n) <= FALSE_ALARM_LIMIT


def launches_needed(m, n):
    """The smallest L such that at least L launches of each (max(m, L) against max(n, L)) let the
    rule mark a difference; 4 for 1 against 1 (false alarm 2/70)."""
    count = 2
    while not can_call(max(m, count), max(n, count)):
        count += 1
    return count


def detectable_bounds(cell, base):
    """(lo, hi): the ratios cell/base at which the two intervals, each scaled with its value (the
    launch medians of a configuration multiplied by one factor, their spread moving with them),
    just separate: below lo the cell's interval lies under the baseline's, above hi over it. The
    observed ratio lies in lo..hi exactly when the observed intervals overlap. None where a value
    or an interval bound is missing or not positive."""
    values = (cell["value"], cell["ci_lo"], cell["ci_hi"], base["value"], base["ci_lo"], base["ci_hi"])
    if any(x is None or x <= 0 for x in values):
        return None
    lo = (base["ci_lo"] / base["value"]) * (cell["value"] / cell["ci_hi"])
    hi = (base["ci_hi"] / base["value"]) * (cell["value"] / cell["ci_lo"])
    return lo, hi


def compare_cells(cell, base, better):
    """Mark and verdict of cell against base: ratio, significant (True, False or None: cannot
    tell), mark (* ~ ?), verdict (faster, slower, cannot tell, one launch, too few launches,
    unknown), false_alarm (the rule's false-alarm rate for these launch counts, None with one
    launch), the sensitivity: detectable (the smallest difference * could mark, as a fraction, in
    the direction of the observed ratio; "never" when these launch counts allow no call; None
    without intervals), detectable_lo, detectable_hi (detectable_bounds; None unless a call is
    possible) and launches_needed (launches_needed where no call is possible, else None)."""
    if cell is None or base is None:
        return None
    ratio = cell["value"] / base["value"] if base["value"] else None
    result = {"ratio": ratio, "significant": None, "mark": "?", "verdict": "unknown", "false_alarm": None,
              "detectable": None, "detectable_lo": None, "detectable_hi": None, "launches_needed": None}
    if None in (cell["ci_lo"], cell["ci_hi"], base["ci_lo"], base["ci_hi"]):
        return result
    if not can_call(cell["repeats"], base["repeats"]):
        result.update(detectable="never", launches_needed=launches_needed(cell["repeats"], base["repeats"]))
    else:
        bounds = detectable_bounds(cell, base)
        if bounds is not None and ratio is not None:
            result.update(detectable_lo=bounds[0], detectable_hi=bounds[1],
                          detectable=bounds[1] - 1 if ratio >= 1 else 1 - bounds[0])
    if cell["ci_hi"] < base["ci_lo"]:
        verdict = "faster" if better == "lower" else "slower"
    elif cell["ci_lo"] > base["ci_hi"]:
        verdict = "slower" if better == "lower" else "faster"
    else:
        # Overlap: the observed difference is below the detectable one. Even with one launch,
        # launch-to-launch variation could only widen the intervals.
        result.update(significant=False, mark="~", verdict="cannot tell")
        if cell["repeats"] > 1 and base["repeats"] > 1:
            result["false_alarm"] = separation_false_alarm(cell["repeats"], base["repeats"])
        return result
    if cell["repeats"] < 2 or base["repeats"] < 2:
        # Separate within-launch CIs: the launches differ, which one launch each cannot pin
        # on the configuration (launches of one configuration differ like this too).
        result["verdict"] = "one launch"
        return result
    result["false_alarm"] = separation_false_alarm(cell["repeats"], base["repeats"])
    if result["false_alarm"] > FALSE_ALARM_LIMIT:
        result["verdict"] = "too few launches"
        return result
    result.update(significant=True, mark="*", verdict=verdict)
    return result


def crossovers(names, cells_by_size, sizes, better):
    found = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            last = None  # (size, winner)
            for size in sizes:
                ca, cb = cells_by_size[size].get(a), cells_by_size[size].get(b)
                cmp = compare_cells(ca, cb, better)
                if not cmp or not cmp["significant"]:
                    continue
                winner = a if cmp["verdict"] == "faster" else b
                if last and last[1] != winner:
                    loser = b if winner == a else a
                    found.append({
                        "a": a, "b": b, "from_size": last[0], "to_size": size,
                        "before": last[1], "after": winner,
                        "text": f"crossover between {fmt_size(last[0])} and {fmt_size(size)}: "
                                f"{winner} overtakes {loser}",
                    })
                last = (size, winner)
    return found
