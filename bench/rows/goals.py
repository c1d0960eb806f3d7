#!/usr/bin/env python3
"""goals.py REPORT.md -- issue 12's three goals over the sweep tables of a
report bench/rows/heatmap.py wrote, and where each cell that misses one
stands against its floor (the shape's bytes at a plain read's rate,
gpu_timing.h's bytes_floor, timed in the same call: floor/tgm 1.00 means
tgm is as fast as a plain read of those bytes).

  A: m n >= 2^24 at >= 2.9 TB/s
  B: >= 1.5x the better peer where that peer reads < 2 TB/s
  C: never below 1.0x the better peer
"""
import re
import statistics as st
import sys


def tables(path):
    name, cells = None, []
    for line in open(path):
        m = re.match(r"## Sweep: (\w+), sum (\w+)", line)
        if m:
            if name:
                yield name, cells
            name, cells = f"{m.group(1)} {m.group(2)}", []
            continue
        if name and line.startswith("| 2^"):
            f = [x.strip() for x in line.strip().strip("|").split("|")]
            e = int(f[0][2:])
            try:
                cells.append(dict(e=e, n=f[1], pick=f[2], us=float(f[3]), tbps=float(f[4]),
                                  floor=float(f[5]), peer=f[6], ratio=float(f[7])))
            except ValueError:
                pass
    if name:
        yield name, cells


def summary(label, cells):
    if not cells:
        return f"{label}: 0"
    fl = [c["floor"] for c in cells]
    return (f"{label}: {len(cells)} (floor/tgm {min(fl):.2f}-{max(fl):.2f}, median {st.median(fl):.2f};"
            f" {sum(f >= 0.95 for f in fl)} at >= 0.95 of the floor)")


for path in sys.argv[1:]:
    print(f"# {path}")
    for name, cells in tables(path):
        big = [c for c in cells if c["e"] >= 24]
        a = [c for c in big if c["tbps"] < 2.9]
        slow_peer = [c for c in cells if 4.0 * 2 ** c["e"] / (c["us"] * c["ratio"]) * 1e-6 < 2.0]
        b = [c for c in slow_peer if c["ratio"] < 1.5]
        cc = [c for c in cells if c["ratio"] < 1.0]
        print(f"{name}: {len(cells)} cells")
        print("  " + summary(f"A misses ({len(big)} cells of m n >= 2^24)", a))
        print("  " + summary(f"B misses ({len(slow_peer)} cells with a peer < 2 TB/s)", b))
        print("  " + summary("C misses", cc))
