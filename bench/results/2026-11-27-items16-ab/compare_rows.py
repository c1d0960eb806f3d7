#!/usr/bin/env python3
# rows_base.csv against rows_no16.csv (gpu_rows --bench --sweep): timing (b)
# cell by cell where both have it, base / no16 (> 1: no16 faster), by kind
import collections, csv, math, sys

def load(p):
    d = {}
    for r in csv.reader(l for l in open(p) if not l.startswith('#')):
        if r[0] != 'set':
            d[tuple(r[:6])] = (r[6], float(r[8]))
    return d

a, b = load(sys.argv[1]), load(sys.argv[2])
g = collections.defaultdict(list)
for k in a:
    if k in b:
        r = a[k][1] / b[k][1]
        g[(k[1], a[k][0].split()[0])].append(r)
        if abs(r - 1) > 0.05:
            print(' '.join(k), '|', a[k][0], '|', a[k][1], 'us', b[k][1], 'us', '| %.3f' % r)
for k, v in sorted(g.items()):
    print('%s %s: %d cells, geomean base/no16 (b) %.3f (%.3f..%.3f)' %
          (k[0], k[1], len(v), math.exp(sum(map(math.log, v)) / len(v)), min(v), max(v)))
