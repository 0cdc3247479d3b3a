"""fabperf-compare's output of the comparison tables: text (with its legend), CSV and JSON."""

import csv
import json

from .units import fmt_num, fmt_size


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
