#!/usr/bin/env python3
"""Hostile environment and labels, and placement, in fabperf results.

setup DIR: writes the variables for tests/rank-env.sh (DIR/all/NAME, DIR/rank.R/NAME) and the
label (DIR/label). check FORMAT FILE DIR: asserts that the result records them exactly (text:
byte for byte through the documented escaping; JSON: with U+FFFD for each byte that is not valid
UTF-8) and that the placement of every rank is there and sane. Exit 1 with one line per failure.
"""
import os
import re
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from fabperf import results  # noqa: E402  (the tools' reader of fabperf results)

EVERY_BYTE = bytes(range(1, 256))
ALIKE = {
    "FI_FABPERF_EVERY_BYTE": EVERY_BYTE,
    "PSM3_FABPERF_TEST": b"psm3",
    "UCC_FABPERF_TEST": b"ucc",
    "SHARP_FABPERF_TEST": b"sharp",
    "HCOLL_FABPERF_TEST": b"hcoll",
    "I_MPI_FABPERF_TEST": b"impi",
    "CUDA_DEVICE_MAX_CONNECTIONS": b"1",
    "NCCL_FABPERF_ROW": b"a\n4096 0.01\n",
}
# Per rank; None: not set there.
PER_RANK = {
    "UCX_TLS": [b"sm,self", b"self,sm"],
    "MPICH_FABPERF_HOSTILE": [None, b"x\n4096 0.01\n\r\x85\xe2\x80\xa8\xff\xc3\"\\,end"],
}
LABEL = b'lbl "q" \\ ,; \xff\xc3 \xe2\x80\xa9 \xc3\xa9'


def utf8_length(data, i):
    """Bytes of the valid UTF-8 character at i, 0 when there is none (Python's strict decoder)."""
    for n in range(1, 5):
        try:
            if len(data[i:i + n].decode("utf-8")) == 1:
                return n
        except UnicodeDecodeError:
            pass
    return 0


def text_escape(data):
    """The text escaping documented in base/escape.h."""
    out, i = [], 0
    while i < len(data):
        n = utf8_length(data, i)
        if n == 0:
            out.append("\\x%02x" % data[i])
            i += 1
            continue
        ch = data[i:i + n].decode("utf-8")
        cp = ord(ch)
        named = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
        if ch in named:
            out.append(named[ch])
        elif cp < 0x20 or cp == 0x7F:
            out.append("\\x%02x" % cp)
        elif 0x80 <= cp <= 0x9F or cp in (0x2028, 0x2029):
            out.append("\\u%04x" % cp)
        else:
            out.append(ch)
        i += n
    return "".join(out)


def text_unescape(text):
    """Back to the bytes: the escaping must be reversible."""
    def one(match):
        s = match.group(1)
        if s[0] == "x":  # a byte: above 0x7f it is not UTF-8, kept as a surrogate escape
            byte = int(s[1:], 16)
            return chr(0xDC00 + byte) if byte >= 0x80 else chr(byte)
        if s[0] == "u":
            return chr(int(s[1:], 16))
        return {"\\": "\\", "n": "\n", "r": "\r", "t": "\t"}[s]
    decoded = re.sub(r"\\(\\|n|r|t|x[0-9a-f]{2}|u[0-9a-f]{4})", one, text)
    return decoded.encode("utf-8", "surrogateescape")


def json_form(data):
    """What a JSON decoder gives back: U+FFFD for each byte that is not valid UTF-8."""
    out, i = [], 0
    while i < len(data):
        n = utf8_length(data, i)
        out.append(data[i:i + n].decode("utf-8") if n else "\ufffd")
        i += n or 1
    return "".join(out)


def setup(directory):
    os.makedirs(os.path.join(directory, "all"), exist_ok=True)
    for name, value in ALIKE.items():
        with open(os.path.join(directory, "all", name), "wb") as f:
            f.write(value)
    for name, values in PER_RANK.items():
        for rank, value in enumerate(values):
            os.makedirs(os.path.join(directory, f"rank.{rank}"), exist_ok=True)
            if value is not None:
                with open(os.path.join(directory, f"rank.{rank}", name), "wb") as f:
                    f.write(value)
    with open(os.path.join(directory, "label"), "wb") as f:
        f.write(LABEL)


def cpu_set(text):
    cpus = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def numa_of(cpu):
    try:
        nodes = [e for e in os.listdir(f"/sys/devices/system/cpu/cpu{cpu}") if re.fullmatch(r"node\d+", e)]
    except OSError:
        return -1
    return int(nodes[0][4:]) if nodes else -1


