"""coop_table.py -- the tables of bench/coop/coop_ab.cu's csv.

    python3 bench/coop/coop_table.py COOP.csv > table.md

Per timing ((a) stream, (b) one call after an L2 flush, (c) a CUDA graph):
each size's CUB and tgm times and the six fastest kinds (us); then CUB's
time over each kind's (the best of its grids), per size and timing: above
1, the kind is faster than CUB.
"""
import csv
import sys
from collections import defaultdict

KINDS = ("tgm", "last", "last0", "coop", "two", "pdl", "cluster8", "cluster16", "one", "one256", "vec8", "vec8h",
         "bulk4x8192", "bulk5x8192", "bulk2x16384", "bulk4x4096")


def main():
    rows = [r for r in csv.DictReader(line for line in open(sys.argv[1]) if not line.startswith("#"))]
    by, best = defaultdict(dict), defaultdict(dict)
    for r in rows:
        n, kind = int(r["n"]), r["kind"]
        t = (float(r["a_us"]), float(r["b_us"]), float(r["c_us"]))
        single = kind not in ("last", "last0", "coop", "two", "pdl")
        by[n][kind if single else f"{kind}/g{r['grid']}"] = t
        if kind not in best[n] or t[1] < best[n][kind][1]:
            best[n][kind] = t
    print(f"# {open(sys.argv[1]).readline().lstrip('# ').strip()}\n")
    for i, name in enumerate(("(a) stream", "(b) one call", "(c) graph")):
        print(f"## {name}: us, the six fastest\n")
        print("| n | CUB | tgm | fastest |\n| --- | ---: | ---: | --- |")
        for n, d in sorted(by.items()):
            fast = sorted(d.items(), key=lambda kv: kv[1][i])[:6]
            print(f"| 2^{n.bit_length() - 1} | {d['cub'][i]:.2f} | {d['tgm'][i]:.2f} | "
                  + ", ".join(f"{k} {v[i]:.2f}" for k, v in fast) + " |")
        print()
    print("## CUB / kind (the best grid of each), (a) / (b) / (c)\n")
    print("| n | " + " | ".join(KINDS) + " |\n| --- |" + " ---: |" * len(KINDS))
    for n, d in sorted(best.items()):
        cub = d["cub"]
        cells = ["/".join(f"{cub[i] / d[k][i]:.2f}" for i in range(3)) if k in d else "—" for k in KINDS]
        print(f"| 2^{n.bit_length() - 1} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
