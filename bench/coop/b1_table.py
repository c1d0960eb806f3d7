#!/usr/bin/env python3
"""b1_table.py RUN.csv [RUN.csv ...] -- bench/coop/b1_ab.cu's runs as a table:
per type and size, CUB's times and each kind's CUB/kind ratio in the three
timings (the mean over the runs), with each run's graph time."""
import csv,collections,sys
rows=collections.defaultdict(list)
for f in sys.argv[1:]:
    for r in csv.DictReader(l for l in open(f) if not l.startswith('#')):
        rows[(r['type'],int(r['n']),r['kind'],r['block'],r['items'])].append((float(r['a_us']),float(r['b_us']),float(r['c_us'])))
for t in ['f32','i32']:
  for n in sorted(set(k[1] for k in rows)):
    cub=[sum(x[i] for x in rows[(t,n,'cub','0','0')])/len(rows[(t,n,'cub','0','0')]) for i in range(3)]
    print(f'{t} n={n} cub a/b/c %.2f %.2f %.2f'%tuple(cub))
    for k,v in rows.items():
      if k[0]==t and k[1]==n and k[2]!='cub':
        m=[sum(x[i] for x in v)/len(v) for i in range(3)]
        print('   %-8s %4s x%-2s  CUB/x: a %.2f b %.2f c %.2f   (runs c: %s)'%(k[2],k[3],k[4],cub[0]/m[0],cub[1]/m[1],cub[2]/m[2],' '.join('%.2f'%x[2] for x in v)))
