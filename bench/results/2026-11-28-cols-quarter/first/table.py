import csv,collections,statistics as st,math,sys
d=collections.defaultdict(list); shapes=[]; oldset={}
for path in sys.argv[1:]:
  f=open(path); next(f)
  for row in csv.DictReader(f):
    s=(int(row['m']),int(row['n']))
    if s not in shapes: shapes.append(s)
    k='pick' if row['setting']=='pick' else 'old'
    if k=='old': oldset[s]=row['setting'][4:]
    d[(s,k)].append((float(row['b_us']),float(row['c_us'])))
lb=[];lc=[]
print("| m x n | elements | old pick | old (b) / (c) us | new (b) / (c) us | old / new (b) | (c) |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
for s in sorted(shapes,key=lambda x:(x[0]*x[1],x[1])):
  p=d[(s,'pick')]; o=d[(s,'old')]
  pb=st.median(x[0] for x in p); pc=st.median(x[1] for x in p); ob=st.median(x[0] for x in o); oc=st.median(x[1] for x in o)
  lb.append(math.log(ob/pb)); lc.append(math.log(oc/pc))
  print(f"| {s[0]} x {s[1]} | 2^{math.log2(s[0]*s[1]):.1f} | CT.SV {oldset[s]} | {ob:.2f} / {oc:.2f} | {pb:.2f} / {pc:.2f} | {ob/pb:.3f} | {oc/pc:.3f} |")
print(f"\ngeomean old / new over {len(lb)} shapes: (b) {math.exp(sum(lb)/len(lb)):.3f} (min {math.exp(min(lb)):.3f}, max {math.exp(max(lb)):.3f}); (c) {math.exp(sum(lc)/len(lc)):.3f} (min {math.exp(min(lc)):.3f}, max {math.exp(max(lc)):.3f}); medians of {len(sys.argv)-1} runs")
