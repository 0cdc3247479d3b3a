"""Unit test of the fabperf package (tools/fabperf): exact results of the size, range and bit-rate
parsers (what base/units.c accepts), of the --expect grammar (engine/expect.c) and of the reader of
a JSON Lines file whose last line is cut short.

Usage: test_results.py [TOOLS-FOLDER]: the folder holding the package [../../tools from here].
Prints one TAP-like line a check; exit 0 when every check holds."""

import os
import sys
import tempfile

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else
                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))

from fabperf import InputError, expect, results, units  # noqa: E402

failures = 0


def check(description, got, want):
    global failures
    if got == want:
        print(f"ok - {description}")
    else:
        failures += 1
        print(f"not ok - {description}\n  got  {got!r}\n  want {want!r}")


def refused(parse, text):
    try:
        parse(text)
    except (ValueError, InputError):
        return True
    return False


# sizes: digits, then K M G T (powers of 1024), each optionally with i then B, any case
for text, want in (("4K", 4096), ("1M", 1 << 20), ("1G", 1 << 30), ("2T", 2 << 40), ("0", 0),
                   ("4096", 4096), ("4k", 4096), ("4KiB", 4096), ("4KB", 4096), ("4kib", 4096),
                   ("4Ki", 4096)):
    check(f"size {text!r} = {want}", units.parse_size(text), want)
for text in ("", "K", "-1", "+4", " 4K", "4K ", "4P", "4KBi", "4iB", "1.5M", "4 K", "0x10",
             "16777216T", "18446744073709551616"):
    check(f"size {text!r} refused", refused(units.parse_size, text), True)
check("size 16777215T = the largest T", units.parse_size("16777215T"), 16777215 << 40)

# ranges as --expect's @SIZES
for text, want in (("1:1M", (1, 1 << 20)), ("4K", (4096, 4096)), ("64K:", (65536, units.SIZE_MAX)),
                   (":8", (0, 8)), ("1M:1M", (1 << 20, 1 << 20))):
    check(f"range {text!r} = {want}", units.parse_size_range(text), want)
for text in (":", "1M:1K", "1:x", "x:1"):
    check(f"range {text!r} refused", refused(units.parse_size_range, text), True)
check("--sizes MIN:MAX '1:1M'", units.parse_min_max("1:1M"), (1, 1 << 20))
check("--sizes MAX '4M'", units.parse_min_max("4M"), (None, 4 << 20))
check("--sizes ':4M' refused (no MIN)", refused(units.parse_min_max, ":4M"), True)

# bit rates: strtod's number, K M G T powers of 1000, then '', bit, b, bps or bit/s
for text, want in (("100G", 100e9), ("100Gbit/s", 100e9), ("100Gbps", 100e9), ("100Gb", 100e9),
                   ("100gbit", 100e9), ("25G", 25e9), ("1.5T", 1.5e12), (".5K", 500.0),
                   ("1e3", 1000.0), ("1e3M", 1e9), ("0x10", 16.0), ("400", 400.0)):
    check(f"bit rate {text!r} = {want}", units.parse_bitrate(text), want)
for text in ("100Gb/s", "100 G", "G", "-1G", "0", "0G", "inf", "nan", "1e400", "100GB", "100Gbits",
             " 100G", "100GBPS", "1P"):
    check(f"bit rate {text!r} refused", refused(units.parse_bitrate, text), True)

# formatting
check("fmt_size", [units.fmt_size(s) for s in (1, 1023, 1024, 1536, 1 << 20, 3 << 30, 1 << 40)],
      ["1", "1023", "1K", "1536", "1M", "3G", "1024G"])
check("fmt_num", [units.fmt_num(x) for x in (None, 0, 12345.678, 1.23456, 0.000123456)],
      ["-", "0", "12346", "1.235", "0.0001235"])

# --expect
check("--expect string", expect.parse_expect("bw>=11000@4M,90%line@1M:,lat<=2.5,uniform@:64K,busbw>=1e9"), [
    {"text": "bw>=11000@4M", "kind": "bw", "value": 11000.0, "sizes": (4 << 20, 4 << 20)},
    {"text": "90%line@1M:", "kind": "line", "value": 90.0, "sizes": (1 << 20, units.SIZE_MAX)},
    {"text": "lat<=2.5", "kind": "lat", "value": 2.5, "sizes": None},
    {"text": "uniform@:64K", "kind": "uniform", "value": None, "sizes": (0, 64 << 10)},
    {"text": "busbw>=1e9", "kind": "busbw", "value": 1e9, "sizes": None}])
for text in ("", "bw>=1,", "bw<=1", "lat>=1", "bw>=-1", "bw>=+1", "bw>=0x10", "bw>=inf", "0%line",
             "90%lines", "bw>=1@", "bw>=1@4M:1K", "bw>=1@:", "bwx>=1", "lat<=1e400", "b" * 64):
    check(f"--expect {text!r} refused", refused(expect.parse_expect, text), True)
terms = expect.parse_expect("bw>=1@1K:4K")
check("a term applies within its sizes", [expect.applies(terms[0], s) for s in (512, 1024, 4096, 8192)],
      [False, True, True, False])

# the reader: a run killed while writing leaves its last line cut short
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "shm.1.fabperf_latency.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"type":"meta","program":"fabperf_latency","metric":"latency","columns":["size","p50"]}\n'
                '{"type":"row","size":1,"p50":1.5}\n'
                '\n'
                '{"type":"row","size":2,"p50":1.75}\n'
                '{"type":"row","size":4,"p5')
    r = results.read(path)
    check("reader: records before the cut", [x["type"] for x in r.records], ["meta", "row", "row"])
    check("reader: the last line is cut short", r.cut, True)
    check("reader: meta", r.meta["program"], "fabperf_latency")
    check("reader: rows", [(x["size"], x["p50"]) for x in r.rows], [(1, 1.5), (2, 1.75)])
    check("reader: no end record", r.end, None)
    check("reader: row of a size", r.row(2)["p50"], 1.75)
    check("reader: complete refuses a last line cut short", refused(lambda p: results.read(p, complete=True), path),
          True)
    r = results.parse('{"type":"meta","program":"fabperf_bw"}\n{"type":"end","status":"complete"}\n',
                      complete=True)
    check("parse: a program's output", ([x["type"] for x in r.records], r.cut, r.end["status"]),
          (["meta", "end"], False, "complete"))
    warnings = []
    meta, rows = results.read_result(path, warnings)
    check("read_result: rows", len(rows), 2)
    check("read_result: warnings", warnings, [f"{path}: last line is cut short; ignored",
                                              f"{path}: no end line, the run was cut short; its rows are used"])
    check("label from the file name", results.file_label(meta, path), "shm")
    with open(path, "a", encoding="utf-8") as f:
        f.write('\n{"type":"end","status":"complete","failures":0}\n')
    check("a line cut short before the last is refused", refused(results.read, path), True)
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"type":"meta","program":"fabperf_bw","metric":"bandwidth"}\n{"type":"row","size":8}\n'
                '{"type":"end","status":"complete","failures":0}\n')
    r = results.read_run([folder])[0]
    check("run folder: one result, whole", (r.meta["program"], len(r.rows), r.end["status"], r.cut),
          ("fabperf_bw", 1, "complete", False))
    check("records of a type", r.of("end"), [{"type": "end", "status": "complete", "failures": 0}])

print(f"{failures} failed")
sys.exit(1 if failures else 0)
