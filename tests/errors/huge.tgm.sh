#!/usr/bin/env bash
# Writes a 1 MB codelet file: 20000 comment lines, then a broken codelet.
for ((i = 0; i < 20000; i++)); do
  printf '// padding line %05d of a very large codelet file, to be skipped ...\n' "$i"
done
cat <<'TGM'
__codelet __tag(scalar)
T sum(const Array<1,T> in) {
  T accum = 0;
  for (unsigned i = 0; i < in.Size(); i++)
    accum /= in[i];
  return accum;
}
TGM
