#!/usr/bin/env python3
"""The A/B of bench/results/2026-11-30-rows-vw: pick_ab (ab/) and gpu_rows --set rb (rb/).
python3 compare.py > table.md"""
import csv, math, re

def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))

def pick_ab(f):
    d = {}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        d[(int(r['m']), int(r['n']), re.sub(r'\.(VS|VW)\.', '.', r['setting']))] = (float(r['b_us']), float(r['c_us']))
    return d

print('# rows VW against VS (H200): base / vw time ratios (> 1: VW faster)\n')
print('## pick_ab: every setting, median of 3 runs each, (b) one call and (c) graph\n')
print('| type | kind | settings | geomean (b) | geomean (c) | lowest (b) | lowest (c) | highest (c) |')
print('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
for ty in ('', '_i32'):
    B = [pick_ab(f'ab/ab_base{ty}-{i}.csv') for i in (1, 2, 3)]
    V = [pick_ab(f'ab/ab_vw{ty}-{i}.csv') for i in (1, 2, 3)]
    kinds = {}
    for k in B[0]:
        if k not in V[0] or k[2] == 'cub':
            continue
        kind = k[2][:2] if k[2][:2] in ('RB', 'RL', 'RA') else 'rule' if k[2].startswith('rule') else 'pick' if k[2] == 'pick' else None
        if not kind:
            continue
        med = lambda runs, i: sorted(d[k][i] for d in runs)[1]
        kinds.setdefault(kind, []).append((med(B, 0) / med(V, 0), med(B, 1) / med(V, 1)))
    for kind, l in kinds.items():
        print(f"| sum {'i32' if ty else 'f32'} | {kind} | {len(l)} | {geo([x[0] for x in l]):.3f} | {geo([x[1] for x in l]):.3f} | "
              f"{min(x[0] for x in l):.3f} | {min(x[1] for x in l):.3f} | {max(x[1] for x in l):.3f} |")

def rb(f):
    d = {}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        d[(r['type'], r['op'], int(r['m']), int(r['n']))] = r
    return d

print('\n## gpu_rows --set rb: the rule\'s picks, CUB / tgm, runs 1 / 2\n')
B = [rb(f'rb/rb_base-{i}.csv') for i in (1, 2)]
V = [rb(f'rb/rb_vw-{i}.csv') for i in (1, 2)]
print('| type | op | m x n | pick | VS (a) | VS (b) | VS (c) | VW (a) | VW (b) | VW (c) |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
g = {'VS': [[], [], []], 'VW': [[], [], []]}
for k in B[0]:
    cells = []
    for name, runs in (('VS', B), ('VW', V)):
        for i, t in enumerate('abc'):
            vals = [float(d[k]['cub_' + t]) / float(d[k]['tgm_' + t]) for d in runs]
            g[name][i] += vals
            cells.append(' / '.join(f'{v:.2f}' for v in vals))
    print(f"| {k[0]} | {k[1]} | {k[2]} x {k[3]} | {B[0][k]['pick']} | " + ' | '.join(cells) + ' |')
print()
for name in g:
    print(f"- {name}: geomean CUB/tgm (a) {geo(g[name][0]):.3f}, (b) {geo(g[name][1]):.3f}, (c) {geo(g[name][2]):.3f}; "
          f"cells below 1.00: {sum(v < 1 for t in g[name] for v in t)} of {sum(len(t) for t in g[name])}")
