"""table.py CSV -- pick_ab's rows (PICK_AB_GRID=0) a line a shape: the pick's (b) / (c) us and
its time over each generated RA setting's ("pP": P blocks a row; above 1 RA is faster)."""
import csv
import sys

rows = [line for line in open(sys.argv[1]) if not line.startswith('#')]
shapes = {}
for r in csv.DictReader(rows):
    shapes.setdefault((int(r['m']), int(r['n'])), []).append((r['setting'], float(r['b_us']), float(r['c_us'])))
print("| m x n | 2^ | pick (b) / (c) us | pick / RA, (b) / (c), at P blocks a row |")
print("| --- | ---: | ---: | --- |")
for (m, n), v in shapes.items():
    pick = [x for x in v if x[0] == 'pick'][0]
    ra = [x for x in v if x[0].startswith('RA')]
    print(f"| {m} x {n} | {(m * n).bit_length() - 1} | {pick[1]:.2f} / {pick[2]:.2f} | " +
          ", ".join(f"{x[0].split()[-1]} {pick[1] / x[1]:.2f} / {pick[2] / x[2]:.2f}" for x in ra) + " |")
