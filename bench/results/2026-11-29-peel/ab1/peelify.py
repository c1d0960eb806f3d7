# A/B transform: tgm_values_DS_SV loads a block's first chunk before anything else is computed,
# where the input is 16-byte aligned and the chunk whole (b1-ab's "peel"), then the loop from
# the next chunk; otherwise as before. Same combination order: results bit for bit the same.
import re, sys
for p in sys.argv[1:]:
    s = open(p).read()
    pat = re.compile(r"""template <unsigned BLOCK>
__device__ __forceinline__ A tgm_values_DS_SV\(const T \*__restrict__ in, tgm_size n, unsigned items, tgm_size b, tgm_size g, unsigned t\) \{
  tgm_size head = tgm_head\(in, n\), nv = \(n - head\) / TGM_VW;
  const V \*vin = reinterpret_cast<const V \*>\(in \+ head\);
  A value = items >= 16 \? tgm_vectors<BLOCK, 16>\(vin, nv, b, g, t, head\)
            : items >= 4 \? tgm_vectors<BLOCK, 4>\(vin, nv, b, g, t, head\)
                         : tgm_vectors<BLOCK, 1>\(vin, nv, b, g, t, head\);
  return b == 0 \? tgm_combine\(value, tgm_edges<BLOCK>\(in, n, head, nv, t\)\) : value;
\}
""")
    m = pat.search(s)
    if not m:
        print("no match", p); sys.exit(1)
    vec = re.search(r"value = tgm_combine\(value, (\w+)\(&v\[j\], 1, 1\)\);", s).group(1)
    new = f"""// peel: the first chunk of an aligned input loaded first, where it is whole
template <unsigned BLOCK, unsigned ITEMS>
__device__ __forceinline__ A tgm_vectors_peel(const T *__restrict__ in, tgm_size n, tgm_size b, tgm_size g, unsigned t) {{
  const tgm_size chunk = (tgm_size)BLOCK * ITEMS;
  A value = tgm_identity();
  tgm_size head = 0, next = b;
  if (((unsigned long long)in & 15) == 0 && (b + 1) * chunk * TGM_VW <= n) {{
    const V *vin = reinterpret_cast<const V *>(in);
    V v[ITEMS];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      v[j] = vin[b * chunk + t + j * BLOCK];
#pragma unroll
    for (unsigned j = 0; j < ITEMS; j++)
      value = tgm_combine(value, {vec}(&v[j], 1, 1));
    next = b + g;
  }} else
    head = tgm_head(in, n);
  tgm_size nv = (n - head) / TGM_VW;
  value = tgm_combine(value, tgm_vectors<BLOCK, ITEMS>(reinterpret_cast<const V *>(in + head), nv, next, g, t, head));
  return b == 0 ? tgm_combine(value, tgm_edges<BLOCK>(in, n, head, nv, t)) : value;
}}

template <unsigned BLOCK>
__device__ __forceinline__ A tgm_values_DS_SV(const T *__restrict__ in, tgm_size n, unsigned items, tgm_size b, tgm_size g, unsigned t) {{
  return items >= 16 ? tgm_vectors_peel<BLOCK, 16>(in, n, b, g, t)
         : items >= 4 ? tgm_vectors_peel<BLOCK, 4>(in, n, b, g, t)
                      : tgm_vectors_peel<BLOCK, 1>(in, n, b, g, t);
}}
"""
    s = s[:m.start()] + new + s[m.end():]
    open(p, 'w').write(s)
