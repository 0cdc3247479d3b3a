"""fabperf-compare: compares fabperf results of several configurations, size by size."""

import argparse
import csv
import io
import json
import math
import statistics
import subprocess
import sys

from . import InputError, Parser, write_output
from .plot import PlotError, make_plots
from .results import collect_files, file_label, num, read_result, short_source
from .units import fmt_num, fmt_size

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


# ---------------------------------------------------------------- values

class Quantity:
    """What is compared: a value column and its CI columns (or, with derive, a time CI to carry
    over to a rate, since a rate is proportional to 1/time)."""

    def __init__(self, key, lo, hi, unit, better, title, derive=None):
        self.key, self.lo, self.hi = key, lo, hi
        self.unit, self.better, self.title = unit, better, title
        self.derive = derive  # (p50, ci_lo, ci_hi) time keys the CI is carried over from

    def ci_keys(self):
        return list(self.derive) if self.derive else [self.lo, self.hi]

    def extract(self, row):
        """(value, ci_lo, ci_hi); None where not recorded."""
        value = num(row.get(self.key))
        if value is None:
            return None, None, None
        if self.derive:
            lo = hi = None
            p50, tlo, thi = (num(row.get(k)) for k in self.derive)
            if p50 and tlo and thi and p50 > 0 and tlo > 0 and thi > 0:
                lo, hi = value * p50 / thi, value * p50 / tlo
        else:
            lo, hi = num(row.get(self.lo)), num(row.get(self.hi))
        if lo is not None and hi is not None and lo > hi:
            lo, hi = hi, lo
        return value, lo, hi


TIME = Quantity("p50_us", "p50_ci_lo_us", "p50_ci_hi_us", "us", "lower", "p50 time")
LATENCY = Quantity("p50_us", "p50_ci_lo_us", "p50_ci_hi_us", "us", "lower", "p50 latency")
BANDWIDTH = Quantity("bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps", "MB/s", "higher", "bandwidth (p50)")
# The programs record no bus-bandwidth CI: it is carried over from the out-of-place time's CI.
BUSBW = Quantity("oop_busbw_gbps", None, None, "GB/s", "higher", "bus bandwidth (out of place)",
                 derive=("oop_p50_us", "oop_p50_ci_lo_us", "oop_p50_ci_hi_us"))


def choose_quantity(metric, rows, force_time, columns=None):
    """columns: the keys every file's meta line declares (None: not declared, rows decide)."""
    if force_time:
        return TIME
    if metric == "latency":
        return LATENCY
    if metric == "bandwidth":
        return BANDWIDTH
    if metric == "collective":
        if columns is not None:
            return BUSBW if "oop_busbw_gbps" in columns else TIME
        if any(num(r.get("oop_busbw_gbps")) is not None for r in rows):
            return BUSBW
    return TIME


def check_columns(path, meta, quantity, warnings):
    """Checks the keys quantity reads against the meta line's columns: a missing value key is an
    error, missing CI keys a warning. Returns whether the CI keys may be read."""
    columns = meta.get("columns")
    if not isinstance(columns, list):
        warnings.append(f"{path}: the meta line has no columns list; keys not checked")
        return True
    if quantity.key not in columns:
        raise InputError(f"{path}: column {quantity.key} ({quantity.title}) is not among the "
                         f"columns of its meta line; cannot compare it")
    missing = [k for k in quantity.ci_keys() if k not in columns]
    if missing:
        warnings.append(f"{path}: column(s) {', '.join(missing)} not among the columns of its meta "
                        f"line; its {quantity.key} values have no CI")
    return not missing


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


# ---------------------------------------------------------------- building

def read_groups(files, warnings):
    """Reads every file and groups them by (program, configuration name).

    Returns (groups, metrics, order): groups[(program, name)] = {"files": [path], "rows":
    [[row] per launch], "metas": [meta per launch], "label": label}; metrics[program] = metric;
    order = configuration names in order of first appearance."""
    groups, metrics, order, label_sources, parsed = {}, {}, [], {}, []
    for path, source in files:
        meta, rows = read_result(path, warnings)
        label = file_label(meta, path)
        parsed.append((path, source, meta, rows, label))
        label_sources.setdefault(label, [])
        if source not in label_sources[label]:
            label_sources[label].append(source)
    for path, source, meta, rows, label in parsed:
        program, metric = meta["program"], meta["metric"]
        if metrics.setdefault(program, metric) != metric:
            raise InputError(f"cannot compare {program} results of metric {metrics[program]!r} "
                             f"with ones of metric {metric!r} ({path})")
        # The same label from different run folders stays apart: old/ucx, new/ucx.
        name = f"{short_source(source)}/{label}" if len(label_sources[label]) > 1 else label
        if name not in order:
            order.append(name)
        group = groups.setdefault((program, name), {"files": [], "rows": [], "metas": [], "label": label})
        group["files"].append(path)
        group["rows"].append(rows)
        group["metas"].append(meta)
    return groups, metrics, order


