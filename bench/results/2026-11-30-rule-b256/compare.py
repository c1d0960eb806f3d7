#!/usr/bin/env python3
"""call.sh's A/B: the row rule's rows of 4096 <= n < 16384 in blocks of 128, ITEMS 1 (vc) or of
256, ITEMS 4 (r). python3 compare.py > table.md"""
import csv, math
R = 'c'
def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))
def load(f):
    d = {}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        d[(r['type'], r['op'], int(r['m']), int(r['n']))] = r
    return d
print('# The row rule at 4096 <= n < 16384 (H200): CUB / tgm, median of three runs\n')
for s in ('rb', 'rule'):
    runs = {v: [load(f'{R}/{s}-{v}-{i}.csv') for i in (1, 2, 3)] for v in ('vc', 'r')}
    print(f'## --set {s}\n')
    print('| type | op | m x n | pick vc | pick r | vc (b) | r (b) | vc (c) | r (c) |')
    print('| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: |')
    g = {v: {t: [] for t in 'abc'} for v in runs}
    for k in runs['vc'][0]:
        med = {v: {t: sorted(float(r[k][f'cub_{t}']) / float(r[k][f'tgm_{t}']) for r in runs[v])[1] for t in 'abc'} for v in runs}
        for v in runs:
            for t in 'abc':
                g[v][t].append(med[v][t])
        pv, pr = runs['vc'][0][k]['pick'], runs['r'][0][k]['pick']
        if pv != pr:
            print(f"| {k[0]} | {k[1]} | {k[2]} x {k[3]} | {pv} | {pr} | {med['vc']['b']:.2f} | {med['r']['b']:.2f} | {med['vc']['c']:.2f} | {med['r']['c']:.2f} |")
    for v in runs:
        print(f"\n{v}: {len(g[v]['b'])} cells, geomean (a) {geo(g[v]['a']):.3f} (b) {geo(g[v]['b']):.3f} (c) {geo(g[v]['c']):.3f}; "
              f"lowest (b) {min(g[v]['b']):.2f} (c) {min(g[v]['c']):.2f}; below 1.00 (b) {sum(x < 1 for x in g[v]['b'])} (c) {sum(x < 1 for x in g[v]['c'])}")
    print()
