"""fabperf-report's verdicts of an all-pairs sweep's sizes: the matrix cells behind a finding, the
re-test's status of each finding and the judge's verdict of each size (no HTML here)."""

from .results import num


# ================================================================ all-pairs heatmap

def finding_cells(finding, nodes):
    """(i, j) matrix cells (sender, receiver) behind a finding: its "pairs" of names; without them
    (a node of a matrix above 64 nodes) from its ranks and direction: a sender's row, a
    receiver's column, both for "both" and "round-trip" (a latency sweep's unordered pairs); a
    link's cell, and the reverse one for "both-ways"; a slow round's cells from its shift."""
    index = {name: k for k, name in enumerate(nodes)}
    pairs = finding.get("pairs")
    if isinstance(pairs, list):
        out = [(index.get(p[0]), index.get(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2]
        return [(i, j) for i, j in out if i is not None and j is not None]
    if finding.get("kind") == "slow_round" and isinstance(finding.get("shift"), int):
        n = len(nodes)  # a shift round: every sender i with receiver i + shift
        return [(i, (i + finding["shift"]) % n) for i in range(n) if finding["shift"] % n]
    ranks = [r for r in finding.get("ranks") or [] if isinstance(r, int) and 0 <= r < len(nodes)]
    direction = finding.get("direction")
    if finding.get("kind") == "slow_link" and len(ranks) == 2:
        a, b = ranks
        return [(a, b), (b, a)] if direction == "both-ways" else [(a, b)]
    if len(ranks) != 1:
        return []
    a, others = ranks[0], [j for j in range(len(nodes)) if j != ranks[0]]
    cells = [(a, j) for j in others] if direction in ("send", "both", "round-trip") else []
    return cells + ([(j, a) for j in others] if direction in ("receive", "both", "round-trip") else [])


def matrix_for(report, size):
    """Index of the matrix of that size in an all-pairs report (the first one without a size)."""
    for m, matrix in enumerate(report["matrices"]):
        if num(matrix.get("size")) == num(size):
            return m
    return 0 if report["matrices"] and size is None else None


# ================================================================ the judge of a sweep's sizes

JUDGED_ORDER = ("fail", "cannot judge", "undecided", "pass")  # worst first
CELLS_LISTED = 6  # cells a verdict names beside its link; the finding's table lists every one


def judge_record(report, size):
    return next((j for j in report["judges"] if num(j.get("size")) == num(size)), None)


def matrix_anchor(report, m):
    """The id of a matrix's block in the all-pairs section (its heatmap and its judge)."""
    return f"{report['ident']}-m{m + 1}"


def finding_targets(report, findings):
    """[(id, text)] of the heatmap cells (outlined anchors) behind these findings, in order."""
    out = []
    for f in findings:
        m = matrix_for(report, f.get("size"))
        if m is None:
            continue
        nodes = report["matrices"][m]["nodes"]
        for i, j in finding_cells(f, nodes):
            target = (f"{matrix_anchor(report, m)}-m-{i}-{j}", f"{nodes[i]} → {nodes[j]}")
            if target not in out:
                out.append(target)
    return out


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def size_judgement(report, size, row_verdict=None, row_expect=None):
    """The verdict of one size of a judged sweep: {"verdict" (pass, fail, undecided, cannot judge),
    "cls", "reason", "targets": [(id, text)] of the heatmap cells it rests on (the matrix itself
    when no finding does), "judge": the size's judge record or None}; None for a file written
    before the judge decided (it renders as it did). A finding that stands fails the size whatever
    its row says; a judge that could not decide, a suspect left undecided or an inconclusive
    "uniform" term is never a pass."""
    if not report["judged"]:
        return None
    judge = judge_record(report, size)
    found = [f for f in report["findings"] if num(f.get("size")) == num(size)]
    by = {st: [f for f in found if finding_status(f) == st] for st in FINDING_STATUSES}

    def count(st):
        said = num(judge.get(st)) if judge else None
        return max(len(by[st]), int(said) if said is not None else 0)
    stands, undecided = count("stands"), count("undecided")
    reason = str(judge.get("reason") or "") if judge else ""
    uniform_open = str(row_verdict or "").startswith("inconclusive") and "uniform" in str(row_expect or "")
    if stands:
        verdict, resting = "fail", by["stands"]
        first = next((f.get("message") for f in by["stands"] if f.get("message")), "")
        reason = f"{plural(stands, 'finding')} stand{'s' if stands == 1 else ''}" + (f": {first}" if first else "")
    elif judge is not None and judge.get("decided") is False:
        verdict, resting = "cannot judge", by["undecided"] or found
        reason = reason or "the judge could not decide"
    elif undecided:
        verdict, resting = "undecided", by["undecided"] or found
        why = next((f.get("why") for f in by["undecided"] if f.get("why")), "")
        reason = reason or (f"{plural(undecided, 'suspect')} neither stood nor cleared"
                            + (f": {why}" if why else ""))
    elif uniform_open:
        verdict, resting = "cannot judge", found
        reason = reason or "the uniform term is inconclusive"
    else:
        verdict, resting = "pass", []
        cleared = count("cleared")
        suspects = max(int(num(judge.get("suspects")) or 0) if judge else 0, len(found))
        reason = (f"{plural(suspects, 'suspect')}, {cleared} cleared by the re-test" if suspects
                  else "no suspect")
    targets = finding_targets(report, resting)
    m = matrix_for(report, size)
    if not targets and m is not None:
        targets = [(matrix_anchor(report, m), "the heatmap")]
    return {"verdict": verdict, "cls": verdict.replace(" ", "-"), "reason": reason,
            "targets": targets, "judge": judge}


def apply_judgements(run):
    """A sweep's sizes in its configuration take the judge's verdict where it is not a pass (the
    worst over the configuration's launches): the row's own verdict cannot see an undecided
    suspect, and a finding that stands fails the size."""
    by_file = {r["file"]: r for r in run.pairs}
    for c in run.configs:
        reports = [by_file[x.name] for x in c.launches if x.name in by_file]
        for s in c.sizes:
            judged = [j for j in (size_judgement(r, s["size"], s["verdict"], s["expect"]) for r in reports) if j]
            s["sweep"] = min(judged, key=lambda j: JUDGED_ORDER.index(j["verdict"])) if judged else None


FINDING_STATUSES = ("stands", "cleared", "undecided")  # the re-test's decision ("status")


def finding_status(f):
    """The re-test's decision: stands, cleared or undecided; in files written before it had one,
    stands / cleared (re-measured alone), or as found when not re-measured."""
    if f.get("status") in FINDING_STATUSES:
        return f["status"]
    if f.get("cleared") is True:
        return "cleared"
    return "stands" if f.get("alone") else "found"


def judged_sizes(report):
    """[(size, judgement)] of a judged sweep: every size it has a judge record, matrix or finding
    of, in order."""
    if not report["judged"]:
        return []
    sizes = {num(r.get("size")) for r in report["judges"] + report["matrices"] + report["findings"]}
    return [(size, size_judgement(report, size, *row_verdict(report, size)))
            for size in sorted(x for x in sizes if x is not None)]


def row_verdict(report, size):
    """(verdict, expect) of the file's row of that size."""
    row = next((r for r in report["rows"] if num(r.get("size")) == num(size)), {})
    return row.get("verdict"), row.get("expect")


def valid_matrix(r):
    nodes, values = r.get("nodes"), r.get("values")
    return (isinstance(nodes, list) and isinstance(values, list) and len(values) == len(nodes)
            and all(isinstance(row, list) and len(row) == len(nodes) for row in values))
