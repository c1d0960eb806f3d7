"""ab.py -- per shape of pick_ab's CSVs (mean of the runs): the pick, CUB,
the best setting in (b) and in (c), and named settings, as ratios to the pick.
    python3 ab.py rw1.csv rw2.csv [SETTING ...]"""
import collections
import csv
import sys

files = [a for a in sys.argv[1:] if a.endswith(".csv")]
named = [a for a in sys.argv[1:] if not a.endswith(".csv")]
d = collections.defaultdict(lambda: collections.defaultdict(list))
for f in files:
    for r in csv.DictReader(l for l in open(f) if not l.startswith("#")):
        d[(int(r["m"]), int(r["n"]))][r["setting"]].append((float(r["b_us"]), float(r["c_us"])))
print("| m x n | pick (b) us | CUB / pick (b) | (c) | best (b) | pick / best (b) | best (c) | pick / best (c) |"
      + "".join(f" {s} (b) | (c) |" for s in named))
print("| --- | ---: | ---: | ---: | --- | ---: | --- | ---: |" + " ---: | ---: |" * len(named))
for k, v in d.items():
    avg = {s: tuple(sum(x[i] for x in l) / len(l) for i in (0, 1)) for s, l in v.items()}
    cand = [s for s in avg if s not in ("pick", "cub")] or ["pick"]
    bb = min(cand, key=lambda s: avg[s][0])
    bc = min(cand, key=lambda s: avg[s][1])
    p, c = avg["pick"], avg.get("cub", (float("nan"),) * 2)
    row = (f"| {k[0]} x {k[1]} | {p[0]:.2f} | {c[0] / p[0]:.3f} | {c[1] / p[1]:.3f} | {bb} | {p[0] / avg[bb][0]:.3f} | "
           f"{bc} | {p[1] / avg[bc][1]:.3f} |")
    for s in named:
        row += f" {p[0] / avg[s][0]:.3f} | {p[1] / avg[s][1]:.3f} |" if s in avg else " — | — |"
    print(row)
