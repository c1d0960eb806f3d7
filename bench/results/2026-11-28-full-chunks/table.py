import csv,collections,statistics as st,sys
d=collections.defaultdict(list)
shapes=[]
for b in ('base','full'):
  for r in (1,2):
    f=open(f'rows_{b}{r}.csv'); next(f)
    for row in csv.DictReader(f):
      s=row['m']+'x'+row['n']
      if s not in shapes: shapes.append(s)
      d[(b,s,row['setting'])].append((float(row['b_us']),float(row['c_us'])))
def med(b,s,k,i):
  v=[x[i] for x in d.get((b,s,k),[])]
  return st.mean(v) if v else float('nan')
sets=['pick','RB.SV b128 i1 p0','RB.SV b128 i4 p0','RB.SV b256 i4 p0','RB.SV b512 i4 p0']
for i,t in ((0,'(b)'),(1,'(c)')):
  print(f"\n{t}: CUB / setting, base | full (mean of two runs)")
  print("| m x n | cub us | "+" | ".join(sets)+" |")
  print("|---|---:|"+"---:|"*len(sets))
  for s in shapes:
    c=med('base',s,'cub',i); c2=med('full',s,'cub',i)
    print(f"| {s} | {c:.2f} | "+" | ".join(f"{c/med('base',s,k,i):.3f} / {c2/med('full',s,k,i):.3f}" for k in sets)+" |")
