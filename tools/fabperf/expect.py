"""The --expect grammar of the programs (engine/expect.c, docs/verdicts.md): comma-separated terms
bw>=N, busbw>=N, lat<=N, PCT%line, PCT%wire or uniform, each with an optional @SIZES."""

import re

from . import units

GRAMMAR = ("bw>=N[@SIZES], busbw>=N[@SIZES], lat<=N[@SIZES], PCT%line[@SIZES], PCT%wire[@SIZES] or uniform[@SIZES] "
           "(all-pairs sweeps) or baseline=FILE[:TOL] (fabperf-baseline's bounds, relaxed by the fraction TOL); "
           "N and PCT decimal (11000, 1.5, 1e9); SIZES = S, S:, :S or S:S with "
           "K M G T; several comma-separated, e.g. bw>=11000@4M,90%line@1M:")
MAX_TERM = 63  # characters of one term, as the programs take them

# A plain decimal: no sign, no hex, no inf or nan.
DECIMAL = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_CONDITION = re.compile(rf"(?P<kind>busbw|bw)>=(?P<n>{DECIMAL})|lat<=(?P<lat>{DECIMAL})"
                        rf"|(?P<pct>{DECIMAL})%line|(?P<wire>{DECIMAL})%wire|(?P<uniform>uniform)")


def parse_term(text):
    """One term -> {"text", "kind" (bw, busbw, lat, line, wire or uniform), "value" (N, or PCT as
    written: 90 for 90%line; None for uniform), "sizes" ((lo, hi) inclusive, None without @)}.
    ValueError with the reason otherwise."""
    if not text:
        raise ValueError(f"--expect: '' has an empty term (accepted: {GRAMMAR})")
    if len(text) > MAX_TERM:
        raise ValueError(f"--expect: '(too long)' is too long (accepted: {GRAMMAR})")
    condition, at, sizes = text.partition("@")
    m = _CONDITION.fullmatch(condition)
    value = None
    if m and m.group("n"):
        kind, value = m.group("kind"), float(m.group("n"))
    elif m and m.group("lat"):
        kind, value = "lat", float(m.group("lat"))
    elif m and m.group("pct"):
        kind, value = "line", float(m.group("pct"))
    elif m and m.group("wire"):
        kind, value = "wire", float(m.group("wire"))
    else:
        kind = "uniform" if m else None
    if kind is None or (value is not None and value != value) or (kind in ("line", "wire") and value <= 0) \
            or (value is not None and value == float("inf")):
        raise ValueError(f"--expect: '{text}' is not a threshold (accepted: {GRAMMAR})")
    term = {"text": text, "kind": kind, "value": value, "sizes": None}
    if at:
        try:
            term["sizes"] = units.parse_size_range(sizes)
        except ValueError:
            raise ValueError(f"--expect: '{text}' has no valid sizes after @ (accepted: {GRAMMAR})") \
                from None
    return term


def parse_expect(text):
    """'bw>=100@1M:,lat<=2' -> [term] (see parse_term), as the programs read --expect."""
    return [parse_term(part) for part in text.split(",")]


def applies(term, size):
    """Whether a term judges a message size."""
    return term["sizes"] is None or term["sizes"][0] <= size <= term["sizes"][1]
