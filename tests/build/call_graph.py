#!/usr/bin/env python3
"""The library's files call each other in no circle: from the object files of libfabperf.a in a
build tree (nm), which file defines each symbol and which files use it; any cycle of files is
printed and fails. Usage: call_graph.py BUILD_DIR. Exit 0 none, 1 with the cycles, 77 no objects."""
import collections
import glob
import os
import subprocess
import sys


def symbols(path):
    defined, used = set(), set()
    for line in subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBR":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def cycles(calls):
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(calls.get(node, ())):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path)
        path.pop()
        state[node] = "done"

    for node in sorted(calls):
        if node not in state:
            visit(node, [])
    return found


def main(build):
    objects = glob.glob(os.path.join(build, "*", "libfabperf_a-*.o"))
    if not objects:
        print(f"no objects of libfabperf.a under {build}")
        return 77
    defined, used = {}, {}
    for o in objects:
        name = os.path.relpath(o, build).replace("libfabperf_a-", "")[:-2] + ".c"
        defined[name], used[name] = symbols(o)
    owner = {s: name for name, syms in defined.items() for s in syms}
    calls = collections.defaultdict(set)
    for name, syms in used.items():
        calls[name] |= {owner[s] for s in syms if s in owner and owner[s] != name}
    found = cycles(calls)
    for c in found:
        print("  files that call each other: " + " -> ".join(c))
    print(f"{len(objects)} files of libfabperf.a, {sum(len(v) for v in calls.values())} calls between them, "
          f"{len(found)} circle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
