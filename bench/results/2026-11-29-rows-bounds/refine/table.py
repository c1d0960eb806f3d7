"""table.py DIR -- pick_ab's pick (the embedded call) in builds A, W, R, two runs each
(DIR/ab_{A,W,R}{1,2}.csv): the runs' mean (b) / (c) us, A over W and A over R (above 1: the
build is faster than A)."""
import csv
import statistics
import sys


def load(p):
    rows = [line for line in open(p) if not line.startswith('#')]
    return {(int(r['m']), int(r['n']), r['setting']): (float(r['b_us']), float(r['c_us']))
            for r in csv.DictReader(rows)}


runs = {v: [load(f'{sys.argv[1]}/ab_{v}{i}.csv') for i in (1, 2)] for v in 'AWR'}
print('| m x n | A (b) / (c) us | W | R | A / W (b), (c) | A / R (b), (c) |')
print('| --- | ---: | ---: | ---: | ---: | ---: |')
for k in runs['A'][0]:
    if k[2] != 'pick':
        continue
    t = {v: [statistics.mean(r[k][c] for r in runs[v]) for c in (0, 1)] for v in 'AWR'}
    print(f"| {k[0]} x {k[1]} | {t['A'][0]:.2f} / {t['A'][1]:.2f} | {t['W'][0]:.2f} / {t['W'][1]:.2f} | "
          f"{t['R'][0]:.2f} / {t['R'][1]:.2f} | {t['A'][0] / t['W'][0]:.2f}, {t['A'][1] / t['W'][1]:.2f} | "
          f"{t['A'][0] / t['R'][0]:.2f}, {t['A'][1] / t['R'][1]:.2f} |")
