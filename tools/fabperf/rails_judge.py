"""fabperf-rails' judging of a table: the rails, nodes and links that are slow against the best, the
cells that fail --expect, and the path evidence and line rates of the cells."""

import statistics

from . import compare
from .rails_table import ordered, pair_name
from .results import num
from .units import fmt_num


# ================================================================ judging

def best_cell(cells, better):
    pick = max if better == "higher" else min
    return pick(cells, key=lambda c: c["value"])


def judge_against_best(table, group_key, against_key, field):
    """Each cell against the best cell of its group (the same pair: rails; the same rail: pairs)
    with fabperf-compare's rule; stores the comparison in cell[field]."""
    groups = {}
    for c in table["cells"]:
        groups.setdefault(c[group_key], []).append(c)
    for cells in groups.values():
        if len(cells) < 2:
            continue
        best = best_cell(cells, table["better"])
        for c in cells:
            if c is best:
                continue
            cmp = compare.compare_cells(c, best, table["better"])
            c[field] = dict(cmp, against=best[against_key], against_value=best["value"],
                            against_ci=[best["ci_lo"], best["ci_hi"]])
            if cmp["verdict"] in ("one launch", "too few launches"):
                table["notes"].append(
                    f"cannot tell: {c['rail']} at {c['pair']} ({fmt_num(c['value'])}) and {best[against_key]} "
                    f"({fmt_num(best['value'])}) separate, but {cmp['verdict']} to call it "
                    f"({c['repeats']} and {best['repeats']}; 4 or more each)")


def is_slow(cell, field):
    cmp = cell.get(field)
    return bool(cmp and cmp["verdict"] == "slower")  # "slower" is only ever a significant verdict


def ratio_range(cells, field):
    ratios = [c[field]["ratio"] for c in cells if c.get(field) and c[field]["ratio"] is not None]
    if not ratios:
        return "-"
    lo, hi = min(ratios), max(ratios)
    return fmt_num(lo) if lo == hi else f"{fmt_num(lo)}..{fmt_num(hi)}"


def cell_text(c, unit):
    text = f"{fmt_num(c['value'])} [{fmt_num(c['ci_lo'])}, {fmt_num(c['ci_hi'])}] {unit}"
    return text + f" x{c['repeats']}"


def slow_groups(table, key, field):
    """Groups (rails or pairs) whose every compared cell is slow against the best of its other group."""
    found = []
    for name in ordered(c[key] for c in table["cells"]):
        cells = [c for c in table["cells"] if c[key] == name]
        if cells and all(is_slow(c, field) for c in cells):
            found.append((name, cells))
    return found


def classify(table):
    """Findings: slow rails, slow nodes, then slow links that neither explains."""
    unit, findings = table["unit"], table["findings"]
    pair_node = {p["name"]: p["node"] for p in table["pairs"]}
    rails = slow_groups(table, "rail", "vs_best_rail")
    for rail, cells in rails:
        text = f"slow rail {rail}: slower than the best rail at every node pair ({len(cells)} of {len(cells)})"
        if len(cells) == 1:
            c = cells[0]
            best = c["vs_best_rail"]
            text += (f": {cell_text(c, unit)} at {c['pair']} against {fmt_num(best['against_value'])} "
                     f"[{fmt_num(best['against_ci'][0])}, {fmt_num(best['against_ci'][1])}] on {best['against']}")
        findings.append({"kind": "rail", "rail": rail, "node": None, "pair": None,
                         "text": text + f"; ratio {ratio_range(cells, 'vs_best_rail')}"})
    pairs = slow_groups(table, "pair", "vs_best_pair")
    for pair, cells in pairs:
        who = f"node {pair_node[pair]}" if pair_node.get(pair) else f"node pair {pair}"
        findings.append({"kind": "node", "rail": None, "node": pair_node.get(pair), "pair": pair,
                         "text": f"slow {who}: its pair {pair} is slower than the best pair on every rail "
                                 f"({len(cells)} of {len(cells)}); ratio {ratio_range(cells, 'vs_best_pair')}"})
    explained_rails = {r for r, _ in rails}
    explained_pairs = {p for p, _ in pairs}
    for c in table["cells"]:
        c["slow"] = is_slow(c, "vs_best_rail") or is_slow(c, "vs_best_pair")
        if c["slow"] and c["rail"] not in explained_rails and c["pair"] not in explained_pairs:
            findings.append(link_finding(c, pair_node.get(c["pair"]), unit))


