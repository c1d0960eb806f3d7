import csv,collections,statistics as st,math,sys,glob,os
d=collections.defaultdict(list); shapes=[]
base=sys.argv[1] if len(sys.argv)>1 else '.'
for path in sorted(glob.glob(os.path.join(base,'abc_*.csv'))):
  b=os.path.basename(path)[4]
  f=open(path); next(f)
  for row in csv.DictReader(f):
    if row['setting']!='pick': continue
    s=(int(row['m']),int(row['n']))
    if s not in shapes: shapes.append(s)
    d[(s,b)].append((float(row['b_us']),float(row['c_us'])))
print("| m x n | A (b) / (c) us | B (b) / (c) | C (b) / (c) | A/B (b) | (c) | A/C (b) | (c) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
L=collections.defaultdict(list)
for s in sorted(shapes,key=lambda x:(x[0]*x[1],x[1])):
  v={b:(st.mean(x[0] for x in d[(s,b)]),st.mean(x[1] for x in d[(s,b)])) for b in 'ABC'}
  r=[v['A'][0]/v['B'][0],v['A'][1]/v['B'][1],v['A'][0]/v['C'][0],v['A'][1]/v['C'][1]]
  for i,x in enumerate(r): L[i].append(math.log(x))
  print(f"| {s[0]} x {s[1]} | {v['A'][0]:.2f} / {v['A'][1]:.2f} | {v['B'][0]:.2f} / {v['B'][1]:.2f} | {v['C'][0]:.2f} / {v['C'][1]:.2f} | "+" | ".join(f"{x:.3f}" for x in r)+" |")
g=[math.exp(sum(L[i])/len(L[i])) for i in range(4)]; mn=[math.exp(min(L[i])) for i in range(4)]
print(f"\ngeomean over {len(shapes)} shapes (mean of 2 runs): A/B (b) {g[0]:.3f} (min {mn[0]:.3f}), (c) {g[1]:.3f} (min {mn[1]:.3f}); A/C (b) {g[2]:.3f} (min {mn[2]:.3f}), (c) {g[3]:.3f} (min {mn[3]:.3f})")
