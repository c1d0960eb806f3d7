#!/usr/bin/env python3
"""The A/B of bench/results/2026-11-30-per-items (call2.sh): base (dd6836f's headers, a kernel
choosing its path of items at run time) against new (a kernel per path), two runs each,
alternated. python3 compare.py > table.md"""
import csv, math, re

R = 'c2/r'
def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))

def d1(f):  # gpu_embed --bench markdown: {(type/op, n): {mode: (tgm, cub)}}
    d, sec = {}, None
    for line in open(f):
        m = re.match(r'### (\w+ \w+)', line)
        if m:
            sec = m.group(1)
            continue
        c = [x.strip() for x in line.split('|')[1:-1]]
        if sec and len(c) == 14 and c[0].startswith('2^'):
            d[(sec, c[0])] = {'a': (float(c[1]), float(c[2])), 'b': (float(c[4]), float(c[5])),
                              'c': (float(c[8]), float(c[9])), 'd': (float(c[11]), float(c[12]))}
    return d

print('# A kernel per path of items (H200): base / new, two runs each, alternated\n')
print('## 1-D embedded call (gpu_embed --quick --bench, the H200-tuned table)\n')
print('CUB/tgm geomean over 2^10..2^22 and its lowest, runs 1 / 2; base -> new\n')
print('| type/op | mode | base geomean | new geomean | base lowest | new lowest | cells below 1.00 base -> new |')
print('| --- | --- | --- | --- | --- | --- | --- |')
B = [d1(f'{R}/d1_base{i}.md') for i in (1, 2)]
N = [d1(f'{R}/d1_new{i}.md') for i in (1, 2)]
small = lambda n: int(n[2:]) <= 22
for sec in dict.fromkeys(k[0] for k in B[0]):
    for mode in 'abcd':
        cols = []
        for runs in (B, N):
            g = [geo([r[(sec, n)][mode][1] / r[(sec, n)][mode][0] for (s, n) in r if s == sec and small(n)]) for r in runs]
            lo = [min(r[(sec, n)][mode][1] / r[(sec, n)][mode][0] for (s, n) in r if s == sec) for r in runs]
            below = [sum(r[(sec, n)][mode][1] / r[(sec, n)][mode][0] < 1.0 for (s, n) in r if s == sec) for r in runs]
            cols.append((g, lo, below))
        f = lambda v: ' / '.join(f'{x:.2f}' for x in v)
        print(f'| {sec} | ({mode}) | {f(cols[0][0])} | {f(cols[1][0])} | {f(cols[0][1])} | {f(cols[1][1])} | '
              f"{'/'.join(map(str, cols[0][2]))} -> {'/'.join(map(str, cols[1][2]))} |")

def rb(f):
    d = {}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        d[(r['type'], r['op'], int(r['m']), int(r['n']))] = r
    return d

print('\n## Rows: the rule\'s picks (gpu_rows --quick --bench --set rb), CUB / tgm, runs 1 / 2\n')
B = [rb(f'{R}/rb_base{i}.csv') for i in (1, 2)]
N = [rb(f'{R}/rb_new{i}.csv') for i in (1, 2)]
print('| type | op | m x n | pick | base (a) | base (b) | base (c) | new (a) | new (b) | new (c) |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
g = {'base': [[], [], []], 'new': [[], [], []]}
for k in B[0]:
    cells = []
    for name, runs in (('base', B), ('new', N)):
        for i, t in enumerate('abc'):
            rs = [float(r[k][f'cub_{t}']) / float(r[k][f'tgm_{t}']) for r in runs]
            g[name][i] += rs
            cells.append(' / '.join(f'{x:.2f}' for x in rs))
    print(f"| {k[0]} | {k[1]} | {k[2]} x {k[3]} | {B[0][k]['pick']} | " + ' | '.join(cells) + ' |')
for name in ('base', 'new'):
    print(f"\n{name}: geomean CUB/tgm (a) {geo(g[name][0]):.3f}, (b) {geo(g[name][1]):.3f}, (c) {geo(g[name][2]):.3f}; "
          f"lowest (a) {min(g[name][0]):.2f}, (b) {min(g[name][1]):.2f}, (c) {min(g[name][2]):.2f}; "
          f"cells below 1.00 (b) {sum(x < 1 for x in g[name][1])}, (c) {sum(x < 1 for x in g[name][2])} of {len(g[name][1])}")

def ab(f):
    d = {}
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        d[(int(r['m']), int(r['n']), r['setting'])] = (float(r['b_us']), float(r['c_us']))
    return d

print('\n## pick_ab (sum f32): every RB setting and the pick, base / new time (> 1: new faster), mean of 2 runs\n')
B = [ab(f'{R}/ab_base{i}.csv') for i in (1, 2)]
N = [ab(f'{R}/ab_new{i}.csv') for i in (1, 2)]
kinds = {}
for k in B[0]:
    if k not in N[0] or k[2] == 'cub':
        continue
    items = re.search(r' i(\d+)', k[2])
    kind = (k[2][:2] + (f' i{items.group(1)}' if items else '')) if k[2][:2] in ('RB', 'RL', 'RA', 'RW') else k[2]
    mb = [sum(r[k][i] for r in B) / 2 for i in (0, 1)]
    mn = [sum(r[k][i] for r in N) / 2 for i in (0, 1)]
    kinds.setdefault(kind, []).append((mb[0] / mn[0], mb[1] / mn[1]))
print('| setting | count | geomean (b) | geomean (c) | lowest (c) | highest (c) |')
print('| --- | ---: | ---: | ---: | ---: | ---: |')
for kind, l in sorted(kinds.items()):
    print(f"| {kind} | {len(l)} | {geo([x[0] for x in l]):.3f} | {geo([x[1] for x in l]):.3f} | {min(x[1] for x in l):.3f} | {max(x[1] for x in l):.3f} |")

print('\n## pick_ab: the best setting of each shape against CUB (c), base -> new (mean of 2 runs)\n')
print('| m x n | CUB (c) us | best base (c) | CUB/best base | best new (c) | CUB/best new |')
print('| --- | ---: | --- | ---: | --- | ---: |')
for shape in dict.fromkeys(k[:2] for k in B[0]):
    cub = [sum(r[shape + ('cub',)][1] for r in runs) / 2 for runs in (B, N)]
    best = []
    for runs in (B, N):
        cand = [(sum(r[k][1] for r in runs) / 2, k[2]) for k in runs[0] if k[:2] == shape and k[2] != 'cub' and all(k in r for r in runs)]
        best.append(min(cand))
    print(f'| {shape[0]} x {shape[1]} | {cub[1]:.2f} | {best[0][1]} {best[0][0]:.2f} | {cub[0] / best[0][0]:.3f} | {best[1][1]} {best[1][0]:.2f} | {cub[1] / best[1][0]:.3f} |')
