#!/usr/bin/env python3
"""Check fabperf JSON Lines result files.

check-json.py [options] FILE...
  --program NAME       meta.program must be NAME (default: from the file name
                       <label>.<repeat>.<program>.json when it has that form)
  --label TEXT         meta.label must be TEXT
  --env VAR=VAL        meta.env[VAR] must be VAL (repeatable)
  --ranks N            the hosts' ranks must add up to N (default 2)
  --hosts H1,H2        the host names must be exactly these, one rank each
  --min-size BYTES     for --rate-mbps: only rows with size >= BYTES [1048576]
  --rate-mbps R        bw_p50_mbps of those rows must be within --tolerance of R
  --tolerance F        relative tolerance for --rate-mbps [0.25]
  --print              print "size bw_p50_mbps p50_us" of each row

Exit status 0 when every file passes, 1 otherwise; problems go to stderr.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from fabperf import InputError, results  # noqa: E402  (the tools' reader of fabperf results)


def interval_ok(mid, lo, hi, has_ci):
    """A positive median; with an interval, lo <= mid <= hi; without one, both bounds null."""
    if not isinstance(mid, (int, float)) or mid <= 0:
        return False
    if not has_ci:
        return lo is None and hi is None
    return all(isinstance(x, (int, float)) for x in (lo, hi)) and lo <= mid <= hi

def check(path, a):
    errs = []
    try:
        recs = results.read(path, complete=True).records
    except InputError as e:
        return [f"cannot read JSON Lines: {e}"]
    if not recs:
        return ["empty file"]
    meta, rows, end = recs[0], recs[1:-1], recs[-1]
    if meta.get("type") != "meta":
        errs.append("first record is not type meta")
    if end.get("type") != "end" or end.get("status") != "complete":
        errs.append(f"last record is not a complete end record: {end}")
    program = a.program
    parts = os.path.basename(path).split(".")
    if program is None and len(parts) >= 4 and parts[-1] == "json":
        program = parts[-2]
    if program and meta.get("program") != program:
        errs.append(f"meta.program {meta.get('program')!r} != {program!r}")
    if a.label is not None and meta.get("label") != a.label:
        errs.append(f"meta.label {meta.get('label')!r} != {a.label!r}")
    env = meta.get("env") or {}
    for kv in a.env:
        k, _, v = kv.partition("=")
        if env.get(k) != v:
            errs.append(f"meta.env[{k}] {env.get(k)!r} != {v!r}")
    hosts = meta.get("hosts") or []
    nranks = sum(int(h.get("ranks", 0)) for h in hosts)
    if nranks != a.ranks:
        errs.append(f"hosts hold {nranks} ranks, expected {a.ranks}: {hosts}")
    if a.hosts:
        want = sorted(a.hosts.split(","))
        got = sorted(h.get("name") for h in hosts)
        if got != want or any(h.get("ranks") != 1 for h in hosts):
            errs.append(f"hosts {hosts} != one rank on each of {want}")
    bw = meta.get("metric") == "bandwidth"
    if meta.get("metric") not in ("bandwidth", "latency"):
        errs.append(f"meta.metric {meta.get('metric')!r} unknown")
    if not rows:
        errs.append("no row records")
    last = -1
    for r in rows:
        if r.get("type") != "row":
            errs.append(f"unexpected record {r}")
            continue
        s = r.get("size")
        if not isinstance(s, int) or s <= last:
            errs.append(f"sizes not increasing at {s}")
        last = s if isinstance(s, int) else last
        # A 95% CI exists from 6 samples on; below, its fields are null (never a min..max).
        has_ci = not isinstance(r.get("samples"), int) or r["samples"] >= 6
        p50, lo, hi = r.get("p50_us"), r.get("p50_ci_lo_us"), r.get("p50_ci_hi_us")
        if not interval_ok(p50, lo, hi, has_ci):
            errs.append(f"size {s}: bad p50/CI {lo} {p50} {hi} ({r.get('samples')} samples)")
        if bw:
            b, blo, bhi = r.get("bw_p50_mbps"), r.get("bw_ci_lo_mbps"), r.get("bw_ci_hi_mbps")
            if not interval_ok(b, blo, bhi, has_ci):
                errs.append(f"size {s}: bad bandwidth/CI {blo} {b} {bhi} ({r.get('samples')} samples)")
        elif "bw_p50_mbps" in r:
            errs.append(f"size {s}: bandwidth field in a latency run")
        if a.print:
            print(f"{os.path.basename(path)} size={s} bw_p50_mbps={r.get('bw_p50_mbps')} p50_us={p50}")
    if a.rate_mbps is not None:
        big = [r for r in rows if isinstance(r.get("size"), int) and r["size"] >= a.min_size]
        if not big:
            errs.append(f"no rows with size >= {a.min_size}")
        for r in big:
            b = r.get("bw_p50_mbps") or 0
            if abs(b - a.rate_mbps) > a.tolerance * a.rate_mbps:
                errs.append(f"size {r['size']}: {b:.1f} MB/s not within "
                            f"{a.tolerance:.0%} of {a.rate_mbps:.1f} MB/s")
    return errs


def main():
    p = argparse.ArgumentParser()
    p.add_argument("files", nargs="+")
    p.add_argument("--program")
    p.add_argument("--label")
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--hosts")
    p.add_argument("--min-size", type=int, default=1 << 20)
    p.add_argument("--rate-mbps", type=float)
    p.add_argument("--tolerance", type=float, default=0.25)
    p.add_argument("--print", action="store_true")
    a = p.parse_args()
    bad = 0
    for f in a.files:
        errs = check(f, a)
        for e in errs:
            print(f"{f}: {e}", file=sys.stderr)
        bad += bool(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
