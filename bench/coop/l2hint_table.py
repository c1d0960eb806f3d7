#!/usr/bin/env python3
"""l2hint_table.py RUN.csv ... -- the table of bench/coop/l2hint_ab.cu's runs:
TB/s a kind and size (median over the rounds of every file given, min-max),
and at 2^30 the kind over the same layout with plain loads (CUB and tgm: over
s256x4.plain, the one-wave grid stride)."""
import collections
import csv
import statistics as st
import sys

d = collections.defaultdict(list)
for f in sys.argv[1:]:
    for r in csv.DictReader(open(f)):
        d[(r["kind"], int(r["n"]))].append(float(r["tbps"]))
kinds = sorted({k for k, _ in d}, key=lambda k: (k.split(".")[0], k))
ns = sorted({n for _, n in d})
top = ns[-1]
print("| kind | " + " | ".join(f"2^{n.bit_length() - 1} TB/s median (min-max)" for n in ns)
      + f" | 2^{top.bit_length() - 1} / plain |")
print("| --- |" + " ---: |" * (len(ns) + 1))
for k in kinds:
    ref = "s256x4.plain" if k in ("cub", "tgm") else k.split(".")[0] + ".plain"
    plain = st.median(d[(ref, top)]) if (ref, top) in d else st.median(d[(k, top)])
    cells = " | ".join(f"{st.median(d[k, n]):.3f} ({min(d[k, n]):.3f}-{max(d[k, n]):.3f})" for n in ns)
    print(f"| {k} | {cells} | {st.median(d[k, top]) / plain:.3f} |")
