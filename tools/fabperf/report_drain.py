"""fabperf-report --drain and --summary: which nodes to take out of service, and one line that
scripts read.

A node is to be drained when its preflight failed (a finding of level fail on it), when an
all-pairs finding that names it as a slow node stands (or was found, in files written before the
re-test), or when a collective's --isolate search found a member on it that stands. A slow link names two nodes and neither is at fault alone (a cable, a switch port): it
is listed as not drained, with the reason. The summary line counts what the JUnit file counts:
PASS the cases that passed, FAIL failures and launches not ok, INCONCLUSIVE the skipped ones."""

from .report_judge import finding_status

NODE_KINDS = ("slow_node",)


def preflight_reasons(run):
    """{node: [reason]} of every failing preflight finding."""
    out = {}
    for report in run.preflight:
        for f in report["findings"]:
            if f.get("level") == "fail":
                message = str(f.get("message", "")).split("; fix:")[0]
                out.setdefault(str(f.get("node")), []).append(f"preflight: {f.get('device', '?')}: {message}")
    return out


def standing(f):
    return finding_status(f) in ("stands", "found")


def finding_text(f):
    size = f.get("size")
    where = f"at {int(size)} B" if isinstance(size, (int, float)) else ""
    return f"all-pairs {where}: {str(f.get('message', f.get('kind', 'finding'))).split('; ')[0]}".replace("  ", " ")


def drain_list(run):
    """([(node, [reason])] in first-seen order, [(what, reason)] of standing findings not drained)."""
    reasons = preflight_reasons(run)
    kept = []
    for report in run.pairs:
        for f in report["findings"]:
            if not standing(f):
                continue
            nodes = [str(n) for n in f.get("nodes") or []]
            if f.get("kind") in NODE_KINDS and len(nodes) == 1:
                reasons.setdefault(nodes[0], []).append(finding_text(f))
            else:
                what = " <-> ".join(nodes) or str(f.get("kind", "finding")).replace("_", " ")
                kept.append((what, finding_text(f) + " (names no single node: "
                             "check what joins them, the cable, the switch port or the round's traffic)"))
    for c in run.configs:  # a collective's member that stands: its node
        for x in c.launches:
            for f in (x.isolate or {}).get("findings", []):
                if f.get("status") != "stands":
                    continue
                nodes = sorted({str(n) for n in f.get("nodes") or []})
                size = f.get("size")
                text = (f"{x.program} --isolate" + (f" at {int(size)} B" if isinstance(size, (int, float)) else "")
                        + f": {f.get('message', f.get('kind', 'finding'))}")
                if f.get("kind") == "member" and len(nodes) == 1:
                    reasons.setdefault(nodes[0], []).append(text)
                else:
                    kept.append((" <-> ".join(nodes) or "a group", text + " (names no single node)"))
    return list(reasons.items()), kept


def drain_text(run):
    nodes, kept = drain_list(run)
    lines = ["# fabperf drain list: NODE<TAB>reason; a node whose preflight failed or that a standing "
             "all-pairs or --isolate finding names as slow"]
    lines += [f"{node}\t{'; '.join(reasons)}" for node, reasons in nodes]
    lines += [f"# not drained: {what}: {reason}" for what, reason in kept]
    return "\n".join(lines) + "\n"


def slurm_quote(text):
    """A value for scontrol's reason="..." that a shell leaves as it is: one line, without the
    characters a shell expands inside double quotes."""
    for c in '"$`\\':
        text = text.replace(c, "'" if c == '"' else "")
    return " ".join(text.split())


def slurm_drain_text(run):
    """The scontrol lines that would drain the nodes, the first reason each (and how many more);
    printed, never run."""
    nodes, _ = drain_list(run)
    lines = []
    for node, reasons in nodes:
        more = f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else ""
        lines.append(f'scontrol update nodename={slurm_quote(node)} state=drain '
                     f'reason="fabperf: {slurm_quote(reasons[0])}{more}"\n')
    return "".join(lines)


def summary_line(counts, run):
    """'fabperf: PASS 212, FAIL 3, INCONCLUSIVE 5; nodes to drain: n07 n12' from JUnit totals."""
    failed = counts["failures"] + counts["errors"]
    passed = counts["tests"] - failed - counts["skipped"]
    nodes, _ = drain_list(run)
    drain = " ".join(node for node, _ in nodes) or "none"
    return f"fabperf: PASS {passed}, FAIL {failed}, INCONCLUSIVE {counts['skipped']}; nodes to drain: {drain}"


def summary_status(counts, run):
    """3 when anything failed or a node is to be drained, else 0."""
    nodes, _ = drain_list(run)
    return 3 if counts["failures"] + counts["errors"] or nodes else 0
