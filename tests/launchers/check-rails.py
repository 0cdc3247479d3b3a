#!/usr/bin/env python3
"""Check a run folder of scripts/slurm/rails.sbatch and its summary.

check-rails.py DIR --rails R1,R2 --set VAR=FORMAT [--set ...] --launches N [options]
  --rails R1,R2     the rails that ran (labels RAIL@...)
  --set VAR=FORMAT  every result file of rail R records env VAR = FORMAT with {rail} replaced
                    by R, and where FORMAT holds {rail} the summary's selection of R too
                    (repeatable)
  --launches N      result files per rail
  --hosts H1,H2     every file has one rank on each of these hosts
  --slow RAIL       the summary's only finding is "slow rail RAIL" (without it: no finding)
  --path            every cell's path evidence names its rail's NIC first, and no other NIC
  --max-ratio R     the slow rail's ratio to the best rail is at most R
  --sweep           the labels are RAIL@all

Prints what it checked; exit status 0 when everything holds, 1 otherwise.
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from fabperf import results  # noqa: E402  (the tools' reader of fabperf results)


def check_files(a, errs):
    per_rail = {r: 0 for r in a.rails}
    for path in sorted(glob.glob(os.path.join(a.dir, "*.json"))):
        meta = results.read(path, complete=True).records[0]
        rail, _, tail = meta.get("label", "").rpartition("@")
        if rail not in per_rail:
            errs.append(f"{path}: label {meta.get('label')!r} is not RAIL@... of {a.rails}")
            continue
        per_rail[rail] += 1
        if a.sweep and tail != "all":
            errs.append(f"{path}: label {meta['label']!r} is not {rail}@all")
        for kv in a.set:
            var, _, fmt = kv.partition("=")
            want = fmt.replace("{rail}", rail)
            if meta["env"].get(var) != want:
                errs.append(f"{path}: env {var}={meta['env'].get(var)!r}, expected {want!r}")
        hosts = [p["host"] for p in meta["placement"]]
        if a.hosts and hosts != a.hosts.split(","):
            errs.append(f"{path}: ranks on {hosts}, expected one on each of {a.hosts}")
        print(f"{os.path.basename(path)}: " + " ".join(f"{k.partition('=')[0]}={meta['env'].get(k.partition('=')[0])}"
                                                       for k in a.set) + f" hosts {hosts}")
    for rail, n in per_rail.items():
        if n != a.launches:
            errs.append(f"rail {rail}: {n} result files, expected {a.launches}")


def check_summary(a, errs):
    summary = json.load(open(os.path.join(a.dir, "summary", "rails.json")))
    table = summary["tables"][0]
    findings = [(f["kind"], f["rail"]) for t in summary["tables"] for f in t["findings"]]
    want = [("rail", a.slow)] if a.slow else []
    if findings != want:
        errs.append(f"summary findings {findings}, expected {want}")
    for c in table["cells"]:
        print(f"cell {c['rail']} {c['pair']}: {c['value']:.4g} [{c['ci_lo']:.4g}, {c['ci_hi']:.4g}] "
              f"x{c['repeats']} path {c.get('path')} slow {c['slow']}")
        if a.path and (not (c.get("path") or "").startswith(c["rail"] + " ") or c["path_mismatch"]
                       or "," in c["path"]):
            errs.append(f"cell {c['rail']}: path evidence {c.get('path')!r} is not its rail alone")
        if a.slow and c["rail"] == a.slow:
            ratio = c["vs_best_rail"]["ratio"]
            if a.max_ratio is not None and not ratio <= a.max_ratio:
                errs.append(f"slow rail {a.slow}: ratio {ratio}, expected <= {a.max_ratio}")
    rails = [r["name"] for r in table["rails"]]
    if sorted(rails) != sorted(a.rails):
        errs.append(f"summary rails {rails}, expected {a.rails}")
    for r in table["rails"]:
        for kv in a.set:
            var, _, fmt = kv.partition("=")
            if "{rail}" in fmt and [s.get(var) for s in r["selection"]] != [fmt.replace("{rail}", r["name"])]:
                errs.append(f"summary rail {r['name']}: selection {r['selection']} lacks {var}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--rails", required=True, type=lambda s: s.split(","))
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--launches", type=int, required=True)
    p.add_argument("--hosts")
    p.add_argument("--slow")
    p.add_argument("--path", action="store_true")
    p.add_argument("--max-ratio", type=float)
    p.add_argument("--sweep", action="store_true")
    a = p.parse_args()
    errs = []
    check_files(a, errs)
    try:
        check_summary(a, errs)
    except (OSError, ValueError, KeyError, IndexError) as e:
        errs.append(f"summary: {type(e).__name__}: {e}")
    for e in errs:
        print(f"FAIL: {e}", file=sys.stderr)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
