import re,sys,math
def parse(f):
    d={};cur=None
    for l in open(f):
        m=re.match(r'### (\w+) (\w+)',l)
        if m: cur=m.group(1)+' '+m.group(2); continue
        m=re.match(r'\| 2\^(\d+) \|(.*)',l)
        if m and cur:
            c=[x.strip() for x in m.group(2).split('|')]
            d[(cur,int(m.group(1)))]=(float(c[2]),float(c[5]),float(c[6]),float(c[9]))
    return d
files=sys.argv[1:]
ds=[parse(f) for f in files]
ops=sorted(set(k[0] for k in ds[0]))
print('| op | timing | '+' | '.join('%s geomean 2^10..2^22 (lowest 2^10..2^30)'%f.split('/')[-1] for f in files)+' |')
print('| --- | --- |'+' --- |'*len(files))
for op in ops:
    for w,name in ((0,'(a)'),(1,'(b)'),(3,'(c)')):
        cells=[]
        for d in ds:
            g=math.exp(sum(math.log(d[(op,L)][w]) for L in range(10,23,2))/7)
            lo=min((d[(op,L)][w],L) for L in range(10,31,2))
            cells.append('%.3f (%.2f at 2^%d)'%(g,lo[0],lo[1]))
        print('| %s | %s | %s |'%(op,name,' | '.join(cells)))
for op in ops:
    print(op,'2^30 TB/s:',' / '.join('%.2f'%d[(op,30)][2] for d in ds), ' cells<1.0:',' / '.join(str(sum(1 for L in range(10,31,2) for w in (0,1,3) if d[(op,L)][w]<1.0)) for d in ds))
