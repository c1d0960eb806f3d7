#!/usr/bin/env python3
"""table.py RUN.csv ... -- pick_ab's column settings: the pick and the four
fastest in (b) and the two fastest in (c), mean over the runs given, and
the fastest / the pick."""
import collections
import csv
import statistics as st
import sys

d, shapes = collections.defaultdict(list), []
for path in sys.argv[1:]:
    f = open(path)
    next(f)  # the device line
    for row in csv.DictReader(f):
        s = row["m"] + " x " + row["n"]
        if s not in shapes:
            shapes.append(s)
        d[(s, row["setting"])].append((float(row["b_us"]), float(row["c_us"])))
print("| m x n | pick (b) / (c) us | fastest in (b): us (pick / it) | fastest in (c) |")
print("| --- | ---: | --- | --- |")
for s in shapes:
    ks = [k for (ss, k) in d if ss == s]
    mean = lambda k, i: st.mean(x[i] for x in d[(s, k)])
    pb, pc = mean("pick", 0), mean("pick", 1)
    fb = sorted(ks, key=lambda k: mean(k, 0))[:4]
    fc = sorted(ks, key=lambda k: mean(k, 1))[:2]
    print(f"| {s} | {pb:.2f} / {pc:.2f} | " + ", ".join(f"{k} {mean(k, 0):.2f} ({pb / mean(k, 0):.2f})" for k in fb)
          + " | " + ", ".join(f"{k} {mean(k, 1):.2f} ({pc / mean(k, 1):.2f})" for k in fc) + " |")