class Checker:
    def __init__(self, nranks, cpus):
        self.errors = []
        self.nranks = nranks
        self.cpus = cpus

    def expect(self, ok, message):
        if not ok:
            self.errors.append(message)

    def place(self, rank, host, cpus, cpu, numa, gpu, nic, when):
        self.expect(host == socket.gethostname(), f"rank {rank}: host {host!r}, expected {socket.gethostname()!r}")
        try:
            allowed = cpu_set(cpus)
        except ValueError:
            self.expect(False, f"rank {rank}: cpus {cpus!r} is not a CPU list")
            return
        if self.cpus is not None:
            self.expect(allowed == cpu_set(self.cpus), f"rank {rank}: cpus {cpus!r}, expected {self.cpus}")
        self.expect(cpu in allowed, f"rank {rank}: cpu {cpu} at {when} is not in its affinity {cpus}")
        self.expect(numa == numa_of(cpu), f"rank {rank}: numa {numa} at {when}, sysfs says {numa_of(cpu)}")
        self.expect(gpu is None, f"rank {rank}: gpu {gpu!r} with host buffers")
        self.expect(nic == "unknown", f"rank {rank}: nic {nic!r}")

    def check_json(self, data):
        records = results.parse(data.decode("utf-8"), complete=True).records
        meta, end = records[0], records[-1]
        self.expect(meta.get("label") == json_form(LABEL), f"label {meta.get('label')!r}")
        for name, value in ALIKE.items():
            self.expect(meta["env"].get(name) == json_form(value), f"env {name}: {meta['env'].get(name)!r}")
        for name, values in PER_RANK.items():
            want = []
            for rank, value in enumerate(values):
                want.append({"value": None if value is None else json_form(value), "ranks": [rank]})
            got = meta["env_differs"].get(name)
            self.expect(got == want, f"env_differs {name}: {got!r}, expected {want!r}")
            self.expect(name not in meta["env"], f"{name} differs but is in env")
        places = meta.get("placement", [])
        self.expect(len(places) == self.nranks, f"{len(places)} placements for {self.nranks} ranks")
        ends = end.get("placement_end", [])
        self.expect(len(ends) == self.nranks, f"end record: {len(ends)} placements")
        for p, e in zip(places, ends):
            self.expect(p["rank"] == e["rank"], "placement ranks out of order")
            self.place(p["rank"], p["host"], p["cpus"], p["cpu_start"], p["numa_start"], p["gpu"], p["nic"], "start")
            self.place(p["rank"], p["host"], p["cpus"], e["cpu_end"], e["numa_end"], p["gpu"], p["nic"], "end")

    def check_text(self, data):
        text = data.decode("utf-8")  # strict: every byte that is not UTF-8 was escaped
        lines = text.split("\n")
        self.expect(lines == text.splitlines() + [""], "a line holds a character that ends lines elsewhere")
        labels = [l[len("# label: "):] for l in lines if l.startswith("# label: ")]
        self.expect(labels == [text_escape(LABEL)], f"label lines {labels!r}")
        self.expect(text_unescape(labels[0]) == LABEL if labels else False, "the label does not unescape to itself")
        env = [l for l in lines if l.startswith("# env: ")]
        self.expect(len(env) == 1, f"{len(env)} '# env:' lines")
        for name, value in ALIKE.items():
            self.expect(env and f" {name}={text_escape(value)}" in env[0] + " ", f"env line lacks {name}")
            self.expect(text_unescape(text_escape(value)) == value, f"{name} does not unescape to itself")
        for name, values in PER_RANK.items():
            parts = [f"{name} unset on rank {r}" if v is None else f"{name}={text_escape(v)} on rank {r}"
                     for r, v in enumerate(values)]
            want = "# env differs between ranks: " + "; ".join(parts)
            self.expect(want in lines, f"no line {want!r}")
        rank_line = re.compile(r"^# rank (\d+): host (.*), cpus (\S+), at start on cpu (-?\d+) \(numa (-?\d+|unknown)\),"
                               r" gpu (\S+), nic (\S+)$")
        found = [rank_line.match(l) for l in lines if rank_line.match(l)]
        self.expect([int(m.group(1)) for m in found] == list(range(self.nranks)), "no '# rank R:' line per rank")
        for m in found:
            numa = -1 if m.group(5) == "unknown" else int(m.group(5))
            self.place(int(m.group(1)), text_unescape(m.group(2)).decode(), m.group(3), int(m.group(4)), numa,
                       None if m.group(6) == "none" else m.group(6), m.group(7), "start")
        ends = [l for l in lines if l.startswith("# cpu at end: ")]
        self.expect(len(ends) == 1, f"{len(ends)} '# cpu at end:' lines")


def main():
    if sys.argv[1] == "setup":
        setup(sys.argv[2])
        return 0
    fmt, path, nranks = sys.argv[2], sys.argv[3], int(sys.argv[4])
    checker = Checker(nranks, sys.argv[5] if len(sys.argv) > 5 else None)
    with open(path, "rb") as f:
        data = f.read()
    try:
        getattr(checker, "check_" + fmt)(data)
    except (ValueError, KeyError, IndexError) as error:
        checker.expect(False, f"{fmt} result does not parse: {error!r}")
    for error in checker.errors:
        print("  " + error)
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
