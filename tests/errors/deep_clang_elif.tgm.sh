#!/usr/bin/env bash
# Writes a codelet with an else-if chain 30000 long, each branch in braces:
# clang overflowed its 8 MiB stack (a crash). Now an error at the else-if
# past 4000, before clang.
printf '__codelet __tag(scalar)\nT sum(const Array<1,T> in) {\n  T accum = 0;\n'
printf '  for (unsigned i = 0; i < in.Size(); i += in.Stride()) {\n'
printf '    if (in[i] == 0) {\n      accum += in[i];\n    }'
for ((i = 1; i < 30000; i++)); do printf ' else if (in[i] == 1) {\n      accum += in[i];\n    }'; done
printf ' else {\n      accum += in[i];\n    }\n  }\n  return accum;\n}\n'
