"""fabperf-compare's comparison tables: the quantity compared per program (and the columns that
must declare it), result files grouped into configurations and launches, and per size each
configuration's value over launches against the baseline."""

import statistics

from . import InputError
from .compare_output import fmt_pct
from .compare_stats import (between_launches, can_call, compare_cells, crossovers, launches_needed,
                            median_ci_ranks, rank_coverage)
from .results import collect_files, file_label, num, read_result, short_source


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