def comparable_programs(groups, metrics, order, warnings):
    """{program: [configuration names]} for the programs with two or more configurations."""
    programs = []
    for program, _name in groups:
        if program not in programs:
            programs.append(program)
    per_program = {p: [n for n in order if (p, n) in groups] for p in programs}
    comparable = {p: per_program[p] for p in programs if len(per_program[p]) >= 2}
    if not comparable:
        if len(order) < 2:
            found = ", ".join(order) if order else "none"
            raise InputError(f"fewer than two configurations to compare (found: {found})")
        parts = [f"{metrics[p]} ({p}: {', '.join(per_program[p])})" for p in programs]
        raise InputError("cannot compare results of different metrics or programs: " + "; ".join(parts))
    for p in programs:
        if p not in comparable:
            warnings.append(f"{p}: only configuration {per_program[p][0]}; not compared")
    return comparable


def resolve_baseline(baseline, groups, order):
    if baseline is None:
        return None
    matches = [n for n in order if n == baseline]
    if not matches:
        labels = {n: g["label"] for (_, n), g in groups.items()}
        matches = [n for n in order if labels[n] == baseline]
    if len(matches) != 1:
        raise InputError(f"--baseline {baseline}: " + ("ambiguous" if matches else "no such configuration") +
                         f" (configurations: {', '.join(order)})")
    return matches[0]


def program_quantity(program, names, groups, metric, force_time, warnings):
    """The quantity compared for program, checked against every file's declared columns; sets
    each group's "ci_ok" (per launch: whether its CI keys are declared)."""
    metas = [(path, meta) for n in names
             for path, meta in zip(groups[(program, n)]["files"], groups[(program, n)]["metas"])]
    declared = [m.get("columns") for _, m in metas]
    columns = None
    if all(isinstance(c, list) for c in declared):
        columns = set(declared[0]).intersection(*declared[1:])
    all_rows = [r for n in names for rep in groups[(program, n)]["rows"] for r in rep]
    quantity = choose_quantity(metric, all_rows, force_time, columns)
    for n in names:
        group = groups[(program, n)]
        group["ci_ok"] = [check_columns(path, meta, quantity, warnings)
                          for path, meta in zip(group["files"], group["metas"])]
    return quantity


def path_text(path):
    """A row's path evidence in a few words: the NICs that carried the inter-node payload with their
    share, or that there was none; None when the row has no path evidence."""
    if not isinstance(path, dict):
        return None
    nics = [n for n in path.get("nics") or [] if isinstance(n, dict)]
    if path.get("payload_bytes") == 0:
        moved = sorted({str(n.get("name")) for n in nics})
        return "no inter-node payload" + (f"; moved: {', '.join(moved)}" if moved else "; no NIC")
    shares = {}
    for n in nics:
        share = num(n.get("share"))
        if share is not None:
            shares.setdefault(str(n.get("name")), []).append(share)
    if not shares:
        return "no NIC saw it" if path.get("payload_bytes") else "payload unknown"
    best = sorted(shares.items(), key=lambda kv: -min(kv[1]))[:2]
    return ", ".join(f"{name} {100 * min(v):.0f}%" for name, v in best)


def evidence_of(rows):
    """Per launch of one size: verdict of --expect/--expect-nic, the thresholds, the path."""
    verdicts = [r.get("verdict") for r in rows if isinstance(r.get("verdict"), str)]
    paths = [p for p in (path_text(r.get("path")) for r in rows) if p]
    expects = [r.get("expect") for r in rows if isinstance(r.get("expect"), str)]
    evidence = {}
    if verdicts:
        counts = {v: verdicts.count(v) for v in ("pass", "inconclusive", "fail") if v in verdicts}
        evidence["verdict"] = next(iter(counts)) if len(counts) == 1 else \
            "mixed (" + ", ".join(f"{v} {n}" for v, n in counts.items()) + ")"
        evidence["verdicts"] = counts
    if expects:
        evidence["expect"] = expects[0]
    if paths:
        evidence["path"] = paths[0] if len(set(paths)) == 1 else " | ".join(sorted(set(paths)))
    return evidence