def link_finding(c, node, unit):
    field = "vs_best_rail" if is_slow(c, "vs_best_rail") else "vs_best_pair"
    cmp = c[field]
    where = "on rail {} at the same pair" if field == "vs_best_rail" else "at pair {} on the same rail"
    who = f"rail {c['rail']} at node {node} (pair {c['pair']})" if node else f"rail {c['rail']} at {c['pair']}"
    return {"kind": "link", "rail": c["rail"], "node": node, "pair": c["pair"],
            "text": f"slow link: {who}: {cell_text(c, unit)} against {fmt_num(cmp['against_value'])} "
                    f"[{fmt_num(cmp['against_ci'][0])}, {fmt_num(cmp['against_ci'][1])}] "
                    + where.format(cmp["against"]) + f"; ratio {fmt_num(cmp['ratio'])}"}


# ================================================================ --expect and path evidence

def term_threshold(term, table, cell, line_rate):
    """(threshold in the table's unit, good side "higher"/"lower") or None where the term does not
    apply to this quantity, or its line rate is unknown."""
    key = table["quantity"]
    if term["kind"] == "lat" and key == "p50_us":
        return term["value"], "lower"
    if term["kind"] == "bw" and key == "bw_p50_mbps":
        return term["value"], "higher"
    if term["kind"] == "busbw" and key == "oop_busbw_gbps":
        return term["value"], "higher"
    if term["kind"] == "line" and key in ("bw_p50_mbps", "oop_busbw_gbps"):
        rate = line_rate if line_rate else (cell.get("line_rate_gbps") or 0) * 1e9
        if not rate:
            return None
        scale = 1e6 if key == "bw_p50_mbps" else 1e9
        return term["value"] / 100 * rate / 8 / scale, "higher"
    return None


def judge_cell(cell, terms, table, line_rate):
    """The cell's verdict on the terms that apply: fail if one term's interval is wholly on the bad
    side, pass if every term's is wholly on the good side, inconclusive otherwise."""
    results = []
    for term in terms:
        applied = term_threshold(term, table, cell, line_rate)
        if applied is None:
            continue
        threshold, good = applied
        lo, hi = cell["ci_lo"], cell["ci_hi"]
        if lo is None or hi is None:
            verdict = "inconclusive"
        elif (lo >= threshold) if good == "higher" else (hi <= threshold):
            verdict = "pass"
        elif (hi < threshold) if good == "higher" else (lo > threshold):
            verdict = "fail"
        else:
            verdict = "inconclusive"
        results.append({"term": term["text"], "threshold": threshold, "verdict": verdict})
    if not results:
        return None
    verdicts = [r["verdict"] for r in results]
    worst = "fail" if "fail" in verdicts else "inconclusive" if "inconclusive" in verdicts else "pass"
    return {"verdict": worst, "terms": results}


def apply_expect(table, terms, line_rate):
    for c in table["cells"]:
        c["expect"] = judge_cell(c, terms, table, line_rate) if terms else None
        if not c["expect"] or c["expect"]["verdict"] != "fail":
            continue
        failed = next(t for t in c["expect"]["terms"] if t["verdict"] == "fail")
        table["findings"].append({
            "kind": "expect", "rail": c["rail"], "node": None, "pair": c["pair"],
            "text": f"expect failed: rail {c['rail']} at {c['pair']}: median {fmt_num(c['value'])}, interval "
                    f"[{fmt_num(c['ci_lo'])}, {fmt_num(c['ci_hi'])}] {table['unit']} against {failed['term']} "
                    f"(threshold {fmt_num(failed['threshold'])} {table['unit']})"})


def check_paths(table):
    """A note for each cell whose path evidence names NICs, none of them its rail's device."""
    for c in table["cells"]:
        path = c.get("path")
        c["path_mismatch"] = False
        if not path or "%" not in path:
            continue
        nics = [part.strip().rsplit(" ", 1)[0] for part in path.replace("|", ",").split(",")]
        device = c["rail"].split(":")[0]
        if not any(n == c["rail"] or n.split(":")[0] == device for n in nics):
            c["path_mismatch"] = True
            table["notes"].append(f"path: rail {c['rail']} at {c['pair']}: the payload crossed {path}, "
                                  f"not {c['rail']}")


def add_line_rates(table, runs):
    """cell["line_rate_gbps"]: the median line rate the rows of the cell's size recorded, if any."""
    for c in table["cells"]:
        rates = [num(row.get("line_rate_gbps")) for r in runs if r["rail"] == c["rail"]
                 and pair_name(r["nodes"]) == c["pair"] for row in r["rows"]
                 if num(row.get("size")) == table["size"]]
        rates = [x for x in rates if x]
        c["line_rate_gbps"] = statistics.median(rates) if rates else None
