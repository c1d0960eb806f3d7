# pick (the embedded call: RA where the rule takes it) against rule-RL (the rule without atomics),
# mean of the runs given, (b) and (c) from pick_ab's CSV: python3 pick_vs_rl.py pa1.csv pa2.csv
import csv, collections, math, sys
d = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sys.argv[1:]:
    for r in csv.reader(open(f)):
        if len(r) >= 6 and r[0] == 'rows':
            d[(int(r[1]), int(r[2]))][r[3]].append((float(r[4]), float(r[5])))
mean = lambda l: (sum(x[0] for x in l) / len(l), sum(x[1] for x in l) / len(l))
print("| m x n | rule-RL (b) / (c) us | pick (RA) (b) / (c) us | TB/s (b) | RL / RA (b) | (c) |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
rb, rc = [], []
for sh in sorted(d, key=lambda s: (s[0] * s[1], s[0])):
    v = d[sh]
    rl = [k for k in v if k.startswith('rule-RL')]
    if not rl:
        continue
    a, p = mean(v[rl[0]]), mean(v['pick'])
    rb.append(a[0] / p[0]); rc.append(a[1] / p[1])
    print(f"| {sh[0]} x {sh[1]} | {a[0]:.2f} / {a[1]:.2f} | {p[0]:.2f} / {p[1]:.2f} | {sh[0]*sh[1]*4/p[0]/1e6:.2f} | {rb[-1]:.3f} | {rc[-1]:.3f} |")
g = lambda l: math.exp(sum(map(math.log, l)) / len(l))
print(f"\ngeomean RL / RA over {len(rb)} shapes: (b) {g(rb):.3f}, (c) {g(rc):.3f}; min (b) {min(rb):.3f}, (c) {min(rc):.3f}")