def configuration_cells(launch_rows, quantity, ci_ok=None):
    """{size: between_launches cell} for one configuration; launch_rows: [[row] per launch];
    ci_ok: per launch, whether its CI keys may be read (default: all). A cell also carries the
    rows' path evidence and verdicts (evidence_of) where they have them."""
    per_size, rows_of = {}, {}
    for launch, rows in enumerate(launch_rows):
        for r in rows:
            value, lo, hi = quantity.extract(r)
            if ci_ok is not None and not ci_ok[launch]:
                lo = hi = None
            per_size.setdefault(int(num(r["size"])), {})[launch] = (value, lo, hi)
            rows_of.setdefault(int(num(r["size"])), []).append(r)
    cells = {}
    for size, by_launch in per_size.items():
        cell = between_launches(list(by_launch.values()))
        if cell is not None:
            cell.update(evidence_of(rows_of[size]))
            cells[size] = cell
    return cells


def launch_notes(configs):
    """Lines that say what the intervals of these configurations can and cannot speak to."""
    notes = []
    single = [c["name"] for c in configs if c["repeats"] == 1]
    if single:
        notes.append(f"one launch of {', '.join(single)}: within-launch CIs only; the comparison "
                     "cannot speak to launch-to-launch variation (see ? one launch)")
    few = [c["name"] for c in configs if 1 < c["repeats"] < 6]
    if few:
        notes.append(f"fewer than 6 launches of {', '.join(few)}: interval over launches = min..max")
    return notes


def ucx_transports(metas):
    """The transports UCX selected toward other processes in the launches (meta "ucx", or the end
    record's "ucx_end" when it grew), as one text; None when no launch recorded any."""
    seen = []
    for meta in metas:
        ucx = meta.get("ucx_end") or meta.get("ucx")
        text = ucx.get("transports") if isinstance(ucx, dict) else None
        if isinstance(text, str) and text and text not in seen:
            seen.append(text)
    return " | ".join(seen) if seen else None


