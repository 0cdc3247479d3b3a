#!/usr/bin/env python3
"""Run folders for test-baseline.sh: launches of fabperf_bw whose value at each size is drawn from
a known distribution, in the format the programs write.

  baseline_fixtures.py OUT LAUNCHES FACTOR SEED [BUFFERS] [MPI]
      LAUNCHES launches (label "fabric"), sizes 1K and 1M; a launch's median at a size is
      1000 x size class x FACTOR x (1 + 0.04 x N(0, 1)) MB/s, its within-launch CI +-1 %."""
import json
import os
import random
import sys

SIZES = {1024: 1.0, 1048576: 10.0}


def launch(out, k, factor, rng, buffers, mpi):
    meta = {"type": "meta", "program": "fabperf_bw", "version": "0.1.0", "metric": "bandwidth",
            "label": "fabric", "date": f"2026-12-01T10:{k // 60:02d}:{k % 60:02d}Z", "ranks": 2,
            "hosts": [{"name": "h1", "ranks": 1}, {"name": "h2", "ranks": 1}], "buffers": buffers,
            "mpi_library": mpi,
            "columns": ["size", "bw_mbps", "bw_p50_mbps", "bw_ci_lo_mbps", "bw_ci_hi_mbps", "samples"]}
    records = [meta]
    for size, level in SIZES.items():
        v = 1000 * level * factor * (1 + 0.04 * rng.gauss(0, 1))
        records.append({"type": "row", "size": size, "bw_mbps": v, "bw_p50_mbps": v, "bw_ci_lo_mbps": v * 0.99,
                        "bw_ci_hi_mbps": v * 1.01, "samples": 32})
    records.append({"type": "end", "status": "complete", "failures": 0})
    with open(os.path.join(out, f"fabric.{k + 1}.fabperf_bw.json"), "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in records)


def main(out, launches, factor, seed, buffers="H H", mpi="Open MPI v4.1.4"):
    os.makedirs(out, exist_ok=True)
    rng = random.Random(int(seed))
    for k in range(int(launches)):
        launch(out, k, float(factor), rng, buffers, mpi)


if __name__ == "__main__":
    main(*sys.argv[1:])
