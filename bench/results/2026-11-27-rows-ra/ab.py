import csv, math, sys, collections
def load(f):
    d={}
    for r in csv.reader(l for l in open(f) if not l.startswith('#')):
        if r[0]=='set': continue
        d[tuple(r[:6])]=r
    return d
a=load(sys.argv[1]); b=load(sys.argv[2])
rows=[]
for k in a:
    if a[k][6].startswith('RA'):
        ra=a[k]; rl=b[k]
        rows.append((k,ra[6],float(rl[7])/float(ra[7]),float(rl[8])/float(ra[8]),float(rl[9])/float(ra[9]),float(ra[13])/float(ra[8]), float(rl[13])/float(rl[8])))
for r in sorted(rows,key=lambda r:(r[0][2],r[0][3],int(r[0][4])*int(r[0][5]))):
    k=r[0]; print(f"| {k[2]} {k[3]} | {k[4]} x {k[5]} | {r[1]} | {r[2]:.3f} | {r[3]:.3f} | {r[4]:.3f} | {r[6]:.2f} | {r[5]:.2f} |")
g=collections.defaultdict(list)
for r in rows: g[(r[0][2],r[0][3])].append(r)
allr=[]
for k,v in sorted(g.items()):
    gm=lambda i: math.exp(sum(math.log(x[i]) for x in v)/len(v))
    allr+=v
    print(k,len(v),"geomean a %.3f b %.3f c %.3f"%(gm(2),gm(3),gm(4)), "min a %.3f b %.3f c %.3f"%(min(x[2] for x in v),min(x[3] for x in v),min(x[4] for x in v)))
v=allr; gm=lambda i: math.exp(sum(math.log(x[i]) for x in v)/len(v))
print("all",len(v),"geomean a %.3f b %.3f c %.3f"%(gm(2),gm(3),gm(4)))
