"""table.py DIR TYPE -- the embedded call (pick_ab's pick) in builds A, 4, 8, two runs each
(DIR/TYPE_{A,4,8}{1,2}.csv): the runs' mean (b) / (c) us and A over each (above 1: faster)."""
import csv
import statistics
import sys


def load(p):
    rows = [line for line in open(p) if not line.startswith('#')]
    return {(int(r['m']), int(r['n']), r['setting']): (float(r['b_us']), float(r['c_us']))
            for r in csv.DictReader(rows)}


d, ty = sys.argv[1], sys.argv[2]
runs = {v: [load(f'{d}/{ty}_{v}{i}.csv') for i in (1, 2)] for v in 'A48'}
print(f'| {ty} m x n | A (b) / (c) us | A / RA4 (b), (c) | A / RA8 (b), (c) |')
print('| --- | ---: | ---: | ---: |')
for k in runs['A'][0]:
    if k[2] != 'pick':
        continue
    t = {v: [statistics.mean(r[k][c] for r in runs[v]) for c in (0, 1)] for v in 'A48'}
    print(f"| {k[0]} x {k[1]} | {t['A'][0]:.2f} / {t['A'][1]:.2f} | {t['A'][0] / t['4'][0]:.3f}, "
          f"{t['A'][1] / t['4'][1]:.3f} | {t['A'][0] / t['8'][0]:.3f}, {t['A'][1] / t['8'][1]:.3f} |")
