"""Sizes and bit rates: parsed exactly as base/units.c and the programs' options parse them, and
formatted as the tools print them."""

import math
import re

SHIFTS = {"K": 10, "M": 20, "G": 30, "T": 40}
SIZE_MAX = (1 << 64) - 1

_SIZE = re.compile(r"(?P<n>[0-9]+)(?:(?P<unit>[KMGTkmgt])[Ii]?[Bb]?)?")


def parse_size(text):
    """'4K' -> 4096, as fp_size_parse: decimal digits, then K, M, G or T (powers of 1024), each
    optionally followed by i and then B, any case; no sign, no space. ValueError otherwise."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise ValueError(f"'{text}' is not a size")
    value = int(m.group("n")) << SHIFTS.get((m.group("unit") or "").upper(), 0)
    if value > SIZE_MAX:
        raise ValueError(f"'{text}' overflows")
    return value


def parse_size_range(text):
    """'S', 'S:', ':S' or 'S:S' -> (lo, hi) inclusive, as --expect's @SIZES; an open end is 0 or
    SIZE_MAX. ValueError otherwise."""
    if ":" not in text:
        value = parse_size(text)
        return value, value
    first, rest = text.split(":", 1)
    if not first and not rest:
        raise ValueError(f"'{text}' is not a size range")
    lo = parse_size(first) if first else 0
    hi = parse_size(rest) if rest else SIZE_MAX
    if lo > hi:
        raise ValueError(f"'{text}' is an empty size range")
    return lo, hi


def parse_min_max(text):
    """'MIN:MAX' or 'MAX' -> (lo, hi), as --sizes: MIN may not be empty; lo is None without one."""
    if ":" in text:
        first, rest = text.split(":", 1)
        if not first:
            raise ValueError(f"'{text}' has no valid MIN")
        return parse_size(first), parse_size(rest)
    return None, parse_size(text)


_STRTOD = re.compile(r"(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
                     r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")


def parse_bitrate(text):
    """'100G' -> 1e11 bits/s, as fp_bitrate_parse: a number as strtod reads it, starting with a
    digit or '.', then K, M, G or T (powers of 1000, any case), then nothing, 'bit', 'b', 'bps' or
    'bit/s'; positive and finite. ValueError otherwise."""
    m = _STRTOD.match(text) if text[:1].isdigit() or text[:1] == "." else None
    if not m:
        raise ValueError(f"'{text}' is not a bit rate")
    number = m.group(0)
    value = float.fromhex(number) if number[:2] in ("0x", "0X") else float(number)
    rest = text[m.end():]
    if rest[:1] and rest[0].upper() in "KMGT":
        value *= 1000.0 ** ("KMGT".index(rest[0].upper()) + 1)
        rest = rest[1:]
    if rest not in ("", "bit", "b", "bps", "bit/s") or not math.isfinite(value) or value <= 0:
        raise ValueError(f"'{text}' is not a bit rate")
    return value


def fmt_size(size):
    """4096 -> '4K': the largest binary suffix that divides the size exactly (as the tools print)."""
    for shift, suffix in ((30, "G"), (20, "M"), (10, "K")):
        if size >= (1 << shift) and size % (1 << shift) == 0:
            return f"{size >> shift}{suffix}"
    return str(size)


def fmt_num(x):
    """Four significant digits before the point at most, '-' for None."""
    if x is None:
        return "-"
    if x == 0:
        return "0"
    decimals = max(0, 3 - int(math.floor(math.log10(abs(x)))))
    return f"{x:.{decimals}f}"
