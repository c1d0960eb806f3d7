#!/usr/bin/env python3
"""The packed-rows A/B (ab/): per shape, (b) and (c) us of this change's pick (RW.SS b256 p1,
packed rows read as vectors), its RW settings, CUB, and the pick before the change (old*.csv),
with old pick / this for each run; usage: table.py DIR"""
import csv, collections, glob, os, sys
d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
t = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    tag = "old " if os.path.basename(f).startswith("old") else ""
    for r in csv.reader(l for l in open(f) if not l.startswith("#")):
        if r[0] != "rows":
            continue
        t[(int(r[1]), int(r[2]))][tag + r[3]].append((float(r[4]), float(r[5])))
gm = {"b": [], "c": []}
for (m, n) in sorted(t, key=lambda s: (s[1], s[0])):
    rows = t[(m, n)]
    old = rows.get("old pick")
    print(f"\n{m} x {n} (old pick: {' '.join('%.1f/%.1f' % x for x in old) if old else '-'})")
    print("| setting | (b) us | (c) us | old pick / it (b) | (c) |\n| --- | ---: | ---: | ---: | ---: |")
    for s, v in sorted(rows.items(), key=lambda kv: min(x[0] for x in kv[1])):
        b = min(x[0] for x in v); c = min(x[1] for x in v)
        ob = min(x[0] for x in old) if old else float("nan"); oc = min(x[1] for x in old) if old else float("nan")
        print(f"| {s} | {' '.join('%.2f' % x[0] for x in v)} | {' '.join('%.2f' % x[1] for x in v)} | {ob / b:.3f} | {oc / c:.3f} |")
        if s == "pick" and old:
            gm["b"].append(ob / b); gm["c"].append(oc / c)
import math
for k, v in gm.items():
    print(f"\nold pick / pick ({k}): geomean {math.exp(sum(map(math.log, v)) / len(v)):.3f}, min {min(v):.3f}, max {max(v):.3f} over {len(v)} shapes")
