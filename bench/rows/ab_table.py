#!/usr/bin/env python3
"""ab_table.py DIR -- the embedded call's pick before ("A", DIR/ab_A*.csv) and after ("E",
DIR/ab_E*.csv) a change of the headers: bench/rows/pick_ab.cu (PICK_AB_GRID=0) built with
each, run in separate processes, alternated (bench/results/2026-11-29-cols-parts/call4.sh).
A line a shape: the mean (b) and (c) of each, the ratio A / E (above 1: the change is
faster) and each run's (c), to show the spread."""
import collections
import csv
import glob
import math
import statistics as st
import sys

d, shapes = collections.defaultdict(list), []
for path in sorted(glob.glob(sys.argv[1] + "/ab_[AE]*.csv")):
    side = path.rsplit("/", 1)[1][3]
    f = open(path)
    next(f)
    for row in csv.DictReader(f):
        if row["setting"] != "pick":
            continue
        s = row["m"] + " x " + row["n"]
        if s not in shapes:
            shapes.append(s)
        d[(s, side)].append((float(row["b_us"]), float(row["c_us"])))
print("| m x n | 2^ | A (b) / (c) us | E (b) / (c) us | A/E (b) | A/E (c) | runs (c): A; E |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
gb, gc = [], []
for s in shapes:
    a, e = d[(s, "A")], d[(s, "E")]
    m, n = map(int, s.split(" x "))
    ab, ac, eb, ec = (st.mean(x[i] for x in y) for y in (a, e) for i in (0, 1))
    print(f"| {s} | {math.log2(m * n):.1f} | {ab:.2f} / {ac:.2f} | {eb:.2f} / {ec:.2f} | {ab / eb:.2f} | "
          f"{ac / ec:.2f} | {', '.join(f'{x[1]:.2f}' for x in a)}; {', '.join(f'{x[1]:.2f}' for x in e)} |")
