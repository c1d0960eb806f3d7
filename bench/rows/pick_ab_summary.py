"""pick_ab_summary.py -- bench/rows/pick_ab.cu's csv, a line a shape: the pick,
its variants (pick-*), and the four fastest settings, as (b)/(c) us.

    python3 bench/rows/pick_ab_summary.py AB.csv > summary.txt
"""
import csv
import sys
from collections import defaultdict


def main():
    rows = [r for r in csv.DictReader(line for line in open(sys.argv[1]) if not line.startswith("#"))]
    shapes = defaultdict(list)
    for r in rows:
        shapes[(r["shape"], int(r["m"]), int(r["n"]))].append((float(r["b_us"]), float(r["c_us"]), r["setting"]))
    for (shape, m, n), v in shapes.items():
        pick = [x for x in v if x[2] == "pick"]
        extra = " ".join(f"{s} {b:.2f}/{c:.2f}" for b, c, s in v if s.startswith("pick-"))
        fast = "; ".join(f"{s} {b:.2f}/{c:.2f}" for b, c, s in sorted(v)[:4])
        head = f"pick {pick[0][0]:.2f}/{pick[0][1]:.2f}" if pick else "pick —"
        print(f"{shape} {m} x {n}: {head} {extra} | fastest: {fast}")


if __name__ == "__main__":
    main()
