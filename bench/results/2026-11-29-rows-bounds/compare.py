"""compare.py -- gpu_rows --bench csvs of header builds, two runs each (DIR/K1.csv, DIR/K2.csv):
per cell the mean of the runs' tgm (b) and (c) us and CUB / tgm (CUB: the mean over the build's
runs and the first build's), then each build's geomean and lowest CUB / tgm.

    python3 compare.py DIR A,L,W,N
"""
import csv
import math
import statistics
import sys


def load(p):
    rows = [line for line in open(p) if not line.startswith('#')]
    return {(r['type'], r['op'], int(r['m']), int(r['n'])): r for r in csv.DictReader(rows)}


def main():
    d, builds = sys.argv[1], sys.argv[2].split(',')
    runs = {v: [load(f"{d}/{v}{i}.csv") for i in (1, 2)] for v in builds}
    print("| type op m x n | pick | " + " | ".join(f"{v} (b) / (c) us, CUB/{v}" for v in builds) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in builds) + " |")
    ratios = {v: [] for v in builds}
    for k, first in runs[builds[0]][0].items():
        if first['shape'] != 'rows':
            continue
        line = f"| {k[0]} {k[1]} {k[2]} x {k[3]} | {first['pick']} |"
        for v in builds:
            mean = lambda col, rs: statistics.mean(float(r[k][col]) for r in rs)
            b, c = mean('tgm_b', runs[v]), mean('tgm_c', runs[v])
            cb, cc = mean('cub_b', runs[v] + runs[builds[0]]), mean('cub_c', runs[v] + runs[builds[0]])
            ratios[v].append((cb / b, cc / c))
            line += f" {b:.2f} / {c:.2f}, {cb / b:.2f} / {cc / c:.2f} |"
        print(line)
    print()
    for v in builds:
        g = [math.exp(statistics.mean(math.log(x[i]) for x in ratios[v])) for i in (0, 1)]
        lo = [min(x[i] for x in ratios[v]) for i in (0, 1)]
        print(f"- {v}: geomean CUB / tgm (b) {g[0]:.3f}, (c) {g[1]:.3f}; lowest {lo[0]:.3f} / {lo[1]:.3f}")


main()
