# table.py DIR CHANGED.txt -- before (A) / after (E) per shape, from abe_*.csv; CHANGED.txt: 'm n moved old -> new' lines (changed.cu)
import csv,collections,statistics as st,math,glob,os,sys
base=sys.argv[1]; chf=sys.argv[2]
ch={}
for l in open(chf):
    f=l.split(); ch[(int(f[0]),int(f[1]))]=(f[2]=='1', ' '.join(f[3:]))
d=collections.defaultdict(list)
for path in glob.glob(os.path.join(base,'abe_*.csv')):
  b=os.path.basename(path)[4]
  f=open(path); next(f)
  for row in csv.DictReader(f):
    if row['setting']!='pick': continue
    d[((int(row['m']),int(row['n'])),b)].append((float(row['b_us']),float(row['c_us'])))
g=lambda r: math.exp(sum(map(math.log,r))/len(r))
print("| m x n | elements | pick before -> after | before (b) / (c) us | after (b) / (c) us | before / after (b) | (c) |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
R={True:([],[]),False:([],[])}
for s in sorted(ch,key=lambda x:(not ch[x][0],x[0]*x[1],x[1])):
  a=[st.mean(v[i] for v in d[(s,'A')]) for i in (0,1)]; n=[st.mean(v[i] for v in d[(s,'E')]) for i in (0,1)]
  R[ch[s][0]][0].append(a[0]/n[0]); R[ch[s][0]][1].append(a[1]/n[1])
  print(f"| {s[0]} x {s[1]} | 2^{math.log2(s[0]*s[1]):.1f} | {ch[s][1] if ch[s][0] else 'unchanged'} | {a[0]:.2f} / {a[1]:.2f} | {n[0]:.2f} / {n[1]:.2f} | {a[0]/n[0]:.3f} | {a[1]/n[1]:.3f} |")
for k,lab in ((True,'pick moved'),(False,'pick unchanged (the kernel alone)')):
  rb,rc=R[k]
  print(f"\n{lab}: {len(rb)} shapes, before / after (b) {min(rb):.3f}-{max(rb):.3f} geomean {g(rb):.3f}; (c) {min(rc):.3f}-{max(rc):.3f} geomean {g(rc):.3f}")
