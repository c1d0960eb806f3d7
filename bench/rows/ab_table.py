#!/usr/bin/env python3
"""ab_table.py DIR [BUILDS] -- the embedded call's pick in builds of the headers, before ("A",
DIR/ab_A*.csv) and after ("E", DIR/ab_E*.csv) a change, or the one-letter builds BUILDS names
(e.g. A,W,R: A first, the others measured against it): bench/rows/pick_ab.cu (PICK_AB_GRID=0)
built with each, run in separate processes, alternated (bench/results/2026-11-29-cols-parts/
call4.sh). A line a shape: the mean (b) and (c) of each build, the ratio of A to each other
(above 1: that build is faster) and each run's (c), to show the spread."""
import collections
import csv
import glob
import math
import statistics as st
import sys

builds = sys.argv[2].split(",") if len(sys.argv) > 2 else ["A", "E"]
d, shapes = collections.defaultdict(list), []
for path in sorted(glob.glob(sys.argv[1] + "/ab_*.csv")):
    side = path.rsplit("/", 1)[1][3]
    if side not in builds:
        continue
    f = open(path)
    next(f)
    for row in csv.DictReader(f):
        if row["setting"] != "pick":
            continue
        s = row["m"] + " x " + row["n"]
        if s not in shapes:
            shapes.append(s)
        d[(s, side)].append((float(row["b_us"]), float(row["c_us"])))
first, rest = builds[0], builds[1:]
print("| m x n | 2^ | " + " | ".join(f"{b} (b) / (c) us" for b in builds) + " | " +
      " | ".join(f"{first}/{b} (b) | {first}/{b} (c)" for b in rest) + f" | runs (c): {'; '.join(builds)} |")
print("| --- | ---: | " + " | ".join("---:" for _ in builds) + " | " + " | ".join("---: | ---:" for _ in rest) +
      " | --- |")
for s in shapes:
    m, n = map(int, s.split(" x "))
    t = {b: [st.mean(x[i] for x in d[(s, b)]) for i in (0, 1)] for b in builds}
    print(f"| {s} | {math.log2(m * n):.1f} | " + " | ".join(f"{t[b][0]:.2f} / {t[b][1]:.2f}" for b in builds) +
          " | " + " | ".join(f"{t[first][0] / t[b][0]:.2f} | {t[first][1] / t[b][1]:.2f}" for b in rest) + " | " +
          "; ".join(", ".join(f"{x[1]:.2f}" for x in d[(s, b)]) for b in builds) + " |")
