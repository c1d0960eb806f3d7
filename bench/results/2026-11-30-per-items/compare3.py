#!/usr/bin/env python3
"""call3.sh's A/B: the row kernels' launch bounds a path of items. python3 compare3.py > table3.md"""
import csv, math, re
R = 'c3/r'
V = ['base', 'v0', 'vc', 'vi1', 'vi1b']
def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))
def load(f):
    d = {}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        d[(r['type'], r['op'], int(r['m']), int(r['n']))] = r
    return d
print('# Row kernels\' launch bounds a path of items (H200): CUB / tgm of the rule\'s picks, two runs\n')
print('| set | variant | cells | geomean (a) | geomean (b) | geomean (c) | lowest (b) | lowest (c) | below 1.00 (b) | below 1.00 (c) |')
print('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
low = {}
for s in ('rb', 'rule', 'mid'):
    for v in V:
        runs = [load(f'{R}/{s}-{v}-{i}.csv') for i in (1, 2)]
        g = {t: [float(r[k][f'cub_{t}']) / float(r[k][f'tgm_{t}']) for r in runs for k in r] for t in 'abc'}
        for r in runs:
            for k in r:
                low.setdefault((s,) + k, {}).setdefault(v, []).append(float(r[k]['cub_c']) / float(r[k]['tgm_c']))
        print(f"| {s} | {v} | {len(g['b'])} | {geo(g['a']):.3f} | {geo(g['b']):.3f} | {geo(g['c']):.3f} | {min(g['b']):.2f} | {min(g['c']):.2f} | "
              f"{sum(x < 1 for x in g['b'])} | {sum(x < 1 for x in g['c'])} |")
print('\n## Cells where a variant moves by more than 4 % from base in (c) (mean of two runs)\n')
print('| set | type | op | m x n | pick | ' + ' | '.join(V) + ' |')
print('| --- | --- | --- | --- | --- | ' + ' | '.join('---:' for _ in V) + ' |')
picks = {}
for s in ('rb', 'rule', 'mid'):
    r = load(f'{R}/{s}-vc-1.csv')
    for k in r:
        picks[(s,) + k] = r[k]['pick']
for k, d in low.items():
    m = {v: sum(x) / len(x) for v, x in d.items()}
    if any(abs(m[v] / m['base'] - 1) > 0.04 for v in V[1:]):
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} x {k[4]} | {picks.get(k, '')} | " + ' | '.join(f'{m[v]:.2f}' for v in V) + ' |')
def ab(f):
    d = {}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        d[(int(r['m']), int(r['n']), r['setting'])] = (float(r['b_us']), float(r['c_us']))
    return d
print('\n## pick_ab (sum f32): base / variant time by kind of setting, geomean over settings (> 1: the variant faster), (c)\n')
A = {v: [ab(f'{R}/ab-{v}-{i}.csv') for i in (1, 2)] for v in V}
kinds = {}
for k in A['base'][0]:
    if k[2] == 'cub' or not all(k in r for v in V for r in A[v]):
        continue
    it = re.search(r' i(\d+)', k[2])
    kind = (k[2][:2] + (f' i{it.group(1)}' if it else '')) if k[2][:2] in ('RB', 'RL', 'RA', 'RW') else k[2][:8]
    mean = {v: sum(r[k][1] for r in A[v]) / 2 for v in V}
    kinds.setdefault(kind, []).append({v: mean['base'] / mean[v] for v in V[1:]})
print('| setting | count | ' + ' | '.join(V[1:]) + ' |')
print('| --- | ---: | ' + ' | '.join('---:' for _ in V[1:]) + ' |')
for kind, l in sorted(kinds.items()):
    print(f'| {kind} | {len(l)} | ' + ' | '.join(f"{geo([x[v] for x in l]):.3f} ({min(x[v] for x in l):.2f})" for v in V[1:]) + ' |')
print('\n## pick_ab: the best setting of each shape, CUB / best (c)\n')
print('| m x n | ' + ' | '.join(V) + ' |')
print('| --- | ' + ' | '.join('---' for _ in V) + ' |')
for shape in dict.fromkeys(k[:2] for k in A['base'][0]):
    cells = []
    for v in V:
        runs = A[v]
        cub = sum(r[shape + ('cub',)][1] for r in runs) / 2
        cand = [(sum(r[k][1] for r in runs) / 2, k[2]) for k in runs[0] if k[:2] == shape and k[2] != 'cub' and all(k in r for r in runs)]
        b = min(cand)
        cells.append(f'{cub / b[0]:.3f} {b[1]}')
    print(f'| {shape[0]} x {shape[1]} | ' + ' | '.join(cells) + ' |')
