"""variants.py -- the header variants of the A/B (edits of the row headers of tests/embed/headers at cab1c12,
the commit before the change):

    python3 variants.py HEADERS OUT KIND

  L   RB kernels with __launch_bounds__(BLOCK, 1024 / BLOCK)
  W   RB and RW.*SV kernels so (what codegen/rows.c now emits)
  N   RB kernels reading through tgm_values_DS_SV without the items-16 path
      (what an items-1/4 instantiation would be)
  L4  L, and the rule's items 4 for a block a row up to n < 8192 (not 4096)
"""
import os
import re
import sys

LEAN = ('template <unsigned BLOCK>\n__device__ __forceinline__ A tgm_values_DS_SV_lean(const T *__restrict__ in, '
        'tgm_size n, unsigned items, tgm_size b, tgm_size g, unsigned t) {\n'
        '  tgm_size head = tgm_head(in, n), nv = (n - head) / TGM_VW;\n'
        '  const V *vin = reinterpret_cast<const V *>(in + head);\n'
        '  A value = items >= 4 ? tgm_vectors<BLOCK, 4>(vin, nv, b, g, t, head) : tgm_vectors<BLOCK, 1>(vin, nv, b, g, t, head);\n'
        '  return b == 0 ? tgm_combine(value, tgm_edges<BLOCK>(in, n, head, nv, t)) : value;\n}\n\n')


def bounds(t, kinds):
    t, k = re.subn(r'void __launch_bounds__\(BLOCK\) (\w+)_(%s)_(\w+SV)\(' % kinds,
                   r'void __launch_bounds__(BLOCK, 1024 / BLOCK) \1_\2_\3(', t)
    assert k > 0
    return t


def main():
    src, dst, kind = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(dst, exist_ok=True)
    for f in os.listdir(src):
        t = open(os.path.join(src, f)).read()
        if 'rows' in f:
            if kind in ('L', 'L4'):
                t = bounds(t, 'RB')
            if kind == 'W':
                t = bounds(t, 'RB|RW')
            if kind == 'L4':
                old = '  if (n < 4096)\n    k.items = 4;'
                assert t.count(old) == 1
                t = t.replace(old, '  if (n < 8192)\n    k.items = 4;')
            if kind == 'N':
                i = t.index('// RV results into out[0..RV)')
                t = t[:i] + LEAN + t[i:]
                t, k = re.subn(r'void __launch_bounds__\(BLOCK\) \w+_RB_\w+SV\([^{]*\{.*?\n\}',
                               lambda m: m.group(0).replace('tgm_values_DS_SV<BLOCK>(', 'tgm_values_DS_SV_lean<BLOCK>('),
                               t, flags=re.S)
                assert k > 0
        open(os.path.join(dst, f), 'w').write(t)


main()
