# A/B transform: tgm_vectors' full chunks without per-load bounds (one guarded partial chunk after)
import re,sys
for p in sys.argv[1:]:
    s=open(p).read()
    pat=re.compile(r"""  for \(tgm_size lo = b \* chunk \+ t; lo < nv; lo \+= g \* chunk\) \{
    V v\[ITEMS\];
#pragma unroll
    for \(unsigned j = 0; j < ITEMS; j\+\+\)
      if \(lo \+ j \* BLOCK < nv\)
        v\[j\] = vin\[lo \+ j \* BLOCK\];
#pragma unroll
    for \(unsigned j = 0; j < ITEMS; j\+\+\)
      if \(lo \+ j \* BLOCK < nv\)
        (value = tgm_combine\(value, .*\);)
  \}
""")
    m=pat.search(s)
    if not m:
        print("no match", p); continue
    comb=m.group(1)
    new=f"""  tgm_size lo = b * chunk + t;
  for (; lo + (ITEMS - 1) * BLOCK < nv; lo += g * chunk) {{
    V v[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      v[j] = vin[lo + j * BLOCK];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      {comb}
  }}
  if (lo < nv) {{
    V v[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      if (lo + j * BLOCK < nv)
        v[j] = vin[lo + j * BLOCK];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      if (lo + j * BLOCK < nv)
        {comb}
  }}
"""
    s=s[:m.start()]+new+s[m.end():]
    open(p,'w').write(s)