def and_list(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def sensitivity(name, base, repeats, rows):
    """One configuration's sensitivity against the baseline over the sizes of a table: the range
    of its detectable difference, how often the observed difference is below it (cannot tell),
    or, where its launch counts allow no call at all, the launches needed; with the line that says
    so (text)."""
    m, b = repeats[name], repeats[base]
    compared = [r["ratios"][name] for r in rows if r["ratios"].get(name)]
    found = sorted(c["detectable"] for c in compared if isinstance(c["detectable"], float))
    entry = {"name": name, "baseline": base, "repeats": m, "baseline_repeats": b,
             "launches_needed": None, "sizes": len(compared),
             "detectable_min": found[0] if found else None, "detectable_max": found[-1] if found else None,
             "detectable_median": statistics.median(found) if found else None,
             "cannot_tell_sizes": sum(1 for c in compared if c["verdict"] == "cannot tell"),
             "significant_sizes": sum(1 for c in compared if c["significant"]),
             "never_sizes": sum(1 for c in compared if c["detectable"] == "never")}
    if not can_call(m, b):
        needed = launches_needed(m, b)
        short = [f"{x}" for x, k in ((base, b), (name, m)) if k < needed]
        entry["launches_needed"] = needed
        entry["text"] = (f"sensitivity of {name} vs {base}: never: with {name} x{m} against {base} x{b} "
                         f"no difference can be called at any size (cannot tell); launch "
                         f"{and_list(short)} at least {needed} times" + (" each" if len(short) > 1 else ""))
        return entry
    if found:
        spread = fmt_pct(found[0]) if found[0] == found[-1] else \
            f"{fmt_pct(found[0])} to {fmt_pct(found[-1])} (median {fmt_pct(entry['detectable_median'])})"
        text = (f"sensitivity of {name} vs {base} (x{m} against x{b}): smallest detectable difference "
                f"{spread} over {len(found)} size(s); observed difference below it (cannot tell) at "
                f"{entry['cannot_tell_sizes']} of {len(compared)} size(s)")
    else:
        text = f"sensitivity of {name} vs {base} (x{m} against x{b}): no detectable difference known"
    if entry["never_sizes"]:
        text += f"; never at {entry['never_sizes']} size(s) with fewer launches"
    unknown = sum(1 for c in compared if c["detectable"] is None)
    if unknown:
        text += f"; unknown at {unknown} size(s) without an interval"
    entry["text"] = text
    return entry


def build_table(program, names, groups, metric, force_time, warnings):
    quantity = program_quantity(program, names, groups, metric, force_time, warnings)
    cells_by_size = {}
    for n in names:
        ucx = ucx_transports(groups[(program, n)]["metas"])
        for size, cell in configuration_cells(groups[(program, n)]["rows"], quantity,
                                                groups[(program, n)]["ci_ok"]).items():
            if ucx and "path" in cell:  # beside the NICs: what UCX chose to reach them
                cell["path"] += f"; ucx {ucx}"
                cell["ucx"] = ucx
            cells_by_size.setdefault(size, {})[n] = cell
    sizes = sorted(cells_by_size)
    base = names[0]
    rows = []
    for size in sizes:
        cells = cells_by_size[size]
        ratios = {n: compare_cells(cells.get(n), cells.get(base), quantity.better) for n in names[1:]}
        rows.append({"size": size, "values": {n: cells.get(n) for n in names}, "ratios": ratios})
    configs = []
    for n in names:
        launches = len(groups[(program, n)]["files"])
        ranks = median_ci_ranks(launches) or (1, launches)
        configs.append({"name": n, "label": groups[(program, n)]["label"], "repeats": launches,
                        "files": groups[(program, n)]["files"],
                        "coverage": rank_coverage(launches, ranks[0]) if launches > 1 else None,
                        "disagree_sizes": sum(1 for s in sizes if (cells_by_size[s].get(n) or {}).get("disagree"))})
    repeats = {c["name"]: c["repeats"] for c in configs}
    sens = [sensitivity(n, base, repeats, rows) for n in names[1:]]
    for c in configs:
        c["launches_needed"] = next((x["launches_needed"] for x in sens if x["name"] == c["name"]), None)
    return {
        "program": program, "metric": metric, "quantity": quantity.key,
        "title": quantity.title, "unit": quantity.unit, "better": quantity.better,
        "baseline": base, "configurations": configs, "rows": rows,
        "crossovers": crossovers(names, cells_by_size, sizes, quantity.better),
        "notes": launch_notes(configs), "sensitivity": sens,
    }


def build_tables(files, force_time, baseline, warnings):
    """One table per program with two or more configurations (its shape: --help, json output)."""
    groups, metrics, order = read_groups(files, warnings)
    comparable = comparable_programs(groups, metrics, order, warnings)
    baseline = resolve_baseline(baseline, groups, order)
    tables = []
    for program, names in comparable.items():
        base = baseline if baseline in names else names[0]
        if baseline is not None and baseline not in names:
            warnings.append(f"{program}: baseline {baseline} has no results; {base} is used")
        names = [base] + [n for n in names if n != base]
        tables.append(build_table(program, names, groups, metrics[program], force_time, warnings))
    return tables


def compare(inputs, force_time=False, baseline=None):
    """Entry point for other tools: (tables, warnings) for a list of files and run folders.
    Raises InputError for bad input."""
    warnings = []
    return build_tables(collect_files(inputs), force_time, baseline, warnings), warnings


# ---------------------------------------------------------------- output

def fmt_ratio(x):
    return fmt_num(x)


def fmt_cell(c):
    """value [interval] {min..max where it differs from the interval} ! where launches disagree."""
    if c is None:
        return "-"
    text = fmt_num(c["value"])
    if c["ci_lo"] is not None:
        text += f" [{fmt_num(c['ci_lo'])}, {fmt_num(c['ci_hi'])}]"
    if c["repeats"] > 1 and (c["min"], c["max"]) != (c["ci_lo"], c["ci_hi"]):
        text += f" {{{fmt_num(c['min'])}..{fmt_num(c['max'])}}}"
    if c.get("disagree"):
        text += " !"
    return text


def fmt_comparison(r):
    if r is None:
        return "-"
    if r["significant"]:
        return f"{fmt_ratio(r['ratio'])} * {r['verdict']}"
    if r["verdict"] in ("one launch", "too few launches"):
        return f"{fmt_ratio(r['ratio'])} ? {r['verdict']}"
    if r["verdict"] == "cannot tell":
        return f"{fmt_ratio(r['ratio'])} ~ cannot tell"
    return f"{fmt_ratio(r['ratio'])} {r['mark']}"


def fmt_pct(x):
    """A fraction as a percent without sign: 1.353 -> 135.3%."""
    p = 100 * abs(x)
    return f"{p:.1f}%" if p >= 1 else f"{p:.2f}%"


def fmt_detectable(r):
    """The detectable difference with the sign of the observed one's direction (+ ratio above 1,
    - below), never, or - (unknown)."""
    if r is None or r["detectable"] is None:
        return "-"
    if r["detectable"] == "never":
        return "never"
    return ("+" if r["ratio"] >= 1 else "-") + fmt_pct(r["detectable"])


def fmt_launches(c):
    if c["repeats"] == 1:
        return f"{c['name']} x1 (within-launch 95% CI)"
    method = "min..max" if c["repeats"] < 6 else "order statistics"
    text = f"{c['name']} x{c['repeats']} ({method} of launch medians, coverage {100 * c['coverage']:.1f}%"
    if c["disagree_sizes"]:
        text += f"; launches disagree at {c['disagree_sizes']} size(s) !"
    return text + ")"


def render_table_text(t, out):
    names = [c["name"] for c in t["configurations"]]
    base = t["baseline"]
    out.write(f"# {t['program']} ({t['metric']}): {t['title']} in {t['unit']}, "
              f"{t['better']} is better; value = median of launch medians [interval]; "
              f"ratio = configuration / {base}\n")
    out.write(f"# launches: {', '.join(fmt_launches(c) for c in t['configurations'])}\n")
    for note in t["notes"]:
        out.write(f"# {note}\n")
    for sens in t.get("sensitivity", []):
        out.write(f"# {sens['text']}\n")
    header = ["size"] + [f"{n} ({t['unit']})" for n in names] \
        + [h for n in names[1:] for h in (f"{n} vs {base}", f"{n} detectable")]
    extra = [k for k in ("verdict", "path")
             if any(k in (row["values"][n] or {}) for row in t["rows"] for n in names)]
    header += [f"{n} {k}" for k in extra for n in names]
    table = [header]
    for row in t["rows"]:
        table.append([fmt_size(row["size"])] + [fmt_cell(row["values"][n]) for n in names]
                     + [x for n in names[1:]
                        for x in (fmt_comparison(row["ratios"][n]), fmt_detectable(row["ratios"][n]))]
                     + [(row["values"][n] or {}).get(k, "-") for k in extra for n in names])
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for r in table:
        cells = [r[0].rjust(widths[0])] + [c.ljust(w) for c, w in zip(r[1:], widths[1:])]
        out.write("  ".join(cells).rstrip() + "\n")
    for x in t["crossovers"]:
        out.write(x["text"] + "\n")
    if not t["crossovers"]:
        out.write("no crossover\n")


LEGEND = """\
* the intervals over launches separate, and would for identical configurations at most 5% of
  the time with these launch counts: a significant difference
~ cannot tell: the intervals overlap, i.e. the observed difference is smaller than the detectable
  one; not evidence that the configurations perform the same
? cannot tell, whatever the difference: one launch (within-launch CIs separate, but launches of
  one configuration differ like that too), too few launches (separate, but a 5% false alarm
  needs more), or no CI
detectable: the smallest difference * could mark at this size with these launches and their
  spread, in the direction of the observed one: the ratio at which the two intervals, each
  scaled with its value, would just separate (see --help); never: these launch counts cannot
  mark any difference (a line above names the launches needed)
! launches disagree beyond their own within-launch CIs: the in-run CI does not describe the
  launch-to-launch variation here; {min..max} = launch medians where not the interval
"""


def render_text(tables, out):
    for t_index, t in enumerate(tables):
        if t_index:
            out.write("\n")
        render_table_text(t, out)
    out.write("\n" + LEGEND)


CSV_COLUMNS = ["program", "metric", "quantity", "unit", "better", "size", "configuration", "value",
               "ci_lo", "ci_hi", "min", "max", "repeats", "baseline", "ratio", "significant", "mark",
               "verdict", "interval", "coverage", "disagree", "false_alarm", "detectable", "detectable_lo",
               "detectable_hi", "launches_needed", "expect_verdict", "expect", "path"]


def csv_cell(x):
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    return repr(x) if isinstance(x, float) else str(x)


def render_csv(tables, out):
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for t in tables:
        for row in t["rows"]:
            for c in t["configurations"]:
                n = c["name"]
                v = row["values"][n] or {}
                r = row["ratios"].get(n) or {}
                if n == t["baseline"]:
                    r = {"ratio": 1.0 if v else None, "significant": None, "mark": "", "verdict": "baseline"}
                w.writerow([t["program"], t["metric"], t["quantity"], t["unit"], t["better"], row["size"], n]
                           + [csv_cell(v.get(k)) for k in ("value", "ci_lo", "ci_hi", "min", "max", "repeats")]
                           + [t["baseline"]]
                           + [csv_cell(r.get(k)) for k in ("ratio", "significant", "mark", "verdict")]
                           + [csv_cell(v.get(k)) for k in ("interval", "coverage", "disagree")]
                           + [csv_cell(r.get(k)) for k in ("false_alarm", "detectable", "detectable_lo",
                                                           "detectable_hi", "launches_needed")]
                           + [csv_cell(v.get(k)) for k in ("verdict", "expect", "path")])


def render_json(tables, warnings, out):
    json.dump({"tables": tables, "warnings": warnings}, out, indent=1, allow_nan=False)
    out.write("\n")


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
