"""compare.py -- old / new per shape and op of gpu_rows --set rule (mean of the
runs), with CUB / new: python3 compare.py new1.csv new2.csv -- old1.csv old2.csv"""
import collections
import csv
import math
import sys

cut = sys.argv.index("--")


def load(paths):
    d = collections.defaultdict(list)
    picks = {}
    for p in paths:
        for r in csv.DictReader(l for l in open(p) if not l.startswith("#")):
            k = (r["type"], r["op"], int(r["m"]), int(r["n"]))
            d[k].append([float(r[f"tgm_{x}"]) for x in "abc"] + [float(r[f"cub_{x}"]) for x in "abc"])
            picks[k] = r["pick"]
    return {k: [sum(x[i] for x in v) / len(v) for i in range(6)] for k, v in d.items()}, picks


new, pn = load(sys.argv[1:cut])
old, po = load(sys.argv[cut + 1:])
print("| type | op | m x n | old pick | new pick | old/new (a) | (b) | (c) | CUB/new (b) | CUB/old (b) |")
print("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
ratios = []
for k in new:
    n, o = new[k], old[k]
    r = [o[i] / n[i] for i in range(3)]
    if pn[k] != po[k]:
        ratios.append(r)
    print(f"| {k[0]} | {k[1]} | {k[2]} x {k[3]} | {po[k]} | {pn[k]} | {r[0]:.3f} | {r[1]:.3f} | {r[2]:.3f} | "
          f"{n[4] / n[1]:.3f} | {o[4] / o[1]:.3f} |")
g = [math.exp(sum(math.log(x[i]) for x in ratios) / len(ratios)) for i in range(3)]
print(f"\nwhere the pick changed ({len(ratios)}): geomean old/new (a) {g[0]:.3f} (b) {g[1]:.3f} (c) {g[2]:.3f}, "
      f"min (b) {min(x[1] for x in ratios):.3f}")
